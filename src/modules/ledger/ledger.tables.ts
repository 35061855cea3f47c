/**
 * The Ledger module's tables: versioned accounts, balances, counterparties, transactions, invoices, obligations, reconciliation matches, entity keys and jobs.
 *
 * Part of the one schema of both engines (drizzle.config.ts collects every `*.tables.ts`): a change here
 * becomes the next forward-only migration under src/platform/db/migrations/ (`npm run db:generate`).
 */
import { sql } from 'drizzle-orm'
import { date, doublePrecision, index, integer, jsonb, numeric, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { timestamptz, createdAt, updatedAt } from '../../platform/db/columns.ts'
import type { TenantDataPlan } from '../../platform/db/tenant-data.ts'

// ————————————————————————————————————————————————————————————————————————————————————————————————
// Ledger: immutable, bitemporal, typed records normalized from parsed rows.
//
// Each table holds versions. `id` is the entity's stable id (what references and reads use);
// `version_id` identifies one version; a correction is a new version whose `supersedes` names the one
// it replaces. `updated_at` is when a version was recorded and `superseded_at` when the next one was
// (written once, by a trigger-guarded UPDATE: nothing else ever changes), so "current" and "as of T"
// are both index lookups. `created_at` is when the entity was first recorded.
// ————————————————————————————————————————————————————————————————————————————————————————————————

const ledgerProvenance = ['extracted', 'inferred', 'ambiguous', 'human_confirmed', 'agent_contributed'] as const

const ledgerVersion = () => ({
  versionId: text('version_id').notNull(),
  id: text('id').notNull(),
  tenantId: uuid('tenant_id').notNull(),
  version: integer('version').notNull(),
  supersedes: text('supersedes'),
  sourceIds: text('source_ids').array().notNull(),
  evidenceIds: text('evidence_ids').array().notNull(),
  provenance: text('provenance', { enum: ledgerProvenance }).notNull(),
  confidence: doublePrecision('confidence').notNull(),
  metadata: jsonb('metadata').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  supersededAt: timestamptz('superseded_at'),
})

const dateString = (name: string) => date(name, { mode: 'string' })

export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    ...ledgerVersion(),
    accountType: text('account_type', { enum: ['bank_checking', 'bank_savings', 'card', 'loan', 'line_of_credit', 'onchain', 'payment_processor'] }).notNull(),
    status: text('status', { enum: ['active', 'closed', 'frozen', 'pending'] }).notNull(),
    name: text('name').notNull(),
    institution: text('institution'),
    currency: text('currency').notNull(),
    externalAccountId: text('external_account_id'),
    iban: text('iban'),
    accountNumberMasked: text('account_number_masked'),
    walletAddress: text('wallet_address'),
    chainId: integer('chain_id'),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.versionId] }),
    uniqueIndex('ledger_accounts_version_unique').on(table.tenantId, table.id, table.version),
    uniqueIndex('ledger_accounts_current_unique').on(table.tenantId, table.id).where(sql`${table.supersededAt} is null`),
    index('ledger_accounts_list_idx').on(table.tenantId, table.id).where(sql`${table.supersededAt} is null`),
  ],
)

export const ledgerBalances = pgTable(
  'ledger_balances',
  {
    ...ledgerVersion(),
    accountId: text('account_id').notNull(),
    balanceType: text('balance_type', { enum: ['opening', 'closing', 'available', 'current'] }).notNull(),
    asOf: dateString('as_of').notNull(),
    amount: numeric('amount').notNull(),
    currency: text('currency').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.versionId] }),
    uniqueIndex('ledger_balances_version_unique').on(table.tenantId, table.id, table.version),
    uniqueIndex('ledger_balances_current_unique').on(table.tenantId, table.id).where(sql`${table.supersededAt} is null`),
    index('ledger_balances_account_idx').on(table.tenantId, table.accountId, table.asOf).where(sql`${table.supersededAt} is null`),
  ],
)

export const ledgerCounterparties = pgTable(
  'ledger_counterparties',
  {
    ...ledgerVersion(),
    name: text('name').notNull(),
    type: text('type', { enum: ['merchant', 'vendor', 'customer', 'employer', 'employee', 'bank', 'wallet', 'exchange', 'tax_authority', 'agent', 'other'] }).notNull(),
    verifiedStatus: text('verified_status', { enum: ['unverified', 'self_attested', 'document_verified', 'sanctions_cleared'] }).notNull(),
    riskLevel: text('risk_level', { enum: ['low', 'medium', 'high', 'sanctioned'] }).notNull(),
    trustState: text('trust_state', { enum: ['unreviewed', 'trusted', 'paused', 'acknowledged'] }).notNull(),
    aliases: text('aliases').array().notNull(),
    linkedAccounts: text('linked_accounts').array().notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.versionId] }),
    uniqueIndex('ledger_counterparties_version_unique').on(table.tenantId, table.id, table.version),
    uniqueIndex('ledger_counterparties_current_unique').on(table.tenantId, table.id).where(sql`${table.supersededAt} is null`),
  ],
)

export const ledgerTransactions = pgTable(
  'ledger_transactions',
  {
    ...ledgerVersion(),
    accountId: text('account_id').notNull(),
    externalTransactionId: text('external_transaction_id'),
    amount: numeric('amount').notNull(),
    currency: text('currency').notNull(),
    direction: text('direction', { enum: ['inflow', 'outflow', 'transfer', 'adjustment'] }).notNull(),
    transactionDate: dateString('transaction_date').notNull(),
    postedDate: dateString('posted_date'),
    counterpartyId: text('counterparty_id'),
    categoryId: text('category_id'),
    status: text('status', { enum: ['pending', 'posted', 'cleared', 'failed', 'reversed', 'disputed'] }).notNull(),
    description: text('description').notNull(),
    descriptionNormalized: text('description_normalized').notNull(),
    reconciliationStatus: text('reconciliation_status', {
      enum: ['unmatched', 'matched', 'partially_matched', 'duplicate_possible', 'disputed', 'cleared', 'failed', 'reversed'],
    }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.versionId] }),
    uniqueIndex('ledger_transactions_version_unique').on(table.tenantId, table.id, table.version),
    uniqueIndex('ledger_transactions_current_unique').on(table.tenantId, table.id).where(sql`${table.supersededAt} is null`),
    index('ledger_transactions_date_idx').on(table.tenantId, table.transactionDate, table.id).where(sql`${table.supersededAt} is null`),
    index('ledger_transactions_account_idx').on(table.tenantId, table.accountId, table.transactionDate, table.id).where(sql`${table.supersededAt} is null`),
    index('ledger_transactions_counterparty_idx').on(table.tenantId, table.counterpartyId, table.transactionDate, table.id).where(sql`${table.supersededAt} is null`),
    // The Wiki's totals over a period (queries.ts transactionTotals): count and sum per direction and currency
    // from the index alone (an index-only scan once the visibility map is set).
    index('ledger_transactions_totals_idx')
      .on(table.tenantId, table.transactionDate, table.direction, table.currency, table.amount)
      .where(sql`${table.supersededAt} is null`),
    // Category-narrowed Wiki questions, and the distinct categories a question's name is matched against.
    index('ledger_transactions_category_idx')
      .on(table.tenantId, table.categoryId, table.transactionDate)
      .where(sql`${table.supersededAt} is null and ${table.categoryId} is not null`),
    // Reconciliation looks payments up by amount.
    index('ledger_transactions_amount_idx').on(table.tenantId, table.amount, table.transactionDate).where(sql`${table.supersededAt} is null`),
  ],
)

export const ledgerInvoices = pgTable(
  'ledger_invoices',
  {
    ...ledgerVersion(),
    direction: text('direction', { enum: ['payable', 'receivable'] }).notNull(),
    invoiceNumber: text('invoice_number').notNull(),
    issueDate: dateString('issue_date'),
    dueDate: dateString('due_date'),
    currency: text('currency').notNull(),
    total: numeric('total').notNull(),
    subtotal: numeric('subtotal'),
    tax: numeric('tax'),
    amountPaid: numeric('amount_paid').notNull(),
    status: text('status', { enum: ['draft', 'sent', 'partial', 'paid', 'overdue', 'cancelled', 'disputed'] }).notNull(),
    counterpartyId: text('counterparty_id'),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.versionId] }),
    uniqueIndex('ledger_invoices_version_unique').on(table.tenantId, table.id, table.version),
    uniqueIndex('ledger_invoices_current_unique').on(table.tenantId, table.id).where(sql`${table.supersededAt} is null`),
  ],
)

export const ledgerObligations = pgTable(
  'ledger_obligations',
  {
    ...ledgerVersion(),
    obligationType: text('obligation_type', { enum: ['bill', 'invoice', 'subscription', 'loan', 'rent', 'payroll', 'tax', 'card_statement', 'other'] }).notNull(),
    direction: text('direction', { enum: ['payable', 'receivable'] }),
    reference: text('reference').notNull(),
    description: text('description'),
    amount: numeric('amount').notNull(),
    currency: text('currency').notNull(),
    dueDate: dateString('due_date'),
    recurrence: text('recurrence', { enum: ['weekly', 'monthly', 'quarterly', 'yearly'] }),
    status: text('status', { enum: ['open', 'settled', 'cancelled'] }).notNull(),
    counterpartyId: text('counterparty_id'),
    invoiceId: text('invoice_id'),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.versionId] }),
    uniqueIndex('ledger_obligations_version_unique').on(table.tenantId, table.id, table.version),
    uniqueIndex('ledger_obligations_current_unique').on(table.tenantId, table.id).where(sql`${table.supersededAt} is null`),
  ],
)

export const reconciliationMatchTypes = [
  'transaction_receipt',
  'invoice_payment',
  'statement_balance',
  'wallet_transfer',
  'payroll_bank_debit',
  'subscription_charge',
  'card_charge',
  'onchain_settlement',
  'obligation_duplicate',
] as const

export const reconciliationStatuses = ['unmatched', 'matched', 'partially_matched', 'duplicate_possible', 'disputed', 'cleared', 'failed', 'reversed'] as const

export const ledgerReconciliationMatches = pgTable(
  'ledger_reconciliation_matches',
  {
    ...ledgerVersion(),
    matchType: text('match_type', { enum: reconciliationMatchTypes }).notNull(),
    status: text('status', { enum: reconciliationStatuses }).notNull(),
    /** What was matched: typed references such as transaction:txn_…, invoice:inv_…, account:acc_… */
    subjectRefs: text('subject_refs').array().notNull(),
    amount: numeric('amount'),
    currency: text('currency'),
    difference: numeric('difference'),
    explanation: text('explanation').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.versionId] }),
    uniqueIndex('ledger_reconciliation_matches_version_unique').on(table.tenantId, table.id, table.version),
    uniqueIndex('ledger_reconciliation_matches_current_unique').on(table.tenantId, table.id).where(sql`${table.supersededAt} is null`),
  ],
)

/**
 * Natural keys of Ledger entities, so the same thing seen twice — an overlapping statement, the same
 * transaction from a file and a provider, a counterparty under another alias — resolves to one entity.
 */
export const ledgerEntityKeys = pgTable(
  'ledger_entity_keys',
  {
    tenantId: uuid('tenant_id').notNull(),
    kind: text('kind', { enum: ['account', 'counterparty', 'transaction', 'invoice', 'obligation', 'balance'] }).notNull(),
    key: text('key').notNull(),
    entityId: text('entity_id').notNull(),
    createdAt: createdAt(),
  },
  // Looked up by key, and a counterparty's keys by the counterparty (gate check 11.5 on every execute: when
  // its bank details last changed). The second index is partial: written for counterparty keys only, not
  // for the key of every transaction.
  (table) => [
    primaryKey({ columns: [table.tenantId, table.kind, table.key] }),
    index('ledger_entity_keys_counterparty_idx').on(table.tenantId, table.entityId).where(sql`${table.kind} = 'counterparty'`),
  ],
)

/** Normalization and reconciliation runs, with their status and outcome (the job status route). */
export const ledgerJobs = pgTable(
  'ledger_jobs',
  {
    id: text('id').notNull(),
    tenantId: uuid('tenant_id').notNull(),
    kind: text('kind', { enum: ['normalize', 'reconcile'] }).notNull(),
    status: text('status', { enum: ['queued', 'running', 'succeeded', 'failed'] }).notNull(),
    input: jsonb('input').notNull(),
    result: jsonb('result'),
    error: text('error'),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    startedAt: timestamptz('started_at'),
    finishedAt: timestamptz('finished_at'),
    /**
     * A normalization's progress (normalize/normalizer.ts `RunProgress`): rows done and total, outcome
     * counts, refused rows. Written at the start of each run and in each batch's own transaction, so a
     * client polling sees it move; null for reconciliations and single-row normalizations.
     */
    progress: jsonb('progress'),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.id] }),
    // Raw's artifact views ask for the latest normalization of each artifact (queries.ts `normalizationsOf`).
    index('ledger_jobs_artifact_idx')
      .on(table.tenantId, sql`(${table.input} ->> 'artifact_id')`, table.createdAt)
      .where(sql`${table.kind} = 'normalize'`),
  ],
)

/** This module's part of tenant deletion (platform/db/tenant-data.ts): emptied in this order. */
export const ledgerTenantData: TenantDataPlan = {
  deleted: [
    { table: ledgerReconciliationMatches, tenantColumn: ledgerReconciliationMatches.tenantId },
    { table: ledgerTransactions, tenantColumn: ledgerTransactions.tenantId },
    { table: ledgerBalances, tenantColumn: ledgerBalances.tenantId },
    { table: ledgerObligations, tenantColumn: ledgerObligations.tenantId },
    { table: ledgerInvoices, tenantColumn: ledgerInvoices.tenantId },
    { table: ledgerCounterparties, tenantColumn: ledgerCounterparties.tenantId },
    { table: ledgerAccounts, tenantColumn: ledgerAccounts.tenantId },
    { table: ledgerEntityKeys, tenantColumn: ledgerEntityKeys.tenantId },
    { table: ledgerJobs, tenantColumn: ledgerJobs.tenantId },
  ],
}
