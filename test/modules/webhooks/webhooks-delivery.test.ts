/**
 * Webhook delivery under failure: exactly five automatic attempts, then a dead letter with the spec's
 * fields; dead-letter listing; manual replay (counts, cap, per-call bound); Idempotency-Key on replay.
 * The runtime's retry base is 50 ms so the five attempts take a couple of polling intervals, not 42
 * minutes; the schedule itself is unit-tested in src/modules/webhooks/domain/delivery.test.ts.
 */
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../../../src/platform/db/database.ts'
import { systemClock } from '../../../src/kernel/clock.ts'
import { createIdSource } from '../../../src/kernel/ids.ts'
import { deliveryAttemptsMax, replayAttemptsMax } from '../../../src/modules/webhooks/domain/delivery.ts'
import { createEventRecorder, type EventType } from '../../../src/platform/outbox/events.ts'
import { replayRowsMax } from '../../../src/modules/webhooks/webhooks.service.ts'
import { auditEvents } from '../../support/audit-log.ts'
import { addMember, expectError, issueApiKey, signupOwner, type TenantOwner } from '../../support/harness.ts'
import {
  changeMember as changeMemberOf,
  createWebhookTestApp,
  deliveriesOf as deliveryStates,
  registerEndpoint as registerWebhook,
  type WebhookTestApp,
} from '../../support/webhook-app.ts'
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.ts'
import { createWebhookSubscriber } from '../../../src/modules/webhooks/index.ts'

let test: WebhookTestApp
let receiver: WebhookReceiver
const requestTimeoutMs = 500

beforeAll(async () => {
  test = await createWebhookTestApp({ workers: true, webhooks: { retryBaseSeconds: 0.05, requestTimeoutMs } })
  receiver = await startWebhookReceiver()
})
afterAll(async () => {
  await receiver?.close()
  await test?.close()
})

const registerEndpoint = (owner: TenantOwner, extra: Record<string, unknown> = {}) => registerWebhook(test, receiver, owner, extra)
const changeMember = (owner: TenantOwner) => changeMemberOf(test, owner)
const deliveriesOf = (eventId: string) => deliveryStates(test, eventId)
const poll = { timeout: 25_000, interval: 100 }

const deadLettersUrl = (endpointId: string, query = '') => `/v1/webhooks/${endpointId}/dead-letters${query}`
const listDeadLetters = (endpointId: string, token: string, query = '') => test.request({ method: 'GET', url: deadLettersUrl(endpointId, query), token })
const replay = (endpointId: string, token: string, headers: Record<string, string> = {}) =>
  test.request({ method: 'POST', url: `/v1/webhooks/${endpointId}/replay`, token, headers, payload: {} })

/** A tenant with an owner (surfaces:admin, audit:read) and an admin (audit:write, for replays). */
async function tenantWithAdmin() {
  const owner = await signupOwner(test)
  const admin = await addMember(test, owner, 'admin')
  return { owner, admin }
}

/** Waits until the event's delivery to the endpoint is dead-lettered, and returns the endpoint's dead letters. */
async function awaitDeadLetters(endpointId: string, token: string, count: number) {
  await expect.poll(async () => (await listDeadLetters(endpointId, token)).json().dead_letters?.length ?? 0, poll).toBe(count)
  return (await listDeadLetters(endpointId, token)).json().dead_letters as Array<Record<string, unknown>>
}

describe('automatic retries', () => {
  it(`gives a failing receiver exactly ${deliveryAttemptsMax} attempts, then writes a dead letter with the spec fields`, async () => {
    const { owner } = await tenantWithAdmin()
    const { path, endpoint } = await registerEndpoint(owner)
    receiver.answer(path, 500)
    const eventId = await changeMember(owner)

    const [deadLetter] = await awaitDeadLetters(endpoint.id, owner.token, 1)
    expect(Object.keys(deadLetter!).sort()).toEqual(['attempt_count', 'created_at', 'event_id', 'event_type', 'id', 'last_attempt_at', 'last_error'])
    expect(deadLetter).toMatchObject({ event_id: eventId, event_type: 'member.changed', attempt_count: deliveryAttemptsMax, last_error: 'HTTP 500' })
    expect(deadLetter!.id).toMatch(/^wdl_/)
    expect(Date.parse(deadLetter!.last_attempt_at as string)).toBeLessThanOrEqual(Date.parse(deadLetter!.created_at as string))

    const [delivery] = await deliveriesOf(eventId)
    expect(delivery).toMatchObject({ status: 'dead_lettered', attempt_count: deliveryAttemptsMax, last_status_code: 500, last_error: 'HTTP 500' })
    // No job is left that could make a sixth attempt…
    await expect.poll(() => test.unfinishedJobs('webhook-deliver', 'delivery_id', delivery!.id), poll).toBe(0)
    // …and the receiver saw exactly five, every one the same message (same webhook-id), every one authentic.
    const attempts = receiver.deliveriesTo(path)
    expect(attempts).toHaveLength(deliveryAttemptsMax)
    expect(new Set(attempts.map((attempt) => attempt.headers['webhook-id']))).toEqual(new Set([eventId]))
    expect(attempts.every((attempt) => attempt.verifiedBy.length === 1)).toBe(true)

    const [audited] = await auditEvents(test, owner.tenantId, { action: 'webhook.delivery_dead_lettered' })
    expect(audited).toMatchObject({ actor_type: 'system', actor_id: 'webhook-deliver', outputs: { event_id: eventId, attempt_count: 5, last_status_code: 500 } })
  })

  it('succeeds on a later attempt without a dead letter', async () => {
    const { owner } = await tenantWithAdmin()
    const { path, endpoint } = await registerEndpoint(owner)
    receiver.answerSequence(path, [503, 502])
    const eventId = await changeMember(owner)
    await expect.poll(async () => (await deliveriesOf(eventId))[0]?.status, poll).toBe('succeeded')
    expect((await deliveriesOf(eventId))[0]).toMatchObject({ attempt_count: 3, last_status_code: 200, last_error: null })
    expect(receiver.deliveriesTo(path).map((attempt) => attempt.answeredWith)).toEqual([503, 502, 200])
    expect((await listDeadLetters(endpoint.id, owner.token)).json().dead_letters).toEqual([])
  })

  it('counts a timeout and a refused connection as failed attempts', async () => {
    const { owner } = await tenantWithAdmin()
    const hanging = await registerEndpoint(owner)
    receiver.answerSequence(hanging.path, ['hang'])
    const closedPort = await registerEndpoint(owner, { url: 'http://127.0.0.1:1/nobody-listens' })
    const eventId = await changeMember(owner)
    await expect.poll(async () => (await deliveriesOf(eventId)).find((row) => row.endpoint_id === hanging.endpoint.id)?.status, poll).toBe('succeeded')
    // Counted before the request leaves, its outcome recorded after: wait for the outcome.
    await expect.poll(async () => (await deliveriesOf(eventId)).find((row) => row.endpoint_id === closedPort.endpoint.id)?.last_error ?? null, poll).not.toBeNull()
    const refused = (await deliveriesOf(eventId)).find((row) => row.endpoint_id === closedPort.endpoint.id)!
    expect(refused.last_error).toMatch(/^connection_failed: ECONNREFUSED/)
    expect(refused.last_status_code).toBeNull()
    const timedOut = receiver.deliveriesTo(hanging.path)
    expect(timedOut.map((attempt) => attempt.answeredWith)).toEqual(['hang', 200])
    const [row] = await queryRows<{ attempt_count: number }>(test.runtime.db.orm, sql`select attempt_count from webhook_deliveries where event_id = ${eventId} and endpoint_id = ${hanging.endpoint.id}`)
    expect(row!.attempt_count).toBe(2)
  })

  it('parks deliveries of an endpoint disabled before its attempt as dead letters, to replay later', async () => {
    const { owner, admin } = await tenantWithAdmin()
    const { path, endpoint } = await registerEndpoint(owner)
    receiver.answer(path, 503)
    const eventId = await changeMember(owner)
    await expect.poll(async () => (await deliveriesOf(eventId))[0]?.attempt_count ?? 0, poll).toBeGreaterThanOrEqual(1)
    await test.request({ method: 'PATCH', url: `/v1/webhooks/${endpoint.id}`, token: owner.token, payload: { status: 'disabled' } })
    const [deadLetter] = await awaitDeadLetters(endpoint.id, owner.token, 1)
    expect(deadLetter!.attempt_count).toBeLessThan(deliveryAttemptsMax)
    expectError(await replay(endpoint.id, admin.token), 'webhook_endpoint_disabled')
    receiver.answer(path, 200)
    await test.request({ method: 'PATCH', url: `/v1/webhooks/${endpoint.id}`, token: owner.token, payload: { status: 'enabled' } })
    expect((await replay(endpoint.id, admin.token)).json()).toMatchObject({ attempted: 1, redelivered: 1, still_failing: 0 })
    expect((await deliveriesOf(eventId))[0]!.status).toBe('succeeded')
  })
})

describe('GET /v1/webhooks/{endpoint_id}/dead-letters', () => {
  it('lists dead letters oldest first in pages, to audit:read principals of the tenant only', async () => {
    const { owner } = await tenantWithAdmin()
    const { path, endpoint } = await registerEndpoint(owner)
    receiver.answer(path, 500)
    const eventIds = [await changeMember(owner), await changeMember(owner), await changeMember(owner)]
    const all = await awaitDeadLetters(endpoint.id, owner.token, 3)
    expect(all.map((row) => row.event_id).sort()).toEqual([...eventIds].sort())

    const first = await listDeadLetters(endpoint.id, owner.token, '?limit=2')
    expect(first.statusCode, first.body).toBe(200)
    expect(first.json().endpoint_id).toBe(endpoint.id)
    expect(first.json().dead_letters).toEqual(all.slice(0, 2))
    const second = await listDeadLetters(endpoint.id, owner.token, `?limit=2&cursor=${encodeURIComponent(first.json().next_cursor)}`)
    expect(second.json()).toEqual({ endpoint_id: endpoint.id, dead_letters: all.slice(2), next_cursor: null })
    expectError(await listDeadLetters(endpoint.id, owner.token, '?cursor=forged.cursor'), 'invalid_cursor')

    // audit:read is enough: the tenant's read-only API key may list them.
    const apiKey = await issueApiKey(test, owner)
    expect((await listDeadLetters(endpoint.id, apiKey.secret)).json().dead_letters).toHaveLength(3)
    // Another tenant: 404, as for an endpoint that does not exist.
    const intruder = await signupOwner(test)
    expectError(await listDeadLetters(endpoint.id, intruder.token), 'webhook_endpoint_not_found')
    expectError(await listDeadLetters(endpoint.id, (await issueApiKey(test, intruder)).secret), 'webhook_endpoint_not_found')
    expectError(await listDeadLetters('whe_00000000000000000000000000', owner.token), 'webhook_endpoint_not_found')
  })
})

describe('POST /v1/webhooks/{endpoint_id}/replay', () => {
  it('redelivers every dead letter once the receiver recovers', async () => {
    const { owner, admin } = await tenantWithAdmin()
    const { path, endpoint } = await registerEndpoint(owner)
    receiver.answer(path, 500)
    const eventIds = [await changeMember(owner), await changeMember(owner)]
    await awaitDeadLetters(endpoint.id, owner.token, 2)

    receiver.answer(path, 200)
    const replayed = await replay(endpoint.id, admin.token)
    expect(replayed.statusCode, replayed.body).toBe(200)
    expect(replayed.json()).toEqual({ endpoint_id: endpoint.id, attempted: 2, redelivered: 2, still_failing: 0, remaining: 0 })
    expect((await listDeadLetters(endpoint.id, owner.token)).json().dead_letters).toEqual([])
    for (const eventId of eventIds) {
      expect((await deliveriesOf(eventId))[0]).toMatchObject({ status: 'succeeded', attempt_count: deliveryAttemptsMax + 1, last_status_code: 200 })
      const received = receiver.deliveriesTo(path).filter((delivery) => delivery.payload.id === eventId)
      expect(received).toHaveLength(deliveryAttemptsMax + 1)
      expect(received.at(-1)!.answeredWith).toBe(200)
      expect(received.at(-1)!.verifiedBy).toEqual([0])
    }
    const audited = await auditEvents(test, owner.tenantId, { action: 'webhook.dead_letter_replayed' })
    expect(audited).toHaveLength(2)
    expect(audited.every((row) => row.outputs.outcome === 'redelivered' && row.actor_id === admin.userId)).toBe(true)
    // Nothing left: a second replay attempts nothing.
    expect((await replay(endpoint.id, admin.token)).json()).toEqual({ endpoint_id: endpoint.id, attempted: 0, redelivered: 0, still_failing: 0, remaining: 0 })
  })

  it('keeps a still-failing dead letter with one more attempt, and counts mixed outcomes', async () => {
    const { owner, admin } = await tenantWithAdmin()
    const { path, endpoint } = await registerEndpoint(owner)
    receiver.answer(path, 500)
    await changeMember(owner)
    await changeMember(owner)
    const before = await awaitDeadLetters(endpoint.id, owner.token, 2)

    receiver.answer(path, 503)
    receiver.answerSequence(path, [200])
    const replayed = await replay(endpoint.id, admin.token)
    expect(replayed.json()).toEqual({ endpoint_id: endpoint.id, attempted: 2, redelivered: 1, still_failing: 1, remaining: 0 })
    const [left] = (await listDeadLetters(endpoint.id, owner.token)).json().dead_letters
    const original = before.find((row) => row.id === left.id)!
    expect(left).toMatchObject({ attempt_count: deliveryAttemptsMax + 1, last_error: 'HTTP 503', event_id: original.event_id, created_at: original.created_at })
    expect(Date.parse(left.last_attempt_at)).toBeGreaterThan(Date.parse(original.last_attempt_at as string))
    const delivery = (await deliveriesOf(left.event_id))[0]!
    expect(delivery).toMatchObject({ status: 'dead_lettered', attempt_count: deliveryAttemptsMax + 1, last_status_code: 503 })
  })

  it(`stops replaying a dead letter at ${replayAttemptsMax} attempts in all, and bounds each call to ${replayRowsMax} rows`, async () => {
    const { owner, admin } = await tenantWithAdmin()
    const { path, endpoint } = await registerEndpoint(owner)
    receiver.answer(path, 500)
    const eventId = await changeMember(owner)
    const [deadLetter] = await awaitDeadLetters(endpoint.id, owner.token, 1)
    await test.runtime.db.orm.execute(sql`update webhook_dead_letters set attempt_count = ${replayAttemptsMax} where id = ${deadLetter!.id as string}`)
    receiver.answer(path, 200)
    expect((await replay(endpoint.id, admin.token)).json()).toMatchObject({ attempted: 0, remaining: 0 })
    expect((await listDeadLetters(endpoint.id, owner.token)).json().dead_letters).toEqual([expect.objectContaining({ attempt_count: replayAttemptsMax })])

    // One more than a call takes: dead letters of the same event (as if from many deliveries).
    await test.runtime.db.orm.execute(sql`delete from webhook_dead_letters where id = ${deadLetter!.id as string}`)
    const [delivery] = await deliveriesOf(eventId)
    for (let index = 0; index <= replayRowsMax; index += 1) {
      await test.runtime.db.orm.execute(sql`
        insert into webhook_dead_letters (id, tenant_id, endpoint_id, delivery_id, event_id, event_type, last_error, attempt_count, created_at, last_attempt_at)
        values (${`wdl_BOUND${String(index).padStart(21, '0')}`}, ${owner.tenantId}, ${endpoint.id}, ${index === 0 ? delivery!.id : `whd_bound_${index}`},
                ${eventId}, 'member.changed', 'HTTP 500', 5, now(), now())`)
    }
    const received = receiver.deliveriesTo(path).length
    const bounded = await replay(endpoint.id, admin.token)
    expect(bounded.json()).toEqual({ endpoint_id: endpoint.id, attempted: replayRowsMax, redelivered: replayRowsMax, still_failing: 0, remaining: 1 })
    expect(receiver.deliveriesTo(path).length - received).toBe(replayRowsMax)
    expect((await replay(endpoint.id, admin.token)).json()).toMatchObject({ attempted: 1, redelivered: 1, remaining: 0 })
  })

  it('needs audit:write (admins and service tokens; the owner role has audit:read only)', async () => {
    const { owner, admin } = await tenantWithAdmin()
    const { endpoint } = await registerEndpoint(owner)
    expectError(await replay(endpoint.id, owner.token), 'auth_scope_insufficient')
    expectError(await replay(endpoint.id, (await issueApiKey(test, owner)).secret), 'auth_scope_insufficient')
    expect((await replay(endpoint.id, admin.token)).statusCode).toBe(200)
    const intruder = await tenantWithAdmin()
    expectError(await replay(endpoint.id, intruder.admin.token), 'webhook_endpoint_not_found')
    expectError(
      await test.request({ method: 'POST', url: `/v1/webhooks/${endpoint.id}/replay`, token: admin.token, payload: { only: 'some' } }),
      'request_body_invalid',
    )
  })

  it('replays the stored response for a repeated Idempotency-Key and refuses the key for another request', async () => {
    const { owner, admin } = await tenantWithAdmin()
    const { path, endpoint } = await registerEndpoint(owner)
    const other = await registerEndpoint(owner)
    receiver.answer(path, 500)
    await changeMember(owner)
    await awaitDeadLetters(endpoint.id, owner.token, 1)
    receiver.answer(path, 200)

    const key = `replay-${randomBytes(8).toString('hex')}`
    const first = await replay(endpoint.id, admin.token, { 'idempotency-key': key })
    expect(first.statusCode, first.body).toBe(200)
    expect(first.json()).toMatchObject({ attempted: 1, redelivered: 1 })
    expect(first.headers['idempotent-replayed']).toBeUndefined()
    const received = receiver.deliveriesTo(path).length

    const again = await replay(endpoint.id, admin.token, { 'idempotency-key': key })
    expect(again.statusCode).toBe(200)
    expect(again.json()).toEqual(first.json())
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(receiver.deliveriesTo(path)).toHaveLength(received)
    // Without the key the command runs again (and finds nothing left to do).
    expect((await replay(endpoint.id, admin.token)).json()).toMatchObject({ attempted: 0 })

    // The same key for a different command input (another endpoint's replay) is refused; a query the
    // route does not read changes nothing the command is asked, so it replays.
    expectError(await replay(other.endpoint.id, admin.token, { 'idempotency-key': key }), 'idempotency_key_reused')
    const withQuery = await test.request({ method: 'POST', url: `/v1/webhooks/${endpoint.id}/replay?again=1`, token: admin.token, headers: { 'idempotency-key': key }, payload: {} })
    expect(withQuery.headers['idempotent-replayed']).toBe('true')
    // Keys are tenant-scoped: another tenant's identical key is its own.
    const elsewhere = await tenantWithAdmin()
    const theirs = await registerEndpoint(elsewhere.owner)
    expect((await replay(theirs.endpoint.id, elsewhere.admin.token, { 'idempotency-key': key })).json()).toMatchObject({ endpoint_id: theirs.endpoint.id })

    for (const bad of ['', 'k'.repeat(256), 'has space', 'nön-ascii']) {
      const response = await replay(endpoint.id, admin.token, { 'idempotency-key': bad })
      expect(response.statusCode, `key ${JSON.stringify(bad)}`).toBe(400)
      expect(response.json().error.code).toBe('request_params_invalid')
    }
    expect((await replay(endpoint.id, admin.token, { 'idempotency-key': 'k'.repeat(255) })).statusCode).toBe(200)
  })
})

describe('fan-out jobs', () => {
  it('records an event that no enabled endpoint takes without queuing a fan-out job, and queues one once an endpoint takes its type', async () => {
    const idle = await createWebhookTestApp({ workers: false })
    try {
      const owner = await signupOwner(idle)
      const fanOutJobs = (eventId: string) => idle.unfinishedJobs('webhook-fanout', 'event_ids', eventId)

      const noEndpoint = await changeMemberOf(idle, owner)
      expect(await fanOutJobs(noEndpoint)).toBe(0)

      await registerWebhook(idle, receiver, owner, { event_types: ['payment_intent.created'] })
      const otherType = await changeMemberOf(idle, owner)
      expect(await fanOutJobs(otherType)).toBe(0)

      const { endpoint } = await registerWebhook(idle, receiver, owner, { event_types: ['member.changed'] })
      const taken = await changeMemberOf(idle, owner)
      expect(await fanOutJobs(taken)).toBe(1)

      // A batch (a normalization run's events) queues its jobs when an endpoint takes any of its types.
      const recorder = createEventRecorder({ db: idle.runtime.db, ids: createIdSource(), clock: systemClock, subscriber: createWebhookSubscriber({ jobs: idle.runtime.jobs }) })
      const recordBatch = async (types: EventType[]) => {
        await idle.runtime.db.transaction((tx) => recorder.recordMany(tx, owner.tenantId, types.map((type) => ({ type, payload: {}, auditEventId: 'aev_test' }))))
        const [row] = await queryRows<{ id: string }>(idle.runtime.db.orm, sql`select id from events where tenant_id = ${owner.tenantId} order by id desc limit 1`)
        return fanOutJobs(row!.id)
      }
      expect(await recordBatch(['ledger.transaction.created', 'ledger.transaction.created'])).toBe(0)
      expect(await recordBatch(['ledger.transaction.created', 'member.changed'])).toBe(1)

      const disable = await idle.request({ method: 'PATCH', url: `/v1/webhooks/${endpoint.id}`, token: owner.token, payload: { status: 'disabled' } })
      expect(disable.statusCode, disable.body).toBe(200)
      const disabled = await changeMemberOf(idle, owner)
      expect(await fanOutJobs(disabled)).toBe(0)

      // Every event is recorded all the same.
      const [recorded] = await queryRows<{ n: number }>(
        idle.runtime.db.orm,
        sql`select count(*)::int as n from events where id = any(${sql.param([noEndpoint, otherType, taken, disabled])}::text[])`,
      )
      expect(recorded?.n).toBe(4)
    } finally {
      await idle.close()
    }
  })

  it('parks, as a dead letter, an event recorded before its endpoint was disabled whose fan-out runs after the disable', async () => {
    const idle = await createWebhookTestApp({ workers: false })
    try {
      const owner = await signupOwner(idle)
      const admin = await addMember(idle, owner, 'admin')
      const disabled = await registerWebhook(idle, receiver, owner)
      const enabled = await registerWebhook(idle, receiver, owner)
      const reenabled = await registerWebhook(idle, receiver, owner)
      const setStatus = async (endpointId: string, status: 'enabled' | 'disabled') => {
        const response = await idle.request({ method: 'PATCH', url: `/v1/webhooks/${endpointId}`, token: owner.token, payload: { status } })
        expect(response.statusCode, response.body).toBe(200)
      }
      // Recorded while every endpoint is enabled; no worker runs, so its fan-out waits.
      const eventId = await changeMemberOf(idle, owner)
      expect(await idle.unfinishedJobs('webhook-fanout', 'event_ids', eventId)).toBe(1)
      await setStatus(disabled.endpoint.id, 'disabled')
      await setStatus(disabled.endpoint.id, 'disabled') // disabling again keeps the first instant
      await setStatus(reenabled.endpoint.id, 'disabled')
      await setStatus(reenabled.endpoint.id, 'enabled')
      // Recorded while the endpoint is disabled: it gets nothing, not even a dead letter.
      const afterDisable = await changeMemberOf(idle, owner)

      await idle.runtime.startWorkers()
      const byEndpoint = async (id: string) => (await deliveryStates(idle, id)).reduce<Record<string, string>>((states, row) => ({ ...states, [row.endpoint_id]: row.status }), {})
      await expect.poll(async () => (await byEndpoint(eventId))[enabled.endpoint.id], poll).toBe('succeeded')
      await expect.poll(async () => (await byEndpoint(eventId))[reenabled.endpoint.id], poll).toBe('succeeded')
      await expect.poll(async () => (await byEndpoint(afterDisable))[enabled.endpoint.id], poll).toBe('succeeded')
      expect(await byEndpoint(eventId)).toEqual({ [disabled.endpoint.id]: 'dead_lettered', [enabled.endpoint.id]: 'succeeded', [reenabled.endpoint.id]: 'succeeded' })
      expect(Object.keys(await byEndpoint(afterDisable))).not.toContain(disabled.endpoint.id)
      expect(receiver.deliveriesTo(disabled.path)).toEqual([])

      const listed = await idle.request({ method: 'GET', url: deadLettersUrl(disabled.endpoint.id), token: owner.token })
      expect(listed.json().dead_letters).toEqual([
        expect.objectContaining({ event_id: eventId, event_type: 'member.changed', attempt_count: 0, last_error: 'endpoint disabled before delivery' }),
      ])
      const [audited] = await auditEvents(idle, owner.tenantId, { action: 'webhook.delivery_dead_lettered' })
      expect(audited).toMatchObject({ actor_type: 'system', actor_id: 'webhook-fanout', outputs: { endpoint_id: disabled.endpoint.id, event_id: eventId, attempt_count: 0 } })

      // Nothing is lost: enabled again, the endpoint gets it by replay.
      await setStatus(disabled.endpoint.id, 'enabled')
      const replayed = await idle.request({ method: 'POST', url: `/v1/webhooks/${disabled.endpoint.id}/replay`, token: admin.token, payload: {} })
      expect(replayed.json()).toMatchObject({ attempted: 1, redelivered: 1, still_failing: 0 })
      expect(receiver.deliveriesTo(disabled.path).map((delivery) => delivery.payload.id)).toEqual([eventId])
    } finally {
      await idle.close()
    }
  })

  it('migration 0024 gives an endpoint disabled before 0022 its last change as disabled_at, so its fan-out parks the event instead of dropping it', async () => {
    const idle = await createWebhookTestApp({ workers: false })
    try {
      const owner = await signupOwner(idle)
      const legacy = await registerWebhook(idle, receiver, owner)
      const enabled = await registerWebhook(idle, receiver, owner)
      const eventId = await changeMemberOf(idle, owner)
      const disabled = await idle.request({ method: 'PATCH', url: `/v1/webhooks/${legacy.endpoint.id}`, token: owner.token, payload: { status: 'disabled' } })
      expect(disabled.statusCode, disabled.body).toBe(200)
      // As an endpoint disabled before migration 0022 added the column: no disabled_at.
      await idle.runtime.db.orm.execute(sql`update webhook_endpoints set disabled_at = null where tenant_id = ${owner.tenantId} and id = ${legacy.endpoint.id}`)

      const migration = readFileSync(new URL('../../../src/platform/db/migrations/0024_webhook_endpoints_disabled_at_backfill.sql', import.meta.url), 'utf8')
      await idle.runtime.db.orm.execute(sql.raw(migration))
      const endpoints = await queryRows<{ id: string; disabled_at_is_last_change: boolean | null }>(
        idle.runtime.db.orm,
        sql`select id, disabled_at = updated_at as disabled_at_is_last_change from webhook_endpoints where tenant_id = ${owner.tenantId}`,
      )
      expect(Object.fromEntries(endpoints.map((row) => [row.id, row.disabled_at_is_last_change]))).toEqual({ [legacy.endpoint.id]: true, [enabled.endpoint.id]: null })

      await idle.runtime.startWorkers()
      const byEndpoint = async () => (await deliveryStates(idle, eventId)).reduce<Record<string, string>>((states, row) => ({ ...states, [row.endpoint_id]: row.status }), {})
      await expect.poll(async () => (await byEndpoint())[enabled.endpoint.id], poll).toBe('succeeded')
      expect(await byEndpoint()).toEqual({ [legacy.endpoint.id]: 'dead_lettered', [enabled.endpoint.id]: 'succeeded' })
      expect(receiver.deliveriesTo(legacy.path)).toEqual([])
    } finally {
      await idle.close()
    }
  })

  it('hands a committed event over once: after its commit, or by the sweep when the process stopped before the relay', async () => {
    const idle = await createWebhookTestApp({ workers: false })
    try {
      const owner = await signupOwner(idle)
      await registerWebhook(idle, receiver, owner, { event_types: ['member.changed'] })
      const fanOutJobs = (eventId: string) => idle.unfinishedJobs('webhook-fanout', 'event_ids', eventId)
      const pendingOf = async (eventId: string) =>
        (await queryRows<{ pending: boolean }>(idle.runtime.db.orm, sql`select fanout_pending as pending from events where id = ${eventId}`))[0]?.pending

      // Through a command: handed over after the commit, before the command returns.
      const viaCommand = await changeMemberOf(idle, owner)
      expect(await fanOutJobs(viaCommand)).toBe(1)
      expect(await pendingOf(viaCommand)).toBe(false)

      // Committed with no relay after it (the process stopped): pending, no job yet.
      const recorder = createEventRecorder({ db: idle.runtime.db, ids: createIdSource(), clock: systemClock, subscriber: createWebhookSubscriber({ jobs: idle.runtime.jobs }) })
      const commitUnrelayed = async (type: EventType) => {
        let ids: string[] = []
        let taken = false
        await idle.runtime.db.transaction(async (tx) => {
          const sent = recorder.send(tx, owner.tenantId, [{ type, payload: {}, auditEventId: 'aev_test' }])
          ids = sent.ids
          taken = await sent.written
        })
        return { id: ids[0]!, taken }
      }
      const orphan = await commitUnrelayed('member.changed')
      expect(orphan.taken).toBe(true)
      expect(await pendingOf(orphan.id)).toBe(true)
      expect(await fanOutJobs(orphan.id)).toBe(0)
      // An event nobody takes is never pending.
      const untaken = await commitUnrelayed('payment_intent.created')
      expect(untaken.taken).toBe(false)
      expect(await pendingOf(untaken.id)).toBe(false)

      // The sweep leaves events younger than its bound to their relay, then hands the orphan over once.
      expect(await recorder.sweep({ olderThanMs: 3_600_000, limit: 500 })).toBe(0)
      expect(await fanOutJobs(orphan.id)).toBe(0)
      expect(await recorder.sweep({ olderThanMs: 0, limit: 500 })).toBeGreaterThanOrEqual(1)
      expect(await fanOutJobs(orphan.id)).toBe(1)
      expect(await pendingOf(orphan.id)).toBe(false)
      await recorder.relay(owner.tenantId, [orphan.id])
      expect(await recorder.sweep({ olderThanMs: 0, limit: 500 })).toBe(0)
      expect(await fanOutJobs(orphan.id)).toBe(1)

      // A relay and a sweep at once hand it over once between them.
      const raced = await commitUnrelayed('member.changed')
      await Promise.all([recorder.relay(owner.tenantId, [raced.id]), recorder.sweep({ olderThanMs: 0, limit: 500 }), recorder.relay(owner.tenantId, [raced.id])])
      expect(await fanOutJobs(raced.id)).toBe(1)
      expect(await pendingOf(raced.id)).toBe(false)
    } finally {
      await idle.close()
    }
  })
})
