/** The execution store on Drizzle: this module's tables only. */
import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm'
import { selector, selectorIn, statement } from '../../platform/db/statements.ts'
import type { ExecutionRow, ExecutionStore, SandboxAchTransferRow } from './execution.store.ts'
import { agentPromotions, executionReceipts, executions, sandboxAchTransfers } from './execution.tables.ts'

// Read on every gate run (the agent's promotion), by key: made once (platform/db/statements.ts).
const openPromotion = selector(agentPromotions, ['tenantId', 'agentId'], { where: '"demoted_at" is null' })
// A dispatch batch's executions, locked in key order.
const executionsByOutbox = selectorIn(executions, ['tenantId', 'outboxId'])
const executionsByOutboxForUpdate = selectorIn(executions, ['tenantId', 'outboxId'], { lock: 'update' })

/**
 * A batch's executions as one JSON array ($1), written by fixed statements whatever their number: every
 * column by its SQL name, timestamps as ISO strings.
 */
const executionRecordset = `jsonb_to_recordset($1::jsonb) as v(tenant_id uuid, id text, outbox_id text, payment_intent_id text, rail text, idempotency_key text,
                              status text, attempts integer, claimed_by text, lease_until timestamptz, next_attempt_at timestamptz, rail_reference text,
                              parked_reason text, failure_code text, failure_reason text, created_at timestamptz, updated_at timestamptz)`
const insertExecutions = statement(
  `insert into executions (tenant_id, id, outbox_id, payment_intent_id, rail, idempotency_key, status, attempts, claimed_by, lease_until, next_attempt_at,
                           rail_reference, parked_reason, failure_code, failure_reason, created_at, updated_at)
   select tenant_id, id, outbox_id, payment_intent_id, rail, idempotency_key, status, attempts, claimed_by, lease_until, next_attempt_at,
          rail_reference, parked_reason, failure_code, failure_reason, created_at, updated_at
     from ${executionRecordset}`,
)
const updateExecutions = statement(
  `update executions e
      set status = v.status, attempts = v.attempts, claimed_by = v.claimed_by, lease_until = v.lease_until, next_attempt_at = v.next_attempt_at,
          rail_reference = v.rail_reference, parked_reason = v.parked_reason, failure_code = v.failure_code, failure_reason = v.failure_reason,
          updated_at = v.updated_at
     from ${executionRecordset}
    where e.tenant_id = v.tenant_id and e.id = v.id`,
)
const executionJson = (row: ExecutionRow) => ({
  tenant_id: row.tenantId,
  id: row.id,
  outbox_id: row.outboxId,
  payment_intent_id: row.paymentIntentId,
  rail: row.rail,
  idempotency_key: row.idempotencyKey,
  status: row.status,
  attempts: row.attempts,
  claimed_by: row.claimedBy,
  lease_until: row.leaseUntil,
  next_attempt_at: row.nextAttemptAt,
  rail_reference: row.railReference,
  parked_reason: row.parkedReason,
  failure_code: row.failureCode,
  failure_reason: row.failureReason,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
})

export function createExecutionStore(): ExecutionStore {
  const e = executions
  const r = executionReceipts
  const a = sandboxAchTransfers
  const submitMany: ExecutionStore['sandboxAch']['submitMany'] = async (tx, rows) => {
    if (rows.length === 0) return []
    const keyOf = (row: { tenantId: string; idempotencyKey: string }) => `${row.tenantId}\u0000${row.idempotencyKey}`
    const created = new Map((await tx.insert(a).values([...rows]).onConflictDoNothing({ target: [a.tenantId, a.idempotencyKey] }).returning()).map((row) => [keyOf(row), row]))
    const seen = rows.filter((row) => !created.has(keyOf(row)))
    const known = new Map<string, SandboxAchTransferRow>()
    if (seen.length > 0) {
      const counted = await tx
        .update(a)
        .set({ duplicateSubmits: sql`${a.duplicateSubmits} + 1` })
        .where(or(...seen.map((row) => and(eq(a.tenantId, row.tenantId), eq(a.idempotencyKey, row.idempotencyKey)))))
        .returning()
      for (const row of counted) known.set(keyOf(row), row)
    }
    return rows.map((row) => {
      const transfer = created.get(keyOf(row))
      return transfer === undefined ? { transfer: known.get(keyOf(row))!, created: false } : { transfer, created: true }
    })
  }
  return {
    async findByOutboxes(executor, keys, options = {}) {
      return (options.forUpdate === true ? executionsByOutboxForUpdate : executionsByOutbox)(executor, keys.map((key) => [key.tenantId, key.outboxId]))
    },

    async findByIdempotencyKey(executor, tenantId, key, options = {}) {
      const query = executor.select().from(e).where(and(eq(e.tenantId, tenantId), eq(e.idempotencyKey, key))).limit(1)
      const [row] = options.forUpdate === true ? await query.for('update') : await query
      return row
    },

    async insertMany(tx, rows) {
      if (rows.length > 0) await insertExecutions.rows(tx, [JSON.stringify(rows.map(executionJson))])
    },

    async updateMany(tx, rows) {
      if (rows.length > 0) await updateExecutions.rows(tx, [JSON.stringify(rows.map(executionJson))])
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
        const [submitted] = await submitMany(tx, [row])
        return submitted!
      },

      submitMany,

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
