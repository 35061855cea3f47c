/**
 * The guard in front of every route: registration-time checks, authentication, authorization, tenancy
 * and rate limiting, in that order.
 *
 * Order of a request: onRequest → authenticate (401, or 429 for a failure from an address that has
 * spent its failed-authentication budget) → principal type, role and scope (403
 * auth_scope_insufficient) → path tenant (403 auth_tenant_mismatch) → rate limit (429). Resources of
 * another tenant are answered 404 by the services, which filter every query by the caller's tenant.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { hasScopes, type Principal, type RateLimitRule } from '../../kernel/principal.ts'
import { AppError } from '../../kernel/errors.ts'
import { constantTimeEqual } from '../../kernel/hashing.ts'
import { ErrorEnvelope } from './errors.ts'
import type { RateLimitDecision } from './rate-limit/gcra.ts'
import type { RateLimitStore } from './rate-limit/stores.ts'
import type { RouteAuth } from './route-auth.ts'
import { assert } from '../../kernel/assert.ts'

/** What the guard needs of the auth module: turning a bearer token into a principal. */
export interface BearerAuthenticator {
  /**
   * The checks of `authenticate` that read nothing from the database (a JWT's signature and expiry, an
   * API key's shape). Throws the 401 authenticate would throw for a bearer that fails them.
   */
  checkWithoutLookup(bearer: string): Promise<void>
  /** The principal of a valid bearer; throws a 401 AppError otherwise. */
  authenticate(bearer: string): Promise<Principal>
}

const bearerPattern = /^Bearer[ ]+([^\s]+)[ ]*$/i

/** The token of an `Authorization: Bearer <token>` header, or undefined when the header is not that. */
export function parseBearer(authorization: string): string | undefined {
  return bearerPattern.exec(authorization)?.[1]
}

export interface GuardOptions {
  readonly auth: BearerAuthenticator
  /** The one budget every X-Platform-Service-Auth call shares. */
  readonly platformRateLimit: RateLimitRule
  readonly rateLimits: RateLimitStore
  readonly publicRateLimit: RateLimitRule
  readonly platformServiceSecret: string | undefined
  /**
   * Paths under here are documentation assets (the API reference UI): public and not in OpenAPI. A
   * route elsewhere with `schema.hide` is guarded like any other but left out of the document.
   */
  readonly documentationPrefix: string
  /**
   * Further prefixes of static assets treated like the documentation's: the console (`/console`), whose
   * files are public (the page signs in through the API) and not operations of the API.
   */
  readonly staticPrefixes?: readonly string[]
}

/** What the guard saw of each route at registration: the auth matrix and OpenAPI tests walk this list. */
export interface RegisteredRoute {
  readonly method: string
  readonly url: string
  readonly auth: RouteAuth
  readonly documented: boolean
}

declare module 'fastify' {
  interface FastifyInstance {
    readonly registeredRoutes: RegisteredRoute[]
  }
}

export function installGuard(app: FastifyInstance, options: GuardOptions): void {
  app.decorateRequest('principal', null)
  const registered: RegisteredRoute[] = []
  app.decorate('registeredRoutes', registered)

  app.addHook('onRoute', (route) => {
    const hidden = (route.schema as { hide?: boolean } | undefined)?.hide === true
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((method) => method !== 'HEAD')
    if (hidden && [options.documentationPrefix, ...(options.staticPrefixes ?? [])].some((prefix) => route.url.startsWith(prefix))) {
      route.config = { ...route.config, auth: { kind: 'public' } }
      for (const method of methods) registered.push({ method, url: route.url, auth: { kind: 'public' }, documented: false })
      return
    }
    assert(route.config?.auth !== undefined, `route ${String(route.method)} ${route.url} declares no config.auth: every route must say who may call it`)
    const responses = route.schema?.response as Record<string, unknown> | undefined
    const deprecated = (route.schema as { deprecated?: boolean } | undefined)?.deprecated === true
    assert(responses !== undefined && (deprecated || Object.keys(responses).some((status) => /^2\d\d$/.test(status))), `route ${String(route.method)} ${route.url} declares no 2xx response schema`)
    // A documented operation is named: generated clients call it by its operationId (one method per
    // route: a route of several methods would publish one id several times).
    const operationId = (route.schema as { operationId?: unknown } | undefined)?.operationId
    assert(hidden || (typeof operationId === 'string' && methods.length <= 1), `route ${String(route.method)} ${route.url} declares no operationId (or one for several methods)`)
    // Every route can fail with the envelope; say so in its schema and in OpenAPI.
    responses['4xx'] ??= ErrorEnvelope
    responses['5xx'] ??= ErrorEnvelope
    for (const method of methods) registered.push({ method, url: route.url, auth: route.config.auth, documented: !hidden })
  })

  app.addHook('onRequest', async (request, reply) => {
    const auth = request.routeOptions.config.auth
    if (auth === undefined) return // unknown route: the not-found handler answers
    await authorize(request, reply, auth, options)
    await applyRateLimit(request, reply, auth, options)
  })
}

async function authorize(request: FastifyRequest, reply: FastifyReply, auth: RouteAuth, options: GuardOptions): Promise<void> {
  if (auth.kind === 'public') return
  if (auth.kind === 'platform') {
    const presented = request.headers['x-platform-service-auth']
    if (typeof presented !== 'string' || presented === '') throw new AppError('auth_token_missing', 'X-Platform-Service-Auth is required.')
    if (options.platformServiceSecret === undefined || !constantTimeEqual(presented, options.platformServiceSecret)) {
      throw new AppError('auth_token_invalid', 'The platform service credential is not valid.')
    }
    return
  }

  const header = request.headers.authorization
  if (header === undefined || header.trim() === '') throw new AppError('auth_token_missing')
  const bearer = parseBearer(header)
  if (bearer === undefined) throw new AppError('auth_token_invalid', 'The Authorization header must be "Bearer <token>".')
  const principal = await authenticateThrottled(request, reply, bearer, options)
  request.principal = principal

  if (auth.principalTypes !== undefined && !auth.principalTypes.includes(principal.type)) {
    throw new AppError('auth_scope_insufficient', `This route is not available to ${principal.type} credentials.`, {
      required_principal_types: auth.principalTypes,
    })
  }
  if (auth.roles !== undefined && (principal.role === undefined || !auth.roles.includes(principal.role))) {
    throw new AppError('auth_scope_insufficient', 'This route requires a member role you do not hold.', { required_roles: auth.roles })
  }
  if (!hasScopes(principal, auth.scopes)) {
    throw new AppError('auth_scope_insufficient', undefined, {
      required: auth.scopes,
      missing: auth.scopes.filter((scope) => !principal.scopes.includes(scope)),
    })
  }
  if (auth.tenantParam !== undefined) {
    const pathTenant = (request.params as Record<string, string | undefined>)[auth.tenantParam]
    if (pathTenant !== principal.tenantId) throw new AppError('auth_tenant_mismatch')
  }
}

/**
 * Failed authentications are budgeted per client address (`auth-failures:<address>`, the public rule),
 * and the budget throttles failures only: a valid credential is always checked in full and served,
 * whatever its address has spent, so one client guessing behind a NAT or a proxy does not lock out the
 * others at that address. Each 401 spends one; a 401 once the budget is spent is answered 429 instead,
 * with Retry-After and the X-RateLimit headers of the budget, until it refills.
 *
 * While an address is throttled, its bearer first passes the checks that need no database (a JWT's
 * HMAC signature and expiry, an API key's prefix and shape): a forged, altered or expired token and a
 * made-up key are refused without a lookup, so junk from a throttled address costs the database
 * nothing. A well-formed API key can only be told from a valid one by its digest, so it is still looked
 * up (one indexed read, what a valid key costs); a 256-bit secret is not guessed by trying.
 */
async function authenticateThrottled(request: FastifyRequest, reply: FastifyReply, bearer: string, options: GuardOptions) {
  const failureKey = `auth-failures:${request.ip}`
  // A store that cannot answer throttles nothing: the limiter protects capacity, not security.
  const throttled = !(await options.rateLimits.peek(failureKey, options.publicRateLimit).catch(() => true))
  try {
    if (throttled) await options.auth.checkWithoutLookup(bearer)
    return await options.auth.authenticate(bearer)
  } catch (error) {
    if (!(error instanceof AppError && error.status === 401)) throw error
    const decision = await options.rateLimits.take(failureKey, options.publicRateLimit).catch(() => undefined)
    if (decision !== undefined && !decision.allowed) {
      setRateLimitHeaders(reply, decision)
      throw rateLimited(decision, 'Too many failed authentications from this address; retry after the Retry-After header.')
    }
    throw error
  }
}

function rateLimited(decision: RateLimitDecision, message?: string): AppError {
  const retryAfterSeconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000))
  return new AppError('rate_limit_exceeded', message, { retry_after_seconds: retryAfterSeconds })
}

function setRateLimitHeaders(reply: FastifyReply, decision: RateLimitDecision): void {
  reply.header('x-ratelimit-limit', decision.limit)
  reply.header('x-ratelimit-remaining', decision.remaining)
  reply.header('x-ratelimit-reset', Math.ceil(decision.resetAtMs / 1000))
  if (!decision.allowed) reply.header('retry-after', Math.max(1, Math.ceil(decision.retryAfterMs / 1000)))
}

async function applyRateLimit(request: FastifyRequest, reply: FastifyReply, auth: RouteAuth, options: GuardOptions): Promise<void> {
  let key: string
  let rule: RateLimitRule
  if (request.principal !== null) {
    key = `credential:${request.principal.credentialId}`
    rule = request.principal.rateLimit
  } else if (auth.kind === 'public' && auth.rateLimitGroup !== undefined) {
    key = `address:${auth.rateLimitGroup}:${request.ip}`
    rule = options.publicRateLimit
  } else if (auth.kind === 'platform') {
    key = 'platform'
    rule = options.platformRateLimit
  } else {
    return
  }

  let decision
  try {
    decision = await options.rateLimits.take(key, rule)
  } catch (error) {
    // The limiter protects capacity; it is not a security boundary. If its store is down, serve and say so.
    request.log.warn({ err: error }, 'rate limit store unavailable; request not limited')
    return
  }
  setRateLimitHeaders(reply, decision)
  if (!decision.allowed) throw rateLimited(decision)
}
