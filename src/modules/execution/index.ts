/**
 * The execution module as the composition root sees it (issue 17, in progress): the worker that takes the
 * gate's outbox rows to the rails (dispatch.service.ts), the rails behind one interface (rails.ts) with
 * the sandbox ACH provider (sandbox-ach.rail.ts) and erp_writeback's fail-closed stub, and the rail
 * providers' webhooks (rail-webhooks.service.ts). docs/execution.md.
 */
import type { Clock } from '../../kernel/clock.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { CommandRunner } from '../../platform/commands/command.ts'
import type { Database, Executor } from '../../platform/db/database.ts'
import type { JobQueue } from '../../platform/jobs/job-queue.ts'
import { defaultRetrySettings, type RetrySettings } from './domain/executions.ts'
import { createDispatcher, dispatchJob, type Dispatcher } from './dispatch.service.ts'
import { createExecutionStore } from './execution.store.pg.ts'
import { executionDispatchQueue, sandboxAchSettleQueue } from './execution.jobs.ts'
import type { ExecutionAgents, ExecutionPayments } from './ports.ts'
import { createPromotions, type Promotions } from './promotions.service.ts'
import type { OutboxKey, PaymentExecution } from '../payments/index.ts'
import { createRailWebhooks, type RailWebhooks } from './rail-webhooks.service.ts'
import { failClosedRail, railRegistry, type RailAdapter, type RailRegistry } from './rails.ts'
import { createSandboxAch, defaultSandboxAchSettings, type SandboxAchSettings } from './sandbox-ach.rail.ts'

export { canMoveExecution, decideAfter, defaultRetrySettings, executionStatuses, isSettled, retryDelaySeconds } from './domain/executions.ts'
export type { Decision, ExecutionStatus, RailAnswer, RetrySettings } from './domain/executions.ts'
export { failClosedRail, railRegistry, railUnavailableCode } from './rails.ts'
export type { RailAdapter, RailRegistry, RailRequest } from './rails.ts'
export { executionQueues } from './execution.jobs.ts'
export { executionRoutes } from './execution.routes.ts'
export { executionTenantData } from './execution.tables.ts'
export { dispatchSteps, executionStepChannel, type DispatchResult, type DispatchStep } from './dispatch.service.ts'
export type { ExecutionAgents, ExecutionPayments } from './ports.ts'
export type { AgentPromotionStanding, PromotionRequest, PromotionView, Promotions } from './promotions.service.ts'
export { achWebhookBodyOf, type AchWebhookBody } from './sandbox-ach.rail.ts'
// The onchain_base rail wired into the service: its adapter, registrations, routes, tables and gate check 12.
export { createOnchainBase, type OnchainBase, type OnchainChainSettings, type SessionKeyCheck } from './onchain-base.ts'
export { onchainRoutes } from './onchain.routes.ts'
export { onchainTenantData } from './onchain.tables.ts'
export type { ExecutionLedger } from './ports.ts'

/** Why erp_writeback refuses: no ERP write-back provider exists yet, and a guess would write to someone's books. */
export const erpWritebackRefusal = 'ERP write-back is not available: no ERP provider is connected for write-back in this deployment (fail-closed stub)'

export interface ExecutionSettings {
  /** How long a claimed attempt is its worker's (a dead worker's attempt is taken up after it). */
  readonly leaseSeconds: number
  readonly retry: RetrySettings
  /** How often the sweeper looks for lost jobs, due retries and expired leases. */
  readonly sweepIntervalMs: number
  /** An outbox row nobody claimed for this long is taken up by the sweeper (its job was lost). */
  readonly pendingGraceSeconds: number
  readonly sweepRowsMax: number
  /**
   * Dispatch jobs a worker takes together (`concurrency` batches at a time per process): the batch's rows are
   * claimed in one transaction, their rail called together (once, where the rail takes a batch) and the
   * answers applied in one transaction. The sweeper takes up rows as many at a time.
   */
  readonly batchSize: number
  /**
   * Dispatch batches a process works on at once, each fetched by a worker of its own (pg-boss's
   * `localConcurrency`). Batches in flight together are as safe as several worker processes: rows are
   * claimed under row locks, in key order. On 2 cores, 2 or 3 moved the dispatch rate by no more than the
   * noise (docs/execution.md, bench:execution `--concurrency`); a larger machine may gain.
   */
  readonly concurrency: number
  readonly sandboxAch: SandboxAchSettings
}

export const defaultExecutionSettings: ExecutionSettings = {
  leaseSeconds: 60,
  retry: defaultRetrySettings,
  sweepIntervalMs: 5_000,
  pendingGraceSeconds: 30,
  sweepRowsMax: 100,
  batchSize: 16,
  concurrency: 1,
  sandboxAch: defaultSandboxAchSettings,
}

/** A rail's receipt for an execution: its settlement, or a return after it. */
export interface ExecutionReceipt {
  readonly id: string
  readonly executionId: string
  readonly kind: 'settlement' | 'return'
  readonly receipt: Record<string, unknown>
}

export interface ExecutionDeps {
  readonly db: Database
  readonly commands: CommandRunner
  readonly jobs: Pick<JobQueue, 'enqueue' | 'enqueueMany' | 'nudge'>
  readonly ids: IdSource
  readonly clock: Clock
  readonly payments: ExecutionPayments
  /** The agents that propose (promotion refuses an unknown or inactive one). */
  readonly agents: ExecutionAgents
  /** The secret bank_ach provider webhooks are signed with (ACH_WEBHOOK_SECRET). */
  readonly achWebhookSecret: string
  /** Further rail adapters (onchain_base when a chain is configured); x402_base and escrow_base stay unregistered. */
  readonly rails?: readonly RailAdapter[]
  readonly settings?: Partial<ExecutionSettings>
}

export interface Execution {
  readonly dispatcher: Dispatcher
  readonly railWebhooks: RailWebhooks
  readonly rails: RailRegistry
  /** Agents' promotions out of shadow mode (the gate reads the active one for check 10). */
  readonly promotions: Promotions
  /** The jobs the gate enqueues with a new outbox row. */
  dispatchJobs(order: { tenantId: string; outboxId: string }): ReturnType<typeof dispatchJob>[]
  /** Wakes this process's dispatch worker (if it runs one) after a commit that enqueued dispatch jobs. */
  dispatchCommitted(): void
  /** The intent's executions with their settlement receipts (the replay investigation). */
  executionsOf(executor: Executor, tenantId: string, paymentIntentId: string): Promise<PaymentExecution[]>
  /** Every receipt of the intent's executions, oldest first (its proof shows the ones its audit events name). */
  receiptsOf(executor: Executor, tenantId: string, paymentIntentId: string): Promise<ExecutionReceipt[]>
  startWorkers(jobs: Pick<JobQueue, 'work' | 'workBatches'>, options: { pollingIntervalSeconds: number }): Promise<void>
  stop(): Promise<void>
}

export function createExecution(deps: ExecutionDeps): Execution {
  const settings: ExecutionSettings = { ...defaultExecutionSettings, ...deps.settings }
  const { db, commands, ids, clock, payments } = deps
  const store = createExecutionStore()
  let railWebhooks: RailWebhooks | undefined
  const sandboxAch = createSandboxAch({
    db,
    store,
    jobs: deps.jobs,
    ids,
    clock,
    settings: settings.sandboxAch,
    webhookSecret: deps.achWebhookSecret,
    deliver: async (signature, body) => {
      await railWebhooks!.receiveAch({ signature, body })
    },
  })
  const rails = railRegistry([sandboxAch.adapter, failClosedRail('erp_writeback', erpWritebackRefusal), ...(deps.rails ?? [])])
  const dispatcher = createDispatcher({ db, commands, store, payments, rails, ids, clock, settings: { leaseSeconds: settings.leaseSeconds, retry: settings.retry } })
  const promotions = createPromotions({ db, commands, store, payments, agents: deps.agents, ids, clock })
  railWebhooks = createRailWebhooks({ db, commands, store, payments, dispatcher, ids, clock, achWebhookSecret: deps.achWebhookSecret })

  /**
   * A fetched batch of dispatch jobs: dispatched together; if that fails as a whole (a transaction the
   * database refused), each row again on its own, so that one bad row fails only its own job.
   */
  async function dispatchJobs(rows: readonly OutboxKey[]): Promise<unknown[]> {
    try {
      await dispatcher.dispatchBatch(rows)
      return rows.map(() => null)
    } catch {
      return Promise.all(rows.map((row) => dispatcher.dispatch(row.tenantId, row.outboxId).then(() => null, (error: unknown) => error ?? new Error('dispatch failed'))))
    }
  }

  let sweeper: NodeJS.Timeout | undefined
  let sweeping: Promise<unknown> = Promise.resolve()
  let stopped = false

  return {
    dispatcher,
    railWebhooks,
    rails,
    promotions,
    dispatchJobs: (order) => [dispatchJob(order)],
    dispatchCommitted: () => deps.jobs.nudge(executionDispatchQueue),
    async executionsOf(executor, tenantId, paymentIntentId) {
      const rows = await store.executionsOf(executor, tenantId, paymentIntentId)
      return rows.map(({ execution, settlement }) => ({ id: execution.id, rail: execution.rail, status: execution.status, rail_receipt: settlement === null ? null : (settlement.receipt as Record<string, unknown>) }))
    },
    async receiptsOf(executor, tenantId, paymentIntentId) {
      const rows = await store.receiptsOf(executor, tenantId, paymentIntentId)
      return rows.map((row) => ({ id: row.id, executionId: row.executionId, kind: row.kind, receipt: row.receipt as Record<string, unknown> }))
    },
    async startWorkers(jobs, { pollingIntervalSeconds }) {
      await jobs.workBatches(executionDispatchQueue, (batch) => dispatchJobs(batch.map((job) => ({ tenantId: job.data.tenant_id, outboxId: job.data.outbox_id }))), {
        pollingIntervalSeconds,
        batchSize: settings.batchSize,
        concurrency: settings.concurrency,
      })
      await jobs.work(sandboxAchSettleQueue, async (job) => sandboxAch.settle(job.data), { pollingIntervalSeconds })
      const tick = () => {
        if (stopped) return
        sweeping = dispatcher
          .sweep({ pendingGraceSeconds: settings.pendingGraceSeconds, rowsMax: settings.sweepRowsMax, batchSize: settings.batchSize })
          .catch(() => undefined)
          .finally(() => {
            if (!stopped) sweeper = setTimeout(tick, settings.sweepIntervalMs)
          })
      }
      sweeper = setTimeout(tick, settings.sweepIntervalMs)
    },
    async stop() {
      stopped = true
      if (sweeper !== undefined) clearTimeout(sweeper)
      await sweeping
    },
  }
}
