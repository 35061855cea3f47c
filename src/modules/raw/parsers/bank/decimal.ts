/**
 * Exact decimal strings for bank amounts. Amounts are read as digit strings and never pass through a
 * float: a parser splits what the source wrote into sign, integer digits and fraction digits, and this
 * module writes the canonical form of `extracted.ts` (`-1234.5` style: `.` separator, no grouping, no
 * leading zeros, no `-0`). The fraction is padded to the currency's minor units (EUR 2, JPY 0, KWD 3) and
 * trailing zeros beyond them are dropped, so the same amount reads the same from every format ("12.50"
 * from CSV "12,5", OFX "12.50", MT940 "12,5" and CAMT "12.500"). Digits are never rounded away.
 */
import { currencyMinorUnits } from '../../../../kernel/currency.ts'

export interface DecimalParts {
  readonly negative: boolean
  /** Digits only; may be empty or have leading zeros. */
  readonly integer: string
  /** Digits only; may be empty. */
  readonly fraction: string
}

/** A decimal of 40 digits is not an amount a bank reports; longer strings are refused as malformed. */
export const amountDigitsMax = 40

/** The canonical decimal string of the parts, padded or trimmed (zeros only) to the currency's minor units. */
export function formatDecimal(parts: DecimalParts, currency: string | undefined): string {
  const minorUnits = currency === undefined ? undefined : currencyMinorUnits(currency)
  const integer = parts.integer.replace(/^0+/, '') || '0'
  let fraction = parts.fraction
  if (minorUnits !== undefined) {
    fraction = fraction.length > minorUnits ? fraction.replace(/0+$/, '').padEnd(minorUnits, '0') : fraction.padEnd(minorUnits, '0')
  }
  const body = fraction === '' ? integer : `${integer}.${fraction}`
  const isZero = /^[0.]*$/.test(body)
  return parts.negative && !isZero ? `-${body}` : body
}

/**
 * Reads a plain machine-written amount: optional sign, digits, optional `.` or `,` and fraction digits
 * (OFX writes `-12.34` or `+12.34`, MT940 `12,34` and `12,`, CAMT `12.34`). Undefined when it is not one.
 */
export function parsePlainDecimal(text: string): DecimalParts | undefined {
  const match = /^([+-])?(\d*)(?:[.,](\d*))?$/.exec(text.trim())
  if (match === null) return undefined
  const integer = match[2] ?? ''
  const fraction = match[3] ?? ''
  if (integer === '' && fraction === '') return undefined
  if (integer.length + fraction.length > amountDigitsMax) return undefined
  return { negative: match[1] === '-', integer, fraction }
}

/** The same parts with the sign flipped (`negative` for money out, whatever the source's own sign). */
export function withSign(parts: DecimalParts, negative: boolean): DecimalParts {
  return { ...parts, negative }
}

interface Scaled {
  readonly units: bigint
  readonly scale: number
}

function toScaled(decimal: string): Scaled {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(decimal)
  if (match === null) throw new TypeError(`not a canonical decimal: ${JSON.stringify(decimal)}`)
  const fraction = match[3] ?? ''
  const magnitude = BigInt(`${match[2]}${fraction}`)
  return { units: match[1] === '-' ? -magnitude : magnitude, scale: fraction.length }
}

function combine(a: string, b: string, sign: 1n | -1n, currency: string | undefined): string {
  const left = toScaled(a)
  const right = toScaled(b)
  const scale = Math.max(left.scale, right.scale)
  const units = left.units * 10n ** BigInt(scale - left.scale) + sign * right.units * 10n ** BigInt(scale - right.scale)
  const digits = (units < 0n ? -units : units).toString().padStart(scale + 1, '0')
  return formatDecimal({ negative: units < 0n, integer: digits.slice(0, digits.length - scale), fraction: digits.slice(digits.length - scale) }, currency)
}

/** a + b on canonical decimal strings, exactly (bigint units at the larger scale). */
export function addDecimals(a: string, b: string, currency: string | undefined): string {
  return combine(a, b, 1n, currency)
}

/** a − b on canonical decimal strings, exactly. */
export function subtractDecimals(a: string, b: string, currency: string | undefined): string {
  return combine(a, b, -1n, currency)
}
