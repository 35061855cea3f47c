/**
 * Ingest by URL (`POST /v1/raw/ingest`, JSON): the service fetches the file under the egress rules and
 * records it as an upload is recorded (ingest.service.ts). A fetch is network I/O that must not hold a
 * transaction open, so with an Idempotency-Key the command reserves its key around the whole fetch
 * (`commands.runReserved`): an identical request meanwhile is 409 idempotency_request_in_progress, and a
 * repeat after it replays the outcome without fetching again. The recording itself is one transaction
 * whose commit (`commands.commit`) carries the audit event, the business event and the extraction job.
 */
import type { Readable } from 'node:stream'
import type { CommandContext } from '../../kernel/context.ts'
import { AppError } from '../../kernel/errors.ts'
import { canonicalJson, hmacSha256Hex } from '../../kernel/hashing.ts'
import type { CommandRunner } from '../../platform/commands/command.ts'
import type { Database } from '../../platform/db/database.ts'
import type { BlobStore, StoredBlob } from '../../platform/storage/blob-store.ts'
import type { ArtifactDraft, ArtifactRecorder } from './artifacts.ts'
import { attributionOf, ingestOutcome, type IngestOutcome } from './ingest.service.ts'
import { artifactBytesMax, asFetchError, checkedMediaType, checkedSourceRef, checkedSourceType, cleanFilename } from './ingest-rules.ts'
import { storableUrl, type UrlFetcher } from './url-fetch.ts'

export interface UrlIngestInput {
  readonly source_type: string
  readonly url: string
  readonly source_ref?: Record<string, unknown> | undefined
  readonly auth_header?: string | undefined
  readonly mime_type?: string | undefined
}

export interface FetchService {
  /**
   * Fetches the URL and records the file for the context's principal's tenant (see the implementation).
   * With an Idempotency-Key, the same request replays the first outcome, another is 409.
   */
  ingestUrl(context: CommandContext, input: UrlIngestInput): Promise<{ outcome: IngestOutcome; replayed: boolean }>
}

export interface FetchServiceDeps {
  readonly db: Database
  readonly commands: CommandRunner
  readonly blobs: BlobStore
  readonly recorder: ArtifactRecorder
  readonly fetcher: UrlFetcher
  /** Keys the digest of the URL and auth header in an Idempotency-Key's fingerprint (a server secret). */
  readonly fingerprintKey: string
}

export function createFetchService(deps: FetchServiceDeps): FetchService {
  const { db, commands, blobs, recorder, fetcher } = deps

  async function putArtifactStream(tenantId: string, stream: Readable): Promise<StoredBlob> {
    try {
      return await blobs.put(tenantId, stream, { bytesMax: artifactBytesMax })
    } catch (error) {
      throw asFetchError(error)
    }
  }

  /**
   * What makes two fetches the same request for an Idempotency-Key: the input as sent, except that the
   * URL (whose query often carries a token) and the auth header enter only as an HMAC under a server key,
   * so the stored request hash cannot be tested against guessed credentials.
   */
  function fingerprintOf(input: UrlIngestInput) {
    return {
      source_type: input.source_type,
      source_ref: input.source_ref ?? null,
      mime_type: input.mime_type ?? null,
      url_and_auth_header: hmacSha256Hex(deps.fingerprintKey, canonicalJson({ url: input.url, auth_header: input.auth_header ?? null })),
    }
  }

  return {
    /**
     * Fetches the URL under the egress rules (every redirect re-checked and pinned; auth_header only to
     * the URL's origin), streams the body to storage with the size and time limits, then records it as
     * an upload is recorded: locks the tenant's content key for the SHA-256; audits
     * raw.artifact_ingested, raw.artifact_deduplicated or raw.artifact_restored (layer raw); emits
     * raw.ingest.new or raw.ingest.deduplicated; a new artifact enqueues raw-extract. The auth header is
     * never stored, audited or logged.
     */
    async ingestUrl(context, input) {
      const attribution = attributionOf(context)
      const tenantId = attribution.tenantId
      const sourceType = checkedSourceType(input.source_type)
      const userSourceRef = checkedSourceRef(input.source_ref)
      if (input.mime_type !== undefined) checkedMediaType(input.mime_type, null)
      return commands.runReserved(context, { name: 'raw.ingestUrl', tenantId, input: fingerprintOf(input) }, async () => {
        let opened
        try {
          opened = await fetcher.open(input.url, input.auth_header)
        } catch (error) {
          throw asFetchError(error)
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
        const fetched = stored
        return recorder.settle(tenantId, fetched, (recorded) =>
          db.transaction(async (tx) => {
            const work = await recorder.recordInTx(tx, attribution, fetched, draft, { restoreTombstoned: true })
            recorded(work.outcome)
            await commands.commit(tx, tenantId, work)
            return ingestOutcome(work.outcome)
          }),
        )
      })
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
