/**
 * Concurrent replays of one endpoint's dead letters, without an Idempotency-Key (issue 13, item 4): a
 * dead letter is claimed by one replay at a time, so parallel calls never have two requests for one
 * event in flight and a recovered receiver gets each event once; against a failing receiver
 * attempt_count stops at the cap however many calls race; and every attempt writes one
 * webhook.dead_letter_replayed audit event. On PostgreSQL the calls run in parallel on the pool; on
 * PGlite they interleave on its one connection, and the same must hold.
 *
 * The receiver here answers after a delay and counts, per event, the requests in flight at once: that
 * is what "claimed by one replay at a time" means on the wire.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../../../src/platform/db/database.ts'
import { deliveryAttemptsMax, replayAttemptsMax } from '../../../src/modules/webhooks/domain/delivery.ts'
import { auditEvents } from '../../support/audit-log.ts'
import { addMember, engineName, signupOwner, type TenantOwner } from '../../support/harness.ts'
import { changeMember, createWebhookTestApp, type WebhookTestApp } from '../../support/webhook-app.ts'

const deadLettersMade = 16
const parallelCalls = 16
const poll = { timeout: 60_000, interval: 200 }

interface SlowReceiver {
  url(path: string): string
  /** Status and delay of the answers to `path` from now on. */
  answer(path: string, status: number, delayMs: number): void
  /** Event ids (the webhook-id header) of the requests to `path`, in arrival order. */
  received(path: string): string[]
  /** The most requests for one event to `path` that were in flight at the same time. */
  mostInFlight(path: string): number
  close(): Promise<void>
}

async function startSlowReceiver(): Promise<SlowReceiver> {
  const answers = new Map<string, { status: number; delayMs: number }>()
  const received = new Map<string, string[]>()
  const inFlight = new Map<string, number>()
  const most = new Map<string, number>()
  const server: Server = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      const path = (request.url ?? '/').split('?')[0]!
      const key = `${path} ${String(request.headers['webhook-id'])}`
      received.set(path, [...(received.get(path) ?? []), String(request.headers['webhook-id'])])
      inFlight.set(key, (inFlight.get(key) ?? 0) + 1)
      most.set(path, Math.max(most.get(path) ?? 0, inFlight.get(key)!))
      const { status, delayMs } = answers.get(path) ?? { status: 200, delayMs: 0 }
      setTimeout(() => {
        inFlight.set(key, inFlight.get(key)! - 1)
        response.writeHead(status).end()
      }, delayMs)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    answer: (path, status, delayMs) => void answers.set(path, { status, delayMs }),
    received: (path) => received.get(path) ?? [],
    mostInFlight: (path) => most.get(path) ?? 0,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

let test: WebhookTestApp
let receiver: SlowReceiver
let paths = 0

beforeAll(async () => {
  test = await createWebhookTestApp({ workers: true, webhooks: { retryBaseSeconds: 0.05, requestTimeoutMs: 5_000 } })
  receiver = await startSlowReceiver()
})
afterAll(async () => {
  await receiver?.close()
  await test?.close()
})

interface ReplayAnswer {
  attempted: number
  redelivered: number
  still_failing: number
  remaining: number
}

const replay = async (endpointId: string, token: string): Promise<ReplayAnswer> => {
  const response = await test.request({ method: 'POST', url: `/v1/webhooks/${endpointId}/replay`, token, payload: {} })
  expect(response.statusCode, response.body).toBe(200)
  return response.json() as ReplayAnswer
}
/** `parallelCalls` replay calls at once, none with an Idempotency-Key. */
const replayInParallel = (endpointId: string, token: string) => Promise.all(Array.from({ length: parallelCalls }, () => replay(endpointId, token)))
const sum = (answers: readonly ReplayAnswer[], field: keyof ReplayAnswer) => answers.reduce((total, answer) => total + answer[field], 0)

async function replayAudits(tenantId: string): Promise<Array<{ entity_id: string; outcome: string; actor_type: string }>> {
  const events = await auditEvents(test, tenantId, { action: 'webhook.dead_letter_replayed' })
  return events.map((event) => ({ entity_id: event.entity_id, outcome: String(event.outputs.outcome), actor_type: event.actor_type }))
}

async function deadLetters(endpointId: string): Promise<Array<{ id: string; event_id: string; attempt_count: number }>> {
  return queryRows(test.runtime.db.orm, sql`select id, event_id, attempt_count from webhook_dead_letters where endpoint_id = ${endpointId} order by id`)
}

/** A tenant with an admin, an endpoint whose receiver fails, and `count` events dead-lettered on it after their automatic attempts. */
async function endpointWithDeadLetters(count: number) {
  const owner: TenantOwner = await signupOwner(test)
  const admin = await addMember(test, owner, 'admin')
  paths += 1
  const path = `/replay-race/${paths}`
  receiver.answer(path, 500, 0)
  const created = await test.request({ method: 'POST', url: '/v1/webhooks', token: owner.token, payload: { url: receiver.url(path) } })
  expect(created.statusCode, created.body).toBe(201)
  const endpointId = created.json().endpoint.id as string
  const eventIds: string[] = []
  for (let index = 0; index < count; index += 1) eventIds.push(await changeMember(test, owner))
  await expect.poll(async () => (await deadLetters(endpointId)).length, poll).toBe(count)
  return { owner, admin, path, endpointId, eventIds, before: receiver.received(path).length }
}

describe(`concurrent replay without an Idempotency-Key (${engineName()})`, () => {
  it(`sends each dead letter once when ${parallelCalls} replays race against a recovered receiver, and audits each attempt`, async () => {
    const { owner, admin, path, endpointId, eventIds, before } = await endpointWithDeadLetters(deadLettersMade)
    receiver.answer(path, 200, 100)

    const answers = await replayInParallel(endpointId, admin.token)
    expect(receiver.received(path).slice(before).sort()).toEqual([...eventIds].sort())
    expect(receiver.mostInFlight(path)).toBe(1)
    expect({ attempted: sum(answers, 'attempted'), redelivered: sum(answers, 'redelivered'), still_failing: sum(answers, 'still_failing') }).toEqual({
      attempted: deadLettersMade,
      redelivered: deadLettersMade,
      still_failing: 0,
    })
    expect(await deadLetters(endpointId)).toEqual([])
    const audits = await replayAudits(owner.tenantId)
    expect(audits).toHaveLength(deadLettersMade)
    expect(audits.every((audit) => audit.outcome === 'redelivered')).toBe(true)
    const deliveries = await queryRows<{ status: string; attempt_count: number }>(
      test.runtime.db.orm,
      sql`select status, attempt_count from webhook_deliveries where endpoint_id = ${endpointId}`,
    )
    expect(deliveries).toHaveLength(deadLettersMade)
    for (const delivery of deliveries) expect(delivery).toEqual({ status: 'succeeded', attempt_count: deliveryAttemptsMax + 1 })
  })

  it(`never passes ${replayAttemptsMax} attempts against a failing receiver when rounds of ${parallelCalls} replays race`, async () => {
    const { owner, admin, path, endpointId, eventIds, before } = await endpointWithDeadLetters(deadLettersMade)
    receiver.answer(path, 500, 20)
    // As if replayed until three attempts short of the cap (fewer rounds keep the calls under the credential's rate limit).
    const attemptsLeft = 3
    await test.runtime.db.orm.execute(sql`update webhook_dead_letters set attempt_count = ${replayAttemptsMax - attemptsLeft} where endpoint_id = ${endpointId}`)
    await test.runtime.db.orm.execute(sql`update webhook_deliveries set attempt_count = ${replayAttemptsMax - attemptsLeft} where endpoint_id = ${endpointId}`)

    // Every round attempts each dead letter under the cap at least once, so the rounds end by then.
    let attempted = 0
    for (let round = 0; round <= attemptsLeft; round += 1) {
      const answers = await replayInParallel(endpointId, admin.token)
      expect(sum(answers, 'redelivered')).toBe(0)
      for (const row of await deadLetters(endpointId)) expect(row.attempt_count, `dead letter ${row.id} after round ${round}`).toBeLessThanOrEqual(replayAttemptsMax)
      attempted += sum(answers, 'attempted')
      if (sum(answers, 'attempted') === 0) break
    }
    expect(attempted).toBe(deadLettersMade * attemptsLeft)
    expect((await deadLetters(endpointId)).map((row) => row.attempt_count)).toEqual(Array.from({ length: deadLettersMade }, () => replayAttemptsMax))
    expect((await replay(endpointId, admin.token))).toEqual({ endpoint_id: endpointId, attempted: 0, redelivered: 0, still_failing: 0, remaining: 0 })

    // The receiver saw exactly the attempts counted, one at a time per event, and each event up to the cap.
    const sent = receiver.received(path).slice(before)
    expect(sent).toHaveLength(attempted)
    expect(receiver.mostInFlight(path)).toBe(1)
    const perEvent = new Map<string, number>()
    for (const eventId of sent) perEvent.set(eventId, (perEvent.get(eventId) ?? 0) + 1)
    expect([...perEvent.keys()].sort()).toEqual([...eventIds].sort())
    expect(new Set(perEvent.values())).toEqual(new Set([attemptsLeft]))

    // One audit event per attempt, no more and no fewer.
    const audits = await replayAudits(owner.tenantId)
    expect(audits).toHaveLength(attempted)
    expect(audits.every((audit) => audit.outcome === 'still_failing')).toBe(true)
    const deliveries = await queryRows<{ attempt_count: number }>(test.runtime.db.orm, sql`select attempt_count from webhook_deliveries where endpoint_id = ${endpointId}`)
    expect(new Set(deliveries.map((delivery) => delivery.attempt_count))).toEqual(new Set([replayAttemptsMax]))
  }, 120_000)

  it('skips a dead letter another replay holds, and audits the lost outcome of an expired claim before attempting it again', async () => {
    const { owner, admin, path, endpointId } = await endpointWithDeadLetters(2)
    receiver.answer(path, 200, 0)
    const [held, abandoned] = await deadLetters(endpointId)
    // `held`: a replay is sending it now. `abandoned`: a replay counted an attempt, then stopped before its outcome.
    await test.runtime.db.orm.execute(sql`
      update webhook_dead_letters set claim_token = 'another-replay', claimed_until = now() + interval '1 hour' where id = ${held!.id}`)
    await test.runtime.db.orm.execute(sql`
      update webhook_dead_letters set claim_token = 'a-stopped-replay', claimed_until = now() - interval '1 second', attempt_count = attempt_count + 1
       where id = ${abandoned!.id}`)

    expect(await replay(endpointId, admin.token)).toEqual({ endpoint_id: endpointId, attempted: 1, redelivered: 1, still_failing: 0, remaining: 0 })
    expect(await deadLetters(endpointId)).toEqual([held])
    const audits = await replayAudits(owner.tenantId)
    expect(audits.map(({ entity_id, outcome, actor_type }) => ({ entity_id, outcome, actor_type })).sort((a, b) => a.outcome.localeCompare(b.outcome))).toEqual([
      { entity_id: abandoned!.id, outcome: 'outcome_lost', actor_type: 'system' },
      { entity_id: abandoned!.id, outcome: 'redelivered', actor_type: 'user' },
    ])
    const [delivery] = await queryRows<{ attempt_count: number }>(
      test.runtime.db.orm,
      sql`select d.attempt_count from webhook_deliveries d where d.event_id = ${abandoned!.event_id} and d.endpoint_id = ${endpointId}`,
    )
    // The automatic attempts and this replay's; the stopped replay's attempt was counted on the dead letter only (by hand above).
    expect(delivery!.attempt_count).toBe(deliveryAttemptsMax + 1)

    // Once the other replay's claim runs out, the dead letter is replayable again.
    await test.runtime.db.orm.execute(sql`update webhook_dead_letters set claimed_until = now() - interval '1 second' where id = ${held!.id}`)
    expect(await replay(endpointId, admin.token)).toMatchObject({ attempted: 1, redelivered: 1, remaining: 0 })
    expect(await deadLetters(endpointId)).toEqual([])
  })
})
