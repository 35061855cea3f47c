/**
 * The agents module (issue 18, in progress): the first-party catalog — each agent a deterministic
 * program over the Ledger (domain/programs/) — read through GET /v1/agents and GET /v1/agents/{agent_id};
 * the registry of external agents (registration, activation from the chain or a sandbox resume), the
 * agent-protocol guard, and halt, restore, halt-category and the contribution hold (docs/agents.md).
 */
import type { Clock } from '../../kernel/clock.ts'
import type { CommandRunner } from '../../platform/commands/command.ts'
import type { Database, Executor } from '../../platform/db/database.ts'
import { createAgentsService, type AgentsService } from './agents.service.ts'
import type { AgentRegistryChain } from './chain/agent-registry.ts'
import { createHaltService, type HaltService } from './halt.service.ts'
import type { AgentsPayments, AgentsPromotions, AgentsRaw } from './ports.ts'
import { createAgentProtocolGuard, type AgentProtocolGuard } from './protocol-guard.ts'
import { createRegistryService, type RegistryService } from './registry.service.ts'
import { createRegistryStore } from './registry.store.pg.ts'

export { agentRoutes } from './agents.routes.ts'
export { agentsTenantData } from './agents.registry.tables.ts'
export { behaviorHashOf, catalog, type CatalogEntry } from './domain/catalog.ts'
export { scopeHashOf } from './domain/scope-hash.ts'
export { agentRoleScopes, scopeHashOfRole, scopesOfRole } from './domain/agent-roles.ts'
export { createAgentRegistryChain, deployAgentRegistry, type AgentRegistryChain } from './chain/agent-registry.ts'
export type { AgentsPayments, AgentsPromotions, AgentsRaw } from './ports.ts'
export type { AgentsService } from './agents.service.ts'
export type { AgentOfWallet, RegistryService } from './registry.service.ts'
export type { HaltService } from './halt.service.ts'
export type { AgentProtocolGuard } from './protocol-guard.ts'

export interface Agents {
  readonly service: AgentsService
  readonly registry: RegistryService
  readonly halt: HaltService
  /** The agent-protocol checks before dispatch, for the MCP module. */
  readonly protocolGuard: AgentProtocolGuard
  /** Whether the agent may act in the tenant now: false when halted or not (yet) active. Undefined: not a registered or halted agent. */
  /** Whether the contributor (an agent id) is under a contribution hold in the tenant. */
  isContributionHeld(executor: Executor, tenantId: string, contributor: string): Promise<boolean>
  stateOf(tenantId: string, agentId: string, executor?: Executor): Promise<'pending_onchain' | 'active' | 'quarantined' | 'revoked' | undefined>
}

export function createAgents(deps: { db: Database; commands: CommandRunner; clock: Clock; promotions: AgentsPromotions; payments: AgentsPayments; raw: AgentsRaw; chain: AgentRegistryChain | undefined }): Agents {
  const store = createRegistryStore()
  const { db, commands, clock, chain } = deps
  return {
    service: createAgentsService({ db, store, promotions: deps.promotions }),
    registry: createRegistryService({ db, commands, store, clock, chain }),
    halt: createHaltService({ commands, store, clock, payments: deps.payments, raw: deps.raw }),
    protocolGuard: createAgentProtocolGuard({ db, store, clock, chain }),
    async isContributionHeld(executor, tenantId, contributor) {
      return (await store.findState(executor, tenantId, contributor))?.contributionHeld === true
    },
    async stateOf(tenantId, agentId, executor = db.orm) {
      return (await store.findState(executor, tenantId, agentId))?.state
    },
  }
}
