/**
 * Ingest by upload (`POST /v1/raw/ingest`, multipart): the form's fields are checked before any byte is
 * read, the file is streamed into storage with the size limit, and then `ingestUpload` records it as a
 * command. Every artifact goes through the artifact recorder (artifacts.ts): deduplicated by SHA-256 per
 * tenant, audited (layer raw), announced (`raw.ingest.new` / `raw.ingest.deduplicated`) and queued for
 * extraction in the command's one commit.
 */
import type { Readable } from 'node:stream'
import { assert } from '../../kernel/assert.ts'
import { type CommandContext, actorOf, requirePrincipal } from '../../kernel/context.ts'
import { AppError } from '../../kernel/errors.ts'
import type { CommandResult, CommandRunner } from '../../platform/commands/command.ts'
import { BlobTooLargeError, type BlobStore, type StoredBlob } from '../../platform/storage/blob-store.ts'
import type { ArtifactDraft, ArtifactRecorder, Attribution, RecordOutcome } from './artifacts.ts'
import { artifactBytesMax, asIngestError, checkedMediaType, checkedSourceRef, checkedSourceType, cleanFilename } from './ingest-rules.ts'

/** An artifact as an ingest answers it. */
export interface IngestedArtifact {
  raw_id: string
  sha256: string
  source_type: string
  bytes: number
  ingested_at: string
}

/**
 * What an ingest did: `created` a new artifact, or found the tenant's artifact with the same bytes
 * (`deduplicated`; `restored` when it was tombstoned). The route answers 201 for created, 200 otherwise.
 */
export interface IngestOutcome {
  readonly kind: 'created' | 'deduplicated' | 'restored'
  readonly artifact: IngestedArtifact
}

/** What the multipart form said, before the file part. */
export interface UploadFields {
  readonly sourceType: string
  /** The `mime_type` field, if sent. */
  readonly mimeType: string | undefined
  /** The file part's own Content-Type. */
  readonly partMimeType: string | undefined
  readonly filename: string | null
  readonly sourceRef: Record<string, unknown> | undefined
}

/** An upload whose fields passed; its bytes are not stored yet. */
export interface PreparedUpload {
  readonly draft: ArtifactDraft
}

export interface StoredUpload {
  readonly prepared: PreparedUpload
  readonly stored: StoredBlob
}

export interface IngestService {
  /** Checks source type and media type (400, 403, 415) before any byte is read. */
  prepareUpload(fields: UploadFields): PreparedUpload
  /** Streams the file into storage with the size limit (413), hashing on the way. Writes no row. */
  storeUpload(tenantId: string, prepared: PreparedUpload, file: Readable): Promise<StoredUpload>
  /** Drops the stored bytes of an upload refused after they were written (unless an artifact keeps them). */
  discardUpload(tenantId: string, upload: StoredUpload): Promise<void>
  /**
   * Records a stored upload for the context's principal's tenant (see the implementation). With an
   * Idempotency-Key, the same bytes and fields replay the first outcome, other bytes or fields are 409.
   */
  ingestUpload(context: CommandContext, input: { upload: StoredUpload }): Promise<CommandResult<IngestOutcome>>
}

export interface IngestServiceDeps {
  readonly commands: CommandRunner
  readonly blobs: BlobStore
  readonly recorder: ArtifactRecorder
}

export function attributionOf(context: CommandContext): Attribution {
  const principal = requirePrincipal(context)
  return { tenantId: principal.tenantId, actor: actorOf(principal), requestId: context.requestId }
}

/** The outcome of a member's ingest (which restores a tombstoned artifact, so never `tombstoned`). */
export function ingestOutcome(recorded: RecordOutcome): IngestOutcome {
  assert(recorded.kind !== 'tombstoned', 'a member\'s ingest restores a tombstoned artifact')
  const artifact = recorded.artifact
  return {
    kind: recorded.kind,
    artifact: { raw_id: artifact.id, sha256: artifact.sha256, source_type: artifact.sourceType, bytes: artifact.bytes, ingested_at: artifact.ingestedAt.toISOString() },
  }
}

/**
 * What makes two uploads the same request for an Idempotency-Key: the file's SHA-256 and size, and the
 * fields as checked (source type, media type, file name, source_ref).
 */
export function uploadFingerprint(upload: StoredUpload) {
  const { draft } = upload.prepared
  return {
    sha256: upload.stored.sha256,
    bytes: upload.stored.bytes,
    source_type: draft.sourceType,
    mime_type: draft.mimeType,
    filename: draft.filename,
    source_ref: draft.sourceRef,
  }
}

export function createIngestService(deps: IngestServiceDeps): IngestService {
  const { commands, blobs, recorder } = deps
  return {
    prepareUpload(fields) {
      const sourceType = checkedSourceType(fields.sourceType)
      const filename = cleanFilename(fields.filename)
      const mimeType = checkedMediaType(fields.mimeType ?? fields.partMimeType, filename)
      return { draft: { sourceType, mimeType, filename, sourceRef: checkedSourceRef(fields.sourceRef), parentArtifactId: null } }
    },

    async storeUpload(tenantId, prepared, file) {
      try {
        const stored = await blobs.put(tenantId, file, { bytesMax: artifactBytesMax })
        // Busboy truncates a file at its own limit (set one byte above ours); a truncated file must never pass.
        if ((file as { truncated?: boolean }).truncated === true) {
          await recorder.discard(tenantId, stored.sha256)
          throw new BlobTooLargeError(artifactBytesMax)
        }
        if (stored.bytes === 0) {
          await recorder.discard(tenantId, stored.sha256)
          throw new AppError('request_body_invalid', 'The file is empty.', { issues: [{ path: '/file', message: 'is empty', keyword: 'minLength' }] })
        }
        return { prepared, stored }
      } catch (error) {
        throw asIngestError(error)
      }
    },

    async discardUpload(tenantId, upload) {
      await recorder.discard(tenantId, upload.stored.sha256)
    },

    /**
     * Records an uploaded artifact (or finds the tenant's artifact with the same bytes; a tombstoned one
     * is restored). Locks the tenant's content key for the SHA-256. Audits raw.artifact_ingested,
     * raw.artifact_deduplicated or raw.artifact_restored (layer raw); emits raw.ingest.new or
     * raw.ingest.deduplicated; a new artifact enqueues raw-extract. The stored bytes are discarded if
     * nothing keeps them (a failure, a refused key).
     */
    async ingestUpload(context, input) {
      const attribution = attributionOf(context)
      const { upload } = input
      const tenantId = attribution.tenantId
      return recorder.settle(tenantId, upload.stored, (recorded) =>
        commands.run(context, { name: 'raw.ingest', tenantId, input: uploadFingerprint(upload) }, async (tx) => {
          const work = await recorder.recordInTx(tx, attribution, upload.stored, upload.prepared.draft, { restoreTombstoned: true })
          recorded(work.outcome)
          return { ...work, outcome: ingestOutcome(work.outcome) }
        }),
      )
    },
  }
}
