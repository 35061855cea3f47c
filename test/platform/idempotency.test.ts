/**
 * The reusable Idempotency-Key helper (src/platform/http/idempotency.ts) on the real `idempotency_keys` table:
 * replay, reuse, concurrency, failure, stale reservations, tenancy and key bounds. The HTTP behaviour on
 * a route is in webhooks-delivery.test.ts.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createIdempotency, requestFingerprint, reservationSecondsMax, type Idempotency, type StoredResponse } from '../../src/platform/http/idempotency.ts'
import { createIdempotencyStore } from '../../src/platform/http/idempotency.store.pg.ts'
import { AppError } from '../../src/kernel/errors.ts'
import { createTestApp, fixedClock, type TestApp } from '../support/harness.ts'

let test: TestApp
let idempotency: Idempotency
const clock = fixedClock(new Date('2026-11-21T09:00:00.000Z'))
const store = createIdempotencyStore()

beforeAll(async () => {
  test = await createTestApp()
  idempotency = createIdempotency({ db: test.runtime.db, clock, store })
})
afterAll(async () => test?.close())

const newKey = () => `key-${randomBytes(8).toString('hex')}`
const fingerprint = (body: unknown) => requestFingerprint({ method: 'POST', route: '/v1/things/:id/act', params: { id: 'a' }, query: {}, body })

/** A command that counts its executions and answers with the count. */
function counter(): { calls: () => number; work: () => Promise<StoredResponse> } {
  let calls = 0
  return {
    calls: () => calls,
    work: async () => {
      calls += 1
      return { status: 201, body: { execution: calls } }
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

describe('requestFingerprint', () => {
  it('ignores key order and distinguishes method, route, parameters, query and body', () => {
    const base = { method: 'POST', route: '/v1/x/:id', params: { id: '1' }, query: { a: '1', b: '2' }, body: { p: 1, q: [1, 2] } }
    expect(requestFingerprint(base)).toBe(requestFingerprint({ ...base, query: { b: '2', a: '1' }, body: { q: [1, 2], p: 1 } }))
    for (const changed of [
      { method: 'PUT' },
      { route: '/v1/y/:id' },
      { params: { id: '2' } },
      { query: { a: '1' } },
      { body: { p: 2, q: [1, 2] } },
      { body: undefined },
    ]) {
      expect(requestFingerprint({ ...base, ...changed })).not.toBe(requestFingerprint(base))
    }
  })
})

describe('Idempotency.run', () => {
  it('runs the command every time when no key is given', async () => {
    const command = counter()
    const tenantId = randomUUID()
    await idempotency.run({ tenantId, scope: 'http', key: undefined, fingerprint: fingerprint({}) }, command.work)
    await idempotency.run({ tenantId, scope: 'http', key: undefined, fingerprint: fingerprint({}) }, command.work)
    expect(command.calls()).toBe(2)
  })

  it('replays the stored status and body for the same key and request, without running again', async () => {
    const command = counter()
    const request = { tenantId: randomUUID(), scope: 'http', key: newKey(), fingerprint: fingerprint({ amount: '10.00' }) }
    expect(await idempotency.run(request, command.work)).toEqual({ status: 201, body: { execution: 1 }, replayed: false })
    expect(await idempotency.run(request, command.work)).toEqual({ status: 201, body: { execution: 1 }, replayed: true })
    expect(command.calls()).toBe(1)
  })

  it('refuses the same key with a different request (409 idempotency_key_reused)', async () => {
    const command = counter()
    const request = { tenantId: randomUUID(), scope: 'http', key: newKey(), fingerprint: fingerprint({ amount: '10.00' }) }
    await idempotency.run(request, command.work)
    await expectCode(idempotency.run({ ...request, fingerprint: fingerprint({ amount: '10.01' }) }, command.work), 'idempotency_key_reused')
    expect(command.calls()).toBe(1)
  })

  it('keeps keys apart by tenant and by scope', async () => {
    const command = counter()
    const key = newKey()
    const tenantId = randomUUID()
    await idempotency.run({ tenantId, scope: 'http', key, fingerprint: fingerprint({}) }, command.work)
    await idempotency.run({ tenantId: randomUUID(), scope: 'http', key, fingerprint: fingerprint({ other: true }) }, command.work)
    await idempotency.run({ tenantId, scope: 'rpc', key, fingerprint: fingerprint({ other: true }) }, command.work)
    expect(command.calls()).toBe(3)
  })

  it('answers 409 idempotency_request_in_progress to an identical request while the first still runs', async () => {
    const request = { tenantId: randomUUID(), scope: 'http', key: newKey(), fingerprint: fingerprint({}) }
    let release!: () => void
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    const first = idempotency.run(request, async () => {
      await gate
      return { status: 200, body: { done: true } }
    })
    // Let the first request take its reservation.
    await expect.poll(async () => (await store.find(test.runtime.db.orm, request)) !== undefined).toBe(true)
    const command = counter()
    await expectCode(idempotency.run(request, command.work), 'idempotency_request_in_progress')
    release()
    expect(await first).toEqual({ status: 200, body: { done: true }, replayed: false })
    expect(await idempotency.run(request, command.work)).toEqual({ status: 200, body: { done: true }, replayed: true })
    expect(command.calls()).toBe(0)
  })

  it('stores nothing when the command fails, so a retry runs it afresh', async () => {
    const request = { tenantId: randomUUID(), scope: 'http', key: newKey(), fingerprint: fingerprint({}) }
    await expectCode(
      idempotency.run(request, async () => {
        throw new AppError('validation_failed')
      }),
      'validation_failed',
    )
    expect(await store.find(test.runtime.db.orm, request)).toBeUndefined()
    const command = counter()
    expect(await idempotency.run(request, command.work)).toMatchObject({ replayed: false })
    expect(command.calls()).toBe(1)
  })

  it(`takes over a reservation abandoned for more than ${reservationSecondsMax} s (its process died)`, async () => {
    const request = { tenantId: randomUUID(), scope: 'http', key: newKey(), fingerprint: fingerprint({}) }
    expect(await store.reserve(test.runtime.db.orm, request, request.fingerprint, clock.now())).toBe(true)
    const command = counter()
    await expectCode(idempotency.run(request, command.work), 'idempotency_request_in_progress')
    clock.advance(reservationSecondsMax * 1000 + 1)
    try {
      expect(await idempotency.run(request, command.work)).toEqual({ status: 201, body: { execution: 1 }, replayed: false })
    } finally {
      clock.advance(-(reservationSecondsMax * 1000 + 1))
    }
    // An abandoned reservation of another request is still that request's key.
    const other = { ...request, key: newKey() }
    await store.reserve(test.runtime.db.orm, other, fingerprint({ different: true }), new Date(0))
    await expectCode(idempotency.run(other, command.work), 'idempotency_key_reused')
  })

  it.each([
    ['an empty key', ''],
    ['a key of 256 characters', 'k'.repeat(256)],
    ['a key with a space', 'two words'],
    ['a key with a control character', 'tab\there'],
    ['a key with non-ASCII characters', 'clé'],
  ])('refuses %s with 400 request_params_invalid', async (_label, key) => {
    await expectCode(idempotency.run({ tenantId: randomUUID(), scope: 'http', key, fingerprint: fingerprint({}) }, counter().work), 'request_params_invalid')
  })

  it('accepts a key of 255 visible characters', async () => {
    const key = `${'~'.repeat(199)}${randomBytes(28).toString('hex')}`
    expect(key).toHaveLength(255)
    expect(await idempotency.run({ tenantId: randomUUID(), scope: 'http', key, fingerprint: fingerprint({}) }, counter().work)).toMatchObject({ replayed: false })
  })
})
