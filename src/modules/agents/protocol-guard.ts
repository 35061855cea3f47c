/**
 * The agent-protocol checks before dispatch (spec, "Agent-protocol checks before dispatch"; docs/agents.md,
 * "The guard"), one reusable function for the MCP module to call with the request's principal before it
 * dispatches a JSON-RPC method. Each failure is an HTTP error of the spec's catalogue:
 *
 * 1. the principal is an agent registered in its token's tenant (401 agent_not_registered) and active
 *    (409 agent_inactive);
 * 2. the token carries a scope_hash claim (401 agent_scope_hash_missing), the chain has a live
 *    registration of the agent (401 agent_not_registered_onchain), and the claim equals the on-chain
 *    scope hash (401 agent_scope_hash_mismatch), read through a 60-second cache with the chain RPC as
 *    the fallback; with no chain configured (a sandbox) the hash the registration holds stands in;
 * 3. the token's tenant is the agent's registered tenant: on chain, the tenant the registry registered
 *    the agent's wallet for (403 auth_tenant_mismatch);
 * and the grant has not moved under the token: the agent's role still has the hash the token was minted
 * with (403 scope_expired; sign in again). A chain that cannot be read when the cache has nothing fresh is
 * 503 service_unavailable: the guard fails closed, and the caller retries.
 *
 * The MCP route runs it before dispatch; authentication runs it for an agent token on every other route
 * too, and SIWX before it mints one (docs/agents.md, "The guard"), so a registration the chain revoked or
 * changed stops the agent everywhere, not only on the agent protocol.
 */
import type { Address, Hex } from 'viem'
import type { Clock } from '../../kernel/clock.ts'
import { AppError } from '../../kernel/errors.ts'
import type { Principal } from '../../kernel/principal.ts'
import type { Database } from '../../platform/db/database.ts'
import type { AgentRecord, AgentRegistryChain } from './chain/agent-registry.ts'
import type { RegisteredAgent, RegistryStore } from './registry.store.pg.ts'

/** How long an on-chain record read is trusted (the spec's 60-second cache). */
export const onchainRecordCacheSeconds = 60
/** Bound on cached records; the oldest is dropped past it. */
const cacheEntriesMax = 10_000

/**
 * What the guard reads of a principal: who it is, its token's tenant and its `scope_hash` claim; at SIWX
 * also the signing wallet (lower-case), which, with a chain, must be the wallet the chain registers for
 * the agent (401 agent_not_registered_onchain otherwise: the signer is not the agent's registered key).
 */
export type GuardedPrincipal = Pick<Principal, 'id' | 'type' | 'tenantId' | 'scopeHash'> & { readonly signer?: string | undefined }

export interface AgentProtocolGuard {
  /** Throws the first failing check's error; resolves when the agent may dispatch. */
  check(principal: GuardedPrincipal): Promise<void>
  /**
   * The same checks for a principal the auth module authenticated in this very request, which re-read the
   * agent's state from the registry and refused it unless active: the registration (its hash and state)
   * is then read through a 60-second cache per agent (the spec's scope-hash cache) instead of once more
   * per request. A halted agent is still refused at once, by authentication. The MCP route calls this.
   */
  checkAuthenticated(principal: GuardedPrincipal): Promise<void>
}

export function createAgentProtocolGuard(deps: { db: Database; store: RegistryStore; clock: Clock; chain: AgentRegistryChain | undefined }): AgentProtocolGuard {
  const { db, store, clock, chain } = deps
  const cache = new Map<string, { record: AgentRecord | null; walletTenantId: string | null; fetchedAtMs: number }>()
  const registrations = new Map<string, { agent: RegisteredAgent; fetchedAtMs: number }>()

  /** The active registration, from the cache while fresh; an agent not active is never cached. */
  async function cachedRegistration(tenantId: string, agentId: string): Promise<RegisteredAgent | undefined> {
    const key = `${tenantId}:${agentId}`
    const nowMs = clock.now().getTime()
    const cached = registrations.get(key)
    if (cached !== undefined && nowMs - cached.fetchedAtMs < onchainRecordCacheSeconds * 1000) return cached.agent
    const agent = await store.findRegistered(db.orm, tenantId, agentId)
    registrations.delete(key)
    if (agent !== undefined && agent.state.state === 'active') {
      if (registrations.size >= cacheEntriesMax) registrations.delete(registrations.keys().next().value!)
      registrations.set(key, { agent, fetchedAtMs: nowMs })
    }
    return agent
  }

  async function onchain(registryChain: AgentRegistryChain, tenantId: string, agentId: string) {
    const key = `${tenantId}:${agentId}`
    const nowMs = clock.now().getTime()
    const cached = cache.get(key)
    if (cached !== undefined && nowMs - cached.fetchedAtMs < onchainRecordCacheSeconds * 1000) return cached
    let record: AgentRecord | null
    let walletAgent: Awaited<ReturnType<AgentRegistryChain['agentOfWallet']>>
    try {
      record = await registryChain.agent(tenantId, agentId)
      walletAgent = record === null ? null : await registryChain.agentOfWallet(record.wallet as Address)
    } catch (error) {
      // Fail closed, but as what it is: the registry could not be read, so the caller may retry.
      throw Object.assign(new AppError('service_unavailable', 'The agent registry on chain could not be read; retry shortly.', { dependency: 'agent_registry' }), { cause: error })
    }
    const entry = { record, walletTenantId: walletAgent?.tenantId ?? null, fetchedAtMs: nowMs }
    if (cache.size >= cacheEntriesMax) cache.delete(cache.keys().next().value!)
    cache.delete(key)
    cache.set(key, entry)
    return entry
  }

  async function checkWith(principal: GuardedPrincipal, read: (tenantId: string, agentId: string) => Promise<RegisteredAgent | undefined>) {
    if (principal.type !== 'agent') throw new AppError('agent_not_registered', 'Only an agent token (from the SIWX exchange) may call the agent protocol.')
    const agent = await read(principal.tenantId, principal.id)
    if (agent === undefined) throw new AppError('agent_not_registered')
    if (agent.state.state !== 'active') throw new AppError('agent_inactive', `The agent is ${agent.state.state}.`, { state: agent.state.state })
    const claim = principal.scopeHash?.toLowerCase()
    if (claim === undefined || claim === '') throw new AppError('agent_scope_hash_missing')

    let registeredHash: string
    if (chain === undefined) {
      registeredHash = agent.registration.scopeHash
    } else {
      const found = await onchain(chain, principal.tenantId, principal.id)
      if (found.record === null || found.record.revoked) throw new AppError('agent_not_registered_onchain')
      if (principal.signer !== undefined && found.record.wallet.toLowerCase() !== principal.signer.toLowerCase()) {
        throw new AppError('agent_not_registered_onchain', 'The chain registers another wallet for this agent.')
      }
      registeredHash = (found.record.scopeHash as Hex).toLowerCase()
      if (claim !== registeredHash) throw new AppError('agent_scope_hash_mismatch')
      if (found.walletTenantId !== principal.tenantId) throw new AppError('auth_tenant_mismatch', 'The token\'s tenant is not the tenant the agent is registered for on chain.')
    }
    if (claim !== registeredHash) throw new AppError('agent_scope_hash_mismatch')
    if (claim !== agent.registration.scopeHash) throw new AppError('scope_expired', 'The agent\'s scopes changed since this token was minted; sign in again.')
  }

  return {
    check: (principal) => checkWith(principal, (tenantId, agentId) => store.findRegistered(db.orm, tenantId, agentId)),
    checkAuthenticated: (principal) => checkWith(principal, cachedRegistration),
  }
}
