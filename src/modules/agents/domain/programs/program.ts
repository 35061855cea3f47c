/**
 * A first-party agent is a deterministic program over the Ledger (issue 18, item 3): given the tenant's
 * Ledger as it is now (the records below, as the Ledger's read API shows them) and the day it runs, it
 * answers what it proposes — money movements that go through the gated path as PaymentIntents, and
 * findings (reminders, matches, flags, forecasts) that a person acknowledges — each with its evidence
 * (Ledger refs and the parsed rows behind them), a confidence and an evidence score. Same input, same
 * output: no clock, no randomness, no I/O; the run pipeline reads the Ledger and proposes.
 */

/** Decimal strings as the Ledger writes them ("-10.00", "1234.5"). */
export type Amount = string
/** YYYY-MM-DD. */
export type CalendarDate = string

export interface LedgerAccountView {
  readonly id: string
  readonly account_type: 'bank_checking' | 'bank_savings' | 'card' | 'loan' | 'line_of_credit' | 'onchain' | 'payment_processor'
  readonly status: 'active' | 'closed' | 'frozen' | 'pending'
  readonly name: string
  readonly currency: string
  readonly evidence_ids: readonly string[]
}

export interface LedgerBalanceView {
  readonly id: string
  readonly account_id: string
  readonly balance_type: 'opening' | 'closing' | 'available' | 'current'
  readonly as_of: CalendarDate
  readonly amount: Amount
  readonly currency: string
  readonly evidence_ids: readonly string[]
}

export interface LedgerTransactionView {
  readonly id: string
  readonly account_id: string
  /** Signed: negative leaves the account. */
  readonly amount: Amount
  readonly currency: string
  readonly direction: 'inflow' | 'outflow' | 'transfer' | 'adjustment'
  readonly transaction_date: CalendarDate
  readonly counterparty_id: string | null
  readonly category_id: string | null
  readonly status: 'pending' | 'posted' | 'cleared' | 'failed' | 'reversed' | 'disputed'
  readonly description: string
  readonly description_normalized: string
  readonly reconciliation_status: 'unmatched' | 'matched' | 'partially_matched' | 'duplicate_possible' | 'disputed' | 'cleared' | 'failed' | 'reversed'
  readonly evidence_ids: readonly string[]
}

export interface LedgerCounterpartyView {
  readonly id: string
  readonly name: string
  readonly type: 'merchant' | 'vendor' | 'customer' | 'employer' | 'employee' | 'bank' | 'wallet' | 'exchange' | 'tax_authority' | 'agent' | 'other'
  readonly verified_status: 'unverified' | 'self_attested' | 'document_verified' | 'sanctions_cleared'
  readonly risk_level: 'low' | 'medium' | 'high' | 'sanctioned'
  readonly trust_state: 'unreviewed' | 'trusted' | 'paused' | 'acknowledged'
  readonly linked_accounts: readonly string[]
  /** When the Ledger first recorded it (ISO 8601): how new a payee is. */
  readonly created_at: string
  readonly evidence_ids: readonly string[]
}

export interface LedgerInvoiceView {
  readonly id: string
  readonly direction: 'payable' | 'receivable'
  readonly invoice_number: string
  readonly issue_date: CalendarDate | null
  readonly due_date: CalendarDate | null
  readonly currency: string
  readonly total: Amount
  readonly amount_paid: Amount
  readonly amount_due: Amount
  readonly status: 'draft' | 'sent' | 'partial' | 'paid' | 'overdue' | 'cancelled' | 'disputed'
  readonly counterparty_id: string | null
  readonly evidence_ids: readonly string[]
}

export interface LedgerObligationView {
  readonly id: string
  readonly type: 'bill' | 'invoice' | 'subscription' | 'loan' | 'rent' | 'payroll' | 'tax' | 'card_statement' | 'other'
  readonly direction: 'payable' | 'receivable' | null
  readonly reference: string
  readonly description: string | null
  readonly amount: Amount
  readonly currency: string
  readonly due_date: CalendarDate | null
  readonly recurrence: 'weekly' | 'monthly' | 'quarterly' | 'yearly' | null
  readonly status: 'open' | 'settled' | 'cancelled'
  readonly counterparty_id: string | null
  readonly invoice_id: string | null
  /** What the Ledger says remains outstanding (metadata.outstanding), when it says. */
  readonly outstanding: Amount | null
  readonly evidence_ids: readonly string[]
}

/** The tenant's Ledger as a program reads it: current versions only, every list in id order. */
export interface LedgerSnapshot {
  /** The day the program runs for (the tenant's today). */
  readonly today: CalendarDate
  readonly accounts: readonly LedgerAccountView[]
  /** The latest balances per account and type. */
  readonly balances: readonly LedgerBalanceView[]
  readonly transactions: readonly LedgerTransactionView[]
  readonly counterparties: readonly LedgerCounterpartyView[]
  readonly invoices: readonly LedgerInvoiceView[]
  readonly obligations: readonly LedgerObligationView[]
}

/** What a proposal relied on: a Ledger record (`transaction`, `invoice`, …) or a Raw parsed row (`parsed_row`). */
export interface EvidenceRef {
  readonly kind: 'account' | 'balance' | 'transaction' | 'counterparty' | 'invoice' | 'obligation' | 'parsed_row'
  readonly ref: string
}

/** The public proposal types (spec, "Proposal"). */
export type ProposalType =
  | 'vendor_risk'
  | 'payment'
  | 'collections'
  | 'treasury'
  | 'cash_forecast'
  | 'reconciliation'
  | 'subscription'
  | 'fraud_anomaly'
  | 'bill_management'

/**
 * One proposal. `payment` proposals become PaymentIntents through the gated path (`pay_invoice` names a
 * payable invoice; the pipeline resolves amount, currency, counterparty and source account from it, or
 * an explicit `ach_outbound`); the others are findings a person acknowledges, with their stored action
 * type (remind, propose_match, flag_transaction, block_payment, forecast, subscription_change, …).
 */
export interface AgentProposal {
  readonly proposal_type: ProposalType
  /** The stored action type: pay_invoice, ach_outbound, remind, propose_match, flag_transaction, block_payment, forecast, subscription_change, … */
  readonly action_type: string
  /** Stable within the program: the same finding on the same Ledger has the same key (duplicate detection). */
  readonly key: string
  /** 0..1: how sure the program is that the proposal is right. */
  readonly confidence: number
  /** 0..1: how well the evidence supports it (resolvable records, parsed rows with high extraction confidence). */
  readonly evidence_score: number
  /** One or two plain sentences a person reads. */
  readonly narrative: string
  readonly evidence: readonly EvidenceRef[]
  /** The stored action's fields: for a payment, invoice_id (pay_invoice) or amount, currency, counterparty and source account. */
  readonly details: Readonly<Record<string, string | number | boolean | null | readonly string[]>>
}

export interface AgentProgram<Config = Readonly<Record<string, unknown>>> {
  /** The catalog key (`bill_payment`, …). */
  readonly agentKey: string
  /** Bumped with any change of behaviour; part of the behaviour hash the gate pins (check 1.5). */
  readonly version: string
  readonly category: 'business' | 'consumer' | 'agnostic'
  readonly capabilities: readonly string[]
  readonly defaultConfig: Config
  /** Deterministic: proposals sorted by key. */
  run(ledger: LedgerSnapshot, config: Config): AgentProposal[]
}
