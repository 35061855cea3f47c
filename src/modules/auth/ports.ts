/**
 * What the auth module needs from other modules; composition plugs the implementations in (the tenants
 * module's directory). Auth reads no other module's tables: users, members and tenants come through here.
 */
import type { SQL } from 'drizzle-orm'
import type { PgColumn } from 'drizzle-orm/pg-core'
import type { Executor } from '../../platform/db/database.ts'
import type { PrincipalRecord, TenantRow, TenantStanding, UserStanding } from '../tenants/index.ts'

/** Users, members and tenants, as the tenants module answers for them. */
export interface AuthTenants {
  findTenant(executor: Executor, tenantId: string): Promise<TenantRow | undefined>
  /** The standing of a user, their member record and tenant, by id (a JWT's subject, on every request). */
  findUserStanding(executor: Executor, tenantId: string, userId: string): Promise<UserStanding | undefined>
  /** A user with their member record and tenant, by id (a JWT's subject). */
  findUserPrincipal(executor: Executor, tenantId: string, userId: string): Promise<PrincipalRecord | undefined>
  /** The same by the (service-wide unique) email given at login. */
  findLoginRecord(executor: Executor, email: string): Promise<PrincipalRecord | undefined>
  /**
   * SQL: the standing of the tenant `tenantId` names, for a credential query of ours, so that a key or
   * service token and its tenant's standing come back in one round trip.
   */
  standingOf(tenantId: PgColumn | SQL): SQL<TenantStanding>
}

/** A linked wallet (POST /v1/tenants/{tenant_id}/wallets), found by address across the service (the policy module). */
export interface AuthWallets {
  /** `address` lower-cased; undefined when no tenant linked it. */
  /**
   * The wallet linked to the address, in any tenant. `selfLinked`: its principal linked it (a human wallet
   * another member linked for them, which an earlier version allowed, never signs in as them).
   */
  findWallet(executor: Executor, address: string): Promise<{ tenantId: string; principalType: 'human' | 'agent'; principalId: string; selfLinked: boolean } | undefined>
}

/** A registered agent as sign-in and agent tokens need it (the agents module's registry). */
export interface SignInAgent {
  readonly tenantId: string
  readonly agentId: string
  readonly state: 'pending_onchain' | 'active' | 'quarantined' | 'revoked'
  /** The plain scopes of its role. */
  readonly scopes: readonly string[]
  readonly scopeHash: string
  /** Its wallet (lower-case), or null when the registration names none. */
  readonly onchainAddress: string | null
}

/** What auth needs of the agents module: agents by wallet or id, and activation from the chain at sign-in. */
export interface AuthAgents {
  agentOfWallet(tenantId: string, address: string): Promise<SignInAgent | undefined>
  agentById(tenantId: string, agentId: string): Promise<SignInAgent | undefined>
  /** The tenant the AgentRegistry registered this wallet for; undefined with no chain or no registration. */
  tenantOfWalletOnchain(address: string): Promise<string | undefined>
  /** Tries to activate a pending_onchain agent from the chain; answers its state afterwards (unchanged with no chain). */
  activateFromChain(requestId: string, tenantId: string, agentId: string): Promise<SignInAgent['state']>
  /**
   * The agent-protocol guard's checks of an agent token's claims (the agents module's, docs/agents.md):
   * active, its `scope_hash` the one the chain holds (or, with no chain, the registration's), its tenant the
   * one the chain registered its wallet for. Throws the first failing check's catalogue error (401
   * agent_not_registered_onchain or agent_scope_hash_mismatch, 403 auth_tenant_mismatch or scope_expired,
   * 503 service_unavailable when the chain cannot be read); the chain's answer is cached 60 seconds.
   * `signer` (SIWX): with a chain, the wallet the chain registers for the agent must be this one.
   */
  checkAgentClaims(claims: { readonly id: string; readonly type: 'agent'; readonly tenantId: string; readonly scopeHash: string | undefined; readonly signer?: string | undefined }): Promise<void>
}
