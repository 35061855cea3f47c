/**
 * Pure helpers shared by the first-party agent programs (bill-payment.ts, collections.ts, cash-forecast.ts,
 * reconciliation.ts, subscriptions.ts, fraud-anomaly.ts, vendor-risk.ts).
 *
 * Two evidence helpers live here on purpose, because they are not the same function:
 * - `evidenceOf` + `evidenceShare` (bill payment, collections, cash forecast) take `{ kind, record }`, cite
 *   each record once but gather the parsed rows of every record given, and score the share of the records
 *   given (repeats included) rounded to two places;
 * - `citedEvidence` (reconciliation, subscriptions, fraud_anomaly, vendor_risk) takes flat `{ kind, id,
 *   evidence_ids }`, skips a repeated record entirely (its rows and its share), and rounds the share to
 *   four places.
 */
import { decimalSign, formatAmount } from '../../../../kernel/money.ts'
import { addDays, daysBetween, daysInMonth } from '../../../../kernel/dates.ts'
import type {
  AgentProposal,
  Amount,
  CalendarDate,
  EvidenceRef,
  LedgerAccountView,
  LedgerBalanceView,
  LedgerInvoiceView,
  LedgerObligationView,
  LedgerSnapshot,
} from './program.ts'


/** Obligation types that are only ever paid, read as payable when the Ledger records no direction. */
const payableByNature: ReadonlySet<LedgerObligationView['type']> = new Set(['bill', 'subscription', 'loan', 'rent', 'payroll', 'tax', 'card_statement'])

/** The direction an obligation is treated as: its own, or payable for a type that is only ever paid. */
export function obligationDirection(obligation: LedgerObligationView): 'payable' | 'receivable' | null {
  if (obligation.direction !== null) return obligation.direction
  return payableByNature.has(obligation.type) ? 'payable' : null
}

/** Bank accounts: where money is paid from and what a cash forecast starts from. */
export function isActiveBankAccount(account: LedgerAccountView): boolean {
  return account.status === 'active' && (account.account_type === 'bank_checking' || account.account_type === 'bank_savings')
}

const balanceTypeOrder: Readonly<Record<LedgerBalanceView['balance_type'], number>> = { available: 0, current: 1, closing: 2, opening: 3 }

/**
 * The latest balance of each account, by account id: the one with the latest as_of (not after today, in
 * the account's currency when the account is known); on the same day available before current before
 * closing before opening (what can be spent first), then the smaller id.
 */
export function latestBalances(ledger: LedgerSnapshot): Map<string, LedgerBalanceView> {
  const currencyOf = new Map(ledger.accounts.map((account) => [account.id, account.currency]))
  const latest = new Map<string, LedgerBalanceView>()
  for (const balance of ledger.balances) {
    if (balance.as_of > ledger.today) continue
    const currency = currencyOf.get(balance.account_id)
    if (currency !== undefined && currency !== balance.currency) continue
    const held = latest.get(balance.account_id)
    if (held === undefined || balanceBefore(balance, held)) latest.set(balance.account_id, balance)
  }
  return latest
}

function balanceBefore(a: LedgerBalanceView, b: LedgerBalanceView): boolean {
  if (a.as_of !== b.as_of) return a.as_of > b.as_of
  const order = balanceTypeOrder[a.balance_type] - balanceTypeOrder[b.balance_type]
  if (order !== 0) return order < 0
  return a.id < b.id
}

/** Invoice statuses with nothing to pay or collect now. */
const closedInvoiceStatuses: ReadonlySet<LedgerInvoiceView['status']> = new Set(['paid', 'cancelled', 'disputed', 'draft'])

/** Whether an invoice has something to pay or collect: not paid, cancelled, disputed or a draft, and amount_due > 0. */
export function isOpenInvoice(invoice: LedgerInvoiceView): boolean {
  return !closedInvoiceStatuses.has(invoice.status) && decimalSign(invoice.amount_due) > 0
}

/** What remains outstanding on an open obligation (metadata.outstanding, else its amount); `0` when settled or cancelled. */
export function obligationOutstanding(obligation: LedgerObligationView): Amount {
  if (obligation.status !== 'open') return '0'
  const outstanding = obligation.outstanding ?? obligation.amount
  return decimalSign(outstanding) > 0 ? outstanding : '0'
}

/** Ids of the invoices some obligation names. */
export function invoicesNamedByObligations(ledger: LedgerSnapshot): Set<string> {
  const named = new Set<string>()
  for (const obligation of ledger.obligations) if (obligation.invoice_id !== null) named.add(obligation.invoice_id)
  return named
}

/** An amount for people: at the currency's scale, thousands grouped with commas (`3939.31` EUR → `3,939.31`). */
export function displayAmount(amount: Amount, currency: string): string {
  const formatted = formatAmount(amount, currency)
  const negative = formatted.startsWith('-')
  const body = negative ? formatted.slice(1) : formatted
  const point = body.indexOf('.')
  const whole = point === -1 ? body : body.slice(0, point)
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return `${negative ? '-' : ''}${grouped}${point === -1 ? '' : body.slice(point)}`
}

/** A number 0..1 clamped and rounded to two places. */
export function score(value: number, min = 0, max = 1): number {
  return Math.round(Math.min(max, Math.max(min, value)) * 100) / 100
}

/** Ledger refs for the records, then their parsed rows (sorted, each once). */
export function evidenceOf(records: ReadonlyArray<{ readonly kind: EvidenceRef['kind']; readonly record: { readonly id: string; readonly evidence_ids: readonly string[] } }>): EvidenceRef[] {
  const refs: EvidenceRef[] = []
  const seen = new Set<string>()
  const rows = new Set<string>()
  for (const { kind, record } of records) {
    const key = `${kind}:${record.id}`
    if (!seen.has(key)) {
      seen.add(key)
      refs.push({ kind, ref: record.id })
    }
    for (const row of record.evidence_ids) rows.add(row)
  }
  for (const row of [...rows].sort(compareText)) refs.push({ kind: 'parsed_row', ref: row })
  return refs
}

/** The share of records naming at least one parsed row (0 for none), rounded to two places. */
export function evidenceShare(records: ReadonlyArray<{ readonly evidence_ids: readonly string[] }>): number {
  if (records.length === 0) return 0
  return score(records.filter((record) => record.evidence_ids.length > 0).length / records.length)
}

/** Code-unit order, independent of the locale. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** Proposals sorted by key. */
export function byKey(proposals: AgentProposal[]): AgentProposal[] {
  return proposals.sort((a, b) => compareText(a.key, b.key))
}

/** The date of a recurrence's `n`-th occurrence after `anchor` (n ≥ 0); months clamp to the month's last day, from the anchor (Jan 31 → Feb 28 → Mar 31). */
export function occurrence(anchor: CalendarDate, recurrence: NonNullable<LedgerObligationView['recurrence']>, n: number): CalendarDate {
  if (recurrence === 'weekly') return addDays(anchor, 7 * n)
  const months = n * (recurrence === 'monthly' ? 1 : recurrence === 'quarterly' ? 3 : 12)
  const year = Number(anchor.slice(0, 4))
  const month = Number(anchor.slice(5, 7))
  const day = Number(anchor.slice(8, 10))
  const index = year * 12 + (month - 1) + months
  const targetYear = Math.floor(index / 12)
  const targetMonth = (index % 12) + 1
  const days = daysInMonth(targetYear, targetMonth)
  return `${String(targetYear).padStart(4, '0')}-${String(targetMonth).padStart(2, '0')}-${String(Math.min(day, days)).padStart(2, '0')}`
}

/** The occurrences of a recurrence from `anchor` that fall within from..to (inclusive), in date order. */
export function occurrencesBetween(anchor: CalendarDate, recurrence: NonNullable<LedgerObligationView['recurrence']>, from: CalendarDate, to: CalendarDate): CalendarDate[] {
  const dates: CalendarDate[] = []
  const longestStep = recurrence === 'weekly' ? 7 : recurrence === 'monthly' ? 31 : recurrence === 'quarterly' ? 92 : 366
  // Start before the first occurrence that can reach `from`: the n-th lies at most n × (longest step) days after the anchor.
  let n = Math.max(0, Math.floor(daysBetween(anchor, from) / longestStep) - 1)
  for (let guard = 0; guard < 10_000; guard += 1, n += 1) {
    const date = occurrence(anchor, recurrence, n)
    if (date > to) break
    if (date >= from) dates.push(date)
  }
  return dates
}

/** A number rounded to four places. */
export function round4(value: number): number {
  return Math.round(value * 10_000) / 10_000
}

/** Letters and digits only, upper case, diacritics folded: how a reference is looked for in a description. */
export function compact(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '')
}

/** A Ledger record as `citedEvidence` cites it. */
export interface CitedRecord {
  readonly kind: EvidenceRef['kind']
  readonly id: string
  readonly evidence_ids: readonly string[]
}

/**
 * Ledger refs for the records (each once, a repeat skipped), then their parsed rows (sorted, each once), and
 * the share of the distinct records naming at least one parsed row (0 for none), rounded to four places.
 */
export function citedEvidence(records: readonly CitedRecord[]): { evidence: EvidenceRef[]; evidence_score: number } {
  const seen = new Set<string>()
  const cited: EvidenceRef[] = []
  const rows = new Set<string>()
  let supported = 0
  for (const record of records) {
    if (seen.has(`${record.kind}:${record.id}`)) continue
    seen.add(`${record.kind}:${record.id}`)
    cited.push({ kind: record.kind, ref: record.id })
    if (record.evidence_ids.length > 0) supported += 1
    for (const row of record.evidence_ids) rows.add(row)
  }
  const parsed = [...rows].sort(compareText).map((row): EvidenceRef => ({ kind: 'parsed_row', ref: row }))
  return { evidence: [...cited, ...parsed], evidence_score: cited.length === 0 ? 0 : round4(supported / cited.length) }
}
