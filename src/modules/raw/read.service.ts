/**
 * Reading artifacts: an artifact with a signed URL for its bytes, the bytes themselves behind that
 * signature, and an artifact's parsed rows. Queries: they write nothing and take the tenant.
 */
import type { Readable } from 'node:stream'
import { assert } from '../../kernel/assert.ts'
import type { Clock } from '../../kernel/clock.ts'
import type { CursorCodec } from '../../kernel/cursor.ts'
import { AppError } from '../../kernel/errors.ts'
import type { Database } from '../../platform/db/database.ts'
import type { BlobStore } from '../../platform/storage/blob-store.ts'
import { checkContentSignature, contentSignature, signedUrlSeconds } from './domain/signed-url.ts'
import { attachmentDisposition } from './domain/media-types.ts'
import type { ArtifactRow, ParsedRowRow, RawStore } from './raw.store.ts'

export const parsedPageRows = { defaultRows: 100, maxRows: 1000 } as const

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

export interface ParsedQuery {
  parser?: string | undefined
  parser_version?: string | undefined
  limit?: number | undefined
  cursor?: string | undefined
}

export interface ReadService {
  /** The artifact with a signed URL for its bytes; 404 raw_artifact_not_found, 410 raw_artifact_tombstoned. */
  get(tenantId: string, rawId: string): Promise<RawArtifactView>
  /** The bytes behind a signed URL; 403 raw_signature_invalid when altered or expired. */
  openContent(request: ContentRequest): Promise<ContentFile>
  listParsed(tenantId: string, rawId: string, query: ParsedQuery): Promise<{ raw_id: string; parsed: ParsedRowView[]; next_cursor: string | null }>
}

export interface ReadServiceDeps {
  readonly db: Database
  readonly store: RawStore
  readonly blobs: BlobStore
  readonly cursors: CursorCodec
  readonly clock: Clock
  /** HMAC key of signed content URLs (derived from JWT_SECRET). */
  readonly contentUrlKey: string
  /** Where signed content URLs point. */
  readonly publicBaseUrl: string
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

export function createReadService(deps: ReadServiceDeps): ReadService {
  const { db, store, blobs, cursors, clock } = deps

  async function findReadable(tenantId: string, rawId: string): Promise<ArtifactRow> {
    const artifact = await store.findArtifact(db.orm, tenantId, rawId)
    if (artifact === undefined) throw new AppError('raw_artifact_not_found', undefined, { raw_id: rawId })
    if (artifact.status === 'tombstoned') throw new AppError('raw_artifact_tombstoned', undefined, { raw_id: rawId })
    return artifact
  }

  function ownContentUrl(rawId: string, tenantId: string, expiresAtSeconds: number): string {
    const signature = contentSignature(deps.contentUrlKey, { tenantId, rawId, expiresAtSeconds })
    const query = new URLSearchParams({ tenant_id: tenantId, expires: String(expiresAtSeconds), signature })
    return `${deps.publicBaseUrl}/v1/raw/${rawId}/content?${query.toString()}`
  }

  return {
    async get(tenantId, rawId) {
      const artifact = await findReadable(tenantId, rawId)
      const signedAtSeconds = Math.floor(clock.now().getTime() / 1000)
      const expiresAtSeconds = signedAtSeconds + signedUrlSeconds
      // A store that serves downloads itself (S3) signs the URL, with the same expiry; otherwise the
      // service's own content route serves the bytes behind its HMAC signature.
      const direct = await blobs.downloadUrl(tenantId, artifact.sha256, {
        signedAt: new Date(signedAtSeconds * 1000),
        expiresInSeconds: signedUrlSeconds,
        contentType: artifact.mimeType,
        contentDisposition: attachmentDisposition(artifact.filename ?? artifact.id),
      })
      return {
        raw_id: artifact.id,
        sha256: artifact.sha256,
        signed_url: direct ?? ownContentUrl(artifact.id, tenantId, expiresAtSeconds),
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
      // An artifact that is not tombstoned keeps its bytes: ingest, purge and discard take its content lock.
      assert(stream !== undefined, `the bytes of stored raw artifact ${artifact.id} are in the blob store`)
      return { stream, mimeType: artifact.mimeType, bytes: artifact.bytes, sha256: artifact.sha256, filename: artifact.filename ?? artifact.id }
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
  }
}
