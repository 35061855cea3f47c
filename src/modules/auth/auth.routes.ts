/** Auth routes: login, the break-glass service-token mint, whoami, and tenant API keys. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { contextOf, principalOf } from '../../platform/http/context.ts'
import { IdempotencyKeyHeaders, markReplayed } from '../../platform/http/idempotency.ts'
import { bearerRoute, publicRoute } from '../../platform/http/route-auth.ts'
import type { ApiKeysService } from './api-keys.service.ts'
import { principalView, type AuthService } from './auth.service.ts'
import type { SiwxService } from './siwx.service.ts'
import {
  ApiKey,
  ApiKeyListQuery,
  ApiKeyListResponse,
  ApiKeyPathParams,
  IssueKeyBody,
  IssuedKeyResponse,
  LoginBody,
  PrincipalSchema,
  RotateKeyBody,
  ServiceTokenBody,
  SiwxChallenge,
  SiwxChallengeBody,
  SiwxSignInBody,
  TokenResponse,
} from './auth.schemas.ts'
import * as authSchemas from './auth.schemas.ts'
import { TenantPathParams, registerNamedSchemas } from '../../platform/http/schemas.ts'

export interface AuthRoutesOptions {
  readonly auth: AuthService
  readonly apiKeys: ApiKeysService
  readonly siwx: SiwxService
}

export const authRoutes: FastifyPluginAsyncTypebox<AuthRoutesOptions> = async (app, { auth, apiKeys, siwx }) => {
  // The named response schemas (Transaction, Member, …): OpenAPI components, referred to by $ref.
  registerNamedSchemas(app, [...Object.values(authSchemas)])
  app.post(
    '/v1/auth/login',
    {
      config: { auth: publicRoute('login') },
      schema: {
        operationId: 'logIn',
        tags: ['Auth'],
        summary: 'Log in with email and password',
        description:
          'Returns an owner/member JWT valid 900 seconds. An unknown email and a wrong password get the same 401 auth_invalid_credentials. ' +
          'No Idempotency-Key: a retry logs in again (a stored response would keep a live token in the database).',
        body: LoginBody,
        response: { 200: TokenResponse },
      },
    },
    async (request) => auth.login(contextOf(request), request.body),
  )

  app.post(
    '/v1/auth/service-token',
    {
      config: { auth: publicRoute('service-token') },
      schema: {
        operationId: 'mintServiceToken',
        tags: ['Auth'],
        summary: 'Mint a break-glass service token',
        description:
          'Sandbox and testnet only (403 auth_service_token_disabled in production or when SERVICE_TOKEN_SECRET is unset). Send SERVICE_TOKEN_SECRET as the bearer. Returns a one-hour service token for the tenant, recorded in the audit chain with its reason. ' +
          'No Idempotency-Key: a retry mints another token, audited like the first (a stored response would keep a live token in the database).',
        body: ServiceTokenBody,
        response: { 200: TokenResponse },
        security: [{ serviceTokenSecret: [] }],
      },
    },
    async (request) => auth.mintServiceToken(contextOf(request), { ...request.body, authorization: request.headers.authorization }),
  )

  app.post(
    '/v1/auth/siwx/challenge',
    {
      config: { auth: publicRoute('siwx') },
      schema: {
        operationId: 'createSiwxChallenge',
        tags: ['Auth'],
        summary: 'Get a nonce to sign in with a wallet (SIWX)',
        description:
          'Returns a nonce bound to the address, held 300 seconds and usable once, with the exact fields of the EIP-4361 message to sign (domain, URI, version 1, chain id 8453, issued at, expiration time) and the message itself. ' +
          'No Idempotency-Key: a retry gets another nonce; an unused one expires.',
        body: SiwxChallengeBody,
        response: { 200: SiwxChallenge },
      },
    },
    async (request) => siwx.challenge(request.body),
  )

  app.post(
    '/v1/auth/siwx',
    {
      config: { auth: publicRoute('siwx') },
      schema: {
        operationId: 'signInWithWallet',
        tags: ['Auth'],
        summary: 'Sign in with a wallet (SIWX)',
        description:
          'Send the signed challenge message. A wallet linked as human gets an owner-equivalent token for its member (900 seconds, the member\'s role scopes); the wallet of an active registered agent gets an agent token (3600 seconds, the agent\'s plain scopes and a scope_hash claim). ' +
          'Anything else (a bad signature, another domain, URI or chain id, an expired message or nonce, a reused nonce, an unknown wallet) is 401 auth_siwx_invalid; the reason is in the audit log, not the response. No Idempotency-Key: the nonce is single use.',
        body: SiwxSignInBody,
        response: { 200: TokenResponse },
      },
    },
    async (request) => siwx.signIn(contextOf(request), request.body),
  )

  app.get(
    '/v1/auth/whoami',
    {
      config: { auth: bearerRoute([]) },
      schema: { operationId: 'getCurrentPrincipal', tags: ['Auth'], summary: 'The principal behind this credential', response: { 200: PrincipalSchema } },
    },
    async (request) => principalView(principalOf(request)),
  )

  const keyAdmin = bearerRoute(['surfaces:admin'], { principalTypes: ['user'], tenantParam: 'tenant_id' })

  app.post(
    '/v1/tenants/:tenant_id/api-keys',
    {
      config: { auth: keyAdmin },
      schema: {
        operationId: 'issueApiKey',
        tags: ['API keys'],
        summary: 'Issue an API key',
        description:
          'Read-only (ledger:read, audit:read, governance:read). The secret is in this response only. Issued only where key auth is enabled: in production that needs API_KEY_AUTH_PRODUCTION_ENABLED, otherwise 403 api_key_auth_disabled. ' +
          'Optional Idempotency-Key: a repeated request gets the first response, the same secret included (the secret is not stored; it is derived again).',
        params: TenantPathParams,
        headers: IdempotencyKeyHeaders,
        body: IssueKeyBody,
        response: { 201: IssuedKeyResponse },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await apiKeys.issue(contextOf(request), { ...request.params, ...request.body })
      return markReplayed(reply, replayed).code(201).send(outcome)
    },
  )

  app.get(
    '/v1/tenants/:tenant_id/api-keys',
    {
      config: { auth: keyAdmin },
      schema: { operationId: 'listApiKeys', tags: ['API keys'], summary: 'List API keys', params: TenantPathParams, querystring: ApiKeyListQuery, response: { 200: ApiKeyListResponse } },
    },
    async (request) => apiKeys.list(request.params.tenant_id, request.query),
  )

  app.get(
    '/v1/tenants/:tenant_id/api-keys/:key_id',
    {
      config: { auth: keyAdmin },
      schema: { operationId: 'getApiKey', tags: ['API keys'], summary: 'Read an API key', params: ApiKeyPathParams, response: { 200: ApiKey } },
    },
    async (request) => apiKeys.get(request.params.tenant_id, request.params.key_id),
  )

  app.post(
    '/v1/tenants/:tenant_id/api-keys/:key_id/rotate',
    {
      config: { auth: keyAdmin },
      schema: {
        operationId: 'rotateApiKey',
        tags: ['API keys'],
        summary: 'Rotate an API key',
        description:
          'Issues a new secret for the key. The old secret stops at once, or after previous_secret_expires_in_seconds (at most 7 days). A revoked key is 409 api_key_revoked; an expired key is 409 api_key_expired. ' +
          'Optional Idempotency-Key: a repeated request gets the first response, the same secret included, and rotates nothing.',
        params: ApiKeyPathParams,
        headers: IdempotencyKeyHeaders,
        body: RotateKeyBody,
        response: { 200: IssuedKeyResponse },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await apiKeys.rotate(contextOf(request), { ...request.params, ...request.body })
      return markReplayed(reply, replayed).send(outcome)
    },
  )

  app.post(
    '/v1/tenants/:tenant_id/api-keys/:key_id/revoke',
    {
      config: { auth: keyAdmin },
      schema: {
        operationId: 'revokeApiKey',
        tags: ['API keys'],
        summary: 'Revoke an API key',
        description: 'The key stops working at once. Idempotent. Optional Idempotency-Key: a repeated request gets the first response.',
        params: ApiKeyPathParams,
        headers: IdempotencyKeyHeaders,
        response: { 200: ApiKey },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await apiKeys.revoke(contextOf(request), request.params)
      return markReplayed(reply, replayed).send(outcome)
    },
  )
}
