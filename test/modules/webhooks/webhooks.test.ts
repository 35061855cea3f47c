/**
 * Webhook endpoints: registration, reading, changing, deleting, secret rotation, scopes, tenancy and
 * audit; and delivery of a real business event (member.changed) to a real receiver, through the
 * runtime's default wiring (the shared harness with workers on).
 */
import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../../../src/platform/db/database.ts'
import { endpointsPerTenantMax } from '../../../src/modules/webhooks/webhooks.service.ts'
import { auditActions, auditEvents } from '../../support/audit-log.ts'
import { addMember, createTestApp, expectError, issueApiKey, signupOwner, type TenantOwner, type TestApp } from '../../support/harness.ts'
import { changeMember as changeMemberOf, deliveriesOf as deliveryStates, registerEndpoint as registerWebhook, uniquePath } from '../../support/webhook-app.ts'
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.ts'

let test: TestApp
let receiver: WebhookReceiver

beforeAll(async () => {
  test = await createTestApp({ workers: true })
  receiver = await startWebhookReceiver()
})
afterAll(async () => {
  await receiver?.close()
  await test?.close()
})

const secretPattern = /^whsec_[A-Za-z0-9+/]{43}=$/
const register = (owner: { token: string }, payload: Record<string, unknown>, token = owner.token) =>
  test.request({ method: 'POST', url: '/v1/webhooks', token, payload })
const registerEndpoint = (owner: TenantOwner, extra: Record<string, unknown> = {}) => registerWebhook(test, receiver, owner, extra)
const changeMember = (owner: TenantOwner) => changeMemberOf(test, owner)
const deliveriesOf = (eventId: string) => deliveryStates(test, eventId)

describe('registering endpoints', () => {
  it('creates an enabled endpoint and returns a Standard Webhooks secret once', async () => {
    const owner = await signupOwner(test)
    const url = receiver.url(uniquePath())
    const response = await register(owner, { url, event_types: ['member.changed'], description: 'ops alerts' })
    expect(response.statusCode, response.body).toBe(201)
    const { endpoint, secret } = response.json()
    expect(secret).toMatch(secretPattern)
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32)
    expect(endpoint).toMatchObject({
      tenant_id: owner.tenantId,
      url,
      description: 'ops alerts',
      event_types: ['member.changed'],
      status: 'enabled',
      previous_secret_expires_at: null,
      created_by: owner.userId,
    })
    expect(endpoint.id).toMatch(/^whe_[0-9A-Z]{26}$/)

    const read = await test.request({ method: 'GET', url: `/v1/webhooks/${endpoint.id}`, token: owner.token })
    expect(read.statusCode, read.body).toBe(200)
    expect(read.json()).toEqual(endpoint)
    expect(read.body).not.toContain(secret)
  })

  it('treats omitted event_types as every type', async () => {
    const owner = await signupOwner(test)
    const response = await register(owner, { url: receiver.url(uniquePath()) })
    expect(response.json().endpoint).toMatchObject({ event_types: [], description: null })
  })

  it.each([
    ['an unknown field', { url: 'http://127.0.0.1:9/x', secret: 'mine' }],
    ['an unknown event type', { url: 'http://127.0.0.1:9/x', event_types: ['action.executed'] }],
    ['a duplicated event type', { url: 'http://127.0.0.1:9/x', event_types: ['member.changed', 'member.changed'] }],
    ['no url', { description: 'x' }],
    ['an empty url', { url: '' }],
    ['a url longer than 2048 characters', { url: `http://127.0.0.1:9/${'a'.repeat(2048)}` }],
    ['an empty description', { url: 'http://127.0.0.1:9/x', description: '' }],
  ])('refuses %s with 400 request_body_invalid', async (_label, payload) => {
    const owner = await signupOwner(test)
    expectError(await register(owner, payload), 'request_body_invalid')
  })

  it.each([
    ['a relative URL', '/hooks', 'url_invalid'],
    ['an ftp URL', 'ftp://127.0.0.1/hooks', 'scheme_not_allowed'],
    ['a file URL', 'file:///etc/passwd', 'scheme_not_allowed'],
    ['credentials in the URL', 'http://user:pass@127.0.0.1:9/hooks', 'credentials_in_url'],
    ['a user name in the URL', 'https://token@127.0.0.1:9/hooks', 'credentials_in_url'],
  ])('refuses %s with 400 webhook_url_refused', async (_label, url, reason) => {
    const owner = await signupOwner(test)
    const error = expectError(await register(owner, { url }), 'webhook_url_refused')
    expect(error.details?.reason).toBe(reason)
  })

  it(`allows at most ${endpointsPerTenantMax} endpoints per tenant (409 webhook_endpoint_limit_reached)`, async () => {
    const owner = await signupOwner(test)
    for (let index = 0; index < endpointsPerTenantMax; index += 1) {
      expect((await register(owner, { url: receiver.url(`/limit/${index}`), event_types: ['raw.ingest.new'] })).statusCode).toBe(201)
    }
    expectError(await register(owner, { url: receiver.url('/limit/one-too-many') }), 'webhook_endpoint_limit_reached')
    // Another tenant is not affected.
    expect((await register(await signupOwner(test), { url: receiver.url('/limit/other') })).statusCode).toBe(201)
  })

  it('is tenant administration: surfaces:admin user principals (owner, admin) only', async () => {
    const owner = await signupOwner(test)
    const admin = await addMember(test, owner, 'admin')
    const viewer = await addMember(test, owner, 'viewer')
    const apiKey = await issueApiKey(test, owner)
    expect((await register(owner, { url: receiver.url(uniquePath()) }, admin.token)).statusCode).toBe(201)
    expectError(await register(owner, { url: receiver.url(uniquePath()) }, viewer.token), 'auth_scope_insufficient')
    expectError(await register(owner, { url: receiver.url(uniquePath()) }, apiKey.secret), 'auth_scope_insufficient')
    expectError(await test.request({ method: 'GET', url: '/v1/webhooks', token: viewer.token }), 'auth_scope_insufficient')
  })
})

describe('reading, changing and deleting endpoints', () => {
  it('lists the tenant\'s endpoints only, in pages with an opaque cursor', async () => {
    const owner = await signupOwner(test)
    const other = await signupOwner(test)
    const created = [await registerEndpoint(owner), await registerEndpoint(owner), await registerEndpoint(owner)]
    await registerEndpoint(other)
    const first = await test.request({ method: 'GET', url: '/v1/webhooks?limit=2', token: owner.token })
    expect(first.statusCode, first.body).toBe(200)
    expect(first.json().endpoints.map((endpoint: { id: string }) => endpoint.id)).toEqual(created.slice(0, 2).map((entry) => entry.endpoint.id))
    const cursor = first.json().next_cursor as string
    expect(cursor).toEqual(expect.any(String))
    const second = await test.request({ method: 'GET', url: `/v1/webhooks?limit=2&cursor=${encodeURIComponent(cursor)}`, token: owner.token })
    expect(second.json()).toEqual({ endpoints: [expect.objectContaining({ id: created[2]!.endpoint.id })], next_cursor: null })
    // The cursor is bound to its listing: another tenant cannot use it.
    expectError(await test.request({ method: 'GET', url: `/v1/webhooks?cursor=${encodeURIComponent(cursor)}`, token: other.token }), 'invalid_cursor')
    expectError(await test.request({ method: 'GET', url: '/v1/webhooks?limit=501', token: owner.token }), 'request_params_invalid')
  })

  it('changes url, types, description and status, checking the new URL', async () => {
    const owner = await signupOwner(test)
    const { endpoint } = await registerEndpoint(owner, { description: 'first' })
    const url = receiver.url(uniquePath('moved'))
    const patch = (payload: Record<string, unknown>) => test.request({ method: 'PATCH', url: `/v1/webhooks/${endpoint.id}`, token: owner.token, payload })
    const changed = await patch({ url, event_types: ['member.changed'], description: null, status: 'disabled' })
    expect(changed.statusCode, changed.body).toBe(200)
    expect(changed.json()).toMatchObject({ url, event_types: ['member.changed'], description: null, status: 'disabled' })
    expect((await patch({ event_types: [] })).json().event_types).toEqual([])
    expect(expectError(await patch({ url: 'http://a:b@127.0.0.1/x' }), 'webhook_url_refused').details?.reason).toBe('credentials_in_url')
    expectError(await patch({}), 'request_body_invalid')
    expectError(await patch({ status: 'paused' }), 'request_body_invalid')
    expectError(await patch({ secret: 'whsec_x' }), 'request_body_invalid')
  })

  it('deletes an endpoint, after which it is 404', async () => {
    const owner = await signupOwner(test)
    const { endpoint } = await registerEndpoint(owner)
    const removed = await test.request({ method: 'DELETE', url: `/v1/webhooks/${endpoint.id}`, token: owner.token })
    expect(removed.statusCode, removed.body).toBe(200)
    expect(removed.json()).toEqual({ endpoint_id: endpoint.id, deleted: true })
    expectError(await test.request({ method: 'GET', url: `/v1/webhooks/${endpoint.id}`, token: owner.token }), 'webhook_endpoint_not_found')
    expectError(await test.request({ method: 'DELETE', url: `/v1/webhooks/${endpoint.id}`, token: owner.token }), 'webhook_endpoint_not_found')
  })

  it('answers 404 for another tenant\'s endpoint on every route, exactly as for a missing one', async () => {
    const owner = await signupOwner(test)
    const intruder = await signupOwner(test)
    const intruderAdmin = await addMember(test, intruder, 'admin')
    const { endpoint } = await registerEndpoint(owner)
    const base = `/v1/webhooks/${endpoint.id}`
    const attempts: Array<[string, 'GET' | 'PATCH' | 'DELETE' | 'POST', string, Record<string, unknown> | undefined]> = [
      ['read', 'GET', base, undefined],
      ['change', 'PATCH', base, { description: 'mine now' }],
      ['rotate', 'POST', `${base}/rotate-secret`, {}],
      ['dead letters', 'GET', `${base}/dead-letters`, undefined],
      ['replay', 'POST', `${base}/replay`, {}],
      ['delete', 'DELETE', base, undefined],
    ]
    for (const [, method, url, payload] of attempts) {
      expectError(await test.request({ method, url, token: intruderAdmin.token, ...(payload === undefined ? {} : { payload }) }), 'webhook_endpoint_not_found')
    }
    // Untouched.
    const read = await test.request({ method: 'GET', url: base, token: owner.token })
    expect(read.json().description).toBeNull()
  })
})

describe('audit', () => {
  it('audits every write with digests and ids, never the URL or the signing secret', async () => {
    const owner = await signupOwner(test)
    const path = uniquePath('secret-path-token')
    const created = await register(owner, { url: receiver.url(path) })
    const { endpoint, secret } = created.json()
    const base = `/v1/webhooks/${endpoint.id}`
    await test.request({ method: 'PATCH', url: base, token: owner.token, payload: { description: 'changed' } })
    const rotated = await test.request({ method: 'POST', url: `${base}/rotate-secret`, token: owner.token, payload: { previous_secret_expires_in_seconds: 60 } })
    await test.request({ method: 'DELETE', url: base, token: owner.token })

    const rows = await auditEvents(test, owner.tenantId, { entityType: 'webhook_endpoint' })
    expect(rows.map((row) => row.action)).toEqual([
      'webhook_endpoint.created',
      'webhook_endpoint.updated',
      'webhook_endpoint.secret_rotated',
      'webhook_endpoint.deleted',
    ])
    for (const row of rows) {
      expect(row.actor_id).toBe(owner.userId)
      expect(row.entity_id).toBe(endpoint.id)
    }
    expect(rows[0]!.outputs).toMatchObject({ url_host: '127.0.0.1', event_types: [], status: 'enabled', url_digest: expect.stringMatching(/^sha256:/) })
    expect(rows[2]!.outputs).toEqual({ previous_secret_overlap_seconds: 60 })
    const text = JSON.stringify(rows)
    expect(text).not.toContain('secret-path-token')
    expect(text).not.toContain(secret.slice('whsec_'.length))
    expect(text).not.toContain(rotated.json().secret.slice('whsec_'.length))
  })
})

describe('Idempotency-Key on the endpoint commands', () => {
  const keyed = (key: string) => ({ 'idempotency-key': key })
  const newKey = (label: string) => `${label}-${randomBytes(8).toString('hex')}`
  const endpointActions = async (tenantId: string, endpointId?: string) =>
    auditActions(test, tenantId, { entityType: 'webhook_endpoint', ...(endpointId === undefined ? {} : { entityId: endpointId }) })

  it('registers once for a repeated key, replaying the first response with its secret; another body is 409', async () => {
    const owner = await signupOwner(test)
    const key = newKey('create')
    const payload = { url: receiver.url(uniquePath()), event_types: ['member.changed'] }
    const first = await test.request({ method: 'POST', url: '/v1/webhooks', token: owner.token, headers: keyed(key), payload })
    expect(first.statusCode, first.body).toBe(201)
    expect(first.headers['idempotent-replayed']).toBeUndefined()

    const again = await test.request({ method: 'POST', url: '/v1/webhooks', token: owner.token, headers: keyed(key), payload })
    expect(again.statusCode, again.body).toBe(201)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.json()).toEqual(first.json())
    // Ran once: one endpoint, one audit event.
    const listed = (await test.request({ method: 'GET', url: '/v1/webhooks', token: owner.token })).json()
    expect(listed.endpoints.map((endpoint: { id: string }) => endpoint.id)).toEqual([first.json().endpoint.id])
    expect(await endpointActions(owner.tenantId)).toEqual(['webhook_endpoint.created'])

    expectError(
      await test.request({ method: 'POST', url: '/v1/webhooks', token: owner.token, headers: keyed(key), payload: { ...payload, description: 'other' } }),
      'idempotency_key_reused',
    )
    expect((await test.request({ method: 'GET', url: '/v1/webhooks', token: owner.token })).json().endpoints).toHaveLength(1)
  })

  it('changes once for a repeated key: a retry replays and does not undo a later change; another body or endpoint is 409', async () => {
    const owner = await signupOwner(test)
    const { endpoint } = await registerEndpoint(owner)
    const other = await registerEndpoint(owner)
    const key = newKey('update')
    const patch = (endpointId: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
      test.request({ method: 'PATCH', url: `/v1/webhooks/${endpointId}`, token: owner.token, headers, payload })

    const first = await patch(endpoint.id, { description: 'first' }, keyed(key))
    expect(first.statusCode, first.body).toBe(200)
    expect(first.headers['idempotent-replayed']).toBeUndefined()
    expect((await patch(endpoint.id, { description: 'later' })).statusCode).toBe(200)

    const again = await patch(endpoint.id, { description: 'first' }, keyed(key))
    expect(again.statusCode, again.body).toBe(200)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.json()).toEqual(first.json())
    expect((await test.request({ method: 'GET', url: `/v1/webhooks/${endpoint.id}`, token: owner.token })).json().description).toBe('later')
    expect(await endpointActions(owner.tenantId, endpoint.id)).toEqual(['webhook_endpoint.created', 'webhook_endpoint.updated', 'webhook_endpoint.updated'])

    expectError(await patch(endpoint.id, { description: 'second' }, keyed(key)), 'idempotency_key_reused')
    expectError(await patch(other.endpoint.id, { description: 'first' }, keyed(key)), 'idempotency_key_reused')
    expect(await endpointActions(owner.tenantId, other.endpoint.id)).toEqual(['webhook_endpoint.created'])
  })

  it('deletes once for a repeated key: the retry gets the first answer, not 404; another endpoint with the key is 409', async () => {
    const owner = await signupOwner(test)
    const { endpoint } = await registerEndpoint(owner)
    const other = await registerEndpoint(owner)
    const key = newKey('delete')
    const remove = (endpointId: string, headers: Record<string, string> = {}) => test.request({ method: 'DELETE', url: `/v1/webhooks/${endpointId}`, token: owner.token, headers })

    const first = await remove(endpoint.id, keyed(key))
    expect(first.statusCode, first.body).toBe(200)
    expect(first.headers['idempotent-replayed']).toBeUndefined()
    const again = await remove(endpoint.id, keyed(key))
    expect(again.statusCode, again.body).toBe(200)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.json()).toEqual({ endpoint_id: endpoint.id, deleted: true })
    expect(await endpointActions(owner.tenantId, endpoint.id)).toEqual(['webhook_endpoint.created', 'webhook_endpoint.deleted'])
    // Without the key it runs again, and finds nothing.
    expectError(await remove(endpoint.id), 'webhook_endpoint_not_found')

    expectError(await remove(other.endpoint.id, keyed(key)), 'idempotency_key_reused')
    expect((await test.request({ method: 'GET', url: `/v1/webhooks/${other.endpoint.id}`, token: owner.token })).statusCode).toBe(200)
  })

  it('rotates once for a repeated key: the retry gets the same new secret, which stays the signing secret; another body is 409', async () => {
    const owner = await signupOwner(test)
    const { endpoint, secret: original } = await registerEndpoint(owner)
    const key = newKey('rotate')
    const rotate = (payload: Record<string, unknown>) =>
      test.request({ method: 'POST', url: `/v1/webhooks/${endpoint.id}/rotate-secret`, token: owner.token, headers: keyed(key), payload })

    const first = await rotate({ previous_secret_expires_in_seconds: 60 })
    expect(first.statusCode, first.body).toBe(200)
    expect(first.headers['idempotent-replayed']).toBeUndefined()
    const rotated = first.json().secret as string
    expect(rotated).toMatch(secretPattern)
    expect(rotated).not.toBe(original)

    const again = await rotate({ previous_secret_expires_in_seconds: 60 })
    expect(again.statusCode, again.body).toBe(200)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.json()).toEqual(first.json())
    expect(await endpointActions(owner.tenantId, endpoint.id)).toEqual(['webhook_endpoint.created', 'webhook_endpoint.secret_rotated'])
    const [stored] = await queryRows<{ secret: string; previous_secret: string | null }>(
      test.runtime.db.orm,
      sql`select secret, previous_secret from webhook_endpoints where id = ${endpoint.id}`,
    )
    expect(stored).toEqual({ secret: rotated, previous_secret: original })

    expectError(await rotate({ previous_secret_expires_in_seconds: 0 }), 'idempotency_key_reused')
    expectError(await rotate({}), 'idempotency_key_reused')
  })
})

describe('delivering events', () => {
  it('delivers member.changed to subscribed endpoints only, signed and verifiable, never to another tenant\'s', async () => {
    const owner = await signupOwner(test)
    const other = await signupOwner(test)
    const all = await registerEndpoint(owner)
    const subscribed = await registerEndpoint(owner, { event_types: ['member.changed', 'payment_intent.created'] })
    const filtered = await registerEndpoint(owner, { event_types: ['payment_intent.created'] })
    const disabled = await registerEndpoint(owner)
    await test.request({ method: 'PATCH', url: `/v1/webhooks/${disabled.endpoint.id}`, token: owner.token, payload: { status: 'disabled' } })
    const otherTenants = await registerEndpoint(other)

    const eventId = await changeMember(owner)
    await expect.poll(() => receiver.deliveriesTo(all.path).length + receiver.deliveriesTo(subscribed.path).length, { timeout: 20_000, interval: 100 }).toBe(2)
    // The fan-out wrote every delivery of this event in one transaction: exactly these two.
    await expect.poll(async () => (await deliveriesOf(eventId)).map((row) => `${row.endpoint_id}:${row.status}:${row.attempt_count}`), { timeout: 10_000 }).toEqual(
      [`${all.endpoint.id}:succeeded:1`, `${subscribed.endpoint.id}:succeeded:1`].sort(),
    )
    expect(receiver.deliveriesTo(filtered.path)).toEqual([])
    expect(receiver.deliveriesTo(disabled.path)).toEqual([])
    expect(receiver.deliveriesTo(otherTenants.path).filter((delivery) => delivery.payload.id === eventId)).toEqual([])

    for (const { path, secret } of [all, subscribed]) {
      const [delivery] = receiver.deliveriesTo(path)
      expect(delivery!.verifiedBy).toEqual([0])
      expect(delivery!.headers['webhook-id']).toBe(eventId)
      expect(delivery!.headers['content-type']).toBe('application/json')
      expect(Number(delivery!.headers['webhook-timestamp'])).toBeCloseTo(Date.now() / 1000, -2)
      const verified = new Webhook(secret).verify(delivery!.body, delivery!.headers as Record<string, string>) as Record<string, unknown>
      expect(verified).toEqual({
        type: 'member.changed',
        id: eventId,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        tenant_id: owner.tenantId,
        audit_event_id: expect.stringMatching(/^aev_/),
        data: expect.objectContaining({ change: 'created', role: 'viewer', status: 'invited', member_id: expect.stringMatching(/^mem_/) }),
      })
    }
  })

  it('does not deliver events older than the endpoint', async () => {
    const owner = await signupOwner(test)
    // signup emitted member.changed for the owner before any endpoint existed.
    const endpoint = await registerEndpoint(owner)
    const eventId = await changeMember(owner)
    await expect.poll(() => receiver.deliveriesTo(endpoint.path).length, { timeout: 20_000, interval: 100 }).toBe(1)
    expect(receiver.deliveriesTo(endpoint.path)[0]!.payload.id).toBe(eventId)
  })

  it('signs with both secrets during a rotation overlap, and with the new one only without overlap', async () => {
    const owner = await signupOwner(test)
    const { path, endpoint, secret: original } = await registerEndpoint(owner)
    const rotate = (payload: Record<string, unknown>) =>
      test.request({ method: 'POST', url: `/v1/webhooks/${endpoint.id}/rotate-secret`, token: owner.token, payload })

    const overlapping = await rotate({ previous_secret_expires_in_seconds: 3600 })
    expect(overlapping.statusCode, overlapping.body).toBe(200)
    const rotated = overlapping.json().secret as string
    expect(rotated).toMatch(secretPattern)
    expect(rotated).not.toBe(original)
    expect(Date.parse(overlapping.json().endpoint.previous_secret_expires_at) - Date.now()).toBeGreaterThan(3500_000)
    receiver.setSecrets(path, [original, rotated])
    await changeMember(owner)
    await expect.poll(() => receiver.deliveriesTo(path).length, { timeout: 20_000, interval: 100 }).toBe(1)
    const during = receiver.deliveriesTo(path)[0]!
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2)
    expect(during.verifiedBy).toEqual([0, 1])

    const immediate = await rotate({})
    const latest = immediate.json().secret as string
    expect(immediate.json().endpoint.previous_secret_expires_at).toBeNull()
    receiver.setSecrets(path, [original, rotated, latest])
    await changeMember(owner)
    await expect.poll(() => receiver.deliveriesTo(path).length, { timeout: 20_000, interval: 100 }).toBe(2)
    expect(receiver.deliveriesTo(path)[1]!.verifiedBy).toEqual([2])

    expectError(await rotate({ previous_secret_expires_in_seconds: 7 * 24 * 3600 + 1 }), 'request_body_invalid')
    expectError(await rotate({ previous_secret_expires_in_seconds: -1 }), 'request_body_invalid')
  })

  it('never stores response bodies', async () => {
    const owner = await signupOwner(test)
    const { path } = await registerEndpoint(owner)
    receiver.answer(path, 418)
    const eventId = await changeMember(owner)
    // The attempt is counted before the request leaves and its outcome recorded after: wait for the outcome.
    await expect.poll(async () => (await deliveriesOf(eventId))[0]?.last_status_code ?? null, { timeout: 20_000, interval: 100 }).toBe(418)
    const [row] = await queryRows<Record<string, unknown>>(test.runtime.db.orm, sql`select * from webhook_deliveries where event_id = ${eventId}`)
    expect(row).toMatchObject({ status: 'pending', last_status_code: 418, last_error: 'HTTP 418' })
    expect(JSON.stringify(row)).not.toContain('receiver says no')
  })
})
