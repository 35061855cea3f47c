/** The audit module's queues: publishing Merkle roots on chain, and writing exports. */
import Type from 'typebox'
import { defineQueue } from '../../platform/jobs/job-queue.ts'

/** Publishes pending Merkle roots on chain, up to 50 per transaction; one runs at a time. */
export const anchorPublishQueue = defineQueue({
  name: 'audit-anchor-publish',
  version: 1,
  payload: Type.Object({}, { additionalProperties: false }),
  policy: { policy: 'singleton', retryLimit: 3, retryDelay: 10, retryBackoff: true, expireInSeconds: 300 },
})

/** Writes one export file into the blob store. */
export const auditExportQueue = defineQueue({
  name: 'audit-export',
  version: 1,
  payload: Type.Object({ tenant_id: Type.String(), export_id: Type.String() }, { additionalProperties: false }),
  policy: { retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: 1800 },
})

export const auditQueues = [anchorPublishQueue, auditExportQueue] as const
