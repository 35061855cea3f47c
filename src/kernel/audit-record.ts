/**
 * What an audit event says, in the words every module uses to record one (the audit module turns these
 * into its hash chain: modules/audit/domain/chain.ts). Inputs and outputs hold hashes, ids and small
 * scalars, never payloads or personal data (spec, "Audit").
 */
import { canonicalJson, sha256Hex } from './hashing.ts'

export const auditLayers = ['raw', 'ledger', 'wiki', 'policy', 'agent', 'execution', 'audit'] as const
export type AuditLayer = (typeof auditLayers)[number]

export const actorTypes = ['user', 'service', 'api_key', 'agent', 'platform', 'system', 'anonymous'] as const
export type ActorType = (typeof actorTypes)[number]

/** Inputs and outputs hold hashes, ids and small scalars only: never payloads or personal data. */
export type AuditValue = string | number | boolean | null | readonly string[]
export type AuditFields = Readonly<Record<string, AuditValue>>

export interface AuditActor {
  readonly type: ActorType
  readonly id: string
}

export interface AuditRecord {
  readonly tenantId: string
  readonly layer: AuditLayer
  readonly actor: AuditActor
  readonly action: string
  readonly entity: { readonly type: string; readonly id: string }
  readonly inputs?: AuditFields
  readonly outputs?: AuditFields
  readonly evidenceIds?: readonly string[]
  readonly requestId?: string | null
}

/** The digest to put in `inputs`/`outputs` in place of a value that must not be stored. */
export function digestOf(value: unknown): string {
  return `sha256:${sha256Hex(canonicalJson(value))}`
}

/** Programmer-error guard: audit fields must be flat and small, never a payload. */
export function assertAuditFields(fields: AuditFields, label: string): void {
  for (const [key, value] of Object.entries(fields)) {
    const scalar = value === null || ['string', 'number', 'boolean'].includes(typeof value)
    const idList = Array.isArray(value) && value.every((item) => typeof item === 'string')
    if (!scalar && !idList) throw new TypeError(`audit ${label}.${key} must be a scalar or a list of ids`)
    if (typeof value === 'string' && value.length > 256) throw new TypeError(`audit ${label}.${key} is too long to be a hash or id`)
  }
}
