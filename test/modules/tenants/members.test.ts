import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { roleScopes } from '../../../src/modules/auth/scopes.ts'
import { queryRows } from '../../../src/platform/db/database.ts'
import { addMember, createTestApp, expectError, login, signupOwner, testPassword, uniqueEmail, type TenantOwner, type TestApp } from '../../support/harness.ts'
import { auditEvents } from '../../support/audit-log.ts'

let test: TestApp
beforeAll(async () => {
  test = await createTestApp()
})
afterAll(async () => test?.close())

const membersUrl = (owner: TenantOwner) => `/v1/tenants/${owner.tenantId}/members`

async function memberEvents(tenantId: string) {
  return queryRows<{ event_type: string; payload: Record<string, unknown>; audit_event_id: string }>(
    test.runtime.db.orm,
    sql`select event_type, payload, audit_event_id from events where tenant_id = ${tenantId} order by id`,
  )
}

describe('inviting members', () => {
  it('creates an invited member with role, domains and limit, and returns the invitation token once', async () => {
    const owner = await signupOwner(test)
    const email = uniqueEmail('approver')
    const response = await test.request({
      method: 'POST',
      url: membersUrl(owner),
      token: owner.token,
      payload: { email, role: 'approver', approval_domains: ['ach_outbound', 'vendor_risk'], approval_limit: { currency: 'USD', value: '2500.50' } },
    })
    expect(response.statusCode, response.body).toBe(201)
    const { member, invitation_token: invitationToken } = response.json()
    expect(invitationToken).toMatch(/^inv_/)
    expect(member).toMatchObject({
      tenant_id: owner.tenantId,
      email,
      role: 'approver',
      status: 'invited',
      approval_domains: ['ach_outbound', 'vendor_risk'],
      approval_limit: { currency: 'USD', value: '2500.50' },
      invited_by: owner.userId,
      deactivated_at: null,
    })
    const read = await test.request({ method: 'GET', url: `${membersUrl(owner)}/${member.id}`, token: owner.token })
    expect(read.json()).toEqual(member)
    expect(read.body).not.toContain(invitationToken)
  })

  it('gives admins every domain and others none when domains are not named', async () => {
    const owner = await signupOwner(test)
    const invite = async (role: string) =>
      (await test.request({ method: 'POST', url: membersUrl(owner), token: owner.token, payload: { email: uniqueEmail(role), role } })).json().member
    expect((await invite('admin')).approval_domains).toEqual(['*'])
    expect((await invite('approver')).approval_domains).toEqual([])
    expect((await invite('viewer')).approval_limit).toBeNull()
  })

  it.each([
    ['the owner role', { role: 'owner' }],
    ['an unknown role', { role: 'superuser' }],
    ['an unknown approval domain', { role: 'approver', approval_domains: ['everything'] }],
    ['a duplicated approval domain', { role: 'approver', approval_domains: ['wire', 'wire'] }],
    ['a limit with a float value', { role: 'approver', approval_limit: { currency: 'USD', value: 10.5 } }],
    ['a limit with too many decimals', { role: 'approver', approval_limit: { currency: 'USD', value: '1.0000001' } }],
    ['a limit with a negative value', { role: 'approver', approval_limit: { currency: 'USD', value: '-5' } }],
    ['a limit in a lower-case currency', { role: 'approver', approval_limit: { currency: 'usd', value: '5' } }],
    ['an unknown field', { role: 'viewer', note: 'hi' }],
  ])('refuses %s with 400 request_body_invalid', async (_label, body) => {
    const owner = await signupOwner(test)
    expectError(await test.request({ method: 'POST', url: membersUrl(owner), token: owner.token, payload: { email: uniqueEmail(), ...body } }), 'request_body_invalid')
  })

  it('refuses an email that already has an account (409 signup_email_taken)', async () => {
    const owner = await signupOwner(test)
    const other = await signupOwner(test)
    expectError(await test.request({ method: 'POST', url: membersUrl(owner), token: owner.token, payload: { email: other.email, role: 'viewer' } }), 'signup_email_taken')
  })

  it('lets the invited member accept once, set a password and log in with the role\'s scopes', async () => {
    const owner = await signupOwner(test)
    for (const role of ['admin', 'approver', 'viewer'] as const) {
      const member = await addMember(test, owner, role)
      const whoami = await test.request({ method: 'GET', url: '/v1/auth/whoami', token: member.token })
      expect(whoami.json()).toEqual({ id: member.userId, type: 'user', tenantId: owner.tenantId, scopes: [...roleScopes[role]] })
    }
  })

  it('refuses a reused, foreign-tenant or too-short-password acceptance', async () => {
    const owner = await signupOwner(test)
    const other = await signupOwner(test)
    const invite = (await test.request({ method: 'POST', url: membersUrl(owner), token: owner.token, payload: { email: uniqueEmail(), role: 'viewer' } })).json()
    const accept = (payload: Record<string, unknown>) => test.request({ method: 'POST', url: '/v1/auth/accept-invitation', payload })
    expectError(await accept({ tenant_id: other.tenantId, token: invite.invitation_token, password: testPassword }), 'signup_token_invalid')
    expectError(await accept({ tenant_id: owner.tenantId, token: invite.invitation_token, password: 'short' }), 'request_body_invalid')
    expect((await accept({ tenant_id: owner.tenantId, token: invite.invitation_token, password: testPassword })).statusCode).toBe(200)
    expectError(await accept({ tenant_id: owner.tenantId, token: invite.invitation_token, password: testPassword }), 'signup_token_invalid')
  })

  it('does not let an invited member log in before accepting', async () => {
    const owner = await signupOwner(test)
    const email = uniqueEmail()
    await test.request({ method: 'POST', url: membersUrl(owner), token: owner.token, payload: { email, role: 'viewer' } })
    expectError(await test.request({ method: 'POST', url: '/v1/auth/login', payload: { email, password: testPassword } }), 'auth_invalid_credentials')
  })
})

describe('listing members', () => {
  it('pages with an opaque cursor and filters by role and status', async () => {
    const owner = await signupOwner(test)
    for (let index = 0; index < 4; index += 1) {
      await test.request({ method: 'POST', url: membersUrl(owner), token: owner.token, payload: { email: uniqueEmail(), role: index % 2 === 0 ? 'viewer' : 'approver' } })
    }
    const first = (await test.request({ method: 'GET', url: `${membersUrl(owner)}?limit=2`, token: owner.token })).json()
    expect(first.members).toHaveLength(2)
    expect(first.next_cursor).toEqual(expect.any(String))
    const second = (await test.request({ method: 'GET', url: `${membersUrl(owner)}?limit=2&cursor=${encodeURIComponent(first.next_cursor)}`, token: owner.token })).json()
    const third = (await test.request({ method: 'GET', url: `${membersUrl(owner)}?limit=2&cursor=${encodeURIComponent(second.next_cursor)}`, token: owner.token })).json()
    expect(third.next_cursor).toBeNull()
    const ids = [...first.members, ...second.members, ...third.members].map((member: { id: string }) => member.id)
    expect(ids).toHaveLength(5) // owner + 4 invited
    expect(new Set(ids).size).toBe(5)
    expect([...ids].sort()).toEqual(ids)

    const viewers = (await test.request({ method: 'GET', url: `${membersUrl(owner)}?role=viewer`, token: owner.token })).json()
    expect(viewers.members.map((member: { role: string }) => member.role)).toEqual(['viewer', 'viewer'])
    const invited = (await test.request({ method: 'GET', url: `${membersUrl(owner)}?status=invited`, token: owner.token })).json()
    expect(invited.members).toHaveLength(4)
  })

  it('refuses a forged cursor, a cursor from another tenant and out-of-range limits', async () => {
    const owner = await signupOwner(test)
    const other = await signupOwner(test)
    for (let index = 0; index < 2; index += 1) {
      await test.request({ method: 'POST', url: membersUrl(other), token: other.token, payload: { email: uniqueEmail(), role: 'viewer' } })
    }
    const page = (await test.request({ method: 'GET', url: `${membersUrl(other)}?limit=1`, token: other.token })).json()
    const list = (query: string) => test.request({ method: 'GET', url: `${membersUrl(owner)}?${query}`, token: owner.token })
    expectError(await list(`cursor=${encodeURIComponent(page.next_cursor)}`), 'invalid_cursor')
    const tampered = `${page.next_cursor.slice(0, -1)}${page.next_cursor.endsWith('A') ? 'B' : 'A'}`
    expectError(await test.request({ method: 'GET', url: `${membersUrl(other)}?cursor=${encodeURIComponent(tampered)}`, token: other.token }), 'invalid_cursor')
    expectError(await list('cursor=not-a-cursor'), 'invalid_cursor')
    expectError(await list('limit=0'), 'request_params_invalid')
    expectError(await list('limit=501'), 'request_params_invalid')
    expectError(await list('limit=abc'), 'request_params_invalid')
    expectError(await list('status=gone'), 'request_params_invalid')
    expectError(await list('sort=email'), 'request_params_invalid')
    expect((await list('limit=500')).statusCode).toBe(200)
  })

  it('is readable by every member but not by an API key', async () => {
    const owner = await signupOwner(test)
    const viewer = await addMember(test, owner, 'viewer')
    expect((await test.request({ method: 'GET', url: membersUrl(owner), token: viewer.token })).statusCode).toBe(200)
    const key = (await test.request({ method: 'POST', url: `/v1/tenants/${owner.tenantId}/api-keys`, token: owner.token, payload: { name: 'k' } })).json().secret
    expectError(await test.request({ method: 'GET', url: membersUrl(owner), token: key }), 'auth_scope_insufficient')
  })
})

describe('changing members', () => {
  it('changes role, domains and limit; emits member.changed and audits it in the same transaction', async () => {
    const owner = await signupOwner(test)
    const member = await addMember(test, owner, 'viewer')
    const response = await test.request({
      method: 'PATCH',
      url: `${membersUrl(owner)}/${member.memberId}`,
      token: owner.token,
      payload: { role: 'approver', approval_domains: ['*'], approval_limit: { currency: 'EUR', value: '100' } },
    })
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toMatchObject({ role: 'approver', approval_domains: ['*'], approval_limit: { currency: 'EUR', value: '100.00' } })
    const cleared = await test.request({ method: 'PATCH', url: `${membersUrl(owner)}/${member.memberId}`, token: owner.token, payload: { approval_limit: null } })
    expect(cleared.json().approval_limit).toBeNull()

    const events = await memberEvents(owner.tenantId)
    const changes = events.filter((event) => event.payload.member_id === member.memberId).map((event) => event.payload.change)
    expect(changes).toEqual(['created', 'joined', 'updated', 'updated'])
    const auditIds = events.map((event) => event.audit_event_id)
    const audited = await auditEvents(test, owner.tenantId)
    for (const id of auditIds) expect(audited.map((row) => row.id)).toContain(id)
    expect(audited.map((row) => row.action)).toEqual(expect.arrayContaining(['member.invited', 'member.joined', 'member.updated']))
  })

  it('narrows a live token at once when the role is lowered', async () => {
    const owner = await signupOwner(test)
    const admin = await addMember(test, owner, 'admin')
    expect((await test.request({ method: 'POST', url: membersUrl(owner), token: admin.token, payload: { email: uniqueEmail(), role: 'viewer' } })).statusCode).toBe(201)
    await test.request({ method: 'PATCH', url: `${membersUrl(owner)}/${admin.memberId}`, token: owner.token, payload: { role: 'viewer' } })
    expectError(await test.request({ method: 'POST', url: membersUrl(owner), token: admin.token, payload: { email: uniqueEmail(), role: 'viewer' } }), 'auth_scope_insufficient')
    const whoami = (await test.request({ method: 'GET', url: '/v1/auth/whoami', token: admin.token })).json()
    expect(whoami.scopes).toEqual([...roleScopes.viewer])
  })

  it('never changes the owner and never lets you change yourself (409 member_change_forbidden)', async () => {
    const owner = await signupOwner(test)
    const admin = await addMember(test, owner, 'admin')
    const ownerMember = (await test.request({ method: 'GET', url: `${membersUrl(owner)}?role=owner`, token: owner.token })).json().members[0]
    expectError(await test.request({ method: 'PATCH', url: `${membersUrl(owner)}/${ownerMember.id}`, token: admin.token, payload: { role: 'viewer' } }), 'member_change_forbidden')
    expectError(await test.request({ method: 'POST', url: `${membersUrl(owner)}/${ownerMember.id}/deactivate`, token: admin.token }), 'member_change_forbidden')
    expectError(await test.request({ method: 'PATCH', url: `${membersUrl(owner)}/${admin.memberId}`, token: admin.token, payload: { role: 'viewer' } }), 'member_change_forbidden')
    expectError(await test.request({ method: 'POST', url: `${membersUrl(owner)}/${admin.memberId}/deactivate`, token: admin.token }), 'member_change_forbidden')
  })

  it('refuses an empty change and members of viewer or approver rank', async () => {
    const owner = await signupOwner(test)
    const viewer = await addMember(test, owner, 'viewer')
    const approver = await addMember(test, owner, 'approver')
    expectError(await test.request({ method: 'PATCH', url: `${membersUrl(owner)}/${viewer.memberId}`, token: owner.token, payload: {} }), 'request_body_invalid')
    expectError(await test.request({ method: 'PATCH', url: `${membersUrl(owner)}/${viewer.memberId}`, token: approver.token, payload: { role: 'admin' } }), 'auth_scope_insufficient')
  })

  it('answers 404 member_not_found for an unknown member', async () => {
    const owner = await signupOwner(test)
    expectError(await test.request({ method: 'GET', url: `${membersUrl(owner)}/mem_00000000000000000000000000`, token: owner.token }), 'member_not_found')
    // Whatever its shape (issue 15, item 2).
    expectError(await test.request({ method: 'GET', url: `${membersUrl(owner)}/not-an-id`, token: owner.token }), 'member_not_found')
  })
})

describe('deactivating members', () => {
  it('stops the member\'s token at once and refuses login; reactivation restores it', async () => {
    const owner = await signupOwner(test)
    const member = await addMember(test, owner, 'approver')
    const deactivated = await test.request({ method: 'POST', url: `${membersUrl(owner)}/${member.memberId}/deactivate`, token: owner.token })
    expect(deactivated.statusCode).toBe(200)
    expect(deactivated.json()).toMatchObject({ status: 'deactivated', deactivated_at: expect.any(String) })
    expectError(await test.request({ method: 'GET', url: '/v1/auth/whoami', token: member.token }), 'tenant_access_denied')
    expectError(await test.request({ method: 'POST', url: '/v1/auth/login', payload: { email: member.email, password: testPassword } }), 'tenant_access_denied')

    // Idempotent: a second deactivation changes nothing and records nothing.
    const before = await memberEvents(owner.tenantId)
    const again = await test.request({ method: 'POST', url: `${membersUrl(owner)}/${member.memberId}/deactivate`, token: owner.token })
    expect(again.json().deactivated_at).toBe(deactivated.json().deactivated_at)
    expect(await memberEvents(owner.tenantId)).toHaveLength(before.length)

    const reactivated = await test.request({ method: 'POST', url: `${membersUrl(owner)}/${member.memberId}/reactivate`, token: owner.token })
    expect(reactivated.json()).toMatchObject({ status: 'active', deactivated_at: null })
    expect((await test.request({ method: 'GET', url: '/v1/auth/whoami', token: await login(test, member.email) })).statusCode).toBe(200)
    const changes = (await memberEvents(owner.tenantId)).filter((event) => event.payload.member_id === member.memberId).map((event) => event.payload.change)
    expect(changes).toEqual(['created', 'joined', 'deactivated', 'reactivated'])
  })

  it('returns a deactivated invitee to invited, and an old invitation cannot be used while deactivated', async () => {
    const owner = await signupOwner(test)
    const invite = (await test.request({ method: 'POST', url: membersUrl(owner), token: owner.token, payload: { email: uniqueEmail(), role: 'viewer' } })).json()
    await test.request({ method: 'POST', url: `${membersUrl(owner)}/${invite.member.id}/deactivate`, token: owner.token })
    expectError(
      await test.request({ method: 'POST', url: '/v1/auth/accept-invitation', payload: { tenant_id: owner.tenantId, token: invite.invitation_token, password: testPassword } }),
      'signup_token_invalid',
    )
    const reactivated = await test.request({ method: 'POST', url: `${membersUrl(owner)}/${invite.member.id}/reactivate`, token: owner.token })
    expect(reactivated.json().status).toBe('invited')
  })
})
