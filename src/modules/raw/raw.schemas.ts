/** Wire schemas of the Raw routes (spec, "Raw artifact and parsed row" and the Raw endpoint table). */
import Type from 'typebox'
import { named, NextCursor, Nullable, pageQuery, PathId, Strict, TenantId, Timestamp } from '../../platform/http/schemas.ts'
import { prefixedIdPattern } from '../../kernel/ids.ts'
import { acceptedMediaTypes } from './domain/media-types.ts'
import { signatureToleranceSeconds } from './domain/provider-signature.ts'
import { ingestibleSourceTypes, providers, reservedSourceTypes, sourceTypes } from './domain/source-types.ts'
import { artifactBytesMax, sourceRefBytesMax } from './ingest-rules.ts'
import { artifactPageRows, parsedPageRows, refusedRowsKeptMax } from './read.service.ts'
import { authHeaderCharsMax, urlCharsMax } from './url-fetch.ts'
import { AccountingProviderPayload, ErpProviderPayload } from './parsers/documents/accounting-provider.parser.ts'
import { BankProviderPayload } from './parsers/documents/bank-provider.parser.ts'
import { CardProcessorPayload } from './parsers/documents/card-processor.parser.ts'
import { ChainIndexerPayload } from './parsers/documents/chain-indexer.parser.ts'
import { PayrollProviderPayload } from './parsers/documents/payroll-provider.parser.ts'

const SourceType = Type.String({
  minLength: 1,
  maxLength: 64,
  description:
    `One of ${ingestibleSourceTypes.join(', ')}. ${reservedSourceTypes.join(', ')} are reserved (403 raw_source_reserved): they arrive only through provider webhooks or the Wiki. ` +
    'Any other value is 400 raw_source_unsupported.',
})
const MimeType = Type.String({
  minLength: 1,
  maxLength: 255,
  description: `The media type to store. Accepted: ${acceptedMediaTypes.join(', ')} (415 request_media_type_unsupported otherwise). A generic type (application/octet-stream, text/plain) is refined by the file name's extension.`,
})

export const IngestUrlBody = Strict({
  source_type: SourceType,
  url: Type.String({
    minLength: 1,
    maxLength: urlCharsMax,
    description:
      'Fetched by the service: http or https (https in production); every resolved address, and every redirect (at most 5), must be public. 400 raw_fetch_refused or raw_fetch_failed with details.reason.',
  }),
  source_ref: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: `What the source is (free form, at most ${sourceRefBytesMax} bytes as JSON).` })),
  auth_header: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: authHeaderCharsMax,
      pattern: '^[\\x20-\\x7e]+$',
      description: 'Sent as the Authorization header (e.g. "Bearer abc") to the URL\'s origin only, never across a redirect to another origin. Never stored or logged.',
    }),
  ),
  mime_type: Type.Optional(MimeType),
})

/** Documentation of the multipart form; the handler reads and checks it part by part as it streams. */
export const IngestMultipartBody = Type.Object(
  {
    source_type: SourceType,
    mime_type: Type.Optional(Type.String({ description: 'As in the JSON form; absent: the file part\'s Content-Type.' })),
    source_ref: Type.Optional(Type.String({ description: `A JSON object, as a string (at most ${sourceRefBytesMax} bytes).` })),
    file: Type.String({ format: 'binary', description: `The file, at most ${artifactBytesMax} bytes (413 raw_artifact_too_large above). It must be the last part.` }),
  },
  { required: ['source_type', 'file'] },
)

export const IngestResponse = named('IngestResult', Strict({
  raw_id: Type.String(),
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  source_type: Type.String(),
  bytes: Type.Integer({ minimum: 0 }),
  ingested_at: Timestamp,
  deduplicated: Type.Boolean({ description: 'true: the tenant already had these bytes; raw_id is the original artifact.' }),
}))

export const RawIdParams = Strict({ raw_id: PathId('raw_artifact_not_found', 'rawArtifact', 'The artifact id') })

const extractionStatuses = ['pending', 'running', 'succeeded', 'failed', 'skipped'] as const
const ExtractionStatus = Type.Enum(extractionStatuses, {
  description: 'pending (queued) → running → succeeded, failed (extraction_error says why) or skipped (no parser reads this artifact).',
})
const Count = (description: string) => Type.Integer({ minimum: 0, description })

const RefusedRow = Strict({
  stage: Type.Enum(['extraction', 'normalization'] as const, {
    description: 'extraction: the data row the parser could not read, which stopped the file (a statement is read whole or not at all); normalization: a parsed row the Ledger refused.',
  }),
  row: Type.Integer({ minimum: 0, description: 'extraction: the file\'s data row, 1 being the first after the header; normalization: the parsed row\'s row_index.' }),
  parsed_row_id: Nullable(Type.String({ description: 'The refused parsed row (normalization); null for extraction, which wrote none.' })),
  reason: Type.String(),
})

const Normalization = Strict(
  {
    job_id: Type.String({ description: 'The Ledger\'s normalization job (also at GET /v1/ledger/jobs/{job_id}).' }),
    status: Type.Enum(['queued', 'running', 'succeeded', 'failed'] as const, { description: 'A failure before the last retry goes back to queued.' }),
    rows_done: Count('Parsed rows normalized so far (refused ones included), recorded with each batch as it commits.'),
    rows_total: Nullable(Count('The parsed rows to normalize (the artifact\'s current parser version); null until the run starts.')),
    created: Count('Ledger entities recorded for the first time, in the batches written so far.'),
    unchanged: Count('Entities found again with the same content (nothing written): a re-import or an overlapping statement.'),
    superseded: Count('Entities given a new version that superseded the current one (a pending transaction posted, an account gaining an identifier).'),
    refused_rows: Count('Parsed rows the Ledger refused (not a record it knows); listed in refused_rows.'),
    error: Nullable(Type.String({ description: 'Why the last attempt failed.' })),
    started_at: Nullable(Timestamp),
    finished_at: Nullable(Timestamp),
  },
  { description: 'The latest normalization of the artifact into the Ledger; null until extraction hands it over (and for a skipped or failed extraction).' },
)

export const RawArtifact = named('RawArtifact', Strict({
  raw_id: Type.String(),
  sha256: Type.String(),
  signed_url: Type.String({
    description:
      'Serves the bytes as an attachment without a bearer until expires_at (10 minutes). With the filesystem blob store it is this service\'s GET /v1/raw/{raw_id}/content; with an S3-compatible store (BLOB_STORE=s3) it is a presigned GET on the store itself, which the store alone checks: a URL issued before a DELETE keeps working until it expires (the bytes are retained then anyway).',
  }),
  expires_at: Timestamp,
  mime_type: Type.String(),
  bytes: Type.Integer({ minimum: 0 }),
  source_type: Type.String(),
  filename: Nullable(Type.String()),
  ingested_at: Timestamp,
  parent_raw_id: Nullable(Type.String({ description: 'The e-mail this attachment came from.' })),
  extraction_status: ExtractionStatus,
  extraction_error: Nullable(Type.String()),
  parser: Nullable(Type.String()),
  parser_version: Nullable(Type.String()),
  extracted_at: Nullable(Timestamp),
  parsed_rows: Nullable(Count('Parsed rows extraction wrote: 0 when it failed or was skipped, null while it is pending or running.')),
  refused_rows: Type.Array(RefusedRow, {
    maxItems: 1 + refusedRowsKeptMax,
    description: `Rows the import refused, with their reasons: the row extraction stopped at, then the first ${refusedRowsKeptMax} parsed rows normalization refused (the rest are counted in refused_rows_total).`,
  }),
  refused_rows_total: Count('Every row refused, listed or not.'),
  normalization: Nullable(Normalization),
}))

export const ArtifactListQuery = Strict({
  source_type: Type.Optional(Type.Enum(sourceTypes, { description: 'Only artifacts of this source type.' })),
  extraction_status: Type.Optional(Type.Enum(extractionStatuses, { description: 'Only artifacts whose extraction is in this state.' })),
  since: Type.Optional(Type.String({ format: 'date-time', description: 'Only artifacts ingested at or after this instant (inclusive).' })),
  until: Type.Optional(Type.String({ format: 'date-time', description: 'Only artifacts ingested before this instant (exclusive), so consecutive windows do not overlap.' })),
  ...pageQuery(artifactPageRows),
})

export const ArtifactList = Strict({ artifacts: Type.Array(RawArtifact), next_cursor: NextCursor })

export const ContentQuery = Strict({
  tenant_id: TenantId,
  expires: Type.Integer({ minimum: 0, description: 'Unix seconds.' }),
  signature: Type.String({ minLength: 1, maxLength: 128 }),
})

export const ParsedQuery = Strict({
  parser: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  parser_version: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
  ...pageQuery(parsedPageRows),
})

export const ParsedRow = named('ParsedRow', Strict({
  id: Type.String(),
  raw_artifact_id: Type.String(),
  parser: Type.String(),
  parser_version: Type.String(),
  row_index: Type.Integer({ minimum: 0 }),
  extracted: Type.Record(Type.String(), Type.Unknown(), { description: 'An ExtractedRecord (account, transaction, balance, invoice, obligation or wallet_transfer).' }),
  confidence: Type.Number({ minimum: 0, maximum: 1 }),
  extracted_at: Timestamp,
}))

export const ParsedList = Strict({ raw_id: Type.String(), parsed: Type.Array(ParsedRow), next_cursor: NextCursor })

export const NoContent = Type.Unsafe<unknown>({ description: 'Tombstoned; the response has no body.' })

export const ProviderParams = Strict({ provider: Type.Enum(providers) })

export const ProviderHeaders = Type.Object({
  'x-provider-account': Type.Optional(Type.String({ description: 'The provider account the delivery is for (the connection\'s account).' })),
  'x-provider-signature': Type.Optional(
    Type.String({
      description: `t=<unix seconds>,v1=<hex HMAC-SHA-256(secret, "<t>." + raw body)>; the timestamp must be within ${signatureToleranceSeconds} s of ours.`,
    }),
  ),
})

/**
 * The body of a provider webhook, for the document only (the route reads the raw bytes and checks no
 * schema: the signature is over them, and a body that fits no envelope is still recorded, its extraction
 * then failing with the reason). Each envelope is the parser's own schema (docs/provider-payloads.md).
 */
export const ProviderPayload = named(
  'ProviderWebhookPayload',
  Type.Union(
    [
      named('BankProviderPayload', BankProviderPayload),
      named('CardProcessorPayload', CardProcessorPayload),
      named('ChainIndexerPayload', ChainIndexerPayload),
      named('ErpProviderPayload', ErpProviderPayload),
      named('AccountingProviderPayload', AccountingProviderPayload),
      named('PayrollProviderPayload', PayrollProviderPayload),
      Type.Record(Type.String(), Type.Unknown(), { description: 'generic_hmac: any other JSON object, recorded as source_type other.' }),
    ],
    {
      description:
        'The provider\'s JSON payload, stored byte for byte: the Steward envelope of its source type, named by its `schema` field (bank_provider: steward.bank_provider.v1, card_processor: steward.card_processor.v1, ' +
        'chain_indexer: steward.chain_indexer.v1, erp_provider: steward.erp_provider.v1; generic_hmac: steward.accounting_provider.v1, steward.payroll_provider.v1 or any other JSON object). ' +
        'The body is not checked here: one that fits no envelope is recorded and its extraction fails with the reason (docs/provider-payloads.md).',
    },
  ),
)

export const WebhookAccepted = named('ProviderWebhookAccepted', Strict({
  accepted: Type.Literal(true),
  trace_id: Type.String({ description: 'The request id; it is in the audit record of the delivery.' }),
  artifacts: Type.Integer({ minimum: 0, maximum: 1, description: 'New artifacts: 1, or 0 when the tenant already had these bytes (a replay).' }),
}))

export const ArtifactBytes = Type.String({ description: 'The artifact\'s bytes, as an attachment.' })
