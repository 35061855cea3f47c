/** The payments store on Drizzle: this module's tables only, every statement scoped by tenant. */
import { and, asc, desc, eq, gte, inArray, lt, lte, or, sql } from 'drizzle-orm'
import type { DispatchRow, PaymentIntentRow } from './payments.store.ts'
import type { PaymentIntentStatus } from './domain/intents.ts'
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
/** A transaction-scoped advisory lock on a text key (a proposal key, an account's reservations). */
const advisoryLock = statement(`select pg_advisory_xact_lock(hashtextextended($1, 0))`)
/**
 * The gate's questions of this module's tables in one statement: $1 tenant, $2 the intent, $3 its source
 * account, $4 currency, $5 destination, $6 amount, $7 since when a same payment counts, $8 the proposing
 * agent (null: none), $9 since when its spend counts, $10 the invoice it pays (null: none).
 */
const gateFactsStatement = statement<{ reservedByOthers: string; recentSamePayments: number; alreadyDispatched: boolean; agentSpent: string; invoicePaidByOthers: string }>(
  `select (select coalesce(sum(amount), 0)::text from payment_reservations
            where tenant_id = $1 and account_id = $3 and currency = $4 and status = 'active' and payment_intent_id <> $2) as "reservedByOthers",
          (select count(*)::int from payment_intents
            where tenant_id = $1 and destination_counterparty_id = $5 and amount = $6::numeric and currency = $4 and id <> $2
              and status in ('dispatching', 'reconciling', 'executed') and updated_at >= $7::timestamptz) as "recentSamePayments",
          exists (select 1 from payment_outbox where tenant_id = $1 and payment_intent_id = $2) as "alreadyDispatched",
          (select coalesce(sum(amount), 0)::text from payment_intents
            where tenant_id = $1 and created_by_agent_id = $8 and currency = $4 and id <> $2
              and status in ('dispatching', 'executed', 'reconciling') and updated_at >= $9::timestamptz) as "agentSpent",
          (select coalesce(sum(amount), 0)::text from payment_intents
            where tenant_id = $1 and invoice_id = $10 and currency = $4 and id <> $2
              and (status in ('dispatching', 'reconciling') or (status = 'executed' and updated_at >= $7::timestamptz))) as "invoicePaidByOthers"`,
)
/** $1 tenant, $2 invoice, $3 currency, $4 since when an executed payment still counts. */
const invoiceCommitmentsStatement = statement<{ id: string; status: PaymentIntentStatus; amount: string }>(
  `select id, status, amount::text as amount from payment_intents
    where tenant_id = $1 and invoice_id = $2 and currency = $3
      and (status in ('pending_approval', 'awaiting_second_approval', 'approved', 'paused', 'dispatching', 'reconciling')
           or (status = 'executed' and updated_at >= $4::timestamptz))
    order by created_at, id`,
)
const moveIntentStatement = statement(`update payment_intents set status = $1, updated_at = $2::timestamptz where tenant_id = $3 and id = $4`)
const approvalsOfStatement = statement<typeof paymentApprovals.$inferSelect>(
  `select id, tenant_id as "tenantId", payment_intent_id as "paymentIntentId", decision, member_id as "memberId", user_id as "userId", reason,
          audit_event_id as "auditEventId", created_at as "createdAt"
     from payment_approvals where tenant_id = $1 and payment_intent_id = $2 order by created_at, id`,
)
/**
 * A dispatch batch's outbox rows ($1 tenants, $2 outbox ids, pairwise) with their intents, in key order;
 * the FOR UPDATE variant locks the outbox rows (not the intents) in that order.
 */
const dispatchRowsText = `select o.tenant_id as "tenantId", o.id as "outboxId", o.status as "outboxStatus", o.rail, o.idempotency_key as "idempotencyKey",
          case when i.id is null then null else jsonb_build_object(
            'id', i.id, 'status', i.status, 'actionType', i.action_type, 'amount', i.amount::text, 'currency', i.currency,
            'sourceAccountId', i.source_account_id, 'destinationCounterpartyId', i.destination_counterparty_id, 'createdByAgentId', i.created_by_agent_id) end as intent
     from payment_outbox o
     left join payment_intents i on i.tenant_id = o.tenant_id and i.id = o.payment_intent_id
    where (o.tenant_id, o.id) in (select * from unnest($1::uuid[], $2::text[]))
    order by o.tenant_id, o.id`
const dispatchRowsStatement = statement<DispatchRow>(dispatchRowsText)
const dispatchRowsForUpdateStatement = statement<DispatchRow>(`${dispatchRowsText} for update of o`)
const claimOutboxesStatement = statement(
  `update payment_outbox set status = 'claimed' where (tenant_id, id) in (select * from unnest($1::uuid[], $2::text[]))`,
)
const keyColumns = (keys: ReadonlyArray<{ tenantId: string; outboxId: string }>) => [keys.map((key) => key.tenantId), keys.map((key) => key.outboxId)]
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
      await advisoryLock.rows(tx, [`payment-proposal:${tenantId}:${proposalKey}`])
    },

    async lockInvoice(tx, tenantId, invoiceId) {
      await advisoryLock.rows(tx, [`payment-invoice:${tenantId}:${invoiceId}`])
    },

    async invoiceCommitments(executor, tenantId, invoiceId, currency, executedSince) {
      return invoiceCommitmentsStatement.rows(executor, [tenantId, invoiceId, currency, executedSince.toISOString()])
    },

    async updateIntent(tx, tenantId, id, values) {
      await tx.update(i).set(values).where(and(eq(i.tenantId, tenantId), eq(i.id, id)))
    },

    async moveIntent(tx, tenantId, id, status, at) {
      await moveIntentStatement.rows(tx, [status, at, tenantId, id])
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

    async findDispatchRows(executor, keys, options = {}) {
      if (keys.length === 0) return []
      return (options.forUpdate === true ? dispatchRowsForUpdateStatement : dispatchRowsStatement).rows(executor, keyColumns(keys))
    },

    async claimOutboxes(tx, keys) {
      if (keys.length > 0) await claimOutboxesStatement.rows(tx, keyColumns(keys))
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

    async insertReservation(tx, row) {
      await insertReservationRow(tx, row)
    },

    async lockAccount(tx, tenantId, accountId) {
      await advisoryLock.rows(tx, [`payment-account:${tenantId}:${accountId}`])
    },

    async gateFacts(executor, tenantId, intent, since) {
      const row = await gateFactsStatement.first(executor, [
        tenantId,
        intent.id,
        intent.sourceAccountId,
        intent.currency,
        intent.destinationCounterpartyId,
        intent.amount,
        since.samePayments,
        intent.createdByAgentId,
        since.agent,
        intent.invoiceId,
      ])
      return {
        reservedByOthers: row?.reservedByOthers ?? '0',
        recentSamePayments: Number(row?.recentSamePayments ?? 0),
        alreadyDispatched: row?.alreadyDispatched === true,
        agentSpent: row?.agentSpent ?? '0',
        invoicePaidByOthers: row?.invoicePaidByOthers ?? '0',
      }
    },

    async insertApproval(tx, row) {
      await insertApprovalRow(tx, row)
    },

    async approvalsOf(executor, tenantId, paymentIntentId) {
      return approvalsOfStatement.rows(executor, [tenantId, paymentIntentId])
    },
  }
}
