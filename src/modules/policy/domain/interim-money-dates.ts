// replaced by kernel money/dates (issue 14 item 7)
/**
 * The Policy module's own copies of an amount helper and two date helpers, kept together in this one
 * file until the kernel's money and dates modules land, so they can be swapped for those in one place.
 * Behaviour is unchanged from when they lived in policy.service.ts.
 */

/** `-25.50` → `25.5`: the magnitude with no redundant zeros, valid for any currency exponent it fits. */
export function magnitude(amount: string): string {
  const unsigned = amount.trim().replace(/^[-+]/, '')
  if (!unsigned.includes('.')) return unsigned.replace(/^0+(?=\d)/, '')
  const [whole = '0', fraction = ''] = unsigned.split('.')
  const trimmed = fraction.replace(/0+$/, '')
  const integer = whole.replace(/^0+(?=\d)/, '') || '0'
  return trimmed === '' ? integer : `${integer}.${trimmed}`
}

const dayPattern = /^(\d{4})-(\d{2})-(\d{2})/

/** The calendar date a date or timestamp names, as written; undefined when it is not a real date. */
export function calendarDay(value: string): string | undefined {
  const match = dayPattern.exec(value)
  if (match === null) return undefined
  const day = `${match[1]}-${match[2]}-${match[3]}`
  const date = new Date(`${day}T00:00:00Z`)
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== day ? undefined : day
}

/** Whole days from one calendar date (`YYYY-MM-DD`) to another; negative when `to` is earlier. */
export const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000)
