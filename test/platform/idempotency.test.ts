/**
 * Commands and their Idempotency-Key (src/platform/commands/command.ts, idempotency.ts) on the real
 * `idempotency_keys` table: a keyed command claims its key inside its own transaction and stores its
 * outcome in the same commit; a command that cannot run in one transaction reserves its key around its
 * work. Replay, reuse, concurrency, failure, stale reservations, tenancy and key bounds. The crash
 * between a commit and its response is in commands-crash.test.ts.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { commandFingerprint, createCommandRunner, type CommandRunner } from '../../src/platform/commands/command.ts'
import { reservationSecondsMax } from '../../src/platform/commands/idempotency.ts'
import { createIdempotencyStore } from '../../src/platform/commands/idempotency.store.pg.ts'
import { queryRows } from '../../src/platform/db/database.ts'
import type { CommandContext } from '../../src/kernel/context.ts'
import { AppError } from '../../src/kernel/errors.ts'
import { createTestApp, engineName, fixedClock, type TestApp } from '../support/harness.ts'

let test: TestApp
let commands: CommandRunner
const clock = fixedClock(new Date('2026-11-21T09:00:00.000Z'))
const store = createIdempotencyStore()

beforeAll(async () => {
  test = await createTestApp()
  const noEvents = { recordEach: async () => [], recordMany: async () => undefined, send: () => ({ ids: [], written: Promise.resolve(false) }), relay: async () => undefined, sweep: async () => 0 }
  commands = createCommandRunner({ db: test.runtime.db, clock, audit: { record: async () => ({ id: `aev_${randomUUID()}` }), send: () => ({ id: `aev_${randomUUID()}`, written: Promise.resolve() }), sendMany: (_tx, records) => ({ ids: records.map(() => `aev_${randomUUID()}`), written: Promise.resolve() }) }, events: noEvents, jobs: test.runtime.jobs, idempotency: store })
})
afterAll(async () => test?.close())

const newKey = () => `key-${randomBytes(8).toString('hex')}`
const context = (idempotencyKey?: string): CommandContext => ({ requestId: 'req_test', idempotencyKey })

/** A command that counts its executions (in a table, so a rolled-back run counts nothing) and answers with the count. */
function counter() {
  let calls = 0
  return {
    calls: () => calls,
    work: async () => {
      calls += 1
      return { outcome: { execution: calls, at: new Date('2026-11-21T09:00:00.000Z') } }
    },
  }
}

async function expectCode(promise: Promise<unknown>, code: string) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(AppError)
  expect((error as AppError).code).toBe(code)
}

const storedKeys = async (tenantId: string) =>
  (await queryRows<{ n: number }>(test.runtime.db.orm, sql`select count(*)::int as n from idempotency_keys where tenant_id = ${tenantId}`))[0]!.n

describe('commandFingerprint', () => {
  it('ignores key order and distinguishes the command and every input field', () => {
    const input = { endpointId: 'whe_1', body: { p: 1, q: [1, 2] } }
    expect(commandFingerprint('x.act', input)).toBe(commandFingerprint('x.act', { body: { q: [1, 2], p: 1 }, endpointId: 'whe_1' }))
    expect(commandFingerprint('x.other', input)).not.toBe(commandFingerprint('x.act', input))
    expect(commandFingerprint('x.act', { ...input, endpointId: 'whe_2' })).not.toBe(commandFingerprint('x.act', input))
    expect(commandFingerprint('x.act', { ...input, body: { p: 2, q: [1, 2] } })).not.toBe(commandFingerprint('x.act', input))
    expect(commandFingerprint('x.act', undefined)).not.toBe(commandFingerprint('x.act', input))
  })
})

describe('a keyed command, in its own transaction', () => {
  it('runs every time when no key is given, and stores nothing', async () => {
    const command = counter()
    const tenantId = randomUUID()
    await commands.run(context(), { name: 'test.count', tenantId, input: {} }, command.work)
    await commands.run(context(), { name: 'test.count', tenantId, input: {} }, command.work)
    expect(command.calls()).toBe(2)
    expect(await storedKeys(tenantId)).toBe(0)
  })

  it('replays the stored outcome for the same key and input, without running again; first run and replay are equal', async () => {
    const command = counter()
    const request = { name: 'test.count', tenantId: randomUUID(), input: { amount: '10.00' } }
    const key = newKey()
    const first = await commands.run(context(key), request, command.work)
    const again = await commands.run(context(key), request, command.work)
    // The outcome comes back as stored (JSON), the first time too: a Date is its ISO string both times.
    expect(first).toMatchObject({ outcome: { execution: 1, at: '2026-11-21T09:00:00.000Z' }, replayed: false })
    expect(again).toMatchObject({ outcome: { execution: 1, at: '2026-11-21T09:00:00.000Z' }, replayed: true, auditEventIds: [] })
    expect(command.calls()).toBe(1)
  })

  it('refuses the same key with another input (409 idempotency_key_reused)', async () => {
    const command = counter()
    const request = { name: 'test.count', tenantId: randomUUID(), input: { amount: '10.00' } }
    const key = newKey()
    await commands.run(context(key), request, command.work)
    await expectCode(commands.run(context(key), { ...request, input: { amount: '10.01' } }, command.work), 'idempotency_key_reused')
    expect(command.calls()).toBe(1)
  })

  it('keeps keys apart by credential: two keys or members of one tenant sending the same key never share an outcome', async () => {
    const command = counter()
    const tenantId = randomUUID()
    const request = { name: 'test.count', tenantId, input: { amount: '10.00' } }
    const key = newKey()
    const as = (type: 'api_key' | 'user', credentialId: string): CommandContext => ({
      requestId: 'req_test',
      idempotencyKey: key,
      principal: { id: credentialId, type, tenantId, scopes: [], credentialId, rateLimit: { perMinute: 60, burst: 60 } },
    })
    const firstKey = await commands.run(as('api_key', 'key_a'), request, command.work)
    const otherKey = await commands.run(as('api_key', 'key_b'), request, command.work)
    const member = await commands.run(as('user', 'usr_a'), { ...request, input: { amount: '99.00' } }, command.work)
    expect([firstKey.replayed, otherKey.replayed, member.replayed]).toEqual([false, false, false])
    expect(command.calls()).toBe(3)
    // The same credential with the same key replays its own outcome.
    expect(await commands.run(as('api_key', 'key_b'), request, command.work)).toMatchObject({ replayed: true, outcome: otherKey.outcome })
    expect(command.calls()).toBe(3)
  })

  it('keeps keys apart by tenant and by command', async () => {
    const command = counter()
    const key = newKey()
    const tenantId = randomUUID()
    await commands.run(context(key), { name: 'test.count', tenantId, input: {} }, command.work)
    await commands.run(context(key), { name: 'test.count', tenantId: randomUUID(), input: { other: true } }, command.work)
    await commands.run(context(key), { name: 'test.other', tenantId, input: { other: true } }, command.work)
    expect(command.calls()).toBe(3)
  })

  it('stores nothing when the command fails (the claim rolls back with it), so a retry runs it afresh', async () => {
    const request = { name: 'test.count', tenantId: randomUUID(), input: {} }
    const key = newKey()
    await expectCode(
      commands.run(context(key), request, async () => {
        throw new AppError('validation_failed')
      }),
      'validation_failed',
    )
    expect(await storedKeys(request.tenantId)).toBe(0)
    const command = counter()
    expect(await commands.run(context(key), request, command.work)).toMatchObject({ replayed: false })
    expect(command.calls()).toBe(1)
  })

  it('runs an identical request sent at the same moment once: the second waits for the first claim, then replays it', async () => {
    const request = { name: 'test.count', tenantId: randomUUID(), input: {} }
    const key = newKey()
    let runs = 0
    const work = async () => {
      runs += 1
      // Long enough that, on PostgreSQL, the second request reaches the key while the first holds it.
      await new Promise((resolve) => setTimeout(resolve, 200))
      return { outcome: { run: runs } }
    }
    const results = await Promise.all([commands.run(context(key), request, work), commands.run(context(key), request, work)])
    expect(runs).toBe(1)
    expect(results.map((result) => result.replayed).sort()).toEqual([false, true])
    expect(results.map((result) => result.outcome)).toEqual([{ run: 1 }, { run: 1 }])
    expect(await storedKeys(request.tenantId)).toBe(1)
  })

  it.each([
    ['an empty key', ''],
    ['a key of 256 characters', 'k'.repeat(256)],
    ['a key with a space', 'two words'],
    ['a key with a control character', 'tab\there'],
    ['a key with non-ASCII characters', 'clé'],
  ])('refuses %s with 400 request_params_invalid', async (_label, key) => {
    await expectCode(commands.run(context(key), { name: 'test.count', tenantId: randomUUID(), input: {} }, counter().work), 'request_params_invalid')
  })

  it('accepts a key of 255 visible characters', async () => {
    const key = `${'~'.repeat(199)}${randomBytes(28).toString('hex')}`
    expect(key).toHaveLength(255)
    expect(await commands.run(context(key), { name: 'test.count', tenantId: randomUUID(), input: {} }, counter().work)).toMatchObject({ replayed: false })
  })
})

describe('a reserved command (network calls between transactions)', () => {
  it('replays, refuses another input, and leaves no key when it fails', async () => {
    const request = { name: 'test.reserved', tenantId: randomUUID(), input: { n: 1 } }
    const key = newKey()
    let calls = 0
    const work = async () => ({ call: ++calls })
    expect(await commands.runReserved(context(key), request, work)).toEqual({ outcome: { call: 1 }, replayed: false })
    expect(await commands.runReserved(context(key), request, work)).toEqual({ outcome: { call: 1 }, replayed: true })
    await expectCode(commands.runReserved(context(key), { ...request, input: { n: 2 } }, work), 'idempotency_key_reused')
    const failing = { ...request, tenantId: randomUUID() }
    await expectCode(
      commands.runReserved(context(key), failing, async () => {
        throw new AppError('validation_failed')
      }),
      'validation_failed',
    )
    expect(await storedKeys(failing.tenantId)).toBe(0)
    expect(calls).toBe(1)
  })

  it('answers 409 idempotency_request_in_progress to an identical request while the first still runs', async () => {
    const request = { name: 'test.reserved', tenantId: randomUUID(), input: {} }
    const key = newKey()
    let release!: () => void
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    const first = commands.runReserved(context(key), request, async () => {
      await gate
      return { done: true }
    })
    await expect.poll(async () => storedKeys(request.tenantId)).toBe(1)
    await expectCode(commands.runReserved(context(key), request, async () => ({ done: false })), 'idempotency_request_in_progress')
    release()
    expect(await first).toEqual({ outcome: { done: true }, replayed: false })
    expect(await commands.runReserved(context(key), request, async () => ({ done: false }))).toEqual({ outcome: { done: true }, replayed: true })
  })

  it(`takes over a reservation abandoned for more than ${reservationSecondsMax} s (its process died)`, async () => {
    const request = { name: 'test.reserved', tenantId: randomUUID(), input: {} }
    const key = newKey()
    const ref = { tenantId: request.tenantId, scope: `command:${request.name}`, key }
    expect(await store.reserve(test.runtime.db.orm, ref, commandFingerprint(request.name, request.input), clock.now())).toBe(true)
    await expectCode(commands.runReserved(context(key), request, async () => ({ ran: true })), 'idempotency_request_in_progress')
    clock.advance(reservationSecondsMax * 1000 + 1)
    try {
      expect(await commands.runReserved(context(key), request, async () => ({ ran: true }))).toEqual({ outcome: { ran: true }, replayed: false })
    } finally {
      clock.advance(-(reservationSecondsMax * 1000 + 1))
    }
  })
})

describe('on the wire (policy compose)', () => {
  it(`replays a composed version for a repeated key and refuses the key for another body (${engineName()})`, async () => {
    const { signupOwner } = await import('../support/harness.ts')
    const owner = await signupOwner(test)
    const key = newKey()
    const body = { content: { version: 2, rules: [{ id: 'all', applies_to: ['any'], when: {}, execute: 'confirm' }] } }
    const compose = (payload: unknown) =>
      test.request({ method: 'POST', url: `/v1/policy/${owner.tenantId}/compose`, token: owner.token, headers: { 'idempotency-key': key }, payload: payload as object })
    const first = await compose(body)
    expect(first.statusCode, first.body).toBe(201)
    expect(first.headers['idempotent-replayed']).toBeUndefined()
    const again = await compose(body)
    expect(again.statusCode).toBe(201)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.json()).toEqual(first.json())
    const versions = (await test.request({ method: 'GET', url: `/v1/policy/${owner.tenantId}/versions`, token: owner.token })).json().versions
    expect(versions.map((version: { version: number }) => version.version).sort()).toEqual([1, 2])
    const other = await compose({ ...body, quorum_required: 2 })
    expect(other.statusCode).toBe(409)
    expect(other.json().error.code).toBe('idempotency_key_reused')
  })
})
