/**
 * The outbox as the execution module sees it (issue 17): the dispatched intents it takes to the rails, and
 * the moves a rail's answer makes on them. Payments owns the outbox, the intents and the reservations;
 * the execution worker reads and moves them only through these functions, inside its own transactions,
 * and commits the audit records and events they return with its own.
 */
import type { AuditFields, AuditRecord } from '../../kernel/audit-record.ts'
import type { Clock } from '../../kernel/clock.ts'
import { assert } from '../../kernel/assert.ts'
import type { PendingEvent } from '../../platform/commands/command.ts'
import type { Executor, Tx } from '../../platform/db/database.ts'
import type { Rail } from './domain/gate.ts'
import { canMove, statusAfter, type PaymentIntentMove, type PaymentIntentStatus } from './domain/intents.ts'
import type { PaymentsStore } from './payments.store.ts'
import { intentEventPayload } from './payments.views.ts'
import { formatAmount } from '../../kernel/money.ts'

/** An outbox row with what a rail needs of its intent. */
export interface DispatchOrder {
  readonly tenantId: string
  readonly outboxId: string
  readonly outboxStatus: 'pending' | 'claimed' | 'done'
  readonly paymentIntentId: string
  readonly rail: Rail
  readonly idempotencyKey: string
  readonly intentStatus: PaymentIntentStatus
  readonly actionType: string
  /** Decimal string in the currency's precision. */
  readonly amount: string
  readonly currency: string
  readonly sourceAccountId: string
  readonly destinationCounterpartyId: string
  readonly createdByAgentId: string | null
}

/** Names an outbox row. */
export interface OutboxKey {
  readonly tenantId: string
  readonly outboxId: string
}

/** What a rail's answer does to the intent. */
export type DispatchOutcome =
  | { readonly kind: 'executed'; readonly executionId: string; readonly receiptId: string }
  | { readonly kind: 'failed'; readonly executionId: string; readonly code: string; readonly reason: string }
  | { readonly kind: 'reconciling'; readonly executionId: string; readonly reason: string }

/** The audit records and events a move produced, for the caller's commit. */
export interface DispatchEffects {
  readonly audit: AuditRecord[]
  readonly events: PendingEvent[]
}

/** The worker's actor in the audit chain. */
const workerActor = { type: 'system', id: 'execution-worker' } as const

const moveOf: Readonly<Record<DispatchOutcome['kind'], PaymentIntentMove>> = { executed: 'rail_succeeded', failed: 'rail_failed', reconciling: 'rail_unknown' }

export function createDispatchPort(deps: { store: PaymentsStore; clock: Clock }) {
  const { store, clock } = deps
  return {
    /**
     * The outbox rows named (any tenants) and their intents, in (tenant, outbox id) order, those not found
     * left out; with `forUpdate` the outbox rows are locked, in that order (one claimer at a time).
     */
    async orders(executor: Executor, keys: readonly OutboxKey[], options: { forUpdate?: boolean } = {}): Promise<DispatchOrder[]> {
      const rows = await store.findDispatchRows(executor, keys, options)
      return rows.map(({ intent, ...outbox }) => {
        assert(intent !== null, `outbox row ${outbox.outboxId} names an intent that does not exist`)
        return {
          tenantId: outbox.tenantId,
          outboxId: outbox.outboxId,
          outboxStatus: outbox.outboxStatus,
          paymentIntentId: intent.id,
          rail: outbox.rail as Rail,
          idempotencyKey: outbox.idempotencyKey,
          intentStatus: intent.status,
          actionType: intent.actionType,
          amount: formatAmount(intent.amount, intent.currency),
          currency: intent.currency,
          sourceAccountId: intent.sourceAccountId,
          destinationCounterpartyId: intent.destinationCounterpartyId,
          createdByAgentId: intent.createdByAgentId,
        }
      })
    },

    /** Outbox rows no worker has claimed, created before `createdBefore` (every tenant), oldest first. */
    pendingOrders: (executor: Executor, createdBefore: Date, limit: number) => store.pendingOutbox(executor, createdBefore, limit).then((rows) => rows.map((row) => ({ tenantId: row.tenantId, outboxId: row.id }))),

    /** Marks the outbox rows claimed by the worker (each has an execution now), in one statement. */
    claim: (tx: Tx, keys: readonly OutboxKey[]) => store.claimOutboxes(tx, keys),

    /**
     * Applies a rail's final or parking answer to the intent, under its row lock: executed (the receipt
     * appended, the reservation consumed, the outbox row done), failed (the reservation released, the
     * outbox row done) or reconciling (the reservation kept: the money may have moved). Answers the audit
     * record (payment_intent.executed, .failed or .reconciling, layer execution) and the event of the same
     * name; nothing when the intent has already left the statuses the move starts from.
     */
    async settle(tx: Tx, tenantId: string, order: Pick<DispatchOrder, 'outboxId' | 'paymentIntentId'>, outcome: DispatchOutcome): Promise<DispatchEffects> {
      const intent = await store.findIntent(tx, tenantId, order.paymentIntentId, { forUpdate: true })
      assert(intent !== undefined, `intent ${order.paymentIntentId} vanished under its outbox row`)
      const move = moveOf[outcome.kind]
      if (!canMove(intent.status, move)) return { audit: [], events: [] }
      const status = statusAfter(move)!
      const now = clock.now()
      const writes: Array<Promise<unknown>> = [store.moveIntent(tx, tenantId, intent.id, status, now)]
      let reservation: 'consumed' | 'released' | 'kept' = 'kept'
      if (outcome.kind !== 'reconciling') {
        reservation = outcome.kind === 'executed' ? 'consumed' : 'released'
        writes.push(store.updateOutboxStatus(tx, tenantId, order.outboxId, 'done'))
        writes.push(store.settleReservation(tx, tenantId, intent.id, reservation, now).then((moved) => (moved ? undefined : (reservation = 'kept'))))
      }
      if (outcome.kind === 'executed') writes.push(store.appendReceipt(tx, tenantId, intent.id, outcome.receiptId, now))
      await Promise.all(writes)
      const detail: AuditFields =
        outcome.kind === 'executed' ? { receipt_id: outcome.receiptId } : outcome.kind === 'failed' ? { failure_code: outcome.code, failure_reason: outcome.reason.slice(0, 256) } : { reason: outcome.reason.slice(0, 256) }
      const moved = { ...intent, status, updatedAt: now, executionReceiptIds: outcome.kind === 'executed' ? [...intent.executionReceiptIds, outcome.receiptId] : intent.executionReceiptIds }
      return {
        audit: [
          {
            tenantId,
            layer: 'execution',
            actor: workerActor,
            action: `payment_intent.${status}`,
            entity: { type: 'payment_intent', id: intent.id },
            inputs: { execution_id: outcome.executionId, outbox_id: order.outboxId },
            outputs: { status_before: intent.status, status, reservation, amount: formatAmount(intent.amount, intent.currency), currency: intent.currency, ...detail },
          },
        ],
        events: [{ type: `payment_intent.${status}` as PendingEvent['type'], payload: { ...intentEventPayload(moved), execution_id: outcome.executionId, ...detail } }],
      }
    },

    /** The agent's shadow record (the promotion scorecard's counts). */
    shadowCounts: (executor: Executor, tenantId: string, agentId: string) => store.shadowCounts(executor, tenantId, agentId),

    /**
     * Appends a receipt recorded after the intent settled (an ACH return after settlement) to its
     * execution_receipt_ids; the intent keeps its status.
     */
    appendReceipt: (tx: Tx, tenantId: string, paymentIntentId: string, receiptId: string) => store.appendReceipt(tx, tenantId, paymentIntentId, receiptId, clock.now()),
  }
}

export type PaymentsDispatch = ReturnType<typeof createDispatchPort>
