/**
 * Ledger versions (docs/raw-and-ledger.md, "Ledger rows: versions, ids, time"). A writer works on a
 * draft of an entity's content; `nextVersion` turns the draft into a new immutable version when, and
 * only when, its content differs from the current one. Pure.
 */
import { canonicalJson, sha256Hex } from '../../kernel/hashing.ts'
import { deterministicId } from '../../kernel/ids.ts'

/** Bookkeeping columns every version has; everything else is content. */
export interface VersionBookkeeping {
  versionId: string
  id: string
  tenantId: string
  version: number
  supersedes: string | null
  createdAt: Date
  updatedAt: Date
  supersededAt: Date | null
}

const bookkeeping = new Set<string>(['versionId', 'id', 'tenantId', 'version', 'supersedes', 'createdAt', 'updatedAt', 'supersededAt'])

/** The content of a version: what its hash covers (and so what makes two versions different). */
export function contentHash(row: object): string {
  const content: Record<string, unknown> = {}
  for (const [field, value] of Object.entries(row)) if (!bookkeeping.has(field)) content[field] = value
  return sha256Hex(canonicalJson(content))
}

/**
 * The version that records `draft`, or undefined when the draft's content equals `current`'s. The new
 * version's id is derived from the entity id, its number and its content, so the same change made
 * again (a normalization run repeated) produces the same id.
 */
export function nextVersion<Row extends VersionBookkeeping>(current: Row | undefined, draft: Row, at: Date): Row | undefined {
  const hash = contentHash(draft)
  if (current !== undefined && contentHash(current) === hash) return undefined
  const version = (current?.version ?? 0) + 1
  return {
    ...draft,
    versionId: deterministicId('ledgerVersion', draft.id, String(version), hash),
    version,
    supersedes: current?.versionId ?? null,
    createdAt: current?.createdAt ?? at,
    updatedAt: at,
    supersededAt: null,
  }
}

/** Adds values to a list, keeping first-seen order and at most `max` entries. */
export function withAdded(list: readonly string[], values: Iterable<string | undefined>, max = 50): string[] {
  const result = [...list]
  for (const value of values) {
    if (value === undefined || value === '' || result.includes(value)) continue
    if (result.length >= max) break
    result.push(value)
  }
  return result
}
