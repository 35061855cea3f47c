/**
 * Where rate-limit state lives. In memory by default (one process); in Redis when REDIS_URL is set, so
 * several processes share one budget per key. The Redis store runs GCRA in a Lua script on Redis's
 * clock, so processes with skewed clocks still agree.
 */
import { Redis } from 'ioredis'
import type { RateLimitRule } from '../../../kernel/principal.ts'
import { emissionIntervalMs, gcraTake, type RateLimitDecision } from './gcra.ts'

export interface RateLimitStore {
  take(key: string, rule: RateLimitRule): Promise<RateLimitDecision>
  /** Whether a take would be allowed now, without consuming anything. */
  peek(key: string, rule: RateLimitRule): Promise<boolean>
  close(): Promise<void>
}

/** Keys kept in memory at most; the least recently used are forgotten first (they refill anyway). */
const memoryKeysMax = 100_000

export function createMemoryRateLimitStore(now: () => number = Date.now): RateLimitStore {
  const tats = new Map<string, number>()
  return {
    async take(key, rule) {
      const nowMs = now()
      const stored = tats.get(key)
      const { decision, tatMs } = gcraTake(stored, nowMs, rule)
      tats.delete(key)
      // A TAT in the past means a full bucket: nothing worth keeping.
      if (tatMs > nowMs) tats.set(key, tatMs)
      if (tats.size > memoryKeysMax) {
        const oldest = tats.keys().next().value
        if (oldest !== undefined) tats.delete(oldest)
      }
      return decision
    },
    async peek(key, rule) {
      return gcraTake(tats.get(key), now(), rule).decision.allowed
    },
    async close() {
      tats.clear()
    },
  }
}

// KEYS[1] = key; ARGV = emission interval (ms), burst, and '1' to take or '0' to only look.
// Returns allowed, remaining, reset (ms), retry after (ms).
// The same arithmetic as gcraTake. TATs are written with %.17g: Lua's tostring keeps 14 significant digits,
// which at epoch magnitudes cuts a fractional TAT to 0.1 ms and makes every take cost a little more or less
// than one interval.
const gcraScript = `
local function exact(x) return string.format('%.17g', x) end
local interval = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local take = ARGV[3] == '1'
local capacity = interval * burst
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
local nextTat = tat + interval
if nextTat - now > capacity then
  return {0, 0, exact(tat), exact(nextTat - capacity - now)}
end
if take then redis.call('SET', KEYS[1], exact(nextTat), 'PX', math.ceil(nextTat - now)) end
return {1, math.floor((capacity - (nextTat - now)) / interval), exact(nextTat), '0'}
`

/** How long a rate-limit check may wait on Redis before the guard gives up and serves the request. */
const redisCommandTimeoutMs = 250

type GcraReply = [number, number, string, string]

export function createRedisRateLimitStore(
  url: string,
  options: { keyPrefix?: string; onError?: (error: Error) => void } = {},
): RateLimitStore {
  const redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 1, enableOfflineQueue: true, commandTimeout: redisCommandTimeoutMs })
  // Without a listener ioredis prints "Unhandled error event" on every reconnect attempt.
  redis.on('error', (error: Error) => options.onError?.(error))
  redis.defineCommand('stewardGcra', { numberOfKeys: 1, lua: gcraScript })
  const prefix = options.keyPrefix ?? 'steward:rl:'
  const run = (key: string, rule: RateLimitRule, take: boolean) =>
    // emissionIntervalMs validates the rule and puts the interval on gcraTake's exact grid.
    (redis as unknown as { stewardGcra(...args: unknown[]): Promise<GcraReply> }).stewardGcra(prefix + key, emissionIntervalMs(rule), rule.burst, take ? '1' : '0')
  return {
    async take(key, rule) {
      const [allowed, remaining, reset, retryAfter] = await run(key, rule, true)
      return {
        allowed: allowed === 1,
        limit: rule.burst,
        remaining: Number(remaining),
        resetAtMs: Number(reset),
        retryAfterMs: Number(retryAfter),
      }
    },
    async peek(key, rule) {
      const [allowed] = await run(key, rule, false)
      return allowed === 1
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect())
    },
  }
}
