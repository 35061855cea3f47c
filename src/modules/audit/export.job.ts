/**
 * The durable job that writes an audit export: it pages through the tenant's events in recorded order,
 * streams them as JSON Lines or CSV into the blob store (hashing on the way), and reports progress on
 * the export row so the status route can show it.
 */
import { Readable } from 'node:stream'
import { stringify } from 'csv-stringify/sync'
import type { Database } from '../../platform/db/database.ts'
import { retryLimitOf, type JobHandler, type PayloadOf } from '../../platform/jobs/job-queue.ts'
import { auditExportQueue } from './audit.jobs.ts'
import type { Clock } from '../../kernel/clock.ts'
import type { BlobStore } from '../../platform/storage/blob-store.ts'
import type { AuditStore, EventFilter } from './audit.store.ts'
import { toEventView, type AuditEventView } from './audit.service.ts'

/** Events read per page while writing an export. */
export const exportPageRows = 1_000
/** The largest export file accepted. */
export const exportBytesMax = 2 * 1024 * 1024 * 1024

export const csvColumns = [
  'id',
  'seq',
  'created_at',
  'layer',
  'actor_type',
  'actor_id',
  'action',
  'entity_type',
  'entity_id',
  'inputs',
  'outputs',
  'evidence_ids',
  'request_id',
  'prev_hash',
  'hash',
] as const

function csvRow(event: AuditEventView): Array<string | number | null> {
  return [
    event.id,
    event.seq,
    event.created_at,
    event.layer,
    event.actor.type,
    event.actor.id,
    event.action,
    event.entity.type,
    event.entity.id,
    JSON.stringify(event.inputs),
    JSON.stringify(event.outputs),
    JSON.stringify(event.evidence_ids),
    event.request_id,
    event.prev_hash,
    event.hash,
  ]
}

export function createExportHandler(deps: { db: Database; store: AuditStore; blobs: BlobStore; clock: Clock }): JobHandler<PayloadOf<typeof auditExportQueue>> {
  const { db, store } = deps
  return async (job) => {
    const { tenant_id: tenantId, export_id: exportId } = job.data
    const row = await store.findExport(db.orm, tenantId, exportId)
    // Deleted with its tenant, or already written by an earlier attempt: nothing to do.
    if (row === undefined || row.status === 'completed') return
    const filters = row.filters as { layer: EventFilter['layer'] | null; since: string | null; until: string | null }
    const filter = {
      layer: filters.layer ?? undefined,
      since: filters.since === null ? undefined : new Date(filters.since),
      until: filters.until === null ? undefined : new Date(filters.until),
    }
    try {
      const eventsTotal = await store.countEvents(db.orm, tenantId, filter)
      await store.updateExport(db.orm, tenantId, exportId, { status: 'running', eventsTotal, eventsWritten: 0, error: null })
      let written = 0
      async function* lines(): AsyncGenerator<string> {
        if (row!.format === 'csv') yield stringify([[...csvColumns]])
        let afterOrder: number | undefined
        for (;;) {
          const page = await store.listEvents(db.orm, tenantId, { ...filter, afterOrder, limit: exportPageRows })
          if (page.length === 0) return
          const views = page.map(toEventView)
          yield row!.format === 'csv' ? stringify(views.map(csvRow)) : `${views.map((view) => JSON.stringify(view)).join('\n')}\n`
          written += page.length
          afterOrder = page.at(-1)!.recordedOrder
          await store.updateExport(db.orm, tenantId, exportId, { eventsWritten: written })
          if (page.length < exportPageRows) return
        }
      }
      const stored = await deps.blobs.put(tenantId, Readable.from(lines()), { bytesMax: exportBytesMax })
      await store.updateExport(db.orm, tenantId, exportId, {
        status: 'completed',
        eventsWritten: written,
        blobSha256: stored.sha256,
        bytes: stored.bytes,
        completedAt: deps.clock.now(),
      })
    } catch (error) {
      const lastAttempt = job.retryCount >= retryLimitOf(auditExportQueue)
      await store.updateExport(db.orm, tenantId, exportId, {
        status: lastAttempt ? 'failed' : 'queued',
        error: error instanceof Error ? error.message.slice(0, 500) : 'export failed',
      })
      throw error
    }
  }
}
