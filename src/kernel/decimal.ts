/**
 * Exact decimal arithmetic on decimal strings (`"-12.50"`), for money: values are bigint units at a
 * common scale, never floats. Results are canonical (no leading zeros, no trailing fractional zeros,
 * no `-0`); callers that store money format them (ledger/domain/keys.ts `ledgerAmount`).
 */

const decimalPattern = /^(-?)(\d+)(?:\.(\d+))?$/

interface Scaled {
  readonly units: bigint
  readonly scale: number
}

function parse(value: string): Scaled {
  const match = decimalPattern.exec(value.trim())
  if (match === null || value.length > 100) throw new TypeError(`not a decimal: ${JSON.stringify(value)}`)
  const fraction = match[3] ?? ''
  const magnitude = BigInt(`${match[2]}${fraction}`)
  return { units: match[1] === '-' ? -magnitude : magnitude, scale: fraction.length }
}

function atScale(value: Scaled, scale: number): bigint {
  return value.units * 10n ** BigInt(scale - value.scale)
}

function format(units: bigint, scale: number): string {
  const negative = units < 0n
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0')
  const whole = digits.slice(0, digits.length - scale)
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, '')
  const body = fraction === '' ? whole : `${whole}.${fraction}`
  return negative && body !== '0' ? `-${body}` : body
}

function combine(values: readonly string[], sign: (index: number) => 1n | -1n): string {
  const parsed = values.map(parse)
  const scale = Math.max(0, ...parsed.map((value) => value.scale))
  let total = 0n
  parsed.forEach((value, index) => {
    total += sign(index) * atScale(value, scale)
  })
  return format(total, scale)
}

/** The sum of decimal strings ("0" for none). */
export function decimalSum(values: readonly string[]): string {
  return combine(values, () => 1n)
}

/** a − b. */
export function decimalSubtract(a: string, b: string): string {
  return combine([a, b], (index) => (index === 0 ? 1n : -1n))
}

function signOf(units: bigint): -1 | 0 | 1 {
  return units < 0n ? -1 : units > 0n ? 1 : 0
}

/**
 * −1, 0 or 1 as a is less than, equal to or greater than b. Compared at a common scale without formatting
 * a difference: normalization compares (and takes the sign of) every transaction's amount.
 */
export function decimalCompare(a: string, b: string): -1 | 0 | 1 {
  const left = parse(a)
  const right = parse(b)
  const scale = Math.max(left.scale, right.scale)
  return signOf(atScale(left, scale) - atScale(right, scale))
}

export function decimalAbs(value: string): string {
  const canonical = decimalSum([value])
  return canonical.startsWith('-') ? canonical.slice(1) : canonical
}

export function decimalNegate(value: string): string {
  const canonical = decimalSum([value])
  return canonical === '0' ? '0' : canonical.startsWith('-') ? canonical.slice(1) : `-${canonical}`
}

export function decimalSign(value: string): -1 | 0 | 1 {
  return signOf(parse(value).units)
}
