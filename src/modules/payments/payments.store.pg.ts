/** The payments store on Drizzle: this module's tables only, every statement scoped by tenant. */
import { and, asc, desc, eq, gte, inArray, lt, lte, ne, notInArray, or, sql } from 'drizzle-orm'
import type { PaymentIntentRow } from './payments.store.ts'
import { paymentApprovals, paymentGateRuns, paymentIntents, paymentOutbox, paymentPolicyDecisions, paymentReservations } from './payments.tables.ts'
import type { PaymentsStore } from './payments.store.ts'
import { inserter, selector, statement } from '../../platform/db/statements.ts'

// The money path's INSERTs, each made once (platform/db/statements.ts): a proposal, a gate run and an
// approval write these on every call, and building them with the ORM was a large share of Node's CPU.
const insertIntentRow = inserter(paymentIntents)
const insertDecisionRow = inserter(paymentPolicyDecisions)
const insertGateRunRow = inserter(paymentGateRuns)
const insertOutboxRow = inserter(paymentOutbox)
const insertReservationRow = inserter(paymentReservations)
const insertApprovalRow = inserter(paymentApprovals)
/**
 * A proposal's two questions in one statement, over the tenant's open intents ($7: the statuses that do not
 * count) that either could concern: the latest intent with the same proposal key ($2) since $3, and the
 * agent's ($4) spend and count in the currency ($5) since the policy window's start ($6); $8 is the earlier
 * of the two starts.
 */
const proposalFactsStatement = statement<{ duplicate: { id: string; status: PaymentIntentRow['status'] } | null; total: string; count: number }>(
  `select (array_agg(jsonb_build_object('id', id, 'status', status) order by created_at desc)
             filter (where proposal_key = $2 and created_at >= $3::timestamptz))[1] as duplicate,
          coalesce(sum(amount) filter (where created_by_agent_id = $4 and currency = $5 and created_at >= $6::timestamptz), 0)::text as total,
          (count(*) filter (where created_by_agent_id = $4 and currency = $5 and created_at >= $6::timestamptz))::int as count
     from payment_intents
    where tenant_id = $1 and status <> all($7::text[])
      and (proposal_key = $2 or (created_by_agent_id = $4 and currency = $5))
      and created_at >= $8::timestamptz`,
)
// And the reads every approval, gate run and dispatch makes, by key.
const intentById = selector(paymentIntents, ['tenantId', 'id'])
const intentForUpdate = selector(paymentIntents, ['tenantId', 'id'], { lock: 'update' })
const decisionById = selector(paymentPolicyDecisions, ['tenantId', 'id'])

export function createPaymentsStore(): PaymentsStore {
  const i = paymentIntents
  return {
    async insertIntent(tx, row) {
      await insertIntentRow(tx, row)
    },

    async insertDecision(tx, row) {
      await insertDecisionRow(tx, row)
    },

    async findIntent(executor, tenantId, id, options = {}) {
      const [row] = await (options.forUpdate === true ? intentForUpdate : intentById)(executor, [tenantId, id])
      return row
    },

    async decisionOutcomes(executor, tenantId, ids) {
      if (ids.length === 0) return []
      const d = paymentPolicyDecisions
      return executor.select({ id: d.id, outcome: d.outcome }).from(d).where(and(eq(d.tenantId, tenantId), inArray(d.id, [...ids])))
    },

    async findDecision(executor, tenantId, id) {
      const [row] = await decisionById(executor, [tenantId, id])
      return row
    },

    async listIntents(executor, tenantId, filter) {
      return executor
        .select()
        .from(i)
        .where(
          and(
            eq(i.tenantId, tenantId),
            filter.status === undefined ? undefined : eq(i.status, filter.status),
            filter.actionType === undefined ? undefined : eq(i.actionType, filter.actionType),
            filter.agentId === undefined ? undefined : eq(i.createdByAgentId, filter.agentId),
            filter.createdFrom === undefined ? undefined : gte(i.createdAt, filter.createdFrom),
            filter.createdTo === undefined ? undefined : lte(i.createdAt, filter.createdTo),
            filter.before === undefined ? undefined : or(lt(i.createdAt, filter.before.createdAt), and(eq(i.createdAt, filter.before.createdAt), lt(i.id, filter.before.id))),
          ),
        )
        .orderBy(desc(i.createdAt), desc(i.id))
        .limit(filter.limit)
    },

    async proposalFacts(executor, tenantId, facts) {
      const row = await proposalFactsStatement.first(executor, [
        tenantId,
        facts.proposalKey,
        facts.duplicateSince.toISOString(),
        facts.agentId,
        facts.currency,
        facts.windowSince.toISOString(),
        [...facts.ignoring],
        new Date(Math.min(facts.duplicateSince.getTime(), facts.windowSince.getTime())).toISOString(),
      ])
      return { duplicate: row?.duplicate ?? undefined, spent: { total: row?.total ?? '0', count: Number(row?.count ?? 0) } }
    },

    async lockProposalKey(tx, tenantId, proposalKey) {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`payment-proposal:${tenantId}:${proposalKey}`}, 0))`)
    },

    async updateIntent(tx, tenantId, id, values) {
      await tx.update(i).set(values).where(and(eq(i.tenantId, tenantId), eq(i.id, id)))
    },

    async lockIntentsOfAgent(tx, tenantId, agentId, statuses) {
      return tx
        .select()
        .from(i)
        .where(and(eq(i.tenantId, tenantId), eq(i.createdByAgentId, agentId), inArray(i.status, [...statuses])))
        .orderBy(asc(i.createdAt), asc(i.id))
        .for('update')
    },

    async insertGateRun(tx, row) {
      await insertGateRunRow(tx, row)
    },

    gateRunsOf(executor, tenantId, paymentIntentId) {
      const g = paymentGateRuns
      return executor
        .select()
        .from(g)
        .where(and(eq(g.tenantId, tenantId), eq(g.paymentIntentId, paymentIntentId)))
        .orderBy(asc(g.createdAt), asc(g.id))
    },

    async insertOutbox(tx, row) {
      await insertOutboxRow(tx, row)
    },

    async findOutbox(executor, tenantId, id, options = {}) {
      const o = paymentOutbox
      const query = executor.select().from(o).where(and(eq(o.tenantId, tenantId), eq(o.id, id))).limit(1)
      const [row] = options.forUpdate === true ? await query.for('update') : await query
      return row
    },

    async pendingOutbox(executor, createdBefore, limit) {
      const o = paymentOutbox
      return executor
        .select({ tenantId: o.tenantId, id: o.id })
        .from(o)
        .where(and(eq(o.status, 'pending'), lt(o.createdAt, createdBefore)))
        .orderBy(asc(o.createdAt))
        .limit(limit)
    },

    async updateOutboxStatus(tx, tenantId, id, status) {
      const o = paymentOutbox
      await tx.update(o).set({ status }).where(and(eq(o.tenantId, tenantId), eq(o.id, id)))
    },

    async settleReservation(tx, tenantId, paymentIntentId, status, now) {
      const r = paymentReservations
      const moved = await tx
        .update(r)
        .set({ status, updatedAt: now })
        .where(and(eq(r.tenantId, tenantId), eq(r.paymentIntentId, paymentIntentId), eq(r.status, 'active')))
        .returning({ id: r.id })
      return moved.length > 0
    },

    async appendReceipt(tx, tenantId, paymentIntentId, receiptId, now) {
      await tx
        .update(i)
        .set({ executionReceiptIds: sql`array_append(${i.executionReceiptIds}, ${receiptId}::text)`, updatedAt: now })
        .where(and(eq(i.tenantId, tenantId), eq(i.id, paymentIntentId), sql`not (${receiptId}::text = any(${i.executionReceiptIds}))`))
    },

    async agentSpentSince(executor, tenantId, agentId, currency, since, exceptIntentId) {
      const [row] = await executor
        .select({ total: sql<string>`coalesce(sum(${i.amount}), 0)::text` })
        .from(i)
        .where(
          and(
            eq(i.tenantId, tenantId),
            eq(i.createdByAgentId, agentId),
            eq(i.currency, currency),
            inArray(i.status, ['dispatching', 'executed', 'reconciling']),
            gte(i.updatedAt, since),
            ne(i.id, exceptIntentId),
          ),
        )
      return row?.total ?? '0'
    },

    async shadowCounts(executor, tenantId, agentId) {
      const approvedAtSomePoint = ['approved', 'paused', 'dispatching', 'executed', 'failed', 'reconciling', 'shadow_completed'] as const
      const [row] = await executor
        .select({
          shadowRuns: sql<number>`(count(*) filter (where ${i.status} = 'shadow_completed'))::int`,
          approved: sql<number>`(count(*) filter (where ${inArray(i.status, [...approvedAtSomePoint])}))::int`,
          rejected: sql<number>`(count(*) filter (where ${i.status} = 'rejected'))::int`,
          // Qualified by hand: Drizzle leaves columns unqualified in a one-table select, which a correlated subquery cannot have.
          gateWouldFail: sql<number>`(count(*) filter (where ${i.status} = 'shadow_completed' and not exists (${sql.raw(
            'select 1 from payment_gate_runs g where g.tenant_id = payment_intents.tenant_id and g.payment_intent_id = payment_intents.id and g.passed',
          )})))::int`,
        })
        .from(i)
        .where(and(eq(i.tenantId, tenantId), eq(i.createdByAgentId, agentId)))
      return row ?? { shadowRuns: 0, approved: 0, rejected: 0, gateWouldFail: 0 }
    },

    async hasOutbox(executor, tenantId, paymentIntentId) {
      const o = paymentOutbox
      const rows = await executor.select({ id: o.id }).from(o).where(and(eq(o.tenantId, tenantId), eq(o.paymentIntentId, paymentIntentId))).limit(1)
      return rows.length > 0
    },

    async insertReservation(tx, row) {
      await insertReservationRow(tx, row)
    },

    async lockAccount(tx, tenantId, accountId) {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`payment-account:${tenantId}:${accountId}`}, 0))`)
    },

    async reservedOnAccount(executor, tenantId, accountId, currency, exceptIntentId) {
      const r = paymentReservations
      const [row] = await executor
        .select({ total: sql<string>`coalesce(sum(${r.amount}), 0)::text` })
        .from(r)
        .where(and(eq(r.tenantId, tenantId), eq(r.accountId, accountId), eq(r.currency, currency), eq(r.status, 'active'), ne(r.paymentIntentId, exceptIntentId)))
      return row?.total ?? '0'
    },

    async countRecentSamePayments(executor, tenantId, payment, since) {
      const [row] = await executor
        .select({ count: sql<number>`count(*)::int` })
        .from(i)
        .where(
          and(
            eq(i.tenantId, tenantId),
            eq(i.destinationCounterpartyId, payment.destinationCounterpartyId),
            eq(i.amount, payment.amount),
            eq(i.currency, payment.currency),
            ne(i.id, payment.exceptIntentId),
            inArray(i.status, ['dispatching', 'reconciling', 'executed']),
            gte(i.updatedAt, since),
          ),
        )
      return Number(row?.count ?? 0)
    },

    async insertApproval(tx, row) {
      await insertApprovalRow(tx, row)
    },

    async approvalsOf(executor, tenantId, paymentIntentId) {
      const a = paymentApprovals
      return executor.select().from(a).where(and(eq(a.tenantId, tenantId), eq(a.paymentIntentId, paymentIntentId))).orderBy(asc(a.createdAt), asc(a.id))
    },
  }
}
