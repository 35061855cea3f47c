/**
 * What the execution use cases need of storage. The Drizzle implementation (execution.store.pg.ts)
 * touches only this module's tables; every statement names the tenant, except the sweeper's probe, which
 * looks at every tenant's open executions.
 */
import type { Executor, Tx } from '../../platform/db/database.ts'
import type { agentPromotions, executionReceipts, executions, sandboxAchTransfers } from './execution.tables.ts'

export type ExecutionRow = typeof executions.$inferSelect
export type ReceiptRow = typeof executionReceipts.$inferSelect
export type SandboxAchTransferRow = typeof sandboxAchTransfers.$inferSelect
export type PromotionRow = typeof agentPromotions.$inferSelect

export interface ExecutionStore {
  /**
   * The executions of the outbox rows named (any tenants), in (tenant, outbox id) order; with `forUpdate`,
   * locked in that order. Rows with no execution are left out.
   */
  findByOutboxes(executor: Executor, keys: ReadonlyArray<{ tenantId: string; outboxId: string }>, options?: { forUpdate?: boolean }): Promise<ExecutionRow[]>
  /** The execution a rail knows by its idempotency key; with `forUpdate`, locked. */
  findByIdempotencyKey(executor: Executor, tenantId: string, key: string, options?: { forUpdate?: boolean }): Promise<ExecutionRow | undefined>
  /** Inserts the executions (one statement, any tenants). */
  insertMany(tx: Tx, rows: readonly ExecutionRow[]): Promise<void>
  /**
   * Writes the executions' changeable fields (status, attempts, lease, retry, reference, parking,
   * failure, updated_at) as the rows given have them: one statement, any tenants.
   */
  updateMany(tx: Tx, rows: readonly ExecutionRow[]): Promise<void>
  /** Executions a worker should take up again (every tenant): retries due, and attempts whose lease ran out without an answer. */
  due(executor: Executor, now: Date, limit: number): Promise<Array<Pick<ExecutionRow, 'tenantId' | 'outboxId'>>>
  /** Stores the receipt unless the execution already has one of its kind; answers whether it did. */
  insertReceipt(tx: Tx, row: ReceiptRow): Promise<boolean>
  findReceipt(executor: Executor, tenantId: string, executionId: string, kind: ReceiptRow['kind']): Promise<ReceiptRow | undefined>
  /** The intent's executions, oldest first, each with its settlement receipt (null until settled). */
  executionsOf(executor: Executor, tenantId: string, paymentIntentId: string): Promise<Array<{ execution: ExecutionRow; settlement: ReceiptRow | null }>>
  /** Every receipt of the intent's executions (settlements and returns), oldest first. */
  receiptsOf(executor: Executor, tenantId: string, paymentIntentId: string): Promise<ReceiptRow[]>

  /** Agents' promotions out of shadow mode. */
  promotions: {
    /** Serialises promotion changes of one agent in the caller's transaction (a transaction-scoped advisory lock). */
    lockAgent(tx: Tx, tenantId: string, agentId: string): Promise<void>
    /** The agent's promotion not demoted (it may have expired). */
    findOpen(executor: Executor, tenantId: string, agentId: string): Promise<PromotionRow | undefined>
    insert(tx: Tx, row: PromotionRow): Promise<void>
    close(tx: Tx, tenantId: string, id: string, values: { demotedAt: Date; demotedBy: string; demotionReason: string }): Promise<void>
  }

  /** The sandbox ACH provider's book. */
  sandboxAch: {
    /** Records the transfer unless its key is known; answers the stored one and whether it was new (a known key counts a duplicate submit). */
    submit(tx: Tx, row: Omit<SandboxAchTransferRow, 'duplicateSubmits'>): Promise<{ transfer: SandboxAchTransferRow; created: boolean }>
    /** `submit` for several transfers (distinct keys) in two statements at most; answers in the order of `rows`. */
    submitMany(tx: Tx, rows: ReadonlyArray<Omit<SandboxAchTransferRow, 'duplicateSubmits'>>): Promise<Array<{ transfer: SandboxAchTransferRow; created: boolean }>>
    findByKey(executor: Executor, tenantId: string, key: string): Promise<SandboxAchTransferRow | undefined>
    find(executor: Executor, tenantId: string, id: string, options?: { forUpdate?: boolean }): Promise<SandboxAchTransferRow | undefined>
    update(tx: Tx, tenantId: string, id: string, values: Partial<Pick<SandboxAchTransferRow, 'status' | 'returnCode' | 'settledAt' | 'returnedAt'>>): Promise<void>
  }
}
