/**
 * The one error renderer. Every non-2xx response leaves through here as
 * `{ error: { code, message, details?, request_id, docs_url } }`, including unknown routes, schema
 * failures, body-size and media-type refusals, rate limits and unexpected failures. A 500 says nothing
 * about the cause; the cause is logged with the request id.
 */
import http from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify'
import FindMyWay from 'find-my-way'
import Type from 'typebox'
import { AppError, errorCatalogue, errorCodes, type ErrorCode } from '../../kernel/errors.ts'
import { ulid } from '../../kernel/ids.ts'
import { named, pathParameterCharactersMax } from './schemas.ts'
import { toIssues } from './validation.ts'


export const errorReferencePath = '/docs/errors'

/**
 * The envelope's `code`: every code of the catalogue (kernel/errors.ts), published as the OpenAPI
 * component `ErrorCode`, so a generated client can switch over it exhaustively.
 */
export const ErrorCodeSchema = named(
  'ErrorCode',
  Type.Enum(errorCodes, { type: 'string', description: 'Stable snake_case code from the error reference (GET /v1/errors, /docs/errors); match on it, not on the message.' }),
)

/** The error envelope of every non-2xx response, published as the OpenAPI component `Error`. */
export const ErrorEnvelope = named(
  'Error',
  Type.Object(
    {
      error: Type.Object(
        {
          code: ErrorCodeSchema,
          message: Type.String({ description: 'For a person; it may change between releases.' }),
          details: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Machine-readable specifics of the code, e.g. `issues` of a validation failure.' })),
          request_id: Type.String({ description: 'Also in the X-Request-Id response header; quote it when reporting a problem.' }),
          docs_url: Type.String({ format: 'uri', description: 'The code in the error reference.' }),
        },
        { additionalProperties: false },
      ),
    },
    { additionalProperties: false, description: 'The error envelope of every non-2xx response.' },
  ),
)

export function docsUrl(publicBaseUrl: string, code: string): string {
  return `${publicBaseUrl}${errorReferencePath}#${code}`
}

/** Maps Fastify's own errors (body parsing, validation) onto catalogue codes. */
function fromFastifyError(error: FastifyError & { validationContext?: string }): AppError | undefined {
  if (error.validation) {
    const code: ErrorCode = error.validationContext === 'body' ? 'request_body_invalid' : 'request_params_invalid'
    return new AppError(code, undefined, { issues: toIssues(error.validation) })
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('request_body_too_large')
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('request_media_type_unsupported')
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('request_body_invalid', 'The request body is empty but the Content-Type is application/json.')
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError('request_body_invalid', 'The request body is not valid JSON.')
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('request_body_invalid', 'The Content-Length header does not match the body.')
    default:
      break
  }
  // Any other 4xx Fastify (or a plugin) raises is the caller's mistake; never turn it into a 500.
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    if (error.statusCode === 404) return new AppError('route_not_found')
    if (error.statusCode === 413) return new AppError('request_body_too_large')
    if (error.statusCode === 415) return new AppError('request_media_type_unsupported')
    return new AppError('validation_failed', error.message)
  }
  return undefined
}

/** The catalogue error a thrown value stands for (an AppError, or Fastify's own), or undefined for an unknown error. */
export function knownErrorOf(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error
  return error instanceof Error ? fromFastifyError(error as FastifyError) : undefined
}

function envelopeOf(error: AppError, requestId: string, publicBaseUrl: string) {
  return {
    error: {
      code: error.code,
      message: error.message,
      ...(error.details === undefined ? {} : { details: error.details }),
      request_id: requestId,
      docs_url: docsUrl(publicBaseUrl, error.code),
    },
  }
}

export function renderError(request: FastifyRequest, reply: FastifyReply, error: AppError, publicBaseUrl: string) {
  // Set here as well as in onRequest: a request the router refused never ran the hooks.
  reply.header('x-request-id', request.id)
  return reply.code(errorCatalogue[error.code].status).type('application/json; charset=utf-8').send(envelopeOf(error, request.id, publicBaseUrl))
}

/**
 * Fastify's `frameworkErrors`: a URL the router cannot decode (bad percent-encoding, invalid UTF-8) or a
 * path parameter over `pathParameterCharactersMax`. Both are the caller's path, so 400
 * request_params_invalid, in the envelope like every other refusal.
 */
export function frameworkErrorHandler(publicBaseUrl: string): NonNullable<FastifyServerOptions['frameworkErrors']> {
  return (error, request, reply) => {
    const refusal =
      error.code === 'FST_ERR_BAD_URL'
        ? new AppError('request_params_invalid', 'The path is not valid percent-encoded UTF-8.', {
            issues: [{ path: '/', message: 'is not valid percent-encoded UTF-8', keyword: 'encoding' }],
          })
        : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? new AppError('request_params_invalid', `A path parameter is longer than ${pathParameterCharactersMax} characters.`, {
              issues: [{ path: '/', message: `has a segment longer than ${pathParameterCharactersMax} characters`, keyword: 'maxLength' }],
            })
          : undefined
    if (refusal === undefined) request.log.error({ err: error }, 'router failure')
    void renderError(request, reply, refusal ?? new AppError('internal_error'), publicBaseUrl)
  }
}

/**
 * Node's HTTP parser refuses some requests before Fastify sees them (headers over 16 KiB, malformed
 * HTTP, a request that never finished arriving). The answer is written on the socket, still in the
 * envelope, with a fresh request id, and the connection is closed (its framing cannot be trusted).
 */
export function clientErrorHandler(publicBaseUrl: string): (error: Error & { code?: string }, socket: Socket) => void {
  return (error, socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return
    const code: ErrorCode =
      error.code === 'HPE_HEADER_OVERFLOW' ? 'request_headers_too_large' : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'request_timeout' : 'request_malformed'
    const status = errorCatalogue[code].status
    const requestId = `req_${ulid(Date.now())}`
    const body = JSON.stringify(envelopeOf(new AppError(code), requestId, publicBaseUrl))
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
      )
    }
    socket.destroy(error)
  }
}

/**
 * Which methods a path has, for 405 and its Allow header: a router of its own, filled as routes
 * register. Deprecated routes are left out: their paths answer 404 whatever the method (spec).
 */
function createMethodIndex(app: FastifyInstance) {
  const router = FindMyWay({ ignoreTrailingSlash: true, maxParamLength: pathParameterCharactersMax })
  const methods = new Set<string>()
  app.addHook('onRoute', (route) => {
    if ((route.schema as { deprecated?: boolean } | undefined)?.deprecated === true) return
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      if (router.hasRoute(method as FindMyWay.HTTPMethod, route.url)) continue
      router.on(method as FindMyWay.HTTPMethod, route.url, () => undefined)
      methods.add(method)
    }
  })
  return (path: string): string[] => [...methods].filter((method) => router.find(method as FindMyWay.HTTPMethod, path) !== null).sort()
}

export function installErrorHandling(app: FastifyInstance, publicBaseUrl: string): void {
  const allowedMethods = createMethodIndex(app)
  app.setErrorHandler((rawError: FastifyError, request, reply) => {
    const known = rawError instanceof AppError ? rawError : fromFastifyError(rawError)
    if (known === undefined) {
      request.log.error({ err: rawError }, 'unhandled error')
      return renderError(request, reply, new AppError('internal_error'), publicBaseUrl)
    }
    if (known.status >= 500) request.log.error({ err: rawError }, known.code)
    return renderError(request, reply, known, publicBaseUrl)
  })

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!
    const allowed = allowedMethods(path)
    if (allowed.length > 0) {
      reply.header('allow', allowed.join(', '))
      return renderError(
        request,
        reply,
        new AppError('method_not_allowed', `${path} does not take ${request.method}; it takes ${allowed.join(', ')}.`, { allowed_methods: allowed }),
        publicBaseUrl,
      )
    }
    return renderError(request, reply, new AppError('route_not_found', `No route ${request.method} ${path}.`), publicBaseUrl)
  })
}
