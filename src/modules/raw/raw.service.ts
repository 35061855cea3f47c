/**
 * The Raw layer's use cases: ingest (an upload streamed to storage, or a file fetched by URL), reads
 * with a signed content URL, tombstones, parsed rows, and provider webhooks. Every artifact goes
 * through the artifact recorder (artifacts.ts): deduplicated by SHA-256 per tenant, audited (layer
 * raw), announced (`raw.ingest.new` / `raw.ingest.deduplicated`) and queued for extraction in one
 * transaction.
 */
import type { Readable } from 'node:stream'
import { type CommandContext, actorOf, auditedBy, requirePrincipal } from '../../kernel/context.ts'
import type { CoreDeps } from '../../platform/deps.ts'
import type { CursorCodec } from '../../kernel/cursor.ts'
import { AppError } from '../../kernel/errors.ts'
import { EgressRefusedError, EgressRequestError } from '../../platform/net/egress.ts'
import { BlobTooLargeError, type BlobStore, type StoredBlob } from '../../platform/storage/blob-store.ts'
import { putBuffer, type ArtifactDraft, type ArtifactRecorder, type Attribution, type RecordOutcome } from './artifacts.ts'
import { acceptedMediaTypes, decideMediaType } from './domain/media-types.ts'
import { verifyProviderSignature } from './domain/provider-signature.ts'
import { checkContentSignature, contentSignature, signedUrlSeconds } from './domain/signed-url.ts'
import { checkIngestSourceType, genericSourceType, providerSourceTypes, type Provider, type SourceType } from './domain/source-types.ts'
import type { ArtifactRow, ParsedRowRow, RawStore } from './raw.store.ts'
import { storableUrl, type UrlFetcher } from './url-fetch.ts'

/** The largest artifact (spec, "Limits": 50 MB, taken as 50 MiB). */
export const artifactBytesMax = 50 * 1024 * 1024
/** A provider webhook body: verified in memory before anything is stored, so smaller than a file upload. */
export const providerWebhookBytesMax = 10 * 1024 * 1024
/** source_ref, serialized. */
export const sourceRefBytesMax = 16 * 1024
export const filenameCharsMax = 255
export const parsedPageRows = { defaultRows: 100, maxRows: 1000 } as const

export interface IngestResponse {
  raw_id: string
  sha256: string
  source_type: string
  bytes: number
  ingested_at: string
  deduplicated: boolean
}

export interface IngestResult {
  /** 201 for a new artifact, 200 when the tenant already had these bytes. */
  readonly status: 200 | 201
  readonly body: IngestResponse
}

export interface RawArtifactView {
  raw_id: string
  sha256: string
  signed_url: string
  expires_at: string
  mime_type: string
  bytes: number
  source_type: string
  filename: string | null
  ingested_at: string
  parent_raw_id: string | null
  extraction_status: ArtifactRow['extractionStatus']
  extraction_error: string | null
  parser: string | null
  parser_version: string | null
  extracted_at: string | null
}

export interface ParsedRowView {
  id: string
  raw_artifact_id: string
  parser: string
  parser_version: string
  row_index: number
  extracted: Record<string, unknown>
  confidence: number
  extracted_at: string
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

export interface UrlIngestInput {
  readonly source_type: string
  readonly url: string
  readonly source_ref?: Record<string, unknown> | undefined
  readonly auth_header?: string | undefined
  readonly mime_type?: string | undefined
}

export interface ContentRequest {
  readonly rawId: string
  readonly tenantId: string
  readonly expires: number
  readonly signature: string
}

export interface ContentFile {
  readonly stream: Readable
  readonly mimeType: string
  readonly bytes: number
  readonly sha256: string
  readonly filename: string
}

export interface ProviderDelivery {
  readonly provider: Provider
  readonly accountRef: string | undefined
  readonly signature: string | undefined
  readonly body: Buffer
  readonly requestId: string
}

export interface RawService {
  /** Checks source type and media type (400, 403, 415) before any byte is read. */
  prepareUpload(fields: UploadFields): PreparedUpload
  /** Streams the file into storage with the size limit (413), hashing on the way. Writes no row. */
  storeUpload(tenantId: string, prepared: PreparedUpload, file: Readable): Promise<StoredUpload>
  /** Drops the stored bytes of an upload refused after they were written (unless an artifact keeps them). */
  discardUpload(tenantId: string, upload: StoredUpload): Promise<void>
  commitUpload(tenantId: string, upload: StoredUpload, context: CommandContext): Promise<IngestResult>
  ingestUrl(tenantId: string, input: UrlIngestInput, context: CommandContext): Promise<IngestResult>
  get(tenantId: string, rawId: string): Promise<RawArtifactView>
  openContent(request: ContentRequest): Promise<ContentFile>
  tombstone(tenantId: string, rawId: string, context: CommandContext): Promise<void>
  listParsed(
    tenantId: string,
    rawId: string,
    query: { parser?: string | undefined; parser_version?: string | undefined; limit?: number | undefined; cursor?: string | undefined },
  ): Promise<{ raw_id: string; parsed: ParsedRowView[]; next_cursor: string | null }>
  receiveProviderWebhook(delivery: ProviderDelivery): Promise<{ accepted: true; trace_id: string; artifacts: number }>
}

export interface RawServiceDeps extends CoreDeps {
  readonly store: RawStore
  readonly blobs: BlobStore
  readonly cursors: CursorCodec
  readonly recorder: ArtifactRecorder
  readonly fetcher: UrlFetcher
  /** HMAC key of signed content URLs (derived from JWT_SECRET). */
  readonly contentUrlKey: string
}

/** A secret no connection has: unknown accounts are checked against it, so they cost the same as known ones. */
const absentSecret = 'steward-no-such-connection'

function ingestResponse(outcome: RecordOutcome): IngestResult {
  const artifact = outcome.artifact
  return {
    status: outcome.kind === 'created' ? 201 : 200,
    body: {
      raw_id: artifact.id,
      sha256: artifact.sha256,
      source_type: artifact.sourceType,
      bytes: artifact.bytes,
      ingested_at: artifact.ingestedAt.toISOString(),
      deduplicated: outcome.kind !== 'created',
    },
  }
}

export function toParsedRowView(row: ParsedRowRow): ParsedRowView {
  return {
    id: row.id,
    raw_artifact_id: row.rawArtifactId,
    parser: row.parser,
    parser_version: row.parserVersion,
    row_index: row.rowIndex,
    extracted: row.extracted as Record<string, unknown>,
    confidence: row.confidence,
    extracted_at: row.extractedAt.toISOString(),
  }
}

function checkedSourceType(value: string): SourceType {
  const check = checkIngestSourceType(value)
  if (check.ok) return check.sourceType
  if (check.problem === 'reserved') {
    throw new AppError('raw_source_reserved', `source_type ${value} is reserved: it arrives only through its authenticated provider integration (POST /v1/raw/webhooks/{provider}) or from the service itself.`, {
      source_type: value,
    })
  }
  throw new AppError('raw_source_unsupported', undefined, { source_type: value })
}

function checkedMediaType(declared: string | undefined, filename: string | null): string {
  const decision = decideMediaType(declared, filename)
  if (decision.ok) return decision.mediaType
  throw new AppError('request_media_type_unsupported', `The media type ${JSON.stringify(decision.given)} is not one Raw accepts.`, {
    media_type: decision.given,
    accepted: [...acceptedMediaTypes],
  })
}

function checkedSourceRef(sourceRef: Record<string, unknown> | undefined): Record<string, unknown> {
  const value = sourceRef ?? {}
  if (Buffer.byteLength(JSON.stringify(value)) > sourceRefBytesMax) {
    throw new AppError('request_body_invalid', undefined, { issues: [{ path: '/source_ref', message: `must be at most ${sourceRefBytesMax} bytes as JSON`, keyword: 'maxLength' }] })
  }
  return value
}

/** A file name as stored: the last path segment, control characters removed, bounded. */
export function cleanFilename(name: string | null | undefined): string | null {
  if (name === undefined || name === null) return null
  const base = name.split(/[\\/]/).pop() ?? ''
  const cleaned = base.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, filenameCharsMax)
  return cleaned === '' ? null : cleaned
}

/** Failures of the size limit, as the caller sees them. */
function asIngestError(error: unknown): unknown {
  if (error instanceof BlobTooLargeError) return new AppError('raw_artifact_too_large', undefined, { bytes_max: artifactBytesMax })
  const code = (error as { code?: unknown } | null)?.code
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new AppError('raw_artifact_too_large', undefined, { bytes_max: artifactBytesMax })
  return error
}

function fetchError(error: unknown): unknown {
  if (error instanceof EgressRefusedError) return new AppError('raw_fetch_refused', error.message, { reason: error.reason, ...error.details })
  if (error instanceof EgressRequestError) return new AppError('raw_fetch_failed', `The fetch failed: ${error.message}.`, { reason: error.reason })
  return asIngestError(error)
}

export function createRawService(deps: RawServiceDeps): RawService {
  const { db, store, blobs, audit, clock, cursors, recorder, fetcher } = deps

  function attributionOf(context: CommandContext): Attribution {
    const principal = requirePrincipal(context)
    return { tenantId: principal.tenantId, actor: actorOf(principal), requestId: context.requestId }
  }

  async function findReadable(tenantId: string, rawId: string): Promise<ArtifactRow> {
    const artifact = await store.findArtifact(db.orm, tenantId, rawId)
    if (artifact === undefined) throw new AppError('raw_artifact_not_found', undefined, { raw_id: rawId })
    if (artifact.status === 'tombstoned') throw new AppError('raw_artifact_tombstoned', undefined, { raw_id: rawId })
    return artifact
  }

  async function putArtifactStream(tenantId: string, stream: Readable): Promise<StoredBlob> {
    try {
      return await blobs.put(tenantId, stream, { bytesMax: artifactBytesMax })
    } catch (error) {
      throw fetchError(error)
    }
  }

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
     * raw.ingest.deduplicated; a new artifact enqueues raw-extract.
     */
    async commitUpload(tenantId, upload, context) {
      const attribution = attributionOf(context)
      if (attribution.tenantId !== tenantId) throw new Error('commitUpload: the tenant is not the caller\'s')
      return ingestResponse(await recorder.record(attribution, upload.stored, upload.prepared.draft, { restoreTombstoned: true }))
    },

    /**
     * Fetches the URL under the egress rules (every redirect re-checked and pinned; auth_header only to
     * the URL's origin), streams the body to storage with the size and time limits, then records it as
     * commitUpload does. The auth header is never stored, audited or logged.
     */
    async ingestUrl(tenantId, input, context) {
      const attribution = attributionOf(context)
      const sourceType = checkedSourceType(input.source_type)
      const userSourceRef = checkedSourceRef(input.source_ref)
      if (input.mime_type !== undefined) checkedMediaType(input.mime_type, null)
      let opened
      try {
        opened = await fetcher.open(input.url, input.auth_header)
      } catch (error) {
        throw fetchError(error)
      }
      const { response } = opened
      let stored: StoredBlob
      let draft: ArtifactDraft
      try {
        if (response.statusCode < 200 || response.statusCode > 299) {
          throw new AppError('raw_fetch_failed', `The server answered HTTP ${response.statusCode}.`, { reason: 'http_status', status: response.statusCode })
        }
        const declaredBytes = Number(response.headers['content-length'])
        if (Number.isFinite(declaredBytes) && declaredBytes > artifactBytesMax) throw new AppError('raw_artifact_too_large', undefined, { bytes_max: artifactBytesMax })
        const filename = cleanFilename(decodeURIComponentSafe(response.url.pathname.split('/').pop() ?? ''))
        const mimeType = checkedMediaType(input.mime_type ?? response.headers['content-type'], filename)
        stored = await putArtifactStream(tenantId, response.body)
        if (stored.bytes === 0) {
          await recorder.discard(tenantId, stored.sha256)
          throw new AppError('raw_fetch_failed', 'The server answered with an empty body.', { reason: 'empty_body' })
        }
        draft = {
          sourceType,
          mimeType,
          filename,
          parentArtifactId: null,
          sourceRef: {
            ...userSourceRef,
            fetched: {
              ...storableUrl(new URL(input.url)),
              final_url: storableUrl(response.url).url,
              redirects: response.redirects,
              auth_header_used: input.auth_header !== undefined,
            },
          },
        }
      } finally {
        response.body.destroy()
        opened.finish()
      }
      return ingestResponse(await recorder.record(attribution, stored, draft, { restoreTombstoned: true }))
    },

    async get(tenantId, rawId) {
      const artifact = await findReadable(tenantId, rawId)
      const expiresAtSeconds = Math.floor(clock.now().getTime() / 1000) + signedUrlSeconds
      const signature = contentSignature(deps.contentUrlKey, { tenantId, rawId, expiresAtSeconds })
      const query = new URLSearchParams({ tenant_id: tenantId, expires: String(expiresAtSeconds), signature })
      return {
        raw_id: artifact.id,
        sha256: artifact.sha256,
        signed_url: `${deps.publicBaseUrl}/v1/raw/${artifact.id}/content?${query.toString()}`,
        expires_at: new Date(expiresAtSeconds * 1000).toISOString(),
        mime_type: artifact.mimeType,
        bytes: artifact.bytes,
        source_type: artifact.sourceType,
        filename: artifact.filename,
        ingested_at: artifact.ingestedAt.toISOString(),
        parent_raw_id: artifact.parentArtifactId,
        extraction_status: artifact.extractionStatus,
        extraction_error: artifact.extractionError,
        parser: artifact.parser,
        parser_version: artifact.parserVersion,
        extracted_at: artifact.extractedAt?.toISOString() ?? null,
      }
    },

    async openContent(request) {
      const check = checkContentSignature(
        deps.contentUrlKey,
        { tenantId: request.tenantId, rawId: request.rawId, expiresAtSeconds: request.expires },
        request.signature,
        Math.floor(clock.now().getTime() / 1000),
      )
      if (check === 'expired') throw new AppError('raw_signature_invalid', 'The signed URL has expired; read the artifact again for a new one.', { reason: 'expired' })
      if (check !== 'valid') throw new AppError('raw_signature_invalid', undefined, { reason: 'mismatch' })
      const artifact = await findReadable(request.tenantId, request.rawId)
      const stream = await blobs.open(artifact.tenantId, artifact.sha256)
      if (stream === undefined) throw new Error(`the bytes of stored raw artifact ${artifact.id} are missing from the blob store`)
      return { stream, mimeType: artifact.mimeType, bytes: artifact.bytes, sha256: artifact.sha256, filename: artifact.filename ?? artifact.id }
    },

    /**
     * Tombstones the artifact: reads answer 410 from now on; the bytes are purged after the retention
     * period (retention.job.ts). Locks the artifact row. Audits raw.artifact_tombstoned (layer raw).
     */
    async tombstone(tenantId, rawId, context) {
      await db.transaction(async (tx) => {
        const artifact = await store.findArtifact(tx, tenantId, rawId, { forUpdate: true })
        if (artifact === undefined) throw new AppError('raw_artifact_not_found', undefined, { raw_id: rawId })
        if (artifact.status === 'tombstoned') throw new AppError('raw_artifact_tombstoned', undefined, { raw_id: rawId })
        await store.updateArtifact(tx, tenantId, rawId, { status: 'tombstoned', tombstonedAt: clock.now() })
        await audit.record(tx, auditedBy(context, {
          layer: 'raw',
          action: 'raw.artifact_tombstoned',
          entity: { type: 'raw_artifact', id: rawId },
          outputs: { sha256: artifact.sha256, bytes: artifact.bytes, source_type: artifact.sourceType },
        }))
      })
    },

    async listParsed(tenantId, rawId, query) {
      await findReadable(tenantId, rawId)
      const limit = query.limit ?? parsedPageRows.defaultRows
      const listing = `raw_parsed:${tenantId}:${rawId}:${query.parser ?? ''}:${query.parser_version ?? ''}`
      let after
      if (query.cursor !== undefined) {
        const position = cursors.decode(listing, query.cursor)
        if (typeof position.p !== 'string' || typeof position.v !== 'string' || typeof position.i !== 'number') throw new AppError('invalid_cursor')
        after = { parser: position.p, parserVersion: position.v, rowIndex: position.i }
      }
      const rows = await store.listParsedRows(db.orm, tenantId, rawId, { parser: query.parser, parserVersion: query.parser_version, after, limit: limit + 1 })
      const page = rows.slice(0, limit)
      const last = page.at(-1)
      return {
        raw_id: rawId,
        parsed: page.map(toParsedRowView),
        next_cursor: rows.length > limit && last !== undefined ? cursors.encode(listing, { p: last.parser, v: last.parserVersion, i: last.rowIndex }) : null,
      }
    },

    /**
     * A signed provider delivery: the connection named by (provider, X-Provider-Account) must be
     * active and the signature valid within the tolerance; every failure is the same 401. The body
     * becomes an artifact (application/json) unless the tenant already has these bytes (artifacts 0;
     * a tombstoned artifact stays tombstoned). Audited as every ingest is, by the connection.
     */
    async receiveProviderWebhook(delivery) {
      const connection =
        delivery.accountRef === undefined || delivery.accountRef === ''
          ? undefined
          : await store.findConnectionByAccount(db.orm, delivery.provider, delivery.accountRef)
      const usable = connection !== undefined && connection.status === 'active'
      const verified = verifyProviderSignature(delivery.signature, usable ? connection.secret : absentSecret, delivery.body, Math.floor(clock.now().getTime() / 1000))
      if (!usable || !verified) throw new AppError('raw_webhook_signature_invalid')
      let payload: unknown
      try {
        payload = JSON.parse(delivery.body.toString('utf8'))
      } catch {
        throw new AppError('request_body_invalid', 'A provider webhook body must be JSON.')
      }
      const tenantId = connection.tenantId
      const stored = await putBuffer(blobs, tenantId, delivery.body, providerWebhookBytesMax)
      const outcome = await recorder.record(
        { tenantId, actor: { type: 'system', id: connection.id }, requestId: delivery.requestId },
        stored,
        {
          sourceType: delivery.provider === 'generic_hmac' ? genericSourceType(payload) : providerSourceTypes[delivery.provider],
          mimeType: 'application/json',
          filename: null,
          parentArtifactId: null,
          sourceRef: { provider: delivery.provider, connection_id: connection.id, account_ref: connection.accountRef, trace_id: delivery.requestId },
        },
        { restoreTombstoned: false },
      )
      return { accepted: true, trace_id: delivery.requestId, artifacts: outcome.kind === 'created' ? 1 : 0 }
    },
  }
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}
