/**
 * The two durable webhook jobs.
 *
 * `webhook-fanout` (one per business event or batch of up to 500, enqueued by the event recorder in the transaction of the
 * change): creates one delivery per enabled endpoint of the tenant whose filter accepts the event, and
 * enqueues a `webhook-deliver` job for each, in one transaction. The unique (endpoint_id, event_id)
 * index makes a re-run harmless: rows that exist are skipped and get no second job.
 *
 * `webhook-deliver` (one per attempt): counts the attempt on the delivery row first (one UPDATE that
 * also refuses a delivery that is finished or at the cap), then sends, then records the outcome. A
 * failure schedules the next attempt as a new job with a backoff delay, in the same transaction as the
 * outcome; the fifth failure dead-letters the delivery instead. Because the count is taken before the
 * request leaves, no path makes a sixth automatic attempt, and a job that pg-boss runs again after a
 * crash finds a delivery that already succeeded and does nothing.
 *
 * Both are commands of the system: each transaction they run ends in the command runner's commit of
 * its audit events and jobs (`commands.commit`), as a command of a caller does.
 */
import type { AuditRecord } from '../../kernel/audit-record.ts'
import type { CommandRunner } from '../../platform/commands/command.ts'
import type { Database, Tx } from '../../platform/db/database.ts'
import type { JobHandler, PayloadOf } from '../../platform/jobs/job-queue.ts'
import { webhookDeliverQueue, webhookFanoutQueue } from './webhooks.jobs.ts'
import type { Clock } from '../../kernel/clock.ts'
import type { IdSource } from '../../kernel/ids.ts'
import { afterFailedAttempt, boundedError, deliveryAttemptsMax, endpointAccepts } from './domain/delivery.ts'
import type { WebhookSender } from './sender.ts'
import type { DeliveryRow, WebhooksStore } from './webhooks.store.ts'

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
}

const system = { type: 'system', id: 'webhook-deliver' } as const

/**
 * Moves a delivery to dead_lettered and writes its dead letter (spec fields); returns its audit event,
 * webhook.delivery_dead_lettered, for the caller's commit. The caller holds the delivery row's lock.
 */
export async function deadLetterDelivery(deps: Pick<DeliveryJobDeps, 'store' | 'ids'>, tx: Tx, delivery: DeliveryRow, lastError: string, at: Date): Promise<AuditRecord> {
  await deps.store.updateDelivery(tx, delivery.tenantId, delivery.id, { status: 'dead_lettered', nextAttemptAt: null, lastError, updatedAt: at })
  await deps.store.insertDeadLetter(tx, {
    id: deps.ids.newId('webhookDeadLetter'),
    tenantId: delivery.tenantId,
    endpointId: delivery.endpointId,
    deliveryId: delivery.id,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    lastError,
    attemptCount: delivery.attemptCount,
    createdAt: at,
    lastAttemptAt: delivery.lastAttemptAt ?? at,
  })
  return {
    tenantId: delivery.tenantId,
    layer: 'audit',
    actor: system,
    action: 'webhook.delivery_dead_lettered',
    entity: { type: 'webhook_delivery', id: delivery.id },
    outputs: {
      endpoint_id: delivery.endpointId,
      event_id: delivery.eventId,
      event_type: delivery.eventType,
      attempt_count: delivery.attemptCount,
      last_status_code: delivery.lastStatusCode,
    },
  }
}

export function createFanoutHandler(deps: DeliveryJobDeps): JobHandler<PayloadOf<typeof webhookFanoutQueue>> {
  const { db, store, commands, ids, clock } = deps
  return async (job) => {
    const tenantId = job.data.tenant_id
    await db.transaction(async (tx) => {
      // Most tenants have no endpoint: look at the endpoints before loading the events.
      const enabled = await store.listEnabledEndpoints(tx, tenantId, clock.now())
      if (enabled.length === 0) return
      const found = await store.findEvents(tx, tenantId, job.data.event_ids)
      if (found.length === 0) return // the tenant was deleted since; nothing to deliver
      const now = clock.now()
      const deliveries: DeliveryRow[] = []
      for (const event of found) {
        for (const endpoint of enabled) {
          // An endpoint receives the events that happen after it is registered, not older ones still queued.
          if (endpoint.createdAt > event.createdAt || !endpointAccepts(endpoint.eventTypes, event.eventType)) continue
          deliveries.push({
            id: ids.newId('webhookDelivery'),
            tenantId,
            endpointId: endpoint.id,
            eventId: event.id,
            eventType: event.eventType,
            status: 'pending',
            attemptCount: 0,
            nextAttemptAt: now,
            lastAttemptAt: null,
            lastStatusCode: null,
            lastError: null,
            createdAt: now,
            updatedAt: now,
          })
        }
      }
      const inserted = await store.insertDeliveries(tx, deliveries)
      await commands.commit(tx, tenantId, { jobs: inserted.map((deliveryId) => ({ queue: webhookDeliverQueue, payload: { tenant_id: tenantId, delivery_id: deliveryId } })) })
    })
  }
}

export function createDeliverHandler(deps: DeliveryJobDeps): JobHandler<PayloadOf<typeof webhookDeliverQueue>> {
  const { db, store, commands, clock, sender } = deps
  return async (job) => {
    const tenantId = job.data.tenant_id
    const deliveryId = job.data.delivery_id
    const pending = await store.findDelivery(db.orm, tenantId, deliveryId)
    // Already succeeded or dead-lettered (a job run again after a crash), or deleted with its endpoint.
    if (pending === undefined || pending.status !== 'pending') return
    const endpoint = await store.findEndpoint(db.orm, tenantId, pending.endpointId)
    const event = await store.findEvent(db.orm, tenantId, pending.eventId)
    if (endpoint === undefined || event === undefined) return

    if (endpoint.status === 'disabled') {
      // Disabling stops delivery, but loses nothing: the delivery is parked as a dead letter that a
      // replay sends once the endpoint is enabled again.
      await db.transaction(async (tx) => {
        const current = await store.findDelivery(tx, tenantId, deliveryId, { forUpdate: true })
        if (current === undefined || current.status !== 'pending') return
        await commands.commit(tx, tenantId, { audit: [await deadLetterDelivery(deps, tx, current, 'endpoint disabled before delivery', clock.now())] })
      })
      return
    }

    const claimed = await store.claimAttempt(db.orm, tenantId, deliveryId, clock.now(), deliveryAttemptsMax)
    if (claimed === undefined) {
      // Pending but at the cap: a worker stopped between counting the last attempt and recording its
      // outcome. Its outcome is unknown, and there is no sixth attempt: it becomes a dead letter.
      await db.transaction(async (tx) => {
        const current = await store.findDelivery(tx, tenantId, deliveryId, { forUpdate: true })
        if (current === undefined || current.status !== 'pending' || current.attemptCount < deliveryAttemptsMax) return
        const lastError = current.lastError ?? 'the outcome of the last attempt was lost when a worker stopped'
        await commands.commit(tx, tenantId, { audit: [await deadLetterDelivery(deps, tx, current, lastError, clock.now())] })
      })
      return
    }
    const outcome = await sender.send(endpoint, event)

    await db.transaction(async (tx) => {
      const current = await store.findDelivery(tx, tenantId, deliveryId, { forUpdate: true })
      if (current === undefined || current.status !== 'pending') return
      const now = clock.now()
      if (outcome.ok) {
        await store.updateDelivery(tx, tenantId, deliveryId, {
          status: 'succeeded',
          lastStatusCode: outcome.statusCode,
          lastError: null,
          nextAttemptAt: null,
          updatedAt: now,
        })
        return
      }
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
      await commands.commit(tx, tenantId, {
        jobs: [{ queue: webhookDeliverQueue, payload: { tenant_id: tenantId, delivery_id: deliveryId }, options: { startAfterSeconds: next.delaySeconds } }],
      })
    })
  }
}
