import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  canonicalDecimal,
  decimalAbs,
  decimalAdd,
  decimalCompare,
  decimalNegate,
  decimalSign,
  decimalSubtract,
  decimalSum,
  formatAmount,
  formatScaled,
  fromMinorUnits,
  integerUnitsToDecimal,
  isCanonicalDecimal,
  isDecimal,
  parseScaled,
  toMinorUnits,
} from './money.ts'

/** Decimal strings as sources write them: signs, leading zeros, any scale, `-0`, `0.000`. */
const decimal = fc
  .tuple(fc.boolean(), fc.stringMatching(/^[0-9]{1,12}$/), fc.option(fc.stringMatching(/^[0-9]{1,8}$/), { nil: undefined }))
  .map(([negative, whole, fraction]) => `${negative ? '-' : ''}${whole}${fraction === undefined ? '' : `.${fraction}`}`)

/** The sign of a canonical decimal string. */
const signOfCanonical = (canonical: string) => (canonical.startsWith('-') ? -1 : canonical === '0' ? 0 : 1)

describe('decimal arithmetic', () => {
  it('sums, subtracts and formats canonically', () => {
    expect(decimalSum(['1.10', '-0.1', '002'])).toBe('3')
    expect(decimalSubtract('-12.5', '0.50')).toBe('-13')
    expect(decimalSum(['-0.00'])).toBe('0')
    expect(decimalAbs('-0012.340')).toBe('12.34')
    expect(decimalNegate('-0')).toBe('0')
  })

  it('compares as the sign of the exact difference, at any scales', () => {
    fc.assert(
      fc.property(decimal, decimal, (a, b) => {
        expect(decimalCompare(a, b)).toBe(signOfCanonical(decimalSubtract(a, b)))
        expect(decimalCompare(b, a)).toBe(-decimalCompare(a, b) || 0)
      }),
      { numRuns: 2_000 },
    )
    expect(decimalCompare('1.50', '1.5')).toBe(0)
    expect(decimalCompare('-0.001', '0')).toBe(-1)
  })

  it('gives the sign of a value, -0 and 0.000 included', () => {
    fc.assert(
      fc.property(decimal, (a) => {
        expect(decimalSign(a)).toBe(signOfCanonical(decimalSum([a])))
      }),
      { numRuns: 2_000 },
    )
    expect([decimalSign('-0'), decimalSign('0.000'), decimalSign('-0.01'), decimalSign(' 7 ')]).toEqual([0, 0, -1, 1])
  })

  it('refuses what is not a decimal', () => {
    for (const bad of ['', '1e5', '1.', '.5', '--1', 'NaN', '1,5']) {
      expect(() => decimalSign(bad)).toThrow(TypeError)
      expect(() => decimalCompare('1', bad)).toThrow(TypeError)
    }
  })
})

describe('canonical form', () => {
  it.each([
    ['1300.00', '1300'],
    ['-0.0', '0'],
    ['0.50', '0.5'],
    ['-0012.340', '-12.34'],
    [' 7 ', '7'],
    ['000', '0'],
  ])('%j is %j', (value, canonical) => {
    expect(canonicalDecimal(value)).toBe(canonical)
    expect(isCanonicalDecimal(canonical)).toBe(true)
  })

  it.each(['1e3', '', '1.', '.5', '+1', '1,5', 'NaN', '1'.repeat(101)])('refuses %j', (value) => {
    expect(isDecimal(value)).toBe(false)
    expect(() => canonicalDecimal(value)).toThrow(TypeError)
  })

  it.each(['01', '1.50', '-0', '0.0', ' 1'])('%j is a decimal but not canonical', (value) => {
    expect(isDecimal(value)).toBe(true)
    expect(isCanonicalDecimal(value)).toBe(false)
  })

  it('is the value of the exact sum of itself (property)', () => {
    fc.assert(
      fc.property(decimal, (a) => {
        expect(canonicalDecimal(a)).toBe(decimalSum([a]))
        expect(isCanonicalDecimal(canonicalDecimal(a))).toBe(true)
      }),
      { numRuns: 2_000 },
    )
  })
})

describe('exact arithmetic', () => {
  it.each([
    ['0.1', '0.2', '0.3'],
    ['1250', '106.25', '1356.25'],
    ['-1356.25', '1356.25', '0'],
    ['99999999999999999999.99', '0.01', '100000000000000000000'],
  ])('%s + %s = %s', (left, right, sum) => {
    expect(decimalAdd(left, right)).toBe(sum)
    expect(decimalSubtract(sum, right)).toBe(canonicalDecimal(left))
  })

  it('agrees with bigint arithmetic at a common scale (property)', () => {
    const scaled = fc.tuple(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: 0, max: 18 }))
    fc.assert(
      fc.property(scaled, scaled, ([a, aScale], [b, bScale]) => {
        const scale = Math.max(aScale, bScale)
        const left = formatScaled(a, aScale)
        const right = formatScaled(b, bScale)
        const at = (units: bigint, from: number) => units * 10n ** BigInt(scale - from)
        expect(decimalAdd(left, right)).toBe(formatScaled(at(a, aScale) + at(b, bScale), scale))
        expect(decimalSubtract(left, right)).toBe(formatScaled(at(a, aScale) - at(b, bScale), scale))
        const difference = at(a, aScale) - at(b, bScale)
        expect(decimalCompare(left, right)).toBe(difference < 0n ? -1 : difference > 0n ? 1 : 0)
        const read = parseScaled(left)
        expect(read.units * 10n ** BigInt(aScale - read.scale)).toBe(a)
      }),
      { numRuns: 1_000 },
    )
  })

  it('negates and takes absolute values canonically', () => {
    fc.assert(
      fc.property(decimal, (a) => {
        expect(decimalSum([a, decimalNegate(a)])).toBe('0')
        expect(decimalAbs(a)).toBe(decimalSign(a) < 0 ? decimalNegate(a) : canonicalDecimal(a))
      }),
      { numRuns: 1_000 },
    )
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
    expect(String(Number('1234567890123456789') / 1e18)).not.toBe('1.234567890123456789')
    expect(integerUnitsToDecimal(1234567890123456789n, 18)).toBe('1.234567890123456789')
  })
})

describe('formatAmount: a decimal string at its currency\'s scale', () => {
  it.each([
    ['1410', 'USDC', '1410.000000'],
    ['1595.37', 'USDC', '1595.370000'],
    ['0', 'EUR', '0.00'],
    ['-0', 'EUR', '0.00'],
    ['-12.5', 'EUR', '-12.50'],
    ['0012.340', 'USD', '12.34'],
    ['1500', 'JPY', '1500'],
    ['1500.00', 'JPY', '1500'],
    ['10.125', 'KWD', '10.125'],
    ['1', 'ETH', '1.000000000000000000'],
    ['3', 'XYZ', '3.00'],
    ['3.14159', 'WBTC', '3.14159'],
    // Never rounded: a digit beyond the scale that is not zero stays.
    ['12.345', 'EUR', '12.345'],
    ['12.3450', 'EUR', '12.345'],
    ['1500.5', 'JPY', '1500.5'],
  ])('%s %s is %s', (value, currency, expected) => {
    expect(formatAmount(value, currency)).toBe(expected)
  })

  it('keeps the value, writes at least the scale, and is idempotent (property)', () => {
    fc.assert(
      fc.property(decimal, fc.constantFrom('EUR', 'USD', 'JPY', 'KWD', 'USDC', 'ETH', 'XYZ'), (value, currency) => {
        const formatted = formatAmount(value, currency)
        expect(decimalCompare(formatted, value)).toBe(0)
        expect(formatAmount(formatted, currency)).toBe(formatted)
        expect(formatted).toMatch(/^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/)
        expect(formatted).not.toMatch(/^-0(\.0*)?$/)
      }),
      { numRuns: 2_000 },
    )
  })

  it('refuses what is not a decimal', () => {
    expect(() => formatAmount('1e3', 'EUR')).toThrow(TypeError)
  })
})

describe('minor units', () => {
  it.each([
    ['12.5', 'EUR', 1250n],
    ['1410', 'USDC', 1410000000n],
    ['-0.01', 'USD', -1n],
    ['1500', 'JPY', 1500n],
    ['12.3400', 'EUR', 1234n],
  ])('%s %s is %s minor units', (value, currency, units) => {
    expect(toMinorUnits(value, currency)).toBe(units)
    expect(fromMinorUnits(units, currency)).toBe(formatAmount(value, currency))
  })

  it('refuses digits beyond the scale rather than rounding', () => {
    expect(() => toMinorUnits('12.345', 'EUR')).toThrow(RangeError)
    expect(() => toMinorUnits('0.5', 'JPY')).toThrow(RangeError)
  })

  it('round-trips any number of minor units (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.constantFrom('EUR', 'JPY', 'KWD', 'USDC', 'ETH'), (units, currency) => {
        expect(toMinorUnits(fromMinorUnits(units, currency), currency)).toBe(units)
      }),
    )
  })
})
