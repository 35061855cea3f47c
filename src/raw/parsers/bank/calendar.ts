/**
 * Calendar dates as bank files write them: numeric parts checked against the real calendar (no
 * 2024-02-30 rolling over into March, as `Date.UTC` would), and month names in English, German, French,
 * Spanish and Dutch.
 */

/** `YYYY-MM-DD` when the parts name a real calendar day; undefined otherwise. */
export function isoDate(year: number, month: number, day: number): string | undefined {
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return undefined
  if (year < 1900 || year > 2199 || month < 1 || month > 12 || day < 1) return undefined
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate()
  if (day > daysInMonth) return undefined
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
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

/** Lower case without diacritics (`Août` → `aout`, `März` → `marz`). */
export function foldText(text: string): string {
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
