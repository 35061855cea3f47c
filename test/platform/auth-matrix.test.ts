/**
 * The auth matrix, proved for every registered route (not a hand-kept list): a route added later is
 * tested here automatically, and this file fails until it declares what it needs.
 *
 * For each bearer route: 401 auth_token_missing / auth_token_invalid / auth_token_expired /
 * auth_invalid_key; 403 auth_scope_insufficient (missing scope, wrong principal type, wrong role);
 * 403 auth_tenant_mismatch when the path names another tenant; 404 when the path names the caller's
 * tenant but a resource of another tenant. Public routes must be on the allowlist below; platform routes
 * need X-Platform-Service-Auth.
 */
import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { roleScopes, serviceTokenScopes } from '../../src/modules/auth/scopes.ts'
import { type Scope } from '../../src/kernel/principal.ts'
import { createTokenSigner, tokenIssuer } from '../../src/modules/auth/tokens.ts'
import { queryRows } from '../../src/platform/db/database.ts'
import type { RegisteredRoute } from '../../src/platform/http/guard.ts'
import type { RouteAuth } from '../../src/platform/http/route-auth.ts'
import type { ErrorCode } from '../../src/kernel/errors.ts'
import { auditEvents } from '../support/audit-log.ts'
import { addMember, createTestApp, expectError, issueApiKey, mintServiceToken, signupOwner, subjectOf, testPlatformSecret, type TenantOwner, type TestApp } from '../support/harness.ts'
import { bankTransaction, normalize, seedArtifact } from '../support/ledger.ts'
import { ingestFile, uniqueCsv } from '../fixtures/raw/ingest/raw-test-kit.ts'
import { promotionRequest } from '../support/payments.ts'
import { expectRefusal } from '../support/mcp.ts'

/** Routes whose refusals are the spec's flat variant `{error_code, message}` (the agent protocol before dispatch). */
const flatVariantRoutes = new Set(['POST /v1/agents/mcp'])

/** Every public route. Adding a public route means adding it here, on purpose. */
const expectedPublicRoutes = new Set([
  'GET /v1/health',
  'GET /v1/ready',
  'GET /v1/openapi.json',
  'GET /v1/errors',
  'GET /docs/errors',
  'POST /v1/signup',
  'POST /v1/auth/verify-email',
  'POST /v1/auth/login',
  'POST /v1/auth/accept-invitation',
  'POST /v1/auth/service-token',
  // Sign-in with a wallet: the signed message is the credential.
  'POST /v1/auth/siwx/challenge',
  'POST /v1/auth/siwx',
  'POST /v1/audit/verify',
  // The policy language's JSON Schema: documentation, like the OpenAPI document.
  'GET /v1/schemas/policy-content.json',
  // Raw: the signed content URL (its signature is the credential) and provider webhooks (an HMAC over the body).
  'GET /v1/raw/:raw_id/content',
  'POST /v1/raw/webhooks/:provider',
  // Rail provider webhooks: the provider's HMAC over the body is the credential.
  'POST /v1/rails/bank_ach/webhooks',
  // Deprecated routes answer 404 whoever calls.
  'POST /v1/agents/register',
  'POST /v1/agents/:agent_id/propose',
  ...['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].flatMap((method) => [`${method} /v1/actions`, `${method} /v1/actions/*`]),
])

interface ResourceFixture {
  /** Creates the resource in `owner`'s tenant and returns the path parameters naming it. */
  create(test: TestApp, owner: TenantOwner): Promise<Record<string, string>>
  readonly notFound: ErrorCode
}

/** A small normalized Ledger in `owner`'s tenant: one transaction (with account and counterparty) and one invoice. */
async function ledgerOf(test: TestApp, owner: TenantOwner) {
  const { artifactId } = await seedArtifact(test, owner.tenantId, [
    bankTransaction({ amount: '-1.00', transaction_date: '2026-01-02', description: `MATRIX ${randomBytes(4).toString('hex')}`, counterparty: { name: 'Matrix Vendor' } }),
    { kind: 'invoice', direction: 'payable', invoice_number: `M-${randomBytes(4).toString('hex')}`, currency: 'EUR', total: '1', counterparty: { name: 'Matrix Vendor' } },
  ])
  await normalize(test, owner.tenantId, artifactId)
  const [transaction] = await queryRows<{ id: string; account_id: string; counterparty_id: string }>(
    test.runtime.db.orm,
    sql`select id, account_id, counterparty_id from ledger_transactions where tenant_id = ${owner.tenantId} limit 1`,
  )
  const [invoice] = await queryRows<{ id: string }>(test.runtime.db.orm, sql`select id from ledger_invoices where tenant_id = ${owner.tenantId} limit 1`)
  const [obligation] = await queryRows<{ id: string }>(test.runtime.db.orm, sql`select id from ledger_obligations where tenant_id = ${owner.tenantId} limit 1`)
  return { transaction: transaction!, invoiceId: invoice!.id, obligationId: obligation!.id }
}

/** A payment intent in `owner`'s tenant, proposed by its service token to the matrix ledger's counterparty. */
async function paymentIntentOf(test: TestApp, owner: TenantOwner): Promise<string> {
  const { transaction } = await ledgerOf(test, owner)
  const response = await test.request({
    method: 'POST',
    url: '/v1/payment-intents',
    token: await mintServiceToken(test, owner.tenantId),
    payload: { action_type: 'ach_outbound', source_account_id: transaction.account_id, destination_counterparty_id: transaction.counterparty_id, amount: '1.00', currency: 'EUR' },
  })
  expect(response.statusCode, response.body).toBe(201)
  return response.json().id as string
}

/** A counterparty's memory page in `owner`'s tenant (its matrix Ledger, regenerated). */
async function memoryPageOf(test: TestApp, owner: TenantOwner): Promise<{ id: string; slug: string }> {
  const { transaction } = await ledgerOf(test, owner)
  const regenerated = await test.request({ method: 'POST', url: '/v1/memory/regenerate', token: owner.token, payload: { page_types: ['counterparty'] } })
  expect(regenerated.statusCode, regenerated.body).toBe(200)
  const page = await test.request({ method: 'GET', url: `/v1/memory/pages/counterparty/${transaction.counterparty_id}`, token: owner.token })
  expect(page.statusCode, page.body).toBe(200)
  return { id: page.json().id as string, slug: page.json().slug as string }
}

/** How to make a resource of tenant A for each route that names one; routes without an entry fail. */
const resourceFixtures: Record<string, ResourceFixture> = {
  payment_intent_id: { create: async (test, owner) => ({ payment_intent_id: await paymentIntentOf(test, owner) }), notFound: 'payment_intent_not_found' },
  // A proof's action is a payment intent.
  action_id: { create: async (test, owner) => ({ action_id: await paymentIntentOf(test, owner) }), notFound: 'proof_not_found' },
  transaction_id: {
    create: async (test, owner) => ({ transaction_id: (await ledgerOf(test, owner)).transaction.id }),
    notFound: 'ledger_transaction_not_found',
  },
  account_id: {
    create: async (test, owner) => ({ account_id: (await ledgerOf(test, owner)).transaction.account_id }),
    notFound: 'ledger_account_not_found',
  },
  counterparty_id: {
    create: async (test, owner) => ({ counterparty_id: (await ledgerOf(test, owner)).transaction.counterparty_id }),
    notFound: 'ledger_counterparty_not_found',
  },
  invoice_id: { create: async (test, owner) => ({ invoice_id: (await ledgerOf(test, owner)).invoiceId }), notFound: 'ledger_invoice_not_found' },
  // A Wiki entity is a Ledger record: a transaction of tenant A.
  entity_id: { create: async (test, owner) => ({ entity_id: (await ledgerOf(test, owner)).transaction.id }), notFound: 'wiki_entity_not_found' },
  obligation_id: { create: async (test, owner) => ({ obligation_id: (await ledgerOf(test, owner)).obligationId }), notFound: 'obligation_not_found' },
  job_id: {
    create: async (test, owner) => {
      const admin = await addMember(test, owner, 'admin')
      const response = await test.request({ method: 'POST', url: '/v1/ledger/reconcile', token: admin.token })
      expect(response.statusCode, response.body).toBe(202)
      return { job_id: response.json().job_id as string }
    },
    notFound: 'ledger_job_not_found',
  },
  member_id: {
    create: async (test, owner) => ({ member_id: (await addMember(test, owner, 'viewer')).memberId }),
    notFound: 'member_not_found',
  },
  wallet_id: {
    create: async (test, owner) => {
      const linked = await test.request({ method: 'POST', url: `/v1/tenants/${owner.tenantId}/wallets`, token: owner.token, payload: { address: `0x${randomBytes(20).toString('hex')}`, principal_type: 'human' } })
      expect(linked.statusCode, linked.body).toBe(201)
      return { wallet_id: linked.json().id as string }
    },
    notFound: 'wallet_not_found',
  },
  key_id: {
    create: async (test, owner) => ({ key_id: (await issueApiKey(test, owner)).id }),
    notFound: 'api_key_not_found',
  },
  // Webhooks: an endpoint of tenant A (the sandbox allows a loopback URL; nothing is delivered to it).
  endpoint_id: {
    create: async (test, owner) => {
      const response = await test.request({ method: 'POST', url: '/v1/webhooks', token: owner.token, payload: { url: 'http://127.0.0.1:9/auth-matrix' } })
      expect(response.statusCode, response.body).toBe(201)
      return { endpoint_id: response.json().endpoint.id as string }
    },
    notFound: 'webhook_endpoint_not_found',
  },
  event_id: {
    create: async (test, owner) => {
      const [event] = await auditEvents(test, owner.tenantId)
      return { event_id: event!.id }
    },
    notFound: 'audit_event_not_found',
  },
  entityType: { create: async () => ({ entityType: 'member' }), notFound: 'audit_entity_not_found' },
  entityId: {
    create: async (test, owner) => ({ entityId: (await addMember(test, owner, 'viewer')).memberId }),
    notFound: 'audit_entity_not_found',
  },
  // Raw: an artifact of tenant A, uploaded as a small CSV (unique bytes, so never deduplicated into another's).
  raw_id: {
    create: async (test, owner) => {
      const response = await ingestFile(test, owner.token, { sourceType: 'csv_upload', file: { filename: 'matrix.csv', content: uniqueCsv(1), contentType: 'text/csv' } })
      expect(response.statusCode, response.body).toBe(201)
      return { raw_id: response.json().raw_id as string }
    },
    notFound: 'raw_artifact_not_found',
  },
  // An agent (today a service token) of tenant A.
  agent_id: { create: async (test, owner) => ({ agent_id: subjectOf(await mintServiceToken(test, owner.tenantId)) }), notFound: 'agent_not_found' },
  // An agent run in tenant A (one that routes to no agent: recorded every time, never a duplicate).
  run_id: {
    create: async (test, owner) => {
      const response = await test.request({ method: 'POST', url: '/v1/agents/run', token: owner.token, payload: { intent: 'auth matrix' } })
      expect(response.statusCode, response.body).toBe(200)
      return { run_id: response.json().run_id as string }
    },
    notFound: 'agent_run_not_found',
  },
  // A memory page of tenant A: its small Ledger, regenerated.
  slug_or_id: { create: async (test, owner) => ({ slug_or_id: (await memoryPageOf(test, owner)).id }), notFound: 'memory_page_not_found' },
  export_id: {
    create: async (test, owner) => {
      const response = await test.request({ method: 'POST', url: '/v1/audit/export', token: owner.token, payload: { format: 'jsonl' } })
      return { export_id: response.json().export_id as string }
    },
    notFound: 'audit_export_not_found',
  },
}

/** A proposal of tenant A: a finding its service token (an internal agent) proposes. */
const proposalFixture: ResourceFixture = {
  create: async (test, owner) => {
    const response = await test.request({ method: 'POST', url: '/v1/agents/actions', token: await mintServiceToken(test, owner.tenantId), payload: { action_type: 'flag_transaction', narrative: 'auth matrix', confidence: 0.5 } })
    expect(response.statusCode, response.body).toBe(201)
    return { id: response.json().id as string }
  },
  notFound: 'execution_proposal_not_found',
}

/**
 * A route whose path parameter names another resource than the parameter usually does: its own fixture.
 * `account_id` is a Ledger account elsewhere; on the onchain registration routes it is the registration.
 */
const routeFixtures: Record<string, Record<string, ResourceFixture>> = {
  // A slug written as two path segments: the first fixture names the whole page, the second adds nothing.
  'GET /v1/memory/pages/:slug_or_id/:slug_rest': {
    slug_or_id: {
      create: async (test, owner) => {
        const [kind, subject] = (await memoryPageOf(test, owner)).slug.split('/')
        return { slug_or_id: kind!, slug_rest: subject! }
      },
      notFound: 'memory_page_not_found',
    },
    slug_rest: { create: async () => ({}), notFound: 'memory_page_not_found' },
  },
  'GET /v1/proposals/:id': { id: proposalFixture },
  'POST /v1/proposals/:id/decide': { id: proposalFixture },
  'GET /v1/agents/routing-decisions/:id': {
    id: {
      create: async (test, owner) => {
        const response = await test.request({ method: 'POST', url: '/v1/agents/route', token: owner.token, payload: { event: 'ledger.obligation.created' } })
        expect(response.statusCode, response.body).toBe(200)
        return { id: response.json().routing_decision_id as string }
      },
      notFound: 'agent_routing_decision_not_found',
    },
  },
  'GET /v1/execution/onchain-accounts/:account_id': {
    account_id: {
      create: async (test, owner) => {
        const accountId = (await ledgerOf(test, owner)).transaction.account_id
        // Written as the registration route writes it (the route itself needs a chain to ask the token's decimals).
        await test.runtime.db.orm.execute(
          sql`insert into onchain_accounts (tenant_id, account_id, smart_account, token, session_key_address, chain_id, created_by, created_at)
              values (${owner.tenantId}, ${accountId}, ${`0x${'a1'.repeat(20)}`}, ${`0x${'b2'.repeat(20)}`}, ${`0x${'c3'.repeat(20)}`}, 31337, ${owner.userId}, now())`,
        )
        const own = await test.request({ method: 'GET', url: `/v1/execution/onchain-accounts/${accountId}`, token: owner.token })
        expect(own.statusCode, own.body).toBe(200)
        return { account_id: accountId }
      },
      notFound: 'onchain_account_not_found',
    },
  },
}

let test: TestApp
let tenantA: TenantOwner
let tenantB: TenantOwner
let adminB: string
let apiKeyB: string
let serviceB: string
let routes: RegisteredRoute[]

beforeAll(async () => {
  test = await createTestApp()
  tenantA = await signupOwner(test)
  tenantB = await signupOwner(test)
  adminB = (await addMember(test, tenantB, 'admin')).token
  apiKeyB = (await issueApiKey(test, tenantB)).secret
  serviceB = await mintServiceToken(test, tenantB.tenantId)
  routes = test.app.registeredRoutes.filter((route) => route.documented)
})
afterAll(async () => test?.close())

const routeName = (route: RegisteredRoute) => `${route.method} ${route.url}`
const pathParams = (url: string) => [...url.matchAll(/:([A-Za-z_]+)/g)].map((match) => match[1]!)

/** Fills the path: the tenant parameter with `tenantId`, other parameters with `values` or a placeholder. */
function fillPath(url: string, auth: RouteAuth, tenantId: string, values: Record<string, string> = {}): string {
  const tenantParam = auth.kind === 'bearer' ? auth.tenantParam : undefined
  return url
    .replace(/:([A-Za-z_]+)/g, (_match, name: string) => (name === tenantParam ? tenantId : (values[name] ?? `placeholder_${name}`)))
    .replace('*', 'anything')
}

function request(route: RegisteredRoute, url: string, headers: Record<string, string> = {}) {
  return test.app.inject({ method: route.method as 'GET', url, headers })
}

async function signed(claims: { sub: string; tenantId: string; scopes: readonly string[] }, options: { secret?: string; issuedSecondsAgo?: number; lifetimeSeconds?: number } = {}) {
  const signer = options.secret === undefined ? test.tokens : createTokenSigner(options.secret, tokenIssuer(test.config.environment))
  const issuedAt = new Date(Date.now() - (options.issuedSecondsAgo ?? 0) * 1000)
  return signer.sign({ ...claims, type: 'user' }, options.lifetimeSeconds ?? 900, issuedAt, `tok_${randomBytes(8).toString('hex')}`)
}

/** A token of tenant B that passes the route's type, role and scope checks, or undefined if none can. */
function authorizedTokenOfB(auth: Extract<RouteAuth, { kind: 'bearer' }>): string | undefined {
  const candidates: Array<{ token: string; type: 'user' | 'api_key' | 'service'; role?: 'owner' | 'admin'; scopes: readonly Scope[] }> = [
    { token: tenantB.token, type: 'user', role: 'owner', scopes: roleScopes.owner },
    { token: adminB, type: 'user', role: 'admin', scopes: roleScopes.admin },
    { token: apiKeyB, type: 'api_key', scopes: ['ledger:read', 'audit:read', 'governance:read'] },
    { token: serviceB, type: 'service', scopes: serviceTokenScopes },
  ]
  return candidates.find(
    (candidate) =>
      (auth.principalTypes === undefined || auth.principalTypes.includes(candidate.type)) &&
      (auth.roles === undefined || (candidate.role !== undefined && auth.roles.includes(candidate.role))) &&
      auth.scopes.every((scope) => candidate.scopes.includes(scope)),
  )?.token
}

describe('every route declares who may call it', () => {
  it('has public routes only where intended', () => {
    const publicRoutes = routes.filter((route) => route.auth.kind === 'public').map(routeName)
    expect(publicRoutes.filter((name) => !expectedPublicRoutes.has(name))).toEqual([])
  })

  it('has a cross-tenant fixture for every resource a bearer route names', () => {
    const missing = routes
      .filter((route) => route.auth.kind === 'bearer')
      .flatMap((route) =>
        pathParams(route.url)
          .filter((name) => name !== (route.auth as { tenantParam?: string }).tenantParam)
          .filter((name) => routeFixtures[routeName(route)]?.[name] === undefined),
      )
      .filter((name) => resourceFixtures[name] === undefined)
    expect([...new Set(missing)], 'add a resourceFixtures entry for each of these path parameters').toEqual([])
  })

  it('walks the import-visibility routes (issue 15, item 9), each needing the scope of its reads', () => {
    const scopesOf = (name: string) => {
      const route = routes.find((candidate) => routeName(candidate) === name)
      return route?.auth.kind === 'bearer' ? route.auth.scopes : undefined
    }
    // The list of artifacts reads as one artifact does; a reconciliation's status as the Ledger's jobs do.
    expect(scopesOf('GET /v1/raw')).toEqual(scopesOf('GET /v1/raw/:raw_id'))
    expect(scopesOf('GET /v1/raw')).toEqual(['raw:read'])
    expect(scopesOf('GET /v1/ledger/reconcile/:job_id')).toEqual(['ledger:read'])
  })

  it('can authorize every bearer route with some principal (so the matrix below is not vacuous)', () => {
    const unreachable = routes.filter((route) => route.auth.kind === 'bearer' && authorizedTokenOfB(route.auth) === undefined).map(routeName)
    expect(unreachable).toEqual([])
  })
})

describe('bearer routes', () => {
  it('answer 401 to a missing, malformed, forged or expired credential', async () => {
    for (const route of routes.filter((candidate) => candidate.auth.kind === 'bearer')) {
      const url = fillPath(route.url, route.auth, tenantB.tenantId)
      const name = routeName(route)
      const claims = { sub: tenantB.userId, tenantId: tenantB.tenantId, scopes: roleScopes.owner }
      const cases: Array<[string, Record<string, string>, ErrorCode]> = [
        ['no Authorization header', {}, 'auth_token_missing'],
        ['an empty Authorization header', { authorization: '' }, 'auth_token_missing'],
        ['a non-Bearer scheme', { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }, 'auth_token_invalid'],
        ['garbage', { authorization: 'Bearer not.a.jwt' }, 'auth_token_invalid'],
        ['a JWT signed with another secret', { authorization: `Bearer ${await signed(claims, { secret: randomBytes(32).toString('hex') })}` }, 'auth_token_invalid'],
        ['an expired JWT', { authorization: `Bearer ${await signed(claims, { issuedSecondsAgo: 1000 })}` }, 'auth_token_expired'],
        ['a JWT for a user that does not exist', { authorization: `Bearer ${await signed({ ...claims, sub: 'usr_00000000000000000000000000' })}` }, 'auth_token_invalid'],
        ['an unknown API key', { authorization: `Bearer svc_sk_test_${randomBytes(32).toString('base64url')}` }, 'auth_invalid_key'],
        ['a live key in the sandbox', { authorization: `Bearer svc_sk_live_${randomBytes(32).toString('base64url')}` }, 'auth_invalid_key'],
      ]
      for (const [label, headers, code] of cases) {
        const response = await request(route, url, headers)
        if (flatVariantRoutes.has(name)) {
          expect(response.json().error_code, `${name} with ${label}`).toBe(code)
          expectRefusal(response, 401, code)
          continue
        }
        expect(response.json().error?.code, `${name} with ${label}`).toBe(code)
        expectError(response, code)
      }
    }
  })

  it('answer 403 auth_scope_insufficient when a scope, principal type or role is missing', async () => {
    let checked = 0
    for (const route of routes) {
      const auth = route.auth
      if (auth.kind !== 'bearer') continue
      const url = fillPath(route.url, auth, tenantB.tenantId)
      const name = routeName(route)
      if (auth.scopes.length > 0) {
        // The owner's own token with the required scopes removed.
        const stripped = await signed({ sub: tenantB.userId, tenantId: tenantB.tenantId, scopes: roleScopes.owner.filter((scope) => !auth.scopes.includes(scope)) })
        expect(expectError(await request(route, url, { authorization: `Bearer ${stripped}` }), 'auth_scope_insufficient').code, name).toBeDefined()
        checked += 1
      }
      if (auth.principalTypes !== undefined && !auth.principalTypes.includes('api_key')) {
        expectError(await request(route, url, { authorization: `Bearer ${apiKeyB}` }), 'auth_scope_insufficient')
        checked += 1
      }
      if (auth.roles !== undefined && !auth.roles.includes('admin')) {
        expectError(await request(route, url, { authorization: `Bearer ${adminB}` }), 'auth_scope_insufficient')
        checked += 1
      }
    }
    expect(checked).toBeGreaterThan(0)
  })

  it('answer 403 auth_tenant_mismatch when the path names another tenant', async () => {
    let checked = 0
    for (const route of routes) {
      const auth = route.auth
      if (auth.kind !== 'bearer' || auth.tenantParam === undefined) continue
      const token = authorizedTokenOfB(auth)!
      const response = await request(route, fillPath(route.url, auth, tenantA.tenantId), { authorization: `Bearer ${token}` })
      expect(response.json().error?.code, routeName(route)).toBe('auth_tenant_mismatch')
      expectError(response, 'auth_tenant_mismatch')
      checked += 1
    }
    expect(checked).toBeGreaterThan(0)
  })

  it('answer 404 for a resource of another tenant, exactly as for a missing one', async () => {
    let checked = 0
    for (const route of routes) {
      const auth = route.auth
      if (auth.kind !== 'bearer') continue
      const names = pathParams(route.url).filter((name) => name !== auth.tenantParam)
      if (names.length === 0) continue
      const values: Record<string, string> = {}
      let notFound: ErrorCode | undefined
      for (const name of names) {
        const fixture = routeFixtures[routeName(route)]?.[name] ?? resourceFixtures[name]!
        Object.assign(values, await fixture.create(test, tenantA))
        notFound = fixture.notFound
      }
      const token = authorizedTokenOfB(auth)!
      const foreign = await request(route, fillPath(route.url, auth, tenantB.tenantId, values), { authorization: `Bearer ${token}` })
      const body = foreign.json()
      // The body may be refused first (400) on routes that need one; send a valid minimal body then.
      expect([404, 400], `${routeName(route)}: ${foreign.body}`).toContain(foreign.statusCode)
      if (foreign.statusCode === 400) {
        const retried = await test.app.inject({
          method: route.method as 'POST',
          url: fillPath(route.url, auth, tenantB.tenantId, values),
          headers: { authorization: `Bearer ${token}` },
          payload: minimalBodies[routeName(route)] ?? {},
        })
        expect(retried.json().error?.code, `${routeName(route)}: ${retried.body}`).toBe(notFound)
      } else {
        expect(body.error.code, routeName(route)).toBe(notFound)
      }
      checked += 1
    }
    expect(checked).toBeGreaterThan(0)
  })
})

/** A valid body for routes whose body is validated before the resource is looked up. */
const minimalBodies: Record<string, Record<string, unknown>> = {
  'PATCH /v1/tenants/:tenant_id/members/:member_id': { role: 'viewer' },
  'PATCH /v1/webhooks/:endpoint_id': { description: 'auth matrix' },
  'POST /v1/execution/agents/:agent_id/promote': promotionRequest({ reason: 'auth matrix' }),
  'POST /v1/execution/agents/:agent_id/demote': { reason: 'auth matrix' },
  'POST /v1/proposals/:id/decide': { decision: 'acknowledge' },
}

describe('platform routes', () => {
  it('require X-Platform-Service-Auth', async () => {
    const platform = routes.filter((route) => route.auth.kind === 'platform')
    expect(platform.length).toBeGreaterThan(0)
    for (const route of platform) {
      const url = fillPath(route.url, route.auth, tenantA.tenantId, { orgId: 'org_1' })
      expectError(await request(route, url), 'auth_token_missing')
      expectError(await request(route, url, { 'x-platform-service-auth': `${testPlatformSecret}x` }), 'auth_token_invalid')
      // A tenant's bearer token is not a platform credential.
      expectError(await request(route, url, { authorization: `Bearer ${tenantA.token}` }), 'auth_token_missing')
    }
  })
})
