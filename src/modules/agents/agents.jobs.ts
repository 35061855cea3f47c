/** The agents module's queue: a run asked for by POST /v1/agents/events. */
import Type from 'typebox'
import { defineQueue, type PayloadOf } from '../../platform/jobs/job-queue.ts'

/**
 * One run of the pipeline (run.service.ts) for a queued event or intent, as the caller who queued it
 * (its principal as authenticated then). Retried on a crash or an unexpected error; a run whose
 * proposals were all made already ends without retry.
 */
export const agentsRunQueue = defineQueue({
  name: 'agents-run',
  version: 1,
  payload: Type.Object(
    {
      tenant_id: Type.String(),
      request_id: Type.String(),
      request: Type.Object({ event: Type.Optional(Type.String()), intent: Type.Optional(Type.String()), context: Type.Record(Type.String(), Type.Unknown()) }, { additionalProperties: false }),
      principal: Type.Object(
        { id: Type.String(), type: Type.String(), scopes: Type.Array(Type.String()), credential_id: Type.String(), role: Type.Optional(Type.String()) },
        { additionalProperties: false },
      ),
    },
    { additionalProperties: false },
  ),
  policy: { retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: 300 },
})

export type AgentsRunJob = PayloadOf<typeof agentsRunQueue>

export const agentsQueues = [agentsRunQueue] as const
