/**
 * The rate-limit stores: memory (time injected) and Redis (GCRA in Lua on Redis's clock), the latter
 * against a real Redis at TEST_REDIS_URL. Without TEST_REDIS_URL they are skipped (`npm test` says so);
 * CI sets it, and then an unreachable Redis fails them, it does not skip them. Every key this file writes is under a prefix unique to the run, deleted at the end.
 */
import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { tierRules } from '../../../modules/auth/scopes.ts'
import { type RateLimitRule } from '../../../kernel/principal.ts'
import { emissionIntervalMs, gcraTake, type RateLimitDecision } from './gcra.ts'
import { createMemoryRateLimitStore, createRedisRateLimitStore, type RateLimitStore } from './stores.ts'

const t0 = Date.UTC(2026, 10, 21, 9, 0, 0, 0)

/** What gcraTake says for `count` takes at one instant from a fresh key. */
function expectedBurst(rule: RateLimitRule, nowMs: number, count: number): RateLimitDecision[] {
  let tat: number | undefined
  const decisions: RateLimitDecision[] = []
  for (let i = 0; i < count; i++) {
    const { decision, tatMs } = gcraTake(tat, nowMs, rule)
    decisions.push(decision)
    tat = tatMs
  }
  return decisions
}

async function takeMany(store: RateLimitStore, key: string, rule: RateLimitRule, count: number): Promise<RateLimitDecision[]> {
  const decisions: RateLimitDecision[] = []
  for (let i = 0; i < count; i++) decisions.push(await store.take(key, rule))
  return decisions
}

const allowedCount = (decisions: readonly RateLimitDecision[]) => decisions.filter((decision) => decision.allowed).length

describe('memory store', () => {
  let now = t0
  const clock = () => now
  const store = createMemoryRateLimitStore(clock)
  afterAll(() => store.close())

  it.each<[string, RateLimitRule]>([
    ['free', tierRules.free],
    ['developer', tierRules.developer],
    ['7 per minute, burst 3', { perMinute: 7, burst: 3 }],
    ['9 per minute, burst 1', { perMinute: 9, burst: 1 }],
  ])('agrees with gcraTake for a burst (%s), decision for decision', async (label, rule) => {
    now = t0
    const key = `burst:${label}`
    const decisions = await takeMany(store, key, rule, rule.burst + 2)
    expect(decisions).toEqual(expectedBurst(rule, t0, rule.burst + 2))
    expect(allowedCount(decisions)).toBe(rule.burst)
  })

  it('agrees with gcraTake over a schedule with refills, idle gaps and a clock step backwards', async () => {
    const rule: RateLimitRule = { perMinute: 60, burst: 5 }
    const schedule = [0, 0, 0, 0, 0, 0, 0, 999, 1_000, 1_000, 2_500, 2_500, 2_500, -5_000, 3_000, 3_000, 600_000, 600_000, 600_000, 600_000, 600_000, 600_000, 600_000]
    let tat: number | undefined
    const key = 'schedule'
    for (const offset of schedule) {
      now = t0 + offset
      const expected = gcraTake(tat, now, rule)
      tat = expected.tatMs
      expect(await store.take(key, rule), `at t0 + ${offset} ms`).toEqual(expected.decision)
    }
  })

  it('uses the injected clock: advancing it refills at perMinute / 60 per second', async () => {
    now = t0
    const rule = tierRules.free
    expect(allowedCount(await takeMany(store, 'refill', rule, 101))).toBe(100)
    now = t0 + 5_000
    expect(allowedCount(await takeMany(store, 'refill', rule, 10))).toBe(5)
    now = t0 + 5_999
    expect((await store.take('refill', rule)).allowed).toBe(false)
  })

  it('peeks without spending', async () => {
    const rule = { perMinute: 60, burst: 2 }
    expect(await store.peek('peek', rule)).toBe(true)
    expect(await store.peek('peek', rule)).toBe(true)
    await store.take('peek', rule)
    expect(await store.peek('peek', rule)).toBe(true)
    await store.take('peek', rule)
    expect(await store.peek('peek', rule)).toBe(false)
  })

  it('keeps keys independent', async () => {
    now = t0
    const rule: RateLimitRule = { perMinute: 60, burst: 3 }
    expect(allowedCount(await takeMany(store, 'independent:a', rule, 4))).toBe(3)
    const other = await takeMany(store, 'independent:b', rule, 4)
    expect(other.map((decision) => decision.remaining)).toEqual([2, 1, 0, 0])
    expect(allowedCount(other)).toBe(3)
  })

  it('refuses an invalid rule (take rejects with a RangeError)', async () => {
    await expect(store.take('invalid', { perMinute: 0, burst: 10 })).rejects.toThrow(RangeError)
  })
})

const redisUrl = process.env.TEST_REDIS_URL ?? ''
const keyPrefix = `steward:test:rate-limit:${randomUUID()}:`

describe.skipIf(redisUrl === '')('Redis store', () => {
  let connecting: Promise<Redis> | undefined
  /**
   * The admin client, connected on first use. Every Redis test awaits it first, so an unreachable Redis
   * fails each of them (a beforeAll failure would only mark them skipped).
   */
  const redis = () =>
    (connecting ??= (async () => {
      // No retries: an unreachable Redis fails at once rather than hanging.
      const client = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 2_000 })
      client.on('error', () => {}) // failures surface as rejected commands below
      await client.connect()
      expect(await client.ping()).toBe('PONG')
      return client
    })())
  const opened: RateLimitStore[] = []
  const open = async (prefix = keyPrefix) => {
    await redis()
    const store = createRedisRateLimitStore(redisUrl, { keyPrefix: prefix })
    opened.push(store)
    return store
  }
  const redisNowMs = async () => {
    const [seconds, micros] = await (await redis()).time()
    return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000)
  }

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()))
  })

  afterAll(async () => {
    const admin = await connecting?.catch(() => undefined)
    if (admin === undefined) return
    const keys = await admin.keys(`${keyPrefix}*`)
    if (keys.length > 0) await admin.del(...keys)
    expect(await admin.keys(`${keyPrefix}*`)).toEqual([])
    await admin.quit()
  })

  // Intervals of seconds, so Redis's real clock cannot refill a request while a burst is being taken.
  it.each<[string, RateLimitRule]>([
    ['1 per minute, burst 100', { perMinute: 1, burst: 100 }],
    ['10 per minute, burst 20', { perMinute: 10, burst: 20 }],
    ['7 per minute, burst 3 (fractional interval)', { perMinute: 7, burst: 3 }],
    ['9 per minute, burst 1 (fractional interval)', { perMinute: 9, burst: 1 }],
  ])('agrees with gcraTake for a burst (%s)', async (label, rule) => {
    const store = await open()
    const before = await redisNowMs()
    const decisions = await takeMany(store, `burst:${label}`, rule, rule.burst + 2)
    const after = await redisNowMs()
    const expected = expectedBurst(rule, before, rule.burst + 2)
    const shape = (decision: RateLimitDecision) => ({ allowed: decision.allowed, limit: decision.limit, remaining: decision.remaining })
    expect(decisions.map(shape)).toEqual(expected.map(shape))
    expect(allowedCount(decisions)).toBe(rule.burst)

    // Times are Redis's: the first reset is one interval after some instant between before and after,
    // and each take moves it by exactly one interval (no drift, even for 60000/7 ms).
    const interval = emissionIntervalMs(rule)
    const firstReset = decisions[0]!.resetAtMs
    expect(firstReset).toBeGreaterThanOrEqual(before + interval)
    expect(firstReset).toBeLessThanOrEqual(after + interval)
    decisions.slice(0, rule.burst).forEach((decision, i) => expect(decision.resetAtMs).toBe(firstReset + i * interval))
    for (const denied of decisions.slice(rule.burst)) {
      expect(denied.resetAtMs).toBe(firstReset + (rule.burst - 1) * interval)
      expect(denied.retryAfterMs).toBeGreaterThan(0)
      expect(denied.retryAfterMs).toBeLessThanOrEqual(interval)
      expect(denied.retryAfterMs).toBeGreaterThanOrEqual(firstReset - after)
    }
    for (const allowed of decisions.slice(0, rule.burst)) expect(allowed.retryAfterMs).toBe(0)
  })

  it('shares one budget between two store instances (two server processes) for the same key', async () => {
    const rule: RateLimitRule = { perMinute: 1, burst: 4 }
    const processA = await open()
    const processB = await open()
    const a1 = await takeMany(processA, 'shared', rule, 2)
    const b1 = await takeMany(processB, 'shared', rule, 2)
    expect([...a1, ...b1].map((decision) => [decision.allowed, decision.remaining])).toEqual([
      [true, 3],
      [true, 2],
      [true, 1],
      [true, 0],
    ])
    const [deniedA, deniedB] = [await processA.take('shared', rule), await processB.take('shared', rule)]
    expect(deniedA.allowed).toBe(false)
    expect(deniedB.allowed).toBe(false)
    expect(deniedA.resetAtMs).toBe(b1[1]!.resetAtMs)
    expect(deniedB.resetAtMs).toBe(b1[1]!.resetAtMs)
  })

  it('shares one budget under concurrent takes from two instances: exactly burst are allowed', async () => {
    const rule: RateLimitRule = { perMinute: 1, burst: 10 }
    const processA = await open()
    const processB = await open()
    const decisions = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? processA : processB).take('concurrent', rule)))
    expect(allowedCount(decisions)).toBe(10)
    expect(decisions.filter((decision) => decision.allowed).map((decision) => decision.remaining).sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
  })

  it('keeps different keys independent, and different prefixes (other runs) independent', async () => {
    const rule: RateLimitRule = { perMinute: 1, burst: 3 }
    const store = await open()
    expect(allowedCount(await takeMany(store, 'independent:a', rule, 4))).toBe(3)
    expect((await takeMany(store, 'independent:b', rule, 4)).map((decision) => [decision.allowed, decision.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ])
    const otherRun = await open(`${keyPrefix}other-run:`)
    expect(allowedCount(await takeMany(otherRun, 'independent:a', rule, 4))).toBe(3)
  })

  it('sets an expiry on its keys (idle keys do not accumulate), and a denial neither extends it nor spends budget', async () => {
    const rule: RateLimitRule = { perMinute: 1, burst: 3 }
    const interval = emissionIntervalMs(rule)
    const store = await open()
    const admin = await redis()
    const redisKey = `${keyPrefix}expiry`
    expect(await admin.exists(redisKey)).toBe(0)

    const first = await store.take('expiry', rule)
    const ttlAfterOne = await admin.pttl(redisKey)
    expect(ttlAfterOne).toBeGreaterThan(0)
    expect(ttlAfterOne).toBeLessThanOrEqual(interval)
    expect(Number(await admin.get(redisKey))).toBe(first.resetAtMs)

    const rest = await takeMany(store, 'expiry', rule, 2)
    const ttlFull = await admin.pttl(redisKey)
    expect(ttlFull).toBeGreaterThan(interval)
    expect(ttlFull).toBeLessThanOrEqual(3 * interval)
    const storedTat = await admin.get(redisKey)
    expect(Number(storedTat)).toBe(rest[1]!.resetAtMs)

    const denied = await takeMany(store, 'expiry', rule, 5)
    expect(allowedCount(denied)).toBe(0)
    expect(await admin.get(redisKey)).toBe(storedTat)
    expect(await admin.pttl(redisKey)).toBeLessThanOrEqual(ttlFull)
  })

  it('peeks without spending: true while budget remains, false once spent, and never writes', async () => {
    const store = await open()
    const rule = { perMinute: 1, burst: 2 }
    expect(await store.peek('peek', rule)).toBe(true)
    expect(await (await redis()).exists(`${keyPrefix}peek`)).toBe(0)
    await takeMany(store, 'peek', rule, 2)
    expect(await store.peek('peek', rule)).toBe(false)
    expect(await store.peek('peek', rule)).toBe(false)
    expect((await store.take('peek', rule)).allowed).toBe(false)
  })

  it('refuses an invalid rule without writing a key', async () => {
    const store = await open()
    await expect(store.take('invalid', { perMinute: 0, burst: 10 })).rejects.toThrow(RangeError)
    expect(await (await redis()).exists(`${keyPrefix}invalid`)).toBe(0)
  })
})
