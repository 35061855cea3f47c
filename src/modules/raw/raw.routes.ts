/**
 * Raw routes (spec, "Raw"). The tenant is the caller's; another tenant's artifact is 404
 * raw_artifact_not_found.
 *
 * Two routes read their bodies in their own way, each in its own plugin scope so that nothing else
 * changes for the other routes:
 * - `POST /v1/raw/ingest` takes multipart/form-data (the file streamed into storage part by part, never
 *   buffered) or a JSON body (1 MiB, like every JSON route).
 * - `POST /v1/raw/webhooks/{provider}` takes its body as raw bytes, because the signature is over the
 *   exact bytes the provider sent.
 * The content route is public: its signature is the credential.
 *
 * Both ingests and the tombstone take an Idempotency-Key; the provider webhook does not (its signature
 * authenticates it, no member; see provider-webhooks.service.ts).
 */
import multipart, { type Multipart } from '@fastify/multipart'
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyRequest, FastifySchemaCompiler } from 'fastify'
import type { Static } from 'typebox'
import { contextOf, principalOf } from '../../platform/http/context.ts'
import { IdempotencyKeyHeaders, markReplayed } from '../../platform/http/idempotency.ts'
import { findUnsafeInput, unsafeTextReason } from '../../platform/http/input-rules.ts'
import { bearerRoute, publicRoute } from '../../platform/http/route-auth.ts'
import { validatorCompiler } from '../../platform/http/validation.ts'
import { AppError } from '../../kernel/errors.ts'
import { attachmentDisposition } from './domain/media-types.ts'
import { tombstoneRetentionDays } from './retention.job.ts'
import {
  ArtifactBytes,
  ArtifactList,
  ArtifactListQuery,
  ContentQuery,
  IngestMultipartBody,
  IngestResponse,
  IngestUrlBody,
  NoContent,
  ParsedList,
  ParsedQuery,
  ProviderHeaders,
  ProviderParams,
  ProviderPayload,
  RawArtifact,
  RawIdParams,
  WebhookAccepted,
} from './raw.schemas.ts'
import type { IngestOutcome, StoredUpload } from './ingest.service.ts'
import { artifactBytesMax, providerWebhookBytesMax, sourceRefBytesMax } from './ingest-rules.ts'
import { registerNamedSchemas } from '../../platform/http/schemas.ts'
import * as rawSchemas from './raw.schemas.ts'
import type { RawService } from './raw.service.ts'
import { artifactPageRows } from './read.service.ts'

const tags = ['Raw']
/** What every keyed route's description says about its Idempotency-Key. */
const idempotencyNote =
  'With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.'

/** An ingest's answer: 201 for a new artifact, 200 when the tenant already had the bytes. */
function ingestReply(outcome: IngestOutcome) {
  return { status: outcome.kind === 'created' ? 201 : 200, body: { ...outcome.artifact, deduplicated: outcome.kind !== 'created' } }
}

/** The form fields besides `file`. */
const formFields = new Set(['source_type', 'mime_type', 'source_ref'])
/** Headers and boundaries of a form around the file: a multipart request may exceed the file limit by this much. */
export const formOverheadBytesMax = 1024 * 1024
/** The most a multipart ingest request may declare in Content-Length. */
export const ingestRequestBytesMax = artifactBytesMax + formOverheadBytesMax

/**
 * Bodies documented for OpenAPI but read by the handler itself: the multipart form (streamed part by
 * part) and a provider's raw bytes. Every other schema is validated as everywhere else.
 */
const skipBodyValidation =
  (contentTypes: readonly string[]): FastifySchemaCompiler<unknown> =>
  (route) => {
    if (route.httpPart === 'body' && contentTypes.includes((route as { contentType?: string }).contentType ?? '')) return () => true
    return validatorCompiler(route)
  }

function invalidForm(path: string, message: string): AppError {
  return new AppError('request_body_invalid', undefined, { issues: [{ path, message, keyword: 'multipart' }] })
}

/** @fastify/multipart's and busboy's refusals, as the envelope says them. */
function formError(error: unknown): unknown {
  if (error instanceof AppError) return error
  const code = (error as { code?: unknown } | null)?.code
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new AppError('raw_artifact_too_large', undefined, { bytes_max: artifactBytesMax })
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return invalidForm('/', 'the form has too many parts: send source_type, mime_type and source_ref (optional) and then one file')
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return invalidForm('/source_ref', 'is not valid JSON')
    default:
      return invalidForm('/', `the multipart body is malformed: ${error instanceof Error ? error.message : String(error)}`)
  }
}

function fieldText(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

function parseSourceRef(value: unknown): Record<string, unknown> | undefined {
  if (value === undefined) return undefined
  let parsed = value
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value)
    } catch {
      throw invalidForm('/source_ref', 'is not valid JSON')
    }
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw invalidForm('/source_ref', 'must be a JSON object')
  // The form's fields bypass the app's input rules (the body is read here, part by part), so they apply here.
  const issue = findUnsafeInput(parsed)
  if (issue !== undefined) throw invalidForm(`/source_ref${issue.path === '/' ? '' : issue.path}`, issue.message)
  return parsed as Record<string, unknown>
}

/**
 * Reads the form part by part: the fields first, then the file, which is streamed into storage as it
 * arrives. Anything after the file is refused (the stored bytes are discarded again).
 */
async function ingestForm(raw: RawService, request: FastifyRequest): Promise<StoredUpload> {
  const tenantId = principalOf(request).tenantId
  const fields: Record<string, unknown> = {}
  let upload: StoredUpload | undefined
  let parts: AsyncIterator<Multipart>
  try {
    parts = request.parts({
      limits: {
        // One byte above ours, so our own meter (not busboy's silent truncation) sees the file is too large.
        fileSize: artifactBytesMax + 1,
        files: 1,
        fields: formFields.size,
        parts: formFields.size + 1,
        fieldSize: sourceRefBytesMax,
        fieldNameSize: 64,
        headerPairs: 32,
      },
    })[Symbol.asyncIterator]()
  } catch (error) {
    // A multipart Content-Type without a usable boundary.
    throw formError(error)
  }
  try {
    for (;;) {
      let next
      try {
        next = await parts.next()
      } catch (error) {
        throw formError(error)
      }
      if (next.done === true) break
      const part = next.value
      if (upload !== undefined) {
        if (part.type === 'file') part.file.resume()
        throw invalidForm(`/${part.fieldname}`, 'comes after the file; the file must be the last part')
      }
      if (part.type === 'field') {
        if (part.fieldname === 'file') throw invalidForm('/file', 'must be a file part (with a filename in its Content-Disposition)')
        if (!formFields.has(part.fieldname)) throw invalidForm(`/${part.fieldname}`, 'is not a recognized field')
        if (part.fieldname in fields) throw invalidForm(`/${part.fieldname}`, 'is given more than once')
        if (part.valueTruncated) throw invalidForm(`/${part.fieldname}`, 'is too long')
        const reason = typeof part.value === 'string' ? unsafeTextReason(part.value) : undefined
        if (reason !== undefined) throw invalidForm(`/${part.fieldname}`, reason)
        fields[part.fieldname] = part.value
        continue
      }
      try {
        if (part.fieldname !== 'file') throw invalidForm(`/${part.fieldname}`, 'is not a recognized field; the file part is named file')
        const sourceType = fieldText(fields.source_type)
        if (sourceType === undefined) throw invalidForm('/source_type', 'is required, before the file')
        const prepared = raw.prepareUpload({
          sourceType,
          mimeType: fieldText(fields.mime_type),
          partMimeType: part.mimetype,
          filename: part.filename ?? null,
          sourceRef: parseSourceRef(fields.source_ref),
        })
        upload = await raw.storeUpload(tenantId, prepared, part.file)
      } catch (error) {
        part.file.resume()
        // The form broke off in the middle of the file: the caller's body, not our storage, failed.
        if (!(error instanceof AppError) && part.file.errored !== null && part.file.errored === error) throw formError(error)
        throw error
      }
    }
  } catch (error) {
    if (upload !== undefined) await raw.discardUpload(tenantId, upload)
    throw error
  }
  if (upload === undefined) throw invalidForm('/file', 'is required')
  return upload
}

export const rawRoutes: FastifyPluginAsyncTypebox<{ raw: RawService }> = async (app, { raw }) => {
  // The named response schemas (Transaction, Member, …): OpenAPI components, referred to by $ref.
  registerNamedSchemas(app, [...Object.values(rawSchemas)])
  await app.register(async (scope) => {
    await scope.register(multipart, { throwFileSizeLimit: true })
    scope.withTypeProvider<TypeBoxTypeProvider>().post(
      '/v1/raw/ingest',
      {
        config: { auth: bearerRoute(['raw:write']) },
        validatorCompiler: skipBodyValidation(['multipart/form-data']),
        schema: {
          operationId: 'ingestRawArtifact',
          tags,
          summary: 'Ingest an artifact (upload, or fetch by URL)',
          description:
            `multipart/form-data with source_type, optional mime_type and source_ref (a JSON object as text), then the file as the last part, streamed to storage (at most ${artifactBytesMax} bytes: 413 raw_artifact_too_large); ` +
            'or JSON with source_type, url, optional source_ref, auth_header and mime_type, fetched by the service. ' +
            'Idempotent by SHA-256 per tenant: 201 for new bytes, 200 with deduplicated true and the original raw_id after (a tombstoned artifact is restored). ' +
            '415 request_media_type_unsupported, 400 raw_source_unsupported, 403 raw_source_reserved, 400 raw_fetch_refused / raw_fetch_failed (details.reason). ' +
            `${idempotencyNote} An upload is the same request when its file has the same SHA-256 and size and its fields (source_type, mime_type or the file part's media type, file name, source_ref) are the same; ` +
            'a fetch when source_type, url, source_ref, auth_header and mime_type are. A repeated fetch with its key is not fetched again; an identical one still running is 409 idempotency_request_in_progress.',
          headers: IdempotencyKeyHeaders,
          body: {
            content: {
              'multipart/form-data': { schema: IngestMultipartBody },
              'application/json': { schema: IngestUrlBody },
            },
          },
          response: { 200: IngestResponse, 201: IngestResponse },
        },
      },
      async (request, reply) => {
        if (request.isMultipart()) {
          const declaredBytes = Number(request.headers['content-length'])
          if (Number.isFinite(declaredBytes) && declaredBytes > ingestRequestBytesMax) {
            throw new AppError('raw_artifact_too_large', undefined, { bytes_max: artifactBytesMax })
          }
          const upload = await ingestForm(raw, request)
          const { outcome, replayed } = await raw.ingestUpload(contextOf(request), { upload })
          const answer = ingestReply(outcome)
          return markReplayed(reply, replayed).code(answer.status).send(answer.body)
        }
        if (request.mediaType !== 'application/json') throw new AppError('request_media_type_unsupported', 'Send multipart/form-data (a file) or application/json (a URL).')
        const { outcome, replayed } = await raw.ingestUrl(contextOf(request), request.body as Static<typeof IngestUrlBody>)
        const answer = ingestReply(outcome)
        return markReplayed(reply, replayed).code(answer.status).send(answer.body)
      },
    )
  })

  app.get(
    '/v1/raw',
    {
      config: { auth: bearerRoute(['raw:read']) },
      schema: {
        tags,
        operationId: 'listRawArtifacts',
        summary: 'List artifacts, with how their import went',
        description:
          'The tenant\'s artifacts, newest first (ingested_at, then raw_id, descending); tombstoned ones are left out. Filters: source_type, extraction_status, and the ingest time (since inclusive, until exclusive). ' +
          `Paginated (default ${artifactPageRows.defaultRows}, max ${artifactPageRows.maxRows}) with an opaque next_cursor bound to the filters (400 invalid_cursor otherwise). ` +
          'Each artifact is as GET /v1/raw/{raw_id} shows it: extraction status, parsed rows, refused rows with their reasons, and the Ledger\'s normalization with its progress (rows done of total) and outcome counts. ' +
          'An unknown filter value is 400 request_params_invalid.',
        querystring: ArtifactListQuery,
        response: { 200: ArtifactList },
      },
    },
    async (request) => raw.list(principalOf(request).tenantId, request.query),
  )

  app.get(
    '/v1/raw/:raw_id',
    {
      config: { auth: bearerRoute(['raw:read']) },
      schema: {
        operationId: 'getRawArtifact',
        tags,
        summary: 'Read an artifact, with a signed URL for its bytes',
        description:
          'signed_url serves the bytes as an attachment for 10 minutes, without a bearer: this service\'s content route with the filesystem blob store, a presigned GET on the bucket with an S3-compatible store. 404 raw_artifact_not_found, 410 raw_artifact_tombstoned.',
        params: RawIdParams,
        response: { 200: RawArtifact },
      },
    },
    async (request) => raw.get(principalOf(request).tenantId, request.params.raw_id),
  )

  app.delete(
    '/v1/raw/:raw_id',
    {
      config: { auth: bearerRoute(['raw:write']) },
      schema: {
        operationId: 'tombstoneRawArtifact',
        tags,
        summary: 'Tombstone an artifact',
        description:
          `204. A member with raw:write tombstones any artifact of the tenant; an agent or service token only one it contributed (403 auth_scope_insufficient otherwise). Reads, the content URL and a second DELETE then answer 410 raw_artifact_tombstoned (a second DELETE with the first one's Idempotency-Key replays its 204). The bytes are purged ${tombstoneRetentionDays} days later (docs/raw.md); parsed rows and Ledger rows stay. ` +
          idempotencyNote,
        params: RawIdParams,
        headers: IdempotencyKeyHeaders,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { replayed } = await raw.tombstone(contextOf(request), { rawId: request.params.raw_id })
      return markReplayed(reply, replayed).code(204).send()
    },
  )

  app.get(
    '/v1/raw/:raw_id/content',
    {
      config: { auth: publicRoute('raw-content') },
      // The URL carries a credential (the signature, valid 10 minutes): keep it out of the access log.
      logLevel: 'warn',
      schema: {
        operationId: 'downloadRawArtifactContent',
        tags,
        summary: 'Download an artifact\'s bytes (signed URL)',
        description:
          'The URL from GET /v1/raw/{raw_id}: no bearer, the signature is the credential. Served as an attachment with the stored media type and X-Content-Type-Options: nosniff. ' +
          '403 raw_signature_invalid when altered or expired; 410 once tombstoned.',
        params: RawIdParams,
        querystring: ContentQuery,
        produces: ['application/octet-stream'],
        response: { 200: ArtifactBytes },
      },
    },
    async (request, reply) => {
      const file = await raw.openContent({
        rawId: request.params.raw_id,
        tenantId: request.query.tenant_id,
        expires: request.query.expires,
        signature: request.query.signature,
      })
      return reply
        .type(file.mimeType)
        .header('content-disposition', attachmentDisposition(file.filename))
        .header('content-length', file.bytes)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'private, no-store')
        .header('referrer-policy', 'no-referrer')
        .header('digest', `sha-256=${Buffer.from(file.sha256, 'hex').toString('base64')}`)
        .send(file.stream as never) // a stream bypasses the response serializer
    },
  )

  app.get(
    '/v1/raw/:raw_id/parsed',
    {
      config: { auth: bearerRoute(['raw:read']) },
      schema: {
        operationId: 'listParsedRows',
        tags,
        summary: 'An artifact\'s parsed rows',
        description: 'Ordered by parser, parser_version, row_index; filter by parser and parser_version. Paginated (default 100, max 1000). 410 once tombstoned.',
        params: RawIdParams,
        querystring: ParsedQuery,
        response: { 200: ParsedList },
      },
    },
    async (request) => raw.listParsed(principalOf(request).tenantId, request.params.raw_id, request.query),
  )

  await app.register(async (scope) => {
    // The signature covers the exact bytes sent: this scope reads every body as a Buffer, whatever its type.
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: providerWebhookBytesMax }, (_request, body, done) => done(null, body))
    scope.withTypeProvider<TypeBoxTypeProvider>().post(
      '/v1/raw/webhooks/:provider',
      {
        config: { auth: publicRoute('raw-webhooks') },
        validatorCompiler: skipBodyValidation(['application/json']),
        schema: {
          operationId: 'receiveProviderWebhook',
          tags,
          summary: 'Receive a provider webhook (signed, no bearer)',
          description:
            'X-Provider-Account names the connection (configured out of band with npm run connectors); X-Provider-Signature signs the raw body (docs/raw.md). ' +
            `Any failure is 401 raw_webhook_signature_invalid. The body (JSON, at most ${providerWebhookBytesMax} bytes) becomes an artifact: 202 with artifacts 1, or 0 on a replay of the same bytes. ` +
            'No Idempotency-Key: the signature, not a member, authenticates the delivery, and the same bytes are recorded once.',
          params: ProviderParams,
          headers: ProviderHeaders,
          body: { content: { 'application/json': { schema: ProviderPayload } } },
          response: { 202: WebhookAccepted },
        },
      },
      async (request, reply) => {
        const header = (name: string) => {
          const value = request.headers[name]
          return typeof value === 'string' ? value : undefined
        }
        const accepted = await raw.receiveProviderWebhook(contextOf(request), {
          provider: request.params.provider,
          accountRef: header('x-provider-account'),
          signature: header('x-provider-signature'),
          body: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
        })
        return reply.code(202).send(accepted)
      },
    )
  })
}
