/**
 * Figures and wording of a deterministic answer: every figure is a value a Ledger query returned (or a
 * sum, difference or mean of such values in one currency), never two currencies in one figure; the text
 * is written from the figures alone, amounts as decimal strings at their currency's scale.
 */
import { currencyScale } from '../../../kernel/currencies.ts'
import { decimalAbs, decimalNegate, decimalSubtract, decimalSum, formatAmount, formatScaled, parseScaled, powerOfTen } from '../../../kernel/money.ts'
import type { WikiQuery } from './question-query.ts'

export interface Figure {
  /** What it is: spent, received, net, count, average, outstanding, change… */
  readonly key: string
  /** A decimal string: an amount at its currency's scale, or a count. */
  readonly value: string
  /** The amount's currency; null for a count. */
  readonly currency: string | null
  /** The period or state it is about (a period label, an invoice status), when it is about one. */
  readonly about: string | null
}

export interface TransactionTotal {
  readonly currency: string
  readonly direction: string
  readonly count: number
  readonly total: string
}

export type QueryResult =
  | { readonly kind: 'transactions'; readonly totals: readonly TransactionTotal[]; readonly listed?: ReadonlyArray<{ id: string; transactionDate: string; amount: string; currency: string; description: string }> }
  | { readonly kind: 'spending_change'; readonly current: readonly TransactionTotal[]; readonly base: readonly TransactionTotal[] }
  | { readonly kind: 'invoices'; readonly totals: ReadonlyArray<{ status: string; currency: string; count: number; total: string; outstanding: string }>; readonly listed: ReadonlyArray<{ invoiceNumber: string; status: string; currency: string; total: string; amountPaid: string; dueDate: string | null }> }
  | { readonly kind: 'obligations'; readonly totals: ReadonlyArray<{ currency: string; recurrence: string | null; count: number; total: string }>; readonly listed: ReadonlyArray<{ reference: string; description: string | null; amount: string; currency: string; dueDate: string | null; recurrence: string | null }> }

const amount = (value: string, currency: string) => formatAmount(value, currency)
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`

/** The mean of a total over a count at the currency's scale, rounded half away from zero. */
export function meanOf(total: string, count: number, currency: string): string {
  const scale = currencyScale(currency)
  const parsed = parseScaled(total)
  // units at `scale`, times 2 for rounding: (2·units·10^scale / 10^parsed.scale / count + sign) / 2
  const numerator = parsed.units * powerOfTen(scale) * 2n
  const denominator = powerOfTen(parsed.scale) * BigInt(count)
  let doubled = numerator / denominator
  if (doubled % 2n !== 0n) doubled += doubled > 0n ? 1n : -1n
  return formatAmount(formatScaled(doubled / 2n, scale), currency)
}

function byCurrency<T extends { currency: string }>(rows: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>()
  for (const row of rows) out.set(row.currency, [...(out.get(row.currency) ?? []), row])
  return new Map([...out.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}

const joined = (parts: readonly string[]) => parts.join('; ')

/** Figures and text of a query's result; `labels` name its periods (current first). */
export function answerOf(query: WikiQuery, result: QueryResult, labels: readonly string[]): { figures: Figure[]; text: string } {
  const period = labels[0] ?? null
  const figures: Figure[] = []
  switch (query.kind) {
    case 'transaction_aggregate':
    case 'transaction_list': {
      if (result.kind !== 'transactions') throw new TypeError('result does not match the query')
      const direction = query.scope.direction
      const what = direction === 'outflow' ? 'Spending' : direction === 'inflow' ? 'Money received' : direction === 'transfer' ? 'Transfers' : 'Transactions'
      const parts: string[] = []
      for (const [currency, rows] of byCurrency(result.totals)) {
        const count = rows.reduce((sum, row) => sum + row.count, 0)
        const signed = decimalSum(rows.map((row) => row.total))
        const magnitude = amount(direction === 'outflow' ? decimalNegate(signed) : signed, currency)
        figures.push({ key: 'count', value: String(count), currency, about: period })
        if (query.kind === 'transaction_aggregate' && query.measure === 'count') {
          parts.push(`${plural(count, 'transaction')} in ${currency}`)
          continue
        }
        if (query.kind === 'transaction_aggregate' && query.measure === 'average') {
          const mean = meanOf(direction === 'outflow' ? decimalNegate(signed) : signed, count, currency)
          figures.push({ key: 'total', value: magnitude, currency, about: period }, { key: 'average', value: mean, currency, about: period })
          parts.push(`${mean} ${currency} on average over ${plural(count, 'transaction')} (${magnitude} ${currency} in all)`)
          continue
        }
        figures.push({ key: direction === null ? 'net' : 'total', value: magnitude, currency, about: period })
        parts.push(`${magnitude} ${currency} over ${plural(count, 'transaction')}`)
      }
      const scope = `${period === null ? '' : ` in ${period}`}`
      if (parts.length === 0) return { figures, text: `${what}${scope}: none recorded in the Ledger.` }
      let text = query.kind === 'transaction_aggregate' && query.measure === 'count' ? `${what}${scope}: ${joined(parts)}.` : `${what}${scope}: ${joined(parts)}.`
      if (query.kind === 'transaction_list' && result.listed !== undefined) {
        const shown = result.listed.map((row) => `${row.transactionDate} ${amount(row.amount, row.currency)} ${row.currency} ${row.description}`)
        const total = result.totals.reduce((sum, row) => sum + row.count, 0)
        figures.push({ key: 'listed', value: String(shown.length), currency: null, about: period })
        text += ` ${shown.length === total ? 'All' : `The first ${shown.length} of ${total}`}, oldest first: ${shown.join('; ')}.`
      }
      return { figures, text }
    }
    case 'cash_flow': {
      if (result.kind !== 'transactions') throw new TypeError('result does not match the query')
      const parts: string[] = []
      for (const [currency, rows] of byCurrency(result.totals)) {
        const of = (direction: string) => rows.filter((row) => row.direction === direction)
        const inflow = decimalSum(of('inflow').map((row) => row.total))
        const outflow = decimalAbs(decimalSum(of('outflow').map((row) => row.total)))
        const net = decimalSubtract(inflow, outflow)
        const adjustments = decimalSum(of('adjustment').map((row) => row.total))
        const transfers = of('transfer').reduce((sum, row) => sum + row.count, 0)
        figures.push(
          { key: 'inflow', value: amount(inflow, currency), currency, about: period },
          { key: 'outflow', value: amount(outflow, currency), currency, about: period },
          { key: 'net', value: amount(net, currency), currency, about: period },
          { key: 'inflow_count', value: String(of('inflow').reduce((sum, row) => sum + row.count, 0)), currency, about: period },
          { key: 'outflow_count', value: String(of('outflow').reduce((sum, row) => sum + row.count, 0)), currency, about: period },
          { key: 'transfer_count', value: String(transfers), currency, about: period },
          { key: 'adjustments', value: amount(adjustments, currency), currency, about: period },
        )
        parts.push(`${currency}: ${amount(inflow, currency)} in, ${amount(outflow, currency)} out, net ${amount(net, currency)} (${plural(transfers, 'transfer')} between own accounts left out)`)
      }
      return { figures, text: parts.length === 0 ? `Cash flow in ${period}: no transactions recorded in the Ledger.` : `Cash flow in ${period}: ${joined(parts)}.` }
    }
    case 'spending_change': {
      if (result.kind !== 'spending_change') throw new TypeError('result does not match the query')
      const base = labels[1] ?? 'the period before'
      const currencies = [...new Set([...result.current, ...result.base].map((row) => row.currency))].sort()
      const parts: string[] = []
      for (const currency of currencies) {
        const spent = (rows: readonly TransactionTotal[]) => amount(decimalNegate(decimalSum(rows.filter((row) => row.currency === currency).map((row) => row.total))), currency)
        const now = spent(result.current)
        const before = spent(result.base)
        const change = amount(decimalSubtract(now, before), currency)
        figures.push({ key: 'spent', value: now, currency, about: period }, { key: 'spent', value: before, currency, about: base }, { key: 'change', value: change, currency, about: null })
        parts.push(`${now} ${currency} in ${period} against ${before} ${currency} in ${base}, a change of ${change} ${currency}`)
      }
      return { figures, text: parts.length === 0 ? `No spending recorded in ${period} or ${base}.` : `Spending: ${joined(parts)}.` }
    }
    case 'invoices': {
      if (result.kind !== 'invoices') throw new TypeError('result does not match the query')
      const noun = query.direction === 'payable' ? 'bill' : 'invoice'
      const state = query.state === 'all' ? '' : `${query.state} `
      const parts: string[] = []
      for (const [currency, rows] of byCurrency(result.totals)) {
        const count = rows.reduce((sum, row) => sum + row.count, 0)
        const outstanding = amount(decimalSum(rows.map((row) => row.outstanding)), currency)
        const total = amount(decimalSum(rows.map((row) => row.total)), currency)
        figures.push({ key: 'count', value: String(count), currency, about: query.state }, { key: 'total', value: total, currency, about: query.state }, { key: 'outstanding', value: outstanding, currency, about: query.state })
        for (const row of rows) figures.push({ key: 'count', value: String(row.count), currency, about: row.status })
        const statuses = rows.map((row) => `${row.count} ${row.status}`).join(', ')
        parts.push(`${plural(count, `${state}${noun}`)} in ${currency} totalling ${total} ${currency}, ${outstanding} ${currency} still to be paid (${statuses})`)
      }
      const shown = result.listed.map((row) => `${row.invoiceNumber} ${row.status} ${amount(row.total, row.currency)} ${row.currency}${row.dueDate === null ? '' : ` due ${row.dueDate}`}`)
      figures.push({ key: 'listed', value: String(shown.length), currency: null, about: null })
      const subject = query.invoice_number === null ? `${capital(state)}${noun}s` : `${capital(noun)} ${query.invoice_number}`
      if (parts.length === 0) return { figures, text: `${subject} as of ${query.on}: none recorded in the Ledger.` }
      return { figures, text: `${subject} as of ${query.on}: ${joined(parts)}. ${shown.join('; ')}.` }
    }
    case 'bills_due':
    case 'subscriptions': {
      if (result.kind !== 'obligations') throw new TypeError('result does not match the query')
      const parts: string[] = []
      for (const [currency, rows] of byCurrency(result.totals)) {
        const count = rows.reduce((sum, row) => sum + row.count, 0)
        const total = amount(decimalSum(rows.map((row) => row.total)), currency)
        figures.push({ key: 'count', value: String(count), currency, about: null }, { key: 'total', value: total, currency, about: null })
        if (query.kind === 'subscriptions') {
          for (const row of rows) figures.push({ key: 'total', value: amount(row.total, currency), currency, about: row.recurrence ?? 'no recurrence' })
        }
        parts.push(`${plural(count, query.kind === 'bills_due' ? 'bill' : 'subscription')} in ${currency} totalling ${total} ${currency}`)
      }
      const shown = result.listed.map((row) => `${row.reference}${row.description === null ? '' : ` (${row.description})`} ${amount(row.amount, row.currency)} ${row.currency}${row.recurrence === null ? '' : ` ${row.recurrence}`}${row.dueDate === null ? '' : ` due ${row.dueDate}`}`)
      figures.push({ key: 'listed', value: String(shown.length), currency: null, about: null })
      const subject = query.kind === 'bills_due' ? `Open bills due by ${query.to} (overdue ones included)` : `Subscriptions as of ${query.on}`
      if (parts.length === 0) return { figures, text: `${subject}: none recorded in the Ledger.` }
      return { figures, text: `${subject}: ${joined(parts)}. ${shown.join('; ')}.` }
    }
  }
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

/**
 * Whether every number in `text` is one of the answer's figures or appears in the question's query or
 * the deterministic wording (dates, invoice numbers): what a language model's wording must pass.
 */
export function numbersGrounded(text: string, allowed: readonly string[]): boolean {
  const known = new Set<string>()
  for (const value of allowed) for (const number of numbersIn(value)) known.add(number)
  return numbersIn(text).every((number) => known.has(number))
}

function numbersIn(text: string): string[] {
  return (text.replace(/(\d),(\d{3})/g, '$1$2').match(/-?\d+(?:\.\d+)?/g) ?? []).map((n) => {
    const canonical = n.replace(/^-/, '')
    return canonical.includes('.') ? canonical.replace(/0+$/, '').replace(/\.$/, '') : canonical
  })
}
