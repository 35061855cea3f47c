/**
 * The one error renderer. Every non-2xx response leaves through here as
 * `{ error: { code, message, details?, request_id, docs_url } }`, including unknown routes, schema
 * failures, body-size and media-type refusals, rate limits and unexpected failures. A 500 says nothing
 * about the cause; the cause is logged with the request id.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import Type from 'typebox'
import { AppError, errorCatalogue, type ErrorCode } from '../kernel/errors.ts'
import { toIssues } from './validation.ts'

export const errorReferencePath = '/docs/errors'

export const ErrorEnvelope = Type.Object(
  {
    error: Type.Object(
      {
        code: Type.String({ description: 'Stable snake_case code from the error reference.' }),
        message: Type.String(),
        details: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
        request_id: Type.String(),
        docs_url: Type.String({ format: 'uri' }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, description: 'The error envelope of every non-2xx response.' },
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

export function renderError(request: FastifyRequest, reply: FastifyReply, error: AppError, publicBaseUrl: string) {
  const body = {
    error: {
      code: error.code,
      message: error.message,
      ...(error.details === undefined ? {} : { details: error.details }),
      request_id: request.id,
      docs_url: docsUrl(publicBaseUrl, error.code),
    },
  }
  return reply.code(errorCatalogue[error.code].status).type('application/json; charset=utf-8').send(body)
}

export function installErrorHandling(app: FastifyInstance, publicBaseUrl: string): void {
  app.setErrorHandler((rawError: FastifyError, request, reply) => {
    const known = rawError instanceof AppError ? rawError : fromFastifyError(rawError)
    if (known === undefined) {
      request.log.error({ err: rawError }, 'unhandled error')
      return renderError(request, reply, new AppError('internal_error'), publicBaseUrl)
    }
    if (known.status >= 500) request.log.error({ err: rawError }, known.code)
    return renderError(request, reply, known, publicBaseUrl)
  })

  app.setNotFoundHandler((request, reply) =>
    renderError(request, reply, new AppError('route_not_found', `No route ${request.method} ${request.url.split('?')[0]}.`), publicBaseUrl),
  )
}
