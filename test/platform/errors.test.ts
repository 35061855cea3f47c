/**
 * The error envelope on every failure path, the catalogue's coverage of the spec, and the published
 * error reference.
 */
import injectRequest from 'light-my-request'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { errorCatalogue, errorCodes, type ErrorCode } from '../../src/kernel/errors.ts'
import { createTestApp, expectError, signupOwner, testPassword, testPublicBaseUrl, uniqueEmail, type TestApp } from '../support/harness.ts'

let test: TestApp
beforeAll(async () => {
  test = await createTestApp()
})
afterAll(async () => test?.close())

/** Every code of the spec's Errors section, with the status the spec gives where it gives one. */
const specCodes: Array<[ErrorCode, number | undefined]> = [
  ['auth_token_missing', 401], ['auth_token_invalid', 401], ['auth_token_expired', 401], ['auth_invalid_key', 401],
  ['auth_invalid_credentials', 401], ['auth_email_unverified', 403], ['auth_siwx_invalid', 401], ['auth_scope_insufficient', 403],
  ['auth_tenant_mismatch', 403], ['signup_email_taken', 409], ['signup_token_invalid', 400], ['wallet_already_linked', 409],
  ['tenant_not_found', undefined], ['tenant_suspended', 403], ['tenant_access_denied', 403], ['tenant_identity_already_linked', 409],
  ['source_not_found', undefined], ['source_credential_invalid', 401], ['raw_artifact_not_found', 404], ['raw_source_unsupported', 400],
  ['raw_source_reserved', 403], ['raw_webhook_signature_invalid', 401], ['policy_not_found', 404], ['policy_not_active', 409],
  ['policy_denied', 422], ['policy_quorum_not_met', 409], ['policy_version_mismatch', 409], ['policy_signature_invalid', 401],
  ['agent_not_found', 404], ['agent_not_registered', 401], ['agent_not_registered_onchain', undefined], ['agent_scope_hash_missing', undefined],
  ['agent_inactive', 409], ['agent_scope_hash_mismatch', 401], ['scope_expired', 403], ['agent_proposal_duplicate', 409],
  ['payment_intent_not_found', 404], ['payment_intent_invalid_state', 409], ['payment_intent_gate_failed', 409],
  ['payment_intent_approval_invalid', 403], ['obligation_not_found', 404], ['obligation_direction_invalid', 422],
  ['action_already_executed', 409], ['idempotency_key_reused', 409], ['execution_proposal_not_found', 404], ['actor_unresolved', undefined],
  ['gate_no_policy_decision', undefined], ['gate_policy_version_stale', undefined], ['gate_counterparty_unverified', undefined],
  ['gate_counterparty_sanctioned', undefined], ['gate_balance_insufficient', undefined], ['gate_approval_incomplete', undefined],
  ['gate_session_key_invalid', undefined], ['gate_audit_chain_stale', undefined], ['request_body_invalid', 400],
  ['request_params_invalid', 400], ['validation_failed', 400], ['missing_required_field', 400], ['invalid_cursor', 400],
]

describe('the catalogue', () => {
  it('holds every code of the spec with the spec\'s status', () => {
    for (const [code, status] of specCodes) {
      expect(errorCatalogue[code], code).toBeDefined()
      if (status !== undefined) expect(errorCatalogue[code].status, code).toBe(status)
    }
  })

  it('uses snake_case domain_condition codes, error statuses and a summary for each', () => {
    for (const code of errorCodes) {
      expect(code).toMatch(/^[a-z0-9]+(_[a-z0-9]+)+$/)
      expect(errorCatalogue[code].status).toBeGreaterThanOrEqual(400)
      expect(errorCatalogue[code].status).toBeLessThan(600)
      expect(errorCatalogue[code].summary.length).toBeGreaterThan(10)
    }
  })
})

describe('the envelope on every failure path', () => {
  it('answers unknown routes with 404 route_not_found, and a known path with another method with 405', async () => {
    expectError(await test.request({ method: 'GET', url: '/v1/nothing-here' }), 'route_not_found')
    expectError(await test.request({ method: 'DELETE', url: '/v1/health' }), 'method_not_allowed')
    expectError(await test.request({ method: 'GET', url: '/' }), 'route_not_found')
  })

  it.each([
    ['POST', '/v1/agents/register'],
    ['POST', '/v1/agents/agt_1/propose'],
    ['POST', '/v1/actions/propose'],
    ['GET', '/v1/actions/act_1'],
    ['POST', '/v1/actions/act_1/approve'],
    ['POST', '/v1/actions/act_1/execute'],
    ['GET', '/v1/actions'],
    ['POST', '/v1/actions/act_1/cancel'],
    ['GET', '/v1/actions/events/stream'],
  ])('answers the deprecated route %s %s with 404 and the envelope', async (method, url) => {
    const error = expectError(await test.request({ method: method as 'GET', url }), 'route_not_found')
    expect(error.message).toMatch(/deprecated/)
  })

  it('answers malformed JSON, an empty JSON body and wrong types with 400 request_body_invalid', async () => {
    const post = (payload: string) => test.request({ method: 'POST', url: '/v1/auth/login', headers: { 'content-type': 'application/json' }, payload })
    expectError(await post('{"email":'), 'request_body_invalid')
    expectError(await post(''), 'request_body_invalid')
    expectError(await post('[]'), 'request_body_invalid')
    expectError(await post('"text"'), 'request_body_invalid')
    const wrongType = expectError(await post('{"email":["a"],"password":12}'), 'request_body_invalid')
    expect(wrongType.details?.issues).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: '/email', keyword: 'type' }), expect.objectContaining({ path: '/password', keyword: 'type' })]),
    )
    // A prototype-polluting key is refused, not merged.
    expectError(await post('{"email":"a@b.co","password":"xxxxxxxxxxxx","__proto__":{"admin":true}}'), 'request_body_invalid')
  })

  it('answers a body over 1 MiB with 413 request_body_too_large', async () => {
    const payload = JSON.stringify({ email: uniqueEmail(), password: 'x'.repeat(1024 * 1024) })
    expectError(await test.request({ method: 'POST', url: '/v1/signup', headers: { 'content-type': 'application/json' }, payload }), 'request_body_too_large')
  })

  it('answers an unsupported content type with 415 request_media_type_unsupported', async () => {
    for (const contentType of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      expectError(await test.request({ method: 'POST', url: '/v1/auth/login', headers: { 'content-type': contentType }, payload: 'email=a' }), 'request_media_type_unsupported')
    }
  })

  it('answers bad query and path parameters with 400 request_params_invalid and the issues', async () => {
    const owner = await signupOwner(test)
    const error = expectError(await test.request({ method: 'GET', url: `/v1/tenants/${owner.tenantId}/members?limit=-1`, token: owner.token }), 'request_params_invalid')
    expect(error.details?.issues).toEqual([expect.objectContaining({ path: '/limit' })])
    // A path parameter outside its closed set; an id of another shape is 404 instead (test/platform/path-ids.test.ts).
    const entityType = expectError(await test.request({ method: 'GET', url: '/v1/audit/entity/spaceship/mem_1', token: owner.token }), 'request_params_invalid')
    expect(entityType.details?.issues).toEqual([expect.objectContaining({ path: '/entityType' })])
    expectError(await test.request({ method: 'GET', url: `/v1/tenants/${owner.tenantId}/members/42`, token: owner.token }), 'member_not_found')
  })

  it('keeps a well-formed incoming X-Request-Id and replaces a malformed one', async () => {
    const kept = await test.request({ method: 'GET', url: '/v1/nope', headers: { 'x-request-id': 'trace-abc.123' } })
    expect(kept.headers['x-request-id']).toBe('trace-abc.123')
    expect(kept.json().error.request_id).toBe('trace-abc.123')
    const replaced = await test.request({ method: 'GET', url: '/v1/nope', headers: { 'x-request-id': 'bad id with spaces <script>' } })
    expect(replaced.headers['x-request-id']).toMatch(/^req_[0-9A-Z]{26}$/)
  })

  it('answers an unexpected failure with 500 internal_error that leaks nothing, and readiness with 503', async () => {
    const broken = await createTestApp()
    await broken.runtime.db.close()
    try {
      const response = await broken.request({ method: 'POST', url: '/v1/auth/login', payload: { email: uniqueEmail(), password: testPassword } })
      const error = expectError(response, 'internal_error')
      expect(error.message).toBe(errorCatalogue.internal_error.summary)
      expect(error.details).toBeUndefined()
      expect(response.body).not.toMatch(/pglite|postgres|stack|at |Error:|closed|ECONN/i)
      expectError(await broken.request({ method: 'GET', url: '/v1/ready' }), 'service_unavailable')
    } finally {
      await broken.app.close()
      await broken.runtime.jobs.stop({ timeoutMs: 500 }).catch(() => {})
    }
  })

  it('answers a request that arrives while the server closes with 503 service_unavailable in the envelope, and Retry-After', async () => {
    const closingApp = await createTestApp()
    // A request in flight keeps close() waiting (Fastify drains it), so the next one arrives while closing.
    const listening = await closingApp.app.listen({ port: 0, host: '127.0.0.1' })
    const slow = fetch(`${listening}/v1/ready`)
    const closed = closingApp.app.close()
    try {
      await new Promise((resolve) => setImmediate(resolve))
      // app.inject refuses once close() has begun; the router itself still takes a request, as a request on a
      // keep-alive connection reaches it.
      const response = await injectRequest(closingApp.app.routing.bind(closingApp.app), { method: 'GET', url: '/v1/tenants/00000000-0000-0000-0000-000000000000' })
      const error = expectError(response, 'service_unavailable')
      expect(error.request_id).toBe(response.headers['x-request-id'])
      expect(response.headers['retry-after']).toBe('1')
      expect(response.headers.connection).toBe('close')
    } finally {
      await slow.catch(() => undefined)
      await closed
      await closingApp.close().catch(() => {})
    }
  })

  it('answers readiness with 200 when the database answers', async () => {
    expect((await test.request({ method: 'GET', url: '/v1/ready' })).json()).toEqual({ status: 'ready' })
  })
})

describe('the error reference', () => {
  it('serves an HTML page with an anchor for every code, at the docs_url of each envelope', async () => {
    const page = await test.request({ method: 'GET', url: '/docs/errors' })
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-type']).toMatch(/^text\/html/)
    for (const code of errorCodes) {
      expect(page.body).toContain(`id="${code}"`)
      expect(page.body).toContain(`<td>${errorCatalogue[code].status}</td>`)
    }
    const envelope = (await test.request({ method: 'GET', url: '/v1/nope' })).json()
    expect(envelope.error.docs_url).toBe(`${testPublicBaseUrl}/docs/errors#route_not_found`)
  })

  it('serves the catalogue as JSON at /v1/errors', async () => {
    const body = (await test.request({ method: 'GET', url: '/v1/errors' })).json()
    expect(body.errors.map((entry: { code: string }) => entry.code)).toEqual(errorCodes)
    expect(body.errors[0]).toEqual({ code: errorCodes[0], ...errorCatalogue[errorCodes[0]!], docs_url: `${testPublicBaseUrl}/docs/errors#${errorCodes[0]}` })
  })
})
