/**
 * The payments module's tables: PaymentIntents, the PolicyDecision each carries, and the approvals and
 * rejections people record on them.
 *
 * Part of the one schema of both engines (drizzle.config.ts collects every `*.tables.ts`): a change here
 * becomes the next forward-only migration under src/platform/db/migrations/ (`npm run db:generate`).
 */
import { sql } from 'drizzle-orm'
import { boolean, check, foreignKey, index, integer, jsonb, numeric, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { createdAt, timestamptz } from '../../platform/db/columns.ts'
import type { TenantDataPlan } from '../../platform/db/tenant-data.ts'
import { tenants } from '../tenants/tenants.tables.ts'
import { paymentActionTypes, paymentIntentStatuses } from './domain/intents.ts'

const quoted = (values: readonly string[]) => sql.raw(values.map((value) => `'${value}'`).join(', '))

/**
 * A proposed money movement. Its status moves only as domain/intents.ts allows, each move under a row
 * lock in its command's transaction. `proposal_key` is the hash of what makes two proposals "the same"
 * (propose.service.ts); `approvals_required` is how many distinct members must approve (0 once decided
 * without a person).
 */
export const paymentIntents = pgTable(
  'payment_intents',
  {
    id: text('id').notNull(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    /** The agent that proposed it: an agent id, or for a service token the token's id (the internal agent it stands for). */
    createdByAgentId: text('created_by_agent_id'),
    /** The principal that called (audit attribution). */
    createdBy: text('created_by').notNull(),
    actionType: text('action_type', { enum: paymentActionTypes }).notNull(),
    sourceAccountId: text('source_account_id').notNull(),
    destinationCounterpartyId: text('destination_counterparty_id').notNull(),
    amount: numeric('amount').notNull(),
    currency: text('currency').notNull(),
    invoiceId: text('invoice_id'),
    obligationId: text('obligation_id'),
    evidenceIds: text('evidence_ids').array().notNull(),
    status: text('status', { enum: paymentIntentStatuses }).notNull(),
    policyDecisionId: text('policy_decision_id').notNull(),
    /** The rail receipts the execution worker appended (settlement, and an ACH return after it). */
    executionReceiptIds: text('execution_receipt_ids').array().notNull().default(sql`'{}'::text[]`),
    approvalsRequired: integer('approvals_required').notNull(),
    /** Why a person must approve: `policy` (confirm) or `floor` (the hard human-approval floor held an allow). */
    heldBy: text('held_by', { enum: ['policy', 'floor'] }),
    proposalKey: text('proposal_key').notNull(),
    rejectionReason: text('rejection_reason'),
    createdAt: createdAt(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.id] }),
    check('payment_intents_status_check', sql`${table.status} in (${quoted(paymentIntentStatuses)})`),
    check('payment_intents_action_type_check', sql`${table.actionType} in (${quoted(paymentActionTypes)})`),
    check('payment_intents_amount_check', sql`${table.amount} > 0`),
    check('payment_intents_approvals_check', sql`${table.approvalsRequired} between 0 and 5`),
    // Lists newest first, by status, by agent; and the duplicate-proposal probe.
    index('payment_intents_tenant_created_idx').on(table.tenantId, table.createdAt, table.id),
    index('payment_intents_tenant_status_idx').on(table.tenantId, table.status, table.createdAt),
    index('payment_intents_tenant_agent_idx').on(table.tenantId, table.createdByAgentId, table.createdAt),
    index('payment_intents_tenant_proposal_key_idx').on(table.tenantId, table.proposalKey, table.createdAt),
    // The intents paying an invoice: a proposal and the gate sum them against what it has outstanding.
    index('payment_intents_tenant_invoice_idx').on(table.tenantId, table.invoiceId).where(sql`${table.invoiceId} is not null`),
  ],
)

/** The PolicyDecision of an intent (spec, "PolicyDecision"), evaluated at creation with every gate-populated key. */
export const paymentPolicyDecisions = pgTable(
  'payment_policy_decisions',
  {
    id: text('id').notNull(),
    tenantId: uuid('tenant_id').notNull(),
    paymentIntentId: text('payment_intent_id').notNull(),
    policyId: text('policy_id').notNull(),
    policyVersion: integer('policy_version').notNull(),
    outcome: text('outcome', { enum: ['allow', 'confirm', 'reject'] }).notNull(),
    matchedRuleId: text('matched_rule_id'),
    requiredApprovers: text('required_approvers').array().notNull(),
    coveredByAutonomousCap: boolean('covered_by_autonomous_cap').notNull(),
    trace: jsonb('trace').notNull(),
    /** The evaluated action (gate-populated keys included), and its hash (policy verdicts bind to it). */
    action: jsonb('action').notNull(),
    actionHash: text('action_hash').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.id] }),
    check('payment_policy_decisions_outcome_check', sql`${table.outcome} in ('allow', 'confirm', 'reject')`),
    index('payment_policy_decisions_intent_idx').on(table.tenantId, table.paymentIntentId),
  ],
)

/**
 * What people decided on an intent: approvals (one per member: the unique index is what makes two
 * concurrent approvals by one member impossible to double-count) and the rejection.
 */
export const paymentApprovals = pgTable(
  'payment_approvals',
  {
    id: text('id').notNull(),
    tenantId: uuid('tenant_id').notNull(),
    paymentIntentId: text('payment_intent_id').notNull(),
    decision: text('decision', { enum: ['approve', 'reject'] }).notNull(),
    memberId: text('member_id').notNull(),
    userId: text('user_id').notNull(),
    reason: text('reason'),
    /** The audit event recording this decision, written before the status changed. */
    auditEventId: text('audit_event_id'),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.id] }),
    check('payment_approvals_decision_check', sql`${table.decision} in ('approve', 'reject')`),
    foreignKey({ name: 'payment_approvals_intent_fk', columns: [table.tenantId, table.paymentIntentId], foreignColumns: [paymentIntents.tenantId, paymentIntents.id] }),
    uniqueIndex('payment_approvals_member_unique').on(table.tenantId, table.paymentIntentId, table.memberId).where(sql`${table.decision} = 'approve'`),
  ],
)

/**
 * Every run of the section 6 gate on an intent: mode (execute or resume), whether it passed, and all 23
 * check results in index order (a proof lists every row). Written in the gate's transaction, pass or fail.
 */
export const paymentGateRuns = pgTable(
  'payment_gate_runs',
  {
    id: text('id').notNull(),
    tenantId: uuid('tenant_id').notNull(),
    paymentIntentId: text('payment_intent_id').notNull(),
    mode: text('mode', { enum: ['execute', 'resume'] }).notNull(),
    passed: boolean('passed').notNull(),
    checks: jsonb('checks').notNull(),
    auditEventId: text('audit_event_id'),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.id] }),
    check('payment_gate_runs_mode_check', sql`${table.mode} in ('execute', 'resume')`),
    foreignKey({ name: 'payment_gate_runs_intent_fk', columns: [table.tenantId, table.paymentIntentId], foreignColumns: [paymentIntents.tenantId, paymentIntents.id] }),
    index('payment_gate_runs_intent_idx').on(table.tenantId, table.paymentIntentId, table.createdAt),
  ],
)

/**
 * What the execution worker (issue 17) picks up: one row per dispatched intent — the unique index is what
 * makes a second dispatch of one intent impossible, whatever races — with the rail and the idempotency
 * key the rail adapter dedupes on.
 */
export const paymentOutbox = pgTable(
  'payment_outbox',
  {
    id: text('id').notNull(),
    tenantId: uuid('tenant_id').notNull(),
    paymentIntentId: text('payment_intent_id').notNull(),
    rail: text('rail').notNull(),
    /** Derived from the outbox row: the key the rail dedupes on. */
    idempotencyKey: text('idempotency_key').notNull(),
    status: text('status', { enum: ['pending', 'claimed', 'done'] }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.id] }),
    check('payment_outbox_status_check', sql`${table.status} in ('pending', 'claimed', 'done')`),
    foreignKey({ name: 'payment_outbox_intent_fk', columns: [table.tenantId, table.paymentIntentId], foreignColumns: [paymentIntents.tenantId, paymentIntents.id] }),
    uniqueIndex('payment_outbox_intent_unique').on(table.tenantId, table.paymentIntentId),
    // The execution sweeper's probe: rows no worker has claimed yet.
    index('payment_outbox_pending_idx').on(table.createdAt).where(sql`${table.status} = 'pending'`),
  ],
)

/**
 * Money an intent holds on its source account between dispatch and settlement (ledger-account-backed
 * payments): `active` counts against the account's free balance (gate check 8); the worker consumes it
 * on success and releases it on a deterministic failure. One per intent.
 */
export const paymentReservations = pgTable(
  'payment_reservations',
  {
    id: text('id').notNull(),
    tenantId: uuid('tenant_id').notNull(),
    paymentIntentId: text('payment_intent_id').notNull(),
    accountId: text('account_id').notNull(),
    amount: numeric('amount').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: ['active', 'consumed', 'released'] }).notNull(),
    createdAt: createdAt(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.id] }),
    check('payment_reservations_status_check', sql`${table.status} in ('active', 'consumed', 'released')`),
    check('payment_reservations_amount_check', sql`${table.amount} > 0`),
    foreignKey({ name: 'payment_reservations_intent_fk', columns: [table.tenantId, table.paymentIntentId], foreignColumns: [paymentIntents.tenantId, paymentIntents.id] }),
    uniqueIndex('payment_reservations_intent_unique').on(table.tenantId, table.paymentIntentId),
    index('payment_reservations_account_active_idx').on(table.tenantId, table.accountId).where(sql`${table.status} = 'active'`),
  ],
)

/** Tenant deletion: what names an intent before the intents. */
export const paymentsTenantData: TenantDataPlan = {
  deleted: [
    { table: paymentReservations, tenantColumn: paymentReservations.tenantId },
    { table: paymentOutbox, tenantColumn: paymentOutbox.tenantId },
    { table: paymentGateRuns, tenantColumn: paymentGateRuns.tenantId },
    { table: paymentApprovals, tenantColumn: paymentApprovals.tenantId },
    { table: paymentPolicyDecisions, tenantColumn: paymentPolicyDecisions.tenantId },
    { table: paymentIntents, tenantColumn: paymentIntents.tenantId },
  ],
}
