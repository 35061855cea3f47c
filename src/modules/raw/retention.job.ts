/**
 * The `raw-retention-purge` job: deletes the stored bytes of artifacts tombstoned more than
 * `tombstoneRetentionDays` ago. The artifact row stays (reads answer 410 either way) with
 * `bytes_purged_at` set. Bytes that another record of the tenant still holds (an audit export with the
 * same content: the store is content-addressed) are kept, and the row is marked purged all the same.
 *
 * Each artifact is purged in its own short transaction under the tenant's content lock for its SHA-256,
 * the lock an ingest of the same bytes takes, so a purge and a re-upload cannot cross (artifacts.ts).
 * Audited per artifact (raw.artifact_bytes_purged, layer raw, actor system), committed through the
 * command runner in the artifact's transaction.
 *
 * The worker enqueues the job every `retentionSweepIntervalMsDefault`; the queue is a singleton, so one
 * sweep runs at a time however many processes enqueue. A deleted tenant's bytes go with the tenant's
 * blob purge (tenants/blob-purge.job.ts), not here.
 */
import type { CommandRunner } from '../../platform/commands/command.ts'
import type { Database } from '../../platform/db/database.ts'
import type { JobHandler, PayloadOf } from '../../platform/jobs/job-queue.ts'
import { rawRetentionPurgeQueue } from './raw.jobs.ts'
import type { Clock } from '../../kernel/clock.ts'
import type { BlobStore } from '../../platform/storage/blob-store.ts'
import type { RawStore } from './raw.store.ts'
import type { BlobReferences } from './ports.ts'

export const tombstoneRetentionDays = 30
/** Artifacts read per page of a sweep. */
export const purgePageRows = 100
/** How often each worker process enqueues a sweep. */
export const retentionSweepIntervalMsDefault = 60 * 60 * 1000

const system = { type: 'system', id: 'raw-retention-purge' } as const

export function createRetentionPurgeHandler(deps: { db: Database; commands: CommandRunner; store: RawStore; blobs: BlobStore; clock: Clock; blobReferences: BlobReferences }): JobHandler<PayloadOf<typeof rawRetentionPurgeQueue>> {
  const { db, commands, store, blobs, clock } = deps
  return async () => {
    const now = clock.now()
    const cutoff = new Date(now.getTime() - tombstoneRetentionDays * 24 * 60 * 60 * 1000)
    for (;;) {
      const due = await store.listPurgeDue(db.orm, cutoff, purgePageRows)
      for (const candidate of due) {
        await db.transaction(async (tx) => {
          await store.lockContent(tx, candidate.tenantId, candidate.sha256)
          const artifact = await store.findArtifact(tx, candidate.tenantId, candidate.id, { forUpdate: true })
          // Restored, or purged by another sweep, since it was listed.
          if (artifact === undefined || artifact.status !== 'tombstoned' || artifact.bytesPurgedAt !== null) return
          if (artifact.tombstonedAt === null || artifact.tombstonedAt.getTime() > cutoff.getTime()) return
          const kept = await deps.blobReferences.isReferenced(tx, artifact.tenantId, artifact.sha256)
          const deleted = kept ? false : await blobs.delete(artifact.tenantId, artifact.sha256)
          await store.updateArtifact(tx, artifact.tenantId, artifact.id, { bytesPurgedAt: clock.now() })
          await commands.commit(tx, artifact.tenantId, {
            audit: [
              {
                tenantId: artifact.tenantId,
                layer: 'raw',
                actor: system,
                action: 'raw.artifact_bytes_purged',
                entity: { type: 'raw_artifact', id: artifact.id },
                outputs: { sha256: artifact.sha256, bytes: artifact.bytes, blob_deleted: deleted, kept_for_other_record: kept, retention_days: tombstoneRetentionDays },
              },
            ],
          })
        })
      }
      if (due.length < purgePageRows) return
    }
  }
}
