/**
 * Ledger rows as the API shows them: snake_case, ISO timestamps, every provenance field, and every amount
 * at its currency's scale (kernel/money.ts `formatAmount`: `"1410.000000"` USDC, `"0.00"` EUR). The Ledger
 * stores amounts as it always has (ledger/domain/keys.ts `ledgerAmount`, which its keys are built on);
 * the format is the wire's, applied here.
 */
import { decimalSign, decimalSubtract, formatAmount } from '../../kernel/money.ts'
import { outcomeTotals } from './domain/outcomes.ts'
import type { ReconcileSummary } from './reconcile/reconcile.ts'
import type { AccountRow, BalanceRow, CounterpartyRow, InvoiceRow, LedgerJobRow, MatchRow, ObligationRow, TransactionRow } from './ledger.store.ts'

type Versioned = Pick<
  TransactionRow,
  'id' | 'versionId' | 'version' | 'supersedes' | 'sourceIds' | 'evidenceIds' | 'provenance' | 'confidence' | 'metadata' | 'createdAt' | 'updatedAt' | 'supersededAt'
>

/** The fields every Ledger record carries (spec, "Ledger records"), plus its version. */
function provenanceOf(row: Versioned) {
  return {
    version_id: row.versionId,
    version: row.version,
    supersedes: row.supersedes,
    source_ids: row.sourceIds,
    evidence_ids: row.evidenceIds,
    provenance: row.provenance,
    confidence: row.confidence,
    metadata: row.metadata as Record<string, unknown>,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    superseded_at: row.supersededAt?.toISOString() ?? null,
  }
}

export function transactionView(row: TransactionRow) {
  return {
    id: row.id,
    account_id: row.accountId,
    external_transaction_id: row.externalTransactionId,
    amount: formatAmount(row.amount, row.currency),
    currency: row.currency,
    direction: row.direction,
    transaction_date: row.transactionDate,
    posted_date: row.postedDate,
    counterparty_id: row.counterpartyId,
    category_id: row.categoryId,
    status: row.status,
    description: row.description,
    description_normalized: row.descriptionNormalized,
    reconciliation_status: row.reconciliationStatus,
    ...provenanceOf(row),
  }
}

export function balanceView(row: BalanceRow) {
  return { id: row.id, account_id: row.accountId, balance_type: row.balanceType, as_of: row.asOf, amount: formatAmount(row.amount, row.currency), currency: row.currency, ...provenanceOf(row) }
}

export function accountView(row: AccountRow) {
  return {
    id: row.id,
    account_type: row.accountType,
    status: row.status,
    name: row.name,
    institution: row.institution,
    currency: row.currency,
    external_account_id: row.externalAccountId,
    iban: row.iban,
    account_number_masked: row.accountNumberMasked,
    wallet_address: row.walletAddress,
    chain_id: row.chainId,
    ...provenanceOf(row),
  }
}

export function counterpartyView(row: CounterpartyRow) {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    verified_status: row.verifiedStatus,
    risk_level: row.riskLevel,
    trust_state: row.trustState,
    aliases: row.aliases,
    linked_accounts: row.linkedAccounts,
    ...provenanceOf(row),
  }
}

export function invoiceView(row: InvoiceRow) {
  // A cancelled invoice owes nothing, whatever was paid on it.
  const due = row.status === 'cancelled' ? '0' : decimalSubtract(row.total, row.amountPaid)
  return {
    id: row.id,
    direction: row.direction,
    invoice_number: row.invoiceNumber,
    issue_date: row.issueDate,
    due_date: row.dueDate,
    currency: row.currency,
    total: formatAmount(row.total, row.currency),
    subtotal: row.subtotal === null ? null : formatAmount(row.subtotal, row.currency),
    tax: row.tax === null ? null : formatAmount(row.tax, row.currency),
    amount_paid: formatAmount(row.amountPaid, row.currency),
    amount_due: formatAmount(decimalSign(due) < 0 ? '0' : due, row.currency),
    status: row.status,
    counterparty_id: row.counterpartyId,
    ...provenanceOf(row),
  }
}

export function obligationView(row: ObligationRow) {
  return {
    id: row.id,
    type: row.obligationType,
    direction: row.direction,
    reference: row.reference,
    description: row.description,
    amount: formatAmount(row.amount, row.currency),
    currency: row.currency,
    due_date: row.dueDate,
    recurrence: row.recurrence,
    status: row.status,
    counterparty_id: row.counterpartyId,
    invoice_id: row.invoiceId,
    ...provenanceOf(row),
  }
}

export function matchView(row: MatchRow) {
  return {
    id: row.id,
    match_type: row.matchType,
    status: row.status,
    subject_refs: row.subjectRefs,
    // A match without a currency (none of today's matchers writes one) keeps its amounts as stored.
    amount: row.amount === null || row.currency === null ? row.amount : formatAmount(row.amount, row.currency),
    currency: row.currency,
    difference: row.difference === null || row.currency === null ? row.difference : formatAmount(row.difference, row.currency),
    explanation: row.explanation,
    ...provenanceOf(row),
  }
}

export function jobView(row: LedgerJobRow) {
  return {
    job_id: row.id,
    kind: row.kind,
    status: row.status,
    input: row.input as Record<string, unknown>,
    result: (row.result as Record<string, unknown> | null) ?? null,
    error: row.error,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    started_at: row.startedAt?.toISOString() ?? null,
    finished_at: row.finishedAt?.toISOString() ?? null,
  }
}

/**
 * A reconciliation job as its status route shows it: the run's outcome once it succeeded (matches found,
 * by `match_type:status`, statement checks retired, and the entities it wrote), null before.
 */
export function reconcileJobView(row: LedgerJobRow) {
  const result = row.status === 'succeeded' ? (row.result as Partial<ReconcileSummary> | null) : null
  const byType = result?.matches ?? {}
  return {
    job_id: row.id,
    status: row.status,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    started_at: row.startedAt?.toISOString() ?? null,
    finished_at: row.finishedAt?.toISOString() ?? null,
    error: row.error,
    outcome:
      result === null
        ? null
        : {
            matches: Object.values(byType).reduce((sum, count) => sum + count, 0),
            matches_by_type: byType,
            retired: result.retired ?? 0,
            ...outcomeTotals(result.counts ?? {}),
          },
  }
}

export type TransactionView = ReturnType<typeof transactionView>
export type AccountView = ReturnType<typeof accountView>
export type BalanceView = ReturnType<typeof balanceView>
export type CounterpartyView = ReturnType<typeof counterpartyView>
export type InvoiceView = ReturnType<typeof invoiceView>
export type ObligationView = ReturnType<typeof obligationView>
export type MatchView = ReturnType<typeof matchView>
export type JobView = ReturnType<typeof jobView>
export type ReconcileJobView = ReturnType<typeof reconcileJobView>
