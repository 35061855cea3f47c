/**
 * What every ingest checks before it records anything (an upload, a fetch by URL), the limits it
 * enforces, and how storage and egress failures read to the caller. Shared by the ingest use cases
 * (ingest.service.ts, fetch.service.ts), the provider webhook intake and extraction.
 */
import { AppError } from '../../kernel/errors.ts'
import { EgressRefusedError, EgressRequestError } from '../../platform/net/egress.ts'
import { BlobTooLargeError } from '../../platform/storage/blob-store.ts'
import { acceptedMediaTypes, decideMediaType } from './domain/media-types.ts'
import { checkIngestSourceType, type SourceType } from './domain/source-types.ts'

/** The largest artifact (spec, "Limits": 50 MB, taken as 50 MiB). */
export const artifactBytesMax = 50 * 1024 * 1024
/** A provider webhook body: verified in memory before anything is stored, so smaller than a file upload. */
export const providerWebhookBytesMax = 10 * 1024 * 1024
/** source_ref, serialized. */
export const sourceRefBytesMax = 16 * 1024
export const filenameCharsMax = 255

export function checkedSourceType(value: string): SourceType {
  const check = checkIngestSourceType(value)
  if (check.ok) return check.sourceType
  if (check.problem === 'reserved') {
    throw new AppError('raw_source_reserved', `source_type ${value} is reserved: it arrives only through its authenticated provider integration (POST /v1/raw/webhooks/{provider}) or from the service itself.`, {
      source_type: value,
    })
  }
  throw new AppError('raw_source_unsupported', undefined, { source_type: value })
}

export function checkedMediaType(declared: string | undefined, filename: string | null): string {
  const decision = decideMediaType(declared, filename)
  if (decision.ok) return decision.mediaType
  throw new AppError('request_media_type_unsupported', `The media type ${JSON.stringify(decision.given)} is not one Raw accepts.`, {
    media_type: decision.given,
    accepted: [...acceptedMediaTypes],
  })
}

export function checkedSourceRef(sourceRef: Record<string, unknown> | undefined): Record<string, unknown> {
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
export function asIngestError(error: unknown): unknown {
  if (error instanceof BlobTooLargeError) return new AppError('raw_artifact_too_large', undefined, { bytes_max: artifactBytesMax })
  const code = (error as { code?: unknown } | null)?.code
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new AppError('raw_artifact_too_large', undefined, { bytes_max: artifactBytesMax })
  return error
}

/** Failures of a fetch by URL (egress refusals, network errors, the size limit), as the caller sees them. */
export function asFetchError(error: unknown): unknown {
  if (error instanceof EgressRefusedError) return new AppError('raw_fetch_refused', error.message, { reason: error.reason, ...error.details })
  if (error instanceof EgressRequestError) return new AppError('raw_fetch_failed', `The fetch failed: ${error.message}.`, { reason: error.reason })
  return asIngestError(error)
}
