/**
 * The proposals module's table: every decision a person recorded on a proposal through POST
 * /v1/proposals/{id}/decide (approve and reject of money proposals, which the payments module also records
 * on the intent; acknowledge, reject and undo of non-money findings, whose status this table is). Rows
 * are appended, never changed: a finding's status is its latest decision (domain/read-model.ts).
 *
 * Part of the one schema of both engines (drizzle.config.ts collects every `*.tables.ts`).
 */
import { integer, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { createdAt } from '../../platform/db/columns.ts'
import type { TenantDataPlan } from '../../platform/db/tenant-data.ts'
import { tenants } from '../tenants/tenants.tables.ts'

export const proposalDecisions = pgTable(
  'proposal_decisions',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    /** `pdn_…` */
    id: text('id').notNull(),
    /** The agent proposal decided on (the agents module's agent_proposals id). */
    proposalId: text('proposal_id').notNull(),
    /** 1, 2, 3 … per proposal, in the order decided (the lock serializes them; the unique index guards it). */
    sequence: integer('sequence').notNull(),
    decision: text('decision', { enum: ['approve', 'reject', 'acknowledge', 'undo'] }).notNull(),
    memberId: text('member_id').notNull(),
    userId: text('user_id').notNull(),
    reason: text('reason'),
    /** A money proposal's PaymentIntent; null for a finding. */
    paymentIntentId: text('payment_intent_id'),
    statusBefore: text('status_before').notNull(),
    statusAfter: text('status_after').notNull(),
    /** For an undo: the decision it reverses. */
    undoesDecisionId: text('undoes_decision_id'),
    /** The audit event that recorded the decision (written before this row, in the same transaction). */
    auditEventId: text('audit_event_id'),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] }), uniqueIndex('proposal_decisions_sequence_idx').on(table.tenantId, table.proposalId, table.sequence)],
)

export type ProposalDecisionRow = typeof proposalDecisions.$inferSelect

/** Deleted with the tenant. */
export const proposalsTenantData: TenantDataPlan = {
  deleted: [{ table: proposalDecisions, tenantColumn: proposalDecisions.tenantId }],
}
