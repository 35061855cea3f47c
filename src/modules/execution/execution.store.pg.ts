/** The execution store on Drizzle: this module's tables only. */
import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm'
import { selector } from '../../platform/db/statements.ts'
import type { ExecutionStore } from './execution.store.ts'
import { agentPromotions, executionReceipts, executions, sandboxAchTransfers } from './execution.tables.ts'

// Read on every gate run (the agent's promotion) and every dispatch (its execution), by key: made once (platform/db/statements.ts).
const openPromotion = selector(agentPromotions, ['tenantId', 'agentId'], { where: '"demoted_at" is null' })
const executionByOutbox = selector(executions, ['tenantId', 'outboxId'])
const executionByOutboxForUpdate = selector(executions, ['tenantId', 'outboxId'], { lock: 'update' })

export function createExecutionStore(): ExecutionStore {
  const e = executions
  const r = executionReceipts
  const a = sandboxAchTransfers
  return {
    async findByOutbox(executor, tenantId, outboxId, options = {}) {
      const [row] = await (options.forUpdate === true ? executionByOutboxForUpdate : executionByOutbox)(executor, [tenantId, outboxId])
      return row
    },

    async findByIdempotencyKey(executor, tenantId, key, options = {}) {
      const query = executor.select().from(e).where(and(eq(e.tenantId, tenantId), eq(e.idempotencyKey, key))).limit(1)
      const [row] = options.forUpdate === true ? await query.for('update') : await query
      return row
    },

    async insert(tx, row) {
      await tx.insert(e).values(row)
    },

    async update(tx, tenantId, id, values) {
      await tx.update(e).set(values).where(and(eq(e.tenantId, tenantId), eq(e.id, id)))
    },

    async due(executor, now, limit) {
      return executor
        .select({ tenantId: e.tenantId, outboxId: e.outboxId })
        .from(e)
        .where(
          and(
            inArray(e.status, ['dispatched', 'in_flight']),
            or(
              and(eq(e.status, 'dispatched'), or(isNull(e.nextAttemptAt), lte(e.nextAttemptAt, now))),
              // An attempt whose worker never answered: no settlement awaited, not parked, lease run out.
              and(eq(e.status, 'in_flight'), isNull(e.railReference), isNull(e.parkedReason), lte(e.leaseUntil, now)),
            ),
          ),
        )
        .orderBy(asc(e.updatedAt))
        .limit(limit)
    },

    async insertReceipt(tx, row) {
      const inserted = await tx.insert(r).values(row).onConflictDoNothing().returning({ id: r.id })
      return inserted.length > 0
    },

    async findReceipt(executor, tenantId, executionId, kind) {
      const [row] = await executor
        .select()
        .from(r)
        .where(and(eq(r.tenantId, tenantId), eq(r.executionId, executionId), eq(r.kind, kind)))
        .limit(1)
      return row
    },

    async executionsOf(executor, tenantId, paymentIntentId) {
      const rows = await executor
        .select({ execution: e, settlement: r })
        .from(e)
        .leftJoin(r, and(eq(r.tenantId, e.tenantId), eq(r.executionId, e.id), eq(r.kind, 'settlement')))
        .where(and(eq(e.tenantId, tenantId), eq(e.paymentIntentId, paymentIntentId)))
        .orderBy(asc(e.createdAt), asc(e.id))
      return rows.map((row) => ({ execution: row.execution, settlement: row.settlement ?? null }))
    },

    receiptsOf(executor, tenantId, paymentIntentId) {
      return executor
        .select()
        .from(r)
        .where(and(eq(r.tenantId, tenantId), eq(r.paymentIntentId, paymentIntentId)))
        .orderBy(asc(r.createdAt), asc(r.id))
    },

    promotions: {
      async lockAgent(tx, tenantId, agentId) {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`agent-promotion:${tenantId}:${agentId}`}, 0))`)
      },

      async findOpen(executor, tenantId, agentId) {
        const [row] = await openPromotion(executor, [tenantId, agentId])
        return row
      },

      async insert(tx, row) {
        await tx.insert(agentPromotions).values(row)
      },

      async close(tx, tenantId, id, values) {
        const p = agentPromotions
        await tx.update(p).set(values).where(and(eq(p.tenantId, tenantId), eq(p.id, id)))
      },
    },

    sandboxAch: {
      async submit(tx, row) {
        const [created] = await tx.insert(a).values(row).onConflictDoNothing({ target: [a.tenantId, a.idempotencyKey] }).returning()
        if (created !== undefined) return { transfer: created, created: true }
        const [known] = await tx
          .update(a)
          .set({ duplicateSubmits: sql`${a.duplicateSubmits} + 1` })
          .where(and(eq(a.tenantId, row.tenantId), eq(a.idempotencyKey, row.idempotencyKey)))
          .returning()
        return { transfer: known!, created: false }
      },

      async findByKey(executor, tenantId, key) {
        const [row] = await executor.select().from(a).where(and(eq(a.tenantId, tenantId), eq(a.idempotencyKey, key))).limit(1)
        return row
      },

      async find(executor, tenantId, id, options = {}) {
        const query = executor.select().from(a).where(and(eq(a.tenantId, tenantId), eq(a.id, id))).limit(1)
        const [row] = options.forUpdate === true ? await query.for('update') : await query
        return row
      },

      async update(tx, tenantId, id, values) {
        await tx.update(a).set(values).where(and(eq(a.tenantId, tenantId), eq(a.id, id)))
      },
    },
  }
}
