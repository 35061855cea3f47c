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

/**
 * One delivery attempt; a failure schedules the next attempt itself, up to the cap. `attempt_count` is
 * the delivery's count when the job was queued: the job makes attempt `attempt_count + 1` and does
 * nothing if that attempt was already counted (by a duplicate job, or by this job before pg-boss ran it
 * again). Version 2 added it; a version-1 job left from before is refused, and the delivery sweep takes
 * its delivery up once it is overdue.
 */
export const webhookDeliverQueue = defineQueue({
  name: 'webhook-deliver',
  version: 2,
  payload: Type.Object({ tenant_id: Type.String(), delivery_id: Type.String(), attempt_count: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }),
  // Attempts are counted by the delivery itself. pg-boss's retries cover a job that failed before it
  // counted its attempt (a database error, a dead worker); one that fails after it finds the attempt
  // counted and does nothing, and the delivery sweep (delivery.jobs.ts) drives the delivery from there,
  // as it does one whose retries ran out.
  policy: { retryLimit: 3, retryDelay: 5, expireInSeconds: 60 },
})

export const webhookQueues = [webhookFanoutQueue, webhookDeliverQueue] as const
