/**
 * Reading artifacts: the tenant's artifacts (a filtered, paginated list), an artifact with a signed URL
 * for its bytes, the bytes themselves behind that signature, and an artifact's parsed rows. Each artifact
 * view also says how its import went: extraction, the rows refused, and the Ledger's normalization (read
 * through the Ledger's port). Queries: they write nothing and take the tenant.
 */
import type { Readable } from 'node:stream'
import { assert } from '../../kernel/assert.ts'
import { digestOf } from '../../kernel/audit-record.ts'
import type { Clock } from '../../kernel/clock.ts'
import type { CursorCodec } from '../../kernel/cursor.ts'
import { AppError } from '../../kernel/errors.ts'
import type { Database } from '../../platform/db/database.ts'
import type { BlobStore } from '../../platform/storage/blob-store.ts'
import { checkContentSignature, contentSignature, signedUrlSeconds } from './domain/signed-url.ts'
import { attachmentDisposition } from './domain/media-types.ts'
import type { ArtifactRow, ParsedRowRow, RawStore } from './raw.store.ts'
import type { LedgerNormalizations, NormalizationStatus } from './ports.ts'

export const parsedPageRows = { defaultRows: 100, maxRows: 1000 } as const
/**
 * Parsed rows a normalization keeps with their reasons (the Ledger's `refusedRowsKeptMax`, which its
 * port reports; the rest are counted): an artifact view lists at most these and the extraction's row.
 */
export const refusedRowsKeptMax = 20
/** GET /v1/raw: the spec's list limits (as for transactions and audit events). */
export const artifactPageRows = { defaultRows: 100, maxRows: 1000 } as const

/** A row an import refused: a data row extraction stopped at, or a parsed row normalization refused. */
export interface RefusedRowView {
  stage: 'extraction' | 'normalization'
  /** extraction: the file's data row (1 = the first after the header); normalization: the parsed row's row_index. */
  row: number
  parsed_row_id: string | null
  reason: string
}

export interface NormalizationView {
  job_id: string
  status: NormalizationStatus['status']
  rows_done: number
  rows_total: number | null
  created: number
  unchanged: number
  superseded: number
  refused_rows: number
  error: string | null
  started_at: string | null
  finished_at: string | null
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
  parsed_rows: number | null
  refused_rows: RefusedRowView[]
  refused_rows_total: number
  normalization: NormalizationView | null
}

export interface ArtifactListQuery {
  source_type?: ArtifactRow['sourceType'] | undefined
  extraction_status?: ArtifactRow['extractionStatus'] | undefined
  since?: string | undefined
  until?: string | undefined
  limit?: number | undefined
  cursor?: string | undefined
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
  /**
   * The tenant's stored artifacts (tombstoned ones are left out), newest first by ingest time then id,
   * filtered by source type, extraction status and ingest time (since inclusive, until exclusive).
   */
  list(tenantId: string, query: ArtifactListQuery): Promise<{ artifacts: RawArtifactView[]; next_cursor: string | null }>
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
  /** The Ledger's normalization of each artifact. */
  readonly normalizations: LedgerNormalizations
}

/** What an artifact's import refused: the row extraction stopped at, then the rows normalization refused. */
function refusedRowsOf(artifact: ArtifactRow, normalization: NormalizationStatus | undefined): { rows: RefusedRowView[]; total: number } {
  const rows: RefusedRowView[] = []
  if (artifact.extractionFailedRow !== null) {
    rows.push({ stage: 'extraction', row: artifact.extractionFailedRow, parsed_row_id: null, reason: artifact.extractionError ?? 'refused by the parser' })
  }
  for (const refused of (normalization?.refused ?? []).slice(0, refusedRowsKeptMax)) rows.push({ stage: 'normalization', row: refused.row_index, parsed_row_id: refused.parsed_row_id, reason: refused.reason })
  return { rows, total: (artifact.extractionFailedRow === null ? 0 : 1) + (normalization?.refused_rows ?? 0) }
}

function normalizationViewOf(status: NormalizationStatus | undefined): NormalizationView | null {
  if (status === undefined) return null
  const { refused: _refused, ...view } = status
  return view
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

  /**
   * An artifact as the API shows it, with a signed URL valid for `signedUrlSeconds` from `signedAtSeconds`:
   * a store that serves downloads itself (S3) signs it, with the same expiry; otherwise the service's own
   * content route serves the bytes behind its HMAC signature.
   */
  async function viewOf(artifact: ArtifactRow, normalization: NormalizationStatus | undefined, signedAtSeconds: number): Promise<RawArtifactView> {
    const expiresAtSeconds = signedAtSeconds + signedUrlSeconds
    const direct = await blobs.downloadUrl(artifact.tenantId, artifact.sha256, {
      signedAt: new Date(signedAtSeconds * 1000),
      expiresInSeconds: signedUrlSeconds,
      contentType: artifact.mimeType,
      contentDisposition: attachmentDisposition(artifact.filename ?? artifact.id),
    })
    const refused = refusedRowsOf(artifact, normalization)
    return {
      raw_id: artifact.id,
      sha256: artifact.sha256,
      signed_url: direct ?? ownContentUrl(artifact.id, artifact.tenantId, expiresAtSeconds),
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
      parsed_rows: artifact.parsedRows,
      refused_rows: refused.rows,
      refused_rows_total: refused.total,
      normalization: normalizationViewOf(normalization),
    }
  }

  const nowSeconds = () => Math.floor(clock.now().getTime() / 1000)

  /** Ingest times in the query, as instants (the schema checked they are RFC 3339 timestamps). */
  const instant = (value: string | undefined) => (value === undefined ? undefined : new Date(value))

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
    async list(tenantId, query) {
      const limit = query.limit ?? artifactPageRows.defaultRows
      const filters = {
        source_type: query.source_type ?? null,
        extraction_status: query.extraction_status ?? null,
        since: query.since ?? null,
        until: query.until ?? null,
      }
      const listing = `raw_artifacts:${tenantId}:${digestOf(filters)}`
      let before
      if (query.cursor !== undefined) {
        const position = cursors.decode(listing, query.cursor)
        const ingestedAt = typeof position.t === 'string' ? new Date(position.t) : undefined
        if (ingestedAt === undefined || Number.isNaN(ingestedAt.getTime()) || typeof position.i !== 'string') throw new AppError('invalid_cursor')
        before = { ingestedAt, id: position.i }
      }
      const rows = await store.listArtifacts(db.orm, tenantId, {
        sourceType: query.source_type,
        extractionStatus: query.extraction_status,
        since: instant(query.since),
        until: instant(query.until),
        before,
        limit: limit + 1,
      })
      const page = rows.slice(0, limit)
      const last = page.at(-1)
      const normalizations = await deps.normalizations.latestOf(db.orm, tenantId, page.map((row) => row.id))
      const signedAtSeconds = nowSeconds()
      return {
        artifacts: await Promise.all(page.map((row) => viewOf(row, normalizations.get(row.id), signedAtSeconds))),
        next_cursor: rows.length > limit && last !== undefined ? cursors.encode(listing, { t: last.ingestedAt.toISOString(), i: last.id }) : null,
      }
    },

    async get(tenantId, rawId) {
      const artifact = await findReadable(tenantId, rawId)
      const normalizations = await deps.normalizations.latestOf(db.orm, tenantId, [artifact.id])
      return viewOf(artifact, normalizations.get(artifact.id), nowSeconds())
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
