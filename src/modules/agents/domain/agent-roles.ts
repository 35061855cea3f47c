/**
 * The roles an external agent is registered with, and the plain scopes each grants (docs/agents.md,
 * "Registration"). The spec stores only an agent's scope hash (its governance view shows `scopes: null`),
 * yet the agent token carries the agent's plain scopes, so the scopes are a function of the role: the
 * service knows them without storing them, and the scope hash the chain must hold is the role's.
 *
 * An agent token "can read, contribute evidence and propose, never execute" (spec, "Authentication"):
 * no role grants payment_intent:execute, execution:propose, an admin scope or payment_intent:approve.
 */
import type { Scope } from '../../../kernel/principal.ts'
import { scopeHashOf } from './scope-hash.ts'

export const agentRoleScopes = {
  /** Reads the Ledger and the Wiki. */
  reader: ['ledger:read', 'wiki:read'],
  /** Reads, and contributes evidence to Raw. */
  contributor: ['ledger:read', 'wiki:read', 'raw:write'],
  /** Reads, contributes, and proposes PaymentIntents through the gated path. */
  proposer: ['ledger:read', 'wiki:read', 'raw:write', 'payment_intent:propose'],
} as const satisfies Record<string, readonly Scope[]>

export type AgentRole = keyof typeof agentRoleScopes
export const agentRoles = Object.keys(agentRoleScopes) as AgentRole[]

export function isAgentRole(role: string): role is AgentRole {
  return Object.hasOwn(agentRoleScopes, role)
}

/** The plain scopes of a role, sorted as the scope hash sorts them. */
export function scopesOfRole(role: AgentRole): Scope[] {
  return [...agentRoleScopes[role]].sort()
}

/** The scope hash a role's agent must have on chain (lower-case hex). */
export function scopeHashOfRole(role: AgentRole): string {
  return scopeHashOf(scopesOfRole(role)).toLowerCase()
}
