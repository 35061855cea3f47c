import { describe, expect, it } from 'vitest'
import { ownerScopes, resolveRateLimitRule, roleScopes, tierRules } from './scopes.ts'

describe('rate-limit rules by tier', () => {
  it.each([
    ['free', { perMinute: 60, burst: 100 }],
    ['developer', { perMinute: 600, burst: 1_000 }],
    ['production', { perMinute: 6_000, burst: 10_000 }],
  ] as const)('gives the spec figures for %s', (tier, rule) => {
    expect(resolveRateLimitRule(tier, { perMinute: null, burst: null })).toEqual(rule)
  })

  it.each([
    ['custom figures', { perMinute: 45_000, burst: 50_000 }, { perMinute: 45_000, burst: 50_000 }],
    ['no figures', { perMinute: null, burst: null }, tierRules.production],
    ['zero figures', { perMinute: 0, burst: 0 }, tierRules.production],
    ['negative figures', { perMinute: -5, burst: -1 }, tierRules.production],
    ['one usable figure', { perMinute: 120, burst: null }, { perMinute: 120, burst: tierRules.production.burst }],
  ])('resolves enterprise with %s, never to unlimited or a permanent 429', (_label, custom, expected) => {
    expect(resolveRateLimitRule('enterprise', custom)).toEqual(expected)
  })
})

describe('role scopes', () => {
  it('gives the owner exactly the spec list and no role the propose or execute scopes', () => {
    expect(roleScopes.owner).toEqual(ownerScopes)
    for (const scopes of Object.values(roleScopes)) {
      expect(scopes).not.toContain('payment_intent:propose')
      expect(scopes).not.toContain('payment_intent:execute')
      expect(scopes).not.toContain('execution:propose')
    }
  })
})
