/**
 * Where rate-limit state lives. In memory by default (one process); in Redis when REDIS_URL is set, so
 * several processes share one budget per key. The Redis store runs GCRA in a Lua script on Redis's
 * clock, so processes with skewed clocks still agree.
 */
import { Redis } from 'ioredis'
import type { RateLimitRule } from '../../auth/scopes.ts'
import { gcraTake, type RateLimitDecision } from './gcra.ts'

export interface RateLimitStore {
  take(key: string, rule: RateLimitRule): Promise<RateLimitDecision>
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
    async close() {
      tats.clear()
    },
  }
}

// KEYS[1] = key; ARGV = emission interval (ms), burst. Returns allowed, remaining, reset (ms), retry after (ms).
const gcraScript = `
local interval = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local capacity = interval * burst
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
local nextTat = tat + interval
if nextTat - now > capacity then
  return {0, 0, tostring(tat), tostring(nextTat - capacity - now)}
end
redis.call('SET', KEYS[1], tostring(nextTat), 'PX', math.ceil(nextTat - now))
return {1, math.floor((capacity - (nextTat - now)) / interval), tostring(nextTat), '0'}
`

export function createRedisRateLimitStore(url: string, options: { keyPrefix?: string } = {}): RateLimitStore {
  const redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 1, enableOfflineQueue: true })
  redis.defineCommand('stewardGcra', { numberOfKeys: 1, lua: gcraScript })
  const prefix = options.keyPrefix ?? 'steward:rl:'
  return {
    async take(key, rule) {
      const interval = 60_000 / rule.perMinute
      const [allowed, remaining, reset, retryAfter] = (await (redis as unknown as { stewardGcra(...args: unknown[]): Promise<[number, number, string, string]> }).stewardGcra(
        prefix + key,
        interval,
        rule.burst,
      ))
      return {
        allowed: allowed === 1,
        limit: rule.burst,
        remaining: Number(remaining),
        resetAtMs: Number(reset),
        retryAfterMs: Number(retryAfter),
      }
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect())
    },
  }
}
