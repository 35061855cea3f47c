/**
 * buildApp: the Fastify application, assembled from the modules the caller built. It never listens:
 * `main/server.ts` does, and tests call `inject`.
 *
 * Plugin order matters and is explicit: validation and error handling first, then the guard (its
 * onRoute checks must see every route), then OpenAPI (it collects routes as they register), then routes.
 */
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify'
import type { Logger } from 'pino'
import type { RateLimitRule } from '../kernel/principal.ts'
import { AppError } from '../kernel/errors.ts'
import { ulid } from '../kernel/ids.ts'
import { clientErrorHandler, ErrorEnvelope, frameworkErrorHandler, installErrorHandling } from '../platform/http/errors.ts'
import { installGuard, type BearerAuthenticator } from '../platform/http/guard.ts'
import { installInputRules } from '../platform/http/input-rules.ts'
import { pathParameterCharactersMax, registerNamedSchemas, sharedSchemas } from '../platform/http/schemas.ts'
import type { RateLimitStore } from '../platform/http/rate-limit/stores.ts'
import { systemRoutes } from '../platform/http/system.routes.ts'
import { validatorCompiler } from '../platform/http/validation.ts'
import { consolePrefix, consoleRoutes } from '../platform/http/console.routes.ts'
import type { ModuleDefinition } from '../platform/modules.ts'

export const serviceVersion = '0.5.0'
export const documentationPrefix = '/docs/api'
/** JSON bodies above this are refused with 413 (routes that take files set their own limit). */
export const jsonBodyBytesMax = 1024 * 1024

export interface AppOptions {
  readonly logger: Logger
  readonly publicBaseUrl: string
  readonly trustProxyHops: number
  readonly platformServiceSecret: string | undefined
  readonly publicRateLimit: RateLimitRule
  readonly rateLimits: RateLimitStore
  readonly checkReady: () => Promise<void>
  /** Turns a bearer token into a principal (the auth module). */
  readonly authenticator: BearerAuthenticator
  /** The one budget every X-Platform-Service-Auth call shares. */
  readonly platformRateLimit: RateLimitRule
  /** Every module's contribution; their routes register in this order. */
  readonly modules: readonly ModuleDefinition[]
  /**
   * `pair` (default): Fastify's "incoming request" and "request completed" entries, for log processors;
   * `line`: one entry per request when it is answered (method, path, status, time), for a terminal.
   */
  readonly requestLog?: 'pair' | 'line'
  /** The built console's folder (CONSOLE_DIR); undefined: dist/console in the repository. */
  readonly consoleDirectory?: string | undefined
}

const requestIdPattern = /^[A-Za-z0-9._:-]{1,128}$/

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: options.logger as FastifyBaseLogger,
    bodyLimit: jsonBodyBytesMax,
    // A hop count: trust X-Forwarded-For only from that many proxies in front of us.
    trustProxy: (options.trustProxyHops > 0 ? options.trustProxyHops : false) as boolean,
    // A caller's X-Request-Id is kept when it is well-formed, so logs join up across services.
    genReqId: (request) => {
      const incoming = request.headers['x-request-id']
      return typeof incoming === 'string' && requestIdPattern.test(incoming) ? incoming : `req_${ulid(Date.now())}`
    },
    logController: new LogController({ requestIdLogLabel: 'request_id', disableRequestLogging: options.requestLog === 'line' }),
    // A request arriving while the server closes is answered 503 service_unavailable in the error envelope
    // by the first onRequest hook below, not with Fastify's own body (return503OnClosing).
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: pathParameterCharactersMax },
    frameworkErrors: frameworkErrorHandler(options.publicBaseUrl),
    clientErrorHandler: clientErrorHandler(options.publicBaseUrl),
  }).withTypeProvider<TypeBoxTypeProvider>()

  app.setValidatorCompiler(validatorCompiler)
  // JSON only: a text/plain body is refused with 415, not parsed into a string for the schema to reject.
  app.removeContentTypeParser(['text/plain'])
  installErrorHandling(app, options.publicBaseUrl)
  installInputRules(app)

  // During shutdown, answer in-flight requests with `Connection: close`: a keep-alive socket that was
  // busy when close() began would otherwise hold the server open until the client hangs up; and a request
  // that arrives once closing has begun is not started: 503 service_unavailable, so the load balancer
  // retries it on another instance.
  let closing = false
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id)
    if (closing) {
      reply.header('retry-after', '1')
      throw new AppError('service_unavailable', 'The server is shutting down; retry the request (another instance takes it).')
    }
  })
  if (options.requestLog === 'line') {
    app.addHook('onResponse', async (request, reply) => {
      request.log.info(`${request.method} ${request.url} ${reply.statusCode} ${Math.round(reply.elapsedTime)} ms`)
    })
  }
  app.addHook('preClose', async () => {
    closing = true
  })
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close')
  })

  // Shared wire schemas (the Amount format, the error envelope) before any route refers to them.
  for (const schema of sharedSchemas) app.addSchema(schema)
  registerNamedSchemas(app, [ErrorEnvelope])

  installGuard(app, {
    auth: options.authenticator,
    platformRateLimit: options.platformRateLimit,
    rateLimits: options.rateLimits,
    publicRateLimit: options.publicRateLimit,
    platformServiceSecret: options.platformServiceSecret,
    documentationPrefix,
    staticPrefixes: [consolePrefix],
  })

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Steward API',
        version: serviceVersion,
        description:
          'Governed financial intelligence: Raw, Ledger, Policy, Agents and Audit behind one /v1 API. Every non-2xx response is the error envelope; see /docs/errors.',
      },
      servers: [{ url: options.publicBaseUrl }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'Owner/member JWT, agent or service token, or tenant API key (svc_sk_test_…).' },
          platformServiceAuth: { type: 'apiKey', in: 'header', name: 'X-Platform-Service-Auth' },
          serviceTokenSecret: { type: 'http', scheme: 'bearer', description: 'SERVICE_TOKEN_SECRET, for the break-glass mint only.' },
        },
      },
    },
    // Shared schemas are components named by their $id (`#/components/schemas/Amount`), not `def-0`.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, index) => (typeof json.$id === 'string' ? json.$id : `def-${index}`) },
    // `produces` sets one content type for every response of an operation; an error is always the JSON
    // envelope, whatever a route's success body is (a file, a CSV export, an HTML page).
    transformObject: (documentObject) => {
      if (!('openapiObject' in documentObject)) return documentObject.swaggerObject
      // A copy: the document may share schema objects with the routes, and the enum rewrite is for readers only.
      const openapiObject = structuredClone(documentObject.openapiObject)
      typeStringEnums(openapiObject)
      // Components in name order, whatever order the modules registered them in: a stable document to diff.
      const components = openapiObject.components ?? {}
      components.schemas = Object.fromEntries(Object.entries(components.schemas ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      for (const operations of Object.values(openapiObject.paths ?? {})) {
        for (const operation of Object.values(operations ?? {}) as Array<{ requestBody?: { required?: boolean; content?: Record<string, { schema?: unknown }> }; responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>) {
          // The server reads an absent body as {} (platform/http/input-rules.ts): a body that requires no
          // property may be left out, so the document says so (@fastify/swagger marks every body required).
          if (operation?.requestBody !== undefined && acceptsEmptyObject(Object.values(operation.requestBody.content ?? {})[0]?.schema, components.schemas ?? {})) {
            operation.requestBody.required = false
          }
          for (const [status, response] of Object.entries(operation?.responses ?? {})) {
            if (!/^[45]/.test(status) || response.content === undefined) continue
            const schema = Object.values(response.content)[0]?.schema
            response.content = { 'application/json': { schema } }
          }
        }
      }
      return openapiObject
    },
    transform: ({ schema, url, route }) => {
      const auth = route.config?.auth
      const security = auth?.kind === 'bearer' ? [{ bearerAuth: [] }] : auth?.kind === 'platform' ? [{ platformServiceAuth: [] }] : []
      const existing = (schema as { security?: unknown } | undefined)?.security
      return { schema: { ...schema, security: existing ?? security } as typeof schema, url }
    },
  })
  await app.register(swaggerUi, { routePrefix: documentationPrefix, staticCSP: true })
  await app.register(consoleRoutes, { directory: options.consoleDirectory })

  await app.register(systemRoutes, { publicBaseUrl: options.publicBaseUrl, checkReady: options.checkReady, version: serviceVersion })
  for (const module of options.modules) if (module.routes !== undefined) await app.register(module.routes)

  await app.ready()
  return app as unknown as FastifyInstance
}

/**
 * Whether `{}` is a valid instance of a request body's JSON schema, read structurally: an object schema
 * (or a reference to one among `components`) that requires no property and is not a union or
 * intersection. Anything else is taken to need a body.
 */
export function acceptsEmptyObject(schema: unknown, components: Record<string, unknown>): boolean {
  if (schema === null || typeof schema !== 'object') return false
  const node = schema as { $ref?: unknown; type?: unknown; required?: unknown; anyOf?: unknown; oneOf?: unknown; allOf?: unknown; minProperties?: unknown }
  if (typeof node.$ref === 'string') {
    const name = /^#\/components\/schemas\/(.+)$/.exec(node.$ref)?.[1]
    return name !== undefined && acceptsEmptyObject(components[name], components)
  }
  if (node.anyOf !== undefined || node.oneOf !== undefined || node.allOf !== undefined) return false
  if (node.minProperties !== undefined && node.minProperties !== 0) return false
  return node.type === 'object' && (node.required === undefined || (Array.isArray(node.required) && node.required.length === 0))
}

/**
 * TypeBox writes a string enumeration as `{ enum: [...] }` without a type, and a union of string
 * literals as `anyOf` of one-value enums: both are valid JSON Schema, but documentation tools and client
 * generators show them as "any". In the document (never in the validators), such a schema becomes
 * `{ type: 'string', enum: [...] }`, which accepts exactly the same values.
 */
export function typeStringEnums(node: unknown): void {
  if (node === null || typeof node !== 'object') return
  if (Array.isArray(node)) {
    for (const item of node) typeStringEnums(item)
    return
  }
  const schema = node as Record<string, unknown>
  const isStringEnum = (candidate: unknown): candidate is { enum: string[] } =>
    candidate !== null &&
    typeof candidate === 'object' &&
    Array.isArray((candidate as { enum?: unknown }).enum) &&
    (candidate as { enum: unknown[] }).enum.every((value) => typeof value === 'string') &&
    Object.keys(candidate).every((key) => key === 'enum' || key === 'type' || key === 'description')
  const alternatives = schema.anyOf
  if (Array.isArray(alternatives) && alternatives.length > 0 && alternatives.every(isStringEnum) && Object.keys(schema).every((key) => key === 'anyOf' || key === 'description')) {
    schema.enum = [...new Set(alternatives.flatMap((alternative) => alternative.enum))]
    delete schema.anyOf
  }
  if (Array.isArray(schema.enum) && schema.type === undefined && schema.enum.length > 0 && schema.enum.every((value) => typeof value === 'string')) {
    schema.type = 'string'
  }
  for (const value of Object.values(schema)) typeStringEnums(value)
}

