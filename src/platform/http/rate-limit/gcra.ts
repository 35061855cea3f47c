/**
 * GCRA (the generic cell rate algorithm), the rate limiter behind "N per minute with a burst of B".
 * Each key stores one number, its theoretical arrival time (TAT). A request at `now` is allowed when
 * the TAT it would push to stays within `burst` emission intervals of now. Pure: time is passed in.
 */
import type { RateLimitRule } from '../../../kernel/principal.ts'

export interface RateLimitDecision {
  readonly allowed: boolean
  /** The burst capacity: the most requests that can be made at once from a full bucket. */
  readonly limit: number
  readonly remaining: number
  /** When the bucket is full again (epoch milliseconds). */
  readonly resetAtMs: number
  /** When denied: how long until one request is allowed again. */
  readonly retryAfterMs: number
}

/**
 * Emission intervals are kept on a grid of 1/1024 ms, rounded up (never faster than the rule). With
 * whole-millisecond clocks every TAT is then a multiple of 2^-10 below 2^43 ms, which a double holds
 * exactly, so TAT + interval and the comparisons below are exact. Unrounded, 60000/perMinute is often
 * not representable (60000/7, 60000/7000), and at epoch magnitudes (~1.8e12) each addition rounds:
 * a fresh key could be denied part of its burst (burst 1 at 9/min: denied outright) and remaining
 * miscounted. Intervals that are a whole number of ms (every spec tier) are unchanged.
 */
const intervalGridPerMs = 1024

/**
 * Throws RangeError for a rule that cannot be enforced (perMinute not > 0, burst < 1, either not finite).
 * Computed, such a rule gave no limit and NaN headers (perMinute 0) or a permanent denial (burst 0).
 */
export function emissionIntervalMs(rule: RateLimitRule): number {
  if (!(Number.isFinite(rule.perMinute) && rule.perMinute > 0) || !(Number.isFinite(rule.burst) && rule.burst >= 1)) {
    throw new RangeError(`invalid rate limit rule: ${rule.perMinute} per minute, burst ${rule.burst}`)
  }
  return Math.ceil((60_000 / rule.perMinute) * intervalGridPerMs) / intervalGridPerMs
}

/** Returns the decision and the TAT to store (unchanged when denied). */
export function gcraTake(storedTatMs: number | undefined, nowMs: number, rule: RateLimitRule): { decision: RateLimitDecision; tatMs: number } {
  const interval = emissionIntervalMs(rule)
  const capacityMs = interval * rule.burst
  const tat = Math.max(storedTatMs ?? nowMs, nowMs)
  const nextTat = tat + interval
  if (nextTat - nowMs > capacityMs) {
    return {
      decision: {
        allowed: false,
        limit: rule.burst,
        remaining: 0,
        resetAtMs: tat,
        retryAfterMs: Math.max(0, nextTat - capacityMs - nowMs),
      },
      tatMs: tat,
    }
  }
  return {
    decision: {
      allowed: true,
      limit: rule.burst,
      remaining: Math.max(0, Math.floor((capacityMs - (nextTat - nowMs)) / interval)),
      resetAtMs: nextTat,
      retryAfterMs: 0,
    },
    tatMs: nextTat,
  }
}
