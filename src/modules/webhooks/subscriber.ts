/**
 * The webhooks module as the outbox's subscriber: an event is handed over (its fan-out queued, in the
 * recording transaction) only when an enabled endpoint of the tenant takes its type. An endpoint
 * receives only events recorded after it was registered, so when none takes an event the fan-out could
 * deliver nothing: the event is still recorded, but no job is written, claimed and completed (most
 * tenants have no endpoint).
 */
import { getTableName } from 'drizzle-orm'
import type { JobQueue } from '../../platform/jobs/job-queue.ts'
import type { EventSubscriber } from '../../platform/outbox/events.ts'
import { webhookFanoutQueue } from './webhooks.jobs.ts'
import { webhookEndpoints } from './webhooks.tables.ts'

/** Events per `webhook-fanout` job. */
export const fanoutChunk = 500

export function createWebhookSubscriber(deps: { jobs: Pick<JobQueue, 'enqueue'> }): EventSubscriber {
  return {
    // An empty `event_types` takes every type, as `endpointAccepts` decides at fan-out.
    takesAny: ({ tenant, types }) =>
      `exists (select 1 from ${getTableName(webhookEndpoints)} where ${webhookEndpoints.tenantId.name} = ${tenant} and ${webhookEndpoints.status.name} = 'enabled'` +
      ` and (cardinality(${webhookEndpoints.eventTypes.name}) = 0 or ${webhookEndpoints.eventTypes.name} && ${types}))`,
    async handOver(tx, tenantId, eventIds) {
      for (let offset = 0; offset < eventIds.length; offset += fanoutChunk) {
        await deps.jobs.enqueue(tx, webhookFanoutQueue, { tenant_id: tenantId, event_ids: eventIds.slice(offset, offset + fanoutChunk) })
      }
    },
  }
}
