/** The execution module's queues: taking an outbox row to its rail, and the sandbox ACH provider's settlement. */
import Type from 'typebox'
import { defineQueue } from '../../platform/jobs/job-queue.ts'

/**
 * One attempt at an outbox row: enqueued by the gate in the commit that wrote the row, and again for each
 * retry after a transient failure. The execution row counts attempts; pg-boss retries only a worker that
 * died or threw (the attempt's lease and the rail's status for the key make a rerun safe).
 */
export const executionDispatchQueue = defineQueue({
  name: 'execution-dispatch',
  version: 1,
  payload: Type.Object({ tenant_id: Type.String(), outbox_id: Type.String() }, { additionalProperties: false }),
  policy: { retryLimit: 10, retryDelay: 2, retryBackoff: true, retryDelayMax: 120, expireInSeconds: 120 },
})

/**
 * The sandbox ACH provider settling (or returning) a transfer some time after it was created, and telling
 * Steward by its signed webhook. It stands in for a bank's own back office; nothing here runs for a real rail.
 */
export const sandboxAchSettleQueue = defineQueue({
  name: 'execution-sandbox-ach-settle',
  version: 1,
  payload: Type.Object({ tenant_id: Type.String(), transfer_id: Type.String(), step: Type.Union([Type.Literal('settle'), Type.Literal('return')]) }, { additionalProperties: false }),
  policy: { retryLimit: 10, retryDelay: 2, retryBackoff: true, retryDelayMax: 120, expireInSeconds: 60 },
})

export const executionQueues = [executionDispatchQueue, sandboxAchSettleQueue] as const
