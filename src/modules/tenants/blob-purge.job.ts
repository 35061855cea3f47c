/**
 * The durable job that purges a deleted tenant's stored bytes. Each outcome is audited on the deleted
 * tenant's chain (which outlives the tenant): purge_completed, purge_retried on a failed attempt that
 * will be retried, purge_exhausted on the last failed attempt.
 */
import type { CommandRunner } from '../../platform/commands/command.ts'
import type { Database } from '../../platform/db/database.ts'
import Type from 'typebox'
import { defineQueue, retryLimitOf, type JobHandler, type PayloadOf } from '../../platform/jobs/job-queue.ts'
import type { BlobStore } from '../../platform/storage/blob-store.ts'

/** Purges a deleted tenant's stored bytes, every object version. */
export const tenantBlobPurgeQueue = defineQueue({
  name: 'tenant-blob-purge',
  version: 1,
  payload: Type.Object({ tenant_id: Type.String() }, { additionalProperties: false }),
  policy: { retryLimit: 5, retryDelay: 5, retryBackoff: true, retryDelayMax: 600, expireInSeconds: 600 },
})

/**
 * The handler records each attempt's audit event through the command runner's `commit`, in a transaction
 * of its own: the purge itself is storage I/O, not a database change to share a transaction with.
 */
export function createBlobPurgeHandler(deps: { db: Database; commands: Pick<CommandRunner, 'commit'>; blobs: BlobStore }): JobHandler<PayloadOf<typeof tenantBlobPurgeQueue>> {
  const system = { type: 'system', id: 'tenant-blob-purge' } as const
  return async (job) => {
    const tenantId = job.data.tenant_id
    const attempt = job.retryCount + 1
    try {
      const { objectsDeleted } = await deps.blobs.purgeTenant(tenantId)
      await deps.db.transaction((tx) =>
        deps.commands.commit(tx, tenantId, {
          audit: [
            {
              tenantId,
              layer: 'audit',
              actor: system,
              action: 'tenant_blob.purge_completed',
              entity: { type: 'tenant', id: tenantId },
              outputs: { job_id: job.id, attempt, objects_deleted: objectsDeleted },
            },
          ],
        }),
      )
    } catch (error) {
      const exhausted = job.retryCount >= retryLimitOf(tenantBlobPurgeQueue)
      await deps.db.transaction((tx) =>
        deps.commands.commit(tx, tenantId, {
          audit: [
            {
              tenantId,
              layer: 'audit',
              actor: system,
              action: exhausted ? 'tenant_blob.purge_exhausted' : 'tenant_blob.purge_retried',
              entity: { type: 'tenant', id: tenantId },
              outputs: { job_id: job.id, attempt, error: error instanceof Error ? error.name : 'unknown' },
            },
          ],
        }),
      )
      throw error
    }
  }
}
