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
 * The worker takes rows a batch at a time (`dispatchBatch`): the batch's claims share transaction 1, its
 * rail calls go out together (one call per rail where the rail takes a batch: `RailAdapter.submitMany`),
 * and its answers share transaction 3; every row keeps its own lease, result, audit and intent move.
 *
 * A crash before 1 commits leaves the outbox row pending (the job is retried, and the sweeper finds rows
 * nobody claimed); a crash after 1 leaves a lease that runs out, and the next attempt asks the rail first;
 * a crash before 3 commits is the same. Rails dedupe on the key in any case (rails.ts). The moments are
 * published on `steward:execution:step`, for each row of a batch, for the crash test, which kills the
 * process there.
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
import type { DispatchOrder, OutboxKey } from '../payments/index.ts'
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

/** A row's key in maps. */
const keyOf = (key: OutboxKey) => `${key.tenantId}:${key.outboxId}`
/** A fixed order for a batch's rows (tenant, then outbox id); the batch statements lock rows in the database's own key order. */
const compareKeys = (a: OutboxKey, b: OutboxKey) => (a.tenantId < b.tenantId ? -1 : a.tenantId > b.tenantId ? 1 : a.outboxId < b.outboxId ? -1 : a.outboxId > b.outboxId ? 1 : 0)

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

  /** What applying a rail's answer does: the execution as it becomes, and what the commit must carry. */
  type Applied = { result: DispatchResult; execution: ExecutionRow; audit: AuditRecord[]; events: PendingEvent[]; jobs: PendingJob[] }

  /**
   * Applies a rail's answer to a locked, unsettled execution (the worker's attempt, or a rail webhook):
   * writes its receipt and the intent's move, and answers the execution as it becomes (for the caller to
   * write) and what the commit must carry.
   */
  async function answerEffects(tx: Tx, execution: ExecutionRow, answer: RailAnswer): Promise<Applied> {
    const decision = decideAfter(answer, Math.max(1, execution.attempts), settings.retry)
    const now = clock.now()
    const released = { ...execution, claimedBy: null, leaseUntil: null, updatedAt: now }
    const order = { outboxId: execution.outboxId, paymentIntentId: execution.paymentIntentId }
    if (decision.execution === 'completed') {
      const receipt = (answer as Extract<RailAnswer, { kind: 'completed' }>).receipt
      const receiptId = ids.newId('executionReceipt')
      const [, moved] = await Promise.all([
        store.insertReceipt(tx, { id: receiptId, tenantId: execution.tenantId, executionId: execution.id, paymentIntentId: execution.paymentIntentId, kind: 'settlement', receipt, createdAt: now }),
        payments.settle(tx, execution.tenantId, order, { kind: 'executed', executionId: execution.id, receiptId }),
      ])
      return {
        result: 'completed',
        execution: { ...released, status: 'completed' },
        audit: [...moved.audit, executionAudit(execution, 'execution.completed', { status: 'completed', receipt_id: receiptId, receipt_type: String(receipt.type ?? 'unknown'), receipt_digest: digestOf(receipt) })],
        events: moved.events,
        jobs: [],
      }
    }
    if (decision.execution === 'failed') {
      const moved = await payments.settle(tx, execution.tenantId, order, { kind: 'failed', executionId: execution.id, code: decision.code, reason: decision.reason })
      return {
        result: 'failed',
        execution: { ...released, status: 'failed', failureCode: decision.code, failureReason: decision.reason.slice(0, 500) },
        audit: [...moved.audit, executionAudit(execution, 'execution.failed', { status: 'failed', failure_code: decision.code, failure_reason: decision.reason.slice(0, 256) })],
        events: moved.events,
        jobs: [],
      }
    }
    if ('awaiting' in decision) {
      return {
        result: 'awaiting',
        execution: { ...released, status: 'in_flight', railReference: decision.reference },
        audit: [executionAudit(execution, 'execution.awaiting_settlement', { status: 'in_flight', rail_reference: decision.reference })],
        events: [],
        jobs: [],
      }
    }
    if ('retryInSeconds' in decision) {
      const reason = (answer as Extract<RailAnswer, { kind: 'transient' }>).reason
      return {
        result: 'retry_scheduled',
        execution: { ...released, status: 'dispatched', nextAttemptAt: new Date(now.getTime() + decision.retryInSeconds * 1000) },
        audit: [executionAudit(execution, 'execution.retry_scheduled', { status: 'dispatched', retry_in_seconds: decision.retryInSeconds, reason: reason.slice(0, 256) })],
        events: [],
        jobs: [dispatchJob({ tenantId: execution.tenantId, outboxId: execution.outboxId }, decision.retryInSeconds)],
      }
    }
    const moved = await payments.settle(tx, execution.tenantId, order, { kind: 'reconciling', executionId: execution.id, reason: decision.reason })
    return {
      result: 'reconciling',
      execution: { ...released, status: 'in_flight', parkedReason: decision.reason.slice(0, 500) },
      audit: [...moved.audit, executionAudit(execution, 'execution.parked', { status: 'in_flight', reason: decision.reason.slice(0, 256) })],
      events: moved.events,
      jobs: [],
    }
  }

  /** `answerEffects` with the execution written: a rail webhook's answer. */
  async function applyAnswer(tx: Tx, execution: ExecutionRow, answer: RailAnswer): Promise<Omit<Applied, 'execution'>> {
    const { execution: next, ...effects } = await answerEffects(tx, execution, answer)
    await store.updateMany(tx, [next])
    return effects
  }

  type Claim = { readonly kind: 'claimed'; readonly order: DispatchOrder; readonly execution: ExecutionRow; readonly askFirst: boolean } | { readonly kind: DispatchResult }

  /**
   * Claims the rows in one transaction: the outbox rows, then their executions, locked in key order; for
   * each row, a new execution or the next attempt of its existing one, unless nothing is to be claimed.
   */
  async function claim(items: readonly OutboxKey[]): Promise<Claim[]> {
    return db.transaction(async (tx): Promise<Claim[]> => {
      const [orders, executions] = await Promise.all([payments.orders(tx, items, { forUpdate: true }), store.findByOutboxes(tx, items, { forUpdate: true })])
      const orderOf = new Map(orders.map((order) => [keyOf(order), order]))
      const executionOf = new Map(executions.map((execution) => [keyOf(execution), execution]))
      const now = clock.now()
      const leaseUntil = new Date(now.getTime() + settings.leaseSeconds * 1000)
      const inserted: ExecutionRow[] = []
      const updated: ExecutionRow[] = []
      const audit: AuditRecord[] = []
      const claims = items.map((item): Claim => {
        const order = orderOf.get(keyOf(item))
        if (order === undefined) return { kind: 'missing' }
        const existing = executionOf.get(keyOf(item))
        if (existing === undefined && order.outboxStatus !== 'pending') return { kind: 'settled' }
        if (existing !== undefined) {
          if (existing.status === 'completed' || existing.status === 'failed') return { kind: 'settled' }
          if (existing.parkedReason !== null) return { kind: 'parked' }
          if (existing.status === 'in_flight' && existing.railReference !== null) return { kind: 'awaiting_settlement' }
          if (existing.status === 'in_flight' && existing.leaseUntil !== null && existing.leaseUntil > now) return { kind: 'leased' }
          if (existing.status === 'dispatched' && existing.nextAttemptAt !== null && existing.nextAttemptAt > now) return { kind: 'not_due' }
        }
        const execution: ExecutionRow =
          existing === undefined
            ? {
                id: ids.newId('execution'),
                tenantId: order.tenantId,
                outboxId: order.outboxId,
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
        if (existing === undefined) inserted.push(execution)
        else updated.push(execution)
        const record = executionAudit(execution, existing === undefined ? 'execution.created' : 'execution.attempt_started', { status: 'in_flight', lease_until: leaseUntil.toISOString() })
        audit.push(record)
        return { kind: 'claimed', order, execution, askFirst: existing !== undefined }
      })
      // Everything leaves with the COMMIT, which fails if one of them did.
      commands.writeWithCommit(tx, [
        inserted.length > 0 ? store.insertMany(tx, inserted) : undefined,
        updated.length > 0 ? store.updateMany(tx, updated) : undefined,
        inserted.length > 0 ? payments.claim(tx, inserted) : undefined,
      ])
      // Each record names its tenant: the batch's records, whatever their tenants, go in one statement.
      if (audit.length > 0) commands.sendAudit(tx, audit[0]!.tenantId, audit)
      return claims
    })
  }

  /** The rail's answers for claimed rows of one rail: the key's status first where an attempt came before, then one submit for the rest. */
  async function callRail(rail: DispatchOrder['rail'], claimed: ReadonlyArray<Extract<Claim, { kind: 'claimed' }>>): Promise<RailAnswer[]> {
    const adapter = rails.adapterFor(rail)
    const failure = (error: unknown): RailAnswer => ({ kind: 'transient', reason: `the rail call failed: ${error instanceof Error ? error.message : String(error)}` })
    const answers: Array<RailAnswer | undefined> = await Promise.all(
      claimed.map(({ order, askFirst }) => (askFirst ? adapter.status(requestOf(order)).catch(failure) : undefined)),
    )
    const unanswered = claimed.flatMap((row, index) => (answers[index] === undefined ? [index] : []))
    if (unanswered.length > 0) {
      const requests = unanswered.map((index) => requestOf(claimed[index]!.order))
      const submitted =
        adapter.submitMany === undefined
          ? await Promise.all(requests.map((request) => adapter.submit(request).catch(failure)))
          : await adapter.submitMany(requests).catch((error: unknown) => requests.map(() => failure(error)))
      unanswered.forEach((index, position) => (answers[index] = submitted[position]))
    }
    return answers as RailAnswer[]
  }

  /**
   * One attempt at each of a batch of outbox rows (see the module comment), the batch's claims in one
   * transaction, its answers in another: locks the outbox rows and their executions in the claim, the
   * executions again when the answers are applied; audits execution.created or .attempt_started, then
   * execution.completed, .failed, .awaiting_settlement, .retry_scheduled or .parked with the intent's
   * payment_intent.executed, .failed or .reconciling (and its event); a retry enqueues the next attempt,
   * delayed. Each rail is asked once for its rows where it takes a batch. Answers each row's result, in
   * order; a row named twice is dispatched again after the rest (its second result is what that finds).
   */
  async function dispatchBatch(items: readonly OutboxKey[]): Promise<DispatchResult[]> {
    if (items.length === 0) return []
    const seen = new Set<string>()
    const first: number[] = []
    const again: number[] = []
    items.forEach((item, index) => {
      const key = keyOf(item)
      if (seen.has(key)) again.push(index)
      else (seen.add(key), first.push(index))
    })
    // One order for the rows, whatever order the jobs came in: the intents' locks (taken row by row when
    // the answers are applied) follow it.
    first.sort((a, b) => compareKeys(items[a]!, items[b]!))
    const batch = first.map((index) => items[index]!)
    const results: DispatchResult[] = new Array(items.length)
    const claims = await claim(batch)
    const claimed: Array<{ index: number; claim: Extract<Claim, { kind: 'claimed' }> }> = []
    claims.forEach((claimOfRow, position) => {
      if (claimOfRow.kind === 'claimed') claimed.push({ index: first[position]!, claim: claimOfRow as Extract<Claim, { kind: 'claimed' }> })
      else results[first[position]!] = claimOfRow.kind
    })
    if (claimed.length > 0) {
      for (const { claim: row } of claimed) step('claimed', row.order.tenantId, row.order.outboxId)
      const answers = new Map<Extract<Claim, { kind: 'claimed' }>, RailAnswer>()
      const byRail = new Map<DispatchOrder['rail'], Array<Extract<Claim, { kind: 'claimed' }>>>()
      for (const { claim: row } of claimed) byRail.set(row.order.rail, [...(byRail.get(row.order.rail) ?? []), row])
      await Promise.all(
        [...byRail].map(async ([rail, rows]) => {
          const railAnswers = await callRail(rail, rows)
          rows.forEach((row, position) => answers.set(row, railAnswers[position]!))
        }),
      )
      for (const { claim: row } of claimed) step('rail_answered', row.order.tenantId, row.order.outboxId)
      const applied = await db.transaction(async (tx) => {
        const current = new Map((await store.findByOutboxes(tx, claimed.map(({ claim: row }) => row.order), { forUpdate: true })).map((row) => [keyOf(row), row]))
        const outcomes = await Promise.all(
          claimed.map(async ({ claim: row }) => {
            const execution = current.get(keyOf(row.order))
            // Another worker took the attempt over (this one outlived its lease), or a webhook settled it meanwhile.
            if (execution === undefined || execution.status !== 'in_flight' || execution.claimedBy !== workerId || execution.attempts !== row.execution.attempts) return undefined
            return answerEffects(tx, execution, answers.get(row)!)
          }),
        )
        const written = outcomes.flatMap((applied) => (applied === undefined ? [] : [applied.execution]))
        if (written.length > 0) commands.writeWithCommit(tx, [store.updateMany(tx, written)])
        for (const { claim: row } of claimed) step('before_commit', row.order.tenantId, row.order.outboxId)
        // One commit for the batch's effects, whatever their tenants: each audit record names its tenant, each
        // event is given its row's, and cites its record by index (shifted past the records gathered before it).
        const batch: { audit: AuditRecord[]; events: PendingEvent[]; jobs: PendingJob[] } = { audit: [], events: [], jobs: [] }
        outcomes.forEach((effects, position) => {
          if (effects === undefined) return
          const tenantId = claimed[position]!.claim.order.tenantId
          const shift = batch.audit.length
          batch.audit.push(...effects.audit)
          batch.events.push(...effects.events.map((event) => ({ ...event, tenantId: event.tenantId ?? tenantId, auditIndex: (event.auditIndex ?? 0) + shift })))
          batch.jobs.push(...effects.jobs)
        })
        if (batch.audit.length > 0) await commands.commit(tx, batch.audit[0]!.tenantId, batch)
        return outcomes.map((effects) => effects?.result ?? ('superseded' as const))
      })
      claimed.forEach(({ index, claim: row }, position) => {
        results[index] = applied[position]!
        step('committed', row.order.tenantId, row.order.outboxId)
      })
    }
    if (again.length > 0) {
      const repeated = await dispatchBatch(again.map((index) => items[index]!))
      again.forEach((index, position) => (results[index] = repeated[position]!))
    }
    return results
  }

  return {
    workerId,
    applyAnswer,
    dispatchBatch,
    /** One attempt at one outbox row: `dispatchBatch` of one. */
    async dispatch(tenantId: string, outboxId: string): Promise<DispatchResult> {
      const [result] = await dispatchBatch([{ tenantId, outboxId }])
      return result!
    },

    /**
     * The sweeper's pass: outbox rows nobody claimed within `pendingGraceSeconds` (a lost job), retries
     * that are due and attempts whose lease ran out (a dead worker), dispatched `batchSize` at a time.
     * Answers how many it took up.
     */
    async sweep(options: { pendingGraceSeconds: number; rowsMax: number; batchSize: number }): Promise<number> {
      const now = clock.now()
      const [pending, due] = await Promise.all([
        payments.pendingOrders(db.orm, new Date(now.getTime() - options.pendingGraceSeconds * 1000), options.rowsMax),
        store.due(db.orm, now, options.rowsMax),
      ])
      const seen = new Set<string>()
      const rows = [...pending, ...due].filter((row) => !seen.has(keyOf(row)) && seen.add(keyOf(row)))
      for (let start = 0; start < rows.length; start += options.batchSize) await dispatchBatch(rows.slice(start, start + options.batchSize))
      return rows.length
    },
  }
}

export type Dispatcher = ReturnType<typeof createDispatcher>
