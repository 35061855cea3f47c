/**
 * Idempotency-Key on the tenants module's commands: every route that accepts a key replays the first
 * outcome for a repeat (header Idempotent-Replayed: true, the command run once) and refuses the key with
 * another input (409 idempotency_key_reused). The routes that take no key (signup, tenant deletion, and
 * login, which a repeated signup leads to) run again and store nothing.
 */
import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../../../src/platform/db/database.ts'
import { auditActions, auditEvents } from '../../support/audit-log.ts'
import { addMember, createTestApp, expectError, login, signupOwner, testPassword, testPlatformSecret, uniqueEmail, type TenantOwner, type TestApp } from '../../support/harness.ts'
import { describeKeyedRoutes, keyed, newIdempotencyKey, type KeyedRequest, type KeyedRoute } from '../../support/idempotency-cases.ts'
import { tablesContaining } from '../../support/tables-containing.ts'

let test: TestApp
beforeAll(async () => {
  // Workers on: tenant deletion enqueues its blob-purge job inside its transaction, and on PGlite that
  // hangs unless pg-boss already has the queue cached, which starting its worker does.
  test = await createTestApp({ workers: true })
})
afterAll(async () => test?.close())

const platform = { 'x-platform-service-auth': testPlatformSecret }
const newKey = newIdempotencyKey
type Request = KeyedRequest

/** Signs up without verifying: the verification token is still unspent. */
async function pendingSignup() {
  const response = await test.request({ method: 'POST', url: '/v1/signup', payload: { email: uniqueEmail('pending'), password: testPassword } })
  expect(response.statusCode, response.body).toBe(201)
  return response.json() as { tenant_id: string; user_id: string; verification_token: string }
}

async function invite(owner: TenantOwner, role = 'viewer') {
  const response = await test.request({ method: 'POST', url: `/v1/tenants/${owner.tenantId}/members`, token: owner.token, payload: { email: uniqueEmail(role), role } })
  expect(response.statusCode, response.body).toBe(201)
  return response.json() as { member: { id: string }; invitation_token: string }
}

const tenantsNamed = async (name: string) =>
  (await queryRows<{ n: number }>(test.runtime.db.orm, sql`select count(*)::int as n from tenants where name = ${name}`))[0]!.n


const keyedRoutes: ReadonlyArray<KeyedRoute> = [
  [
    'POST /v1/auth/verify-email',
    async () => {
      const signup = await pendingSignup()
      const url = '/v1/auth/verify-email'
      return {
        request: { method: 'POST', url, payload: { tenant_id: signup.tenant_id, token: signup.verification_token } },
        other: { method: 'POST', url, payload: { tenant_id: signup.tenant_id, token: `vt_${randomBytes(32).toString('base64url')}` } },
        status: 200,
        runs: async () => (await auditActions(test, signup.tenant_id, { action: 'user.email_verified' })).length,
      }
    },
  ],
  [
    'POST /v1/auth/accept-invitation',
    async () => {
      const owner = await signupOwner(test)
      const invited = await invite(owner)
      const url = '/v1/auth/accept-invitation'
      return {
        request: { method: 'POST', url, payload: { tenant_id: owner.tenantId, token: invited.invitation_token, password: testPassword } },
        other: { method: 'POST', url, payload: { tenant_id: owner.tenantId, token: invited.invitation_token, password: `${testPassword} two` } },
        status: 200,
        runs: async () => (await auditActions(test, owner.tenantId, { action: 'member.joined' })).length,
      }
    },
  ],
  [
    'POST /v1/tenants',
    async () => {
      const name = `Keyed ${randomBytes(6).toString('hex')}`
      return {
        request: { method: 'POST', url: '/v1/tenants', headers: platform, payload: { name, owner_email: uniqueEmail('provisioned') } },
        other: { method: 'POST', url: '/v1/tenants', headers: platform, payload: { name: `${name} two` } },
        status: 201,
        runs: () => tenantsNamed(name),
      }
    },
  ],
  [
    'POST /v1/orgs/{orgId}/tenants',
    async () => {
      const name = `Keyed ${randomBytes(6).toString('hex')}`
      return {
        request: { method: 'POST', url: '/v1/orgs/org_keyed/tenants', headers: platform, payload: { name } },
        // The org is part of the input: the same key and body in another org is another request.
        other: { method: 'POST', url: '/v1/orgs/org_other/tenants', headers: platform, payload: { name } },
        status: 201,
        runs: () => tenantsNamed(name),
      }
    },
  ],
  [
    'POST /v1/tenants/{tenant_id}/members',
    async () => {
      const owner = await signupOwner(test)
      const url = `/v1/tenants/${owner.tenantId}/members`
      return {
        request: { method: 'POST', url, token: owner.token, payload: { email: uniqueEmail('invitee'), role: 'approver' } },
        other: { method: 'POST', url, token: owner.token, payload: { email: uniqueEmail('invitee'), role: 'approver' } },
        status: 201,
        runs: async () => (await auditActions(test, owner.tenantId, { action: 'member.invited' })).length,
      }
    },
  ],
  [
    'PATCH /v1/tenants/{tenant_id}/members/{member_id}',
    async () => {
      const owner = await signupOwner(test)
      const member = await addMember(test, owner, 'viewer')
      const url = `/v1/tenants/${owner.tenantId}/members/${member.memberId}`
      return {
        request: { method: 'PATCH', url, token: owner.token, payload: { role: 'approver' } },
        other: { method: 'PATCH', url, token: owner.token, payload: { role: 'admin' } },
        status: 200,
        runs: async () => (await auditActions(test, owner.tenantId, { action: 'member.updated' })).length,
      }
    },
  ],
  [
    'POST /v1/tenants/{tenant_id}/members/{member_id}/deactivate',
    async () => {
      const owner = await signupOwner(test)
      const member = await addMember(test, owner, 'viewer')
      const another = await addMember(test, owner, 'viewer')
      const url = (memberId: string) => `/v1/tenants/${owner.tenantId}/members/${memberId}/deactivate`
      return {
        request: { method: 'POST', url: url(member.memberId), token: owner.token },
        other: { method: 'POST', url: url(another.memberId), token: owner.token },
        status: 200,
        runs: async () => (await auditActions(test, owner.tenantId, { action: 'member.deactivated' })).length,
      }
    },
  ],
  [
    'POST /v1/tenants/{tenant_id}/members/{member_id}/reactivate',
    async () => {
      const owner = await signupOwner(test)
      const member = await addMember(test, owner, 'viewer')
      const another = await addMember(test, owner, 'viewer')
      const url = (memberId: string, action: string) => `/v1/tenants/${owner.tenantId}/members/${memberId}/${action}`
      for (const memberId of [member.memberId, another.memberId]) {
        expect((await test.request({ method: 'POST', url: url(memberId, 'deactivate'), token: owner.token })).statusCode).toBe(200)
      }
      return {
        request: { method: 'POST', url: url(member.memberId, 'reactivate'), token: owner.token },
        other: { method: 'POST', url: url(another.memberId, 'reactivate'), token: owner.token },
        status: 200,
        runs: async () => (await auditActions(test, owner.tenantId, { action: 'member.reactivated' })).length,
      }
    },
  ],
]

describe('Idempotency-Key on the tenants module\'s commands', () => {
  describeKeyedRoutes(() => test, keyedRoutes)

  it('scopes a public route\'s key to the tenant of its body: the same key verifies another tenant\'s user', async () => {
    const key = newKey()
    for (const signup of [await pendingSignup(), await pendingSignup()]) {
      const response = await test.request(keyed({ method: 'POST', url: '/v1/auth/verify-email', payload: { tenant_id: signup.tenant_id, token: signup.verification_token } }, key))
      expect(response.statusCode, response.body).toBe(200)
      expect(response.headers['idempotent-replayed']).toBeUndefined()
      expect(response.json().user_id).toBe(signup.user_id)
    }
  })

  it('replays an invitation with the same working token, which no table holds', async () => {
    const owner = await signupOwner(test)
    const key = newKey()
    const request = keyed({ method: 'POST', url: `/v1/tenants/${owner.tenantId}/members`, token: owner.token, payload: { email: uniqueEmail('invitee'), role: 'viewer' } }, key)
    const first = (await test.request(request)).json()
    const replay = await test.request(request)
    expect(replay.headers['idempotent-replayed']).toBe('true')
    expect(replay.json().invitation_token).toBe(first.invitation_token)
    expect(await tablesContaining(test, first.invitation_token.replace(/^inv_/, ''))).toEqual([])
    const accepted = await test.request({ method: 'POST', url: '/v1/auth/accept-invitation', payload: { tenant_id: owner.tenantId, token: replay.json().invitation_token, password: testPassword } })
    expect(accepted.statusCode, accepted.body).toBe(200)
  })

  it('replays a provisioning with the tenant as it is now: 404 tenant_not_found once it has been deleted', async () => {
    const email = uniqueEmail('provisioned')
    const request = keyed({ method: 'POST', url: '/v1/tenants', headers: platform, payload: { name: 'Deleted later', owner_email: email } }, newKey())
    const first = await test.request(request)
    expect(first.statusCode, first.body).toBe(201)
    const { tenant, owner } = first.json()
    // The platform's record keeps ids and the token's seed, not the tenant's name or the token.
    expect(await tablesContaining(test, owner.invitation_token.replace(/^inv_/, ''))).toEqual([])
    const [stored] = await queryRows<{ response_body: unknown }>(test.runtime.db.orm, sql`select response_body from idempotency_keys where scope = 'command:tenants.provision' and response_body->>'tenant_id' = ${tenant.id}`)
    expect(JSON.stringify(stored!.response_body)).not.toContain('Deleted later')

    const accepted = await test.request({ method: 'POST', url: '/v1/auth/accept-invitation', payload: { tenant_id: tenant.id, token: owner.invitation_token, password: testPassword } })
    expect(accepted.statusCode, accepted.body).toBe(200)
    const deleted = await test.request({ method: 'DELETE', url: `/v1/tenants/${tenant.id}`, token: await login(test, email) })
    expect(deleted.statusCode, deleted.body).toBe(200)
    expectError(await test.request(request), 'tenant_not_found')
  })
})

describe('commands that take no Idempotency-Key', () => {
  const storedKeys = async (tenantId: string) =>
    (await queryRows<{ n: number }>(test.runtime.db.orm, sql`select count(*)::int as n from idempotency_keys where tenant_id = ${tenantId}`))[0]!.n

  it('signup runs again for a repeated key (409 signup_email_taken) and stores nothing', async () => {
    const key = newKey()
    const request = keyed({ method: 'POST', url: '/v1/signup', payload: { email: uniqueEmail('signup'), password: testPassword } }, key)
    const first = await test.request(request)
    expect(first.statusCode, first.body).toBe(201)
    const second = await test.request(request)
    expectError(second, 'signup_email_taken')
    expect(second.headers['idempotent-replayed']).toBeUndefined()
    expect(await storedKeys(first.json().tenant_id)).toBe(0)
    expect(await tablesContaining(test, key)).toEqual([])
  })

  it('login runs again for a repeated key: two tokens, two audit events, nothing stored', async () => {
    const owner = await signupOwner(test)
    const key = newKey()
    const request = keyed({ method: 'POST', url: '/v1/auth/login', payload: { email: owner.email, password: testPassword } }, key)
    const first = await test.request(request)
    const second = await test.request(request)
    expect([first.statusCode, second.statusCode]).toEqual([200, 200])
    expect(second.headers['idempotent-replayed']).toBeUndefined()
    // signupOwner logged in once already.
    expect(await auditActions(test, owner.tenantId, { action: 'auth.login_succeeded' })).toHaveLength(3)
    expect(await tablesContaining(test, key)).toEqual([])
  })

  it('tenant deletion ignores a key: a retry after success is 401, the owner being gone', async () => {
    const owner = await signupOwner(test)
    const request = keyed({ method: 'DELETE', url: `/v1/tenants/${owner.tenantId}`, token: owner.token }, newKey())
    const first = await test.request(request)
    expect(first.statusCode, first.body).toBe(200)
    expectError(await test.request(request), 'auth_token_invalid')
    expect((await auditEvents(test, owner.tenantId, { action: 'tenant.deleted' })).length).toBe(1)
  })
})
