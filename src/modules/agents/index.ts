/**
 * The agents module (issue 18, in progress): the first-party catalog — each agent a deterministic
 * program over the Ledger (domain/programs/) — read through GET /v1/agents and GET /v1/agents/{agent_id};
 * routing and runs (run.service.ts: route, run the program on the tenant's Ledger, dry-run the gate,
 * propose through the gated path, persist the run) and their reads (runs.read.ts); the registry of
 * external agents (registration, activation from the chain or a sandbox resume), the agent-protocol guard,
 * and halt, restore, halt-category and the contribution hold; the spec's scope hash and the AgentRegistry
 * contract's client (chain/agent-registry.ts); and the platform's lifecycle transitions, which the
 * governance module calls (lifecycle.service.ts; docs/agents.md).
 */
import type { Clock } from '../../kernel/clock.ts'
import type { CursorCodec } from '../../kernel/cursor.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { CommandRunner } from '../../platform/commands/command.ts'
import type { Database, Executor } from '../../platform/db/database.ts'
import type { JobQueue } from '../../platform/jobs/job-queue.ts'
import type { TenantDataPlan } from '../../platform/db/tenant-data.ts'
import { agentsRunQueue } from './agents.jobs.ts'
import { agentsRegistryTenantData } from './agents.registry.tables.ts'
import { agentsRunsTenantData } from './agents.runs.tables.ts'
import { createRunsStore } from './agents.runs.store.ts'
import { createAgentsService, type AgentsService } from './agents.service.ts'
import type { AgentRegistryChain } from './chain/agent-registry.ts'
import { createActionsService, type ActionsService, type AgentActionTypes, type AgentProposalsQuery } from './actions.service.ts'
import { createHaltService, type HaltService } from './halt.service.ts'
import { createLifecycleService, type LifecycleService } from './lifecycle.service.ts'
import type { AgentsLedger, AgentsPayments, AgentsPromotions, AgentsProofs, AgentsRaw, AgentsWalletLinks, AgentWriteListener } from './ports.ts'
import { createAgentProtocolGuard, type AgentProtocolGuard } from './protocol-guard.ts'
import { createRegistryService, type RegistryService } from './registry.service.ts'
import { createRegistryStore } from './registry.store.pg.ts'
import { createRunService, type RunService } from './run.service.ts'
import { createRunsReadService, type RunsReadService } from './runs.read.ts'

export { agentRoutes } from './agents.routes.ts'
export { registeredAgentFields } from './agents.schemas.ts'
export { agentsQueues } from './agents.jobs.ts'
export { behaviorHashOf, catalog, type CatalogEntry } from './domain/catalog.ts'
export { scopeHashOf } from './domain/scope-hash.ts'
export { agentRoleScopes, scopeHashOfRole, scopesOfRole } from './domain/agent-roles.ts'
export { createAgentRegistryChain, deployAgentRegistry, type AgentRegistryChain } from './chain/agent-registry.ts'
export type { LedgerSnapshot } from './domain/programs/program.ts'
export type { AgentPaymentProposal, AgentsLedger, AgentsPayments, AgentsPromotions, AgentsProofs, AgentsRaw, AgentsWalletLinks, AgentWriteListener, AgentWriteNotice, GateRunTrace, PolicyDryRun } from './ports.ts'
export type { AgentsService } from './agents.service.ts'
export type { RunService } from './run.service.ts'
export type { RunsReadService } from './runs.read.ts'
export type { AgentOfWallet, RegistryService } from './registry.service.ts'
export type { HaltService } from './halt.service.ts'
export { actionEvidenceRefsMax, moneyActionTypes, type ProposedIntent, type ActionProposalInput, type ActionProposalOutcome, type ActionsService, type AgentActionTypes, type AgentProposalRecord, type AgentProposalsQuery, type ProposingAgent } from './actions.service.ts'
export { AgentActionBody, AgentActionProposed } from './agents.schemas.ts'
export { agentsRpc } from './agents.rpc.ts'
export { governanceAgentPageRows, governanceStatuses, lifecycleTransitions, type GovernanceAgentView, type GovernanceStatus, type LifecycleService, type LifecycleTransition } from './lifecycle.service.ts'
export type { AgentProtocolGuard } from './protocol-guard.ts'

/** The module's tenant rows, deleted with the tenant: runs and their findings, registrations and states. */
export const agentsTenantData: TenantDataPlan = {
  deleted: [...agentsRunsTenantData.deleted, ...agentsRegistryTenantData.deleted],
}

export interface Agents {
  readonly service: AgentsService
  readonly runs: RunService
  readonly reads: RunsReadService
  readonly registry: RegistryService
  readonly halt: HaltService
  /** Actions an agent proposes itself (POST /v1/agents/actions). */
  readonly actions: ActionsService
  /** The query port over every agent proposal, for the proposals module's read model. */
  readonly proposals: AgentProposalsQuery
  /** The platform's governance of registered agents (list, read, pause / resume / revoke). */
  readonly lifecycle: LifecycleService
  /** The agent-protocol checks before dispatch, for the MCP module. */
  readonly protocolGuard: AgentProtocolGuard
  /** Whether the contributor (an agent id) is under a contribution hold in the tenant. */
  isContributionHeld(executor: Executor, tenantId: string, contributor: string): Promise<boolean>
  /** The agent's state in the tenant; undefined when it is neither registered nor ever halted there. */
  stateOf(tenantId: string, agentId: string, executor?: Executor): Promise<'pending_onchain' | 'active' | 'quarantined' | 'revoked' | undefined>
  startWorkers(jobs: Pick<JobQueue, 'work'>, options: { pollingIntervalSeconds: number }): Promise<void>
}

export function createAgents(deps: {
  db: Database
  commands: CommandRunner
  cursors: CursorCodec
  ids: IdSource
  clock: Clock
  promotions: AgentsPromotions
  ledger: AgentsLedger
  payments: AgentsPayments
  proofs: AgentsProofs
  raw: AgentsRaw
  /** The policy module's wallet links: a registration may not name a wallet another agent, tenant or person has linked. */
  walletLinks: AgentsWalletLinks
  chain: AgentRegistryChain | undefined
  /** The proposals module's type resolution: which public proposal type an action type resolves to. */
  actionTypes: AgentActionTypes
  /** Told of every registration and state change, in its transaction (ports.ts AgentWriteListener). */
  afterWrite?: AgentWriteListener | undefined
}): Agents {
  const { db, commands, clock, chain } = deps
  const registryStore = createRegistryStore()
  const runsStore = createRunsStore()
  const actions = createActionsService({ db, commands, runs: runsStore, registry: registryStore, ids: deps.ids, clock, actionTypes: deps.actionTypes })
  const runs = createRunService({ ...deps, store: runsStore, agentState: async (tenantId, agentId) => (await registryStore.findState(db.orm, tenantId, agentId))?.state })
  return {
    service: createAgentsService({ db, store: registryStore, promotions: deps.promotions }),
    runs,
    reads: createRunsReadService({ ...deps, store: runsStore }),
    registry: createRegistryService({ db, commands, store: registryStore, clock, chain, walletLinks: deps.walletLinks, afterWrite: deps.afterWrite }),
    actions,
    proposals: actions.query,
    halt: createHaltService({ commands, store: registryStore, clock, payments: deps.payments, raw: deps.raw, afterWrite: deps.afterWrite }),
    lifecycle: createLifecycleService({ db, commands, store: registryStore, clock, cursors: deps.cursors, chain, payments: deps.payments, afterWrite: deps.afterWrite }),
    protocolGuard: createAgentProtocolGuard({ db, store: registryStore, clock, chain }),
    async isContributionHeld(executor, tenantId, contributor) {
      return (await registryStore.findState(executor, tenantId, contributor))?.contributionHeld === true
    },
    async stateOf(tenantId, agentId, executor = db.orm) {
      return (await registryStore.findState(executor, tenantId, agentId))?.state
    },
    async startWorkers(jobs, { pollingIntervalSeconds }) {
      await jobs.work(agentsRunQueue, (job) => runs.runJob(job), { pollingIntervalSeconds })
    },
  }
}
