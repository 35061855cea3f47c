/**
 * The Idempotency-Key contract every keyed command route keeps, written once: a repeat with the same key
 * replays the first outcome (same status and body, header Idempotent-Replayed: true) and the command ran
 * once; the key with another input is 409 idempotency_key_reused and runs nothing; a malformed key is 400
 * request_params_invalid before anything runs. A module's test lists its keyed routes as cases and calls
 * `describeKeyedRoutes` inside its own `describe`; what a replay means for one command stays in that
 * module's test.
 */
import { randomBytes } from 'node:crypto'
import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import { expect, it } from 'vitest'
import { expectError, type TestApp } from './harness.ts'

export type KeyedRequest = InjectOptions & { token?: string }

/** A fresh, well-formed Idempotency-Key. */
export const newIdempotencyKey = (): string => `key-${randomBytes(8).toString('hex')}`

/** The request with `Idempotency-Key: key` added to its headers. */
export const keyed = (request: KeyedRequest, key: string): KeyedRequest => ({
  ...request,
  headers: { ...(request.headers as Record<string, string> | undefined), 'idempotency-key': key },
})

export interface KeyedCase {
  /** The request the key is first used with. */
  readonly request: KeyedRequest
  /** The same command with another input; undefined when the route has no input to vary. */
  readonly other: KeyedRequest | undefined
  /** The status of the first (and every replayed) response. */
  readonly status: number
  /** How many times the command has run (its audit events, usually). */
  readonly runs: () => Promise<number>
}

/** [route name, a function preparing a fresh case (its own tenant and data)]. */
export type KeyedRoute = readonly [string, () => Promise<KeyedCase>]

/** A replayed body is the first one: the same JSON, or the same bytes when there is no JSON (a 204). */
function expectSameBody(replay: LightMyRequestResponse, first: LightMyRequestResponse) {
  if (String(first.headers['content-type'] ?? '').includes('application/json')) expect(replay.json()).toEqual(first.json())
  else expect(replay.body).toEqual(first.body)
}

/**
 * Declares the two contract tests over `routes`. `app` is read when a test runs (after `beforeAll`).
 */
export function describeKeyedRoutes(app: () => TestApp, routes: ReadonlyArray<KeyedRoute>): void {
  it.each(routes)('%s replays the first outcome for a repeat, runs once, and refuses the key with another input', async (_, prepare) => {
    const test = app()
    const { request, other, status, runs } = await prepare()
    const key = newIdempotencyKey()
    const first = await test.request(keyed(request, key))
    expect(first.statusCode, first.body).toBe(status)
    expect(first.headers['idempotent-replayed']).toBeUndefined()

    for (let repeat = 0; repeat < 2; repeat += 1) {
      const again = await test.request(keyed(request, key))
      expect(again.statusCode, again.body).toBe(status)
      expect(again.headers['idempotent-replayed']).toBe('true')
      expectSameBody(again, first)
    }
    expect(await runs()).toBe(1)

    if (other !== undefined) {
      expectError(await test.request(keyed(other, key)), 'idempotency_key_reused')
      expect(await runs()).toBe(1)
    }
  })

  it('refuses a malformed key on every keyed route before anything runs', async () => {
    const test = app()
    for (const [name, prepare] of routes) {
      const { request, runs } = await prepare()
      expectError(await test.request(keyed(request, 'key with spaces')), 'request_params_invalid')
      expect(await runs(), name).toBe(0)
    }
  })
}
