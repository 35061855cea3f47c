/**
 * Calendar dates as documents write them, read into ISO `YYYY-MM-DD`. Pure: no clock, no time zone.
 */

import { calendarDate } from '../../../../kernel/dates.ts'

export type DateOrder = 'day_first' | 'month_first'

export interface ReadDate {
  readonly iso: string
  /** The text matched, as written. */
  readonly text: string
  /** True when the day/month order could not be told from the date itself (`03/04/2026`). */
  readonly ambiguous: boolean
}

const monthNames: Readonly<Record<string, number>> = {
  // English
  january: 1, jan: 1, february: 2, feb: 2, march: 3, mar: 3, april: 4, apr: 4, may: 5, june: 6, jun: 6,
  july: 7, jul: 7, august: 8, aug: 8, september: 9, sep: 9, sept: 9, october: 10, oct: 10, november: 11,
  nov: 11, december: 12, dec: 12,
  // German
  januar: 1, jänner: 1, februar: 2, märz: 3, maerz: 3, mai: 5, juni: 6, juli: 7, oktober: 10, dezember: 12,
  // French
  janvier: 1, février: 2, fevrier: 2, mars: 3, avril: 4, juin: 6, juillet: 7, août: 8, aout: 8,
  septembre: 9, octobre: 10, novembre: 11, décembre: 12, decembre: 12,
}

const monthAlternatives = Object.keys(monthNames)
  .sort((a, b) => b.length - a.length)
  .join('|')

/** Every date form this module reads, as one pattern (used to find dates and to mask them from amounts). */
export const datePattern = new RegExp(
  '(?<![\\p{L}\\p{N}])(?:' +
  [
    '(?<iso>(?<isoYear>\\d{4})-(?<isoMonth>\\d{1,2})-(?<isoDay>\\d{1,2}))',
    '(?<numeric>(?<first>\\d{1,2})(?<separator>[./-])(?<second>\\d{1,2})\\k<separator>(?<numericYear>\\d{4}|\\d{2}))',
    `(?<nameFirst>(?<nameFirstMonth>${monthAlternatives})\\.?\\s+(?<nameFirstDay>\\d{1,2})(?:st|nd|rd|th)?,?\\s+(?<nameFirstYear>\\d{4}))`,
    `(?<dayFirst>(?<dayFirstDay>\\d{1,2}|1er)(?:st|nd|rd|th)?\\.?\\s*(?<dayFirstMonth>${monthAlternatives})\\.?,?\\s+(?<dayFirstYear>\\d{4}))`,
  ].join('|') +
  ')(?![\\p{N}])',
  'giu',
)

/** The years a document's date may name; a date outside them is a misread (an invoice number, a code), not a date. */
const documentYearMin = 1900
const documentYearMax = 2199

/** `YYYY-MM-DD` when the parts name a real calendar day (kernel/dates.ts) in years 1900 to 2199; undefined otherwise. */
export function isoDate(year: number, month: number, day: number): string | undefined {
  return year >= documentYearMin && year <= documentYearMax ? calendarDate(year, month, day) : undefined
}

/** Whether `YYYY-MM-DD` names a real calendar day in years 1900 to 2199 (the pattern alone accepts `2026-02-30`). */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  return match !== null && isoDate(Number(match[1]), Number(match[2]), Number(match[3])) === value
}

function fullYear(text: string): number {
  const year = Number(text)
  return text.length === 2 ? 2000 + year : year
}

/**
 * Reads the date a regular-expression match of `datePattern` found. Numeric dates with `.` are
 * day-first (the German and most European form); with `/` or `-` the order is taken from a part above
 * 12 when there is one, and from `preferredOrder` otherwise (then `ambiguous` is true).
 */
export function readDateMatch(match: RegExpExecArray, preferredOrder: DateOrder): ReadDate | undefined {
  const groups = match.groups ?? {}
  const text = match[0]
  if (groups.iso !== undefined) {
    const iso = isoDate(Number(groups.isoYear), Number(groups.isoMonth), Number(groups.isoDay))
    return iso === undefined ? undefined : { iso, text, ambiguous: false }
  }
  if (groups.numeric !== undefined) {
    const first = Number(groups.first)
    const second = Number(groups.second)
    const year = fullYear(groups.numericYear ?? '')
    let order: DateOrder = preferredOrder
    let ambiguous = false
    if (groups.separator === '.') order = 'day_first'
    else if (first > 12) order = 'day_first'
    else if (second > 12) order = 'month_first'
    else ambiguous = first !== second
    const iso = order === 'day_first' ? isoDate(year, second, first) : isoDate(year, first, second)
    return iso === undefined ? undefined : { iso, text, ambiguous }
  }
  if (groups.nameFirst !== undefined) {
    const month = monthNames[(groups.nameFirstMonth ?? '').toLowerCase()]
    const iso = month === undefined ? undefined : isoDate(Number(groups.nameFirstYear), month, Number(groups.nameFirstDay))
    return iso === undefined ? undefined : { iso, text, ambiguous: false }
  }
  if (groups.dayFirst !== undefined) {
    const month = monthNames[(groups.dayFirstMonth ?? '').toLowerCase()]
    const day = groups.dayFirstDay?.toLowerCase() === '1er' ? 1 : Number(groups.dayFirstDay)
    const iso = month === undefined ? undefined : isoDate(Number(groups.dayFirstYear), month, day)
    return iso === undefined ? undefined : { iso, text, ambiguous: false }
  }
  return undefined
}

/** The first date in `text`, read with `preferredOrder` for ambiguous numeric dates. */
export function readFirstDate(text: string, preferredOrder: DateOrder): ReadDate | undefined {
  const pattern = new RegExp(datePattern.source, 'giu')
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const read = readDateMatch(match, preferredOrder)
    if (read !== undefined) return read
  }
  return undefined
}
