/**
 * Exact decimal arithmetic for the document parsers. Money never passes through a float: amounts are
 * read from text into canonical decimal strings, compared and added as bigint values scaled to a common
 * exponent, and on-chain integer values are shifted by the token's decimals with bigint division.
 */

/** A canonical decimal string: no leading zeros, no trailing fractional zeros, no `-0`. */
const decimalPattern = /^(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?$/

/** Amounts this long are not money on an invoice; refusing them keeps bigint work bounded. */
export const decimalDigitsMax = 100

interface ScaledDecimal {
  readonly units: bigint
  readonly exponent: number
}

function toScaled(value: string): ScaledDecimal {
  const match = decimalPattern.exec(value)
  if (match === null || value.length > decimalDigitsMax) throw new Error(`not a decimal string: ${JSON.stringify(value)}`)
  const fraction = match[3] ?? ''
  const magnitude = BigInt(`${match[2]}${fraction}`)
  return { units: match[1] === '-' ? -magnitude : magnitude, exponent: fraction.length }
}

function rescale(value: ScaledDecimal, exponent: number): bigint {
  return value.units * 10n ** BigInt(exponent - value.exponent)
}

/** Writes `units × 10^-exponent` as a canonical decimal string. */
export function formatScaled(units: bigint, exponent: number): string {
  if (!Number.isInteger(exponent) || exponent < 0) throw new Error(`exponent must be a non-negative integer, got ${exponent}`)
  const negative = units < 0n
  const digits = (negative ? -units : units).toString().padStart(exponent + 1, '0')
  const whole = digits.slice(0, digits.length - exponent)
  const fraction = digits.slice(digits.length - exponent).replace(/0+$/, '')
  const body = fraction === '' ? whole : `${whole}.${fraction}`
  return negative && body !== '0' ? `-${body}` : body
}

/** Canonical form of a decimal string (`"12.50"` → `"12.5"`, `"-0.0"` → `"0"`). */
export function canonicalDecimal(value: string): string {
  const scaled = toScaled(value)
  return formatScaled(scaled.units, scaled.exponent)
}

export function isDecimal(value: string): boolean {
  return value.length <= decimalDigitsMax && decimalPattern.test(value)
}

export function compareDecimal(left: string, right: string): -1 | 0 | 1 {
  const a = toScaled(left)
  const b = toScaled(right)
  const exponent = Math.max(a.exponent, b.exponent)
  const difference = rescale(a, exponent) - rescale(b, exponent)
  return difference < 0n ? -1 : difference > 0n ? 1 : 0
}

export function addDecimal(left: string, right: string): string {
  const a = toScaled(left)
  const b = toScaled(right)
  const exponent = Math.max(a.exponent, b.exponent)
  return formatScaled(rescale(a, exponent) + rescale(b, exponent), exponent)
}

export function subtractDecimal(left: string, right: string): string {
  return addDecimal(left, negateDecimal(right))
}

export function negateDecimal(value: string): string {
  const scaled = toScaled(value)
  return formatScaled(-scaled.units, scaled.exponent)
}

/**
 * A token's integer base-unit value as a decimal amount: `1500000` with 6 decimals is `"1.5"`.
 * Exact for any size (uint256 values have up to 78 digits).
 */
export function integerUnitsToDecimal(units: bigint, decimals: number): string {
  return formatScaled(units, decimals)
}

/** An amount written with more characters than this is not money on a document (a quadrillion with separators fits). */
const amountCharactersMax = 32

/**
 * Reads an amount written the way invoices write them, in any of the common conventions:
 * `1,234.56`, `1.234,56`, `1 234,56`, `1'234.56`, `1234.5`, `1234`. The rule needs no locale: a final
 * `.` or `,` followed by one or two digits is the decimal separator; every other separator must group
 * exactly three digits and be the same character throughout. `1,234` and `1.234` are therefore one
 * thousand two hundred and thirty-four (three-decimal currencies such as KWD are not supported).
 * Returns the canonical decimal string, or undefined when the text is not such an amount.
 */
export function parseLocalizedAmount(text: string): string | undefined {
  const body = text.replace(/[\u00a0\u202f\u2009]/g, ' ').trim()
  if (body.length > amountCharactersMax) return undefined
  const match = /^(-?)(\d{1,3}(?:([ ,.'])\d{3})?(?:\3\d{3})*|\d+)(?:([.,])(\d{1,2}))?$/.exec(body)
  if (match === null) return undefined
  const [, sign = '', whole = '', groupSeparator, decimalSeparator, fraction] = match
  if (groupSeparator !== undefined && groupSeparator === decimalSeparator) return undefined
  const digits = groupSeparator === undefined ? whole : whole.split(groupSeparator).join('')
  if (digits.length > 1 && digits.startsWith('0') && groupSeparator === undefined) {
    // `007.50` is not how an amount is written; it is more likely a code.
    return undefined
  }
  const value = fraction === undefined ? digits : `${digits}.${fraction}`
  return canonicalDecimal(`${sign}${value.replace(/^0+(?=\d)/, '')}`)
}
