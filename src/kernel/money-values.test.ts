import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { currencyMinorUnits } from './currencies.ts'
import { compareMoney, parseMoney } from './money.ts'

describe('currencyMinorUnits (the table money values are read with)', () => {
  it.each([
    ['USD', 2],
    ['EUR', 2],
    ['JPY', 0],
    ['KWD', 3],
    ['BHD', 3],
    ['USDC', 6],
    ['USDT', 6],
    // ICU would answer 2 for ETH (a well-formed code it does not know); the table knows the token.
    ['ETH', 18],
    // Unknown symbols and unknown three-letter codes keep the digits as written.
    ['ABC', undefined],
    ['WBTC', undefined],
    ['constructor', undefined],
  ])('%s has %s digits', (currency, digits) => {
    expect(currencyMinorUnits(currency)).toBe(digits)
  })
})

describe('compareMoney', () => {
  it.each([
    [{ currency: 'USD', value: '10.5' }, { currency: 'USD', value: '10.50' }, 0],
    [{ currency: 'USD', value: '0' }, { currency: 'USD', value: '0.00' }, 0],
    [{ currency: 'USD', value: '007' }, { currency: 'USD', value: '7' }, 0],
    [{ currency: 'JPY', value: '999' }, { currency: 'JPY', value: '1000' }, -1],
    [{ currency: 'KWD', value: '1.001' }, { currency: 'KWD', value: '1' }, 1],
    [{ currency: 'USDC', value: '0.000001' }, { currency: 'USDC', value: '0' }, 1],
    [{ currency: 'ETH', value: '123456789.123456789123456789' }, { currency: 'ETH', value: '123456789.123456789123456788' }, 1],
    [{ currency: 'ABC', value: '1.5' }, { currency: 'ABC', value: '1.4999999' }, 1],
  ])('%j vs %j → %s', (left, right, order) => {
    expect(compareMoney(left, right)).toEqual({ status: 'compared', order })
  })

  it('reports a currency mismatch, never an order', () => {
    expect(compareMoney({ currency: 'USD', value: '1' }, { currency: 'USDC', value: '1' })).toEqual({ status: 'currency_mismatch', left: 'USD', right: 'USDC' })
  })

  it('names the malformed side', () => {
    expect(compareMoney({ currency: 'USD', value: '1.001' }, { currency: 'USD', value: '1' })).toEqual({
      status: 'malformed',
      side: 'left',
      reason: 'value "1.001" has 3 fraction digits; USD has 2',
    })
    expect(compareMoney({ currency: 'USD', value: '1' }, { currency: 'USD', value: '.5' })).toMatchObject({ status: 'malformed', side: 'right' })
  })

  it('agrees with bigint arithmetic on minor units, for any amounts (property)', () => {
    const format = (units: bigint, digits: number) => {
      const text = units.toString().padStart(digits + 1, '0')
      return digits === 0 ? text : `${text.slice(0, -digits)}.${text.slice(-digits)}`
    }
    fc.assert(
      fc.property(fc.constantFrom(['USD', 2], ['JPY', 0], ['KWD', 3], ['USDC', 6], ['ETH', 18]), fc.bigInt({ min: 0n, max: 10n ** 24n }), fc.bigInt({ min: 0n, max: 10n ** 24n }), ([currency, digits], left, right) => {
        const result = compareMoney({ currency: currency as string, value: format(left, digits as number) }, { currency: currency as string, value: format(right, digits as number) })
        expect(result).toEqual({ status: 'compared', order: left < right ? -1 : left > right ? 1 : 0 })
      }),
    )
  })

  it('never throws on anything (property)', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const result = parseMoney(value)
        expect(typeof result.ok).toBe('boolean')
      }),
    )
  })
})
