import { decodeJwt } from 'jose'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ownerScopes } from '../../../src/modules/auth/scopes.ts'
import { queryRows } from '../../../src/platform/db/database.ts'
import {
  createTestApp,
  expectError,
  fixedClock,
  login,
  signupOwner,
  testPassword,
  uniqueEmail,
  type TestApp,
} from '../../support/harness.ts'
import { auditActions, auditEvents } from '../../support/audit-log.ts'

const clock = fixedClock(new Date('2026-11-21T09:00:00.000Z'))
let test: TestApp

beforeAll(async () => {
  test = await createTestApp({ clock })
})
afterAll(async () => test?.close())

const signup = (payload: Record<string, unknown>) => test.request({ method: 'POST', url: '/v1/signup', payload })

describe('POST /v1/signup', () => {
  it('creates a pending owner and returns the verification token outside production', async () => {
    const response = await signup({ email: uniqueEmail(), password: testPassword })
    expect(response.statusCode).toBe(201)
    const body = response.json()
    expect(Object.keys(body).sort()).toEqual(['status', 'tenant_id', 'user_id', 'verification_token'])
    expect(body.status).toBe('pending')
    expect(body.tenant_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(body.user_id).toMatch(/^usr_/)
    expect(body.verification_token).toMatch(/^vt_/)
  })

  it('stores the password as a scrypt hash and the token only as a digest', async () => {
    const email = uniqueEmail()
    const body = (await signup({ email, password: testPassword })).json()
    const [user] = await queryRows<{ password_hash: string }>(test.runtime.db.orm, sql`select password_hash from users where id = ${body.user_id}`)
    expect(user!.password_hash).toMatch(/^scrypt\$\d+\$8\$1\$/)
    expect(user!.password_hash).not.toContain(testPassword)
    const tokens = await queryRows<{ token_digest: string }>(test.runtime.db.orm, sql`select token_digest from verification_tokens where user_id = ${body.user_id}`)
    expect(tokens).toHaveLength(1)
    expect(tokens[0]!.token_digest).toMatch(/^[0-9a-f]{64}$/)
    expect(tokens[0]!.token_digest).not.toContain(body.verification_token)
  })

  it.each([
    ['11 ASCII bytes', 'a'.repeat(11), 400],
    ['12 ASCII bytes', 'a'.repeat(12), 201],
    ['4096 bytes', 'a'.repeat(4096), 201],
    ['4097 bytes', 'a'.repeat(4097), 400],
    // Four 3-byte characters are 12 bytes although only 4 characters.
    ['12 bytes in 4 characters', '€€€€', 201],
    ['11 bytes of multibyte text', '€€€ab', 400],
    ['4097 bytes in 1366 characters', `${'€'.repeat(1365)}ab`, 400],
  ])('bounds the password in bytes: %s', async (_label, password, status) => {
    const response = await signup({ email: uniqueEmail(), password })
    if (status === 201) {
      expect(response.statusCode, response.body).toBe(201)
    } else {
      const error = expectError(response, 'request_body_invalid')
      expect(error.details?.issues).toEqual([expect.objectContaining({ path: '/password' })])
    }
  })

  it('refuses an email already taken, whatever its case (409 signup_email_taken)', async () => {
    const email = uniqueEmail()
    expect((await signup({ email, password: testPassword })).statusCode).toBe(201)
    expectError(await signup({ email: email.toUpperCase(), password: testPassword }), 'signup_email_taken')
  })

  it('refuses unknown fields, wrong types and malformed email with 400 request_body_invalid and no partial writes', async () => {
    const email = uniqueEmail()
    const unknown = expectError(await signup({ email, password: testPassword, admin: true }), 'request_body_invalid')
    expect(unknown.details?.issues).toEqual([{ path: '/admin', message: 'is not a recognized field', keyword: 'additionalProperties' }])
    expectError(await signup({ email, password: 123456789012345 }), 'request_body_invalid')
    expectError(await signup({ email: 'not-an-email', password: testPassword }), 'request_body_invalid')
    const missing = expectError(await signup({ email }), 'request_body_invalid')
    expect(missing.details?.issues).toEqual([expect.objectContaining({ path: '/password', keyword: 'required' })])
    const rows = await queryRows<{ count: number }>(test.runtime.db.orm, sql`select count(*)::int as count from users where email = ${email}`)
    expect(rows[0]!.count).toBe(0)
  })

  it('records the signup in the audit chain and a member.changed event, in the same transaction', async () => {
    const body = (await signup({ email: uniqueEmail(), password: testPassword })).json()
    expect(await auditActions(test, body.tenant_id)).toEqual(['tenant.signed_up'])
    const events = await queryRows<{ event_type: string; payload: { role: string } }>(test.runtime.db.orm, sql`select event_type, payload from events where tenant_id = ${body.tenant_id}`)
    expect(events).toEqual([expect.objectContaining({ event_type: 'member.changed', payload: expect.objectContaining({ role: 'owner', change: 'created' }) })])
  })
})

describe('POST /v1/auth/verify-email', () => {
  const verify = (payload: Record<string, unknown>) => test.request({ method: 'POST', url: '/v1/auth/verify-email', payload })

  it('activates the user once; the token is single use', async () => {
    const body = (await signup({ email: uniqueEmail(), password: testPassword })).json()
    const first = await verify({ tenant_id: body.tenant_id, token: body.verification_token })
    expect(first.statusCode).toBe(200)
    expect(first.json()).toEqual({ verified: true, user_id: body.user_id, status: 'active' })
    expectError(await verify({ tenant_id: body.tenant_id, token: body.verification_token }), 'signup_token_invalid')
  })

  it('is tenant-scoped: a token presented for another tenant is invalid', async () => {
    const first = (await signup({ email: uniqueEmail(), password: testPassword })).json()
    const second = (await signup({ email: uniqueEmail(), password: testPassword })).json()
    expectError(await verify({ tenant_id: second.tenant_id, token: first.verification_token }), 'signup_token_invalid')
    // …and was not consumed by the failed attempt.
    expect((await verify({ tenant_id: first.tenant_id, token: first.verification_token })).statusCode).toBe(200)
  })

  it('expires after 24 hours', async () => {
    const body = (await signup({ email: uniqueEmail(), password: testPassword })).json()
    clock.advance(24 * 60 * 60 * 1000 + 1)
    try {
      expectError(await verify({ tenant_id: body.tenant_id, token: body.verification_token }), 'signup_token_invalid')
    } finally {
      clock.advance(-(24 * 60 * 60 * 1000 + 1))
    }
  })

  it('refuses an unknown token and a malformed tenant id', async () => {
    const body = (await signup({ email: uniqueEmail(), password: testPassword })).json()
    expectError(await verify({ tenant_id: body.tenant_id, token: 'vt_nope' }), 'signup_token_invalid')
    expectError(await verify({ tenant_id: 'not-a-uuid', token: body.verification_token }), 'request_body_invalid')
  })
})

describe('POST /v1/auth/login', () => {
  const attempt = (email: string, password: string) => test.request({ method: 'POST', url: '/v1/auth/login', payload: { email, password } })

  it('answers an unknown email and a wrong password with the same 401 body', async () => {
    const owner = await signupOwner(test)
    const unknown = expectError(await attempt(uniqueEmail('nobody'), testPassword), 'auth_invalid_credentials')
    const wrong = expectError(await attempt(owner.email, 'wrong password here'), 'auth_invalid_credentials')
    const { request_id: _a, ...unknownRest } = unknown
    const { request_id: _b, ...wrongRest } = wrong
    expect(unknownRest).toEqual(wrongRest)
  })

  it('audits a failed login for a known user, without the password', async () => {
    const owner = await signupOwner(test)
    await attempt(owner.email, 'wrong password here')
    const rows = await auditEvents(test, owner.tenantId, { action: 'auth.login_failed' })
    expect(rows).toHaveLength(1)
    expect(JSON.stringify(rows[0])).not.toContain('wrong password')
  })

  it('refuses an unverified user with 403 auth_email_unverified, only after the password matched', async () => {
    const email = uniqueEmail()
    await signup({ email, password: testPassword })
    expectError(await attempt(email, testPassword), 'auth_email_unverified')
    expectError(await attempt(email, 'wrong password here'), 'auth_invalid_credentials')
  })

  it('mints a 900-second owner JWT with exactly the owner scopes and the spec principal', async () => {
    const owner = await signupOwner(test)
    const response = await attempt(owner.email.toUpperCase(), testPassword)
    expect(response.statusCode).toBe(200)
    const body = response.json()
    expect(body.token_type).toBe('Bearer')
    expect(body.expires_in).toBe(900)
    expect(body.principal).toEqual({ id: owner.userId, type: 'user', tenantId: owner.tenantId, scopes: [...ownerScopes] })
    expect(body.principal.scopes).not.toContain('payment_intent:propose')
    expect(body.principal.scopes).not.toContain('payment_intent:execute')
    expect(body.principal.scopes).not.toContain('execution:propose')
    const claims = decodeJwt(body.access_token)
    expect(claims.exp! - claims.iat!).toBe(900)
    expect(claims.sub).toBe(owner.userId)
  })

  it('refuses the token once it has expired (401 auth_token_expired)', async () => {
    const owner = await signupOwner(test)
    const token = await login(test, owner.email)
    expect((await test.request({ method: 'GET', url: '/v1/auth/whoami', token })).statusCode).toBe(200)
    clock.advance(901_000)
    try {
      expectError(await test.request({ method: 'GET', url: '/v1/auth/whoami', token }), 'auth_token_expired')
    } finally {
      clock.advance(-901_000)
    }
  })
})

describe('the signup flag', () => {
  it('answers 404 on signup and verify-email when self-serve signup is off', async () => {
    const closed = await createTestApp({ env: { SELF_SERVE_SIGNUP: 'false' } })
    try {
      expectErrorAt(await closed.request({ method: 'POST', url: '/v1/signup', payload: { email: uniqueEmail(), password: testPassword } }))
      expectErrorAt(await closed.request({ method: 'POST', url: '/v1/auth/verify-email', payload: {} }))
      // Login is not behind the flag.
      expect((await closed.request({ method: 'POST', url: '/v1/auth/login', payload: { email: uniqueEmail(), password: testPassword } })).statusCode).toBe(401)
    } finally {
      await closed.close()
    }
    function expectErrorAt(response: Awaited<ReturnType<TestApp['request']>>) {
      expect(response.statusCode).toBe(404)
      expect(response.json().error.code).toBe('route_not_found')
    }
  })
})

describe('signup in production', () => {
  it('mails the verification token (verification_sent) instead of returning it, through the durable mail job', async () => {
    const production = await createTestApp({
      env: { STEWARD_ENV: 'production', SELF_SERVE_SIGNUP: 'true', SMTP_URL: 'smtp://127.0.0.1:2525', PUBLIC_BASE_URL: 'https://steward.test' },
      workers: true,
    })
    try {
      const email = uniqueEmail('prod')
      const response = await production.request({ method: 'POST', url: '/v1/signup', payload: { email, password: testPassword } })
      expect(response.statusCode, response.body).toBe(201)
      const body = response.json()
      expect(Object.keys(body).sort()).toEqual(['status', 'tenant_id', 'user_id', 'verification_sent'])
      expect(body.verification_sent).toBe(true)
      await expect.poll(() => production.mail.length, { timeout: 15_000, interval: 100 }).toBe(1)
      const message = production.mail[0]!
      expect(message.to).toBe(email)
      const token = /token:\s+(vt_\S+)/.exec(message.text)?.[1]
      expect(token).toBeDefined()
      const verify = await production.request({ method: 'POST', url: '/v1/auth/verify-email', payload: { tenant_id: body.tenant_id, token } })
      expect(verify.json()).toEqual({ verified: true, user_id: body.user_id, status: 'active' })
    } finally {
      await production.close()
    }
  })
})
