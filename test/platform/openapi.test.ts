/**
 * The OpenAPI document is generated from the route schemas; this proves every registered route is in
 * it, with request and response schemas, so a route cannot ship undocumented — and that it is a
 * document a client generator can use (issue 15, item 7): every operation named, by a stable id; the
 * shared types named components; one parameter name per path segment; every enum typed.
 */
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { errorCodes } from '../../src/kernel/errors.ts'
import { acceptsEmptyObject } from '../../src/main/app.ts'
import { createTestApp, expectError, signupOwner, type TestApp } from '../support/harness.ts'

interface Operation {
  operationId?: string
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>
  requestBody?: { content: Record<string, { schema: unknown }> }
  security?: unknown[]
  parameters?: Array<{ in: string; name: string; schema: { type?: string; enum?: unknown[]; anyOf?: unknown[] } }>
  deprecated?: boolean
}

let test: TestApp
let document: {
  openapi: string
  info: { version: string }
  paths: Record<string, Record<string, Operation>>
  components: { securitySchemes: Record<string, unknown>; schemas?: Record<string, { type?: string; pattern?: string; description?: string; enum?: string[]; properties?: Record<string, unknown> }> }
}

beforeAll(async () => {
  test = await createTestApp()
  const response = await test.request({ method: 'GET', url: '/v1/openapi.json' })
  expect(response.statusCode).toBe(200)
  document = response.json()
})
afterAll(async () => test?.close())

/** Fastify's `/v1/x/:id` and `/v1/actions/*` as OpenAPI writes them. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z_]+)/g, '{$1}').replace(/\*$/, '{*}')

describe('GET /v1/openapi.json', () => {
  it('is an OpenAPI 3.1 document with the security schemes', () => {
    expect(document.openapi).toBe('3.1.0')
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual(['bearerAuth', 'platformServiceAuth', 'serviceTokenSecret'])
  })

  it('names the operations of the platform\'s connector and audit-chain routes and of the events read (operationId), under platform auth where they are', () => {
    const operation = (path: string, method: string) => document.paths[path]?.[method] as { operationId?: string; security?: unknown[] } | undefined
    const expected: Array<[string, string, string, 'platformServiceAuth' | 'bearerAuth']> = [
      ['/v1/platform/connectors', 'get', 'listPlatformConnectors', 'platformServiceAuth'],
      ['/v1/platform/connectors', 'post', 'addPlatformConnector', 'platformServiceAuth'],
      ['/v1/platform/connectors/pause', 'post', 'pausePlatformConnector', 'platformServiceAuth'],
      ['/v1/platform/connectors/resume', 'post', 'resumePlatformConnector', 'platformServiceAuth'],
      ['/v1/platform/connectors/revoke', 'post', 'revokePlatformConnector', 'platformServiceAuth'],
      ['/v1/platform/connectors/rotate-secret', 'post', 'rotatePlatformConnectorSecret', 'platformServiceAuth'],
      ['/v1/platform/audit/chain', 'get', 'verifyPlatformAuditChain', 'platformServiceAuth'],
      ['/v1/audit/chain', 'get', 'verifyAuditChain', 'bearerAuth'],
      ['/v1/events', 'get', 'listEvents', 'bearerAuth'],
    ]
    for (const [path, method, operationId, scheme] of expected) {
      expect(operation(path, method)?.operationId, `${method} ${path}`).toBe(operationId)
      expect(operation(path, method)?.security, `${method} ${path}`).toEqual([{ [scheme]: [] }])
    }
  })

  it('documents every registered route with its request and response schemas', () => {
    const routes = test.app.registeredRoutes.filter((route) => route.documented)
    expect(routes.length).toBeGreaterThan(20)
    for (const route of routes) {
      const name = `${route.method} ${route.url}`
      const operation = document.paths[openApiPath(route.url)]?.[route.method.toLowerCase()]
      expect(operation, `${name} is missing from the OpenAPI document`).toBeDefined()
      const statuses = Object.keys(operation!.responses)
      expect(statuses.some((status) => /^[24]\d\d$/.test(status)), name).toBe(true)
      for (const status of statuses.filter((candidate) => /^2\d\d$/.test(candidate))) {
        expect(operation!.responses[status]!.content, `${name} ${status} has no schema`).toBeDefined()
      }
      // Every route documents the error envelope.
      expect(statuses, name).toEqual(expect.arrayContaining(['4XX', '5XX']))
      if (route.auth.kind === 'bearer') expect(operation!.security, name).toEqual([{ bearerAuth: [] }])
      if (route.auth.kind === 'platform') expect(operation!.security, name).toEqual([{ platformServiceAuth: [] }])
    }
  })

  it('documents request bodies and parameters', () => {
    expect(document.paths['/v1/signup']!.post!.requestBody).toBeDefined()
    const members = document.paths['/v1/tenants/{tenant_id}/members']!.get!
    expect(members.parameters!.map((parameter) => `${parameter.in}:${parameter.name}`)).toEqual(
      expect.arrayContaining(['path:tenant_id', 'query:limit', 'query:cursor', 'query:status', 'query:role']),
    )
  })

  it('marks a request body optional exactly where the server takes none (a body that requires no property)', async () => {
    const bodyOf = (path: string) => (document.paths[path]!.post as unknown as { requestBody: { required: boolean } }).requestBody
    expect(bodyOf('/v1/payment-intents/{payment_intent_id}/reject').required).toBe(false)
    expect(bodyOf('/v1/memory/regenerate').required).toBe(false)
    expect(bodyOf('/v1/signup').required).toBe(true)
    // A union of two shapes, each requiring fields.
    expect(bodyOf('/v1/payment-intents').required).toBe(true)
    expect(acceptsEmptyObject({ type: 'object', properties: { reason: { type: 'string' } } }, {})).toBe(true)
    expect(acceptsEmptyObject({ $ref: '#/components/schemas/Body' }, { Body: { type: 'object', required: [] } })).toBe(true)
    expect(acceptsEmptyObject({ type: 'object', required: ['reason'] }, {})).toBe(false)
    expect(acceptsEmptyObject({ type: 'object', minProperties: 1 }, {})).toBe(false)
    expect(acceptsEmptyObject({ anyOf: [{ type: 'object' }, { type: 'object' }] }, {})).toBe(false)
    expect(acceptsEmptyObject({ $ref: '#/components/schemas/Missing' }, {})).toBe(false)
    // And the server does take none: an optional body left out is read as {} (here, a reject of no intent: 404, not 400).
    const owner = await signupOwner(test)
    const response = await test.request({ method: 'POST', url: '/v1/payment-intents/pi_nope/reject', token: owner.token })
    expectError(response, 'payment_intent_not_found')
  })

  it('documents the import-visibility operations by operationId, with their filters and path parameter (issue 15, item 9)', () => {
    const list = document.paths['/v1/raw']!.get! as { operationId?: string; parameters?: Array<{ in: string; name: string }> }
    expect(list.operationId).toBe('listRawArtifacts')
    expect(list.parameters!.map((parameter) => `${parameter.in}:${parameter.name}`)).toEqual(
      expect.arrayContaining(['query:source_type', 'query:extraction_status', 'query:since', 'query:until', 'query:limit', 'query:cursor']),
    )
    const reconcile = document.paths['/v1/ledger/reconcile/{job_id}']!.get! as { operationId?: string; parameters?: Array<{ in: string; name: string }> }
    expect(reconcile.operationId).toBe('getReconcileJob')
    expect(reconcile.parameters!.map((parameter) => `${parameter.in}:${parameter.name}`)).toEqual(['path:job_id'])
  })

  it('documents the amount format once, as the Amount component every returned amount refers to', () => {
    const amount = document.components.schemas?.Amount
    expect(amount).toMatchObject({ type: 'string', pattern: '^-?[0-9]+(\\.[0-9]+)?$' })
    expect(amount!.description).toContain('`"1410.000000"` USDC, `"0.00"` EUR')
    const text = JSON.stringify(document.paths)
    // Every ledger amount field is the reference, and no response spells the format out again.
    expect(JSON.stringify(document.paths['/v1/ledger/transactions/{transaction_id}']!.get!.responses['200'])).toContain('"$ref":"#/components/schemas/Transaction"')
    expect(JSON.stringify(document.components.schemas!.Transaction)).toContain('"amount":{"$ref":"#/components/schemas/Amount"}')
    expect(JSON.stringify(document.paths['/v1/ledger/invoices']!.get!.responses['200'])).toContain('"items":{"$ref":"#/components/schemas/Invoice"}')
    const invoice = JSON.stringify(document.components.schemas!.Invoice)
    for (const field of ['total', 'amount_paid', 'amount_due']) expect(invoice).toContain(`"${field}":{"$ref":"#/components/schemas/Amount"}`)
    expect(text + JSON.stringify(document.components.schemas)).not.toContain('A decimal amount as a string')
  })

  it('names every operation with a unique operationId, and the set is the committed one', () => {
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ line: `${operation.operationId} ${method.toUpperCase()} ${path}`, id: operation.operationId })),
    )
    expect(operations.filter((operation) => typeof operation.id !== 'string' || !/^[a-z][A-Za-z]+$/.test(operation.id))).toEqual([])
    expect(new Set(operations.map((operation) => operation.id)).size).toBe(operations.length)
    // Generated clients call operations by these ids: renaming one breaks them, so it is a deliberate
    // edit of this list (test/platform/openapi-operations.txt), never a side effect.
    const committed = readFileSync(new URL('./openapi-operations.txt', import.meta.url), 'utf8').split('\n').filter((line) => line !== '')
    expect(operations.map((operation) => operation.line).sort()).toEqual([...committed].sort())
  })

  it('names the shared types as components, and the error envelope carries the code enum of the catalogue', () => {
    const schemas = document.components.schemas!
    for (const name of ['Transaction', 'Account', 'Balance', 'Invoice', 'Obligation', 'Counterparty', 'ReconciliationMatch', 'Policy', 'AuditEvent', 'RawArtifact', 'Member', 'Tenant', 'ApiKey', 'WebhookEndpoint', 'Error', 'ErrorCode']) {
      expect(schemas[name], name).toBeDefined()
    }
    expect(schemas.ErrorCode!.type).toBe('string')
    expect([...schemas.ErrorCode!.enum!].sort()).toEqual([...errorCodes].sort())
    expect(JSON.stringify(schemas.Error)).toContain('"code":{"$ref":"#/components/schemas/ErrorCode"}')
    // Every operation's error responses are that one component, not a copy.
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        for (const [status, response] of Object.entries(operation.responses).filter(([candidate]) => /^[45]/.test(candidate))) {
          // The agent protocol's refusals before dispatch are the spec's flat variant (docs/mcp.md).
          const component = path === '/v1/agents/mcp' && status === '4XX' ? 'AgentProtocolRefusal' : 'Error'
          expect(response.content?.['application/json']?.schema, `${method} ${path} ${status}`).toEqual({ $ref: `#/components/schemas/${component}` })
        }
      }
    }
    // Every reference resolves.
    const references = [...JSON.stringify(document).matchAll(/"\$ref":"([^"]+)"/g)].map((match) => match[1]!)
    expect(references.length).toBeGreaterThan(100)
    expect([...new Set(references)].filter((reference) => !(reference.startsWith('#/components/schemas/') && reference.slice(21) in schemas))).toEqual([])
  })

  it('types the provider webhook body as the envelopes of docs/provider-payloads.md', () => {
    const body = document.paths['/v1/raw/webhooks/{provider}']!.post!.requestBody!.content['application/json']!.schema
    expect(body).toEqual({ $ref: '#/components/schemas/ProviderWebhookPayload' })
    const payload = JSON.stringify(document.components.schemas!.ProviderWebhookPayload)
    for (const name of ['BankProviderPayload', 'CardProcessorPayload', 'ChainIndexerPayload', 'ErpProviderPayload', 'AccountingProviderPayload', 'PayrollProviderPayload']) {
      expect(payload).toContain(`"$ref":"#/components/schemas/${name}"`)
    }
    expect(JSON.stringify(document.components.schemas!.BankProviderPayload)).toContain('"steward.bank_provider.v1"')
  })

  it('gives every parameter a type, enums included', () => {
    const untyped: string[] = []
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        for (const parameter of operation.parameters ?? []) {
          if (parameter.schema.type === undefined) untyped.push(`${method} ${path} ${parameter.in}:${parameter.name} ${JSON.stringify(parameter.schema)}`)
        }
      }
    }
    expect(untyped).toEqual([])
    const status = document.paths['/v1/tenants/{tenant_id}/members']!.get!.parameters!.find((parameter) => parameter.name === 'status')!
    expect(status.schema).toMatchObject({ type: 'string', enum: ['invited', 'active', 'deactivated'] })
    const direction = document.paths['/v1/ledger/transactions']!.get!.parameters!.find((parameter) => parameter.name === 'direction')!
    expect(direction.schema).toMatchObject({ type: 'string', enum: ['inflow', 'outflow', 'transfer', 'adjustment'] })
  })

  it('uses one parameter name per path segment', () => {
    // `/v1/tenants/{tenant_id}` and `/v1/tenants/{id}` are one path to a client: the segment after
    // /v1/tenants/ must have one name wherever it appears.
    const names = new Map<string, Set<string>>()
    for (const path of Object.keys(document.paths)) {
      const segments = path.split('/')
      segments.forEach((segment, index) => {
        const parameter = /^\{(.+)\}$/.exec(segment)?.[1]
        if (parameter === undefined) return
        const position = segments.slice(0, index).map((earlier) => (earlier.startsWith('{') ? '{}' : earlier)).join('/')
        names.set(position, new Set([...(names.get(position) ?? []), parameter]))
      })
    }
    expect([...names].filter(([, found]) => found.size > 1).map(([position, found]) => `${position}/{${[...found].join('|')}}`)).toEqual([])
    expect(document.paths['/v1/tenants/{tenant_id}']!.delete!.operationId).toBe('deleteTenant')
  })

  it('leaves the deprecated /v1/actions/* wildcard out of the document, and it still answers 404', async () => {
    expect(Object.keys(document.paths).filter((path) => path.includes('*'))).toEqual([])
    expect(document.paths['/v1/actions']!.get!.deprecated).toBe(true)
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      expectError(await test.request({ method, url: '/v1/actions/act_1/approve' }), 'route_not_found')
    }
  })

  it('is the document the committed SDK was generated from (npm run sdk:generate)', () => {
    // Only `servers` differs: the SDK's copy names the default local address, this app its test address.
    const committed = JSON.parse(readFileSync(new URL('../../sdk/openapi.json', import.meta.url), 'utf8')) as Record<string, unknown>
    expect({ ...document, servers: committed.servers }, 'sdk/openapi.json is stale: run npm run sdk:generate').toEqual(committed)
  })

  it('marks the deprecated routes as deprecated', () => {
    expect(document.paths['/v1/agents/register']!.post!.deprecated).toBe(true)
  })

  it('serves a readable API reference page', async () => {
    const page = await test.request({ method: 'GET', url: '/docs/api/' })
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-type']).toMatch(/^text\/html/)
    expect(page.body).toMatch(/swagger/i)
  })
})
