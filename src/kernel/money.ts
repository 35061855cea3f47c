/**
 * Money: exact decimal arithmetic on decimal strings, and amounts at their currency's scale. Pure. A value
 * never passes through a float: it is read as bigint units at a scale (`-12.50` is -1250 at scale 2), or,
 * where no arithmetic is needed (canonical form, sign, negation, formatting), handled as text, which is
 * what the hot paths (normalization takes the sign of and compares every transaction's amount, a listing
 * formats every amount it returns) can afford.
 *
 * Three forms of a decimal string:
 * - as sources write it (input): optional `-`, digits, optional `.` and digits; leading zeros and
 *   trailing fractional zeros allowed (`-0012.340`), surrounding spaces ignored, at most
 *   `decimalCharactersMax` characters;
 * - canonical (what arithmetic returns): no leading zeros, no trailing fractional zeros, no `-0`;
 * - at its currency's scale (what the API returns, `formatAmount`): exactly the currency's minor-unit
 *   digits (`"1410.000000"` USDC, `"0.00"` EUR, `"1500"` JPY), never rounded: a digit beyond the scale
 *   that is not zero is kept.
 */
import { currencyMinorUnits, currencyScale, isCurrencyCode } from './currencies.ts'

/** A decimal string longer than this is not money; refusing it keeps bigint work bounded. */
export const decimalCharactersMax = 100

/** A signed decimal string as the API writes amounts: `-` for money out, digits, `.` and fraction digits. */
export const decimalPattern = '^-?[0-9]+(\\.[0-9]+)?$'

const decimalRegExp = /^(-?)(\d+)(?:\.(\d+))?$/
const nonZeroDigit = /[1-9]/

/** A decimal read exactly: `units` × 10^-`scale`. */
export interface ScaledDecimal {
  readonly units: bigint
  readonly scale: number
}

function notADecimal(value: string): TypeError {
  return new TypeError(`not a decimal: ${JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}…` : value)}`)
}

/** The sign, integer digits and fraction digits of a decimal string; throws TypeError when it is not one. */
function match(value: string): RegExpExecArray {
  const found = value.length <= decimalCharactersMax ? decimalRegExp.exec(value) ?? decimalRegExp.exec(value.trim()) : null
  if (found === null) throw notADecimal(value)
  return found
}

/** Whether the text is a decimal string as sources write it (see the module comment). */
export function isDecimal(value: string): boolean {
  return value.length <= decimalCharactersMax && decimalRegExp.test(value.trim())
}

/** Whether the text is already canonical (`"12.5"`, `"-3"`, `"0"`; not `"12.50"`, `"007"`, `"-0"`). */
export function isCanonicalDecimal(value: string): boolean {
  return value.length <= decimalCharactersMax && /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]*[1-9])?$/.test(value) && value !== '-0'
}

const powersOfTen: bigint[] = [1n]

/** 10^exponent as a bigint, remembered (a bounded table: scales are small). */
export function powerOfTen(exponent: number): bigint {
  let power = powersOfTen[exponent]
  if (power === undefined) {
    power = 10n ** BigInt(exponent)
    if (exponent <= decimalCharactersMax) powersOfTen[exponent] = power
  }
  return power
}

/** The exact value of a decimal string as bigint units at its own scale (`"-12.50"` → -1250n at 2). */
export function parseScaled(value: string): ScaledDecimal {
  const found = match(value)
  const fraction = found[3] ?? ''
  const magnitude = BigInt(`${found[2]}${fraction}`)
  return { units: found[1] === '-' ? -magnitude : magnitude, scale: fraction.length }
}

/** `units` × 10^-`scale` as a canonical decimal string (`1500000n`, 6 → `"1.5"`). Exact for any size. */
export function formatScaled(units: bigint, scale: number): string {
  if (!Number.isInteger(scale) || scale < 0) throw new RangeError(`scale must be a non-negative integer, got ${scale}`)
  const negative = units < 0n
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0')
  const whole = digits.slice(0, digits.length - scale)
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, '')
  const body = fraction === '' ? whole : `${whole}.${fraction}`
  return negative && body !== '0' ? `-${body}` : body
}

/** A token's integer base-unit value as a decimal amount: `1500000n` with 6 decimals is `"1.5"` (uint256 values included). */
export function integerUnitsToDecimal(units: bigint, decimals: number): string {
  return formatScaled(units, decimals)
}

function atScale(value: ScaledDecimal, scale: number): bigint {
  return scale === value.scale ? value.units : value.units * powerOfTen(scale - value.scale)
}

/** The canonical form (`"0012.340"` → `"12.34"`, `"-0.0"` → `"0"`), by text alone. Throws TypeError when not a decimal. */
export function canonicalDecimal(value: string): string {
  const found = match(value)
  const integer = found[2]!.replace(/^0+(?=\d)/, '')
  const fraction = (found[3] ?? '').replace(/0+$/, '')
  const body = fraction === '' ? integer : `${integer}.${fraction}`
  return found[1] === '-' && body !== '0' ? `-${body}` : body
}

/** −1, 0 or 1: the sign of a decimal string (`-0` and `0.000` are 0), by text alone. */
export function decimalSign(value: string): -1 | 0 | 1 {
  const found = match(value)
  if (!nonZeroDigit.test(found[2]!) && (found[3] === undefined || !nonZeroDigit.test(found[3]))) return 0
  return found[1] === '-' ? -1 : 1
}

/** The sum of decimal strings, canonical (`"0"` for none). */
export function decimalSum(values: readonly string[]): string {
  const parsed = values.map(parseScaled)
  let scale = 0
  for (const value of parsed) if (value.scale > scale) scale = value.scale
  let total = 0n
  for (const value of parsed) total += atScale(value, scale)
  return formatScaled(total, scale)
}

/** a + b, canonical. */
export function decimalAdd(a: string, b: string): string {
  const left = parseScaled(a)
  const right = parseScaled(b)
  const scale = Math.max(left.scale, right.scale)
  return formatScaled(atScale(left, scale) + atScale(right, scale), scale)
}

/** a − b, canonical. */
export function decimalSubtract(a: string, b: string): string {
  const left = parseScaled(a)
  const right = parseScaled(b)
  const scale = Math.max(left.scale, right.scale)
  return formatScaled(atScale(left, scale) - atScale(right, scale), scale)
}

/** −value, canonical, by text alone. */
export function decimalNegate(value: string): string {
  const canonical = canonicalDecimal(value)
  return canonical === '0' ? '0' : canonical.startsWith('-') ? canonical.slice(1) : `-${canonical}`
}

/** |value|, canonical, by text alone. */
export function decimalAbs(value: string): string {
  const canonical = canonicalDecimal(value)
  return canonical.startsWith('-') ? canonical.slice(1) : canonical
}

/**
 * −1, 0 or 1 as a is less than, equal to or greater than b, at a common scale without formatting a
 * difference. Values of at most 15 digits at the common scale (nearly every amount) compare as numbers,
 * which is exact below 2^53; longer ones as bigints.
 */
export function decimalCompare(a: string, b: string): -1 | 0 | 1 {
  const left = match(a)
  const right = match(b)
  const leftFraction = left[3] ?? ''
  const rightFraction = right[3] ?? ''
  const scale = Math.max(leftFraction.length, rightFraction.length)
  let x: number | bigint
  let y: number | bigint
  if (left[2]!.length + scale <= 15 && right[2]!.length + scale <= 15) {
    // At most 15 digits at the common scale: exact as numbers (below 2^53).
    x = Number(left[2]! + leftFraction.padEnd(scale, '0'))
    y = Number(right[2]! + rightFraction.padEnd(scale, '0'))
  } else {
    x = BigInt(left[2]! + leftFraction.padEnd(scale, '0'))
    y = BigInt(right[2]! + rightFraction.padEnd(scale, '0'))
  }
  if (left[1] === '-') x = -x
  if (right[1] === '-') y = -y
  return x < y ? -1 : x > y ? 1 : 0
}

/**
 * A decimal string at its currency's scale, as the API returns amounts: exactly the currency's minor-unit
 * digits (`"1410"` USDC → `"1410.000000"`, `"0"` EUR → `"0.00"`, `"1500.0"` JPY → `"1500"`), an unknown code
 * at `unknownCurrencyScale`. Never rounds: fraction digits beyond the scale are dropped only when they are
 * zeros (`"12.345"` EUR stays `"12.345"`). No `-0`. Throws TypeError when the value is not a decimal.
 */
export function formatAmount(value: string, currency: string): string {
  return formatAtScale(value, currencyScale(currency))
}

/** As formatAmount, at an explicit scale (an amount whose currency is not a code). */
export function formatAtScale(value: string, scale: number): string {
  const found = match(value)
  return formatDigitsAtScale(found[1] === '-', found[2]!, found[3] ?? '', scale)
}

/**
 * A sign, integer digits and fraction digits (digits only; either may be empty, the integer may have
 * leading zeros) written at a scale, as formatAmount writes them. For parsers that read amounts in parts.
 */
export function formatDigitsAtScale(negative: boolean, integerDigits: string, fractionDigits: string, scale: number): string {
  const integer = integerDigits === '' ? '0' : integerDigits.length > 1 && integerDigits.startsWith('0') ? integerDigits.replace(/^0+(?=\d)/, '') : integerDigits
  let fraction = fractionDigits
  if (fraction.length > scale) fraction = fraction.replace(/0+$/, '')
  if (fraction.length < scale) fraction = fraction.padEnd(scale, '0')
  const body = fraction === '' ? integer : `${integer}.${fraction}`
  return negative && (nonZeroDigit.test(integer) || nonZeroDigit.test(fraction)) ? `-${body}` : body
}

/**
 * The value in the currency's minor units, exactly (`"12.5"` EUR → 1250n, `"1410"` USDC → 1410000000n).
 * Throws RangeError when the value has non-zero digits beyond the currency's scale (`"12.345"` EUR): that
 * is not an amount of the currency, and rounding money silently is not ours to do.
 */
export function toMinorUnits(value: string, currency: string): bigint {
  const scaled = parseScaled(value)
  const scale = currencyScale(currency)
  if (scaled.scale <= scale) return atScale(scaled, scale)
  const divisor = powerOfTen(scaled.scale - scale)
  if (scaled.units % divisor !== 0n) throw new RangeError(`${value} has more than ${scale} fraction digits, the scale of ${currency}`)
  return scaled.units / divisor
}

/** Minor units of a currency as a decimal string at its scale (1250n EUR → `"12.50"`). */
export function fromMinorUnits(units: bigint, currency: string): string {
  return formatAtScale(formatScaled(units, currencyScale(currency)), currencyScale(currency))
}

// Money values: `{currency, value}` read from untrusted input (the policy language, gate inputs).

/** A non-negative decimal string: digits, optionally a point and more digits. No sign, no exponent, no grouping. */
export const moneyValuePattern = '^[0-9]+(\\.[0-9]+)?$'
const moneyValueRegExp = /^([0-9]+)(?:\.([0-9]+))?$/

/** The longest money value accepted: 40 characters hold any real amount, even 18-digit token units. */
export const moneyValueCharsMax = 40

/** An amount: a currency code and a non-negative decimal string. */
export interface Money {
  readonly currency: string
  readonly value: string
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
const quotedCharactersMax = 64

/** A string for a message: JSON-quoted and cut, so a huge or odd value cannot flood a trace or a log. */
export function quoteForMessage(text: string): string {
  return JSON.stringify(text.length > quotedCharactersMax ? `${text.slice(0, quotedCharactersMax)}…` : text)
}

/**
 * Reads a Money value from anything; never throws. Refused: not an object, a currency that is not a code,
 * a value that is not a non-negative decimal string, or one with more fraction digits than a known
 * currency has (12.345 USD is not an amount of USD; refusing it is safer than rounding it). A currency
 * not in the table keeps the digits as written, compared at a common scale, still exactly.
 */
export function parseMoney(candidate: unknown): MoneyParse {
  if (typeof candidate !== 'object' || candidate === null) return { ok: false, reason: 'not an amount object' }
  const { currency, value } = candidate as { currency?: unknown; value?: unknown }
  if (typeof currency !== 'string' || !isCurrencyCode(currency)) {
    return { ok: false, reason: typeof currency === 'string' ? `currency ${quoteForMessage(currency)} is not a currency code` : 'currency is not a string' }
  }
  if (typeof value !== 'string') return { ok: false, reason: 'value is not a string' }
  if (value.length > moneyValueCharsMax) return { ok: false, reason: `value is longer than ${moneyValueCharsMax} characters` }
  const found = moneyValueRegExp.exec(value)
  if (found === null) return { ok: false, reason: `value ${quoteForMessage(value)} is not a non-negative decimal string` }
  const integer = found[1] as string
  const fraction = found[2] ?? ''
  const minorUnits = currencyMinorUnits(currency)
  if (minorUnits === undefined) return { ok: true, money: { currency, units: BigInt(integer + fraction), scale: fraction.length } }
  if (fraction.length > minorUnits) {
    return { ok: false, reason: `value ${quoteForMessage(value)} has ${fraction.length} fraction digits; ${currency} has ${minorUnits}` }
  }
  return { ok: true, money: { currency, units: BigInt(integer + fraction.padEnd(minorUnits, '0')), scale: minorUnits } }
}

/** Whether a Money value is valid for its currency (validation uses it; the reason says why not). */
export function moneyProblem(candidate: unknown): string | undefined {
  const parsed = parseMoney(candidate)
  return parsed.ok ? undefined : parsed.reason
}

/**
 * The order of two parsed amounts, or undefined when the currencies differ: amounts in two currencies
 * are not ordered (there is deliberately no exchange rate here). Allocation-free, for evaluators' hot paths.
 */
export function moneyOrder(left: ParsedMoney, right: ParsedMoney): -1 | 0 | 1 | undefined {
  if (left.currency !== right.currency) return undefined
  let leftUnits = left.units
  let rightUnits = right.units
  if (left.scale < right.scale) leftUnits *= powerOfTen(right.scale - left.scale)
  else if (right.scale < left.scale) rightUnits *= powerOfTen(left.scale - right.scale)
  return leftUnits < rightUnits ? -1 : leftUnits > rightUnits ? 1 : 0
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
