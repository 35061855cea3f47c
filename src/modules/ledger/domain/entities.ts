/**
 * The Ledger's entities as its rules see them (docs/raw-and-ledger.md, "Ledger rows: versions, ids,
 * time"): one version of an account, balance, counterparty, transaction, invoice, obligation or
 * reconciliation match, and the parsed row a version cites as evidence. Plain types: the store's rows
 * have exactly these fields (ledger.store.ts checks it at compile time), so rows reach the rules as
 * they are read, without a mapping per row.
 */

export const ledgerKinds = ['account', 'balance', 'counterparty', 'transaction', 'invoice', 'obligation', 'reconciliation_match'] as const
export type LedgerKind = (typeof ledgerKinds)[number]

/** The kinds that have natural keys (docs/raw-and-ledger.md, "Natural keys and dedupe"). */
export type KeyKind = 'account' | 'counterparty' | 'transaction' | 'invoice' | 'obligation' | 'balance'

export type Provenance = 'extracted' | 'inferred' | 'ambiguous' | 'human_confirmed' | 'agent_contributed'

/** Bookkeeping columns every version has; everything else is content. */
export interface VersionBookkeeping {
  versionId: string
  id: string
  tenantId: string
  version: number
  supersedes: string | null
  createdAt: Date
  updatedAt: Date
  supersededAt: Date | null
}

/** What every version records besides its bookkeeping: where it came from and how sure it is. */
export interface LedgerVersion extends VersionBookkeeping {
  /** The artifacts it came from. */
  sourceIds: string[]
  /** The parsed rows it came from. */
  evidenceIds: string[]
  provenance: Provenance
  confidence: number
  /** A JSON object (stored as jsonb). */
  metadata: unknown
}

export type AccountType = 'bank_checking' | 'bank_savings' | 'card' | 'loan' | 'line_of_credit' | 'onchain' | 'payment_processor'
export type AccountStatus = 'active' | 'closed' | 'frozen' | 'pending'

export interface Account extends LedgerVersion {
  accountType: AccountType
  status: AccountStatus
  name: string
  institution: string | null
  currency: string
  externalAccountId: string | null
  iban: string | null
  accountNumberMasked: string | null
  walletAddress: string | null
  chainId: number | null
}

export type BalanceType = 'opening' | 'closing' | 'available' | 'current'

export interface Balance extends LedgerVersion {
  accountId: string
  balanceType: BalanceType
  /** ISO date. */
  asOf: string
  /** Decimal string (ledgerAmount). */
  amount: string
  currency: string
}

export type CounterpartyType = 'merchant' | 'vendor' | 'customer' | 'employer' | 'employee' | 'bank' | 'wallet' | 'exchange' | 'tax_authority' | 'agent' | 'other'
export type VerifiedStatus = 'unverified' | 'self_attested' | 'document_verified' | 'sanctions_cleared'
export type RiskLevel = 'low' | 'medium' | 'high' | 'sanctioned'
export type TrustState = 'unreviewed' | 'trusted' | 'paused' | 'acknowledged'

export interface Counterparty extends LedgerVersion {
  name: string
  type: CounterpartyType
  verifiedStatus: VerifiedStatus
  riskLevel: RiskLevel
  trustState: TrustState
  aliases: string[]
  linkedAccounts: string[]
}

export type TransactionDirection = 'inflow' | 'outflow' | 'transfer' | 'adjustment'
export type TransactionStatus = 'pending' | 'posted' | 'cleared' | 'failed' | 'reversed' | 'disputed'
export type ReconciliationStatus = 'unmatched' | 'matched' | 'partially_matched' | 'duplicate_possible' | 'disputed' | 'cleared' | 'failed' | 'reversed'

export interface Transaction extends LedgerVersion {
  accountId: string
  externalTransactionId: string | null
  /** Signed decimal string (ledgerAmount): negative is money out. */
  amount: string
  currency: string
  direction: TransactionDirection
  /** ISO date. */
  transactionDate: string
  postedDate: string | null
  counterpartyId: string | null
  categoryId: string | null
  status: TransactionStatus
  description: string
  descriptionNormalized: string
  reconciliationStatus: ReconciliationStatus
}

export type InvoiceDirection = 'payable' | 'receivable'
export type InvoiceStatus = 'draft' | 'sent' | 'partial' | 'paid' | 'overdue' | 'cancelled' | 'disputed'

export interface Invoice extends LedgerVersion {
  direction: InvoiceDirection
  invoiceNumber: string
  issueDate: string | null
  dueDate: string | null
  currency: string
  total: string
  subtotal: string | null
  tax: string | null
  amountPaid: string
  status: InvoiceStatus
  counterpartyId: string | null
}

export type ObligationType = 'bill' | 'invoice' | 'subscription' | 'loan' | 'rent' | 'payroll' | 'tax' | 'card_statement' | 'other'
export type Recurrence = 'weekly' | 'monthly' | 'quarterly' | 'yearly'
export type ObligationStatus = 'open' | 'settled' | 'cancelled'

export interface Obligation extends LedgerVersion {
  obligationType: ObligationType
  direction: InvoiceDirection | null
  reference: string
  description: string | null
  amount: string
  currency: string
  dueDate: string | null
  recurrence: Recurrence | null
  status: ObligationStatus
  counterpartyId: string | null
  invoiceId: string | null
}

export type ReconciliationMatchType =
  | 'transaction_receipt'
  | 'invoice_payment'
  | 'statement_balance'
  | 'wallet_transfer'
  | 'payroll_bank_debit'
  | 'subscription_charge'
  | 'card_charge'
  | 'onchain_settlement'
  | 'obligation_duplicate'

export interface ReconciliationMatch extends LedgerVersion {
  matchType: ReconciliationMatchType
  status: ReconciliationStatus
  /** What was matched: typed references such as transaction:txn_…, invoice:inv_…, account:acc_… */
  subjectRefs: string[]
  amount: string | null
  currency: string | null
  difference: string | null
  explanation: string
}

export interface LedgerEntityByKind {
  account: Account
  balance: Balance
  counterparty: Counterparty
  transaction: Transaction
  invoice: Invoice
  obligation: Obligation
  reconciliation_match: ReconciliationMatch
}

/**
 * A parsed row as evidence of a version: its id goes to `evidence_ids`, its artifact to `source_ids`, and
 * its parser's confidence is the confidence of what was read from it.
 */
export interface Evidence {
  readonly id: string
  readonly rawArtifactId: string
  readonly confidence: number
}
