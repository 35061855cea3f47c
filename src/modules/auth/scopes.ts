/**
 * What each credential is granted: the owner list is the spec's ("Authentication"); the member role table is Steward's decision (docs/decisions.md).
 */
import { type MemberRole, type RateLimitRule, type Scope } from '../../kernel/principal.ts'



/** Exactly the owner JWT list of the spec; never payment_intent:propose, payment_intent:execute or execution:propose. */
export const ownerScopes: readonly Scope[] = [
  'ledger:read',
  'wiki:read',
  'raw:read',
  'raw:write',
  'policy:read',
  'policy:write',
  'audit:read',
  'execution:read',
  'payment_intent:approve',
  'surfaces:admin',
]

const readScopes: readonly Scope[] = ['ledger:read', 'wiki:read', 'raw:read', 'policy:read', 'audit:read', 'execution:read']

/**
 * What a member's login token carries, by role. The owner gets exactly the spec's list; admin adds the
 * scopes the spec requires someone to hold (policy:sign, ledger:write, audit:write, execution:admin);
 * approver reads, approves and co-signs policies; viewer only reads. No user role carries
 * payment_intent:propose, payment_intent:execute or execution:propose: people approve, agents propose,
 * and only the internal service path executes.
 */
export const roleScopes: Readonly<Record<MemberRole, readonly Scope[]>> = {
  owner: ownerScopes,
  admin: [...ownerScopes, 'policy:sign', 'ledger:write', 'audit:write', 'execution:admin'],
  approver: [...readScopes, 'payment_intent:approve', 'policy:sign'],
  viewer: readScopes,
}

/** A tenant API key may carry only these (spec: sandbox and read-only). */
export const apiKeyScopes = ['ledger:read', 'audit:read', 'governance:read'] as const satisfies readonly Scope[]
export type ApiKeyScope = (typeof apiKeyScopes)[number]

/**
 * The break-glass service token stands in for Steward's internal agents in the sandbox: it reads,
 * writes evidence and ledger corrections, proposes and executes through the gate, and records audit
 * actions. It never approves and never signs policy: those are human acts.
 */
export const serviceTokenScopes = [
  'ledger:read',
  'ledger:write',
  'wiki:read',
  'raw:read',
  'raw:write',
  'policy:read',
  'audit:read',
  'audit:write',
  'execution:read',
  'execution:propose',
  'payment_intent:propose',
  'payment_intent:execute',
] as const satisfies readonly Scope[]
export type ServiceTokenScope = (typeof serviceTokenScopes)[number]

export const rateLimitTiers = ['free', 'developer', 'production', 'enterprise'] as const
export type RateLimitTier = (typeof rateLimitTiers)[number]

/** The spec's tiers (Limits). Enterprise is custom: its figures come from the tenant row. */
export const tierRules: Readonly<Record<Exclude<RateLimitTier, 'enterprise'>, RateLimitRule>> = {
  free: { perMinute: 60, burst: 100 },
  developer: { perMinute: 600, burst: 1_000 },
  production: { perMinute: 6_000, burst: 10_000 },
}

export function resolveRateLimitRule(
  tier: RateLimitTier,
  custom: { perMinute: number | null; burst: number | null },
): RateLimitRule {
  if (tier === 'enterprise') {
    // An enterprise tenant without usable custom figures falls back to the production tier, never to
    // unlimited and never to a permanent 429.
    const usable = (value: number | null): value is number => value !== null && Number.isInteger(value) && value > 0
    return {
      perMinute: usable(custom.perMinute) ? custom.perMinute : tierRules.production.perMinute,
      burst: usable(custom.burst) ? custom.burst : tierRules.production.burst,
    }
  }
  return tierRules[tier]
}

