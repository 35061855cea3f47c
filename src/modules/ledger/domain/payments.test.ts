import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decimalCompare, decimalSum } from '../../../kernel/money.ts'
import { decidePayments, settlingAmounts, type PaymentCandidate } from './payments.ts'

const candidate = (id: string, date: string, amount: string, citesReference = true): PaymentCandidate => ({ id, date, amount, citesReference })

describe('decidePayments', () => {
  it('takes the demo invoice JF-2026-004 (3,413.30) as 1,500.00 then 1,913.30, in either order given', () => {
    const first = candidate('txn_b', '2026-02-10', '1500.00')
    const second = candidate('txn_a', '2026-03-03', '1913.30')
    const expected = [
      { id: 'txn_b', paidInFull: false, settles: false, remaining: '1913.3' },
      { id: 'txn_a', paidInFull: false, settles: true, remaining: '0' },
    ]
    expect(decidePayments('3413.30', [first, second])).toMatchObject(expected)
    expect(decidePayments('3413.30', [second, first])).toMatchObject(expected)
  })

  it.each([
    { name: 'one payment of the whole amount', due: '100', payments: [candidate('t1', '2026-01-05', '100', false)], taken: ['t1:full'] },
    { name: 'the whole amount wins over earlier part payments', due: '100', payments: [candidate('t1', '2026-01-01', '40'), candidate('t2', '2026-01-09', '100')], taken: ['t2:full'] },
    { name: 'the earliest of two whole payments', due: '100', payments: [candidate('t2', '2026-01-09', '100'), candidate('t1', '2026-01-03', '100')], taken: ['t1:full'] },
    { name: 'a part payment must cite the reference', due: '100', payments: [candidate('t1', '2026-01-01', '40', false), candidate('t2', '2026-01-02', '60')], taken: ['t2:part'] },
    { name: 'the rest settles without citing', due: '100', payments: [candidate('t1', '2026-01-01', '40'), candidate('t2', '2026-01-02', '60', false)], taken: ['t1:part', 't2:settles'] },
    { name: 'more than remains is not a payment of it', due: '100', payments: [candidate('t1', '2026-01-01', '70'), candidate('t2', '2026-01-02', '50'), candidate('t3', '2026-01-03', '30')], taken: ['t1:part', 't3:settles'] },
    { name: 'nothing after it is settled', due: '100', payments: [candidate('t1', '2026-01-01', '50'), candidate('t2', '2026-01-02', '50'), candidate('t3', '2026-01-03', '10')], taken: ['t1:part', 't2:settles'] },
    { name: 'same day: by id', due: '100', payments: [candidate('t2', '2026-01-01', '60'), candidate('t1', '2026-01-01', '60')], taken: ['t1:part'] },
    { name: 'nothing due', due: '0', payments: [candidate('t1', '2026-01-01', '0')], taken: [] },
  ])('$name', ({ due, payments, taken }) => {
    expect(decidePayments(due, payments).map((decision) => `${decision.id}:${decision.paidInFull ? 'full' : decision.settles ? 'settles' : 'part'}`)).toEqual(taken)
  })

  const cents = fc.integer({ min: 1, max: 50_000 }).map((value) => (value / 100).toFixed(2))
  const payments = fc.uniqueArray(
    fc.record({ id: fc.stringMatching(/^txn_[a-z0-9]{1,6}$/), date: fc.integer({ min: 1, max: 28 }).map((day) => `2026-02-${String(day).padStart(2, '0')}`), amount: cents, citesReference: fc.boolean() }),
    { selector: (payment) => payment.id, maxLength: 8 },
  )

  it('depends on the set of payments, never their order, and never takes more than is due', () => {
    fc.assert(
      fc.property(cents, payments, fc.func(fc.integer()), (due, given, shuffleKey) => {
        const shuffled = [...given].sort((left, right) => shuffleKey(left.id) - shuffleKey(right.id))
        const decided = decidePayments(due, given)
        expect(decidePayments(due, shuffled)).toEqual(decided)
        const paid = decimalSum(decided.map((decision) => given.find((payment) => payment.id === decision.id)!.amount))
        expect(decimalCompare(paid, due)).toBeLessThanOrEqual(0)
        expect(decided.some((decision) => decision.settles)).toBe(decimalCompare(paid, due) === 0)
        decided.forEach((decision, index) => {
          const payment = given.find((row) => row.id === decision.id)!
          if (!decision.settles) expect(payment.citesReference).toBe(true)
          expect(decision.settles).toBe(index === decided.length - 1 && decision.remaining === '0')
        })
      }),
    )
  })

  it('only ever settles with an amount settlingAmounts names', () => {
    fc.assert(
      fc.property(cents, payments, (due, given) => {
        const amounts = settlingAmounts(due, given.filter((payment) => payment.citesReference))
        const settling = decidePayments(due, given).find((decision) => decision.settles)
        if (settling === undefined) return
        const amount = given.find((payment) => payment.id === settling.id)!.amount
        expect(amounts.some((candidateAmount) => decimalCompare(candidateAmount, amount) === 0)).toBe(true)
      }),
    )
  })
})
