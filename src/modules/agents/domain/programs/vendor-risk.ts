/**
 * Vendor risk (issue 18, item 3): counterparties that are paid or about to be paid and should not be,
 * proposed as `block_payment` (proposal type `vendor_risk`; policy holds it for a signer).
 *
 * At stake: open payables of the counterparty (obligations `open` with direction `payable`, at their
 * outstanding amount, else their amount; invoices `payable` with status sent, partial, overdue or draft
 * and amount_due above zero, that no counted obligation names) and its outflows (direction `outflow`,
 * not failed or reversed) dated within `paidLookbackDays` before today.
 *
 * Reasons, in priority order (`reason` is the first that holds, `reasons` all of them):
 * - `sanctioned`: risk_level sanctioned. Always, whatever its trust state: nothing overrides sanctions.
 * - `high_risk`: risk_level high, and trust neither `trusted` nor `acknowledged` (a person accepted it).
 * - `shared_payment_details`: one of its linked accounts (iban:…, account:…, wallet:…) is also linked to
 *   another counterparty — the pattern of a payee impersonated with someone else's bank details; trust
 *   neither trusted nor acknowledged.
 * - `new_payment_details`: recorded within `changedDays` of today with at least one linked account, not
 *   document-verified or sanctions-cleared, trust unreviewed. What the view can honestly show of
 *   "payment details changed recently": it has no date per linked account, only the counterparty's own
 *   created_at, so only the details of a newly recorded payee are known to be recent; an old payee whose
 *   IBAN was replaced last week is not detectable here (it needs the Ledger's version history).
 * - `unverified_unreviewed`: verified_status unverified and trust unreviewed. Only with open payables
 *   (a payment still to be blocked): past card payments to an unverified merchant are not a finding.
 * The other reasons need open payables or outflows in the lookback.
 *
 * confidence = min(0.99, the first reason's base + 0.05 · (number of reasons − 1)), bases: sanctioned
 *   0.95, high_risk 0.8, shared_payment_details 0.75, new_payment_details 0.6, unverified_unreviewed 0.5.
 * evidence_score = the share of cited Ledger records (the counterparty, its open payables, its latest ten
 *   outflows in the lookback, the counterparties sharing its details) that name at least one parsed row,
 *   rounded to four places.
 *
 * key `vendor_risk:<counterparty id>`; details: counterparty_id, reason, reasons, open_amounts and
 * paid_amounts (one `<amount> <currency>` per currency, at its scale, by currency code), open_invoice_ids,
 * open_obligation_ids, last_paid_date, shared_with (counterparty ids).
 */
import { decimalAbs, decimalCompare, decimalSum, formatAmount } from '../../../../kernel/money.ts'
import { calendarDateOf, daysBetween } from '../../../../kernel/dates.ts'
import type {
  AgentProgram,
  AgentProposal,
  LedgerCounterpartyView,
  LedgerInvoiceView,
  LedgerObligationView,
  LedgerSnapshot,
  LedgerTransactionView,
} from './program.ts'
import { byKey, citedEvidence, compareText, round4, type CitedRecord } from './shared.ts'

export interface VendorRiskConfig {
  /** Outflows this many days before today or later count as "paid". */
  readonly paidLookbackDays: number
  /** A counterparty recorded this many days before today or later has new payment details. */
  readonly changedDays: number
}

export const vendorRiskDefaultConfig: VendorRiskConfig = { paidLookbackDays: 90, changedDays: 30 }

export type VendorRiskReason = 'sanctioned' | 'high_risk' | 'shared_payment_details' | 'new_payment_details' | 'unverified_unreviewed'

const baseConfidence: Readonly<Record<VendorRiskReason, number>> = {
  sanctioned: 0.95,
  high_risk: 0.8,
  shared_payment_details: 0.75,
  new_payment_details: 0.6,
  unverified_unreviewed: 0.5,
}

const openInvoiceStatuses: ReadonlySet<LedgerInvoiceView['status']> = new Set(['sent', 'partial', 'overdue', 'draft'])




/** `<amount> <currency>` per currency, summed exactly, by currency code. */
function totals(amounts: ReadonlyArray<{ amount: string; currency: string }>): string[] {
  const byCurrency = new Map<string, string[]>()
  for (const { amount, currency } of amounts) byCurrency.set(currency, [...(byCurrency.get(currency) ?? []), amount])
  return [...byCurrency]
    .sort(([a], [b]) => compareText(a, b))
    .map(([currency, values]) => `${formatAmount(decimalSum(values), currency)} ${currency}`)
}

interface Exposure {
  obligations: LedgerObligationView[]
  invoices: LedgerInvoiceView[]
  outflows: LedgerTransactionView[]
}

export function runVendorRisk(ledger: LedgerSnapshot, config: VendorRiskConfig): AgentProposal[] {
  const exposure = new Map<string, Exposure>()
  const of = (id: string): Exposure => {
    let found = exposure.get(id)
    if (found === undefined) {
      found = { obligations: [], invoices: [], outflows: [] }
      exposure.set(id, found)
    }
    return found
  }
  const countedInvoices = new Set<string>()
  for (const obligation of [...ledger.obligations].sort((a, b) => compareText(a.id, b.id))) {
    if (obligation.status !== 'open' || obligation.direction !== 'payable' || obligation.counterparty_id === null) continue
    if (decimalCompare(obligation.outstanding ?? obligation.amount, '0') <= 0) continue
    of(obligation.counterparty_id).obligations.push(obligation)
    if (obligation.invoice_id !== null) countedInvoices.add(obligation.invoice_id)
  }
  for (const invoice of [...ledger.invoices].sort((a, b) => compareText(a.id, b.id))) {
    if (invoice.direction !== 'payable' || !openInvoiceStatuses.has(invoice.status) || invoice.counterparty_id === null || countedInvoices.has(invoice.id)) continue
    if (decimalCompare(invoice.amount_due, '0') <= 0) continue
    of(invoice.counterparty_id).invoices.push(invoice)
  }
  for (const transaction of [...ledger.transactions].sort((a, b) => compareText(a.transaction_date, b.transaction_date) || compareText(a.id, b.id))) {
    if (transaction.direction !== 'outflow' || transaction.counterparty_id === null || transaction.status === 'failed' || transaction.status === 'reversed') continue
    const age = daysBetween(transaction.transaction_date, ledger.today)
    if (age < 0 || age > config.paidLookbackDays || decimalCompare(transaction.amount, '0') >= 0) continue
    of(transaction.counterparty_id).outflows.push(transaction)
  }

  // Linked accounts and the counterparties that list them.
  const holders = new Map<string, Set<string>>()
  for (const counterparty of ledger.counterparties) {
    for (const account of counterparty.linked_accounts) holders.set(account, (holders.get(account) ?? new Set()).add(counterparty.id))
  }

  const byId = new Map<string, LedgerCounterpartyView>(ledger.counterparties.map((other) => [other.id, other]))
  const proposals: AgentProposal[] = []
  for (const counterparty of [...ledger.counterparties].sort((a, b) => compareText(a.id, b.id))) {
    const stake = exposure.get(counterparty.id)
    if (stake === undefined) continue
    const openPayables = stake.obligations.length + stake.invoices.length > 0
    const reviewed = counterparty.trust_state === 'trusted' || counterparty.trust_state === 'acknowledged'
    const sharedWith = [...new Set(counterparty.linked_accounts.flatMap((account) => [...(holders.get(account) ?? [])]))].filter((id) => id !== counterparty.id).sort(compareText)
    const recorded = calendarDateOf(counterparty.created_at)
    const recent = recorded !== undefined && daysBetween(recorded, ledger.today) <= config.changedDays

    const reasons: VendorRiskReason[] = []
    if (counterparty.risk_level === 'sanctioned') reasons.push('sanctioned')
    if (counterparty.risk_level === 'high' && !reviewed) reasons.push('high_risk')
    if (sharedWith.length > 0 && !reviewed) reasons.push('shared_payment_details')
    if (
      recent &&
      counterparty.linked_accounts.length > 0 &&
      (counterparty.verified_status === 'unverified' || counterparty.verified_status === 'self_attested') &&
      counterparty.trust_state === 'unreviewed'
    ) {
      reasons.push('new_payment_details')
    }
    if (openPayables && counterparty.verified_status === 'unverified' && counterparty.trust_state === 'unreviewed') reasons.push('unverified_unreviewed')
    if (reasons.length === 0) continue
    const reason = reasons[0]!

    const open = totals([
      ...stake.obligations.map((obligation) => ({ amount: obligation.outstanding ?? obligation.amount, currency: obligation.currency })),
      ...stake.invoices.map((invoice) => ({ amount: invoice.amount_due, currency: invoice.currency })),
    ])
    const paid = totals(stake.outflows.map((transaction) => ({ amount: decimalAbs(transaction.amount), currency: transaction.currency })))
    const lastPaid = stake.outflows.at(-1)?.transaction_date ?? null
    const records: CitedRecord[] = [
      { kind: 'counterparty', id: counterparty.id, evidence_ids: counterparty.evidence_ids },
      ...stake.obligations.map((obligation): CitedRecord => ({ kind: 'obligation', id: obligation.id, evidence_ids: obligation.evidence_ids })),
      ...stake.invoices.map((invoice): CitedRecord => ({ kind: 'invoice', id: invoice.id, evidence_ids: invoice.evidence_ids })),
      ...stake.outflows.slice(-10).map((transaction): CitedRecord => ({ kind: 'transaction', id: transaction.id, evidence_ids: transaction.evidence_ids })),
      ...sharedWith.map((id): CitedRecord => ({ kind: 'counterparty', id, evidence_ids: byId.get(id)!.evidence_ids })),
    ]
    const why: Record<VendorRiskReason, string> = {
      sanctioned: 'is sanctioned',
      high_risk: 'is rated high risk and not accepted by anyone',
      shared_payment_details: `shares payment details with ${sharedWith.map((id) => byId.get(id)!.name).join(', ')}`,
      new_payment_details: `was recorded ${recorded ?? ''} with payment details nobody has verified`,
      unverified_unreviewed: 'is unverified and unreviewed',
    }
    const atStake = [open.length > 0 ? `${open.join(', ')} open` : '', paid.length > 0 ? `${paid.join(', ')} paid since ${stake.outflows[0]!.transaction_date}` : '']
      .filter((part) => part !== '')
      .join('; ')
    proposals.push({
      proposal_type: 'vendor_risk',
      action_type: 'block_payment',
      key: `vendor_risk:${counterparty.id}`,
      confidence: round4(Math.min(0.99, baseConfidence[reason] + 0.05 * (reasons.length - 1))),
      ...citedEvidence(records),
      narrative: `${counterparty.name} ${reasons.map((each) => why[each]).join('; ')}. At stake: ${atStake}. Block payments to it until a person reviews it.`,
      details: {
        counterparty_id: counterparty.id,
        reason,
        reasons,
        open_amounts: open,
        paid_amounts: paid,
        open_invoice_ids: stake.invoices.map((invoice) => invoice.id),
        open_obligation_ids: stake.obligations.map((obligation) => obligation.id),
        last_paid_date: lastPaid,
        shared_with: sharedWith,
      },
    })
  }
  return byKey(proposals)
}

export const vendorRiskProgram: AgentProgram<VendorRiskConfig> = {
  agentKey: 'vendor_risk',
  version: '1',
  category: 'business',
  capabilities: ['block_payment'],
  defaultConfig: vendorRiskDefaultConfig,
  run: runVendorRisk,
}
