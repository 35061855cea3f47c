/**
 * Cash forecast (issue 18, item 3): per currency of the active bank accounts, the balance projected day by
 * day over `horizonDays` (30) from today, one `cash_forecast` finding per currency (stored action
 * `forecast`, key `cash_forecast:<currency>`), flagged `shortfall` when the projected low falls below zero
 * or below config.minimumBalance[currency].
 *
 * The projection, exactly (decimal strings, never floats):
 * - start: the sum of the latest balances (latest by as_of; available before current before closing
 *   before opening on the same day, see shared.ts `latestBalances`) of the active checking and
 *   savings accounts in the currency. An account with no balance is left out and named.
 * - payables (open obligations that are payable, see `obligationDirection`, and payable invoices no
 *   obligation names): minus what is outstanding (an invoice's amount_due when the obligation is an
 *   invoice's, else metadata.outstanding, else the amount) on the due date; overdue ones, and ones with
 *   no due date, on day 0 (today): money owed now. Paid and cancelled ones count nothing; disputed and
 *   draft bills still count (the cautious reading).
 * - receivables (open receivable obligations and unnamed receivable invoices, not paid, cancelled,
 *   disputed or drafts): plus what is outstanding times config.collectionRate (a decimal string, default
 *   "0.9": nine in ten of what is due is expected on time), truncated to the currency's scale, on the due
 *   date. Overdue receivables and ones with no due date are not counted (they have missed their date;
 *   collections chases them); their sum is reported as `overdue_receivables`.
 * - recurring obligations (recurrence set, with a due date as anchor): each occurrence from today to the
 *   horizon's end, the obligation's amount (a receivable's times the collection rate). Past occurrences
 *   are not counted: the Ledger does not settle them, so they cannot be told from paid ones.
 * - baseline (off by default; config.baselineDays > 0 turns it on, e.g. 90): the average daily net of the
 *   posted or cleared inflows and outflows of the currency's bank accounts over the baselineDays before
 *   today, truncated to the currency's scale, added on each day after today. Only transactions that
 *   reconciliation left `unmatched` count (matched ones paid invoices and obligations, which are counted
 *   from the obligations themselves), and none with a counterparty that has a recurring obligation in the
 *   currency (counted as recurring). Transfers and adjustments are not flows.
 * Day 0 is today; the low is the lowest balance of days 0..horizon (the earliest day it is reached), the
 * end the balance on the horizon's last day.
 *
 * No balance known for any account of a currency: the finding still says so, with confidence 0.1,
 * starting_balance, projected_low and projected_end null, shortfall false, and the known flows' net.
 *
 * confidence = 0.9 − 0.3·[an account of the currency has no balance] − 0.2·[the oldest balance used is
 *   more than config.staleBalanceDays (7) old] − 0.1·[a payable with no due date was counted on day 0],
 *   clamped to 0.05..0.95 and rounded to two places; 0.1 when no balance is known.
 * evidence_score = the share of cited Ledger records (accounts, balances, the obligations and invoices
 *   counted) that name at least one parsed row, rounded to two places.
 */
import { currencyScale } from '../../../../kernel/currencies.ts'
import { decimalAdd, decimalCompare, decimalSign, decimalSum, formatAmount, formatScaled, isDecimal, parseScaled, powerOfTen } from '../../../../kernel/money.ts'
import { addDays, daysBetween } from '../../../../kernel/dates.ts'
import {
  byKey,
  compareText,
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
import type {
  AgentProgram,
  AgentProposal,
  Amount,
  CalendarDate,
  EvidenceRef,
  LedgerAccountView,
  LedgerBalanceView,
  LedgerInvoiceView,
  LedgerSnapshot,
} from './program.ts'

export interface CashForecastConfig {
  /** Days projected after today. */
  readonly horizonDays: number
  /** The share of receivables expected on their due date: a decimal string from "0" to "1". */
  readonly collectionRate: string
  /** Per currency, the balance below which the forecast is a shortfall (below zero always is; a value that is not a decimal counts as zero). */
  readonly minimumBalance: Readonly<Record<string, Amount>>
  /** Days of history for the baseline daily net flow; 0 turns the baseline off. */
  readonly baselineDays: number
  /** A balance older than this many days makes the forecast less certain. */
  readonly staleBalanceDays: number
}

const defaultCollectionRate = '0.9'

/** amount × rate, truncated toward zero at the currency's scale (both decimal strings). */
export function applyRate(amount: Amount, rate: string, currency: string): Amount {
  const a = parseScaled(amount)
  const r = parseScaled(rate)
  const scale = currencyScale(currency)
  const productScale = a.scale + r.scale
  const units = productScale >= scale ? (a.units * r.units) / powerOfTen(productScale - scale) : a.units * r.units * powerOfTen(scale - productScale)
  return formatScaled(units, scale)
}

/** total ÷ days, truncated toward zero at the currency's scale. */
export function dailyAverage(total: Amount, days: number, currency: string): Amount {
  const t = parseScaled(total)
  const scale = currencyScale(currency)
  return formatScaled((t.units * powerOfTen(scale)) / (BigInt(days) * powerOfTen(t.scale)), scale)
}

/** The configured collection rate when it is a decimal from 0 to 1, else the default. */
function collectionRateOf(config: CashForecastConfig): string {
  const rate = config.collectionRate
  if (typeof rate !== 'string' || !isDecimal(rate) || decimalSign(rate) < 0 || decimalCompare(rate, '1') > 0) return defaultCollectionRate
  return rate.trim()
}

interface Flow {
  readonly date: CalendarDate
  readonly amount: Amount
}

interface Cited {
  readonly kind: EvidenceRef['kind']
  readonly record: { readonly id: string; readonly evidence_ids: readonly string[] }
}

interface CurrencyFlows {
  flows: Flow[]
  payables: Amount[]
  receivables: Amount[]
  recurring: Amount[]
  overdueReceivables: Amount[]
  undatedPayable: boolean
  cited: Cited[]
}

function emptyFlows(): CurrencyFlows {
  return { flows: [], payables: [], receivables: [], recurring: [], overdueReceivables: [], undatedPayable: false, cited: [] }
}

function negate(amount: Amount): Amount {
  return decimalSign(amount) === 0 ? '0' : amount.startsWith('-') ? amount.slice(1) : `-${amount}`
}

/** The known flows of each currency: payables, receivables and recurring obligations (see the header). */
function flowsByCurrency(ledger: LedgerSnapshot, currencies: ReadonlySet<string>, horizonEnd: CalendarDate, rate: string): Map<string, CurrencyFlows> {
  const byCurrency = new Map<string, CurrencyFlows>()
  const of = (currency: string): CurrencyFlows => {
    let flows = byCurrency.get(currency)
    if (flows === undefined) byCurrency.set(currency, (flows = emptyFlows()))
    return flows
  }
  const today = ledger.today

  /** One obligation or invoice: what is open, when, which way. */
  const count = (currency: string, direction: 'payable' | 'receivable', open: Amount, due: CalendarDate | null, cited: readonly Cited[]): void => {
    const into = of(currency)
    if (direction === 'payable') {
      const date = due === null || due < today ? today : due
      if (date > horizonEnd) return
      if (due === null) into.undatedPayable = true
      into.flows.push({ date, amount: negate(open) })
      into.payables.push(open)
      into.cited.push(...cited)
      return
    }
    if (due === null || due < today) {
      into.overdueReceivables.push(open)
      into.cited.push(...cited)
      return
    }
    if (due > horizonEnd) return
    const expected = applyRate(open, rate, currency)
    into.flows.push({ date: due, amount: expected })
    into.receivables.push(expected)
    into.cited.push(...cited)
  }

  const invoices = new Map(ledger.invoices.map((invoice) => [invoice.id, invoice]))
  for (const obligation of ledger.obligations) {
    const direction = obligationDirection(obligation)
    if (direction === null || obligation.status !== 'open' || !currencies.has(obligation.currency)) continue
    if (obligation.recurrence !== null) {
      if (obligation.due_date === null || decimalSign(obligation.amount) <= 0) continue
      const dates = occurrencesBetween(obligation.due_date, obligation.recurrence, today, horizonEnd)
      if (dates.length === 0) continue
      const into = of(obligation.currency)
      const each = direction === 'payable' ? negate(obligation.amount) : applyRate(obligation.amount, rate, obligation.currency)
      for (const date of dates) {
        into.flows.push({ date, amount: each })
        into.recurring.push(each)
      }
      into.cited.push({ kind: 'obligation', record: obligation })
      continue
    }
    let open = obligationOutstanding(obligation)
    if (decimalSign(open) <= 0) continue
    const invoice = obligation.invoice_id === null ? undefined : invoices.get(obligation.invoice_id)
    let due = obligation.due_date
    const cited: Cited[] = [{ kind: 'obligation', record: obligation }]
    if (invoice !== undefined) {
      if (!invoiceCounts(invoice, direction)) continue
      open = invoice.amount_due
      due = due ?? invoice.due_date
      cited.push({ kind: 'invoice', record: invoice })
    }
    count(obligation.currency, direction, open, due, cited)
  }
  const named = invoicesNamedByObligations(ledger)
  for (const invoice of ledger.invoices) {
    if (named.has(invoice.id) || !currencies.has(invoice.currency) || !invoiceCounts(invoice, invoice.direction)) continue
    count(invoice.currency, invoice.direction, invoice.amount_due, invoice.due_date, [{ kind: 'invoice', record: invoice }])
  }
  return byCurrency
}

/** Whether an invoice has something to count: a payable one unless paid or cancelled, a receivable one when open. */
function invoiceCounts(invoice: LedgerInvoiceView, direction: 'payable' | 'receivable'): boolean {
  if (invoice.direction !== direction) return false
  if (direction === 'receivable') return isOpenInvoice(invoice)
  return invoice.status !== 'paid' && invoice.status !== 'cancelled' && decimalSign(invoice.amount_due) > 0
}

/** The baseline daily net flow of a currency's bank accounts (see the header), and how many transactions it read. */
function baselineOf(ledger: LedgerSnapshot, currency: string, accountIds: ReadonlySet<string>, days: number): { daily: Amount; transactions: number } {
  const recurringPayees = new Set<string>()
  for (const obligation of ledger.obligations) {
    if (obligation.recurrence !== null && obligation.currency === currency && obligation.counterparty_id !== null) recurringPayees.add(obligation.counterparty_id)
  }
  const from = addDays(ledger.today, -days)
  const amounts: Amount[] = []
  for (const transaction of ledger.transactions) {
    if (!accountIds.has(transaction.account_id) || transaction.currency !== currency) continue
    if (transaction.status !== 'posted' && transaction.status !== 'cleared') continue
    if (transaction.direction !== 'inflow' && transaction.direction !== 'outflow') continue
    if (transaction.reconciliation_status !== 'unmatched') continue
    if (transaction.counterparty_id !== null && recurringPayees.has(transaction.counterparty_id)) continue
    if (transaction.transaction_date < from || transaction.transaction_date >= ledger.today) continue
    amounts.push(transaction.amount)
  }
  return { daily: dailyAverage(decimalSum(amounts), days, currency), transactions: amounts.length }
}

function runCashForecast(ledger: LedgerSnapshot, given: CashForecastConfig): AgentProposal[] {
  const config = { ...cashForecastProgram.defaultConfig, ...given }
  const horizonDays = Math.max(0, Math.trunc(config.horizonDays))
  const baselineDays = Math.max(0, Math.trunc(config.baselineDays))
  const rate = collectionRateOf(config)
  const today = ledger.today
  const horizonEnd = addDays(today, horizonDays)

  const accountsByCurrency = new Map<string, LedgerAccountView[]>()
  for (const account of ledger.accounts) {
    if (isActiveBankAccount(account)) accountsByCurrency.set(account.currency, [...(accountsByCurrency.get(account.currency) ?? []), account])
  }
  const balances = latestBalances(ledger)
  const flows = flowsByCurrency(ledger, new Set(accountsByCurrency.keys()), horizonEnd, rate)

  const proposals: AgentProposal[] = []
  for (const [currency, unsorted] of accountsByCurrency) {
    const accounts = unsorted.slice().sort((a, b) => compareText(a.id, b.id))
    const known: LedgerBalanceView[] = []
    const withoutBalance: string[] = []
    for (const account of accounts) {
      const balance = balances.get(account.id)
      if (balance === undefined) withoutBalance.push(account.id)
      else known.push(balance)
    }
    const currencyFlows = flows.get(currency) ?? emptyFlows()
    const baseline = baselineDays > 0 ? baselineOf(ledger, currency, new Set(accounts.map((account) => account.id)), baselineDays) : undefined

    // Flows by day: day 0 is today.
    const byDate = new Map<CalendarDate, Amount[]>()
    for (const flow of currencyFlows.flows) byDate.set(flow.date, [...(byDate.get(flow.date) ?? []), flow.amount])
    const dayNet = (offset: number): Amount => {
      const date = addDays(today, offset)
      const amounts = byDate.get(date) ?? []
      return decimalSum(offset > 0 && baseline !== undefined ? [...amounts, baseline.daily] : amounts)
    }
    const nets: Amount[] = []
    for (let offset = 0; offset <= horizonDays; offset += 1) nets.push(dayNet(offset))
    const netFlow = decimalSum(nets)

    const cited: Cited[] = [
      ...accounts.map((record) => ({ kind: 'account' as const, record })),
      ...known.slice().sort((a, b) => compareText(a.id, b.id)).map((record) => ({ kind: 'balance' as const, record })),
      ...dedupeCited(currencyFlows.cited),
    ]
    const configured = Object.hasOwn(config.minimumBalance, currency) ? config.minimumBalance[currency] : undefined
    const minimum = typeof configured === 'string' && isDecimal(configured) ? configured.trim() : '0' // not an amount: zero
    const common = {
      currency,
      horizon_end: horizonEnd,
      minimum_balance: formatAmount(minimum, currency),
      payables_due: formatAmount(decimalSum(currencyFlows.payables), currency),
      receivables_expected: formatAmount(decimalSum(currencyFlows.receivables), currency),
      recurring_net: formatAmount(decimalSum(currencyFlows.recurring), currency),
      baseline_daily_net: baseline === undefined ? null : formatAmount(baseline.daily, currency),
      baseline_transactions: baseline === undefined ? 0 : baseline.transactions,
      overdue_receivables: formatAmount(decimalSum(currencyFlows.overdueReceivables), currency),
      collection_rate: rate,
      net_flow: formatAmount(netFlow, currency),
      account_ids: accounts.map((account) => account.id),
      accounts_without_balance: withoutBalance,
    }
    const days = horizonDays === 1 ? 'day' : `${horizonDays} days`

    if (known.length === 0) {
      proposals.push({
        proposal_type: 'cash_forecast',
        action_type: 'forecast',
        key: `cash_forecast:${currency}`,
        confidence: 0.1,
        evidence_score: evidenceShare(cited.map(({ record }) => record)),
        narrative: `No balance is known for the ${currency} accounts, so no ${currency} balance can be projected. The known flows of the next ${days} net to ${displayAmount(netFlow, currency)} ${currency}.`,
        evidence: evidenceOf(cited),
        details: { ...common, starting_balance: null, projected_low: null, projected_low_date: null, projected_end: null, shortfall: false },
      })
      continue
    }

    const start = decimalSum(known.map((balance) => balance.amount))
    let balance = start
    let low = ''
    let lowDate = today
    for (let offset = 0; offset <= horizonDays; offset += 1) {
      balance = decimalAdd(balance, nets[offset] ?? '0')
      if (low === '' || decimalCompare(balance, low) < 0) {
        low = balance
        lowDate = addDays(today, offset)
      }
    }
    const end = balance
    const belowZero = decimalSign(low) < 0
    const belowMinimum = decimalCompare(low, minimum) < 0
    const shortfall = belowZero || belowMinimum
    const oldest = known.reduce((min, b) => (b.as_of < min ? b.as_of : min), today)
    const stale = daysBetween(oldest, today) > config.staleBalanceDays
    const confidence = score(0.9 - (withoutBalance.length > 0 ? 0.3 : 0) - (stale ? 0.2 : 0) - (currencyFlows.undatedPayable ? 0.1 : 0), 0.05, 0.95)

    const money = (amount: Amount): string => `${displayAmount(amount, currency)} ${currency}`
    const floor = decimalSign(minimum) > 0 ? `the minimum of ${money(minimum)}` : 'zero'
    let narrative = shortfall
      ? `${currency} cash is projected to fall to ${money(low)} on ${lowDate}, below ${belowZero && decimalSign(minimum) <= 0 ? 'zero' : floor}, within the next ${days}: from ${money(start)} today to ${money(end)} by ${horizonEnd}.`
      : `${currency} cash is projected to stay above ${floor} over the next ${days}: from ${money(start)} today, lowest ${money(low)} on ${lowDate}, ${money(end)} by ${horizonEnd}.`
    if (withoutBalance.length > 0) narrative += ` No balance is known for ${withoutBalance.length} of ${accounts.length} ${currency} accounts; they are not counted.`
    proposals.push({
      proposal_type: 'cash_forecast',
      action_type: 'forecast',
      key: `cash_forecast:${currency}`,
      confidence,
      evidence_score: evidenceShare(cited.map(({ record }) => record)),
      narrative,
      evidence: evidenceOf(cited),
      details: {
        ...common,
        starting_balance: formatAmount(start, currency),
        projected_low: formatAmount(low, currency),
        projected_low_date: lowDate,
        projected_end: formatAmount(end, currency),
        shortfall,
      },
    })
  }
  return byKey(proposals)
}

/** Each record once, in kind then id order (the order the Ledger lists came in must not matter). */
function dedupeCited(cited: readonly Cited[]): Cited[] {
  const seen = new Map<string, Cited>()
  for (const entry of cited) seen.set(`${entry.kind}:${entry.record.id}`, entry)
  return [...seen.entries()].sort(([a], [b]) => compareText(a, b)).map(([, entry]) => entry)
}

export const cashForecastProgram: AgentProgram<CashForecastConfig> = {
  agentKey: 'cash_forecast',
  version: '1',
  category: 'business',
  capabilities: ['forecast'],
  defaultConfig: { horizonDays: 30, collectionRate: defaultCollectionRate, minimumBalance: {}, baselineDays: 0, staleBalanceDays: 7 },
  run: runCashForecast,
}

