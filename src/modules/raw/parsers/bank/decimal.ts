/**
 * Bank amounts as statements write them. Amounts are read as digit strings and never pass through a
 * float: a parser splits what the source wrote into sign, integer digits and fraction digits, and this
 * module writes them with the kernel's money module at the currency's scale (kernel/money.ts
 * `formatAmount`: EUR 2, JPY 0, KWD 3, USDC 6; an unknown code 2), so the same amount reads the same from
 * every format ("12.50" from CSV "12,5", OFX "12.50", MT940 "12,5" and CAMT "12.500"). Digits are never
 * rounded away. Without a currency the digits are kept as written.
 */
import { currencyScale } from '../../../../kernel/currencies.ts'
import { decimalAdd, decimalSubtract, formatAmount, formatAtScale, formatDigitsAtScale } from '../../../../kernel/money.ts'

export interface DecimalParts {
  readonly negative: boolean
  /** Digits only; may be empty or have leading zeros. */
  readonly integer: string
  /** Digits only; may be empty. */
  readonly fraction: string
}

/** A decimal of 40 digits is not an amount a bank reports; longer strings are refused as malformed. */
export const amountDigitsMax = 40

/** A decimal string at the currency's scale, or with `scaleAsWritten` fraction digits when there is no currency. */
function atScale(value: string, currency: string | undefined, scaleAsWritten: number): string {
  return currency === undefined ? formatAtScale(value, scaleAsWritten) : formatAmount(value, currency)
}

/** The decimal string of the parts at the currency's scale (no leading zeros, no `-0`). */
export function formatDecimal(parts: DecimalParts, currency: string | undefined): string {
  return formatDigitsAtScale(parts.negative, parts.integer, parts.fraction, currency === undefined ? parts.fraction.length : currencyScale(currency))
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

const fractionDigits = (value: string) => (value.includes('.') ? value.length - value.indexOf('.') - 1 : 0)

/** a + b exactly (kernel/money.ts), at the currency's scale. */
export function addDecimals(a: string, b: string, currency: string | undefined): string {
  return atScale(decimalAdd(a, b), currency, Math.max(fractionDigits(a), fractionDigits(b)))
}

/** a − b exactly (kernel/money.ts), at the currency's scale. */
export function subtractDecimals(a: string, b: string, currency: string | undefined): string {
  return atScale(decimalSubtract(a, b), currency, Math.max(fractionDigits(a), fractionDigits(b)))
}
