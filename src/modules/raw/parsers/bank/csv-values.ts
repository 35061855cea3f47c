/**
 * Reading the cells of a bank CSV: amounts in the notations banks export (`1,234.56`, `1.234,56`,
 * `1 234,56`, `1'234.56`, `(12.34)`, `12.34-`, `-€ 12,34`, `$12.34`, `12.34 CR`, `EUR 12.34`) and dates
 * (ISO, `YYYYMMDD`, `DD/MM/YYYY`, `MM/DD/YYYY`, `DD.MM.YYYY`, `D MMM YYYY`, `MMM D, YYYY`). Digits stay
 * strings: an amount becomes sign, integer digits and fraction digits, never a float.
 *
 * Two things cannot be read from one cell and are decided for the whole file (csv-statement.parser.ts):
 * the decimal separator (`1,234` is 1234 or 1.234) and the day/month order (`03/04/2024`). Each cell
 * contributes evidence here.
 */
import { fullYear, isoDate, monthFromName } from './calendar.ts'
import { isIsoCurrency } from '../../../../kernel/currencies.ts'
import { amountDigitsMax, type DecimalParts } from './decimal.ts'

export type DecimalSeparator = '.' | ','

export interface AmountCell {
  /** Sign from the markers (`-`, `( )`, trailing `-`, `DR`); digits as written, grouping still in. */
  readonly negative: boolean
  /** The number as written without sign and currency, e.g. `1.234,56`. */
  readonly number: string
  /** ISO code from a symbol or code in the cell, if any. */
  readonly currency: string | undefined
  /** True when the currency came from `$` or `¥`, which several currencies use. */
  readonly currencyByConvention: boolean
  /** What the number says about the decimal separator on its own. */
  readonly separatorEvidence: DecimalSeparator | 'ambiguous' | 'none'
}

const currencySymbols: ReadonlyArray<readonly [string, string, boolean]> = [
  ['US$', 'USD', false],
  ['€', 'EUR', false],
  ['£', 'GBP', false],
  ['₹', 'INR', false],
  ['$', 'USD', true],
  ['¥', 'JPY', true],
]


/** Markers peeled off an amount, at most this many (a sign, parentheses, a currency, CR/DR…). */
const amountMarkersMax = 6

/**
 * A cell that is only a number, perhaps with a leading minus (`-1234.56`, `1 234,56`): what most cells
 * of most files are. None of the markers below can apply to it, so it is read without trying them.
 */
const plainAmountPattern = /^([-−]?)(\d[\d.,' ’]*\d|\d|[.,]\d+)$/

/** The shape every number must have once its markers are peeled off. */
const numberPattern = /^(\d[\d.,' ’]*\d|\d)$|^[.,]\d+$/

/**
 * Splits an amount cell into sign, currency and number. Undefined when the cell is not an amount
 * (words, two signs that contradict, two currencies); an empty cell is `null`.
 */
export function readAmountCell(cell: string): AmountCell | null | undefined {
  let text = cell.replace(/[\u00a0\u202f\u2007]/g, ' ').trim()
  if (text === '') return null
  const plain = plainAmountPattern.exec(text)
  if (plain !== null) return amountCell(plain[1] !== '', plain[2] ?? '', undefined, false)
  let negative = false
  let positiveMarker = false
  let currency: string | undefined
  let currencyByConvention = false
  const setCurrency = (code: string, byConvention: boolean): boolean => {
    if (currency !== undefined && currency !== code) return false
    currency = code
    currencyByConvention = byConvention
    return true
  }
  for (let markers = 0; markers <= amountMarkersMax; markers += 1) {
    if (markers === amountMarkersMax) return undefined
    let match: RegExpExecArray | null
    if ((match = /^\((.*)\)$/.exec(text)) !== null) {
      negative = true
      text = (match[1] ?? '').trim()
    } else if (/^[-−]/.test(text)) {
      negative = true
      text = text.slice(1).trim()
    } else if (text.startsWith('+')) {
      positiveMarker = true
      text = text.slice(1).trim()
    } else if (/[-−]$/.test(text)) {
      negative = true
      text = text.slice(0, -1).trim()
    } else if ((match = /^(.*?)\s*\b(CR|DR|Cr|Dr|cr|dr)\.?$/.exec(text)) !== null && /\d/.test(match[1] ?? '')) {
      if (match[2]?.toUpperCase() === 'DR') negative = true
      else positiveMarker = true
      text = (match[1] ?? '').trim()
    } else if ((match = /^([A-Z]{3})\s*(?=[\d.,(+-])/.exec(text)) !== null && isIsoCurrency(match[1] ?? '')) {
      if (!setCurrency(match[1] ?? '', false)) return undefined
      text = text.slice(match[0].length).trim()
    } else if ((match = /(?<=[\d.,)])\s*([A-Z]{3})$/.exec(text)) !== null && isIsoCurrency(match[1] ?? '')) {
      if (!setCurrency(match[1] ?? '', false)) return undefined
      text = text.slice(0, match.index).trim()
    } else {
      const symbol = currencySymbols.find(([sign]) => text.startsWith(sign) || text.endsWith(sign))
      if (symbol === undefined) break
      if (!setCurrency(symbol[1], symbol[2])) return undefined
      text = (text.startsWith(symbol[0]) ? text.slice(symbol[0].length) : text.slice(0, -symbol[0].length)).trim()
    }
  }
  if (negative && positiveMarker) return undefined
  if (!numberPattern.test(text)) return undefined
  return amountCell(negative, text, currency, currencyByConvention)
}

/** The cell of a number whose markers are peeled off; undefined when it has more digits than any amount. */
function amountCell(negative: boolean, number: string, currency: string | undefined, currencyByConvention: boolean): AmountCell | undefined {
  // Counting the digits is only needed when there can be too many.
  if (number.length > amountDigitsMax && number.replace(/\D/g, '').length > amountDigitsMax) return undefined
  return { negative, number, currency, currencyByConvention, separatorEvidence: separatorEvidence(number) }
}

/** What a number alone says about its decimal separator. */
function separatorEvidence(number: string): DecimalSeparator | 'ambiguous' | 'none' {
  const dots = occurrences(number, '.')
  const commas = occurrences(number, ',')
  if (dots > 0 && commas > 0) return number.lastIndexOf('.') > number.lastIndexOf(',') ? '.' : ','
  if (dots + commas === 0) return 'none'
  const separator: DecimalSeparator = dots > 0 ? '.' : ','
  if (dots + commas > 1) return separator === '.' ? ',' : '.'
  const digitsAfter = number.length - number.indexOf(separator) - 1
  if (digitsAfter !== 3) return separator
  // `1,234` alone is either; `0,123` or `,123` can only be a fraction.
  return /^0?[.,]/.test(number) ? separator : 'ambiguous'
}

function occurrences(text: string, character: string): number {
  let count = 0
  for (let index = text.indexOf(character); index !== -1; index = text.indexOf(character, index + 1)) count += 1
  return count
}

/** The characters that group thousands, by decimal separator (the other of `.` and `,`, spaces, apostrophes). */
const groupingPatterns: Readonly<Record<DecimalSeparator, RegExp>> = { '.': /[, '’]/, ',': /[. '’]/ }

/**
 * The digits of a number written with the given decimal separator; undefined when the number does not
 * fit it (two decimal separators, grouping after the decimal separator, an empty group).
 */
export function readNumber(number: string, decimalSeparator: DecimalSeparator): Pick<DecimalParts, 'integer' | 'fraction'> | undefined {
  const [integerPart, fractionPart, ...rest] = number.split(decimalSeparator)
  if (rest.length > 0 || integerPart === undefined) return undefined
  if (fractionPart !== undefined && !/^\d*$/.test(fractionPart)) return undefined
  const grouping = groupingPatterns[decimalSeparator]
  // Most numbers are written without grouping: nothing to split and check.
  if (!grouping.test(integerPart)) return { integer: integerPart, fraction: fractionPart ?? '' }
  const groups = integerPart.split(grouping)
  if (groups.length > 1 && !groups.every((group, index) => groupFits(group, index, groups.length))) return undefined
  return { integer: groups.join(''), fraction: fractionPart ?? '' }
}

/**
 * Thousands grouping: the first group has 1–3 digits, the others 3; the Indian lakh grouping
 * (`1,23,45,678.90`) has 2-digit groups before the last 3-digit one.
 */
function groupFits(group: string, index: number, count: number): boolean {
  if (index === 0) return group.length >= 1 && group.length <= 3
  if (index === count - 1) return group.length === 3
  return group.length === 2 || group.length === 3
}

export type DateOrder = 'dmy' | 'mdy'

/** What a date cell is, before the day/month order is known. */
export type DateShape =
  | { readonly kind: 'fixed'; readonly date: string | undefined }
  | { readonly kind: 'numeric'; readonly first: number; readonly second: number; readonly year: number; readonly separator: string }

/** Time after a date (`2024-03-01 10:22`, `01/03/2024T10:22:00Z`) is dropped: the date is the local one written. */
const timeSuffix = String.raw`(?:[T\s,]+\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?\s*(?:[AaPp][Mm])?\s*(?:Z|[+-]\d{2}:?\d{2})?)?`

const isoPattern = new RegExp(String.raw`^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})${timeSuffix}$`)
const compactPattern = /^(\d{4})(\d{2})(\d{2})$/
const numericPattern = new RegExp(String.raw`^(\d{1,2})([-/.])(\d{1,2})\2(\d{4}|\d{2})${timeSuffix}$`)
const dayMonthNamePattern = /^(\d{1,2})\.?[\s-]+([A-Za-zÀ-ÿ]{3,10})\.?,?[\s-]+(\d{4}|\d{2})$/
const monthNameDayPattern = /^([A-Za-zÀ-ÿ]{3,10})\.?\s+(\d{1,2}),?\s+(\d{4})$/

export type NumericDateShape = Extract<DateShape, { kind: 'numeric' }>

/**
 * The shape of a date cell written in numbers whose day/month order is open (`03/04/2024`, `3.4.24`);
 * undefined for any other cell. This is `dateShape` when it says `numeric` (no such cell matches the ISO
 * or compact patterns tried before, which begin with four digits), without reading the other notations,
 * for the survey, which takes its day/month evidence from these cells only.
 */
export function numericDateShape(cell: string): NumericDateShape | undefined {
  const match = numericPattern.exec(cell.trim())
  if (match === null) return undefined
  return { kind: 'numeric', first: Number(match[1]), second: Number(match[3]), year: fullYear(match[4] ?? ''), separator: match[2] ?? '' }
}

/** The shape of a date cell; undefined when it is not a date in a supported notation. */
export function dateShape(cell: string): DateShape | undefined {
  const text = cell.trim()
  let match: RegExpExecArray | null
  if ((match = isoPattern.exec(text)) !== null) return { kind: 'fixed', date: isoDate(Number(match[1]), Number(match[2]), Number(match[3])) }
  if ((match = compactPattern.exec(text)) !== null) return { kind: 'fixed', date: isoDate(Number(match[1]), Number(match[2]), Number(match[3])) }
  const numeric = numericDateShape(text)
  if (numeric !== undefined) return numeric
  if ((match = dayMonthNamePattern.exec(text)) !== null) {
    const month = monthFromName(match[2] ?? '')
    return month === undefined ? undefined : { kind: 'fixed', date: isoDate(fullYear(match[3] ?? ''), month, Number(match[1])) }
  }
  if ((match = monthNameDayPattern.exec(text)) !== null) {
    const month = monthFromName(match[1] ?? '')
    return month === undefined ? undefined : { kind: 'fixed', date: isoDate(Number(match[3]), month, Number(match[2])) }
  }
  return undefined
}

/**
 * The ISO date of a cell under a day/month order; `orderMatters` says whether the other order would
 * have read a different date (03/04/2024 yes, 05/05/2024 and 2024-03-04 no).
 */
export function readDate(cell: string, order: DateOrder): { date: string; orderMatters: boolean } | undefined {
  const shape = dateShape(cell)
  if (shape === undefined) return undefined
  if (shape.kind === 'fixed') return shape.date === undefined ? undefined : { date: shape.date, orderMatters: false }
  const [day, month] = order === 'dmy' ? [shape.first, shape.second] : [shape.second, shape.first]
  const date = isoDate(shape.year, month, day)
  return date === undefined ? undefined : { date, orderMatters: shape.first !== shape.second && shape.first <= 12 && shape.second <= 12 }
}
