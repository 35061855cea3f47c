/**
 * The agents module (issue 18, in progress): the first-party catalog — each agent a deterministic
 * program over the Ledger (domain/programs/) — read through GET /v1/agents and GET /v1/agents/{agent_id};
 * routing and runs (run.service.ts: route, run the program on the tenant's Ledger, dry-run the gate,
 * propose through the gated path, persist the run) and their reads (runs.read.ts); the spec's scope
 * hash and the AgentRegistry contract's client (chain/agent-registry.ts) for external agents.
 * Registration, sign-in and halt are coming (docs/agents.md).
 */
import type { Clock } from '../../kernel/clock.ts'
import type { CursorCodec } from '../../kernel/cursor.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { CommandRunner } from '../../platform/commands/command.ts'
import type { Database } from '../../platform/db/database.ts'
import type { JobQueue } from '../../platform/jobs/job-queue.ts'
import { agentsRunQueue } from './agents.jobs.ts'
import { createRunsStore } from './agents.runs.store.ts'
import { createAgentsService, type AgentsService } from './agents.service.ts'
import type { AgentsLedger, AgentsPayments, AgentsPromotions, AgentsProofs } from './ports.ts'
import { createRunService, type RunService } from './run.service.ts'
import { createRunsReadService, type RunsReadService } from './runs.read.ts'

export { agentRoutes } from './agents.routes.ts'
export { agentsQueues } from './agents.jobs.ts'
export { agentsTenantData } from './agents.runs.tables.ts'
export { behaviorHashOf, catalog, type CatalogEntry } from './domain/catalog.ts'
export { scopeHashOf } from './domain/scope-hash.ts'
export type { LedgerSnapshot } from './domain/programs/program.ts'
export type { AgentPaymentProposal, AgentsLedger, AgentsPayments, AgentsPromotions, AgentsProofs, GateRunTrace, PolicyDryRun } from './ports.ts'
export type { AgentsService } from './agents.service.ts'
export type { RunService } from './run.service.ts'
export type { RunsReadService } from './runs.read.ts'

export interface Agents {
  readonly service: AgentsService
  readonly runs: RunService
  readonly reads: RunsReadService
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
}): Agents {
  const store = createRunsStore()
  const runs = createRunService({ ...deps, store })
  return {
    service: createAgentsService(deps),
    runs,
    reads: createRunsReadService({ ...deps, store }),
    async startWorkers(jobs, { pollingIntervalSeconds }) {
      await jobs.work(agentsRunQueue, (job) => runs.runJob(job), { pollingIntervalSeconds })
    },
  }
}
