/**
 * Rail provider webhooks (`POST /v1/rails/bank_ach/webhooks`): the provider says a transfer settled or
 * was returned; the execution it names settles with it.
 *
 * Signed like Raw's provider webhooks (docs/raw.md: `X-Provider-Signature`, HMAC-SHA-256 over the timestamp
 * and the raw body, five minutes of tolerance) with the rail's webhook secret. Every signature failure is
 * the same 401. It takes no Idempotency-Key: the signature authenticates it, and an event is applied once
 * by the execution's state (a redelivery answers `applied: false`).
 *
 * - settled: an unsettled execution completes (the receipt stored, the intent executed, the reservation
 *   consumed);
 * - returned before settlement: an unsettled execution fails (the intent failed, the reservation released);
 * - returned after settlement: the execution and the intent keep their status; the return is stored as a
 *   second receipt, appended to the intent's receipts and audited (execution.returned_after_settlement).
 */
import type { Clock } from '../../kernel/clock.ts'
import { digestOf, type AuditRecord } from '../../kernel/audit-record.ts'
import { AppError } from '../../kernel/errors.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { CommandRunner } from '../../platform/commands/command.ts'
import type { Database } from '../../platform/db/database.ts'
import { findUnsafeInput } from '../../platform/http/input-rules.ts'
import { compileArgumentsValidator, toIssues, type ValidationIssue } from '../../platform/http/validation.ts'
import { verifyProviderSignature } from '../raw/index.ts'
import { achReceipt } from './domain/sandbox-ach.ts'
import type { Dispatcher } from './dispatch.service.ts'
import type { ExecutionStore } from './execution.store.ts'
import { AchWebhookPayload } from './execution.schemas.ts'
import type { ExecutionPayments } from './ports.ts'
import type { AchWebhookBody } from './sandbox-ach.rail.ts'

/**
 * The rules every route's body obeys (platform/http/validation.ts), so a provider event is refused as any
 * bad body is, with the same issues: no coercion, unknown fields refused, and the kernel's `date-time`, which
 * refuses what no Date holds (a leap second `:60`, year 0000) where TypeBox's own format check took them.
 */
const payloadValidator = compileArgumentsValidator(AchWebhookPayload)

/** At most this many issues are listed: a body breaking every rule still gets a small answer. */
const payloadIssuesMax = 20

/**
 * What the schema does not say: a return carries its NACHA return code (the return's receipt, its audit
 * event and the action's proof all state it, and the proof's schema requires it), and every timestamp is one
 * `new Date` turns into an instant (the settlement receipt is written with `toISOString`, which throws on
 * anything else). Refused here, a bad event is a 400 the provider sees, not a 500 now or on every proof read
 * later.
 */
function eventIssues(event: AchWebhookBody): ValidationIssue[] {
  const issues: ValidationIssue[] = []
  if (event.type === 'transfer.returned' && event.return_code === null) {
    issues.push({ path: '/return_code', message: 'must be the NACHA return code (R and two digits) on a transfer.returned event', keyword: 'required' })
  }
  for (const field of ['settled_at', 'occurred_at'] as const) {
    const value = event[field]
    if (value !== null && Number.isNaN(new Date(value).getTime())) issues.push({ path: `/${field}`, message: 'must be a timestamp that exists', keyword: 'format' })
  }
  return issues
}

export interface RailWebhookAccepted {
  accepted: true
  applied: boolean
  execution_id: string
  execution_status: 'dispatched' | 'in_flight' | 'completed' | 'failed'
}

export function createRailWebhooks(deps: {
  db: Database
  commands: CommandRunner
  store: ExecutionStore
  payments: ExecutionPayments
  dispatcher: Pick<Dispatcher, 'applyAnswer'>
  ids: IdSource
  clock: Clock
  achWebhookSecret: string
}) {
  const { db, commands, store, payments, dispatcher, ids, clock } = deps

  /** The provider's return, recorded beside a settled execution. */
  async function recordReturn(tx: Parameters<Parameters<Database['transaction']>[0]>[0], execution: { id: string; tenantId: string; paymentIntentId: string; outboxId: string; attempts: number }, event: AchWebhookBody) {
    const receipt = { type: 'ach', provider: 'sandbox_ach', transfer_id: event.transfer_id, status: 'returned', return_code: event.return_code, returned_at: event.occurred_at, amount: event.amount, currency: event.currency }
    const receiptId = ids.newId('executionReceipt')
    const stored = await store.insertReceipt(tx, { id: receiptId, tenantId: execution.tenantId, executionId: execution.id, paymentIntentId: execution.paymentIntentId, kind: 'return', receipt, createdAt: clock.now() })
    if (!stored) return false
    await payments.appendReceipt(tx, execution.tenantId, execution.paymentIntentId, receiptId)
    const audit: AuditRecord = {
      tenantId: execution.tenantId,
      layer: 'execution',
      actor: { type: 'system', id: 'rail:bank_ach' },
      action: 'execution.returned_after_settlement',
      entity: { type: 'execution', id: execution.id },
      inputs: { payment_intent_id: execution.paymentIntentId, outbox_id: execution.outboxId, provider_event_id: event.id.slice(0, 128) },
      outputs: { receipt_id: receiptId, return_code: event.return_code, receipt_digest: digestOf(receipt) },
    }
    await commands.commit(tx, execution.tenantId, { audit: [audit] })
    return true
  }

  return {
    /**
     * A signed bank_ach provider event (see the module comment). Locks the execution it names; audits
     * what the worker audits for the same answer (execution.completed or .failed with the intent's move
     * and its event), or execution.returned_after_settlement. 404 rail_transfer_unknown when no execution
     * has the event's key (the provider redelivers).
     */
    async receiveAch(delivery: { signature: string | undefined; body: Buffer }): Promise<RailWebhookAccepted> {
      if (!verifyProviderSignature(delivery.signature, deps.achWebhookSecret, delivery.body, Math.floor(clock.now().getTime() / 1000))) {
        throw new AppError('rail_webhook_signature_invalid')
      }
      let event: AchWebhookBody
      try {
        event = JSON.parse(delivery.body.toString('utf8')) as AchWebhookBody
      } catch {
        throw new AppError('request_body_invalid', 'A rail webhook body must be JSON.')
      }
      // Read as raw bytes (for the signature), the body skips the NUL and lone-surrogate rules every other body obeys.
      const unsafe = findUnsafeInput(event)
      if (unsafe !== undefined) throw new AppError('request_body_invalid', undefined, { issues: [unsafe] })
      if (!payloadValidator(event)) {
        throw new AppError('request_body_invalid', undefined, { issues: toIssues(payloadValidator.errors ?? []).slice(0, payloadIssuesMax) })
      }
      const issues = eventIssues(event)
      if (issues.length > 0) throw new AppError('request_body_invalid', undefined, { issues })
      return db.transaction(async (tx) => {
        const execution = await store.findByIdempotencyKey(tx, event.metadata.tenant_id, event.idempotency_key, { forUpdate: true })
        if (execution === undefined || execution.rail !== 'bank_ach' || execution.paymentIntentId !== event.metadata.payment_intent_id) throw new AppError('rail_transfer_unknown', undefined, { transfer_id: event.transfer_id })
        const settled = execution.status === 'completed' || execution.status === 'failed'
        const answered = (applied: boolean, status = execution.status): RailWebhookAccepted => ({ accepted: true, applied, execution_id: execution.id, execution_status: status })
        if (!settled) {
          const settledAt = event.settled_at === null ? null : new Date(event.settled_at)
          const answer =
            event.type === 'transfer.settled' || settledAt !== null
              ? { kind: 'completed' as const, receipt: achReceipt({ id: event.transfer_id, amount: event.amount, currency: event.currency, settledAt }) }
              : { kind: 'failed' as const, code: `ach_returned_${event.return_code ?? 'unknown'}`, reason: `the transfer was returned before settlement (${event.return_code ?? 'no code'})` }
          const effects = await dispatcher.applyAnswer(tx, execution, answer)
          await commands.commit(tx, execution.tenantId, effects)
          // A return of a transfer that had settled: the settlement first, then the return beside it.
          if (event.type === 'transfer.returned' && answer.kind === 'completed') await recordReturn(tx, execution, event)
          return answered(true, answer.kind === 'completed' ? 'completed' : 'failed')
        }
        if (event.type === 'transfer.returned' && execution.status === 'completed') return answered(await recordReturn(tx, execution, event))
        return answered(false)
      })
    },
  }
}

export type RailWebhooks = ReturnType<typeof createRailWebhooks>
