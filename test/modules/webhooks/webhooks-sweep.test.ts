/**
 * Nothing is left pending forever: a delivery whose job was lost (deleted, its pg-boss retries spent, the
 * outcome of its attempt never written) is taken up by the delivery sweep, which queues its next attempt
 * or, once the five attempts are counted, dead-letters it; and a job that pg-boss runs again after it
 * counted its attempt counts no other (the backoff schedule holds).
 *
 * The retry base is an hour, so nothing becomes due on its own during a test: a test makes a delivery
 * overdue itself ("the hour passes"). The sweep runs every 100 ms and takes up deliveries overdue by a
 * second.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { queryRows } from '../../../src/platform/db/database.ts'
import { deliveryAttemptsMax } from '../../../src/modules/webhooks/domain/delivery.ts'
import { auditEvents } from '../../support/audit-log.ts'
import { signupOwner } from '../../support/harness.ts'
import { changeMember, createWebhookTestApp, deliveriesOf, makeOverdue, registerEndpoint, type WebhookTestApp } from '../../support/webhook-app.ts'
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.ts'

let test: WebhookTestApp
let receiver: WebhookReceiver
const poll = { timeout: 30_000, interval: 100 }

beforeAll(async () => {
  test = await createWebhookTestApp({
    workers: true,
    webhooks: { retryBaseSeconds: 3600, requestTimeoutMs: 2_000, deliverySweepIntervalMs: 100, deliveryOverdueSeconds: 1 },
  })
  receiver = await startWebhookReceiver()
})
afterAll(async () => {
  await receiver?.close()
  await test?.close()
})

/** An endpoint whose receiver answers 503, and an event whose first attempt has failed (its retry an hour away). */
async function firstAttemptFailed() {
  const owner = await signupOwner(test)
  const { path, endpoint } = await registerEndpoint(test, receiver, owner)
  receiver.answer(path, 503)
  const eventId = await changeMember(test, owner)
  await expect.poll(async () => (await deliveriesOf(test, eventId))[0]?.last_status_code ?? null, poll).toBe(503)
  const [delivery] = await deliveriesOf(test, eventId)
  expect(delivery).toMatchObject({ status: 'pending', attempt_count: 1 })
  return { owner, path, endpoint, eventId, deliveryId: delivery!.id }
}

describe('the delivery sweep', () => {
  it('queues the next attempt of a delivery whose job was lost, and it is delivered', async () => {
    const { path, eventId, deliveryId } = await firstAttemptFailed()
    // pg-boss loses the scheduled retry; the hour passes.
    expect(await test.loseJobs('webhook-deliver', 'delivery_id', deliveryId)).toBe(1)
    expect(await test.unfinishedJobs('webhook-deliver', 'delivery_id', deliveryId)).toBe(0)
    receiver.answer(path, 200)
    await makeOverdue(test, deliveryId)

    await expect.poll(async () => (await deliveriesOf(test, eventId))[0]?.status, poll).toBe('succeeded')
    expect((await deliveriesOf(test, eventId))[0]).toMatchObject({ attempt_count: 2, last_status_code: 200, last_error: null })
    expect(receiver.deliveriesTo(path).map((attempt) => attempt.answeredWith)).toEqual([503, 200])
    const [row] = await queryRows<{ next_attempt_at: Date | null }>(test.runtime.db.orm, sql`select next_attempt_at from webhook_deliveries where id = ${deliveryId}`)
    expect(row?.next_attempt_at).toBeNull()
  })

  it('takes up a delivery whose attempt an earlier release counted (clearing next_attempt_at) and whose outcome was lost', async () => {
    const { path, eventId, deliveryId } = await firstAttemptFailed()
    // The earlier release cleared next_attempt_at when it counted an attempt; its worker stopped then.
    expect(await test.loseJobs('webhook-deliver', 'delivery_id', deliveryId)).toBe(1)
    await test.runtime.db.orm.execute(sql`update webhook_deliveries set next_attempt_at = null, updated_at = now() - interval '1 hour' where id = ${deliveryId}`)
    receiver.answer(path, 200)

    await expect.poll(async () => (await deliveriesOf(test, eventId))[0]?.status, poll).toBe('succeeded')
    expect((await deliveriesOf(test, eventId))[0]).toMatchObject({ attempt_count: 2, last_status_code: 200 })
    expect(receiver.deliveriesTo(path).map((attempt) => attempt.answeredWith)).toEqual([503, 200])
  })

  it('reports a pass that fails to the log, and a later pass takes the delivery up', async () => {
    const { path, eventId, deliveryId } = await firstAttemptFailed()
    expect(await test.loseJobs('webhook-deliver', 'delivery_id', deliveryId)).toBe(1)
    // The sweep cannot move this delivery (a database fault), then it can again.
    const trigger = `webhook_test_sweep_${deliveryId.toLowerCase()}`
    await test.runtime.db.orm.execute(
      sql.raw(`create or replace function ${trigger}() returns trigger language plpgsql as $$ begin raise exception 'injected: the sweep cannot reschedule'; end $$`),
    )
    await test.runtime.db.orm.execute(sql.raw(`create trigger ${trigger} before update on webhook_deliveries for each row when (new.id = '${deliveryId}') execute function ${trigger}()`))
    const logged = vi.spyOn(test.runtime.logger, 'error')
    try {
      receiver.answer(path, 200)
      await test.runtime.db.orm.execute(sql`alter table webhook_deliveries disable trigger ${sql.identifier(trigger)}`)
      await makeOverdue(test, deliveryId)
      await test.runtime.db.orm.execute(sql`alter table webhook_deliveries enable trigger ${sql.identifier(trigger)}`)
      await expect
        .poll(() => logged.mock.calls.some(([fields, message]) => message === 'webhook delivery sweep failed; the next pass takes its deliveries up' && String((fields as { err?: { cause?: Error } }).err?.cause?.message) === 'injected: the sweep cannot reschedule'), poll)
        .toBe(true)
      expect((await deliveriesOf(test, eventId))[0]).toMatchObject({ status: 'pending', attempt_count: 1 })
    } finally {
      logged.mockRestore()
      await test.runtime.db.orm.execute(sql.raw(`drop trigger if exists ${trigger} on webhook_deliveries`))
      await test.runtime.db.orm.execute(sql.raw(`drop function if exists ${trigger}()`))
    }
    await expect.poll(async () => (await deliveriesOf(test, eventId))[0]?.status, poll).toBe('succeeded')
    expect(receiver.deliveriesTo(path).map((attempt) => attempt.answeredWith)).toEqual([503, 200])
  })

  it(`dead-letters a delivery whose ${deliveryAttemptsMax}th attempt was counted but whose outcome was never recorded, with no sixth attempt`, async () => {
    const { owner, path, endpoint, eventId, deliveryId } = await firstAttemptFailed()
    // As if attempts 2 to 5 had been made and the worker making the fifth stopped before recording its
    // outcome, and pg-boss's retries of that job ran out.
    expect(await test.loseJobs('webhook-deliver', 'delivery_id', deliveryId)).toBe(1)
    await test.runtime.db.orm.execute(sql`update webhook_deliveries set attempt_count = ${deliveryAttemptsMax} where id = ${deliveryId}`)
    receiver.answer(path, 200)
    await makeOverdue(test, deliveryId)

    await expect.poll(async () => (await deliveriesOf(test, eventId))[0]?.status, poll).toBe('dead_lettered')
    const listed = await test.request({ method: 'GET', url: `/v1/webhooks/${endpoint.id}/dead-letters`, token: owner.token })
    const [deadLetter] = listed.json().dead_letters
    expect(deadLetter).toMatchObject({ event_id: eventId, attempt_count: deliveryAttemptsMax })
    expect(deadLetter.last_error).toBe(`the outcome of attempt ${deliveryAttemptsMax} was never recorded (its worker stopped or failed); the attempt before it: HTTP 503`)
    const [audited] = await auditEvents(test, owner.tenantId, { action: 'webhook.delivery_dead_lettered' })
    expect(audited).toMatchObject({ actor_type: 'system', actor_id: 'webhook-delivery-sweep', outputs: { event_id: eventId, attempt_count: deliveryAttemptsMax } })
    // The receiver saw the first attempt only: nothing made a sixth.
    expect(receiver.deliveriesTo(path)).toHaveLength(1)
    expect(await test.unfinishedJobs('webhook-deliver', 'delivery_id', deliveryId)).toBe(0)
  })
})

describe('a deliver job that pg-boss runs again', () => {
  it('counts no second attempt when its first run counted one and then failed: the sweep makes the next when it is due', async () => {
    const owner = await signupOwner(test)
    const { path, endpoint } = await registerEndpoint(test, receiver, owner)
    // The outcome of this endpoint's attempts cannot be written (a database error after the request
    // left): the job fails after counting its attempt, and pg-boss runs it again 5 s later.
    expect(endpoint.id).toMatch(/^whe_[0-9A-Za-z]+$/)
    const trigger = `webhook_test_outcome_${endpoint.id.toLowerCase()}`
    await test.runtime.db.orm.execute(
      sql.raw(`create or replace function ${trigger}() returns trigger language plpgsql as $$ begin raise exception 'injected: the outcome could not be written'; end $$`),
    )
    await test.runtime.db.orm.execute(
      sql.raw(
        `create trigger ${trigger} before update on webhook_deliveries for each row
           when (new.endpoint_id = '${endpoint.id}' and new.last_status_code is distinct from old.last_status_code) execute function ${trigger}()`,
      ),
    )
    let eventId = ''
    let deliveryId = ''
    try {
      eventId = await changeMember(test, owner)
      await expect.poll(() => receiver.deliveriesTo(path).length, poll).toBe(1)
      deliveryId = (await deliveriesOf(test, eventId))[0]!.id
      // The job fails, is run again by pg-boss, and finishes: its attempt was counted already. (Meanwhile
      // the sweep, every 100 ms, leaves the delivery alone: its attempt is not overdue.)
      await expect.poll(() => test.unfinishedJobs('webhook-deliver', 'delivery_id', deliveryId), poll).toBe(0)
      const [retried] = await queryRows<{ retries: number }>(
        test.runtime.db.orm,
        sql`select max(retry_count)::int as retries from ${sql.identifier(test.jobSchema)}.job where name = 'webhook-deliver' and data->>'delivery_id' = ${deliveryId}`,
      )
      expect(retried?.retries).toBeGreaterThanOrEqual(1)
      expect((await deliveriesOf(test, eventId))[0]).toMatchObject({ status: 'pending', attempt_count: 1, last_status_code: null })
      expect(receiver.deliveriesTo(path)).toHaveLength(1)
    } finally {
      await test.runtime.db.orm.execute(sql.raw(`drop trigger if exists ${trigger} on webhook_deliveries`))
      await test.runtime.db.orm.execute(sql.raw(`drop function if exists ${trigger}()`))
    }

    // The attempt counts as lost when its failure would have made the next one due (an hour later):
    // then the sweep queues attempt 2.
    await makeOverdue(test, deliveryId)
    await expect.poll(async () => (await deliveriesOf(test, eventId))[0]?.status, poll).toBe('succeeded')
    expect((await deliveriesOf(test, eventId))[0]).toMatchObject({ attempt_count: 2, last_status_code: 200 })
    expect(receiver.deliveriesTo(path)).toHaveLength(2)
  })
})

describe('a fan-out job whose retries run out', () => {
  it('hands its events back to the outbox, whose sweep fans them out again once the fault is gone; the failure is logged', async () => {
    const owner = await signupOwner(test)
    const { path, endpoint } = await registerEndpoint(test, receiver, owner)
    // No delivery of this endpoint can be written (a fault that outlasts every retry of the fan-out).
    const trigger = `webhook_test_fanout_${endpoint.id.toLowerCase()}`
    await test.runtime.db.orm.execute(
      sql.raw(`create or replace function ${trigger}() returns trigger language plpgsql as $$ begin raise exception 'injected: no delivery can be written'; end $$`),
    )
    await test.runtime.db.orm.execute(
      sql.raw(`create trigger ${trigger} before insert on webhook_deliveries for each row when (new.endpoint_id = '${endpoint.id}') execute function ${trigger}()`),
    )
    const logged = vi.spyOn(test.runtime.logger, 'error')
    const fanoutJobs = (eventId: string, states: readonly string[]) =>
      queryRows<{ id: string; state: string }>(
        test.runtime.db.orm,
        sql`select id, state from ${sql.identifier(test.jobSchema)}.job
             where name = 'webhook-fanout' and data->'event_ids' @> jsonb_build_array(${eventId}::text) and state::text = any(${sql.param([...states])}::text[])`,
      )
    let eventId = ''
    try {
      eventId = await changeMember(test, owner)
      // The first attempt fails and pg-boss schedules a retry; as if the others had failed too, the next is the last.
      await expect.poll(async () => (await fanoutJobs(eventId, ['retry'])).length, poll).toBe(1)
      await test.runtime.db.orm.execute(
        sql`update ${sql.identifier(test.jobSchema)}.job set retry_count = retry_limit, start_after = now()
             where name = 'webhook-fanout' and data->'event_ids' @> jsonb_build_array(${eventId}::text) and state = 'retry'`,
      )
      await expect.poll(async () => (await fanoutJobs(eventId, ['failed'])).length, poll).toBe(1)
      expect(logged).toHaveBeenCalledWith(
        expect.objectContaining({ err: expect.objectContaining({ cause: expect.objectContaining({ message: 'injected: no delivery can be written' }) }) }),
        `webhook fan-out of tenant ${owner.tenantId} failed on its last attempt; 1 of its 1 events go back to the outbox, whose sweep fans them out again`,
      )
      expect(await deliveriesOf(test, eventId)).toEqual([])
    } finally {
      logged.mockRestore()
      await test.runtime.db.orm.execute(sql.raw(`drop trigger if exists ${trigger} on webhook_deliveries`))
      await test.runtime.db.orm.execute(sql.raw(`drop function if exists ${trigger}()`))
    }

    // The outbox's sweep hands the event over again: a new fan-out job, with retries of its own, delivers it.
    await expect.poll(() => receiver.deliveriesTo(path).length, { ...poll, timeout: 60_000 }).toBe(1)
    await expect.poll(async () => (await deliveriesOf(test, eventId))[0]?.status, poll).toBe('succeeded')
    const [pending] = await queryRows<{ fanout_pending: boolean }>(test.runtime.db.orm, sql`select fanout_pending from events where tenant_id = ${owner.tenantId} and id = ${eventId}`)
    expect(pending?.fanout_pending).toBe(false)
  }, 90_000)
})
