import { describe, expect, it } from 'vitest'
import { parseLocalizedAmount } from './localized-amount.ts'

describe('parseLocalizedAmount', () => {
  it.each([
    ['1,234.56', '1234.56'],
    ['1.234,56', '1234.56'],
    ['1 234,56', '1234.56'],
    ['1\u202f234,56', '1234.56'],
    ["1'234.56", '1234.56'],
    ['1234.5', '1234.5'],
    ['1234,50', '1234.5'],
    ['1234', '1234'],
    ['1,234', '1234'],
    ['1.234', '1234'],
    ['12.345.678,90', '12345678.9'],
    ['0.90', '0.9'],
    ['0,05', '0.05'],
    ['-45.90', '-45.9'],
    ['0', '0'],
    ['-0.00', '0'],
  ])('reads %j as %j', (text, expected) => {
    expect(parseLocalizedAmount(text)).toBe(expected)
  })

  it.each([
    ['1,234,56'], // a decimal comma after comma grouping
    ['1.234.56'],
    ['1,2345'],
    ['12,34,567.00'], // Indian grouping is not three-digit grouping
    ['1,234.567'],
    ['007.50'],
    ['abc'],
    [''],
    ['1.2.3'],
  ])('refuses %j', (text) => {
    expect(parseLocalizedAmount(text)).toBeUndefined()
  })
})
