/**
 * Rate limiting through the app (spec, Limits): per API key by tenant tier, per principal, and per
 * client address on the public signup, verify-email and login routes; 429 rate_limit_exceeded with
 * Retry-After (seconds), X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset (epoch seconds).
 *
 * The limiter's clock is injected (a memory store on a clock this file moves), so every figure is exact.
 * The Redis-backed apps run on Redis's clock against TEST_REDIS_URL, which CI provides; without it they
 * are skipped (`npm test` says so), so a fresh clone needs no Redis.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { LightMyRequestResponse } from 'fastify'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { RateLimitRule } from '../../src/kernel/principal.ts'
import { createTokenSigner, tokenIssuer } from '../../src/modules/auth/tokens.ts'
import { queryRows } from '../../src/platform/db/database.ts'
import { createMemoryRateLimitStore, createRedisRateLimitStore, type RateLimitStore } from '../../src/platform/http/rate-limit/stores.ts'
import { createTestApp, expectError, issueApiKey, signupOwner, testPassword, uniqueEmail, type TenantOwner, type TestApp } from '../support/harness.ts'

/** The limiter's clock: whole milliseconds, moved only by the tests. */
const startMs = Date.now()
let nowMs = startMs
const limiterClock = () => nowMs

/** A memory store on the injected clock that can be switched to fail, standing for a store that is down. */
function switchableStore() {
  const inner = createMemoryRateLimitStore(limiterClock)
  const state = { failing: false, failures: 0 }
  const store: RateLimitStore = {
    take(key: string, rule: RateLimitRule) {
      if (state.failing) {
        state.failures += 1
        return Promise.reject(new Error('rate limit store unreachable'))
      }
      return inner.take(key, rule)
    },
    peek(key: string, rule: RateLimitRule) {
      if (state.failing) return Promise.reject(new Error('rate limit store unreachable'))
      return inner.peek(key, rule)
    },
    close: () => inner.close(),
  }
  return { store, state }
}

const header = (response: LightMyRequestResponse, name: string) => response.headers[name] as string | undefined

function expectRateLimitHeaders(response: LightMyRequestResponse, limit: number, remaining: number): void {
  expect(header(response, 'x-ratelimit-limit'), response.body).toBe(String(limit))
  expect(header(response, 'x-ratelimit-remaining'), response.body).toBe(String(remaining))
  expect(header(response, 'x-ratelimit-reset')).toMatch(/^\d+$/)
}

/** Asserts a 429 with the envelope and all four headers; returns Retry-After and X-RateLimit-Reset. */
function expectLimited(response: LightMyRequestResponse, limit: number): { retryAfter: number; reset: number } {
  const error = expectError(response, 'rate_limit_exceeded')
  const retryAfterHeader = header(response, 'retry-after')
  expect(retryAfterHeader).toMatch(/^\d+$/)
  const retryAfter = Number(retryAfterHeader)
  expect(retryAfter).toBeGreaterThanOrEqual(1)
  expect(error.details).toEqual({ retry_after_seconds: retryAfter })
  expectRateLimitHeaders(response, limit, 0)
  return { retryAfter, reset: Number(header(response, 'x-ratelimit-reset')) }
}

const publicRule = { perMinute: 2, burst: 3 } // one request per 30 s, 3 at once
const publicEnv = { PUBLIC_RATE_LIMIT_PER_MINUTE: String(publicRule.perMinute), PUBLIC_RATE_LIMIT_BURST: String(publicRule.burst) }

const redisUrl = process.env.TEST_REDIS_URL
/** Unique to this run, so parallel runs on one Redis never share a budget; deleted at the end. */
const redisKeyPrefix = `steward:test:rate-limit-app:${randomUUID()}:`

const limiter = switchableStore()
/** Public budget lowered; limiter on the injected clock. */
let publicApp: TestApp
/** Default (high) public budget, so the onboarding helpers run freely; limiter on the injected clock, switchable to failing. */
let tierApp: TestApp
/** Two apps (two processes) with their own Redis stores on one key prefix, public budget lowered. */
let redisAppA: TestApp | undefined
let redisAppB: TestApp | undefined

beforeAll(async () => {
  // Opened together: each app is a database and a job queue, seconds apiece one after another.
  const redisApp = (url: string) => createTestApp({ env: publicEnv, rateLimits: createRedisRateLimitStore(url, { keyPrefix: redisKeyPrefix }) })
  ;[publicApp, tierApp, redisAppA, redisAppB] = await Promise.all([
    createTestApp({ env: publicEnv, rateLimits: createMemoryRateLimitStore(limiterClock) }),
    createTestApp({ rateLimits: limiter.store }),
    ...(redisUrl === undefined ? [] : [redisApp(redisUrl), redisApp(redisUrl)]),
  ])
})

afterAll(async () => {
  await Promise.all([publicApp?.close(), tierApp?.close(), redisAppA?.close(), redisAppB?.close()])
  if (redisUrl === undefined) return
  const admin = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null })
  admin.on('error', () => {})
  try {
    await admin.connect()
    const keys = await admin.keys(`${redisKeyPrefix}*`)
    if (keys.length > 0) await admin.del(...keys)
  } finally {
    admin.disconnect()
  }
})

describe('public routes, per client address', () => {
  let test: TestApp
  beforeAll(() => {
    test = publicApp
  })

  const login = (remoteAddress: string, headers: Record<string, string> = {}) =>
    test.request({ method: 'POST', url: '/v1/auth/login', remoteAddress, headers, payload: { email: uniqueEmail('nobody'), password: testPassword } })
  const signup = (remoteAddress: string) =>
    test.request({ method: 'POST', url: '/v1/signup', remoteAddress, payload: { email: uniqueEmail('signup'), password: testPassword } })
  const verifyEmail = (remoteAddress: string) =>
    test.request({ method: 'POST', url: '/v1/auth/verify-email', remoteAddress, payload: { tenant_id: randomUUID(), token: 'vt_not-a-real-token' } })

  it('answers the 4th login from one address 429 rate_limit_exceeded with Retry-After and the X-RateLimit headers', async () => {
    nowMs = startMs
    const address = '203.0.113.10'
    for (const remaining of [2, 1, 0]) {
      const response = await login(address)
      // Not limited: the login itself fails (nobody has this email), after the limiter let it through.
      expectError(response, 'auth_invalid_credentials')
      expectRateLimitHeaders(response, 3, remaining)
    }
    const limited = await login(address)
    const { retryAfter, reset } = expectLimited(limited, 3)
    // One request per 30 s: the next one is 30 s away, and the bucket is full again 90 s after the burst.
    expect(retryAfter).toBe(30)
    expect(reset).toBe(Math.ceil((startMs + 90_000) / 1000))
    // Epoch seconds (not milliseconds, not a delta), within a sane window of the real now.
    const realNowSeconds = Date.now() / 1000
    expect(reset).toBeGreaterThan(realNowSeconds)
    expect(reset).toBeLessThan(realNowSeconds + 3_600)
  })

  it('does not limit a different address', async () => {
    nowMs = startMs
    for (let i = 0; i < 4; i++) await login('203.0.113.20')
    expectLimited(await login('203.0.113.20'), 3)
    const other = await login('203.0.113.21')
    expectError(other, 'auth_invalid_credentials')
    expectRateLimitHeaders(other, 3, 2)
  })

  it('keeps denying while the client retries early, then allows one request per 30 s (denials cost nothing)', async () => {
    nowMs = startMs
    const address = '203.0.113.30'
    for (let i = 0; i < 3; i++) expect((await login(address)).statusCode).not.toBe(429)
    nowMs = startMs + 10_000
    const early = expectLimited(await login(address), 3)
    expect(early.retryAfter).toBe(20)
    nowMs = startMs + 29_999
    expect(expectLimited(await login(address), 3).retryAfter).toBe(1)
    nowMs = startMs + 30_000
    const after = await login(address)
    expectError(after, 'auth_invalid_credentials')
    expectRateLimitHeaders(after, 3, 0)
    expectLimited(await login(address), 3)
  })

  it('keys on the connection address: X-Forwarded-For does not open a new budget when no proxy is trusted', async () => {
    nowMs = startMs
    const address = '203.0.113.40'
    for (let i = 0; i < 3; i++) expect((await login(address)).statusCode).not.toBe(429)
    expectLimited(await login(address, { 'x-forwarded-for': '198.51.100.99' }), 3)
  })

  it('limits signup and verify-email too, each with its own budget, separate from login', async () => {
    nowMs = startMs
    const address = '203.0.113.50'
    for (let i = 0; i < 3; i++) expect((await login(address)).statusCode).not.toBe(429)
    expectLimited(await login(address), 3)

    // Login exhausted; signup from the same address still has its full budget.
    for (const remaining of [2, 1, 0]) {
      const response = await signup(address)
      expect(response.statusCode, response.body).toBe(201)
      expectRateLimitHeaders(response, 3, remaining)
    }
    expectLimited(await signup(address), 3)

    // And verify-email its own.
    for (const remaining of [2, 1, 0]) {
      const response = await verifyEmail(address)
      expect(response.statusCode, response.body).not.toBe(429)
      expectRateLimitHeaders(response, 3, remaining)
    }
    expectLimited(await verifyEmail(address), 3)

    // Another address is untouched on all three.
    for (const call of [login, signup, verifyEmail]) expect((await call('203.0.113.51')).statusCode).not.toBe(429)
  })

  describe('failed authentications, per address: only failures are throttled', () => {
    let owner: TenantOwner
    beforeAll(async () => {
      nowMs = startMs
      owner = await signupOwner(test)
    })

    const whoamiFrom = (remoteAddress: string, bearer: string) =>
      test.request({ method: 'GET', url: '/v1/auth/whoami', remoteAddress, headers: { authorization: `Bearer ${bearer}` } })
    /** Bearers that fail, one of each kind: none needs a database read to be refused but the last. */
    const badBearers = async () => {
      const now = new Date()
      const claims = { sub: owner.userId, tenantId: owner.tenantId, type: 'user' as const, scopes: ['ledger:read'] }
      return {
        forged: await createTokenSigner('not-the-jwt-secret-0123456789abcdef', tokenIssuer('sandbox')).sign(claims, 900, now, `jti_${randomUUID()}`),
        expired: await test.tokens.sign(claims, 900, new Date(now.getTime() - 3_600_000), `jti_${randomUUID()}`),
        garbage: 'not-a-token',
        madeUpKey: `svc_sk_test_${randomUUID()}`,
        wellFormedKey: `svc_sk_test_${randomBytes(32).toString('base64url')}`,
      }
    }

    it('a valid owner token is served at an address whose failure budget another client spent (one NAT), while bad tokens there get 429', async () => {
      nowMs = startMs
      const nat = '203.0.113.66'
      const bad = await badBearers()
      // One client behind the NAT spends the address's failure budget (3)…
      expectError(await whoamiFrom(nat, bad.forged), 'auth_token_invalid')
      expectError(await whoamiFrom(nat, bad.expired), 'auth_token_expired')
      expectError(await whoamiFrom(nat, bad.madeUpKey), 'auth_invalid_key')
      for (const bearer of Object.values(bad)) {
        const limited = expectLimited(await whoamiFrom(nat, bearer), 3)
        expect(limited.retryAfter).toBe(30)
        expect((await whoamiFrom(nat, bearer)).json().error.message).toMatch(/failed authentications/)
      }
      // …and another caller at the same address, with a valid owner token, is served every time, on its
      // own credential's budget (the free tier's 100), not the address's.
      for (let call = 0; call < 5; call++) {
        const served = await whoamiFrom(nat, owner.token)
        expect(served.statusCode, served.body).toBe(200)
        expect(served.json().id).toBe(owner.userId)
        expect(header(served, 'x-ratelimit-limit')).toBe('100')
        expect(header(served, 'retry-after')).toBeUndefined()
      }
      // Bad tokens keep getting 429: a failure served now and then refills nothing for them.
      nowMs = startMs + 10_000
      expect(expectLimited(await whoamiFrom(nat, bad.forged), 3).retryAfter).toBe(20)
      // One failure per 30 s (the refill rate) is answered 401 and spends what refilled; the next is 429 again.
      nowMs = startMs + 30_000
      expectError(await whoamiFrom(nat, bad.garbage), 'auth_token_invalid')
      expectLimited(await whoamiFrom(nat, bad.wellFormedKey), 3)
      expect((await whoamiFrom(nat, owner.token)).statusCode).toBe(200)
      // Another address never shared the budget.
      expectError(await whoamiFrom('203.0.113.67', bad.forged), 'auth_token_invalid')
    })

    it('a throttled address gets no database lookup for a bearer that fails the offline checks; a well-formed key and a valid token are looked up', async () => {
      nowMs = startMs
      const address = '203.0.113.68'
      const bad = await badBearers()
      const key = await issueApiKey(test, owner)
      for (let attempt = 0; attempt < 3; attempt++) expectError(await whoamiFrom(address, bad.madeUpKey), 'auth_invalid_key')
      const lookups = vi.spyOn(test.runtime.services.auth, 'authenticate')
      try {
        for (const bearer of [bad.forged, bad.expired, bad.garbage, bad.madeUpKey]) expectLimited(await whoamiFrom(address, bearer), 3)
        expect(lookups).not.toHaveBeenCalled()
        // A well-formed key is only known to be wrong by its digest: looked up, then still 429.
        expectLimited(await whoamiFrom(address, bad.wellFormedKey), 3)
        expect(lookups).toHaveBeenCalledTimes(1)
        const served = await whoamiFrom(address, key.secret)
        expect(served.statusCode, served.body).toBe(200)
        expect(served.json().id).toBe(key.id)
        expect((await whoamiFrom(address, owner.token)).statusCode).toBe(200)
        expect(lookups).toHaveBeenCalledTimes(3)
      } finally {
        lookups.mockRestore()
      }
    })
  })

  it('does not rate-limit public routes outside the groups (health)', async () => {
    nowMs = startMs
    for (let i = 0; i < 5; i++) {
      const response = await test.request({ method: 'GET', url: '/v1/health', remoteAddress: '203.0.113.60' })
      expect(response.statusCode).toBe(200)
      expect(header(response, 'x-ratelimit-limit')).toBeUndefined()
    }
  })
})

describe('per API key and per principal, by tenant tier', () => {
  let test: TestApp
  beforeAll(() => {
    test = tierApp
  })

  const whoami = (token: string) => test.request({ method: 'GET', url: '/v1/auth/whoami', token })

  async function setTier(owner: TenantOwner, tier: string, perMinute: number | null = null, burst: number | null = null) {
    await test.runtime.db.orm.execute(
      sql`update tenants set rate_limit_tier = ${tier}, rate_limit_per_minute = ${perMinute}, rate_limit_burst = ${burst} where id = ${owner.tenantId}`,
    )
    const [row] = await queryRows<{ rate_limit_tier: string }>(test.runtime.db.orm, sql`select rate_limit_tier from tenants where id = ${owner.tenantId}`)
    expect(row?.rate_limit_tier).toBe(tier)
  }

  it('a free tenant: new tenants are free, and an API key gets exactly 100 at once (the burst), the 101st is 429', async () => {
    nowMs = startMs
    const owner = await signupOwner(test)
    const [tenant] = await queryRows<{ rate_limit_tier: string }>(test.runtime.db.orm, sql`select rate_limit_tier from tenants where id = ${owner.tenantId}`)
    expect(tenant?.rate_limit_tier).toBe('free')
    const key = await issueApiKey(test, owner)

    for (let i = 0; i < 100; i++) {
      const response = await whoami(key.secret)
      expect(response.statusCode, response.body).toBe(200)
      expectRateLimitHeaders(response, 100, 99 - i)
      // Each allowed request pushes the full-again time one second (60 per minute) further.
      expect(header(response, 'x-ratelimit-reset')).toBe(String(Math.ceil((startMs + (i + 1) * 1_000) / 1000)))
    }
    const { retryAfter, reset } = expectLimited(await whoami(key.secret), 100)
    expect(retryAfter).toBe(1)
    expect(reset).toBe(Math.ceil((startMs + 100_000) / 1000))

    // 60 per minute: one second later exactly one more.
    nowMs = startMs + 1_000
    expect((await whoami(key.secret)).statusCode).toBe(200)
    expectLimited(await whoami(key.secret), 100)
  })

  it('switching the tenant to developer raises the limit to 1,000 at once, for its existing and new keys', async () => {
    nowMs = startMs
    const owner = await signupOwner(test)
    const key = await issueApiKey(test, owner)
    for (let i = 0; i < 10; i++) expectRateLimitHeaders(await whoami(key.secret), 100, 99 - i)

    await setTier(owner, 'developer')
    // The key has used a tenth of its bucket (10 of 100); it keeps using a tenth of the larger one.
    const existing = await whoami(key.secret)
    expect(existing.statusCode).toBe(200)
    expectRateLimitHeaders(existing, 1_000, 899)
    const fresh = await whoami((await issueApiKey(test, owner)).secret)
    expect(fresh.statusCode).toBe(200)
    expectRateLimitHeaders(fresh, 1_000, 999)

    await setTier(owner, 'production')
    expectRateLimitHeaders(await whoami((await issueApiKey(test, owner)).secret), 10_000, 9_999)
  })

  it('an enterprise tenant with custom figures uses them; without them it falls back to production', async () => {
    nowMs = startMs
    const owner = await signupOwner(test)
    await setTier(owner, 'enterprise', 120, 5)
    const key = await issueApiKey(test, owner)
    for (const remaining of [4, 3, 2, 1, 0]) {
      const response = await whoami(key.secret)
      expect(response.statusCode).toBe(200)
      expectRateLimitHeaders(response, 5, remaining)
    }
    const { retryAfter, reset } = expectLimited(await whoami(key.secret), 5)
    expect(retryAfter).toBe(1) // 500 ms, rounded up to whole seconds
    expect(reset).toBe(Math.ceil((startMs + 5 * 500) / 1000))
    nowMs = startMs + 500
    expect((await whoami(key.secret)).statusCode).toBe(200)

    const other = await signupOwner(test)
    await setTier(other, 'enterprise')
    expectRateLimitHeaders(await whoami((await issueApiKey(test, other)).secret), 10_000, 9_999)
  })

  it('gives two keys of one tenant separate budgets, and the owner JWT its own', async () => {
    nowMs = startMs
    const owner = await signupOwner(test)
    const first = await issueApiKey(test, owner)
    const second = await issueApiKey(test, owner)
    for (let i = 0; i < 100; i++) expect((await whoami(first.secret)).statusCode).toBe(200)
    expectLimited(await whoami(first.secret), 100)

    const other = await whoami(second.secret)
    expect(other.statusCode).toBe(200)
    expectRateLimitHeaders(other, 100, 99)

    // The owner has spent two requests (issuing the keys) of the tenant tier's budget, its own.
    const ownerCall = await whoami(owner.token)
    expect(ownerCall.statusCode).toBe(200)
    expect(ownerCall.json().type).toBe('user')
    expectRateLimitHeaders(ownerCall, 100, 97)
  })

  it('an owner JWT exhausted does not limit the tenant API keys', async () => {
    nowMs = startMs
    const owner = await signupOwner(test)
    const key = await issueApiKey(test, owner)
    for (let i = 0; i < 99; i++) expect((await whoami(owner.token)).statusCode).toBe(200)
    expectLimited(await whoami(owner.token), 100)
    const keyCall = await whoami(key.secret)
    expect(keyCall.statusCode).toBe(200)
    expectRateLimitHeaders(keyCall, 100, 99)
  })

  it('serves requests when the rate-limit store fails (fails open), even for an exhausted key', async () => {
    nowMs = startMs
    const owner = await signupOwner(test)
    const key = await issueApiKey(test, owner)
    for (let i = 0; i < 100; i++) await whoami(key.secret)
    expectLimited(await whoami(key.secret), 100)

    limiter.state.failing = true
    try {
      const before = limiter.state.failures
      const served = await whoami(key.secret)
      expect(served.statusCode, served.body).toBe(200)
      expect(served.json().id).toBe(key.id)
      expect(header(served, 'x-ratelimit-limit')).toBeUndefined()
      const publicCall = await test.request({ method: 'POST', url: '/v1/auth/login', payload: { email: owner.email, password: testPassword } })
      expect(publicCall.statusCode).toBe(200)
      // The store was asked both times (the guard did not skip it): it failed, and the guard served anyway.
      expect(limiter.state.failures - before).toBe(2)
    } finally {
      limiter.state.failing = false
    }
    // Back up: the key is still exhausted (nothing was recorded while the store was down).
    expectLimited(await whoami(key.secret), 100)
  })
})

describe.skipIf(redisUrl === undefined)('Redis-backed apps (two processes sharing one store)', () => {
  const login = (test: TestApp, remoteAddress: string) =>
    test.request({ method: 'POST', url: '/v1/auth/login', remoteAddress, payload: { email: uniqueEmail('nobody'), password: testPassword } })

  it('share the per-address login budget: 2 on app A + 1 on app B, then 429 on both', async () => {
    if (redisAppA === undefined || redisAppB === undefined) throw new Error('the Redis-backed apps did not start')
    const address = '198.51.100.7'
    const sequence = [redisAppA, redisAppA, redisAppB]
    for (const [i, test] of sequence.entries()) {
      const response = await login(test, address)
      expectError(response, 'auth_invalid_credentials')
      expectRateLimitHeaders(response, 3, 2 - i)
    }
    const realNowSeconds = Date.now() / 1000
    for (const test of [redisAppA, redisAppB]) {
      const { retryAfter, reset } = expectLimited(await login(test, address), 3)
      expect(retryAfter).toBeLessThanOrEqual(30)
      expect(reset).toBeGreaterThan(realNowSeconds)
      // Epoch seconds on Redis's clock: full again about 90 s from now.
      expect(reset).toBeLessThanOrEqual(realNowSeconds + 120)
    }
    // Another address has its own budget on both.
    expectRateLimitHeaders(await login(redisAppB, '198.51.100.8'), 3, 2)
    expectRateLimitHeaders(await login(redisAppA, '198.51.100.8'), 3, 1)
  })
})
