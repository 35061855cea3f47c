/**
 * GCRA (the generic cell rate algorithm), the rate limiter behind "N per minute with a burst of B".
 * Each key stores one number, its theoretical arrival time (TAT). A request at `now` is allowed when
 * the TAT it would push to stays within `burst` emission intervals of now. Pure: time is passed in.
 */
import type { RateLimitRule } from '../../auth/scopes.ts'

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

export function emissionIntervalMs(rule: RateLimitRule): number {
  return 60_000 / rule.perMinute
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
