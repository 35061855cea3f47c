/**
 * Amounts as invoices write them (`1.234,56`, `1 234,56`), read into canonical decimal strings with the
 * kernel's money module (kernel/money.ts), which the document parsers also compute with: money never
 * passes through a float.
 */
import { canonicalDecimal } from '../../../../kernel/money.ts'

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
