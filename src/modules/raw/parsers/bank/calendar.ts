/**
 * Calendar dates as bank files write them: numeric parts checked against the real calendar (no
 * 2024-02-30 rolling over into March, as `Date.UTC` would), and month names in English, German, French,
 * Spanish and Dutch.
 */

import { calendarDate } from '../../../../kernel/dates.ts'

/** The years a bank statement's date may name; a date outside them is a misread, not a date. */
const statementYearMin = 1900
const statementYearMax = 2199

/** `YYYY-MM-DD` when the parts name a real calendar day (kernel/dates.ts) in years 1900 to 2199; undefined otherwise. */
export function isoDate(year: number, month: number, day: number): string | undefined {
  return year >= statementYearMin && year <= statementYearMax ? calendarDate(year, month, day) : undefined
}

/**
 * A two-digit year as a bank statement means it: 20YY. Statements of the last century are not
 * expected in this service; a file that needs them must write four digits.
 */
export function fullYear(digits: string): number {
  const value = Number.parseInt(digits, 10)
  return digits.length <= 2 ? 2000 + value : value
}

const monthNames: ReadonlyArray<readonly [number, readonly string[]]> = [
  [1, ['jan', 'january', 'januar', 'janvier', 'janv', 'enero', 'ene', 'januari', 'jänner', 'janner']],
  [2, ['feb', 'february', 'februar', 'fevrier', 'fevr', 'fev', 'febrero', 'februari']],
  [3, ['mar', 'march', 'marz', 'maerz', 'mrz', 'mars', 'marzo', 'maart', 'mrt']],
  [4, ['apr', 'april', 'avril', 'avr', 'abril', 'abr']],
  [5, ['may', 'mai', 'mayo', 'mei']],
  [6, ['jun', 'june', 'juni', 'juin', 'junio']],
  [7, ['jul', 'july', 'juli', 'juillet', 'juil', 'julio']],
  [8, ['aug', 'august', 'aout', 'agosto', 'ago', 'augustus']],
  [9, ['sep', 'sept', 'september', 'septembre', 'septiembre', 'setiembre']],
  [10, ['oct', 'october', 'oktober', 'okt', 'octobre', 'octubre']],
  [11, ['nov', 'november', 'novembre', 'noviembre']],
  [12, ['dec', 'december', 'dezember', 'dez', 'decembre', 'diciembre', 'dic']],
]

const monthByName = new Map<string, number>(monthNames.flatMap(([month, names]) => names.map((name) => [name, month] as const)))

const asciiPattern = /^[\x00-\x7f]*$/

/** Lower case without diacritics (`Août` → `aout`, `März` → `marz`). */
export function foldText(text: string): string {
  // ASCII has no accents, no compatibility forms and no ß: only the case changes.
  if (asciiPattern.test(text)) return text.toLowerCase()
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/ß/g, 'ss')
    .toLowerCase()
}

/** The month number of a month name or abbreviation in one of the supported languages. */
export function monthFromName(name: string): number | undefined {
  return monthByName.get(foldText(name).replace(/\.$/, ''))
}
