/**
 * What a hostile tester found at the edge (issue 13, items 2 and 7–11): input that passed the schema
 * but failed in the database, error bodies outside the envelope, invalid UTF-8 stored as U+FFFD, bodies
 * on routes that take none, and what undocumented methods answer. Each case is the request that failed.
 */
import { connect } from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findUnsafeInput, requestNestingDepthMax } from '../../src/platform/http/input-rules.ts'
import { isCalendarDate, isTimestamp } from '../../src/platform/http/validation.ts'
import { addMember, createTestApp, expectError, issueApiKey, signupOwner, testPassword, testPublicBaseUrl, testServiceTokenSecret, type TenantOwner, type TestApp } from '../support/harness.ts'

let test: TestApp
let owner: TenantOwner
beforeAll(async () => {
  test = await createTestApp()
  owner = await signupOwner(test)
})
afterAll(async () => test?.close())

/** A value nested `depth` levels deep: {"a":{"a":…{}}}. */
function nested(depth: number): unknown {
  let value: unknown = {}
  for (let level = 1; level < depth; level += 1) value = { a: value }
  return value
}

describe('dates are real calendar dates in range', () => {
  it.each([
    ['2026-02-28', true],
    ['2024-02-29', true],
    ['2026-02-29', false],
    ['2026-02-30', false],
    ['2026-13-01', false],
    ['2026-00-10', false],
    ['2026-04-31', false],
    ['0000-01-01', false],
    ['0001-01-01', true],
    ['9999-12-31', true],
    ['10000-01-01', false],
    ['2026-1-01', false],
  ])('date %s → %s', (text, valid) => {
    expect(isCalendarDate(text)).toBe(valid)
  })

  it.each([
    ['2026-01-31T10:00:00Z', true],
    ['2026-01-31t10:00:00z', true],
    ['2026-01-31 10:00:00.123456+05:30', true],
    ['2026-02-30T10:00:00Z', false],
    ['2026-01-31T24:00:00Z', false],
    ['2026-01-31T23:60:00Z', false],
    ['2026-01-31T23:59:60Z', false],
    ['2026-01-31T10:00:00+24:00', false],
    ['2026-01-31T10:00:00', false],
    ['0000-01-01T00:00:00Z', false],
    ['0001-01-01T00:30:00+01:00', false],
    ['9999-12-31T23:59:59Z', true],
    ['9999-12-31T23:59:59-01:00', false],
  ])('timestamp %s → %s', (text, valid) => {
    expect(isTimestamp(text)).toBe(valid)
  })

  it.each([
    '/v1/ledger/balances?as_of=2026-02-30',
    '/v1/ledger/balances?known_at=2026-02-30T00:00:00Z',
    '/v1/ledger/transactions?since=2026-13-01',
    '/v1/ledger/transactions?until=0000-01-01',
    '/v1/ledger/transactions?since=2026-01-05T99:00',
    '/v1/ledger/transactions?as_of=0000-01-01T00:00:00Z',
    '/v1/audit/events?since=2026-02-30T00:00:00Z',
  ])('GET %s is 400 request_params_invalid, not 500', async (url) => {
    expectError(await test.request({ method: 'GET', url, token: owner.token }), 'request_params_invalid')
  })

  it('still answers real dates and timestamps', async () => {
    for (const url of ['/v1/ledger/balances?as_of=2024-02-29', '/v1/ledger/transactions?since=2026-01-01&until=2026-01-05T23:00:00-05:00']) {
      const response = await test.request({ method: 'GET', url, token: owner.token })
      expect(response.statusCode, response.body).toBe(200)
    }
  })

  it('refuses an impossible date in a body', async () => {
    const response = await test.request({
      method: 'POST',
      url: `/v1/policy/${owner.tenantId}/simulate-historical`,
      token: owner.token,
      payload: { policy_content: { version: 1, rules: [] }, period_start: '2026-02-30', period_end: '2026-03-01' },
    })
    expectError(response, 'request_body_invalid')
  })
})

describe('numbers in a query are plain decimal text', () => {
  it.each(['1e309', '-1e309', 'Infinity', '1e3', '%205', '0x10', '1'.padEnd(400, '0'), '5.0', ''])('refuses limit=%s with 400 (1e309 was a 500)', async (limit) => {
    expectError(await test.request({ method: 'GET', url: `/v1/ledger/counterparties?limit=${limit}`, token: owner.token }), 'request_params_invalid')
  })

  it('takes a plain integer', async () => {
    const response = await test.request({ method: 'GET', url: '/v1/ledger/counterparties?limit=5', token: owner.token })
    expect(response.statusCode, response.body).toBe(200)
  })
})

describe('NUL characters, lone surrogates and deep nesting are refused at the edge', () => {
  it('finds the first unsafe value and names its path', () => {
    expect(findUnsafeInput({ a: ['ok', 'b\u0000d'] })).toEqual({ path: '/a/1', message: expect.stringContaining('NUL'), keyword: 'text' })
    expect(findUnsafeInput({ 'x\ud800': 1 })?.message).toContain('field name')
    expect(findUnsafeInput({ a: { b: '\udc00' } })?.path).toBe('/a/b')
    expect(findUnsafeInput({ 'a/b~c': '\u0000' })?.path).toBe('/a~1b~0c')
    expect(findUnsafeInput('\ud83d\ude00 paired surrogates are fine')).toBeUndefined()
    expect(findUnsafeInput(nested(requestNestingDepthMax))).toBeUndefined()
    expect(findUnsafeInput(nested(requestNestingDepthMax + 1))?.keyword).toBe('depth')
    // Iterative: a depth that would overflow a recursive walk is simply refused.
    expect(findUnsafeInput(nested(200_000))?.keyword).toBe('depth')
  })

  it('refuses NUL in the unauthenticated login body with 400, not 500', async () => {
    const response = await test.request({ method: 'POST', url: '/v1/auth/login', payload: { email: 'a\u0000b@example.com', password: testPassword } })
    const error = expectError(response, 'request_body_invalid')
    expect(error.details?.issues).toEqual([expect.objectContaining({ path: '/email' })])
  })

  it('refuses a lone surrogate sent as a JSON escape', async () => {
    const response = await test.request({
      method: 'POST',
      url: '/v1/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":"a@example.com","password":"\\ud800 twelve characters"}',
    })
    expectError(response, 'request_body_invalid')
  })

  it.each([
    ['the service-token reason', 'POST', '/v1/auth/service-token', () => ({ tenant_id: owner.tenantId, scopes: ['ledger:read'], reason: 'x\u0000y' }), 'service'],
    ['an API-key name', 'POST', () => `/v1/tenants/${owner.tenantId}/api-keys`, () => ({ name: 'k\u0000' }), 'owner'],
    ['an API-key name with a lone surrogate', 'POST', () => `/v1/tenants/${owner.tenantId}/api-keys`, () => ({ name: 'k\udfff' }), 'owner'],
    ['a webhook description', 'POST', '/v1/webhooks', () => ({ url: 'http://127.0.0.1:9/hook', description: '\u0000' }), 'owner'],
    ['a member invitation', 'POST', () => `/v1/tenants/${owner.tenantId}/members`, () => ({ email: 'n\u0000@example.com', role: 'viewer' }), 'owner'],
    ['a policy rule id', 'POST', () => `/v1/policy/${owner.tenantId}/lint`, () => ({ policy_content: { version: 1, rules: [{ id: 'r\u0000', applies_to: ['any'], when: {}, execute: 'auto' }] } }), 'owner'],
    ['a field name', 'POST', () => `/v1/policy/${owner.tenantId}/lint`, () => ({ policy_content: { version: 1, rules: [], lists: { 'l\u0000': [] } } }), 'owner'],
  ])('refuses %s', async (_label, method, url, payload, credential) => {
    const response = await test.request({
      method: method as 'POST',
      url: typeof url === 'function' ? url() : url,
      payload: payload(),
      ...(credential === 'service' ? { headers: { authorization: `Bearer ${testServiceTokenSecret}` } } : { token: owner.token }),
    })
    expectError(response, 'request_body_invalid')
  })

  it.each([
    '/v1/ledger/transactions/txn_%00',
    '/v1/ledger/accounts/%00',
    '/v1/audit/events?actor=%00',
    '/v1/audit/events?actor=usr_%00x',
    '/v1/ledger/transactions?account_id=%00',
  ])('refuses NUL in GET %s with 400 request_params_invalid', async (url) => {
    expectError(await test.request({ method: 'GET', url, token: owner.token }), 'request_params_invalid')
  })

  it('refuses a 10,000-deep source_ref on JSON ingest with 400, not a stack overflow', async () => {
    const response = await test.request({
      method: 'POST',
      url: '/v1/raw/ingest',
      token: owner.token,
      headers: { 'content-type': 'application/json' },
      // Written out: JSON.stringify itself cannot serialize a value this deep.
      payload: `{"source_type":"csv_upload","url":"https://files.example.com/a.csv","source_ref":${'{"a":'.repeat(10_000)}{}${'}'.repeat(10_000)}}`,
    })
    const error = expectError(response, 'request_body_invalid')
    expect(error.details?.issues).toEqual([expect.objectContaining({ keyword: 'depth' })])
  })

  it('refuses a deep or NUL-bearing source_ref in a multipart form', async () => {
    for (const [field, value] of [
      ['source_ref', JSON.stringify(nested(100))],
      ['source_ref', JSON.stringify({ note: 'a\u0000b' })],
      ['mime_type', 'text/csv\u0000'],
    ] as const) {
      const boundary = 'steward-boundary'
      const body = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="source_type"\r\n\r\ncsv_upload\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="${field}"\r\n\r\n${value}\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\ndate,amount\n2026-01-01,1.00\n\r\n` +
          `--${boundary}--\r\n`,
      )
      const response = await test.request({
        method: 'POST',
        url: '/v1/raw/ingest',
        token: owner.token,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: body,
      })
      const error = expectError(response, 'request_body_invalid')
      expect((error.details?.issues as Array<{ path: string }>)[0]!.path).toMatch(new RegExp(`^/${field}`))
    }
  })
})

describe('invalid UTF-8 is refused, not stored as U+FFFD', () => {
  it('refuses a JSON body that is not UTF-8', async () => {
    const payload = Buffer.concat([Buffer.from('{"name":"caf'), Buffer.from([0xe9]), Buffer.from('"}')])
    const response = await test.request({
      method: 'POST',
      url: `/v1/tenants/${owner.tenantId}/api-keys`,
      token: owner.token,
      headers: { 'content-type': 'application/json' },
      payload,
    })
    expect(expectError(response, 'request_body_invalid').message).toMatch(/UTF-8/)
    const keys = await test.request({ method: 'GET', url: `/v1/tenants/${owner.tenantId}/api-keys`, token: owner.token })
    expect(keys.body).not.toContain('\ufffd')
  })

  it('accepts a literal U+FFFD that was sent as valid UTF-8', async () => {
    const response = await test.request({ method: 'POST', url: `/v1/tenants/${owner.tenantId}/api-keys`, token: owner.token, payload: { name: 'replacement \ufffd ok' } })
    expect(response.statusCode, response.body).toBe(201)
  })

  it.each(['/v1/audit/events?actor=%C3%28', '/v1/audit/events?actor=%FF', '/v1/audit/events?actor=%E0%A4'])('refuses GET %s', async (url) => {
    expectError(await test.request({ method: 'GET', url, token: owner.token }), 'request_params_invalid')
  })
})

describe('routes that take no body refuse one', () => {
  it('refuses a body on deactivate, reactivate and API-key revoke, and accepts none or {}', async () => {
    const member = await addMember(test, owner, 'viewer')
    const key = await issueApiKey(test, owner)
    const routes = [
      `/v1/tenants/${owner.tenantId}/members/${member.memberId}/deactivate`,
      `/v1/tenants/${owner.tenantId}/members/${member.memberId}/reactivate`,
      `/v1/tenants/${owner.tenantId}/api-keys/${key.id}/revoke`,
    ]
    for (const url of routes) {
      const refused = await test.request({ method: 'POST', url, token: owner.token, payload: { reason: 'because' } })
      expect(expectError(refused, 'request_body_invalid').message).toMatch(/no request body/)
      expectError(await test.request({ method: 'POST', url, token: owner.token, payload: [] }), 'request_body_invalid')
    }
    expect((await test.request({ method: 'POST', url: routes[0]!, token: owner.token })).statusCode).toBe(200)
    expect((await test.request({ method: 'POST', url: routes[1]!, token: owner.token, payload: {} })).statusCode).toBe(200)
    expect((await test.request({ method: 'POST', url: routes[2]!, token: owner.token, headers: { 'content-type': 'application/json' }, payload: '' })).statusCode).toBe(200)
  })

  it('refuses a body on DELETE', async () => {
    const response = await test.request({ method: 'DELETE', url: '/v1/raw/raw_00000000000000000000000000', token: owner.token, payload: { force: true } })
    expectError(response, 'request_body_invalid')
  })
})

describe('every error the service can produce carries the envelope', () => {
  it('answers a path parameter over the bound with 400 in the envelope', async () => {
    const response = await test.request({ method: 'GET', url: `/v1/ledger/transactions/txn_${'a'.repeat(300)}`, token: owner.token })
    const error = expectError(response, 'request_params_invalid')
    expect(response.headers['x-request-id']).toBe(error.request_id)
  })

  it.each(['/v1/raw/%E0%A4%A', '/v1/raw/%zz', '/v1/ledger/accounts/%C3%28', '/v1/webhooks/%/dead-letters'])(
    'answers a bad percent-encoding in the path (%s) with 400 in the envelope',
    async (url) => {
      expectError(await test.request({ method: 'GET', url, token: owner.token }), 'request_params_invalid')
    },
  )

  it('answers an undocumented method on a known path with 405 and Allow', async () => {
    const response = await test.request({ method: 'DELETE', url: '/v1/health' })
    const error = expectError(response, 'method_not_allowed')
    expect(response.headers.allow).toBe('GET, HEAD')
    expect(error.details).toEqual({ allowed_methods: ['GET', 'HEAD'] })
    const members = await test.request({ method: 'PUT', url: `/v1/tenants/${owner.tenantId}/members/mem_1` })
    expect(members.headers.allow).toBe('GET, HEAD, PATCH')
    // Unknown paths and the spec's deprecated routes stay 404, whatever the method.
    expectError(await test.request({ method: 'DELETE', url: '/v1/nothing' }), 'route_not_found')
    expectError(await test.request({ method: 'POST', url: '/v1/agents/register' }), 'route_not_found')
    expectError(await test.request({ method: 'POST', url: '/v1/agents/agt_1/propose', token: owner.token }), 'route_not_found')
    // GET /v1/agents/register is GET /v1/agents/{agent_id}: an id that names no agent is 404 like any other.
    expectError(await test.request({ method: 'GET', url: '/v1/agents/register', token: owner.token }), 'agent_not_found')
    // A body does not change that: the input rules do not run for a route that does not exist.
    expectError(await test.request({ method: 'POST', url: '/v1/nothing', payload: { a: 1 } }), 'route_not_found')
    expectError(await test.request({ method: 'POST', url: '/v1/health', payload: { a: '\u0000' } }), 'method_not_allowed')
  })

  describe('on a listening server', () => {
    let port: number
    beforeAll(async () => {
      await test.app.listen({ port: 0, host: '127.0.0.1' })
      port = (test.app.server.address() as AddressInfo).port
    })

    /** Sends raw bytes and returns the whole answer once the server closes the connection. */
    function exchange(request: string): Promise<string> {
      return new Promise((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.end(request))
        let answer = ''
        socket.setEncoding('utf8')
        socket.on('data', (chunk: string) => (answer += chunk))
        socket.on('close', () => resolve(answer))
        socket.on('error', reject)
      })
    }

    function envelopeOf(answer: string): { status: number; error: { code: string; request_id: string; docs_url: string } } {
      const [head, body] = answer.split('\r\n\r\n', 2)
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head ?? '')?.[1])
      return { status, error: JSON.parse(body ?? '').error }
    }

    it('answers headers over 16 KiB with 431 in the envelope', async () => {
      const answer = envelopeOf(await exchange(`GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`))
      expect(answer.status).toBe(431)
      expect(answer.error).toMatchObject({ code: 'request_headers_too_large', docs_url: `${testPublicBaseUrl}/docs/errors#request_headers_too_large` })
      expect(answer.error.request_id).toMatch(/^req_/)
    })

    it('answers malformed HTTP with 400 in the envelope', async () => {
      const answer = envelopeOf(await exchange('THIS IS NOT HTTP\r\n\r\n'))
      expect(answer.status).toBe(400)
      expect(answer.error.code).toBe('request_malformed')
    })

    it('answers a bad percent-encoding sent over the wire with 400 in the envelope', async () => {
      const answer = await exchange(`GET /v1/raw/%E0%A4%A HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${owner.token}\r\nConnection: close\r\n\r\n`)
      expect(answer).toMatch(/^HTTP\/1\.1 400/)
      expect(JSON.parse(answer.split('\r\n\r\n')[1]!).error.code).toBe('request_params_invalid')
    })
  })
})

describe('the OpenAPI document', () => {
  it('documents errors as the JSON envelope even where the success body is a file', async () => {
    const document = (await test.request({ method: 'GET', url: '/v1/openapi.json' })).json()
    for (const [path, operations] of Object.entries(document.paths as Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          if (!/^[45]/.test(status) || response.content === undefined) continue
          expect(Object.keys(response.content), `${method} ${path} ${status}`).toEqual(['application/json'])
        }
      }
    }
    expect(Object.keys(document.paths['/v1/raw/{raw_id}/content'].get.responses['200'].content)).toEqual(['application/octet-stream'])
  })
})
