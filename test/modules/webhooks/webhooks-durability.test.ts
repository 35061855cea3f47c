/**
 * Nothing is lost across a restart: the event's fan-out job and a scheduled retry live in the database
 * (pg-boss, in the same transaction as the change), so a new process on the same database finishes the
 * delivery. PostgreSQL only: the in-memory PGlite database of a test dies with its process and cannot be
 * reopened by a second runtime.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupOwner, testDatabaseUrl } from '../../support/harness.ts'
import { changeMember, createWebhookTestApp, deliveriesOf, registerEndpoint, type WebhookTestApp } from '../../support/webhook-app.ts'
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.ts'

const onPostgres = testDatabaseUrl() !== undefined
const poll = { timeout: 30_000, interval: 100 }

let receiver: WebhookReceiver
const opened: WebhookTestApp[] = []

beforeAll(async () => {
  receiver = await startWebhookReceiver()
})
afterAll(async () => {
  for (const app of opened) await app.close()
  await receiver?.close()
})

async function open(options: Parameters<typeof createWebhookTestApp>[0]): Promise<WebhookTestApp> {
  const app = await createWebhookTestApp(options)
  opened.push(app)
  return app
}

describe.skipIf(!onPostgres)('webhook delivery across a restart (PostgreSQL only: in-memory PGlite cannot be reopened)', () => {
  it('delivers an event recorded while no worker ran, once a new process starts its workers', async () => {
    const first = await open({ workers: false })
    const owner = await signupOwner(first)
    const { path, endpoint } = await registerEndpoint(first, receiver, owner)
    const eventId = await changeMember(first, owner)
    expect(await first.unfinishedJobs('webhook-fanout', 'event_ids', eventId)).toBe(1)
    await first.close()

    const second = await open({ workers: true, jobSchema: first.jobSchema })
    await expect.poll(async () => (await deliveriesOf(second, eventId))[0]?.status, poll).toBe('succeeded')
    expect((await deliveriesOf(second, eventId))[0]).toMatchObject({ endpoint_id: endpoint.id, attempt_count: 1 })
    const received = receiver.deliveriesTo(path)
    expect(received).toHaveLength(1)
    expect(received[0]!.headers['webhook-id']).toBe(eventId)
    expect(received[0]!.verifiedBy).toEqual([0])
  })

  it('resumes a pending retry after the worker process stops between attempts', async () => {
    // The retry waits an hour, so no timing decides whether the first process gets to it before it stops.
    const webhooks = { retryBaseSeconds: 3600 }
    const first = await open({ workers: true, webhooks })
    const owner = await signupOwner(first)
    const { path } = await registerEndpoint(first, receiver, owner)
    receiver.answer(path, 503)
    const eventId = await changeMember(first, owner)
    await expect.poll(async () => (await deliveriesOf(first, eventId))[0]?.last_status_code ?? null, poll).toBe(503)
    // The first attempt failed and its retry is scheduled; stop everything before it runs.
    await first.close()

    receiver.answer(path, 200)
    const second = await open({ workers: true, jobSchema: first.jobSchema, webhooks })
    const [pending] = await deliveriesOf(second, eventId)
    expect(pending).toMatchObject({ status: 'pending', attempt_count: 1, last_status_code: 503 })
    // The hour passes: the retry the first process scheduled is due, and the second process runs it.
    expect(await second.startScheduledJobsNow('webhook-deliver', 'delivery_id', pending!.id)).toBe(1)
    await expect.poll(async () => (await deliveriesOf(second, eventId))[0]?.status, poll).toBe('succeeded')
    expect((await deliveriesOf(second, eventId))[0]).toMatchObject({ attempt_count: 2, last_status_code: 200, last_error: null })
    expect(receiver.deliveriesTo(path).map((delivery) => delivery.answeredWith)).toEqual([503, 200])
    expect(new Set(receiver.deliveriesTo(path).map((delivery) => delivery.headers['webhook-id']))).toEqual(new Set([eventId]))
  })
})

describe.skipIf(onPostgres)('webhook delivery across a restart on PGlite', () => {
  it.skip('needs PostgreSQL: run with TEST_DATABASE_URL (an in-memory PGlite database cannot be reopened by a second runtime)', () => {})
})
