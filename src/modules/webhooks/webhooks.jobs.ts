/** The webhooks module's queues: fanning business events out to endpoints, and delivering them. */
import Type from 'typebox'
import { defineQueue } from '../../platform/jobs/job-queue.ts'

/** Creates one delivery per matching endpoint for each of a tenant's business events (up to 500). */
export const webhookFanoutQueue = defineQueue({
  name: 'webhook-fanout',
  version: 1,
  payload: Type.Object({ tenant_id: Type.String(), event_ids: Type.Array(Type.String(), { minItems: 1 }) }, { additionalProperties: false }),
  policy: { retryLimit: 10, retryDelay: 2, retryBackoff: true, retryDelayMax: 300, expireInSeconds: 60 },
})

/** One delivery attempt; a failure schedules the next attempt itself, up to the cap. */
export const webhookDeliverQueue = defineQueue({
  name: 'webhook-deliver',
  version: 1,
  payload: Type.Object({ tenant_id: Type.String(), delivery_id: Type.String() }, { additionalProperties: false }),
  // Attempts are counted by the delivery itself; pg-boss retries only a worker that died mid-attempt.
  policy: { retryLimit: 3, retryDelay: 5, expireInSeconds: 60 },
})

export const webhookQueues = [webhookFanoutQueue, webhookDeliverQueue] as const
