/**
 * The `bank_ach` rail in the sandbox: an ACH provider that authorizes and creates a transfer at once and
 * settles it later, telling Steward by a signed webhook (as a bank's API would). Two halves:
 *
 * - the **adapter** the worker calls (rails.ts's promises: one transfer per idempotency key, and the
 *   key's status from the provider's book);
 * - the **provider's back office**, a job that settles or returns a transfer some seconds after it was
 *   created and delivers the webhook, signed with the rail's webhook secret exactly as a provider would
 *   sign it (Raw's provider signature, docs/raw.md), through the same verifying receiver a real delivery
 *   takes.
 *
 * What a transfer does is chosen by its amount (domain/sandbox-ach.ts): settle, decline, return before or
 * after settlement, stay unavailable, or lose the answer.
 */
import type { Clock } from '../../kernel/clock.ts'
import type { IdSource } from '../../kernel/ids.ts'
import { toMinorUnits } from '../../kernel/money.ts'
import type { Database } from '../../platform/db/database.ts'
import type { JobQueue } from '../../platform/jobs/job-queue.ts'
import type { RailAnswer } from './domain/executions.ts'
import { providerSignatureHeader } from '../raw/index.ts'
import { achAnswerOf, sandboxAchScenario, sandboxReturnCodes } from './domain/sandbox-ach.ts'
import type { ExecutionStore, SandboxAchTransferRow } from './execution.store.ts'
import { sandboxAchSettleQueue } from './execution.jobs.ts'
import type { RailAdapter, RailRequest } from './rails.ts'

export interface SandboxAchSettings {
  /** How long after its creation the provider settles (or returns) a transfer. */
  readonly settleAfterSeconds: number
  /** How long after settlement a transfer chosen to be returned late is returned. */
  readonly returnAfterSeconds: number
}

export const defaultSandboxAchSettings: SandboxAchSettings = { settleAfterSeconds: 5, returnAfterSeconds: 5 }

/** What the provider's webhook says (the body it signs). */
export interface AchWebhookBody {
  /** The provider's event id: the same on every redelivery of one event. */
  readonly id: string
  readonly type: 'transfer.settled' | 'transfer.returned'
  readonly transfer_id: string
  /** The idempotency key the transfer was created with: how Steward finds its execution. */
  readonly idempotency_key: string
  /** What Steward attached to the transfer, echoed back (as providers echo metadata): the tenant names where the key lives. */
  readonly metadata: { readonly tenant_id: string; readonly payment_intent_id: string }
  readonly amount: string
  readonly currency: string
  readonly return_code: string | null
  readonly settled_at: string | null
  readonly occurred_at: string
}

export function achWebhookBodyOf(transfer: SandboxAchTransferRow, type: AchWebhookBody['type'], occurredAt: Date): AchWebhookBody {
  return {
    id: `evt_${transfer.id}_${type === 'transfer.settled' ? 'settled' : 'returned'}`,
    type,
    transfer_id: transfer.id,
    idempotency_key: transfer.idempotencyKey,
    metadata: { tenant_id: transfer.tenantId, payment_intent_id: transfer.paymentIntentId },
    amount: transfer.amount,
    currency: transfer.currency,
    return_code: transfer.returnCode,
    settled_at: transfer.settledAt?.toISOString() ?? null,
    occurred_at: occurredAt.toISOString(),
  }
}

export interface SandboxAchDeps {
  readonly db: Database
  readonly store: ExecutionStore
  readonly jobs: Pick<JobQueue, 'enqueue' | 'enqueueMany'>
  readonly ids: IdSource
  readonly clock: Clock
  readonly settings: SandboxAchSettings
  /** The secret the provider signs its webhooks with (the receiver checks it). */
  readonly webhookSecret: string
  /** Delivers a signed webhook to Steward's receiver (in-process: the same code an HTTP delivery reaches). */
  readonly deliver: (signature: string, body: Buffer) => Promise<void>
}

export function createSandboxAch(deps: SandboxAchDeps) {
  const { db, store, jobs, ids, clock, settings } = deps

  /**
   * The provider's API taking transfers, one call for several: each is recorded under its key (a key it
   * has seen answers the transfer it made, counted as a duplicate submit), and settled later by a job.
   * What a transfer does is chosen by its amount; an outage answers before anything is recorded.
   */
  async function submitMany(requests: readonly RailRequest[]): Promise<RailAnswer[]> {
    const scenarios = requests.map((request) => sandboxAchScenario(toMinorUnits(request.amount, request.currency)))
    const taken = requests.flatMap((request, index) => (scenarios[index] === 'unavailable' ? [] : [{ request, scenario: scenarios[index]! }]))
    const submitted = taken.length === 0 ? [] : await db.transaction(async (tx) => {
      const now = clock.now()
      const results = await store.sandboxAch.submitMany(
        tx,
        taken.map(({ request, scenario }) => ({
          id: ids.newId('sandboxAchTransfer'),
          idempotencyKey: request.idempotencyKey,
          tenantId: request.tenantId,
          paymentIntentId: request.paymentIntentId,
          amount: request.amount,
          currency: request.currency,
          status: scenario === 'declined' ? ('declined' as const) : ('pending' as const),
          returnCode: null,
          createdAt: now,
          settledAt: null,
          returnedAt: null,
        })),
      )
      const settling = results.filter(({ transfer, created }) => created && transfer.status === 'pending')
      await jobs.enqueueMany(
        tx,
        sandboxAchSettleQueue,
        settling.map(({ transfer }) => ({ data: { tenant_id: transfer.tenantId, transfer_id: transfer.id, step: 'settle' as const }, options: { startAfterSeconds: settings.settleAfterSeconds } })),
      )
      return results
    })
    const answers = new Map(taken.map(({ request, scenario }, index) => [request, { scenario, ...submitted[index]! }]))
    return requests.map((request): RailAnswer => {
      const done = answers.get(request)
      // The provider's API answered 503 before recording anything.
      if (done === undefined) return { kind: 'transient', reason: 'the sandbox ACH provider is unavailable (503)' }
      // The transfer exists, but the answer never reached the worker.
      if (done.created && done.scenario === 'answer_lost') return { kind: 'transient', reason: 'the connection to the sandbox ACH provider dropped before it answered' }
      return achAnswerOf(done.transfer)
    })
  }

  const adapter: RailAdapter = {
    rail: 'bank_ach',
    submitMany,
    async submit(request) {
      const [answer] = await submitMany([request])
      return answer!
    },
    async status(request) {
      const transfer = await store.sandboxAch.findByKey(db.orm, request.tenantId, request.idempotencyKey)
      return transfer === undefined ? undefined : achAnswerOf(transfer)
    },
  }

  /**
   * The provider's back office (the sandbox ACH settle job): moves the transfer (settle, or return before
   * or after settlement, by its scenario) and delivers the webhook for where it stands. A failed delivery
   * fails the job, which is retried and delivers the same event again.
   */
  async function settle(payload: { tenant_id: string; transfer_id: string; step: 'settle' | 'return' }): Promise<void> {
    const moved = await db.transaction(async (tx) => {
      const transfer = await store.sandboxAch.find(tx, payload.tenant_id, payload.transfer_id, { forUpdate: true })
      if (transfer === undefined) return undefined
      const now = clock.now()
      const scenario = sandboxAchScenario(toMinorUnits(transfer.amount, transfer.currency))
      if (payload.step === 'settle' && transfer.status === 'pending') {
        if (scenario === 'returned_before_settlement') {
          const values = { status: 'returned' as const, returnCode: sandboxReturnCodes.beforeSettlement, returnedAt: now }
          await store.sandboxAch.update(tx, transfer.tenantId, transfer.id, values)
          return { ...transfer, ...values }
        }
        const values = { status: 'settled' as const, settledAt: now }
        await store.sandboxAch.update(tx, transfer.tenantId, transfer.id, values)
        if (scenario === 'returned_after_settlement') {
          await jobs.enqueue(tx, sandboxAchSettleQueue, { tenant_id: transfer.tenantId, transfer_id: transfer.id, step: 'return' }, { startAfterSeconds: settings.returnAfterSeconds })
        }
        return { ...transfer, ...values }
      }
      if (payload.step === 'return' && transfer.status === 'settled') {
        const values = { status: 'returned' as const, returnCode: sandboxReturnCodes.afterSettlement, returnedAt: now }
        await store.sandboxAch.update(tx, transfer.tenantId, transfer.id, values)
        return { ...transfer, ...values }
      }
      return transfer
    })
    if (moved === undefined || moved.status === 'pending' || moved.status === 'declined') return
    const type = payload.step === 'return' || moved.status === 'returned' ? 'transfer.returned' : 'transfer.settled'
    const body = Buffer.from(JSON.stringify(achWebhookBodyOf(moved, type, moved.returnedAt ?? moved.settledAt ?? clock.now())))
    await deps.deliver(providerSignatureHeader(deps.webhookSecret, Math.floor(clock.now().getTime() / 1000), body), body)
  }

  return { adapter, settle }
}
