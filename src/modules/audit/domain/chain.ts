/**
 * The audit chain's hash, defined so that anyone can recompute it (docs/audit.md):
 *
 *   hash = lowercase hex SHA-256 of the RFC 8785 canonical JSON of
 *     { v: 1, id, tenant_id, seq, layer, actor: { type, id }, action, entity: { type, id },
 *       inputs, outputs, evidence_ids, request_id, created_at, prev_hash }
 *
 * `created_at` is ISO 8601 UTC with milliseconds; `prev_hash` of a tenant's first event is 64 zeros.
 * Pure: no I/O, no clock.
 */
import { canonicalJson, sha256Hex } from '../../../kernel/hashing.ts'

export const auditLayers = ['raw', 'ledger', 'wiki', 'policy', 'agent', 'execution', 'audit'] as const
export type AuditLayer = (typeof auditLayers)[number]

export const actorTypes = ['user', 'service', 'api_key', 'agent', 'platform', 'system', 'anonymous'] as const
export type ActorType = (typeof actorTypes)[number]

export const genesisHash = '0'.repeat(64)

/** Inputs and outputs hold hashes, ids and small scalars only: never payloads or personal data. */
export type AuditValue = string | number | boolean | null | readonly string[]
export type AuditFields = Readonly<Record<string, AuditValue>>

export interface AuditEventBody {
  readonly id: string
  readonly tenantId: string
  readonly seq: number
  readonly layer: AuditLayer
  readonly actor: { readonly type: ActorType; readonly id: string }
  readonly action: string
  readonly entity: { readonly type: string; readonly id: string }
  readonly inputs: AuditFields
  readonly outputs: AuditFields
  readonly evidenceIds: readonly string[]
  readonly requestId: string | null
  readonly createdAt: Date
  readonly prevHash: string
}

export function canonicalAuditEvent(event: AuditEventBody): string {
  return canonicalJson({
    v: 1,
    id: event.id,
    tenant_id: event.tenantId,
    seq: event.seq,
    layer: event.layer,
    actor: { type: event.actor.type, id: event.actor.id },
    action: event.action,
    entity: { type: event.entity.type, id: event.entity.id },
    inputs: event.inputs,
    outputs: event.outputs,
    evidence_ids: event.evidenceIds,
    request_id: event.requestId,
    created_at: event.createdAt.toISOString(),
    prev_hash: event.prevHash,
  })
}

export function hashAuditEvent(event: AuditEventBody): string {
  return sha256Hex(canonicalAuditEvent(event))
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
