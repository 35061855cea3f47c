import { describe, expect, it } from 'vitest'
import { currencyMinorUnits, currencyScale, isCurrencyCode, isIsoCurrency, isKnownCurrency, knownCurrencyCodes, unknownCurrencyScale } from './currencies.ts'

describe('the currency table', () => {
  it.each([
    ['EUR', 2],
    ['USD', 2],
    ['JPY', 0],
    ['KRW', 0],
    ['KWD', 3],
    ['BHD', 3],
    ['CLF', 4],
    // ISO 4217, where ICU's formatting data says 0.
    ['HUF', 2],
    ['IDR', 2],
    ['COP', 2],
    ['IQD', 3],
    ['USDC', 6],
    ['USDT', 6],
    ['ETH', 18],
  ])('%s has %i minor-unit digits', (code, digits) => {
    expect(currencyMinorUnits(code)).toBe(digits)
    expect(currencyScale(code)).toBe(digits)
    expect(isKnownCurrency(code)).toBe(true)
  })

  it.each(['XYZ', 'WBTC', 'XXX', 'XAU', 'eur', 'constructor', '__proto__', 'toString', ''])('%j is not in the table', (code) => {
    expect(currencyMinorUnits(code)).toBeUndefined()
    expect(isKnownCurrency(code)).toBe(false)
  })

  it('gives a well-formed unknown code the default scale', () => {
    expect(unknownCurrencyScale).toBe(2)
    expect(currencyScale('XYZ')).toBe(2)
    expect(currencyScale('WBTC')).toBe(2)
  })

  it('tells ISO 4217 fiat from tokens', () => {
    expect(isIsoCurrency('EUR')).toBe(true)
    expect(isIsoCurrency('USDC')).toBe(false)
    expect(isIsoCurrency('XYZ')).toBe(false)
  })

  it.each([
    ['EUR', true],
    ['USDC', true],
    ['ETH', true],
    ['X1', true],
    ['E', false],
    ['eur', false],
    ['ABCDEFGHIJK', false],
    ['US D', false],
  ])('%j is a well-formed code: %s', (text, wellFormed) => {
    expect(isCurrencyCode(text)).toBe(wellFormed)
  })

  it('holds every code once, each well-formed, with a scale from 0 to 18', () => {
    const codes = knownCurrencyCodes()
    expect(new Set(codes).size).toBe(codes.length)
    for (const code of codes) {
      expect(isCurrencyCode(code), code).toBe(true)
      expect(currencyMinorUnits(code), code).toBeGreaterThanOrEqual(0)
      expect(currencyMinorUnits(code), code).toBeLessThanOrEqual(18)
    }
  })

  it('knows every currency Node\'s ICU knows as active, except the ones ISO gives no minor units', () => {
    const withoutMinorUnits = new Set(['XDR', 'XSU'])
    const missing = Intl.supportedValuesOf('currency').filter((code) => !withoutMinorUnits.has(code) && !isIsoCurrency(code))
    expect(missing).toEqual([])
  })
})
