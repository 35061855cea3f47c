import { describe, expect, it } from 'vitest'
import { addDecimals, formatDecimal, parsePlainDecimal, subtractDecimals } from './decimal.ts'

describe('formatDecimal', () => {
  it.each([
    [{ negative: false, integer: '12', fraction: '5' }, 'EUR', '12.50'],
    [{ negative: true, integer: '0012', fraction: '34' }, 'EUR', '-12.34'],
    [{ negative: false, integer: '', fraction: '99' }, 'USD', '0.99'],
    [{ negative: true, integer: '0', fraction: '00' }, 'EUR', '0.00'],
    [{ negative: false, integer: '1500', fraction: '' }, 'JPY', '1500'],
    [{ negative: false, integer: '1500', fraction: '0' }, 'JPY', '1500'],
    [{ negative: false, integer: '10', fraction: '125' }, 'KWD', '10.125'],
    [{ negative: false, integer: '12', fraction: '3400' }, 'EUR', '12.34'],
    [{ negative: false, integer: '12', fraction: '345' }, 'EUR', '12.345'],
    [{ negative: false, integer: '1', fraction: '50' }, 'USDC', '1.500000'],
    [{ negative: false, integer: '1', fraction: '5' }, 'XYZ', '1.50'],
    [{ negative: false, integer: '1', fraction: '50' }, undefined, '1.50'],
    [{ negative: false, integer: '7', fraction: '' }, undefined, '7'],
  ])('%o in %s is %s', (parts, currency, expected) => {
    expect(formatDecimal(parts, currency)).toBe(expected)
  })
})

describe('parsePlainDecimal', () => {
  it.each([
    ['-54.99', { negative: true, integer: '54', fraction: '99' }],
    ['+2315.40', { negative: false, integer: '2315', fraction: '40' }],
    ['71,39', { negative: false, integer: '71', fraction: '39' }],
    ['71,', { negative: false, integer: '71', fraction: '' }],
    ['.5', { negative: false, integer: '', fraction: '5' }],
  ])('reads %s', (text, parts) => {
    expect(parsePlainDecimal(text)).toEqual(parts)
  })

  it.each(['', '-', '1,234.56', '12a', '1e5', '--1', '1'.repeat(41)])('refuses %j', (text) => {
    expect(parsePlainDecimal(text)).toBeUndefined()
  })
})

describe('addDecimals and subtractDecimals', () => {
  it.each([
    ['38195.01', '54.99', 'USD', '38250.00', '38140.02'],
    ['0.10', '0.20', 'EUR', '0.30', '-0.10'],
    ['-12.90', '-12.90', 'EUR', '-25.80', '0.00'],
    ['10.125', '0.005', 'KWD', '10.130', '10.120'],
  ])('%s and %s (%s)', (a, b, currency, sum, difference) => {
    expect(addDecimals(a, b, currency)).toBe(sum)
    expect(subtractDecimals(a, b, currency)).toBe(difference)
  })
})
