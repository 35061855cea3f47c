import { describe, expect, it } from 'vitest'
import { addDays } from '../../../../kernel/dates.ts'
import { isCalendarDate, readFirstDate } from './dates.ts'

describe('readFirstDate', () => {
  it.each([
    ['Invoice date: 2026-03-02', 'day_first', '2026-03-02', false],
    ['15.03.2026', 'month_first', '2026-03-15', false],
    ['03.04.2026', 'month_first', '2026-04-03', false],
    ['15/03/2026', 'month_first', '2026-03-15', false],
    ['03/15/2026', 'day_first', '2026-03-15', false],
    ['03/04/2026', 'day_first', '2026-04-03', true],
    ['03/04/2026', 'month_first', '2026-03-04', true],
    ['04/04/2026', 'month_first', '2026-04-04', false],
    ['1/2/26', 'day_first', '2026-02-01', true],
    ['March 2, 2026', 'day_first', '2026-03-02', false],
    ['Mar 2nd 2026', 'day_first', '2026-03-02', false],
    ['2 March 2026', 'month_first', '2026-03-02', false],
    ['15. März 2026', 'day_first', '2026-03-15', false],
    ['5 mars 2026', 'day_first', '2026-03-05', false],
    ['1er avril 2026', 'day_first', '2026-04-01', false],
    ['4 décembre 2026', 'day_first', '2026-12-04', false],
  ] as const)('reads %j (%s) as %s', (text, order, iso, ambiguous) => {
    expect(readFirstDate(text, order)).toMatchObject({ iso, ambiguous })
  })

  it.each([['2026-02-30'], ['31.04.2026'], ['13/13/2026'], ['INV-2026-0042'], ['no date here'], ['1234-56-78']])('finds no date in %j', (text) => {
    expect(readFirstDate(text, 'day_first')).toBeUndefined()
  })
})

describe('calendar helpers', () => {
  it('checks calendar dates', () => {
    expect(isCalendarDate('2028-02-29')).toBe(true)
    expect(isCalendarDate('2026-02-29')).toBe(false)
    expect(isCalendarDate('2026-13-01')).toBe(false)
  })

  it('adds days across months and years', () => {
    expect(addDays('2026-03-02', 30)).toBe('2026-04-01')
    expect(addDays('2026-12-15', 30)).toBe('2027-01-14')
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29')
  })
})
