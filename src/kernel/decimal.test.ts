import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decimalAbs, decimalCompare, decimalNegate, decimalSign, decimalSubtract, decimalSum } from './decimal.ts'

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
