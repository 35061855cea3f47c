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
import type { ActorType, AuditFields, AuditLayer } from '../../../kernel/audit-record.ts'


export const genesisHash = '0'.repeat(64)

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

