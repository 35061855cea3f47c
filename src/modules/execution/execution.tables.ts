/**
 * The execution module's tables: one execution per outbox row (the worker's record of taking it to its
 * rail), the receipts rails gave, and the sandbox ACH provider's own book of transfers.
 *
 * Part of the one schema of both engines (drizzle.config.ts collects every `*.tables.ts`): a change here
 * becomes the next forward-only migration under src/platform/db/migrations/ (`npm run db:generate`).
 */
import { sql } from 'drizzle-orm'
import { check, index, integer, jsonb, numeric, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { createdAt, timestamptz } from '../../platform/db/columns.ts'
import type { TenantDataPlan } from '../../platform/db/tenant-data.ts'
import { executionStatuses } from './domain/executions.ts'

const quoted = (values: readonly string[]) => sql.raw(values.map((value) => `'${value}'`).join(', '))

/**
 * An outbox row taken to its rail (domain/executions.ts has the states and moves). The unique index on the
 * outbox row is what makes a second execution of one dispatch impossible. `claimed_by` and `lease_until`
 * say which worker holds the current attempt and until when: a worker that dies mid-attempt leaves a lease
 * that runs out, and the next worker asks the rail for the key's status before calling it again.
 */
export const executions = pgTable(
  'executions',
  {
    id: text('id').notNull(),
    tenantId: uuid('tenant_id').notNull(),
    outboxId: text('outbox_id').notNull(),
    paymentIntentId: text('payment_intent_id').notNull(),
    rail: text('rail').notNull(),
    /** The outbox row's key: every call to the rail for this execution carries it. */
    idempotencyKey: text('idempotency_key').notNull(),
    status: text('status', { enum: executionStatuses }).notNull(),
    /** Rail calls started so far (a claim counts one, whether or not the call returned). */
    attempts: integer('attempts').notNull(),
    claimedBy: text('claimed_by'),
    leaseUntil: timestamptz('lease_until'),
    /** When a retry (status dispatched after a transient failure) is due. */
    nextAttemptAt: timestamptz('next_attempt_at'),
    /** The rail's reference for an accepted payment awaiting settlement (the ACH transfer id). */
    railReference: text('rail_reference'),
    /** Set when the worker parked the intent reconciling: no more calls, only status questions. */
    parkedReason: text('parked_reason'),
    failureCode: text('failure_code'),
    failureReason: text('failure_reason'),
    createdAt: createdAt(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.id] }),
    check('executions_status_check', sql`${table.status} in (${quoted(executionStatuses)})`),
    check('executions_attempts_check', sql`${table.attempts} >= 0`),
    uniqueIndex('executions_outbox_unique').on(table.tenantId, table.outboxId),
    index('executions_intent_idx').on(table.tenantId, table.paymentIntentId),
    // A rail's webhook names the key it was given (and the tenant, in the metadata Steward attached).
    uniqueIndex('executions_idempotency_key_unique').on(table.tenantId, table.idempotencyKey),
    // The sweeper's probes: leases run out, retries due.
    index('executions_open_idx').on(table.status, table.leaseUntil).where(sql`${table.status} in ('dispatched', 'in_flight')`),
  ],
)

/**
 * What a rail said happened, typed per rail (`receipt.type`: ach, wire, erp, onchain). A settlement is one
 * receipt; an ACH return after settlement is a second one (kind `return`) beside it. One of each kind per
 * execution, so a redelivered webhook records nothing twice. The audit event that records a receipt
 * (entity: the execution) carries its id and the digest of its JSON.
 */
export const executionReceipts = pgTable(
  'execution_receipts',
  {
    id: text('id').notNull(),
    tenantId: uuid('tenant_id').notNull(),
    executionId: text('execution_id').notNull(),
    paymentIntentId: text('payment_intent_id').notNull(),
    kind: text('kind', { enum: ['settlement', 'return'] }).notNull(),
    receipt: jsonb('receipt').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.id] }),
    check('execution_receipts_kind_check', sql`${table.kind} in ('settlement', 'return')`),
    uniqueIndex('execution_receipts_kind_unique').on(table.tenantId, table.executionId, table.kind),
    index('execution_receipts_intent_idx').on(table.tenantId, table.paymentIntentId),
  ],
)

/**
 * The sandbox ACH provider's book (it stands in for a bank's API, so it keeps its own state, keyed by the
 * idempotency key it was given within the tenant's metadata Steward sends). `duplicate_submits` counts submits of a key it already had: a correct
 * worker asks for the key's status instead, so the crash test expects zero.
 */
export const sandboxAchTransfers = pgTable(
  'sandbox_ach_transfers',
  {
    id: text('id').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    tenantId: uuid('tenant_id').notNull(),
    paymentIntentId: text('payment_intent_id').notNull(),
    amount: numeric('amount').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: ['declined', 'pending', 'settled', 'returned'] }).notNull(),
    returnCode: text('return_code'),
    duplicateSubmits: integer('duplicate_submits').notNull().default(0),
    createdAt: createdAt(),
    settledAt: timestamptz('settled_at'),
    returnedAt: timestamptz('returned_at'),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.id] }),
    check('sandbox_ach_transfers_status_check', sql`${table.status} in ('declined', 'pending', 'settled', 'returned')`),
    uniqueIndex('sandbox_ach_transfers_key_unique').on(table.tenantId, table.idempotencyKey),
  ],
)


/**
 * An agent's promotion out of shadow mode (governing rule 7): while one is active (not demoted, not
 * expired), the agent's approved payments are dispatched to the rails within its caps, rails and
 * counterparties (gate check 10); without one, they run the whole pipeline and end `shadow_completed`.
 * Each promotion is a row; a demotion closes it. The shadow scorecard the promotion was granted on, and
 * the thresholds it had to meet, are kept with it (and in its audit event). At most one open per agent.
 */
export const agentPromotions = pgTable(
  'agent_promotions',
  {
    id: text('id').notNull(),
    tenantId: uuid('tenant_id').notNull(),
    agentId: text('agent_id').notNull(),
    currency: text('currency').notNull(),
    perPaymentCap: numeric('per_payment_cap').notNull(),
    perDayCap: numeric('per_day_cap').notNull(),
    allowedRails: text('allowed_rails').array().notNull(),
    /** Null: any counterparty the gate's other checks accept. */
    allowedCounterpartyIds: text('allowed_counterparty_ids').array(),
    expiresAt: timestamptz('expires_at').notNull(),
    reason: text('reason').notNull(),
    promotedBy: text('promoted_by').notNull(),
    thresholds: jsonb('thresholds').notNull(),
    scorecard: jsonb('scorecard').notNull(),
    createdAt: createdAt(),
    demotedAt: timestamptz('demoted_at'),
    demotedBy: text('demoted_by'),
    demotionReason: text('demotion_reason'),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.id] }),
    check('agent_promotions_caps_check', sql`${table.perPaymentCap} > 0 and ${table.perDayCap} >= ${table.perPaymentCap}`),
    uniqueIndex('agent_promotions_open_unique').on(table.tenantId, table.agentId).where(sql`${table.demotedAt} is null`),
    index('agent_promotions_agent_idx').on(table.tenantId, table.agentId, table.createdAt),
  ],
)

/** Tenant deletion: receipts before the executions they name; the sandbox provider's book with them. */
export const executionTenantData: TenantDataPlan = {
  deleted: [
    { table: executionReceipts, tenantColumn: executionReceipts.tenantId },
    { table: executions, tenantColumn: executions.tenantId },
    { table: sandboxAchTransfers, tenantColumn: sandboxAchTransfers.tenantId },
    { table: agentPromotions, tenantColumn: agentPromotions.tenantId },
  ],
}
