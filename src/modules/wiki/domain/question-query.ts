/**
 * The structured queries a question is answered by (docs/wiki.md, "Questions"): bounded transaction
 * listings, totals, counts and averages over an unambiguous scope, cash flow, spending change between two
 * periods, invoice listings and status, bills due and subscriptions. Whatever maps a question onto one
 * (the deterministic parser, or a language model) must produce a value `validQuery` accepts; the Ledger
 * answers only these.
 */

export const transactionDirections = ['inflow', 'outflow', 'transfer', 'adjustment'] as const
export type TransactionDirection = (typeof transactionDirections)[number]

/** Which transactions: dated from..to inclusive; each other field narrows, null does not. */
export interface TransactionScope {
  readonly from: string
  readonly to: string
  readonly direction: TransactionDirection | null
  readonly account_id: string | null
  readonly counterparty_id: string | null
  readonly category_id: string | null
  readonly currency: string | null
}

export const invoiceStates = ['all', 'open', 'overdue', 'paid'] as const
export type InvoiceState = (typeof invoiceStates)[number]

export type WikiQuery =
  | { readonly kind: 'transaction_list'; readonly scope: TransactionScope; readonly limit: number }
  | { readonly kind: 'transaction_aggregate'; readonly measure: 'total' | 'count' | 'average'; readonly scope: TransactionScope }
  | { readonly kind: 'cash_flow'; readonly scope: TransactionScope }
  | { readonly kind: 'spending_change'; readonly scope: TransactionScope; readonly compare_to: { readonly from: string; readonly to: string } }
  | {
      readonly kind: 'invoices'
      readonly direction: 'receivable' | 'payable'
      readonly state: InvoiceState
      readonly counterparty_id: string | null
      readonly invoice_number: string | null
      /** The day "overdue" is judged on. */
      readonly on: string
      readonly limit: number
    }
  | { readonly kind: 'bills_due'; readonly on: string; readonly to: string; readonly limit: number }
  | { readonly kind: 'subscriptions'; readonly on: string; readonly limit: number }

export type WikiQueryKind = WikiQuery['kind']

/** The most rows a listing answers (its figures still count every row). */
export const listingRowsMax = 50
/** The longest period a transaction query covers, in days. */
export const periodDaysMax = 3_660

const dayPattern = /^\d{4}-\d{2}-\d{2}$/
const isDay = (value: unknown): value is string =>
  typeof value === 'string' && dayPattern.test(value) && !Number.isNaN(new Date(`${value}T00:00:00Z`).getTime()) && new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value
const isNullableId = (value: unknown) => value === null || (typeof value === 'string' && /^[a-z]{2,5}_[A-Za-z0-9]{1,64}$/.test(value))
const isNullableText = (value: unknown, max: number) => value === null || (typeof value === 'string' && value.length >= 1 && value.length <= max)
const isLimit = (value: unknown) => Number.isInteger(value) && (value as number) >= 1 && (value as number) <= listingRowsMax
const record = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

function onlyKeys(value: Record<string, unknown>, keys: readonly string[]): boolean {
  return Object.keys(value).every((key) => keys.includes(key)) && keys.every((key) => key in value)
}

function validRange(from: unknown, to: unknown): boolean {
  if (!isDay(from) || !isDay(to) || from > to) return false
  return (new Date(`${to}T00:00:00Z`).getTime() - new Date(`${from}T00:00:00Z`).getTime()) / 86_400_000 <= periodDaysMax
}

function validScope(scope: unknown): scope is TransactionScope {
  if (!record(scope) || !onlyKeys(scope, ['from', 'to', 'direction', 'account_id', 'counterparty_id', 'category_id', 'currency'])) return false
  return (
    validRange(scope.from, scope.to) &&
    (scope.direction === null || (transactionDirections as readonly unknown[]).includes(scope.direction)) &&
    isNullableId(scope.account_id) &&
    isNullableId(scope.counterparty_id) &&
    isNullableText(scope.category_id, 200) &&
    (scope.currency === null || (typeof scope.currency === 'string' && /^[A-Z0-9]{2,10}$/.test(scope.currency)))
  )
}

/** Whether `value` is a WikiQuery, exactly (no other fields): what a language model's mapping must pass. */
export function validQuery(value: unknown): value is WikiQuery {
  if (!record(value)) return false
  switch (value.kind) {
    case 'transaction_list':
      return onlyKeys(value, ['kind', 'scope', 'limit']) && validScope(value.scope) && isLimit(value.limit)
    case 'transaction_aggregate':
      return onlyKeys(value, ['kind', 'measure', 'scope']) && ['total', 'count', 'average'].includes(value.measure as string) && validScope(value.scope)
    case 'cash_flow':
      return onlyKeys(value, ['kind', 'scope']) && validScope(value.scope) && (value.scope as TransactionScope).direction === null
    case 'spending_change':
      return (
        onlyKeys(value, ['kind', 'scope', 'compare_to']) &&
        validScope(value.scope) &&
        (value.scope as TransactionScope).direction === 'outflow' &&
        record(value.compare_to) &&
        onlyKeys(value.compare_to, ['from', 'to']) &&
        validRange(value.compare_to.from, value.compare_to.to)
      )
    case 'invoices':
      return (
        onlyKeys(value, ['kind', 'direction', 'state', 'counterparty_id', 'invoice_number', 'on', 'limit']) &&
        (value.direction === 'receivable' || value.direction === 'payable') &&
        (invoiceStates as readonly unknown[]).includes(value.state) &&
        isNullableId(value.counterparty_id) &&
        isNullableText(value.invoice_number, 100) &&
        isDay(value.on) &&
        isLimit(value.limit)
      )
    case 'bills_due':
      return onlyKeys(value, ['kind', 'on', 'to', 'limit']) && isDay(value.on) && isDay(value.to) && value.on <= value.to && isLimit(value.limit)
    case 'subscriptions':
      return onlyKeys(value, ['kind', 'on', 'limit']) && isDay(value.on) && isLimit(value.limit)
    default:
      return false
  }
}

/** The JSON Schema of a WikiQuery, as a language model is told it (validQuery is the check). */
export const wikiQueryJsonDescription = `One JSON object, one of:
{"kind":"transaction_list","scope":SCOPE,"limit":1-50}
{"kind":"transaction_aggregate","measure":"total"|"count"|"average","scope":SCOPE}
{"kind":"cash_flow","scope":SCOPE with direction null}
{"kind":"spending_change","scope":SCOPE with direction "outflow","compare_to":{"from":"YYYY-MM-DD","to":"YYYY-MM-DD"}}
{"kind":"invoices","direction":"receivable"|"payable","state":"all"|"open"|"overdue"|"paid","counterparty_id":null,"invoice_number":string|null,"on":"YYYY-MM-DD","limit":1-50}
{"kind":"bills_due","on":"YYYY-MM-DD","to":"YYYY-MM-DD","limit":1-50}
{"kind":"subscriptions","on":"YYYY-MM-DD","limit":1-50}
SCOPE = {"from":"YYYY-MM-DD","to":"YYYY-MM-DD","direction":"inflow"|"outflow"|"transfer"|"adjustment"|null,"account_id":null,"counterparty_id":null,"category_id":null,"currency":"EUR"|null}
Or {"unanswerable":"why"} when the question is not one of these.`
