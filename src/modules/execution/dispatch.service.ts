/**
 * The execution worker (issue 17): takes one outbox row to its rail, at most one effect, never lost.
 *
 * One attempt is two short transactions around the rail call:
 * 1. **Claim.** Lock the outbox row (one claimer at a time, whatever the number of worker processes),
 *    create the execution (or take up the existing one) as `in_flight` with this worker's lease, audit it,
 *    commit. Nothing is claimed while another worker's lease runs, a retry is not yet due, a settlement
 *    is awaited or the intent is parked.
 * 2. **Call the rail** with the outbox row's idempotency key. From the second attempt on, the worker first
 *    asks the rail what it knows of the key (`status`) and submits only when the rail never saw it: an
 *    attempt that died after the rail acted is answered, not repeated.
 * 3. **Apply the answer.** Lock the execution again; if this worker's attempt is still the current one,
 *    apply domain/executions.ts's decision (completed, failed, awaiting settlement, retry later, parked
 *    reconciling) with the intent's move through the payments module, audit it, commit.
 *
 * A crash before 1 commits leaves the outbox row pending (the job is retried, and the sweeper finds rows
 * nobody claimed); a crash after 1 leaves a lease that runs out, and the next attempt asks the rail first;
 * a crash before 3 commits is the same. Rails dedupe on the key in any case (rails.ts). The moments are
 * published on `steward:execution:step` for the crash test, which kills the process there.
 */
import diagnostics from 'node:diagnostics_channel'
import { hostname } from 'node:os'
import { randomBytes } from 'node:crypto'
import type { AuditRecord } from '../../kernel/audit-record.ts'
import { digestOf } from '../../kernel/audit-record.ts'
import type { Clock } from '../../kernel/clock.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { CommandRunner, PendingEvent, PendingJob } from '../../platform/commands/command.ts'
import type { Database, Tx } from '../../platform/db/database.ts'
import type { DispatchOrder } from '../payments/index.ts'
import { decideAfter, type RailAnswer, type RetrySettings } from './domain/executions.ts'
import type { ExecutionRow, ExecutionStore } from './execution.store.ts'
import { executionDispatchQueue } from './execution.jobs.ts'
import type { ExecutionPayments } from './ports.ts'
import type { RailRegistry, RailRequest } from './rails.ts'

/** Where a dispatch can be interrupted; the crash test kills the worker at each. */
export const dispatchSteps = ['claimed', 'rail_answered', 'before_commit', 'committed'] as const
export type DispatchStep = (typeof dispatchSteps)[number]
export const executionStepChannel = diagnostics.channel('steward:execution:step')

export interface DispatchSettings {
  /** How long a claimed attempt is this worker's: longer than any rail call takes (rail adapters time out first). */
  readonly leaseSeconds: number
  readonly retry: RetrySettings
}

/** What one dispatch did. */
export type DispatchResult =
  | 'missing'
  | 'settled'
  | 'parked'
  | 'awaiting_settlement'
  | 'leased'
  | 'not_due'
  | 'superseded'
  | 'completed'
  | 'failed'
  | 'awaiting'
  | 'retry_scheduled'
  | 'reconciling'

/** The worker's actor in the audit chain. */
const workerActor = { type: 'system', id: 'execution-worker' } as const

/** The job that takes an outbox row to its rail (the gate enqueues it; a retry enqueues it delayed). */
export function dispatchJob(order: { tenantId: string; outboxId: string }, startAfterSeconds?: number): PendingJob {
  return {
    queue: executionDispatchQueue,
    payload: { tenant_id: order.tenantId, outbox_id: order.outboxId },
    ...(startAfterSeconds === undefined ? {} : { options: { startAfterSeconds } }),
  }
}

export function requestOf(order: DispatchOrder): RailRequest {
  return {
    tenantId: order.tenantId,
    paymentIntentId: order.paymentIntentId,
    outboxId: order.outboxId,
    idempotencyKey: order.idempotencyKey,
    actionType: order.actionType,
    amount: order.amount,
    currency: order.currency,
    sourceAccountId: order.sourceAccountId,
    destinationCounterpartyId: order.destinationCounterpartyId,
  }
}

export interface DispatchDeps {
  readonly db: Database
  readonly commands: CommandRunner
  readonly store: ExecutionStore
  readonly payments: ExecutionPayments
  readonly rails: RailRegistry
  readonly ids: IdSource
  readonly clock: Clock
  readonly settings: DispatchSettings
}

export function createDispatcher(deps: DispatchDeps) {
  const { db, commands, store, payments, rails, ids, clock, settings } = deps
  /** Names this process's claims (host, pid and a random part: a restarted process never holds its predecessor's lease). */
  const workerId = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`

  const step = (point: DispatchStep, tenantId: string, outboxId: string) => {
    if (executionStepChannel.hasSubscribers) executionStepChannel.publish({ point, tenantId, outboxId })
  }

  const executionAudit = (execution: ExecutionRow, action: string, outputs: AuditRecord['outputs']): AuditRecord => ({
    tenantId: execution.tenantId,
    layer: 'execution',
    actor: workerActor,
    action,
    entity: { type: 'execution', id: execution.id },
    inputs: { payment_intent_id: execution.paymentIntentId, outbox_id: execution.outboxId, rail: execution.rail, attempt: execution.attempts },
    ...(outputs === undefined ? {} : { outputs }),
  })

  /**
   * Applies a rail's answer to a locked, unsettled execution (the worker's attempt, or a rail webhook):
   * writes the execution, its receipt and the intent's move, and answers what the commit must carry.
   */
  async function applyAnswer(
    tx: Tx,
    execution: ExecutionRow,
    answer: RailAnswer,
  ): Promise<{ result: DispatchResult; audit: AuditRecord[]; events: PendingEvent[]; jobs: PendingJob[] }> {
    const decision = decideAfter(answer, Math.max(1, execution.attempts), settings.retry)
    const now = clock.now()
    const released = { claimedBy: null, leaseUntil: null, updatedAt: now }
    const order = { outboxId: execution.outboxId, paymentIntentId: execution.paymentIntentId }
    if (decision.execution === 'completed') {
      const receipt = (answer as Extract<RailAnswer, { kind: 'completed' }>).receipt
      const receiptId = ids.newId('executionReceipt')
      const [, , moved] = await Promise.all([
        store.insertReceipt(tx, { id: receiptId, tenantId: execution.tenantId, executionId: execution.id, paymentIntentId: execution.paymentIntentId, kind: 'settlement', receipt, createdAt: now }),
        store.update(tx, execution.tenantId, execution.id, { status: 'completed', ...released }),
        payments.settle(tx, execution.tenantId, order, { kind: 'executed', executionId: execution.id, receiptId }),
      ])
      return {
        result: 'completed',
        audit: [...moved.audit, executionAudit(execution, 'execution.completed', { status: 'completed', receipt_id: receiptId, receipt_type: String(receipt.type ?? 'unknown'), receipt_digest: digestOf(receipt) })],
        events: moved.events,
        jobs: [],
      }
    }
    if (decision.execution === 'failed') {
      const [, moved] = await Promise.all([
        store.update(tx, execution.tenantId, execution.id, { status: 'failed', failureCode: decision.code, failureReason: decision.reason.slice(0, 500), ...released }),
        payments.settle(tx, execution.tenantId, order, { kind: 'failed', executionId: execution.id, code: decision.code, reason: decision.reason }),
      ])
      return {
        result: 'failed',
        audit: [...moved.audit, executionAudit(execution, 'execution.failed', { status: 'failed', failure_code: decision.code, failure_reason: decision.reason.slice(0, 256) })],
        events: moved.events,
        jobs: [],
      }
    }
    if ('awaiting' in decision) {
      await store.update(tx, execution.tenantId, execution.id, { status: 'in_flight', railReference: decision.reference, ...released })
      return { result: 'awaiting', audit: [executionAudit(execution, 'execution.awaiting_settlement', { status: 'in_flight', rail_reference: decision.reference })], events: [], jobs: [] }
    }
    if ('retryInSeconds' in decision) {
      const nextAttemptAt = new Date(now.getTime() + decision.retryInSeconds * 1000)
      await store.update(tx, execution.tenantId, execution.id, { status: 'dispatched', nextAttemptAt, ...released })
      const reason = (answer as Extract<RailAnswer, { kind: 'transient' }>).reason
      return {
        result: 'retry_scheduled',
        audit: [executionAudit(execution, 'execution.retry_scheduled', { status: 'dispatched', retry_in_seconds: decision.retryInSeconds, reason: reason.slice(0, 256) })],
        events: [],
        jobs: [dispatchJob({ tenantId: execution.tenantId, outboxId: execution.outboxId }, decision.retryInSeconds)],
      }
    }
    const [, moved] = await Promise.all([
      store.update(tx, execution.tenantId, execution.id, { status: 'in_flight', parkedReason: decision.reason.slice(0, 500), ...released }),
      payments.settle(tx, execution.tenantId, order, { kind: 'reconciling', executionId: execution.id, reason: decision.reason }),
    ])
    return { result: 'reconciling', audit: [...moved.audit, executionAudit(execution, 'execution.parked', { status: 'in_flight', reason: decision.reason.slice(0, 256) })], events: moved.events, jobs: [] }
  }

  type Claim = { readonly kind: 'claimed'; readonly order: DispatchOrder; readonly execution: ExecutionRow; readonly askFirst: boolean } | { readonly kind: DispatchResult }

  async function claim(tenantId: string, outboxId: string): Promise<Claim> {
    return db.transaction(async (tx): Promise<Claim> => {
      const order = await payments.order(tx, tenantId, outboxId, { forUpdate: true })
      if (order === undefined) return { kind: 'missing' }
      const existing = await store.findByOutbox(tx, tenantId, outboxId, { forUpdate: true })
      const now = clock.now()
      if (existing === undefined && order.outboxStatus !== 'pending') return { kind: 'settled' }
      if (existing !== undefined) {
        if (existing.status === 'completed' || existing.status === 'failed') return { kind: 'settled' }
        if (existing.parkedReason !== null) return { kind: 'parked' }
        if (existing.status === 'in_flight' && existing.railReference !== null) return { kind: 'awaiting_settlement' }
        if (existing.status === 'in_flight' && existing.leaseUntil !== null && existing.leaseUntil > now) return { kind: 'leased' }
        if (existing.status === 'dispatched' && existing.nextAttemptAt !== null && existing.nextAttemptAt > now) return { kind: 'not_due' }
      }
      const leaseUntil = new Date(now.getTime() + settings.leaseSeconds * 1000)
      const execution: ExecutionRow =
        existing === undefined
          ? {
              id: ids.newId('execution'),
              tenantId,
              outboxId,
              paymentIntentId: order.paymentIntentId,
              rail: order.rail,
              idempotencyKey: order.idempotencyKey,
              status: 'in_flight',
              attempts: 1,
              claimedBy: workerId,
              leaseUntil,
              nextAttemptAt: null,
              railReference: null,
              parkedReason: null,
              failureCode: null,
              failureReason: null,
              createdAt: now,
              updatedAt: now,
            }
          : { ...existing, status: 'in_flight', attempts: existing.attempts + 1, claimedBy: workerId, leaseUntil, nextAttemptAt: null, updatedAt: now }
      if (existing === undefined) await Promise.all([store.insert(tx, execution), payments.claim(tx, tenantId, outboxId)])
      else await store.update(tx, tenantId, execution.id, { status: 'in_flight', attempts: execution.attempts, claimedBy: workerId, leaseUntil, nextAttemptAt: null, updatedAt: now })
      await commands.commit(tx, tenantId, {
        audit: [executionAudit(execution, existing === undefined ? 'execution.created' : 'execution.attempt_started', { status: 'in_flight', lease_until: leaseUntil.toISOString() })],
      })
      return { kind: 'claimed', order, execution, askFirst: existing !== undefined }
    })
  }

  /**
   * One attempt at an outbox row (see the module comment). Locks the outbox row and the execution in
   * the claim, the execution again when the answer is applied; audits execution.created or
   * .attempt_started, then execution.completed, .failed, .awaiting_settlement, .retry_scheduled or
   * .parked with the intent's payment_intent.executed, .failed or .reconciling (and its event); a retry
   * enqueues the next attempt, delayed.
   */
  async function dispatch(tenantId: string, outboxId: string): Promise<DispatchResult> {
    const claimed = await claim(tenantId, outboxId)
    if (claimed.kind !== 'claimed') return claimed.kind
    const { order, execution, askFirst } = claimed as Extract<Claim, { kind: 'claimed' }>
    step('claimed', tenantId, outboxId)
    const adapter = rails.adapterFor(order.rail)
    const request = requestOf(order)
    let answer: RailAnswer
    try {
      const known = askFirst ? await adapter.status(request) : undefined
      answer = known ?? (await adapter.submit(request))
    } catch (error) {
      answer = { kind: 'transient', reason: `the rail call failed: ${error instanceof Error ? error.message : String(error)}` }
    }
    step('rail_answered', tenantId, outboxId)
    const result = await db.transaction(async (tx) => {
      const current = await store.findByOutbox(tx, tenantId, outboxId, { forUpdate: true })
      // Another worker took the attempt over (this one outlived its lease), or a webhook settled it meanwhile.
      if (current === undefined || current.status !== 'in_flight' || current.claimedBy !== workerId || current.attempts !== execution.attempts) return 'superseded' as const
      const effects = await applyAnswer(tx, current, answer)
      step('before_commit', tenantId, outboxId)
      await commands.commit(tx, tenantId, effects)
      return effects.result
    })
    step('committed', tenantId, outboxId)
    return result
  }

  return {
    workerId,
    applyAnswer,
    dispatch,

    /**
     * The sweeper's pass: outbox rows nobody claimed within `pendingGraceSeconds` (a lost job), retries
     * that are due and attempts whose lease ran out (a dead worker), each dispatched in turn. Answers how
     * many it took up.
     */
    async sweep(options: { pendingGraceSeconds: number; rowsMax: number }): Promise<number> {
      const now = clock.now()
      const [pending, due] = await Promise.all([
        payments.pendingOrders(db.orm, new Date(now.getTime() - options.pendingGraceSeconds * 1000), options.rowsMax),
        store.due(db.orm, now, options.rowsMax),
      ])
      const seen = new Set<string>()
      let taken = 0
      for (const row of [...pending, ...due]) {
        const key = `${row.tenantId}:${row.outboxId}`
        if (seen.has(key)) continue
        seen.add(key)
        await dispatch(row.tenantId, row.outboxId)
        taken += 1
      }
      return taken
    },
  }
}

export type Dispatcher = ReturnType<typeof createDispatcher>
