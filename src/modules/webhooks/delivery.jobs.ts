/**
 * The two durable webhook jobs, and the sweep that takes up deliveries whose job was lost.
 *
 * `webhook-fanout` (one per business event or batch of up to 500, enqueued by the event recorder in the transaction of the
 * change): creates one delivery per enabled endpoint of the tenant whose filter accepts the event, and
 * enqueues a `webhook-deliver` job for each, in one transaction. An endpoint disabled since the event was
 * recorded gets the delivery parked as a dead letter instead (as a delivery queued before the disable
 * is), so disabling an endpoint loses nothing whether the fan-out ran before it or not. The unique
 * (endpoint_id, event_id) index makes a re-run harmless: rows that exist are skipped and get no second job.
 *
 * `webhook-deliver` (one per attempt): counts the attempt on the delivery row first (one UPDATE that
 * also refuses a delivery that is finished, at the cap, or whose attempt another job already counted),
 * then sends, then records the outcome. A failure schedules the next attempt as a new job with a backoff
 * delay, in the same transaction as the outcome; the fifth failure dead-letters the delivery instead.
 * Because the count is taken before the request leaves, no path makes a sixth automatic attempt, and a
 * job that pg-boss runs again after a crash finds its attempt counted (or the delivery succeeded) and
 * does nothing.
 *
 * The delivery sweep (`sweepDeliveries`, every `deliverySweepIntervalMsDefault` in each worker process):
 * a pending delivery's `next_attempt_at` says when its next attempt is due, or, while an attempt is out,
 * when that attempt counts as lost. One overdue by more than the sweep's margin has no job that will
 * move it (the job was lost: pg-boss's retries ran out, the job was deleted, the outcome of its attempt
 * was never written): the sweep queues a job for its next attempt, or, once all five attempts are
 * counted, dead-letters it. A job that was merely late finds the attempt taken by the other and does
 * nothing, so the sweep never makes an attempt twice.
 *
 * All are commands of the system: each transaction they run ends in the command runner's commit of
 * its audit events and jobs (`commands.commit`), as a command of a caller does.
 */
import type { AuditRecord } from '../../kernel/audit-record.ts'
import type { CommandRunner, PendingJob } from '../../platform/commands/command.ts'
import type { Database, Tx } from '../../platform/db/database.ts'
import { retryLimitOf, type JobHandler, type PayloadOf } from '../../platform/jobs/job-queue.ts'
import { webhookDeliverQueue, webhookFanoutQueue } from './webhooks.jobs.ts'
import type { Clock } from '../../kernel/clock.ts'
import type { IdSource } from '../../kernel/ids.ts'
import {
  afterFailedAttempt,
  afterLostProgress,
  attemptLostAfterSeconds,
  boundedError,
  deliveryAttemptsMax,
  fanoutDecision,
} from './domain/delivery.ts'
import type { WebhookSender } from './sender.ts'
import type { DeliveryRow, NewDeadLetter, OverdueSelection, WebhooksStore } from './webhooks.store.ts'

export interface DeliveryJobDeps {
  readonly db: Database
  readonly store: WebhooksStore
  /** Commits each transaction's audit events and jobs. */
  readonly commands: Pick<CommandRunner, 'commit'>
  readonly ids: IdSource
  readonly clock: Clock
  readonly sender: WebhookSender
  /** The first retry delay; later ones grow fourfold (domain/delivery.ts). */
  readonly retryBaseSeconds: number
  /** The sender's timeout for one request: an attempt counts as lost no sooner than this plus attemptLeaseMarginMs. */
  readonly requestTimeoutMs: number
  /** Told what failed where no caller sees it: a sweep pass, a fan-out on its last attempt (the process's log). */
  readonly onError: (error: unknown, message: string) => void
}

/**
 * How long an attempt's outcome may take beyond the request's own timeout before the attempt counts as
 * lost: loading the event before the request and writing the outcome after it take milliseconds; a
 * minute covers a stalled worker without leaving a lost attempt long unnoticed (as replayClaimMarginMs).
 */
export const attemptLeaseMarginMs = 60_000

/** How often each worker process sweeps (and again at once while a sweep finds a full page). */
export const deliverySweepIntervalMsDefault = 30_000
/**
 * How far past its `next_attempt_at` a pending delivery must be before the sweep takes it up. A live job
 * starts within a polling interval (2 s) of its time and a dead worker's job is retried by pg-boss within
 * about half a minute (platform/jobs/job-queue.ts), so two minutes means the job is gone, not late,
 * short of a backlog of minutes; a late job that does run after the sweep's finds its attempt taken.
 */
export const deliveryOverdueSecondsDefault = 120
/** Overdue deliveries one sweep pass takes up: each tenant's in one transaction. */
export const deliverySweepRowsMax = 500

const deliverActor = { type: 'system', id: 'webhook-deliver' } as const
const fanoutActor = { type: 'system', id: 'webhook-fanout' } as const
const sweepActor = { type: 'system', id: 'webhook-delivery-sweep' } as const
type SystemActor = typeof deliverActor | typeof fanoutActor | typeof sweepActor

/** Why a delivery of an endpoint disabled before its attempt is a dead letter. */
export const endpointDisabledError = 'endpoint disabled before delivery'

/** The dead letter of a delivery (spec fields) and its audit event, webhook.delivery_dead_lettered. */
function deadLetterOf(ids: IdSource, delivery: DeliveryRow, lastError: string, at: Date, actor: SystemActor): { deadLetter: NewDeadLetter; audit: AuditRecord } {
  return {
    deadLetter: {
      id: ids.newId('webhookDeadLetter'),
      tenantId: delivery.tenantId,
      endpointId: delivery.endpointId,
      deliveryId: delivery.id,
      eventId: delivery.eventId,
      eventType: delivery.eventType,
      lastError,
      attemptCount: delivery.attemptCount,
      createdAt: at,
      lastAttemptAt: delivery.lastAttemptAt ?? at,
    },
    audit: {
      tenantId: delivery.tenantId,
      layer: 'audit',
      actor,
      action: 'webhook.delivery_dead_lettered',
      entity: { type: 'webhook_delivery', id: delivery.id },
      outputs: {
        endpoint_id: delivery.endpointId,
        event_id: delivery.eventId,
        event_type: delivery.eventType,
        attempt_count: delivery.attemptCount,
        last_status_code: delivery.lastStatusCode,
      },
    },
  }
}

/**
 * Moves a delivery to dead_lettered and writes its dead letter (spec fields); returns its audit event,
 * webhook.delivery_dead_lettered, for the caller's commit. The caller holds the delivery row's lock.
 */
export async function deadLetterDelivery(
  deps: Pick<DeliveryJobDeps, 'store' | 'ids'>,
  tx: Tx,
  delivery: DeliveryRow,
  lastError: string,
  at: Date,
  actor: SystemActor = deliverActor,
): Promise<AuditRecord> {
  const { deadLetter, audit } = deadLetterOf(deps.ids, delivery, lastError, at, actor)
  await deps.store.updateDelivery(tx, delivery.tenantId, delivery.id, { status: 'dead_lettered', nextAttemptAt: null, lastError, updatedAt: at })
  await deps.store.insertDeadLetters(tx, [deadLetter])
  return audit
}

/** The job that makes attempt `delivery.attemptCount + 1`, due `startAfterSeconds` from its commit. */
function attemptJob(delivery: Pick<DeliveryRow, 'tenantId' | 'id' | 'attemptCount'>, startAfterSeconds?: number): PendingJob {
  return {
    queue: webhookDeliverQueue,
    payload: { tenant_id: delivery.tenantId, delivery_id: delivery.id, attempt_count: delivery.attemptCount },
    ...(startAfterSeconds === undefined ? {} : { options: { startAfterSeconds } }),
  }
}

/**
 * The fan-out job. On its last attempt (pg-boss retries it `retryLimit` times, with a backoff of up to five
 * minutes: about half an hour in all) a failure hands its events back to the outbox, whose sweep hands
 * them over again within seconds as a new job with a fresh set of retries; so a long outage delays
 * deliveries and loses none. A fan-out that can never succeed is retried so every half hour, each
 * round reported through `onError`.
 */
export function createFanoutHandler(deps: DeliveryJobDeps): JobHandler<PayloadOf<typeof webhookFanoutQueue>> {
  const fanOut = fanOutOnce(deps)
  return async (job) => {
    try {
      await fanOut(job)
    } catch (error) {
      if (job.retryCount >= retryLimitOf(webhookFanoutQueue)) {
        const tenantId = job.data.tenant_id
        const returned = await deps.store.returnEventsToPending(deps.db.orm, tenantId, job.data.event_ids).catch((returnError: unknown) => {
          deps.onError(returnError, `webhook fan-out of tenant ${tenantId}: its events could not be handed back to the outbox after its last attempt failed; they are not delivered`)
          return 0
        })
        deps.onError(error, `webhook fan-out of tenant ${tenantId} failed on its last attempt; ${returned} of its ${job.data.event_ids.length} events go back to the outbox, whose sweep fans them out again`)
      }
      throw error
    }
  }
}

function fanOutOnce(deps: DeliveryJobDeps): JobHandler<PayloadOf<typeof webhookFanoutQueue>> {
  const { db, store, commands, ids, clock } = deps
  return async (job) => {
    const tenantId = job.data.tenant_id
    await db.transaction(async (tx) => {
      // Most tenants have no endpoint: look at the endpoints before loading the events.
      const endpoints = await store.listFanoutEndpoints(tx, tenantId, clock.now())
      if (endpoints.length === 0) return
      const found = await store.findEvents(tx, tenantId, job.data.event_ids)
      if (found.length === 0) return // the tenant was deleted since; nothing to deliver
      const now = clock.now()
      const deliveries: DeliveryRow[] = []
      for (const event of found) {
        for (const endpoint of endpoints) {
          const decision = fanoutDecision(endpoint, event)
          if (decision === 'skip') continue
          const parked = decision === 'park'
          deliveries.push({
            id: ids.newId('webhookDelivery'),
            tenantId,
            endpointId: endpoint.id,
            eventId: event.id,
            eventType: event.eventType,
            status: parked ? 'dead_lettered' : 'pending',
            attemptCount: 0,
            nextAttemptAt: parked ? null : now,
            lastAttemptAt: null,
            lastStatusCode: null,
            lastError: parked ? endpointDisabledError : null,
            createdAt: now,
            updatedAt: now,
          })
        }
      }
      const inserted = new Set(await store.insertDeliveries(tx, deliveries))
      const created = deliveries.filter((delivery) => inserted.has(delivery.id))
      // Parked deliveries exactly as the deliver job parks one whose endpoint was disabled before its attempt.
      const parked = created.filter((delivery) => delivery.status === 'dead_lettered').map((delivery) => deadLetterOf(ids, delivery, endpointDisabledError, now, fanoutActor))
      await store.insertDeadLetters(tx, parked.map((entry) => entry.deadLetter))
      await commands.commit(tx, tenantId, {
        audit: parked.map((entry) => entry.audit),
        jobs: created.filter((delivery) => delivery.status === 'pending').map((delivery) => attemptJob(delivery)),
      })
    })
  }
}

export function createDeliverHandler(deps: DeliveryJobDeps): JobHandler<PayloadOf<typeof webhookDeliverQueue>> {
  const { db, store, commands, clock, sender } = deps
  const leaseSeconds = (deps.requestTimeoutMs + attemptLeaseMarginMs) / 1000
  return async (job) => {
    const tenantId = job.data.tenant_id
    const deliveryId = job.data.delivery_id
    const attemptCount = job.data.attempt_count
    /** The delivery still waits for the attempt this job is for (never one past the cap: no job is queued for it). */
    const awaitsThisJob = (delivery: DeliveryRow | undefined): delivery is DeliveryRow =>
      delivery !== undefined && delivery.status === 'pending' && delivery.attemptCount === attemptCount && attemptCount < deliveryAttemptsMax
    const pending = await store.findDelivery(db.orm, tenantId, deliveryId)
    // Already succeeded or dead-lettered, deleted with its endpoint, or this job's attempt already counted
    // (a duplicate of the job, or this job run again by pg-boss after it counted the attempt and failed).
    if (!awaitsThisJob(pending)) return
    const endpoint = await store.findEndpoint(db.orm, tenantId, pending.endpointId)
    const event = await store.findEvent(db.orm, tenantId, pending.eventId)
    if (endpoint === undefined || event === undefined) return

    if (endpoint.status === 'disabled') {
      // Disabling stops delivery, but loses nothing: the delivery is parked as a dead letter that a
      // replay sends once the endpoint is enabled again.
      await db.transaction(async (tx) => {
        const current = await store.findDelivery(tx, tenantId, deliveryId, { forUpdate: true })
        if (!awaitsThisJob(current)) return
        await commands.commit(tx, tenantId, { audit: [await deadLetterDelivery(deps, tx, current, endpointDisabledError, clock.now())] })
      })
      return
    }

    const at = clock.now()
    const lostAfter = new Date(at.getTime() + attemptLostAfterSeconds(attemptCount + 1, deps.retryBaseSeconds, leaseSeconds) * 1000)
    const claimed = await store.claimAttempt(db.orm, tenantId, deliveryId, { attemptCount, attemptsMax: deliveryAttemptsMax, at, lostAfter })
    // Another job counted this attempt since the read above; it makes the attempt.
    if (claimed === undefined) return
    const outcome = await sender.send(endpoint, event)

    await db.transaction(async (tx) => {
      const current = await store.findDelivery(tx, tenantId, deliveryId, { forUpdate: true })
      if (current === undefined || current.status !== 'pending') return
      const now = clock.now()
      if (outcome.ok) {
        // Delivered, even if this attempt was taken to be lost and a later one is out: that one then
        // finds the delivery succeeded and records nothing.
        await store.updateDelivery(tx, tenantId, deliveryId, {
          status: 'succeeded',
          lastStatusCode: outcome.statusCode,
          lastError: null,
          nextAttemptAt: null,
          updatedAt: now,
        })
        return
      }
      // Taken to be lost (it outlasted its lease) and overtaken by a later attempt, which owns the row.
      if (current.attemptCount !== claimed.attemptCount) return
      const failed = { ...current, lastStatusCode: outcome.statusCode, lastError: boundedError(outcome.error) }
      const next = afterFailedAttempt(current.attemptCount, deps.retryBaseSeconds)
      if (next.kind === 'dead_letter') {
        await store.updateDelivery(tx, tenantId, deliveryId, { lastStatusCode: outcome.statusCode })
        await commands.commit(tx, tenantId, { audit: [await deadLetterDelivery(deps, tx, failed, failed.lastError, now)] })
        return
      }
      await store.updateDelivery(tx, tenantId, deliveryId, {
        lastStatusCode: outcome.statusCode,
        lastError: failed.lastError,
        nextAttemptAt: new Date(now.getTime() + next.delaySeconds * 1000),
        updatedAt: now,
      })
      await commands.commit(tx, tenantId, { jobs: [attemptJob(current, next.delaySeconds)] })
    })
  }
}

/**
 * One pass of the delivery sweep: takes up at most `rowsMax` pending deliveries overdue by more than
 * `overdueSeconds` (oldest first, across tenants), and per tenant, in one transaction, locks those still
 * overdue (SKIP LOCKED: a row another process's sweep or job holds is left to it), queues a job for the
 * next attempt of each one that has attempts left (moving its `next_attempt_at` to now, so that no sweep
 * takes it up again before the job has had the margin to run), and dead-letters the others, whose fifth
 * attempt's outcome was lost (audited as webhook.delivery_dead_lettered, actor webhook-delivery-sweep).
 * Safe in several processes at once. Returns how many deliveries it found overdue; throws the first
 * tenant transaction that failed, once the other tenants are done.
 */
export async function sweepDeliveries(deps: DeliveryJobDeps, settings: { overdueSeconds: number; rowsMax: number }): Promise<number> {
  const { db, store, commands, clock } = deps
  const now = clock.now()
  const dueBefore = new Date(now.getTime() - settings.overdueSeconds * 1000)
  const selection: OverdueSelection = { dueBefore, unscheduledChangedBefore: new Date(dueBefore.getTime() - deps.requestTimeoutMs - attemptLeaseMarginMs) }
  const overdue = await store.listOverdueDeliveries(db.orm, selection, settings.rowsMax)
  const byTenant = new Map<string, string[]>()
  for (const row of overdue) byTenant.set(row.tenantId, [...(byTenant.get(row.tenantId) ?? []), row.id])
  // A tenant whose transaction fails does not hold up the others: the failure is rethrown after them.
  const failures: unknown[] = []
  for (const [tenantId, deliveryIds] of byTenant) {
    await db.transaction(async (tx) => {
      const locked = await store.lockOverdueDeliveries(tx, tenantId, deliveryIds, selection)
      const requeued: DeliveryRow[] = []
      const audit: AuditRecord[] = []
      for (const delivery of locked) {
        if (afterLostProgress(delivery.attemptCount) === 'requeue') {
          requeued.push(delivery)
          continue
        }
        const lastError = boundedError(
          `the outcome of attempt ${delivery.attemptCount} was never recorded (its worker stopped or failed)` +
            (delivery.lastError === null ? '' : `; the attempt before it: ${delivery.lastError}`),
        )
        audit.push(await deadLetterDelivery(deps, tx, delivery, lastError, now, sweepActor))
      }
      await store.rescheduleDeliveries(
        tx,
        tenantId,
        requeued.map((delivery) => delivery.id),
        now,
      )
      await commands.commit(tx, tenantId, { audit, jobs: requeued.map((delivery) => attemptJob(delivery)) })
    }).catch((error: unknown) => failures.push(error))
  }
  if (failures.length > 0) throw failures[0]
  return overdue.length
}

/**
 * Runs `sweepDeliveries` every `intervalMs` in this process (at once again after a full page), one pass
 * at a time, until the returned function is called; that function waits for a pass under way. A pass
 * that fails is reported through `onError` and left to the next one.
 */
export function startDeliverySweeper(deps: DeliveryJobDeps, settings: { intervalMs: number; overdueSeconds: number; rowsMax: number }): () => Promise<void> {
  let timer: NodeJS.Timeout | undefined
  let sweeping: Promise<unknown> = Promise.resolve()
  let stopped = false
  const schedule = (delayMs: number) => {
    if (stopped) return
    timer = setTimeout(tick, delayMs)
    // Never what keeps a process alive: the job queue's workers and the server are.
    timer.unref()
  }
  const tick = () => {
    if (stopped) return
    sweeping = sweepDeliveries(deps, settings).then(
      (found) => schedule(found >= settings.rowsMax ? 0 : settings.intervalMs),
      (error: unknown) => {
        deps.onError(error, 'webhook delivery sweep failed; the next pass takes its deliveries up')
        schedule(settings.intervalMs)
      },
    )
  }
  schedule(settings.intervalMs)
  return async () => {
    stopped = true
    if (timer !== undefined) clearTimeout(timer)
    await sweeping
  }
}
