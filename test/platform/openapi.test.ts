/**
 * The OpenAPI document is generated from the route schemas; this proves every registered route is in
 * it, with request and response schemas, so a route cannot ship undocumented.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/harness.ts'

let test: TestApp
let document: {
  openapi: string
  info: { version: string }
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }>; requestBody?: unknown; security?: unknown[]; parameters?: Array<{ in: string; name: string }>; deprecated?: boolean }>>
  components: { securitySchemes: Record<string, unknown>; schemas?: Record<string, { type?: string; pattern?: string; description?: string }> }
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
    const transaction = JSON.stringify(document.paths['/v1/ledger/transactions/{transaction_id}']!.get!.responses['200'])
    expect(transaction).toContain('"amount":{"$ref":"#/components/schemas/Amount"}')
    const invoices = JSON.stringify(document.paths['/v1/ledger/invoices']!.get!.responses['200'])
    for (const field of ['total', 'amount_paid', 'amount_due']) expect(invoices).toContain(`"${field}":{"$ref":"#/components/schemas/Amount"}`)
    expect(text).not.toContain('A decimal amount as a string')
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
