/**
 * The memory module (issue 19, item 7; docs/memory.md): memory pages — Markdown about each account,
 * counterparty, obligation, invoice, agent, the policy, each month and each currency's cash flow —
 * rendered deterministically from the Ledger (read only, through its query port), the policy and the
 * agents; regenerated after the Ledger, the policy or the agents change (their generic write hooks queue
 * `memory-regenerate`) and on request; listed, read by slug or id, and searched in full text.
 */
import type { Clock } from '../../kernel/clock.ts'
import type { CursorCodec } from '../../kernel/cursor.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { CommandRunner, PendingJob } from '../../platform/commands/command.ts'
import type { Database, Tx } from '../../platform/db/database.ts'
import type { JobQueue } from '../../platform/jobs/job-queue.ts'
import { agentRegenerationJobFor, createRegenerateHandler, memoryRegenerateQueue, policyRegenerationJobFor, regenerationJobFor } from './memory.jobs.ts'
import { createMemoryStore } from './memory.store.pg.ts'
import { createPagesService, type PagesService } from './pages.service.ts'
import type { MemoryAgents, MemoryLedger, MemoryPolicy, MemoryTenants } from './ports.ts'
import { createRegenerationService, type RegenerationService } from './regenerate.service.ts'

export { memoryRoutes } from './memory.routes.ts'
export { memoryRpc } from './memory.rpc.ts'
export { memoryQueues } from './memory.jobs.ts'
export { memoryTenantData } from './memory.tables.ts'
export type { AgentSource, MemorySources } from './domain/pages.ts'
export type { MemoryAgents, MemoryLedger, MemoryPolicy, MemoryTenants } from './ports.ts'
export type { PagesService } from './pages.service.ts'
export type { RegenerationService } from './regenerate.service.ts'

export interface Memory {
  readonly pages: PagesService
  readonly regeneration: RegenerationService
  /**
   * The Ledger's write listener: in the transaction that records a Ledger job's success, the regeneration
   * job to commit with it.
   */
  afterLedgerWrite(tx: Tx, notice: { tenantId: string; kind: 'normalize' | 'reconcile' | 'trust'; ref: string }): Promise<readonly PendingJob[]>
  /** The policy module's write listener: the same job after a policy version is composed or activated. */
  afterPolicyWrite(tx: Tx, notice: { tenantId: string; kind: 'composed' | 'activated'; policyId: string }): Promise<readonly PendingJob[]>
  /** The agents module's write listener: the same job after an agent is registered or changes state (its page shows the state). */
  afterAgentWrite(tx: Tx, notice: { tenantId: string; kind: 'registered' | 'state_changed'; agentIds: readonly string[] }): Promise<readonly PendingJob[]>
  startWorkers(jobs: Pick<JobQueue, 'work'>, options: { pollingIntervalSeconds: number }): Promise<void>
}

export function createMemory(deps: {
  db: Database
  commands: CommandRunner
  cursors: CursorCodec
  ids: IdSource
  clock: Clock
  ledger: MemoryLedger
  policy: MemoryPolicy
  agents: MemoryAgents
  tenants: MemoryTenants
}): Memory {
  const store = createMemoryStore()
  const regeneration = createRegenerationService({ ...deps, store })
  return {
    pages: createPagesService({ db: deps.db, store, cursors: deps.cursors }),
    regeneration,
    afterLedgerWrite: async (_tx, notice) => [regenerationJobFor(notice)],
    afterPolicyWrite: async (_tx, notice) => [policyRegenerationJobFor(notice)],
    afterAgentWrite: async (_tx, notice) => [agentRegenerationJobFor(notice)],
    async startWorkers(jobs, { pollingIntervalSeconds }) {
      // One at a time per process: regenerations of a tenant serialize on its memory lock anyway.
      await jobs.work(memoryRegenerateQueue, createRegenerateHandler(regeneration, deps.tenants), { pollingIntervalSeconds })
    },
  }
}
