/**
 * Reading a tenant's business events (GET /v1/events, what `steward webhooks listen` polls) and its
 * audit chain's verification over the API (GET /v1/audit/chain, GET /v1/platform/audit/chain).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, createTestApp, expectError, issueApiKey, signupOwner, testPlatformSecret, type TenantOwner, type TestApp } from '../../support/harness.ts'

let test: TestApp
let owner: TenantOwner
let other: TenantOwner

beforeAll(async () => {
  test = await createTestApp()
  owner = await signupOwner(test)
  other = await signupOwner(test)
  // Business events of each tenant: member.changed for each member invited.
  for (const role of ['viewer', 'approver', 'admin'] as const) await addMember(test, owner, role)
  await addMember(test, other, 'viewer')
})
afterAll(async () => test?.close())

const list = (query: string, token = owner.token) => test.request({ method: 'GET', url: `/v1/events${query}`, token })

describe('GET /v1/events', () => {
  it('lists the tenant\'s events in id order with the webhook body, and pages with after', async () => {
    const all = list('?limit=1000')
    const { events, has_more } = (await all).json() as { events: Array<{ id: string; type: string; tenant_id: string; data: Record<string, unknown>; audit_event_id: string | null }>; has_more: boolean }
    expect(has_more).toBe(false)
    expect(events.length).toBeGreaterThanOrEqual(4)
    expect(events.every((event) => event.tenant_id === owner.tenantId)).toBe(true)
    expect(events.map((event) => event.id)).toEqual([...events.map((event) => event.id)].sort())
    expect(events.find((event) => event.type === 'member.changed')).toMatchObject({ data: { change: 'created' }, audit_event_id: expect.stringMatching(/^aev_/) })

    const first = (await list('?limit=2')).json()
    expect(first.events.map((event: { id: string }) => event.id)).toEqual(events.slice(0, 2).map((event) => event.id))
    expect(first.has_more).toBe(true)
    const rest = (await list(`?limit=1000&after=${first.events[1].id}`)).json()
    expect(rest.events.map((event: { id: string }) => event.id)).toEqual(events.slice(2).map((event) => event.id))
  })

  it('filters by type and by since, and refuses an unknown type', async () => {
    const members = (await list('?types=member.changed')).json().events as Array<{ type: string }>
    expect(members.length).toBeGreaterThanOrEqual(3)
    expect(members.every((event) => event.type === 'member.changed')).toBe(true)
    expect((await list('?types=raw.ingest.new')).json().events).toEqual([])
    expect((await list(`?since=${new Date(Date.now() + 60_000).toISOString()}`)).json().events).toEqual([])
    expectError(await list('?types=member.changed,made.up'), 'request_params_invalid')
    expectError(await list('?after=not-an-event-id'), 'request_params_invalid')
  })

  it('shows another tenant\'s events to nobody, and asks what registering an endpoint asks', async () => {
    const theirs = (await list('?limit=1000', other.token)).json().events as Array<{ tenant_id: string }>
    expect(theirs.length).toBeGreaterThan(0)
    expect(theirs.every((event) => event.tenant_id === other.tenantId)).toBe(true)
    const viewer = await addMember(test, owner, 'viewer')
    expectError(await list('', viewer.token), 'auth_scope_insufficient')
    expectError(await list('', (await issueApiKey(test, owner)).secret), 'auth_scope_insufficient')
  })
})

describe('the audit chain over the API', () => {
  it('walks the caller\'s chain (GET /v1/audit/chain) and any tenant\'s for the platform', async () => {
    await test.runtime.settleAudit({ closeOpenBatch: true })
    const mine = await test.request({ method: 'GET', url: '/v1/audit/chain', token: (await issueApiKey(test, owner)).secret })
    expect(mine.statusCode, mine.body).toBe(200)
    expect(mine.json()).toMatchObject({ tenant_id: owner.tenantId, ok: true, first_break: null, anchors_checked: 1 })
    expect(mine.json().events_checked).toBe(mine.json().head_seq)
    expect(mine.json().events_checked).toBeGreaterThan(3)
    const skipping = await test.request({ method: 'GET', url: '/v1/audit/chain?check_anchors=false', token: owner.token })
    expect(skipping.json()).toMatchObject({ ok: true, anchors_checked: 0 })

    const platform = await test.request({ method: 'GET', url: `/v1/platform/audit/chain?tenant_id=${other.tenantId}`, headers: { 'x-platform-service-auth': testPlatformSecret } })
    expect(platform.statusCode, platform.body).toBe(200)
    expect(platform.json()).toMatchObject({ tenant_id: other.tenantId, ok: true })
    const nobody = await test.request({ method: 'GET', url: '/v1/platform/audit/chain?tenant_id=00000000-0000-7000-8000-000000000000', headers: { 'x-platform-service-auth': testPlatformSecret } })
    expect(nobody.json()).toMatchObject({ ok: true, events_checked: 0, head_seq: 0 })
    expectError(await test.request({ method: 'GET', url: '/v1/platform/audit/chain', headers: { 'x-platform-service-auth': testPlatformSecret } }), 'request_params_invalid')
  })
})
