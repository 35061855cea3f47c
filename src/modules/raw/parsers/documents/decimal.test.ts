import { describe, expect, it } from 'vitest'
import { addDecimal, canonicalDecimal, compareDecimal, integerUnitsToDecimal, negateDecimal, parseLocalizedAmount, subtractDecimal } from './decimal.ts'

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

describe('decimal arithmetic', () => {
  it.each([
    ['0.1', '0.2', '0.3'],
    ['1250', '106.25', '1356.25'],
    ['-1356.25', '1356.25', '0'],
    ['99999999999999999999.99', '0.01', '100000000000000000000'],
  ])('%s + %s = %s', (left, right, sum) => {
    expect(addDecimal(left, right)).toBe(sum)
  })

  it('subtracts, negates and compares exactly', () => {
    expect(subtractDecimal('1800', '500')).toBe('1300')
    expect(subtractDecimal('0.3', '0.1')).toBe('0.2')
    expect(negateDecimal('12.5')).toBe('-12.5')
    expect(negateDecimal('0')).toBe('0')
    expect(compareDecimal('10.10', '10.1')).toBe(0)
    expect(compareDecimal('9.99', '10')).toBe(-1)
    expect(compareDecimal('-1', '-2')).toBe(1)
  })

  it('canonicalizes', () => {
    expect(canonicalDecimal('1300.00')).toBe('1300')
    expect(canonicalDecimal('-0.0')).toBe('0')
    expect(canonicalDecimal('0.50')).toBe('0.5')
    expect(() => canonicalDecimal('1e3')).toThrow()
    expect(() => canonicalDecimal('01')).toThrow()
  })
})

describe('integerUnitsToDecimal', () => {
  it.each([
    [2500000000n, 6, '2500'],
    [1356250001n, 6, '1356.250001'],
    [1n, 6, '0.000001'],
    [-1356250000n, 6, '-1356.25'],
    [1234567890123456789n, 18, '1.234567890123456789'],
    [100000000000000000001n, 18, '100.000000000000000001'],
    [0n, 18, '0'],
    [42n, 0, '42'],
    [2n ** 256n - 1n, 18, '115792089237316195423570985008687907853269984665640564039457.584007913129639935'],
  ])('%s with %i decimals is %s', (units, decimals, expected) => {
    expect(integerUnitsToDecimal(units, decimals)).toBe(expected)
  })

  it('differs from what a float would give', () => {
    // The float reading of this value drops its last digits; the exact one keeps them.
    expect(String(Number('1234567890123456789') / 1e18)).not.toBe('1.234567890123456789')
    expect(integerUnitsToDecimal(1234567890123456789n, 18)).toBe('1.234567890123456789')
  })
})
