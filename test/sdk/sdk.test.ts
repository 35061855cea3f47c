/**
 * The typed SDK (sdk/index.ts, issue 15 item 7) against a running server: the test app (the run's
 * engine, PGlite or PostgreSQL) listening on a loopback port, called over HTTP through the SDK only — no
 * inject. A signup and login, a typed list read across pages, a typed error, an Idempotency-Key replay.
 *
 * The `@ts-expect-error` lines are part of the test: `npm run typecheck` fails if a wrong call stops
 * being a type error (a path parameter left out, a code that is not in the catalogue).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createStewardClient, StewardApiError, type ErrorCode, type Schema, type StewardClient } from '../../sdk/index.ts'
import { createTestApp, testPassword, uniqueEmail, type TestApp } from '../support/harness.ts'

let test: TestApp
/** Where the server listens, e.g. http://127.0.0.1:40123. */
let baseUrl: string
/** The owner signed up and logged in by the first test; the others work in that tenant. */
let owner: { email: string; tenantId: string; token: string }
let steward: StewardClient

beforeAll(async () => {
  test = await createTestApp()
  baseUrl = await test.app.listen({ host: '127.0.0.1', port: 0 })
})

afterAll(async () => test?.close())

/** Catches the StewardApiError a call throws. */
async function apiError(call: Promise<unknown>): Promise<StewardApiError> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  )
  expect(error).toBeInstanceOf(StewardApiError)
  return error as StewardApiError
}

describe('the SDK against a running server', () => {
  it('signs up, verifies the email and logs in, then calls as the owner with a bearer it asks for', async () => {
    const anonymous = createStewardClient({ baseUrl: baseUrl })
    const email = uniqueEmail('sdk')
    const signup = await anonymous.POST('/v1/signup', { body: { email, password: testPassword, tenant_name: 'SDK tenant' } })
    expect(signup.status).toBe('pending')
    if (!('verification_token' in signup)) throw new Error('a sandbox returns the verification token')
    const verified = await anonymous.POST('/v1/auth/verify-email', { body: { tenant_id: signup.tenant_id, token: signup.verification_token } })
    expect(verified).toMatchObject({ verified: true, status: 'active' })
    const login = await anonymous.POST('/v1/auth/login', { body: { email, password: testPassword } })
    expect(login.expires_in).toBe(900)
    owner = { email, tenantId: signup.tenant_id, token: login.access_token }

    let asked = 0
    steward = createStewardClient({
      baseUrl: `${baseUrl}/`,
      bearer: () => {
        asked += 1
        return owner.token
      },
    })
    const principal = await steward.GET('/v1/auth/whoami')
    expect(principal).toMatchObject({ type: 'user', tenantId: owner.tenantId })
    expect(asked).toBe(1)
    const tenant: Schema<'Tenant'> = await steward.GET('/v1/tenants/{tenant_id}', { params: { path: { tenant_id: owner.tenantId } } })
    expect(tenant.id).toBe(owner.tenantId)

    // Without a bearer the same call is the typed 401.
    const missing = await apiError(anonymous.GET('/v1/auth/whoami'))
    expect([missing.status, missing.code]).toEqual([401, 'auth_token_missing'])
  })

  it('reads a list across pages, typed, with paginate() and pages()', async () => {
    const invited = ['approver', 'viewer', 'admin'] as const
    const emails = [owner.email]
    for (const role of invited) {
      const email = uniqueEmail(`sdk-${role}`)
      const answer = await steward.POST('/v1/tenants/{tenant_id}/members', { params: { path: { tenant_id: owner.tenantId } }, body: { email, role } })
      expect(answer.member.role).toBe(role)
      emails.push(email)
    }

    const init = { params: { path: { tenant_id: owner.tenantId }, query: { limit: 1 } } }
    const members: Array<Schema<'Member'>> = []
    for await (const member of steward.paginate('/v1/tenants/{tenant_id}/members', init)) members.push(member)
    expect(members.map((member) => member.email).sort()).toEqual([...emails].sort())
    expect(new Set(members.map((member) => member.id)).size).toBe(emails.length)

    const pageSizes: number[] = []
    for await (const page of steward.pages('/v1/tenants/{tenant_id}/members', init)) pageSizes.push(page.members.length)
    // One member per page, the last page possibly empty: every page was read, none twice.
    expect(pageSizes.length).toBeGreaterThanOrEqual(emails.length)
    expect(pageSizes.every((size) => size <= 1)).toBe(true)
    expect(pageSizes.reduce((sum, size) => sum + size, 0)).toBe(emails.length)

    // A filter travels with every page's request.
    const viewers: string[] = []
    for await (const member of steward.paginate('/v1/tenants/{tenant_id}/members', { params: { path: { tenant_id: owner.tenantId }, query: { limit: 1, role: 'viewer' } } })) {
      viewers.push(member.role)
    }
    expect(viewers).toEqual(['viewer'])

    // A bound on the walk is a loud stop, not a silent truncation.
    await expect(async () => {
      for await (const _member of steward.paginate('/v1/tenants/{tenant_id}/members', { ...init, pagesMax: 2 })) void _member
    }).rejects.toThrow(/stopped after 2 pages/)

    // @ts-expect-error the path parameter is required
    await expect(steward.GET('/v1/tenants/{tenant_id}/members', { params: { query: { limit: 1 } } })).rejects.toBeInstanceOf(Error)
  })

  it('throws StewardApiError with the envelope, its code typed as the catalogue', async () => {
    const error = await apiError(steward.GET('/v1/ledger/transactions/{transaction_id}', { params: { path: { transaction_id: 'txn_01HZZZZZZZZZZZZZZZZZZZZZZZ' } } }))
    expect(error.status).toBe(404)
    const code: ErrorCode = error.code
    expect(code).toBe('ledger_transaction_not_found')
    expect(error.requestId).toMatch(/^req_/)
    expect(error.docsUrl).toMatch(/\/docs\/errors#ledger_transaction_not_found$/)
    expect(error.envelope.error.message).toBe(error.message.replace(/^404 ledger_transaction_not_found: /, ''))
    // @ts-expect-error `code` is the catalogue's union, not any string
    expect(error.code === 'no_such_code').toBe(false)

    // A validation failure carries its issues in details.
    const invalid = await apiError(steward.GET('/v1/tenants/{tenant_id}/members', { params: { path: { tenant_id: owner.tenantId }, query: { limit: 0 } } }))
    expect([invalid.status, invalid.code]).toEqual([400, 'request_params_invalid'])
    expect(invalid.details).toHaveProperty('issues')
  })

  it('sends an Idempotency-Key and says when the answer is a replay', async () => {
    const idempotencyKey = `sdk-${Date.now()}`
    const body = { email: uniqueEmail('sdk-replay'), role: 'viewer' as const }
    const params = { path: { tenant_id: owner.tenantId } }
    const first = await steward.request('POST', '/v1/tenants/{tenant_id}/members', { params, body, idempotencyKey })
    const second = await steward.request('POST', '/v1/tenants/{tenant_id}/members', { params, body, idempotencyKey })
    expect([first.status, first.replayed, second.status, second.replayed]).toEqual([201, false, 201, true])
    expect(second.data).toEqual(first.data)
    expect(second.requestId).not.toBe(first.requestId)

    // The same key with another request is the typed 409.
    const reused = await apiError(steward.POST('/v1/tenants/{tenant_id}/members', { params, body: { ...body, role: 'approver' }, idempotencyKey }))
    expect([reused.status, reused.code]).toEqual([409, 'idempotency_key_reused'])

    // The member was invited once.
    const invited: string[] = []
    for await (const member of steward.paginate('/v1/tenants/{tenant_id}/members', { params })) if (member.email === body.email) invited.push(member.id)
    expect(invited).toEqual([first.data.member.id])
  })
})
