/**
 * Exact money comparison for policy conditions. A value is read as bigint units at the currency's
 * minor-unit scale (USD 2, JPY 0, KWD 3, USDC 6, ETH 18) and never passes through a float, so "10.5" and
 * "10.50" USD are the same amount and 0.1 + 0.2 questions never arise.
 *
 * Two amounts in different currencies are not ordered: the comparison says `currency_mismatch`, and the
 * caller (evaluate.ts) turns that into a failed check with a detail. There is deliberately no exchange
 * rate here: a policy written in USD says nothing about an action in EUR.
 *
 * Currencies whose exponent we do not know (an unknown token symbol, or three letters ICU does not know)
 * keep the digits as written and compare at a common scale, still exactly.
 */
import { currencyMinorUnits, isKnownIsoCurrency } from '../../../kernel/currency.ts'
import type { Money } from './types.ts'

/** ISO 4217 three letters, or a token symbol (USDC): capital letters and digits, 2 to 10 characters. */
export const currencyPattern = '^[A-Z0-9]{2,10}$'
const currencyRegExp = new RegExp(currencyPattern)

/** A non-negative decimal string: digits, optionally a point and more digits. No sign, no exponent, no grouping. */
export const moneyValuePattern = '^[0-9]+(\\.[0-9]+)?$'
const moneyValueRegExp = /^([0-9]+)(?:\.([0-9]+))?$/

/** The longest money value accepted: 40 characters hold any real amount, even 18-digit token units. */
export const moneyValueCharsMax = 40

/**
 * Token symbols with a known number of decimals. They are looked up before ICU because ICU answers 2 for
 * any well-formed three-letter code it does not know (ETH would otherwise read as a two-digit currency).
 */
export const tokenMinorUnits: Readonly<Record<string, number>> = Object.freeze({ USDC: 6, USDT: 6, ETH: 18 })

/**
 * The minor-unit digits of a currency: the token table, then ISO 4217 from ICU, else undefined (the
 * digits as written are kept and compared at a common scale).
 */
export function moneyMinorUnits(currency: string): number | undefined {
  if (Object.hasOwn(tokenMinorUnits, currency)) return tokenMinorUnits[currency]
  if (isKnownIsoCurrency(currency)) return currencyMinorUnits(currency)
  return undefined
}

/** An amount read exactly: `units` × 10^-`scale` of `currency`. */
export interface ParsedMoney {
  readonly currency: string
  readonly units: bigint
  readonly scale: number
}

export type MoneyParse = { readonly ok: true; readonly money: ParsedMoney } | { readonly ok: false; readonly reason: string }

export type MoneyComparison =
  | { readonly status: 'compared'; readonly order: -1 | 0 | 1 }
  | { readonly status: 'currency_mismatch'; readonly left: string; readonly right: string }

/** Text copied from an untrusted value into a message is cut to this many characters. */
const quotedCharsMax = 64

/** A string for a message: JSON-quoted and cut, so a huge or odd value cannot flood a trace. */
export function quoteForMessage(text: string): string {
  return JSON.stringify(text.length > quotedCharsMax ? `${text.slice(0, quotedCharsMax)}…` : text)
}

const minorUnitsByCurrency = new Map<string, number | undefined>()

/** moneyMinorUnits, memoized: it is called once per evaluated action, so the ICU lookup must not be. */
function minorUnitsOf(currency: string): number | undefined {
  if (minorUnitsByCurrency.has(currency)) return minorUnitsByCurrency.get(currency)
  const digits = moneyMinorUnits(currency)
  // The currency pattern bounds the key space only loosely (36^10), so the memo stops growing at a
  // size no real deployment reaches; beyond it the lookup is simply recomputed.
  if (minorUnitsByCurrency.size < 1_000) minorUnitsByCurrency.set(currency, digits)
  return digits
}

/**
 * Reads a Money value from anything: never throws. Refused: not an object, a currency that is not a code,
 * a value that is not a non-negative decimal string, or one with more fraction digits than the currency
 * has (12.345 USD is not an amount of USD; refusing it is safer than rounding it).
 */
export function parseMoney(candidate: unknown): MoneyParse {
  if (typeof candidate !== 'object' || candidate === null) return { ok: false, reason: 'not an amount object' }
  const { currency, value } = candidate as { currency?: unknown; value?: unknown }
  if (typeof currency !== 'string' || !currencyRegExp.test(currency)) {
    return { ok: false, reason: typeof currency === 'string' ? `currency ${quoteForMessage(currency)} is not a currency code` : 'currency is not a string' }
  }
  if (typeof value !== 'string') return { ok: false, reason: 'value is not a string' }
  if (value.length > moneyValueCharsMax) return { ok: false, reason: `value is longer than ${moneyValueCharsMax} characters` }
  const match = moneyValueRegExp.exec(value)
  if (match === null) return { ok: false, reason: `value ${quoteForMessage(value)} is not a non-negative decimal string` }
  const integer = match[1] as string
  const fraction = match[2] ?? ''
  const minorUnits = minorUnitsOf(currency)
  if (minorUnits === undefined) return { ok: true, money: { currency, units: BigInt(integer + fraction), scale: fraction.length } }
  if (fraction.length > minorUnits) {
    return { ok: false, reason: `value ${quoteForMessage(value)} has ${fraction.length} fraction digits; ${currency} has ${minorUnits}` }
  }
  return { ok: true, money: { currency, units: BigInt(integer + fraction.padEnd(minorUnits, '0')), scale: minorUnits } }
}

const powersOfTen: bigint[] = []
function powerOfTen(exponent: number): bigint {
  let power = powersOfTen[exponent]
  if (power === undefined) {
    power = 10n ** BigInt(exponent)
    powersOfTen[exponent] = power
  }
  return power
}

/** Orders two parsed amounts exactly; different currencies are a mismatch, never an order. */
export function compareParsedMoney(left: ParsedMoney, right: ParsedMoney): MoneyComparison {
  const order = moneyOrder(left, right)
  return order === undefined ? { status: 'currency_mismatch', left: left.currency, right: right.currency } : { status: 'compared', order }
}

/** Orders two Money values; `malformed` names the side that does not parse. Never throws. */
export function compareMoney(
  left: Money,
  right: Money,
): MoneyComparison | { readonly status: 'malformed'; readonly side: 'left' | 'right'; readonly reason: string } {
  const leftParse = parseMoney(left)
  if (!leftParse.ok) return { status: 'malformed', side: 'left', reason: leftParse.reason }
  const rightParse = parseMoney(right)
  if (!rightParse.ok) return { status: 'malformed', side: 'right', reason: rightParse.reason }
  return compareParsedMoney(leftParse.money, rightParse.money)
}

/** Whether a Money value is valid for its currency (validation uses it; the reason says why not). */
export function moneyProblem(candidate: unknown): string | undefined {
  const parsed = parseMoney(candidate)
  return parsed.ok ? undefined : parsed.reason
}

/**
 * The order of two parsed amounts, or undefined when the currencies differ. The allocation-free form of
 * compareParsedMoney for the evaluator's hot path.
 */
export function moneyOrder(left: ParsedMoney, right: ParsedMoney): -1 | 0 | 1 | undefined {
  if (left.currency !== right.currency) return undefined
  let leftUnits = left.units
  let rightUnits = right.units
  if (left.scale < right.scale) leftUnits *= powerOfTen(right.scale - left.scale)
  else if (right.scale < left.scale) rightUnits *= powerOfTen(left.scale - right.scale)
  return leftUnits < rightUnits ? -1 : leftUnits > rightUnits ? 1 : 0
}
