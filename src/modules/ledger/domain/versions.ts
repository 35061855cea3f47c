/**
 * Ledger versions (docs/raw-and-ledger.md, "Ledger rows: versions, ids, time"). A writer works on a
 * draft of an entity's content; `nextVersion` turns the draft into a new immutable version when, and
 * only when, its content differs from the current one. Pure, except that the draft itself becomes the
 * version (filled in place, not copied).
 */
import { canonicalJson, sha256Hex } from '../../../kernel/hashing.ts'
import { deterministicId } from '../../../kernel/ids.ts'
import type { VersionBookkeeping } from './entities.ts'

export type { VersionBookkeeping }

const bookkeeping = new Set<string>(['versionId', 'id', 'tenantId', 'version', 'supersedes', 'createdAt', 'updatedAt', 'supersededAt'])

/** A content field and its `"name":`, as the content hash writes it. */
interface ContentField {
  readonly field: string
  readonly prefix: string
}

/** The content fields of a row with these keys, sorted (what canonicalization would do). */
function contentFieldsOf(keys: readonly string[]): readonly ContentField[] {
  return keys
    .filter((field) => !bookkeeping.has(field))
    .sort()
    .map((field) => ({ field, prefix: `${JSON.stringify(field)}:` }))
}

/**
 * The content fields of the row shapes a writer has hashed (one shape per table and row origin), so a
 * writer of many versions works them out once per shape rather than once per row. The writer creates
 * one and passes it to every `contentHash` and `nextVersion` of its run (a normalization run, a
 * reconciliation); calls without one work the fields out afresh.
 */
export class ContentFields {
  private readonly bySignature = new Map<string, readonly ContentField[]>()
  /** The last row's keys and fields: the rows of a batch mostly come one kind at a time, with the same keys. */
  private lastKeys: readonly string[] = []
  private lastFields: readonly ContentField[] = []

  of(record: Record<string, unknown>): readonly ContentField[] {
    const keys = Object.keys(record)
    if (sameKeys(keys, this.lastKeys)) return this.lastFields
    const signature = keys.join(',')
    let fields = this.bySignature.get(signature)
    if (fields === undefined) {
      fields = contentFieldsOf(keys)
      this.bySignature.set(signature, fields)
    }
    this.lastKeys = keys
    this.lastFields = fields
    return fields
  }
}

function sameKeys(keys: readonly string[], other: readonly string[]): boolean {
  if (keys.length !== other.length) return false
  for (let index = 0; index < keys.length; index += 1) if (keys[index] !== other[index]) return false
  return true
}

/**
 * The content of a version: what its hash covers (and so what makes two versions different). The hash
 * is over the RFC 8785 canonical JSON of the content fields; the flat fields are written directly in
 * sorted order (what canonicalization would do) and only nested values go through the canonicalizer,
 * since this runs for every Ledger row written.
 */
export function contentHash(row: object, fields?: ContentFields): string {
  const record = row as Record<string, unknown>
  let text = '{'
  for (const { field, prefix } of fields === undefined ? contentFieldsOf(Object.keys(record)) : fields.of(record)) {
    const value = record[field]
    if (value === undefined) continue
    const encoded = value === null || typeof value !== 'object' || Array.isArray(value) ? JSON.stringify(value) : isEmptyObject(value) ? '{}' : canonicalJson(value)
    text += text.length === 1 ? prefix + encoded : `,${prefix}${encoded}`
  }
  return sha256Hex(`${text}}`)
}

/** A plain object without own enumerable properties (what most metadata is), canonically `{}`. */
function isEmptyObject(value: object): boolean {
  for (const _ in value) return false
  return Object.getPrototypeOf(value) === Object.prototype
}

/**
 * The version that records `draft`, or undefined when the draft's content equals `current`'s. The new
 * version's id is derived from the entity id, its number and its content, so the same change made
 * again (a normalization run repeated) produces the same id. `fields`: the writer's, when it writes many.
 */
export function nextVersion<Row extends VersionBookkeeping>(current: Row | undefined, draft: Row, at: Date, fields?: ContentFields): Row | undefined {
  const hash = contentHash(draft, fields)
  if (current !== undefined && contentHash(current, fields) === hash) return undefined
  const version = (current?.version ?? 0) + 1
  // The draft becomes the version (drafts are the writer's own objects): no copy per Ledger row.
  draft.versionId = deterministicId('ledgerVersion', draft.id, String(version), hash)
  draft.version = version
  draft.supersedes = current?.versionId ?? null
  draft.createdAt = current?.createdAt ?? at
  draft.updatedAt = at
  draft.supersededAt = null
  return draft
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
