/**
 * POST /v1/ledger/reconcile as a command: queues a reconciliation run of the caller's tenant.
 */
import type { Clock } from '../../kernel/clock.ts'
import { type CommandContext, actorOf, auditedBy, requirePrincipal } from '../../kernel/context.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { CommandResult, CommandRunner } from '../../platform/commands/command.ts'
import type { JobQueue } from '../../platform/jobs/job-queue.ts'
import { ledgerReconcileQueue, newReconcileJob } from './ledger.jobs.ts'
import type { LedgerStore } from './ledger.store.ts'
import { jobView, type JobView } from './ledger.views.ts'

export interface ReconcileCommands {
  /**
   * Queues a reconciliation run over the tenant's current Ledger: the job row and its queue entry, with
   * audit event ledger.reconcile_requested, in one commit. Locks nothing (the run takes the tenant's
   * Ledger lock); emits nothing. With an Idempotency-Key, a repeat replays the job as first answered
   * (queued) and queues nothing; GET /v1/ledger/jobs/{job_id} says how it went.
   */
  requestReconcile(context: CommandContext, input: Record<string, never>): Promise<CommandResult<JobView>>
}

export interface ReconcileServiceDeps {
  readonly commands: CommandRunner
  readonly store: LedgerStore
  /** Wakes this process's reconciliation workers once the job is committed. */
  readonly jobs: Pick<JobQueue, 'nudge'>
  readonly ids: IdSource
  readonly clock: Clock
}

export function createReconcileCommands(deps: ReconcileServiceDeps): ReconcileCommands {
  const { commands, jobs } = deps
  return {
    async requestReconcile(context, input) {
      const principal = requirePrincipal(context)
      const tenantId = principal.tenantId
      const result = await commands.run(context, { name: 'ledger.requestReconcile', tenantId, input }, async (tx) => {
        const { row, job } = await newReconcileJob(deps, tx, tenantId, actorOf(principal).id)
        return {
          outcome: jobView(row),
          audit: [auditedBy(context, { layer: 'ledger', action: 'ledger.reconcile_requested', entity: { type: 'ledger_job', id: row.id } })],
          jobs: [job],
        }
      })
      if (!result.replayed) jobs.nudge(ledgerReconcileQueue)
      return result
    },
  }
}
