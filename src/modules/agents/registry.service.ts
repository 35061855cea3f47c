/**
 * The agent registry (docs/agents.md, "Registration" and "Activation"): an operator registers an external
 * agent (pending_onchain); it becomes active when its registration is confirmed on chain with the scope
 * hash of its role, or, in a sandbox with no chain configured, by the platform's governance resume.
 */
import type { Hex } from 'viem'
import { auditedBy, requirePrincipal, type CommandContext } from '../../kernel/context.ts'
import type { AuditActor } from '../../kernel/audit-record.ts'
import type { Clock } from '../../kernel/clock.ts'
import { AppError } from '../../kernel/errors.ts'
import { hasIdPrefix } from '../../kernel/ids.ts'
import type { Scope } from '../../kernel/principal.ts'
import type { CommandResult, CommandRunner } from '../../platform/commands/command.ts'
import type { Database, Executor, Tx } from '../../platform/db/database.ts'
import { lockWalletAddress } from '../../platform/db/locks.ts'
import { agentKey, type AgentRegistryChain, type RegistrationLog } from './chain/agent-registry.ts'
import { catalog } from './domain/catalog.ts'
import { isAgentRole, scopeHashOfRole, scopesOfRole, type AgentRole } from './domain/agent-roles.ts'
import type { AgentRegistrationRow, AgentStateRow } from './agents.registry.tables.ts'
import type { AgentsWalletLinks, AgentWriteListener, AgentWriteNotice } from './ports.ts'
import type { RegisteredAgent, RegistryStore } from './registry.store.pg.ts'

const hashPattern = /^0x[0-9a-fA-F]{64}$/
/** Registered agents of a tenant scanned for the one a chain-registered wallet names (an operator registers agents by hand). */
const registeredAgentsScannedMax = 500
const addressPattern = /^0x[0-9a-fA-F]{40}$/

export interface RegisterInput {
  readonly agent_id: string
  readonly role: string
  readonly display_name: string
  readonly scope_hash?: string | undefined
  readonly onchain_address?: string | undefined
  readonly registered_tx?: string | undefined
}

/** The spec's Agent, for a registered (external) agent. */
export interface RegisteredAgentView {
  id: string
  kind: 'external'
  role: string
  display_name: string
  state: AgentStateRow['state']
  scope_hash: string
  onchain_address: string | null
  registered_tx: string | null
  registered_at: string | null
  created_at: string
  contribution_hold: boolean
}

export function registeredAgentView({ registration, state }: RegisteredAgent): RegisteredAgentView {
  return {
    id: registration.agentId,
    kind: 'external',
    role: registration.role,
    display_name: registration.displayName,
    state: state.state,
    scope_hash: registration.scopeHash,
    onchain_address: registration.onchainAddress,
    registered_tx: registration.registeredTx,
    registered_at: registration.registeredAt?.toISOString() ?? null,
    created_at: registration.createdAt.toISOString(),
    contribution_hold: state.contributionHeld,
  }
}

/**
 * Why a pending agent was not activated: the chain has no registration of it (in the given transaction,
 * or at all), the chain's scope hash is not its role's, the chain's wallet is not the declared one, or the
 * chain revoked it.
 */
export type ActivationRefusal =
  | 'transaction_not_found'
  | 'transaction_reverted'
  | 'no_registration'
  | 'not_registered_onchain'
  | 'scope_hash_mismatch'
  | 'wallet_mismatch'
  | 'revoked_onchain'

export type ActivationOutcome = { readonly activated: true; readonly agent: RegisteredAgentView } | { readonly activated: false; readonly reason: ActivationRefusal | 'not_pending'; readonly agent: RegisteredAgentView }

/** What sign-in needs of an agent wallet: the agent, its tenant and its plain scopes. */
export interface AgentOfWallet {
  readonly tenantId: string
  readonly agentId: string
  readonly state: AgentStateRow['state']
  readonly scopes: Scope[]
  readonly scopeHash: string
  /** The agent's wallet (lower-case), or null when the registration names none. */
  readonly onchainAddress: string | null
}

export function createRegistryService(deps: {
  db: Database
  commands: CommandRunner
  store: RegistryStore
  clock: Clock
  /** The AgentRegistry contract; undefined in a sandbox with no chain configured. */
  chain: AgentRegistryChain | undefined
  walletLinks: AgentsWalletLinks
  afterWrite?: AgentWriteListener | undefined
}) {
  const { db, commands, store, clock, chain } = deps
  const jobsAfter = async (tx: Tx, notice: AgentWriteNotice) => (await deps.afterWrite?.(tx, notice)) ?? []
  const registryActor: AuditActor = { type: 'system', id: 'agent_registry' }

  async function registered(tenantId: string, agentId: string): Promise<RegisteredAgent> {
    const found = await store.findRegistered(db.orm, tenantId, agentId)
    if (found === undefined) throw new AppError('agent_not_found', 'No such agent.', { agent_id: agentId })
    return found
  }

  /** The registration as the chain holds it, or why it does not count. Reads only; no transaction is open. */
  async function chainRegistration(agent: AgentRegistrationRow, registryChain: AgentRegistryChain): Promise<{ ok: true; log: RegistrationLog; registeredAt: Date } | { ok: false; reason: ActivationRefusal }> {
    let log: RegistrationLog
    if (agent.registeredTx !== null) {
      const inTransaction = await registryChain.registrationInTransaction(agent.registeredTx as Hex, agent.tenantId, agent.agentId)
      if (!inTransaction.found) return { ok: false, reason: inTransaction.reason }
      log = inTransaction.registration
    } else {
      const found = await registryChain.registrationOf(agent.tenantId, agent.agentId)
      if (found === null) return { ok: false, reason: 'not_registered_onchain' }
      log = found
    }
    // The current record, not only the registration's log: a later update or a revocation is what counts now.
    const record = await registryChain.agent(agent.tenantId, agent.agentId)
    if (record === null) return { ok: false, reason: 'not_registered_onchain' }
    if (record.revoked) return { ok: false, reason: 'revoked_onchain' }
    if (record.scopeHash.toLowerCase() !== agent.scopeHash) return { ok: false, reason: 'scope_hash_mismatch' }
    if (agent.onchainAddress !== null && record.wallet.toLowerCase() !== agent.onchainAddress) return { ok: false, reason: 'wallet_mismatch' }
    return { ok: true, log, registeredAt: new Date(Number(record.registeredAt) * 1000) }
  }

  /**
   * A wallet address names one agent in the whole service: none registered elsewhere with it, and no
   * link of it but this agent's own (`principal_type: agent`, this tenant). Holds the address's lock.
   */
  async function assertWalletFree(tx: Tx, tenantId: string, agentId: string, address: string): Promise<void> {
    await lockWalletAddress(tx, address)
    const taken = () => new AppError('wallet_already_linked', 'This wallet address is already another agent\'s or linked to a person or another tenant.', { field: '/onchain_address' })
    // The agent's own registration (a repeated id) is left to the insert's 409 agent_already_registered.
    const claims = await store.registrationsClaiming(tx, address, 2)
    if (claims.some((claim) => claim.tenantId !== tenantId || claim.agentId !== agentId)) throw taken()
    const link = await deps.walletLinks.linkOf(tx, address)
    if (link !== undefined && (link.tenantId !== tenantId || link.principalType !== 'agent' || link.principalId !== agentId)) throw taken()
  }

  return {
    /**
     * Registers an external agent of the caller's tenant: kind external, state pending_onchain,
     * registered_at null. The scope hash is its role's (a given scope_hash must equal it). Inserts the
     * registration and its state row; audits agent.registered. Takes an Idempotency-Key. 409
     * agent_already_registered for an id the tenant already has (registered or in the catalog); 409
     * wallet_already_linked for an onchain_address another agent (of any tenant) is registered with, or
     * that is linked to a person or to another tenant (the address lock orders it with wallet links).
     */
    async register(context: CommandContext, input: RegisterInput): Promise<CommandResult<RegisteredAgentView>> {
      const principal = requirePrincipal(context)
      const tenantId = principal.tenantId
      if (!isAgentRole(input.role)) throw new AppError('validation_failed', 'Unknown agent role.', { field: '/role', allowed: ['reader', 'contributor', 'proposer'] })
      const role: AgentRole = input.role
      const scopeHash = scopeHashOfRole(role)
      if (input.scope_hash !== undefined) {
        if (!hashPattern.test(input.scope_hash)) throw new AppError('validation_failed', 'scope_hash must be 0x and 64 hex digits.', { field: '/scope_hash' })
        if (input.scope_hash.toLowerCase() !== scopeHash) {
          throw new AppError('validation_failed', 'scope_hash is not the scope hash of the role\'s scopes.', { field: '/scope_hash', expected: scopeHash, scopes: scopesOfRole(role) })
        }
      }
      if (input.onchain_address !== undefined && !addressPattern.test(input.onchain_address)) throw new AppError('validation_failed', 'onchain_address must be 0x and 40 hex digits.', { field: '/onchain_address' })
      if (input.registered_tx !== undefined && !hashPattern.test(input.registered_tx)) throw new AppError('validation_failed', 'registered_tx must be 0x and 64 hex digits.', { field: '/registered_tx' })
      if (catalog.some((entry) => entry.agent_key === input.agent_id)) throw new AppError('agent_already_registered', 'A first-party agent has this id.', { agent_id: input.agent_id })
      if (hasIdPrefix(input.agent_id, 'serviceToken')) {
        throw new AppError('validation_failed', 'An agent id may not begin with svt_: those are service tokens\' ids.', { field: '/agent_id', reserved_prefix: 'svt_' })
      }

      return commands.run(context, { name: 'agents.register', tenantId, input }, async (tx) => {
        const now = clock.now()
        if (input.onchain_address !== undefined) await assertWalletFree(tx, tenantId, input.agent_id, input.onchain_address.toLowerCase())
        const registration: AgentRegistrationRow = {
          tenantId,
          agentId: input.agent_id,
          role,
          displayName: input.display_name,
          scopeHash,
          onchainAddress: input.onchain_address?.toLowerCase() ?? null,
          registeredTx: input.registered_tx?.toLowerCase() ?? null,
          registeredAt: null,
          createdBy: principal.id,
          createdAt: now,
          updatedAt: now,
        }
        const state: AgentStateRow = { tenantId, agentId: input.agent_id, state: 'pending_onchain', contributionHeld: false, createdAt: now, updatedAt: now }
        if (!(await store.insertRegistration(tx, registration, state))) throw new AppError('agent_already_registered', undefined, { agent_id: input.agent_id })
        return {
          outcome: registeredAgentView({ registration, state }),
          jobs: await jobsAfter(tx, { tenantId, kind: 'registered', agentIds: [input.agent_id] }),
          audit: [
            auditedBy(context, {
              layer: 'agent',
              action: 'agent.registered',
              entity: { type: 'agent', id: input.agent_id },
              inputs: { role, scope_hash: scopeHash, onchain_address: registration.onchainAddress, registered_tx: registration.registeredTx },
              outputs: { state: 'pending_onchain', kind: 'external' },
            }),
          ],
        }
      })
    },

    /**
     * Activation from the chain (pending_onchain → active): reads the registration (the registered_tx's
     * AgentRegistered log, or the contract's record), then locks the agent's state and, if it is still
     * pending and the chain's current scope hash (and wallet, when declared) match, activates it with the
     * chain's transaction and time. Audits agent.activated, or agent.activation_refused with the reason.
     * No transaction is open during the chain reads.
     */
    async confirmOnchain(context: CommandContext, input: { tenantId: string; agentId: string }): Promise<ActivationOutcome> {
      if (chain === undefined) throw new AppError('agent_not_registered_onchain', 'No agent registry chain is configured; a sandbox activates agents by the governance resume.')
      const agent = await registered(input.tenantId, input.agentId)
      if (agent.state.state !== 'pending_onchain') return { activated: false, reason: 'not_pending', agent: registeredAgentView(agent) }
      const found = await chainRegistration(agent.registration, chain)
      const { outcome } = await commands.run(context, { name: 'agents.confirm_onchain', tenantId: input.tenantId, input }, async (tx) => {
        const now = clock.now()
        const locked = await store.lockState(tx, input.tenantId, input.agentId)
        if (locked?.state !== 'pending_onchain') return { outcome: { activated: false, reason: 'not_pending', agent: registeredAgentView(agent) } as ActivationOutcome }
        const entity = { type: 'agent', id: input.agentId }
        if (!found.ok) {
          return {
            outcome: { activated: false, reason: found.reason, agent: registeredAgentView(agent) } as ActivationOutcome,
            audit: [{ tenantId: input.tenantId, layer: 'agent', actor: registryActor, action: 'agent.activation_refused', entity, outputs: { reason: found.reason }, requestId: context.requestId }],
          }
        }
        await store.confirmRegistration(tx, input.tenantId, input.agentId, { registeredTx: found.log.txHash.toLowerCase(), registeredAt: found.registeredAt }, now)
        await store.updateState(tx, input.tenantId, input.agentId, { state: 'active' }, now)
        const activated = await store.findRegistered(tx, input.tenantId, input.agentId)
        return {
          outcome: { activated: true, agent: registeredAgentView(activated!) } as ActivationOutcome,
          jobs: await jobsAfter(tx, { tenantId: input.tenantId, kind: 'state_changed', agentIds: [input.agentId] }),
          audit: [
            {
              tenantId: input.tenantId,
              layer: 'agent',
              actor: registryActor,
              action: 'agent.activated',
              entity,
              inputs: { registered_tx: found.log.txHash.toLowerCase(), block_number: found.log.blockNumber.toString(), via: 'chain' },
              outputs: { state_before: 'pending_onchain', state: 'active', scope_hash: agent.registration.scopeHash },
              requestId: context.requestId,
            },
          ],
        }
      })
      return outcome
    },

    /**
     * The platform's governance resume (its route comes with the governance module): in a sandbox with
     * no chain configured, activates a pending_onchain agent (registered_at = now); it also resumes a
     * quarantined agent. With a chain configured, a pending agent is activated only from the chain (409
     * agent_inactive). Locks the state; audits agent.activated or agent.resumed as `actor`.
     */
    async resume(context: CommandContext, input: { tenantId: string; agentId: string; actor: AuditActor }): Promise<RegisteredAgentView> {
      await registered(input.tenantId, input.agentId)
      const { outcome } = await commands.run(context, { name: 'agents.resume', tenantId: input.tenantId, input: { tenantId: input.tenantId, agentId: input.agentId } }, async (tx) => {
        const now = clock.now()
        const locked = await store.lockState(tx, input.tenantId, input.agentId)
        const before = locked!.state
        if (before === 'pending_onchain' && chain !== undefined) {
          throw new AppError('agent_inactive', 'A chain is configured: the agent is activated when its registration is confirmed on chain.', { agent_id: input.agentId, state: before })
        }
        if (before !== 'pending_onchain' && before !== 'quarantined') throw new AppError('agent_inactive', `A ${before} agent cannot be resumed.`, { agent_id: input.agentId, state: before })
        if (before === 'pending_onchain') await store.confirmRegistration(tx, input.tenantId, input.agentId, { registeredTx: null, registeredAt: now }, now)
        await store.updateState(tx, input.tenantId, input.agentId, { state: 'active' }, now)
        const after = await store.findRegistered(tx, input.tenantId, input.agentId)
        return {
          outcome: registeredAgentView(after!),
          jobs: await jobsAfter(tx, { tenantId: input.tenantId, kind: 'state_changed', agentIds: [input.agentId] }),
          audit: [
            {
              tenantId: input.tenantId,
              layer: 'agent',
              actor: input.actor,
              action: before === 'pending_onchain' ? 'agent.activated' : 'agent.resumed',
              entity: { type: 'agent', id: input.agentId },
              inputs: { via: 'governance_resume' },
              outputs: { state_before: before, state: 'active' },
              requestId: context.requestId,
            },
          ],
        }
      })
      return outcome
    },

    /**
     * The registered agent a wallet signs in as: looked up in the tenant the caller found it in (a wallet
     * link or the chain's agentOfWallet), with the plain scopes of its role. Undefined when none.
     */
    async agentOfWallet(tenantId: string, address: string): Promise<AgentOfWallet | undefined> {
      let found = await store.findRegisteredByAddress(db.orm, tenantId, address.toLowerCase())
      if (found === undefined && chain !== undefined) {
        // A registration that declared no wallet: the chain names the agent by its key (keccak256 of its
        // id), which is found among the tenant's registered agents.
        const onchain = await chain.agentOfWallet(address as Hex)
        if (onchain !== null && onchain.tenantId === tenantId) {
          const candidates = await store.listRegistered(db.orm, tenantId, registeredAgentsScannedMax)
          found = candidates.find((candidate) => candidate.registration.onchainAddress === null && agentKey(candidate.registration.agentId) === onchain.agentKey)
        }
      }
      if (found === undefined || !isAgentRole(found.registration.role)) return undefined
      return { tenantId, agentId: found.registration.agentId, state: found.state.state, scopes: scopesOfRole(found.registration.role), scopeHash: found.registration.scopeHash, onchainAddress: found.registration.onchainAddress }
    },

    /** A registered agent with the plain scopes of its role, by id; undefined when the tenant has none. */
    async agentById(tenantId: string, agentId: string, executor: Executor = db.orm): Promise<AgentOfWallet | undefined> {
      const found = await store.findRegistered(executor, tenantId, agentId)
      if (found === undefined || !isAgentRole(found.registration.role)) return undefined
      return { tenantId, agentId, state: found.state.state, scopes: scopesOfRole(found.registration.role), scopeHash: found.registration.scopeHash, onchainAddress: found.registration.onchainAddress }
    },

    /**
     * Deliberately across tenants: the registrations (at most two) whose wallet is `address`, for a
     * wallet link's check that the address is not another agent's. Read in the caller's transaction,
     * which holds the address's lock.
     */
    async registrationsClaiming(executor: Executor, address: string): Promise<Array<{ tenantId: string; agentId: string }>> {
      return store.registrationsClaiming(executor, address.toLowerCase(), 2)
    },

    /** The tenant the chain registered a wallet for, when a chain is configured. */
    async tenantOfWalletOnchain(address: string): Promise<string | undefined> {
      if (chain === undefined) return undefined
      const found = await chain.agentOfWallet(address as Hex)
      return found?.tenantId ?? undefined
    },
  }
}

export type RegistryService = ReturnType<typeof createRegistryService>
