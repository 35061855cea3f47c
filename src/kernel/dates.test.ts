import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { addDays, calendarDate, calendarDateOf, daysBetween, daysInMonth, isCalendarDate, isTimestamp } from './dates.ts'

describe('calendar dates', () => {
  it.each([
    ['2026-02-28', true],
    ['2024-02-29', true],
    ['2000-02-29', true],
    ['0001-01-01', true],
    ['9999-12-31', true],
    ['2026-02-29', false],
    ['1900-02-29', false],
    ['2026-02-30', false],
    ['2026-04-31', false],
    ['2026-13-01', false],
    ['2026-00-10', false],
    ['0000-01-01', false],
    ['2026-1-01', false],
    ['2026-01-01T00:00:00Z', false],
    ['', false],
  ])('%j is a calendar date: %s', (text, valid) => {
    expect(isCalendarDate(text)).toBe(valid)
  })

  it('builds dates from parts, refusing the ones that do not exist', () => {
    expect(calendarDate(26, 3, 1)).toBe('0026-03-01')
    expect(calendarDate(2026, 2, 29)).toBeUndefined()
    expect(calendarDate(10000, 1, 1)).toBeUndefined()
    expect(daysInMonth(2024, 2)).toBe(29)
    expect(daysInMonth(2100, 2)).toBe(28)
  })

  it.each([
    ['2026-03-01T10:00:00Z', true],
    ['2026-03-01 10:00:00.123+05:30', true],
    ['2026-02-30T10:00:00Z', false],
    ['2026-03-01T24:00:00Z', false],
    ['2026-03-01T23:59:60Z', false],
    ['0001-01-01T00:00:00+01:00', false],
    ['2026-03-01', false],
  ])('%j is a timestamp: %s', (text, valid) => {
    expect(isTimestamp(text)).toBe(valid)
  })

  it('reads the calendar date a date or timestamp names, as written', () => {
    expect(calendarDateOf('2026-03-01T23:30:00-05:00')).toBe('2026-03-01')
    expect(calendarDateOf('2026-03-01')).toBe('2026-03-01')
    expect(calendarDateOf('2026-02-30')).toBeUndefined()
    expect(calendarDateOf('yesterday')).toBeUndefined()
  })
})

describe('day arithmetic', () => {
  it.each([
    ['2026-01-31', 1, '2026-02-01'],
    ['2024-02-28', 1, '2024-02-29'],
    ['2026-03-01', -1, '2026-02-28'],
    ['2026-12-31', 1, '2027-01-01'],
    ['2026-03-29', 0, '2026-03-29'],
    ['0001-01-02', -1, '0001-01-01'],
    ['9999-12-30', 1, '9999-12-31'],
  ])('%s + %i days is %s', (day, days, expected) => {
    expect(addDays(day, days)).toBe(expected)
    expect(daysBetween(day, expected)).toBe(days)
  })

  it('refuses what is not a calendar date, a fractional day or a result outside years 0001 to 9999', () => {
    expect(() => addDays('2026-02-30', 1)).toThrow(RangeError)
    expect(() => daysBetween('2026-01-01', 'soon')).toThrow(RangeError)
    expect(() => addDays('2026-01-01', 0.5)).toThrow(RangeError)
    expect(() => addDays('0001-01-01', -1)).toThrow(RangeError)
    expect(() => addDays('9999-12-31', 1)).toThrow(RangeError)
  })

  it('adds and measures consistently (property)', () => {
    const day = fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2199-12-31T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10))
    fc.assert(
      fc.property(day, fc.integer({ min: -20_000, max: 20_000 }), (start, days) => {
        const end = addDays(start, days)
        expect(isCalendarDate(end)).toBe(true)
        expect(daysBetween(start, end)).toBe(days)
        expect(addDays(end, -days)).toBe(start)
      }),
      { numRuns: 2_000 },
    )
  })
})
