/**
 * Recording stored bytes as a Raw artifact: the one path every artifact takes (uploads, URL fetches,
 * provider webhooks, e-mail attachments), so each is deduplicated, audited, announced and queued for
 * extraction the same way.
 *
 * Bytes are streamed into the content-addressed blob store first (hashing on the way); only then is the
 * SHA-256 known and the artifact row written, in the command's transaction: `recordInTx` writes the row
 * and returns the audit event, the business event and the `raw-extract` job, which the caller's command
 * commits (platform/commands/command.ts) with it. That transaction takes the tenant's content lock for the SHA-256
 * (`RawStore.lockContent`), as do the retention purge and `discard`, and checks that the bytes are still
 * in the store under the lock: a purge or discard that removed them between the write and the lock is
 * detected (503, retry) instead of leaving an artifact without bytes.
 */
import { Readable } from 'node:stream'
import { assert } from '../../kernel/assert.ts'
import type { AuditActor } from '../../kernel/audit-record.ts'
import { digestOf } from '../../kernel/audit-record.ts'
import type { CommandEffects } from '../../platform/commands/command.ts'
import type { Database, Tx } from '../../platform/db/database.ts'
import type { JobQueue } from '../../platform/jobs/job-queue.ts'
import type { Clock } from '../../kernel/clock.ts'
import { AppError } from '../../kernel/errors.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { BlobStore, StoredBlob } from '../../platform/storage/blob-store.ts'
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

/** What recording did, with the audit event, business event and extraction job its command's commit carries. */
export type RecordWork = CommandEffects & { readonly outcome: RecordOutcome }

export interface ArtifactRecorder {
  /**
   * Writes the artifact row (or finds the tenant's artifact with these bytes) inside the caller's
   * transaction, under the content lock; the caller commits the returned work in that transaction
   * (an upload's command, a provider delivery, extraction's attachments).
   */
  recordInTx(tx: Tx, attribution: Attribution, stored: StoredBlob, draft: ArtifactDraft, options: { restoreTombstoned: boolean }): Promise<RecordWork>
  /**
   * Runs `command`, which records these stored bytes through recordInTx, commits, and hands what it
   * recorded to `recorded` (nothing when it replays a stored outcome). Keeps the blob store tidy around
   * it: the bytes are discarded if the command fails or recorded nothing (a replay: they stay only if an
   * artifact holds them), and when a tombstoned artifact whose bytes were purged stays so; extraction is
   * woken for a new artifact.
   */
  settle<Result>(tenantId: string, stored: StoredBlob, command: (recorded: (outcome: RecordOutcome) => void) => Promise<Result>): Promise<Result>
  /** Deletes stored bytes no artifact keeps (a refused or failed upload), under the content lock. */
  discard(tenantId: string, sha256: string): Promise<void>
}

export interface ArtifactRecorderDeps {
  readonly db: Database
  readonly store: RawStore
  readonly blobs: BlobStore
  readonly jobs: Pick<JobQueue, 'nudge'>
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
  const { db, store, blobs, jobs, ids, clock } = deps

  async function recordInTx(tx: Tx, attribution: Attribution, stored: StoredBlob, draft: ArtifactDraft, options: { restoreTombstoned: boolean }): Promise<RecordWork> {
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
        parsedRows: null,
        extractionFailedRow: null,
        parser: null,
        parserVersion: null,
        extractedAt: null,
        createdBy: createdByOf(attribution.actor),
        ingestedAt: now,
        tombstonedAt: null,
        bytesPurgedAt: null,
        heldForAgentId: null,
      }
      assert(await store.insertArtifact(tx, artifact), `raw artifact ${stored.sha256} appeared while its content lock was held`)
      const audited = {
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
      }
      const announced = {
        type: 'raw.ingest.new' as const,
        payload: {
          raw_id: artifact.id,
          sha256: artifact.sha256,
          source_type: artifact.sourceType,
          mime_type: artifact.mimeType,
          bytes: artifact.bytes,
          ingested_at: artifact.ingestedAt.toISOString(),
          parent_raw_id: artifact.parentArtifactId,
        },
      }
      return {
        outcome: { kind: 'created', artifact },
        audit: [audited],
        events: [announced],
        jobs: [{ queue: rawExtractQueue, payload: { tenant_id: tenantId, artifact_id: artifact.id } }],
      }
    }

    const kind: RecordOutcome['kind'] = existing.status === 'stored' ? 'deduplicated' : options.restoreTombstoned ? 'restored' : 'tombstoned'
    let artifact = existing
    if (kind === 'restored') {
      // The bytes are in the store again (this upload wrote them), whatever the purge did before.
      await store.updateArtifact(tx, tenantId, existing.id, { status: 'stored', tombstonedAt: null, bytesPurgedAt: null })
      artifact = { ...existing, status: 'stored', tombstonedAt: null, bytesPurgedAt: null }
    }
    return {
      outcome: { kind, artifact },
      audit: [
        {
          ...base,
          action: kind === 'restored' ? 'raw.artifact_restored' : 'raw.artifact_deduplicated',
          entity: { type: 'raw_artifact', id: existing.id },
          inputs: { source_ref: digestOf(draft.sourceRef), source_type: draft.sourceType },
          outputs: { sha256: existing.sha256, bytes: existing.bytes, status: artifact.status },
        },
      ],
      events: [
        {
          type: 'raw.ingest.deduplicated',
          payload: { raw_id: existing.id, sha256: existing.sha256, source_type: existing.sourceType, status: artifact.status, restored: kind === 'restored' },
        },
      ],
    }
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
    async settle(tenantId, stored, command) {
      let outcome: RecordOutcome | undefined
      let result
      try {
        result = await command((recorded) => {
          outcome = recorded
        })
      } catch (error) {
        await discard(tenantId, stored.sha256).catch(() => undefined)
        throw error
      }
      // A tombstoned artifact whose bytes were purged keeps them purged: this delivery's copy goes.
      if (outcome === undefined || (outcome.kind === 'tombstoned' && outcome.artifact.bytesPurgedAt !== null)) await discard(tenantId, stored.sha256)
      else if (outcome.kind === 'created') jobs.nudge(rawExtractQueue)
      return result
    },
    discard,
  }
}
