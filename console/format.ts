/** Formatting and exact decimal arithmetic on the API's decimal strings (never floats for money). */
export function money(amount: string | null | undefined, currency?: string | null): string {
  if (amount === null || amount === undefined) return '—'
  const [whole = '0', fraction = ''] = amount.replace('-', '').split('.')
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return `${amount.startsWith('-') ? '−' : ''}${grouped}${fraction === '' ? '' : `.${fraction}`}${currency ? ` ${currency}` : ''}`
}

const scaleOf = (value: string) => (value.split('.')[1] ?? '').length

/** a + b for decimal strings, exact. */
export function addDecimal(a: string, b: string): string {
  const scale = Math.max(scaleOf(a), scaleOf(b), 2)
  const toUnits = (value: string) => {
    const negative = value.startsWith('-')
    const [whole = '0', fraction = ''] = value.replace(/^[-+]/, '').split('.')
    const units = BigInt(whole + fraction.padEnd(scale, '0'))
    return negative ? -units : units
  }
  const sum = toUnits(a) + toUnits(b)
  const negative = sum < 0n
  const digits = (negative ? -sum : sum).toString().padStart(scale + 1, '0')
  return `${negative ? '-' : ''}${digits.slice(0, -scale)}.${digits.slice(-scale)}`
}

export const toNumber = (value: string) => Number(value)

export function dateTime(value: string | null | undefined): string {
  if (value === null || value === undefined) return '—'
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? value : date.toISOString().replace('T', ' ').slice(0, 16) + ' UTC'
}

export const shortId = (id: string) => (id.length > 18 ? `${id.slice(0, 14)}…` : id)
