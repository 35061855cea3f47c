/**
 * GCRA, pure: every test passes the time in. Times are realistic epoch milliseconds on purpose: the
 * arithmetic runs on numbers around 1.8e12, where floating-point rounding is a real hazard.
 */
import { describe, expect, it } from 'vitest'
import { tierRules } from '../../../modules/auth/scopes.ts'
import { type RateLimitRule } from '../../../kernel/principal.ts'
import { emissionIntervalMs, gcraTake, type RateLimitDecision } from './gcra.ts'

const t0 = Date.UTC(2026, 10, 21, 9, 0, 0, 0)

interface Greedy {
  readonly allowed: RateLimitDecision[]
  /** The decision that stopped the run (undefined if `max` requests were all allowed). */
  readonly denied: RateLimitDecision | undefined
  readonly tatMs: number | undefined
}

/** Takes at `nowMs` until denied (at most `max` times, so a broken limiter cannot loop forever). */
function greedy(rule: RateLimitRule, nowMs: number, tatMs?: number, max = rule.burst + 1): Greedy {
  const allowed: RateLimitDecision[] = []
  let tat = tatMs
  for (let i = 0; i < max; i++) {
    const { decision, tatMs: next } = gcraTake(tat, nowMs, rule)
    if (!decision.allowed) {
      // A denial leaves the stored TAT as it was.
      expect(next).toBe(tat ?? nowMs)
      return { allowed, denied: decision, tatMs: tat }
    }
    allowed.push(decision)
    tat = next
  }
  return { allowed, denied: undefined, tatMs: tat }
}

const specTiers = [
  ['free', 60, 100, tierRules.free],
  ['developer', 600, 1_000, tierRules.developer],
  ['production', 6_000, 10_000, tierRules.production],
] as const

describe('the spec tiers', () => {
  it.each(specTiers)('%s is %i per minute with a burst of %i', (_name, perMinute, burst, rule) => {
    expect(rule).toEqual({ perMinute, burst })
  })
})

describe('a fresh key', () => {
  // Rules whose emission interval (60000 / perMinute) is not a whole number of milliseconds are here on
  // purpose: 60000/7, 60000/9 and 60000/7000 are not representable, and adding them to an epoch TAT
  // must neither cost a request of the burst nor miscount remaining.
  const rules: Array<[string, RateLimitRule]> = [
    ['free', tierRules.free],
    ['developer', tierRules.developer],
    ['production', tierRules.production],
    ['burst 1', { perMinute: 60, burst: 1 }],
    ['1 per minute', { perMinute: 1, burst: 5 }],
    ['burst below the per-minute rate', { perMinute: 600, burst: 10 }],
    ['7 per minute (interval 8571.43 ms)', { perMinute: 7, burst: 3 }],
    ['9 per minute, burst 1 (interval 6666.67 ms)', { perMinute: 9, burst: 1 }],
    ['enterprise 7,000 per minute, burst 10,000', { perMinute: 7_000, burst: 10_000 }],
    ['enterprise 45,000 per minute, burst 50,000', { perMinute: 45_000, burst: 50_000 }],
    ['the largest public rule (1,000,000 per minute)', { perMinute: 1_000_000, burst: 1_000 }],
  ]

  it.each(rules)('%s: allows exactly `burst` at once, then denies', (_label, rule) => {
    const run = greedy(rule, t0)
    expect(run.allowed).toHaveLength(rule.burst)
    expect(run.denied?.allowed).toBe(false)
    expect(run.denied?.remaining).toBe(0)
    // And it stays denied at the same instant.
    expect(gcraTake(run.tatMs, t0, rule).decision.allowed).toBe(false)
  })

  it.each(rules)('%s: remaining counts down from burst - 1 to 0 and limit is the burst', (_label, rule) => {
    const run = greedy(rule, t0)
    expect(run.allowed.map((decision) => decision.remaining)).toEqual(Array.from({ length: rule.burst }, (_, i) => rule.burst - 1 - i))
    for (const decision of [...run.allowed, run.denied!]) expect(decision.limit).toBe(rule.burst)
    for (const decision of run.allowed) expect(decision.retryAfterMs).toBe(0)
  })

  it.each(rules)('%s: resetAtMs is when the bucket is full again', (_label, rule) => {
    const run = greedy(rule, t0)
    const interval = emissionIntervalMs(rule)
    run.allowed.forEach((decision, i) => expect(decision.resetAtMs).toBe(t0 + (i + 1) * interval))
    expect(run.denied!.resetAtMs).toBe(t0 + rule.burst * interval)
    // One interval before reset one request is still owed; at reset the whole burst is back, and no more.
    const reset = run.denied!.resetAtMs
    expect(greedy(rule, reset - interval, run.tatMs).allowed).toHaveLength(rule.burst - 1)
    expect(greedy(rule, reset, run.tatMs).allowed).toHaveLength(rule.burst)
    expect(greedy(rule, reset + 3_600_000, run.tatMs).allowed).toHaveLength(rule.burst)
  })
})

describe('emission interval', () => {
  it.each([
    [tierRules.free, 1_000],
    [tierRules.developer, 100],
    [tierRules.production, 10],
    [{ perMinute: 1, burst: 1 }, 60_000],
    [{ perMinute: 20, burst: 20 }, 3_000],
  ])('is 60000 / perMinute exactly when that is a whole number of ms (%o → %i ms)', (rule, interval) => {
    expect(emissionIntervalMs(rule)).toBe(interval)
  })

  it.each([7, 9, 7_000, 45_000, 1_000_000])('is never shorter than 60000 / %i (never faster than the rule)', (perMinute) => {
    const interval = emissionIntervalMs({ perMinute, burst: 1 })
    expect(interval).toBeGreaterThanOrEqual(60_000 / perMinute)
    // And within a microsecond of it: the rate is the rule's, to better than one request in 10^4.
    expect(interval - 60_000 / perMinute).toBeLessThan(0.001)
  })
})

describe('after a denial', () => {
  it.each([
    ['free', 0, tierRules.free],
    ['free', 1, tierRules.free],
    ['free', 250, tierRules.free],
    ['free', 999, tierRules.free],
    ['developer', 0, tierRules.developer],
    ['developer', 37, tierRules.developer],
    ['developer', 99, tierRules.developer],
    ['production', 0, tierRules.production],
    ['production', 9, tierRules.production],
    ['1 per minute', 59_999, { perMinute: 1, burst: 2 }],
  ] as const)('%s: retryAfterMs is one emission interval minus the %i ms elapsed since the bucket emptied', (_label, elapsed, rule) => {
    const drained = greedy(rule, t0)
    const interval = 60_000 / rule.perMinute
    expect(drained.denied!.retryAfterMs).toBe(interval)
    const later = gcraTake(drained.tatMs, t0 + elapsed, rule)
    expect(later.decision.allowed).toBe(false)
    expect(later.decision.retryAfterMs).toBe(interval - elapsed)
    expect(later.decision.remaining).toBe(0)
    // Waiting exactly retryAfterMs is enough for one request, and only one.
    const retried = greedy(rule, t0 + elapsed + later.decision.retryAfterMs, drained.tatMs)
    expect(retried.allowed).toHaveLength(1)
    expect(retried.allowed[0]!.remaining).toBe(0)
  })

  it('denied requests do not consume budget (a client hammering a denied key loses nothing)', () => {
    const rule = tierRules.free
    const drained = greedy(rule, t0)
    let tat = drained.tatMs
    // 1,000 denied attempts spread over the next 999 ms.
    for (let i = 0; i < 1_000; i++) {
      const { decision, tatMs } = gcraTake(tat, t0 + Math.floor(i * 0.999), rule)
      expect(decision.allowed).toBe(false)
      expect(tatMs).toBe(drained.tatMs)
      tat = tatMs
    }
    // After one interval exactly one request is allowed, as if nobody had knocked.
    expect(greedy(rule, t0 + 1_000, tat).allowed).toHaveLength(1)
    // After ten intervals: ten (the hammering cost nothing).
    expect(greedy(rule, t0 + 10_000, tat).allowed).toHaveLength(10)
  })
})

describe('refill', () => {
  it.each([
    ['free', 999, 0, tierRules.free],
    ['free', 1_000, 1, tierRules.free],
    ['free', 1_999, 1, tierRules.free],
    ['free', 10_000, 10, tierRules.free],
    ['free', 60_000, 60, tierRules.free],
    ['free', 100_000, 100, tierRules.free],
    ['free', 1_000_000, 100, tierRules.free],
    ['developer', 1_000, 10, tierRules.developer],
    ['developer', 60_000, 600, tierRules.developer],
    ['developer', 3_600_000, 1_000, tierRules.developer],
    ['production', 1_000, 100, tierRules.production],
    ['production', 60_000, 6_000, tierRules.production],
    ['7 per minute', 8_571, 0, { perMinute: 7, burst: 3 }],
    ['7 per minute', 8_572, 1, { perMinute: 7, burst: 3 }],
    ['7 per minute', 17_143, 2, { perMinute: 7, burst: 3 }],
  ] as const)('%s: %i ms after emptying the bucket, exactly %i more requests are allowed (perMinute / 60 per second, capped at burst)', (_label, elapsed, expected, rule) => {
    const drained = greedy(rule, t0)
    const refilled = greedy(rule, t0 + elapsed, drained.tatMs)
    expect(refilled.allowed).toHaveLength(expected)
    expect(refilled.denied?.allowed).toBe(false)
  })

  it.each(specTiers)('%s: a simulated minute gives exactly the burst, then the per-minute rate', (_name, perMinute, burst, rule) => {
    // A greedy client: at every millisecond from t0 to t0 + 60 s it takes until it is denied.
    let tat: number | undefined
    let total = 0
    let atStart = 0
    for (let now = t0; now <= t0 + 60_000; now++) {
      const run = greedy(rule, now, tat)
      if (now === t0) atStart = run.allowed.length
      total += run.allowed.length
      tat = run.tatMs
    }
    expect(atStart).toBe(burst)
    expect(total).toBe(burst + perMinute)
  })

  it.each(specTiers)('%s: requests spaced one interval apart are all allowed, and never one more', (_name, perMinute, _burst, rule) => {
    let tat = greedy(rule, t0).tatMs
    const interval = 60_000 / perMinute
    for (let i = 1; i <= perMinute; i++) {
      const now = t0 + i * interval
      const allowed = gcraTake(tat, now, rule)
      expect(allowed.decision.allowed).toBe(true)
      expect(allowed.decision.remaining).toBe(0)
      tat = allowed.tatMs
      expect(gcraTake(tat, now, rule).decision.allowed).toBe(false)
    }
  })
})

describe('edge cases', () => {
  it('time going backwards grants nothing beyond the burst', () => {
    const rule = tierRules.free
    let tat: number | undefined
    const allowedPerStep: number[] = []
    for (const now of [t0, t0 - 1, t0 - 60_000, t0 - 3_600_000, t0 - 1, t0]) {
      const run = greedy(rule, now, tat)
      allowedPerStep.push(run.allowed.length)
      // Never a negative or fractional remaining, never a negative wait.
      expect(run.denied!.remaining).toBe(0)
      expect(run.denied!.retryAfterMs).toBeGreaterThanOrEqual(0)
      expect(Number.isFinite(run.denied!.retryAfterMs)).toBe(true)
      tat = run.tatMs
    }
    expect(allowedPerStep).toEqual([100, 0, 0, 0, 0, 0])
    // Once the clock is one interval past where it was, one request again.
    expect(greedy(rule, t0 + 1_000, tat).allowed).toHaveLength(1)
  })

  it('a key partly used, then time going backwards, is not refilled', () => {
    const rule = tierRules.free
    const first = greedy(rule, t0, undefined, 40)
    expect(first.allowed).toHaveLength(40)
    // The clock steps back 10 s: the 60 left must not become more than 60.
    const back = greedy(rule, t0 - 10_000, first.tatMs)
    expect(back.allowed.length).toBeLessThanOrEqual(60)
    expect(first.allowed.length + back.allowed.length).toBeLessThanOrEqual(rule.burst)
    for (const decision of back.allowed) expect(decision.remaining).toBeGreaterThanOrEqual(0)
  })

  it('a TAT far in the past is a full bucket: burst, not more', () => {
    const rule = tierRules.developer
    expect(greedy(rule, t0, t0 - 86_400_000).allowed).toHaveLength(rule.burst)
    expect(greedy(rule, t0, 0).allowed).toHaveLength(rule.burst)
  })

  it('a stored TAT exactly at now is a full bucket', () => {
    expect(greedy(tierRules.free, t0, t0).allowed).toHaveLength(100)
  })

  it.each([
    ['perMinute 0', { perMinute: 0, burst: 10 }],
    ['negative perMinute', { perMinute: -60, burst: 10 }],
    ['NaN perMinute', { perMinute: Number.NaN, burst: 10 }],
    ['infinite perMinute', { perMinute: Number.POSITIVE_INFINITY, burst: 10 }],
    ['burst 0', { perMinute: 60, burst: 0 }],
    ['negative burst', { perMinute: 60, burst: -1 }],
    ['NaN burst', { perMinute: 60, burst: Number.NaN }],
    ['infinite burst', { perMinute: 60, burst: Number.POSITIVE_INFINITY }],
  ])('an invalid rule (%s) is refused with a RangeError, not computed into NaN headers, an endless denial or no limit', (_label, rule) => {
    expect(() => gcraTake(undefined, t0, rule)).toThrow(RangeError)
    expect(() => emissionIntervalMs(rule)).toThrow(RangeError)
  })
})
