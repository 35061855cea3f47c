/**
 * Path ids, proved for every registered route (issue 15, item 2): an id that names nothing of the
 * caller's tenant is 404 with the resource's not-found code whatever its shape (a UUID, another kind's
 * id, `x`, unicode, 255 characters), and only an id over the bound is 400 request_params_invalid. A
 * path tenant that is not the caller's is 403 auth_tenant_mismatch whatever its shape (the spec's answer
 * for another tenant, so a tenant that exists and one that does not read alike).
 *
 * On PostgreSQL this also proves that no shape reaches a `uuid` column (that would be a 500).
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createIdSource, type IdKind } from '../../src/kernel/ids.ts'
import type { ErrorCode } from '../../src/kernel/errors.ts'
import { roleScopes, serviceTokenScopes } from '../../src/modules/auth/scopes.ts'
import type { Scope } from '../../src/kernel/principal.ts'
import { pathParameterCharactersMax } from '../../src/platform/http/schemas.ts'
import type { RegisteredRoute } from '../../src/platform/http/guard.ts'
import type { RateLimitStore } from '../../src/platform/http/rate-limit/stores.ts'
import type { RouteAuth } from '../../src/platform/http/route-auth.ts'
import { addMember, createTestApp, expectError, issueApiKey, mintServiceToken, signupOwner, type TenantOwner, type TestApp } from '../support/harness.ts'
import { ingestFile, uniqueCsv } from '../fixtures/raw/ingest/raw-test-kit.ts'
import { promotionRequest } from '../support/payments.ts'

/** The not-found code of each path parameter that names a resource. A new one fails the coverage test below. */
const notFoundOf: Record<string, ErrorCode> = {
  transaction_id: 'ledger_transaction_not_found',
  account_id: 'ledger_account_not_found',
  counterparty_id: 'ledger_counterparty_not_found',
  invoice_id: 'ledger_invoice_not_found',
  obligation_id: 'obligation_not_found',
  job_id: 'ledger_job_not_found',
  member_id: 'member_not_found',
  wallet_id: 'wallet_not_found',
  key_id: 'api_key_not_found',
  endpoint_id: 'webhook_endpoint_not_found',
  event_id: 'audit_event_not_found',
  entityId: 'audit_entity_not_found',
  export_id: 'audit_export_not_found',
  raw_id: 'raw_artifact_not_found',
  payment_intent_id: 'payment_intent_not_found',
  action_id: 'proof_not_found',
  // An agent (today a service token): the promotion routes. The spec's deprecated public route
  // /v1/agents/{agent_id}/propose answers route_not_found whatever it names (tested below).
  agent_id: 'agent_not_found',
  run_id: 'agent_run_not_found',
  report_id: 'governance_report_not_found',
  entity_id: 'wiki_entity_not_found',
  // A memory page by id or percent-encoded slug, and the second segment of a slug written as a path.
  slug_or_id: 'memory_page_not_found',
  slug_rest: 'memory_page_not_found',
}

/** Where a route's parameter names another resource than it does elsewhere: that route's not-found code. */
const notFoundOfRoute: Record<string, Record<string, ErrorCode>> = {
  // account_id names a Ledger account elsewhere; here, the account's onchain_base registration.
  'GET /v1/execution/onchain-accounts/:account_id': { account_id: 'onchain_account_not_found' },
  // A routing decision's id is `id` in the spec's path.
  'GET /v1/agents/routing-decisions/:id': { id: 'agent_routing_decision_not_found' },
  // A proposal's id is `id` in the spec's path.
  'GET /v1/proposals/:id': { id: 'execution_proposal_not_found' },
  'POST /v1/proposals/:id/decide': { id: 'execution_proposal_not_found' },
}

/**
 * Path parameters that are not ids, each a closed vocabulary or a name the caller chooses, refused with
 * 400 outside it (tested where the route is): the value for the other parameters of a route.
 */
const notIds: Record<string, string> = {
  entityType: 'member', // an audit entity type, one of a listed set (audit.test.ts)
  provider: 'bank', // a provider of POST /v1/raw/webhooks/{provider}, one of a listed set (raw-webhooks.test.ts)
  orgId: 'org_1', // a platform caller's org reference; the route creates, it names nothing to look up (tenants.test.ts)
}

const ids = createIdSource()
const prefixed = (kind: IdKind) => ids.newId(kind)

/** Ids of every other shape, none naming anything of the caller's tenant. */
const foreignShapes: ReadonlyArray<readonly [string, () => string]> = [
  ['a UUID', () => randomUUID()],
  ['the nil UUID', () => '00000000-0000-0000-0000-000000000000'],
  ['a transaction id', () => prefixed('transaction')],
  ['an artifact id', () => prefixed('rawArtifact')],
  ['a member id', () => prefixed('member')],
  ['a webhook endpoint id', () => prefixed('webhookEndpoint')],
  ['an audit event id', () => prefixed('auditEvent')],
  ['a policy id', () => prefixed('policy')],
  ['x', () => 'x'],
  ['a number', () => '42'],
  ['a prefix with a short body', () => 'txn_1'],
  ['spaces and punctuation', () => 'a b;c\'d"e'],
  ['unicode', () => 'Zürich-ключ-日本-😀'],
  [`${pathParameterCharactersMax} characters`, () => 'a'.repeat(pathParameterCharactersMax)],
  [`${pathParameterCharactersMax} non-ASCII characters`, () => 'é'.repeat(pathParameterCharactersMax)],
]

const overBound = 'a'.repeat(pathParameterCharactersMax + 1)

/** A valid body for routes whose body is validated before the resource is looked up. */
const minimalBodies: Record<string, Record<string, unknown>> = {
  'PATCH /v1/tenants/:tenant_id/members/:member_id': { role: 'viewer' },
  'PATCH /v1/webhooks/:endpoint_id': { description: 'path ids' },
  'POST /v1/execution/agents/:agent_id/promote': promotionRequest({ reason: 'path ids' }),
  'POST /v1/execution/agents/:agent_id/demote': { reason: 'path ids' },
  'POST /v1/proposals/:id/decide': { decision: 'acknowledge' },
}

/** Hundreds of requests from one credential: this file is about answers, not budgets (429s would hide them). */
const unlimited: RateLimitStore = {
  async take() {
    return { allowed: true, limit: 1_000_000, remaining: 1_000_000, resetAtMs: Date.now(), retryAfterMs: 0 }
  },
  async peek() {
    return true
  },
  async close() {},
}

let test: TestApp
let owner: TenantOwner
let other: TenantOwner
let admin: string
let apiKey: string
let service: string
let routes: RegisteredRoute[]

beforeAll(async () => {
  test = await createTestApp({ rateLimits: unlimited })
  owner = await signupOwner(test)
  other = await signupOwner(test)
  admin = (await addMember(test, owner, 'admin')).token
  apiKey = (await issueApiKey(test, owner)).secret
  service = await mintServiceToken(test, owner.tenantId)
  routes = test.app.registeredRoutes.filter((route) => route.documented)
})
afterAll(async () => test?.close())

const routeName = (route: RegisteredRoute) => `${route.method} ${route.url}`
const pathParams = (url: string) => [...url.matchAll(/:([A-Za-z_]+)/g)].map((match) => match[1]!)
const tenantParamOf = (auth: RouteAuth) => (auth.kind === 'bearer' ? auth.tenantParam : undefined)

/** A token of the caller's tenant that passes the route's type, role and scope checks. */
function authorizedToken(auth: Extract<RouteAuth, { kind: 'bearer' }>): string {
  const candidates: Array<{ token: string; type: 'user' | 'api_key' | 'service'; role?: 'owner' | 'admin'; scopes: readonly Scope[] }> = [
    { token: owner.token, type: 'user', role: 'owner', scopes: roleScopes.owner },
    { token: admin, type: 'user', role: 'admin', scopes: roleScopes.admin },
    { token: apiKey, type: 'api_key', scopes: ['ledger:read', 'audit:read', 'governance:read'] },
    { token: service, type: 'service', scopes: serviceTokenScopes },
  ]
  const found = candidates.find(
    (candidate) =>
      (auth.principalTypes === undefined || auth.principalTypes.includes(candidate.type)) &&
      (auth.roles === undefined || (candidate.role !== undefined && auth.roles.includes(candidate.role))) &&
      auth.scopes.every((scope) => candidate.scopes.includes(scope)),
  )
  expect(found, 'some principal of the tenant can call the route').toBeDefined()
  return found!.token
}

/** The route's path with `name` set to `value` (percent-encoded), its tenant parameter to the caller's, the rest to harmless values. */
function pathWith(route: RegisteredRoute, name: string, value: string, tenantId = owner.tenantId): string {
  const tenantParam = tenantParamOf(route.auth)
  return route.url.replace(/:([A-Za-z_]+)/g, (_match, parameter: string) => {
    if (parameter === name) return encodeURIComponent(value)
    if (parameter === tenantParam) return tenantId
    return encodeURIComponent(notIds[parameter] ?? prefixed('transaction'))
  })
}

function send(route: RegisteredRoute, url: string, headers: Record<string, string>) {
  const body = minimalBodies[routeName(route)]
  return test.app.inject({ method: route.method as 'GET', url, headers, ...(body === undefined ? {} : { payload: body }) })
}

/** A real artifact's signed content query: the credential of GET /v1/raw/{raw_id}/content. */
async function signedContentQuery(): Promise<string> {
  const ingested = await ingestFile(test, owner.token, { sourceType: 'csv_upload', file: { filename: 'ids.csv', content: uniqueCsv(1), contentType: 'text/csv' } })
  expect(ingested.statusCode, ingested.body).toBe(201)
  const read = await test.request({ method: 'GET', url: `/v1/raw/${ingested.json().raw_id as string}`, token: owner.token })
  expect(read.statusCode, read.body).toBe(200)
  const signedUrl = new URL(read.json().signed_url as string)
  // The signature is good for its own artifact: the check below fails for want of the id, not the credential.
  expect((await test.app.inject({ method: 'GET', url: `${signedUrl.pathname}${signedUrl.search}` })).statusCode).toBe(200)
  return signedUrl.search
}

describe('path ids of every route', () => {
  it('knows every path parameter of every route (a new route declares what its ids answer)', () => {
    const unknown = routes.flatMap((route) =>
      pathParams(route.url)
        .filter((name) => name !== tenantParamOf(route.auth) && notFoundOf[name] === undefined && notFoundOfRoute[routeName(route)]?.[name] === undefined && notIds[name] === undefined)
        .map((name) => `${routeName(route)} :${name}`),
    )
    expect(unknown).toEqual([])
  })

  it('answer 404 with the resource\'s not-found code for an id of any shape that names nothing, and 400 over the bound', async () => {
    let checked = 0
    for (const route of routes) {
      if (route.auth.kind !== 'bearer') continue
      const headers = { authorization: `Bearer ${authorizedToken(route.auth)}` }
      for (const name of pathParams(route.url)) {
        const notFound = notFoundOfRoute[routeName(route)]?.[name] ?? notFoundOf[name]
        if (notFound === undefined) continue
        for (const [label, value] of foreignShapes) {
          const response = await send(route, pathWith(route, name, value()), headers)
          expect(`${response.statusCode} ${response.json().error?.code}`, `${routeName(route)} with :${name} = ${label}: ${response.body}`).toBe(`404 ${notFound}`)
          expectError(response, notFound)
          checked += 1
        }
        const response = await send(route, pathWith(route, name, overBound), headers)
        expect(response.statusCode, `${routeName(route)} with :${name} over the bound`).toBe(400)
        expectError(response, 'request_params_invalid')
      }
    }
    // 13 bearer routes at least name a resource; every shape is sent to each.
    expect(checked).toBeGreaterThanOrEqual(13 * foreignShapes.length)
  })

  it('answer 403 auth_tenant_mismatch for a path tenant of any shape that is not the caller\'s, and 400 over the bound', async () => {
    const tenantShapes: ReadonlyArray<readonly [string, () => string]> = [
      ['another tenant\'s id', () => other.tenantId],
      ['the caller\'s id in capitals', () => owner.tenantId.toUpperCase()],
      ...foreignShapes,
    ]
    let checked = 0
    for (const route of routes) {
      const tenantParam = tenantParamOf(route.auth)
      if (route.auth.kind !== 'bearer' || tenantParam === undefined) continue
      const headers = { authorization: `Bearer ${authorizedToken(route.auth)}` }
      for (const [label, value] of tenantShapes) {
        const response = await send(route, pathWith(route, tenantParam, value()), headers)
        expect(response.json().error?.code, `${routeName(route)} with :${tenantParam} = ${label}: ${response.body}`).toBe('auth_tenant_mismatch')
        expectError(response, 'auth_tenant_mismatch')
        checked += 1
      }
      expectError(await send(route, pathWith(route, tenantParam, overBound), headers), 'request_params_invalid')
    }
    expect(checked).toBeGreaterThanOrEqual(20 * tenantShapes.length)
  })

  it('answer the signed content URL of another id with 403 raw_signature_invalid: the signature is checked before the id', async () => {
    const query = await signedContentQuery()
    for (const [label, value] of foreignShapes) {
      const response = await test.app.inject({ method: 'GET', url: `/v1/raw/${encodeURIComponent(value())}/content${query}` })
      expect(response.json().error?.code, `${label}: ${response.body}`).toBe('raw_signature_invalid')
      expectError(response, 'raw_signature_invalid')
    }
    expectError(await test.app.inject({ method: 'GET', url: `/v1/raw/${overBound}/content${query}` }), 'request_params_invalid')
  })

  it('answer the deprecated route 404 whatever its id', async () => {
    for (const [, value] of foreignShapes) {
      expectError(await test.app.inject({ method: 'POST', url: `/v1/agents/${encodeURIComponent(value())}/propose` }), 'route_not_found')
    }
  })
})
