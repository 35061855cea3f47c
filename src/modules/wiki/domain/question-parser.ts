/**
 * The deterministic question parser: a question in English becomes a structured query (question-query.ts)
 * and the template it instantiates, or a reason it cannot be answered. Pure: the same text and reference
 * day always give the same result. Names the question gives (a counterparty, an account, a category) are
 * returned as text for the service to resolve against the tenant's Ledger: an unknown or ambiguous name is
 * unanswerable, never a guess.
 */
import { addDays, findPeriods, previousPeriod, type FoundPeriod, type Period } from './periods.ts'
import { listingRowsMax, type InvoiceState, type TransactionDirection, type TransactionScope, type WikiQuery } from './question-query.ts'

export const templateIds = [
  'cash_flow_summary',
  'bills_due',
  'spending_change',
  'invoice_status',
  'overdue_invoices',
  'unpaid_bills',
  'subscriptions',
  'spending_total',
  'income_total',
  'transaction_count',
  'average_payment',
  'transaction_list',
] as const
export type TemplateId = (typeof templateIds)[number]

/** What the tenant's data must hold for a template to be answerable with something. */
export type Eligibility = 'transactions' | 'outflows' | 'inflows' | 'receivable_invoices' | 'payable_invoices' | 'payable_obligations' | 'subscriptions'

export interface QuestionTemplate {
  readonly id: TemplateId
  /** The prompt family of the agent protocol it belongs to, when it is one of the five. */
  readonly prompt: 'wiki.question.cash_flow_summary' | 'wiki.question.bills_due' | 'wiki.question.spending_change' | 'wiki.question.invoice_status' | 'wiki.question.subscriptions' | null
  /** A question of the template this parser answers. */
  readonly question: string
  readonly requires: Eligibility
}

export const questionTemplates: readonly QuestionTemplate[] = [
  { id: 'cash_flow_summary', prompt: 'wiki.question.cash_flow_summary', question: 'What was our cash flow last month?', requires: 'transactions' },
  { id: 'bills_due', prompt: 'wiki.question.bills_due', question: 'Which bills are due in the next 30 days?', requires: 'payable_obligations' },
  { id: 'spending_change', prompt: 'wiki.question.spending_change', question: 'How did our spending change last month?', requires: 'outflows' },
  { id: 'invoice_status', prompt: 'wiki.question.invoice_status', question: 'What is the status of our invoices?', requires: 'receivable_invoices' },
  { id: 'overdue_invoices', prompt: 'wiki.question.invoice_status', question: 'Which invoices are overdue?', requires: 'receivable_invoices' },
  { id: 'unpaid_bills', prompt: null, question: 'Which bills are unpaid?', requires: 'payable_invoices' },
  { id: 'subscriptions', prompt: 'wiki.question.subscriptions', question: 'Which subscriptions do we pay for?', requires: 'subscriptions' },
  { id: 'spending_total', prompt: null, question: 'How much did we spend this year?', requires: 'outflows' },
  { id: 'income_total', prompt: null, question: 'How much did we receive this year?', requires: 'inflows' },
  { id: 'transaction_count', prompt: null, question: 'How many transactions were there last month?', requires: 'transactions' },
  { id: 'average_payment', prompt: null, question: 'What was our average payment this year?', requires: 'outflows' },
  { id: 'transaction_list', prompt: null, question: 'List our transactions last month', requires: 'transactions' },
]

/** Names to resolve against the Ledger before the query runs. */
export interface QueryNames {
  /** A counterparty, account or category the question names ("to Hanse Rohkaffee", "on software"). */
  readonly party?: string
  readonly invoiceNumber?: string
}

export type ParsedQuestion =
  | { readonly ok: true; readonly template: TemplateId; readonly query: WikiQuery; readonly names: QueryNames; readonly periodLabels: readonly string[] }
  | { readonly ok: false; readonly reason: UnanswerableReason; readonly message: string }

export type UnanswerableReason = 'not_understood' | 'period_missing' | 'direction_missing' | 'name_unknown' | 'name_ambiguous' | 'query_invalid' | 'too_many_periods'

const has = (text: string, pattern: RegExp) => pattern.test(text)

const knownCurrencies = ['EUR', 'USD', 'USDC', 'GBP', 'CHF', 'JPY', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK', 'CAD', 'AUD', 'EURC', 'DAI', 'USDT']

function currencyOf(original: string): string | null {
  for (const token of original.split(/[^A-Za-z0-9]+/)) {
    const upper = token.toUpperCase()
    if (knownCurrencies.includes(upper) && (token === upper || /^(eur|usd|usdc|gbp|chf)$/.test(token))) return upper
  }
  return null
}

/** The text with the periods cut out (so "to March 2026" is not read as a name). */
function withoutPeriods(text: string, periods: readonly FoundPeriod[]): string {
  let out = text
  for (const period of [...periods].sort((a, b) => b.index - a.index)) out = `${out.slice(0, period.index)} | ${out.slice(period.index + period.length)}`
  return out
}

const stopAfterName = String.raw`(?=\s*(?:\||\?|,|$)|\s+(?:in|during|last|this|between|since|for|over|and|compared|versus|vs|per|each|by|from|to|on|the\s+(?:last|past))\b)`
const notNames = /^(?:date|day|today|now|us|me|them|average|total|what|which|account|accounts|transactions?|payments?|everyone|all)$/

function partyOf(text: string): string | undefined {
  const pattern = new RegExp(String.raw`\b(?:(?:paid|pay|pays|paying)(?:\s+to)?|to|from|with|at|on|for)\s+(?:the\s+|our\s+)?([\p{L}\p{N}&][\p{L}\p{N}&.'\-()/+ ]{1,80}?)${stopAfterName}`, 'gu')
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    const name = m[1]!.trim().replace(/\s+(?:account)$/, '').trim()
    if (name.length >= 2 && !notNames.test(name) && !/^(?:us|we|our|spending|spend|income|invoices?|bills?|cash|money|subscriptions?|payment|payments|average|q[1-4]|\d+)\b/.test(name)) return name
  }
  return undefined
}

function scopeOf(period: Period, direction: TransactionDirection | null, currency: string | null): TransactionScope {
  return { from: period.from, to: period.to, direction, account_id: null, counterparty_id: null, category_id: null, currency }
}

function directionOf(text: string): TransactionDirection | null | 'both' {
  const inflow = has(text, /\b(receive|received|receiving|income|revenue|revenues|earn|earned|earnings|inflows?|deposits?|got paid|payments? from|paid by|sales|take in|took in|came in|collected)\b/)
  const outflow = has(text, /\b(spend|spent|spending|expenses?|expenditures?|paid|pay|payments?|costs?|outflows?|purchases?|charges?|debits?|bought)\b/)
  const transfer = has(text, /\btransfers?\b/)
  if (transfer && !inflow && !outflow) return 'transfer'
  if (inflow) return 'inflow' // "payments from", "paid by" read as money in
  if (outflow) return 'outflow'
  return null
}

const unanswerable = (reason: UnanswerableReason, message: string): ParsedQuestion => ({ ok: false, reason, message })

/** The question (1–2,000 characters) as a structured query, relative to `reference` (YYYY-MM-DD). */
export function parseQuestion(question: string, reference: string): ParsedQuestion {
  const original = question.replace(/[’‘]/g, "'").replace(/\s+/g, ' ').trim()
  const text = original.toLowerCase().replace(/[?!]+$/, '').trim()
  const periods = findPeriods(text, reference)
  const rest = withoutPeriods(text, periods)
  const currency = currencyOf(original)
  const party = partyOf(rest)
  const names = (extra: QueryNames = {}): QueryNames => ({ ...(party === undefined ? {} : { party }), ...extra })
  const labels = periods.map((period) => period.label)

  // Subscriptions: recurring payables.
  if (has(text, /\bsubscriptions?\b|\brecurring (charges|payments|bills|costs|expenses)\b/)) {
    return { ok: true, template: 'subscriptions', query: { kind: 'subscriptions', on: reference, limit: listingRowsMax }, names: {}, periodLabels: [] }
  }

  // Bills due: open payable obligations due by a day (overdue ones included).
  const billsDue = has(text, /\b(bills?|payables?|payments?)\b.*\b(due|coming up|upcoming)\b|\b(due|upcoming)\b.*\b(bills?|payables?|payments?)\b|\bwhat do we (have|need) to pay\b/)
  if (billsDue && !has(text, /\b(unpaid|overdue|paid)\b.*\binvoices?\b/)) {
    const until = periods.length > 0 ? periods[periods.length - 1]!.to : addDays(reference, 30)
    if (until < reference) return unanswerable('period_missing', 'Bills due are counted from the reference day forward: name a period that ends on or after it ("in the next 30 days", "this month").')
    return { ok: true, template: 'bills_due', query: { kind: 'bills_due', on: reference, to: until, limit: listingRowsMax }, names: {}, periodLabels: periods.length > 0 ? labels.slice(-1) : [`the next 30 days (to ${until})`] }
  }

  // Spending change between two periods.
  if (has(text, /\b(change|changed|changes|compare|compared|comparison|differ|difference|increase|increased|decrease|decreased|go up|went up|go down|went down|grow|grew|drop|dropped)\b/) && has(text, /\b(spend|spent|spending|expenses?|costs?|outflows?)\b/)) {
    if (periods.length === 0) return unanswerable('period_missing', 'Name the period to compare ("last month", "Q1 2026 compared with Q4 2025").')
    if (periods.length > 2) return unanswerable('too_many_periods', 'Compare two periods at a time.')
    const [first, second] = periods as [FoundPeriod, FoundPeriod | undefined]
    // "between A and B": B against A; one period: it against the one before it.
    const [base, current] = second === undefined ? [previousPeriod(first), first] : first.from <= second.from ? [first, second] : [second, first]
    return {
      ok: true,
      template: 'spending_change',
      query: { kind: 'spending_change', scope: scopeOf(current, 'outflow', currency), compare_to: { from: base.from, to: base.to } },
      names: names(),
      periodLabels: [current.label, base.label],
    }
  }

  // Cash flow: money in, money out and the net, transfers between own accounts left out.
  if (has(text, /\bcash[ -]?flows?\b|\bnet (cash|flow)\b|\binflows? and outflows?\b|\bmoney (in and out|coming in and going out)\b|\bburn\b/)) {
    if (periods.length !== 1) return unanswerable(periods.length === 0 ? 'period_missing' : 'too_many_periods', 'Name one period for the cash flow ("last month", "Q1 2026").')
    return { ok: true, template: 'cash_flow_summary', query: { kind: 'cash_flow', scope: scopeOf(periods[0]!, null, currency) }, names: names(), periodLabels: labels }
  }

  // Invoices (receivable unless the question is about bills or suppliers).
  if (has(text, /\binvoices?\b|\breceivables?\b|\bbills?\b/)) {
    const payable = has(text, /\b(bills?|payables?|we owe|suppliers?|vendors?|received invoices?|invoices? (we|i) received)\b/)
    const number = /\b(?:invoice|bill)\s+(?:number\s+|no\.?\s+|#)?([A-Za-z]{0,6}[-/]?[A-Za-z0-9]*\d[A-Za-z0-9\-/]*)\b/i.exec(original)?.[1]
    let state: InvoiceState = 'all'
    if (has(text, /\b(overdue|late|past due)\b/)) state = 'overdue'
    else if (has(text, /\b(unpaid|open|outstanding|owed|owing|not (yet )?paid|due)\b/)) state = 'open'
    else if (has(text, /\bpaid\b/)) state = 'paid'
    const template: TemplateId = number !== undefined || state === 'all' ? 'invoice_status' : payable ? 'unpaid_bills' : state === 'overdue' ? 'overdue_invoices' : 'invoice_status'
    return {
      ok: true,
      template,
      query: { kind: 'invoices', direction: payable ? 'payable' : 'receivable', state, counterparty_id: null, invoice_number: number ?? null, on: reference, limit: listingRowsMax },
      names: names(),
      periodLabels: [],
    }
  }

  // Transactions: counts, averages, listings and totals.
  const mentionsMoney = has(text, /\b(transactions?|payments?|spend|spent|spending|expenses?|income|revenue|received|receive|earned|deposits?|charges?|purchases?|transfers?|paid|pay|costs?|inflows?|outflows?|sales|bookings?)\b/)
  if (!mentionsMoney) return unanswerable('not_understood', 'The question is not one the Ledger can answer deterministically.')
  if (periods.length === 0) return unanswerable('period_missing', 'Name the period ("last month", "in March 2026", "Q1 2026", "this year").')
  if (periods.length > 1) return unanswerable('too_many_periods', 'Name one period, or ask how spending changed between two.')
  const period = periods[0]!
  const direction = directionOf(text)
  const scopeDirection = direction === 'both' ? null : direction
  if (has(text, /\bhow many\b|\bnumber of\b|\bcount\b/)) {
    return { ok: true, template: 'transaction_count', query: { kind: 'transaction_aggregate', measure: 'count', scope: scopeOf(period, has(text, /\btransactions?\b/) && !has(text, /\b(spend|income|expenses?)\b/) ? null : scopeDirection, currency) }, names: names(), periodLabels: labels }
  }
  if (has(text, /\baverage\b|\bmean\b|\btypical\b/)) {
    if (scopeDirection === null) return unanswerable('direction_missing', 'Say whether you mean money out (payments, spending) or money in (income, receipts).')
    return { ok: true, template: 'average_payment', query: { kind: 'transaction_aggregate', measure: 'average', scope: scopeOf(period, scopeDirection, currency) }, names: names(), periodLabels: labels }
  }
  if (has(text, /^(list|show|which|what were|what are|give me)\b|\b(list|show me)\b/)) {
    return { ok: true, template: 'transaction_list', query: { kind: 'transaction_list', scope: scopeOf(period, scopeDirection, currency), limit: listingRowsMax }, names: names(), periodLabels: labels }
  }
  if (scopeDirection === null) return unanswerable('direction_missing', 'Say whether you mean money out (spending) or money in (income).')
  return {
    ok: true,
    template: scopeDirection === 'inflow' ? 'income_total' : 'spending_total',
    query: { kind: 'transaction_aggregate', measure: 'total', scope: scopeOf(period, scopeDirection, currency) },
    names: names(),
    periodLabels: labels,
  }
}
