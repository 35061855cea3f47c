/**
 * Calendar dates (`YYYY-MM-DD`, years 0001 to 9999) and RFC 3339 timestamps. Pure: no clock and no time
 * zone; a calendar date is a day as written, and day arithmetic runs in UTC, where every day has 86,400
 * seconds.
 */

/** The first and last calendar years a date or instant may name (what both JavaScript and PostgreSQL represent). */
export const calendarYearMin = 1
export const calendarYearMax = 9999

const millisecondsPerDay = 86_400_000
const calendarDatePattern = /^(\d{4})-(\d{2})-(\d{2})$/
const timestampPattern = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-](\d{2}):(\d{2}))$/
const leadingDatePattern = /^(\d{4})-(\d{2})-(\d{2})/

/** Date.UTC reads years 0–99 as 1900–1999, so instants are built with setUTCFullYear. */
function utcInstant(year: number, month: number, day: number, hour: number, minute: number, second: number, millisecond: number): number {
  const date = new Date(0)
  date.setUTCFullYear(year, month - 1, day)
  date.setUTCHours(hour, minute, second, millisecond)
  return date.getTime()
}

const earliestInstantMs = utcInstant(calendarYearMin, 1, 1, 0, 0, 0, 0)
const latestInstantMs = utcInstant(calendarYearMax, 12, 31, 23, 59, 59, 999)

/** The days of a month of the proleptic Gregorian calendar (month 1 to 12). */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31
}

/** Whether year, month and day name a day that exists, years 0001 to 9999. */
export function isCalendarDay(year: number, month: number, day: number): boolean {
  return (
    Number.isInteger(year) &&
    Number.isInteger(month) &&
    Number.isInteger(day) &&
    year >= calendarYearMin &&
    year <= calendarYearMax &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month)
  )
}

/** Whether the text is `YYYY-MM-DD` naming a day that exists (`2026-02-30` is not), years 0001 to 9999. */
export function isCalendarDate(text: string): boolean {
  const match = calendarDatePattern.exec(text)
  return match !== null && isCalendarDay(Number(match[1]), Number(match[2]), Number(match[3]))
}

/** `YYYY-MM-DD` of a day; undefined when it does not exist or lies outside years 0001 to 9999. */
export function calendarDate(year: number, month: number, day: number): string | undefined {
  if (!isCalendarDay(year, month, day)) return undefined
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
}

/**
 * An RFC 3339 timestamp (`T`, `t` or a space between date and time; `Z` or a ±hh:mm offset) naming a real
 * day and time, whose instant lies in years 0001 to 9999 UTC. A leap second (`:60`) is refused: neither
 * JavaScript nor the database can represent it.
 */
export function isTimestamp(text: string): boolean {
  const match = timestampPattern.exec(text)
  if (match === null) return false
  if (!isCalendarDay(Number(match[1]), Number(match[2]), Number(match[3]))) return false
  if (Number(match[4]) > 23 || Number(match[5]) > 59 || Number(match[6]) > 59) return false
  if (match[9] !== undefined && (Number(match[9]) > 23 || Number(match[10]) > 59)) return false
  const instant = Date.parse(text.replace(' ', 'T'))
  return Number.isFinite(instant) && instant >= earliestInstantMs && instant <= latestInstantMs
}

/** The calendar date a date or timestamp names, as written (`2026-03-01T23:30:00-05:00` → `2026-03-01`); undefined when it is not a real date. */
export function calendarDateOf(value: string): string | undefined {
  const match = leadingDatePattern.exec(value)
  if (match === null || !isCalendarDay(Number(match[1]), Number(match[2]), Number(match[3]))) return undefined
  return match[0]
}

function dayNumber(day: string): number {
  if (!isCalendarDate(day)) throw new RangeError(`not a calendar date: ${JSON.stringify(day.slice(0, 32))}`)
  return Date.parse(`${day}T00:00:00Z`) / millisecondsPerDay
}

/** Days from `from` to `to` (to − from; negative when `to` is earlier). Both must be calendar dates. */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from)
}

/** A calendar date moved by a whole number of days; RangeError when the result leaves years 0001 to 9999. */
export function addDays(day: string, days: number): string {
  if (!Number.isInteger(days)) throw new RangeError(`days must be an integer, got ${days}`)
  const instant = (dayNumber(day) + days) * millisecondsPerDay
  if (instant < earliestInstantMs || instant > latestInstantMs) throw new RangeError(`${day} + ${days} days is outside years ${calendarYearMin} to ${calendarYearMax}`)
  return new Date(instant).toISOString().slice(0, 10)
}

/** The calendar date (UTC) of an instant. */
export function calendarDateOfInstant(instant: Date): string {
  return instant.toISOString().slice(0, 10)
}
