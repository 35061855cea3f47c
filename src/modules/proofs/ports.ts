/**
 * What the proofs read side needs from other modules, as it needs it (the composition root wires each
 * port to that module's index): the payment intent's gate runs and evidence, the executions' receipts,
 * and the audit events with their inclusion proofs.
 */
import type { GateCheckResult } from '../payments/index.ts'

export interface ProofsPayments {
  /** The intent's gate runs and evidence; throws payment_intent_not_found for an id that names nothing of the tenant. */
  proofFacts(
    tenantId: string,
    paymentIntentId: string,
  ): Promise<{
    readonly gateRuns: ReadonlyArray<{ readonly auditEventId: string | null; readonly checks: readonly GateCheckResult[] }>
    readonly evidence: ReadonlyArray<{ readonly raw_id: string; readonly parsed_row_id: string; readonly parser: string; readonly confidence: number }>
  }>
}

export interface ProofsExecution {
  /** The ids of the intent's executions. */
  executionIdsOf(tenantId: string, paymentIntentId: string): Promise<string[]>
  /** Every receipt of the intent's executions. */
  receiptsOf(tenantId: string, paymentIntentId: string): Promise<ReadonlyArray<{ readonly id: string; readonly receipt: Record<string, unknown> }>>
}

/** An audit event as the audit module shows it, with its inclusion. */
export interface ProofsAuditEvent {
  readonly event: {
    readonly id: string
    readonly tenant_id: string
    readonly seq: number | null
    readonly layer: string
    readonly actor: { readonly type: string; readonly id: string }
    readonly action: string
    readonly entity: { readonly type: string; readonly id: string }
    readonly inputs: Record<string, unknown>
    readonly outputs: Record<string, unknown>
    readonly evidence_ids: string[]
    readonly request_id: string | null
    readonly created_at: string
    readonly prev_hash: string | null
    readonly hash: string | null
  }
  readonly inclusion: {
    readonly status: 'pending_sequence' | 'pending_batch' | 'included'
    readonly leaf: string | null
    readonly merkle_root: string | null
    readonly proof: string[]
    /** The batch: its id, and where it was published on chain (null fields until then). */
    readonly anchor: { readonly anchor_id: string; readonly publication_status: string } | null
  }
}

export interface ProofsAudit {
  /** The ids of every event about an entity, oldest first (none: an empty list). */
  eventIdsAbout(tenantId: string, entity: { type: string; id: string }): Promise<string[]>
  /** One event with its inclusion. */
  event(tenantId: string, eventId: string): Promise<ProofsAuditEvent>
}
