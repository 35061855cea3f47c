/**
 * Periods named in a question ("last month", "in March 2026", "Q1 2026", "last quarter", "this year",
 * "the last 30 days", "between 2026-01-01 and 2026-01-31"…), resolved against a reference day (the
 * question's as_of, or now) into inclusive calendar-day ranges. Pure: the same text and reference day
 * always give the same period.
 */

export interface Period {
  /** First day, inclusive (YYYY-MM-DD). */
  readonly from: string
  /** Last day, inclusive (YYYY-MM-DD). */
  readonly to: string
  /** How the question named it, normalized ("March 2026", "Q1 2026", "last month (2026-10)"). */
  readonly label: string
  /** The unit, so "the period before" is the same kind of period. */
  readonly unit: 'day' | 'month' | 'quarter' | 'year' | 'days'
}

/** A period found in the text, with where it was found (to tell two periods apart by order). */
export interface FoundPeriod extends Period {
  readonly index: number
  readonly length: number
}

const months = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'] as const
const monthShort = months.map((month) => month.slice(0, 3))
const monthPattern = `(${months.join('|')}|${monthShort.filter((m) => m !== 'may').join('|')}|sept)`

const pad = (n: number, width = 2) => String(n).padStart(width, '0')
export const dayString = (year: number, month: number, day: number) => `${pad(year, 4)}-${pad(month)}-${pad(day)}`
const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate()

function parts(day: string): { year: number; month: number; day: number } {
  const [year, month, d] = day.split('-').map(Number) as [number, number, number]
  return { year, month, day: d }
}

/** The day `n` days after (negative: before) `day`. */
export function addDays(day: string, n: number): string {
  const date = new Date(`${day}T00:00:00Z`)
  date.setUTCDate(date.getUTCDate() + n)
  return date.toISOString().slice(0, 10)
}

function monthPeriod(year: number, month: number, label?: string): Period {
  return { from: dayString(year, month, 1), to: dayString(year, month, daysIn(year, month)), label: label ?? `${capital(months[month - 1]!)} ${year}`, unit: 'month' }
}

function quarterPeriod(year: number, quarter: number, label?: string): Period {
  const first = (quarter - 1) * 3 + 1
  return { from: dayString(year, first, 1), to: dayString(year, first + 2, daysIn(year, first + 2)), label: label ?? `Q${quarter} ${year}`, unit: 'quarter' }
}

function yearPeriod(year: number, label?: string): Period {
  return { from: dayString(year, 1, 1), to: dayString(year, 12, 31), label: label ?? String(year), unit: 'year' }
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

function monthNumber(name: string): number {
  const short = name.slice(0, 3)
  return monthShort.indexOf(short) + 1
}

const isDay = (text: string) => /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(new Date(`${text}T00:00:00Z`).getTime()) && new Date(`${text}T00:00:00Z`).toISOString().slice(0, 10) === text

interface Rule {
  readonly pattern: RegExp
  readonly resolve: (match: RegExpExecArray, reference: string) => Period | undefined
}

const rules: readonly Rule[] = [
  {
    pattern: /\b(?:between|from)\s+(\d{4}-\d{2}-\d{2})\s+(?:and|to|until|through)\s+(\d{4}-\d{2}-\d{2})\b/g,
    resolve: (m) => (isDay(m[1]!) && isDay(m[2]!) && m[1]! <= m[2]! ? { from: m[1]!, to: m[2]!, label: `${m[1]} to ${m[2]}`, unit: 'days' } : undefined),
  },
  { pattern: /\bon\s+(\d{4}-\d{2}-\d{2})\b/g, resolve: (m) => (isDay(m[1]!) ? { from: m[1]!, to: m[1]!, label: m[1]!, unit: 'day' } : undefined) },
  {
    pattern: /\b(?:q([1-4])\s+(\d{4})|(\d{4})\s+q([1-4])|(first|second|third|fourth)\s+quarter\s+(?:of\s+)?(\d{4}))\b/g,
    resolve: (m) => {
      const quarter = m[1] ?? m[4] ?? String(['first', 'second', 'third', 'fourth'].indexOf(m[5] ?? '') + 1)
      const year = m[2] ?? m[3] ?? m[6]
      return quarterPeriod(Number(year), Number(quarter))
    },
  },
  {
    pattern: /\b(this|current|last|previous|next)\s+quarter\b/g,
    resolve: (m, reference) => {
      const { year, month } = parts(reference)
      const quarter = Math.floor((month - 1) / 3) + 1
      if (m[1] === 'this' || m[1] === 'current') {
        const whole = quarterPeriod(year, quarter)
        return { ...whole, to: reference, label: `this quarter (Q${quarter} ${year} to ${reference})` }
      }
      const shift = m[1] === 'next' ? 1 : -1
      const index = year * 4 + (quarter - 1) + shift
      const q = quarterPeriod(Math.floor(index / 4), (index % 4) + 1)
      return { ...q, label: `${m[1]} quarter (${q.label})` }
    },
  },
  {
    pattern: new RegExp(`\\b${monthPattern}\\.?\\s+(?:of\\s+)?(\\d{4})\\b`, 'g'),
    resolve: (m) => monthPeriod(Number(m[2]), monthNumber(m[1]!)),
  },
  {
    pattern: /\b(\d{4})-(\d{2})\b(?!-)/g,
    resolve: (m) => (Number(m[2]) >= 1 && Number(m[2]) <= 12 ? monthPeriod(Number(m[1]), Number(m[2])) : undefined),
  },
  {
    pattern: /\b(this|current|last|previous|next)\s+month\b/g,
    resolve: (m, reference) => {
      const { year, month } = parts(reference)
      if (m[1] === 'this' || m[1] === 'current') {
        const whole = monthPeriod(year, month)
        return { ...whole, to: reference, label: `this month (${whole.from.slice(0, 7)} to ${reference})` }
      }
      const index = year * 12 + (month - 1) + (m[1] === 'next' ? 1 : -1)
      const p = monthPeriod(Math.floor(index / 12), (index % 12) + 1)
      return { ...p, label: `${m[1]} month (${p.label})` }
    },
  },
  {
    pattern: /\b(this|current|last|previous)\s+year\b|\byear[ -]to[ -]date\b|\bytd\b/g,
    resolve: (m, reference) => {
      const { year } = parts(reference)
      if (m[1] === 'last' || m[1] === 'previous') return yearPeriod(year - 1, `last year (${year - 1})`)
      return { ...yearPeriod(year), to: reference, label: `this year (${year}-01-01 to ${reference})` }
    },
  },
  {
    pattern: /\b(?:in|during|for|of)\s+(\d{4})\b(?!-)/g,
    resolve: (m) => yearPeriod(Number(m[1])),
  },
  {
    pattern: /\b(?:last|past|previous)\s+(\d{1,3})\s+days\b/g,
    resolve: (m, reference) => {
      const n = Number(m[1])
      if (n < 1 || n > 366) return undefined
      return { from: addDays(reference, -(n - 1)), to: reference, label: `the last ${n} days (${addDays(reference, -(n - 1))} to ${reference})`, unit: 'days' }
    },
  },
  {
    pattern: /\bnext\s+(\d{1,3})\s+days\b/g,
    resolve: (m, reference) => {
      const n = Number(m[1])
      if (n < 1 || n > 366) return undefined
      return { from: reference, to: addDays(reference, n), label: `the next ${n} days (to ${addDays(reference, n)})`, unit: 'days' }
    },
  },
  { pattern: /\btoday\b/g, resolve: (_m, reference) => ({ from: reference, to: reference, label: `today (${reference})`, unit: 'day' }) },
  { pattern: /\byesterday\b/g, resolve: (_m, reference) => ({ from: addDays(reference, -1), to: addDays(reference, -1), label: `yesterday (${addDays(reference, -1)})`, unit: 'day' }) },
  {
    // A month without a year: the latest such month that has begun by the reference day.
    pattern: new RegExp(`\\b(?:in|during|for|of|since)\\s+${monthPattern}\\b(?!\\.?\\s+(?:of\\s+)?\\d{4})`, 'g'),
    resolve: (m, reference) => {
      const { year, month } = parts(reference)
      const wanted = monthNumber(m[1]!)
      const p = monthPeriod(wanted <= month ? year : year - 1, wanted)
      return p
    },
  },
]

/** Every period the text names, in the order they appear; overlapping mentions keep the first rule's. */
export function findPeriods(text: string, reference: string): FoundPeriod[] {
  const lower = text.toLowerCase()
  const found: FoundPeriod[] = []
  for (const rule of rules) {
    rule.pattern.lastIndex = 0
    for (let m = rule.pattern.exec(lower); m !== null; m = rule.pattern.exec(lower)) {
      const overlaps = found.some((f) => m!.index < f.index + f.length && f.index < m!.index + m![0].length)
      if (overlaps) continue
      const period = rule.resolve(m, reference)
      if (period !== undefined) found.push({ ...period, index: m.index, length: m[0].length })
    }
  }
  return found.sort((a, b) => a.index - b.index)
}

/** The period of the same kind just before `period` (the month, quarter or year before; else the same number of days). */
export function previousPeriod(period: Period): Period {
  const { year, month } = parts(period.from)
  switch (period.unit) {
    case 'month': {
      const index = year * 12 + (month - 1) - 1
      return monthPeriod(Math.floor(index / 12), (index % 12) + 1)
    }
    case 'quarter': {
      const quarter = Math.floor((month - 1) / 3) + 1
      const index = year * 4 + (quarter - 1) - 1
      return quarterPeriod(Math.floor(index / 4), (index % 4) + 1)
    }
    case 'year':
      return yearPeriod(year - 1)
    default: {
      const days = Math.round((new Date(`${period.to}T00:00:00Z`).getTime() - new Date(`${period.from}T00:00:00Z`).getTime()) / 86_400_000) + 1
      const to = addDays(period.from, -1)
      const from = addDays(to, -(days - 1))
      return { from, to, label: `${from} to ${to}`, unit: 'days' }
    }
  }
}
