/**
 * Bill payment (issue 18, item 3): payable obligations that are due within `horizonDays` of today, or
 * overdue, and not settled or paid, proposed as payments through the gated path.
 *
 * What is proposed, per open payable obligation (direction `payable`, or no direction and a type that is
 * only ever paid: bill, subscription, loan, rent, payroll, tax, card statement), and per payable invoice
 * that no obligation names (the Ledger writes an obligation for every invoice, so this is a fallback):
 * - `pay_invoice` (details.invoice_id) when the obligation is an invoice's and that invoice is payable
 *   with amount_due > 0; the amount is the invoice's amount_due;
 * - else `ach_outbound` with the obligation's outstanding amount (metadata.outstanding, else its amount).
 * Both carry amount, currency, destination_counterparty_id, source_account_id, obligation_id and due_date,
 * so the proposal reads the same whichever way the pipeline resolves it.
 *
 * Skipped, with no proposal: nothing outstanding (settled, cancelled, outstanding or amount_due 0, an
 * invoice paid, cancelled, disputed or still a draft); no payee (a bill with no counterparty cannot be
 * paid), or a payee the snapshot does not show (it cannot be screened); a payee that is sanctioned or of
 * high risk, or whose trust is paused (vendor risk's finding, not a payment); no active bank account in
 * the bill's currency; no due date known (a bill's own, else its invoice's, else the invoice's issue date,
 * read as "due on receipt"); due after today + horizonDays (the boundary day itself is included).
 *
 * Recurring obligations (rent every month): the Ledger does not settle their past occurrences, so the
 * program cannot know whether they were paid; it proposes the next occurrence on or after today when it
 * falls within the horizon, never an overdue one, under the key `bill_payment:<obligation id>:<date>` (a
 * new key each occurrence). Every other key is `bill_payment:<obligation id>` (or `<invoice id>`).
 *
 * Source account: the active bank account (checking or savings) in the bill's currency with the highest
 * latest balance (latest by as_of, see `latestBalances`); an account with no balance ranks below any with
 * one; ties go to the smaller account id.
 *
 * confidence = 0.45 + 0.20·[paid as pay_invoice] + 0.10·[a due date of its own, not inferred]
 *                   + 0.10·[every cited record has evidence] + 0.10·[payee document-verified or
 *                   sanctions-cleared] − 0.20·[source balance unknown or below the amount],
 *   clamped to 0.05..0.95 and rounded to two places.
 * evidence_score = the share of cited Ledger records (obligation, invoice, counterparty, source account,
 *   its balance) that name at least one parsed row, rounded to two places.
 *
 * The general helpers (latest balances, payable direction, open amount, amounts for people, evidence) are
 * in shared.ts, with the other programs.
 */
import { decimalCompare, decimalSign, formatAmount } from '../../../../kernel/money.ts'
import { addDays, daysBetween } from '../../../../kernel/dates.ts'
import type {
  AgentProgram,
  AgentProposal,
  Amount,
  CalendarDate,
  LedgerAccountView,
  LedgerBalanceView,
  LedgerCounterpartyView,
  LedgerInvoiceView,
  LedgerObligationView,
  LedgerSnapshot,
} from './program.ts'
import {
  byKey,
  displayAmount,
  evidenceOf,
  evidenceShare,
  invoicesNamedByObligations,
  isActiveBankAccount,
  isOpenInvoice,
  latestBalances,
  obligationDirection,
  obligationOutstanding,
  occurrencesBetween,
  score,
} from './shared.ts'

export interface BillPaymentConfig {
  /** Bills due within this many days of today (inclusive), and overdue ones, are proposed. */
  readonly horizonDays: number
}

// ---------------------------------------------------------------------------------------------------
// The program.

/** `in 3 days`, `tomorrow`, `today`, `1 day overdue`, `12 days overdue`. */
export function relativeDue(today: CalendarDate, due: CalendarDate): string {
  const days = daysBetween(today, due)
  if (days === 0) return 'today'
  if (days === 1) return 'tomorrow'
  if (days > 1) return `in ${days} days`
  return days === -1 ? '1 day overdue' : `${-days} days overdue`
}

const typeLabels: Readonly<Record<LedgerObligationView['type'], string>> = {
  bill: 'bill',
  invoice: 'invoice',
  subscription: 'subscription',
  loan: 'loan payment',
  rent: 'rent',
  payroll: 'payroll',
  tax: 'tax',
  card_statement: 'card statement',
  other: 'bill',
}

/** The account to pay from: the active bank account in the currency with the highest latest balance. */
export function sourceAccountFor(
  ledger: LedgerSnapshot,
  currency: string,
  balances: ReadonlyMap<string, LedgerBalanceView>,
): { account: LedgerAccountView; balance: LedgerBalanceView | undefined } | undefined {
  let best: { account: LedgerAccountView; balance: LedgerBalanceView | undefined } | undefined
  for (const account of ledger.accounts) {
    if (!isActiveBankAccount(account) || account.currency !== currency) continue
    const candidate = { account, balance: balances.get(account.id) }
    if (best === undefined || accountBefore(candidate, best)) best = candidate
  }
  return best
}

function accountBefore(a: { account: LedgerAccountView; balance: LedgerBalanceView | undefined }, b: { account: LedgerAccountView; balance: LedgerBalanceView | undefined }): boolean {
  if (a.balance !== undefined && b.balance === undefined) return true
  if (a.balance === undefined && b.balance !== undefined) return false
  if (a.balance !== undefined && b.balance !== undefined) {
    const order = decimalCompare(a.balance.amount, b.balance.amount)
    if (order !== 0) return order > 0
  }
  return a.account.id < b.account.id
}

interface Bill {
  readonly key: string
  readonly obligation: LedgerObligationView | undefined
  readonly invoice: LedgerInvoiceView | undefined
  readonly payInvoice: boolean
  readonly reference: string
  readonly label: string
  readonly amount: Amount
  readonly currency: string
  readonly counterpartyId: string | null
  readonly due: CalendarDate
  readonly dueExact: boolean
}

/** The bills to consider: open payable obligations and unnamed payable invoices, with what is due and when. */
function billsOf(ledger: LedgerSnapshot, horizonEnd: CalendarDate): Bill[] {
  const invoices = new Map(ledger.invoices.map((invoice) => [invoice.id, invoice]))
  const bills: Bill[] = []
  for (const obligation of ledger.obligations) {
    if (obligationDirection(obligation) !== 'payable') continue
    const outstanding = obligationOutstanding(obligation)
    if (decimalSign(outstanding) <= 0) continue
    const invoice = obligation.invoice_id === null ? undefined : invoices.get(obligation.invoice_id)
    if (invoice !== undefined && invoice.direction === 'payable' && !isOpenInvoice(invoice)) continue // paid, cancelled, disputed, a draft
    const payInvoice = invoice !== undefined && invoice.direction === 'payable'
    const ownDue = obligation.due_date ?? (payInvoice ? invoice.due_date : null)
    const inferredDue = payInvoice ? invoice.issue_date : null
    const label = typeLabels[obligation.type]
    const common = {
      obligation,
      invoice: payInvoice ? invoice : undefined,
      payInvoice,
      reference: payInvoice ? invoice.invoice_number : obligation.reference,
      label,
      amount: payInvoice ? invoice.amount_due : outstanding,
      currency: payInvoice ? invoice.currency : obligation.currency,
      counterpartyId: obligation.counterparty_id ?? (payInvoice ? invoice.counterparty_id : null),
    }
    if (obligation.recurrence !== null && ownDue !== null) {
      const next = occurrencesBetween(ownDue, obligation.recurrence, ledger.today, horizonEnd)[0]
      if (next !== undefined) bills.push({ ...common, key: `bill_payment:${obligation.id}:${next}`, due: next, dueExact: true })
      continue
    }
    const due = ownDue ?? inferredDue
    if (due === null) continue
    bills.push({ ...common, key: `bill_payment:${obligation.id}`, due, dueExact: ownDue !== null })
  }
  const named = invoicesNamedByObligations(ledger)
  for (const invoice of ledger.invoices) {
    if (invoice.direction !== 'payable' || named.has(invoice.id) || !isOpenInvoice(invoice)) continue
    const due = invoice.due_date ?? invoice.issue_date
    if (due === null) continue
    bills.push({
      key: `bill_payment:${invoice.id}`,
      obligation: undefined,
      invoice,
      payInvoice: true,
      reference: invoice.invoice_number,
      label: 'bill',
      amount: invoice.amount_due,
      currency: invoice.currency,
      counterpartyId: invoice.counterparty_id,
      due,
      dueExact: invoice.due_date !== null,
    })
  }
  return bills.filter((bill) => bill.due <= horizonEnd)
}

function isBlockedPayee(counterparty: LedgerCounterpartyView): boolean {
  return counterparty.risk_level === 'sanctioned' || counterparty.risk_level === 'high' || counterparty.trust_state === 'paused'
}

function runBillPayment(ledger: LedgerSnapshot, given: BillPaymentConfig): AgentProposal[] {
  const config = { ...billPaymentProgram.defaultConfig, ...given }
  const horizonEnd = addDays(ledger.today, Math.max(0, Math.trunc(config.horizonDays)))
  const counterparties = new Map(ledger.counterparties.map((counterparty) => [counterparty.id, counterparty]))
  const balances = latestBalances(ledger)
  const proposals: AgentProposal[] = []
  for (const bill of billsOf(ledger, horizonEnd)) {
    if (bill.counterpartyId === null) continue
    const counterparty = counterparties.get(bill.counterpartyId)
    if (counterparty === undefined || isBlockedPayee(counterparty)) continue
    const source = sourceAccountFor(ledger, bill.currency, balances)
    if (source === undefined) continue

    const covered = source.balance !== undefined && decimalCompare(source.balance.amount, bill.amount) >= 0
    const verified = counterparty.verified_status === 'document_verified' || counterparty.verified_status === 'sanctions_cleared'
    const cited = [
      ...(bill.obligation === undefined ? [] : [{ kind: 'obligation' as const, record: bill.obligation }]),
      ...(bill.invoice === undefined ? [] : [{ kind: 'invoice' as const, record: bill.invoice }]),
      { kind: 'counterparty' as const, record: counterparty },
      { kind: 'account' as const, record: source.account },
      ...(source.balance === undefined ? [] : [{ kind: 'balance' as const, record: source.balance }]),
    ]
    const everyCited = cited.every(({ record }) => record.evidence_ids.length > 0)
    const confidence = score(0.45 + (bill.payInvoice ? 0.2 : 0) + (bill.dueExact ? 0.1 : 0) + (everyCited ? 0.1 : 0) + (verified ? 0.1 : 0) - (covered ? 0 : 0.2), 0.05, 0.95)

    const amount = formatAmount(bill.amount, bill.currency)
    const dueText = bill.dueExact ? `due ${bill.due} (${relativeDue(ledger.today, bill.due)})` : `due on receipt, issued ${bill.due} (${relativeDue(ledger.today, bill.due)})`
    let narrative = `Pay ${bill.label} ${bill.reference} to ${counterparty.name}: ${displayAmount(bill.amount, bill.currency)} ${bill.currency} ${dueText}.`
    if (!covered) {
      narrative +=
        source.balance === undefined
          ? ` No balance is known for ${source.account.name}, the account it would be paid from.`
          : ` ${source.account.name} held ${displayAmount(source.balance.amount, bill.currency)} ${bill.currency} on ${source.balance.as_of}, less than the bill.`
    }
    proposals.push({
      proposal_type: 'payment',
      action_type: bill.payInvoice ? 'pay_invoice' : 'ach_outbound',
      key: bill.key,
      confidence,
      evidence_score: evidenceShare(cited.map(({ record }) => record)),
      narrative,
      evidence: evidenceOf(cited),
      details: {
        ...(bill.payInvoice ? { invoice_id: bill.invoice?.id ?? null } : {}),
        obligation_id: bill.obligation?.id ?? null,
        amount,
        currency: bill.currency,
        destination_counterparty_id: counterparty.id,
        source_account_id: source.account.id,
        due_date: bill.due,
        days_until_due: daysBetween(ledger.today, bill.due),
      },
    })
  }
  return byKey(proposals)
}

export const billPaymentProgram: AgentProgram<BillPaymentConfig> = {
  agentKey: 'bill_payment',
  version: '1',
  category: 'business',
  capabilities: ['pay_invoice', 'ach_outbound'],
  defaultConfig: { horizonDays: 7 },
  run: runBillPayment,
}
