/**
 * Who is calling, in the words every layer shares: the scope vocabulary (spec, "Authentication"),
 * member roles, principal types and the rate-limit rule a credential carries. What each role or
 * credential is granted is the auth module's business (modules/auth/scopes.ts).
 */

export const scopes = [
  'ledger:read',
  'ledger:write',
  'wiki:read',
  'raw:read',
  'raw:write',
  'policy:read',
  'policy:write',
  'policy:sign',
  'audit:read',
  'audit:write',
  'execution:read',
  'execution:admin',
  'execution:propose',
  'payment_intent:approve',
  'payment_intent:propose',
  'payment_intent:execute',
  'surfaces:admin',
  'governance:read',
] as const

export type Scope = (typeof scopes)[number]

export const memberRoles = ['owner', 'admin', 'approver', 'viewer'] as const
export type MemberRole = (typeof memberRoles)[number]

export interface RateLimitRule {
  readonly perMinute: number
  readonly burst: number
}

export type PrincipalType = 'user' | 'service' | 'api_key' | 'agent'

/** Who is calling. The wire shape of the spec is `{ id, type, tenantId, scopes }`. */
export interface Principal {
  readonly id: string
  readonly type: PrincipalType
  readonly tenantId: string
  readonly scopes: readonly Scope[]
  /** The member role for user principals. */
  readonly role?: MemberRole
  /** The key, token or user the rate limit and audit attribution are keyed to. */
  readonly credentialId: string
  readonly rateLimit: RateLimitRule
  /**
   * For agent principals (an agent token from SIWX): the token's `scope_hash` claim, which the
   * agent-protocol guard compares with the on-chain hash before dispatch; undefined for the others.
   */
  readonly scopeHash?: string
}

export function hasScopes(principal: Pick<Principal, 'scopes'>, required: readonly Scope[]): boolean {
  return required.every((scope) => principal.scopes.includes(scope))
}

export function intersectScopes(granted: readonly string[], allowed: readonly Scope[]): Scope[] {
  return allowed.filter((scope) => granted.includes(scope))
}
