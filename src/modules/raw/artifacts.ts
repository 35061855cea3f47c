/**
 * Recording stored bytes as a Raw artifact: the one path every artifact takes (uploads, URL fetches,
 * provider webhooks, e-mail attachments), so each is deduplicated, audited, announced and queued for
 * extraction the same way.
 *
 * Bytes are streamed into the content-addressed blob store first (hashing on the way); only then is the
 * SHA-256 known and the artifact row written, in one transaction with its audit event, its business
 * event and its `raw-extract` job. That transaction takes the tenant's content lock for the SHA-256
 * (`RawStore.lockContent`), as do the retention purge and `discard`, and checks that the bytes are still
 * in the store under the lock: a purge or discard that removed them between the write and the lock is
 * detected (503, retry) instead of leaving an artifact without bytes.
 */
import { Readable } from 'node:stream'
import type { AuditActor } from '../../kernel/audit-record.ts'
import type { AuditRecorder } from '../../platform/commands/audit-sink.ts'
import { digestOf } from '../../kernel/audit-record.ts'
import type { Database, Tx } from '../../platform/db/database.ts'
import type { JobQueue } from '../../platform/jobs/job-queue.ts'
import type { Clock } from '../../kernel/clock.ts'
import { AppError } from '../../kernel/errors.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { BlobStore, StoredBlob } from '../../platform/storage/blob-store.ts'
import type { EventRecorder } from '../../platform/outbox/events.ts'
import type { SourceType } from './domain/source-types.ts'
import type { ArtifactRow, RawStore } from './raw.store.ts'
import { rawExtractQueue } from './raw.jobs.ts'
import type { BlobReferences } from './ports.ts'

/** Who an artifact is recorded for and by: the tenant, the audit actor, the request (if any). */
export interface Attribution {
  readonly tenantId: string
  readonly actor: AuditActor
  readonly requestId: string | null
}

export interface ArtifactDraft {
  readonly sourceType: SourceType
  readonly mimeType: string
  readonly filename: string | null
  readonly sourceRef: Readonly<Record<string, unknown>>
  readonly parentArtifactId: string | null
}

/**
 * `created`: a new artifact. `deduplicated`: the tenant already had these bytes. `restored`: they were
 * tombstoned and a member ingested them again. `tombstoned`: they were tombstoned and stay so (a
 * provider replay or an attachment does not undo a member's delete).
 */
export type RecordOutcome = { readonly kind: 'created' | 'deduplicated' | 'restored' | 'tombstoned'; readonly artifact: ArtifactRow }

export interface ArtifactRecorder {
  /** Records inside the caller's transaction (extraction records e-mail attachments this way). */
  recordInTx(tx: Tx, attribution: Attribution, stored: StoredBlob, draft: ArtifactDraft, options: { restoreTombstoned: boolean }): Promise<RecordOutcome>
  /** Records in its own transaction; discards the bytes if the transaction fails or ends up not using them. */
  record(attribution: Attribution, stored: StoredBlob, draft: ArtifactDraft, options: { restoreTombstoned: boolean }): Promise<RecordOutcome>
  /** Deletes stored bytes no artifact keeps (a refused or failed upload), under the content lock. */
  discard(tenantId: string, sha256: string): Promise<void>
}

export interface ArtifactRecorderDeps {
  readonly db: Database
  readonly store: RawStore
  readonly blobs: BlobStore
  readonly audit: AuditRecorder
  readonly events: EventRecorder
  readonly jobs: Pick<JobQueue, 'enqueue' | 'nudge'>
  readonly ids: IdSource
  readonly clock: Clock
  readonly blobReferences: BlobReferences
}

/** The actor id recorded in `created_by`: `usr_…`, `svt_…`, `pcn_…`, or `system:<component>`. */
export function createdByOf(actor: AuditActor): string {
  return actor.type === 'system' ? `system:${actor.id}` : actor.id
}

export async function blobExists(blobs: BlobStore, tenantId: string, sha256: string): Promise<boolean> {
  const stream = await blobs.open(tenantId, sha256)
  if (stream === undefined) return false
  // The file is opened asynchronously: a delete racing the open must not surface as an unhandled error.
  stream.on('error', () => undefined)
  stream.destroy()
  return true
}

/** Stores an in-memory buffer (a webhook body, an attachment) the way an upload is stored. */
export function putBuffer(blobs: BlobStore, tenantId: string, content: Buffer, bytesMax: number): Promise<StoredBlob> {
  return blobs.put(tenantId, Readable.from([content]), { bytesMax })
}

export function createArtifactRecorder(deps: ArtifactRecorderDeps): ArtifactRecorder {
  const { db, store, blobs, audit, events, jobs, ids, clock } = deps

  async function recordInTx(tx: Tx, attribution: Attribution, stored: StoredBlob, draft: ArtifactDraft, options: { restoreTombstoned: boolean }): Promise<RecordOutcome> {
    const { tenantId } = attribution
    await store.lockContent(tx, tenantId, stored.sha256)
    if (!(await blobExists(blobs, tenantId, stored.sha256))) {
      throw new AppError('service_unavailable', 'The bytes were removed by a concurrent purge while this upload was being stored; retry the request.')
    }
    const existing = await store.findArtifactBySha256(tx, tenantId, stored.sha256, { forUpdate: true })
    const base = { tenantId, actor: attribution.actor, requestId: attribution.requestId, layer: 'raw' as const }

    if (existing === undefined) {
      const now = clock.now()
      const artifact: ArtifactRow = {
        id: ids.newId('rawArtifact'),
        tenantId,
        sha256: stored.sha256,
        bytes: stored.bytes,
        mimeType: draft.mimeType,
        sourceType: draft.sourceType,
        sourceRef: draft.sourceRef,
        filename: draft.filename,
        parentArtifactId: draft.parentArtifactId,
        status: 'stored',
        extractionStatus: 'pending',
        extractionError: null,
        parser: null,
        parserVersion: null,
        extractedAt: null,
        createdBy: createdByOf(attribution.actor),
        ingestedAt: now,
        tombstonedAt: null,
        bytesPurgedAt: null,
      }
      if (!(await store.insertArtifact(tx, artifact))) throw new Error(`raw artifact ${stored.sha256} appeared while its content lock was held`)
      const audited = await audit.record(tx, {
        ...base,
        action: 'raw.artifact_ingested',
        entity: { type: 'raw_artifact', id: artifact.id },
        inputs: { source_ref: digestOf(draft.sourceRef) },
        outputs: {
          sha256: artifact.sha256,
          bytes: artifact.bytes,
          mime_type: artifact.mimeType,
          source_type: artifact.sourceType,
          parent_raw_id: artifact.parentArtifactId,
        },
      })
      await events.record(tx, {
        tenantId,
        type: 'raw.ingest.new',
        auditEventId: audited.id,
        payload: {
          raw_id: artifact.id,
          sha256: artifact.sha256,
          source_type: artifact.sourceType,
          mime_type: artifact.mimeType,
          bytes: artifact.bytes,
          ingested_at: artifact.ingestedAt.toISOString(),
          parent_raw_id: artifact.parentArtifactId,
        },
      })
      await jobs.enqueue(tx, rawExtractQueue, { tenant_id: tenantId, artifact_id: artifact.id })
      return { kind: 'created', artifact }
    }

    const kind: RecordOutcome['kind'] = existing.status === 'stored' ? 'deduplicated' : options.restoreTombstoned ? 'restored' : 'tombstoned'
    let artifact = existing
    if (kind === 'restored') {
      // The bytes are in the store again (this upload wrote them), whatever the purge did before.
      await store.updateArtifact(tx, tenantId, existing.id, { status: 'stored', tombstonedAt: null, bytesPurgedAt: null })
      artifact = { ...existing, status: 'stored', tombstonedAt: null, bytesPurgedAt: null }
    }
    const audited = await audit.record(tx, {
      ...base,
      action: kind === 'restored' ? 'raw.artifact_restored' : 'raw.artifact_deduplicated',
      entity: { type: 'raw_artifact', id: existing.id },
      inputs: { source_ref: digestOf(draft.sourceRef), source_type: draft.sourceType },
      outputs: { sha256: existing.sha256, bytes: existing.bytes, status: artifact.status },
    })
    await events.record(tx, {
      tenantId,
      type: 'raw.ingest.deduplicated',
      auditEventId: audited.id,
      payload: { raw_id: existing.id, sha256: existing.sha256, source_type: existing.sourceType, status: artifact.status, restored: kind === 'restored' },
    })
    return { kind, artifact }
  }

  async function discard(tenantId: string, sha256: string): Promise<void> {
    await db.transaction(async (tx) => {
      await store.lockContent(tx, tenantId, sha256)
      const owner = await store.findArtifactBySha256(tx, tenantId, sha256)
      if (owner !== undefined && owner.bytesPurgedAt === null) return
      if (await deps.blobReferences.isReferenced(tx, tenantId, sha256)) return
      await blobs.delete(tenantId, sha256)
    })
  }

  return {
    recordInTx,
    async record(attribution, stored, draft, options) {
      let outcome: RecordOutcome
      try {
        outcome = await db.transaction((tx) => recordInTx(tx, attribution, stored, draft, options))
      } catch (error) {
        await discard(attribution.tenantId, stored.sha256).catch(() => undefined)
        throw error
      }
      // A tombstoned artifact whose bytes were purged keeps them purged: this delivery's copy goes.
      if (outcome.kind === 'tombstoned' && outcome.artifact.bytesPurgedAt !== null) await discard(attribution.tenantId, stored.sha256)
      if (outcome.kind === 'created') jobs.nudge(rawExtractQueue)
      return outcome
    },
    discard,
  }
}
