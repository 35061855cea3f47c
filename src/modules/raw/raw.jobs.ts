/** The Raw module's queues: extracting artifacts into parsed rows, and purging expired tombstoned bytes. */
import Type from 'typebox'
import { defineQueue } from '../../platform/jobs/job-queue.ts'

/** Parses one Raw artifact into parsed rows (all in one transaction), then hands it to the Ledger. */
export const rawExtractQueue = defineQueue({
  name: 'raw-extract',
  version: 1,
  payload: Type.Object({ tenant_id: Type.String(), artifact_id: Type.String() }, { additionalProperties: false }),
  policy: { retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: 900 },
})

/** Deletes the stored bytes of artifacts tombstoned longer than the retention period. */
export const rawRetentionPurgeQueue = defineQueue({
  name: 'raw-retention-purge',
  version: 1,
  payload: Type.Object({}, { additionalProperties: false }),
  policy: { policy: 'singleton', retryLimit: 2, retryDelay: 60, expireInSeconds: 900 },
})

export const rawQueues = [rawExtractQueue, rawRetentionPurgeQueue] as const
