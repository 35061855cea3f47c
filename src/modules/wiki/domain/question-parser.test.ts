import { describe, expect, it } from 'vitest'
import { meanOf, numbersGrounded } from './answer.ts'
import { findPeriods, previousPeriod } from './periods.ts'
import { parseQuestion } from './question-parser.ts'
import { validQuery } from './question-query.ts'

const reference = '2026-04-10'
const period = (text: string) => findPeriods(text, reference).map(({ from, to }) => [from, to])

describe('periods, relative to the reference day', () => {
  it.each([
    ['last month', [['2026-03-01', '2026-03-31']]],
    ['this month', [['2026-04-01', '2026-04-10']]],
    ['in March 2026', [['2026-03-01', '2026-03-31']]],
    ['in march', [['2026-03-01', '2026-03-31']]],
    ['in may', [['2025-05-01', '2025-05-31']]],
    ['Q1 2026', [['2026-01-01', '2026-03-31']]],
    ['2025 q4', [['2025-10-01', '2025-12-31']]],
    ['the first quarter of 2026', [['2026-01-01', '2026-03-31']]],
    ['last quarter', [['2026-01-01', '2026-03-31']]],
    ['this quarter', [['2026-04-01', '2026-04-10']]],
    ['this year', [['2026-01-01', '2026-04-10']]],
    ['last year', [['2025-01-01', '2025-12-31']]],
    ['in 2025', [['2025-01-01', '2025-12-31']]],
    ['2026-02', [['2026-02-01', '2026-02-28']]],
    ['the last 7 days', [['2026-04-04', '2026-04-10']]],
    ['the next 30 days', [['2026-04-10', '2026-05-10']]],
    ['between 2026-01-05 and 2026-01-09', [['2026-01-05', '2026-01-09']]],
    ['on 2026-03-12', [['2026-03-12', '2026-03-12']]],
    ['yesterday', [['2026-04-09', '2026-04-09']]],
    ['between January 2026 and February 2026', [['2026-01-01', '2026-01-31'], ['2026-02-01', '2026-02-28']]],
    ['what was spent', []],
  ])('%s', (text, expected) => {
    expect(period(text)).toEqual(expected)
  })

  it('last month in January is December of the year before; the period before a quarter is the quarter before', () => {
    expect(findPeriods('last month', '2026-01-15').map((p) => [p.from, p.to])).toEqual([['2025-12-01', '2025-12-31']])
    const [q1] = findPeriods('Q1 2026', reference)
    expect(previousPeriod(q1!)).toMatchObject({ from: '2025-10-01', to: '2025-12-31' })
    const [days] = findPeriods('between 2026-01-05 and 2026-01-09', reference)
    expect(previousPeriod(days!)).toMatchObject({ from: '2025-12-31', to: '2026-01-04' })
  })
})

describe('parseQuestion', () => {
  it('the five prompt families', () => {
    expect(parseQuestion('What was our cash flow last month?', reference)).toMatchObject({ ok: true, template: 'cash_flow_summary', query: { kind: 'cash_flow', scope: { from: '2026-03-01', to: '2026-03-31', direction: null } } })
    expect(parseQuestion('Which bills are due in the next 30 days?', reference)).toMatchObject({ ok: true, template: 'bills_due', query: { kind: 'bills_due', on: reference, to: '2026-05-10' } })
    expect(parseQuestion('What changed in our card spending last month?', reference)).toMatchObject({
      ok: true,
      template: 'spending_change',
      query: { kind: 'spending_change', scope: { from: '2026-03-01', to: '2026-03-31', direction: 'outflow' }, compare_to: { from: '2026-02-01', to: '2026-02-28' } },
    })
    expect(parseQuestion('Which invoices are overdue?', reference)).toMatchObject({ ok: true, template: 'overdue_invoices', query: { kind: 'invoices', direction: 'receivable', state: 'overdue', on: reference } })
    expect(parseQuestion('What subscriptions do we have?', reference)).toMatchObject({ ok: true, template: 'subscriptions', query: { kind: 'subscriptions' } })
  })

  it('totals, counts, averages and listings with their scope', () => {
    expect(parseQuestion('What did we spend on software last quarter?', reference)).toMatchObject({
      ok: true,
      template: 'spending_total',
      query: { kind: 'transaction_aggregate', measure: 'total', scope: { from: '2026-01-01', to: '2026-03-31', direction: 'outflow' } },
      names: { party: 'software' },
    })
    expect(parseQuestion('How much did we pay to Hanse Rohkaffee in Q1 2026?', reference)).toMatchObject({ ok: true, names: { party: 'hanse rohkaffee' } })
    expect(parseQuestion('How much did we receive in USDC this year?', reference)).toMatchObject({ ok: true, template: 'income_total', query: { scope: { currency: 'USDC', direction: 'inflow' } } })
    expect(parseQuestion('How many transactions were there last month?', reference)).toMatchObject({ ok: true, query: { measure: 'count', scope: { direction: null } } })
    expect(parseQuestion('What was our average payment this year?', reference)).toMatchObject({ ok: true, query: { measure: 'average', scope: { direction: 'outflow' } } })
    expect(parseQuestion('List our transactions last month', reference)).toMatchObject({ ok: true, query: { kind: 'transaction_list', limit: 50 } })
    expect(parseQuestion('What is the status of invoice JF-2026-007?', reference)).toMatchObject({ ok: true, query: { kind: 'invoices', invoice_number: 'JF-2026-007' } })
    expect(parseQuestion('Which bills are unpaid?', reference)).toMatchObject({ ok: true, query: { kind: 'invoices', direction: 'payable', state: 'open' } })
  })

  it('never guesses: no period, no direction, not understood', () => {
    expect(parseQuestion('How much did we spend?', reference)).toMatchObject({ ok: false, reason: 'period_missing' })
    expect(parseQuestion('What was the total of our transactions last month?', reference)).toMatchObject({ ok: false, reason: 'direction_missing' })
    expect(parseQuestion('Is our coffee good?', reference)).toMatchObject({ ok: false, reason: 'not_understood' })
    expect(parseQuestion('How much did we spend in January 2026, February 2026 and March 2026?', reference)).toMatchObject({ ok: false, reason: 'too_many_periods' })
  })

  it('is deterministic and every query it makes is valid', () => {
    for (const question of ['What was our cash flow last month?', 'Which bills are due this month?', 'How did spending change in Q1 2026?', 'Which invoices are unpaid?', 'What subscriptions do we pay for?', 'List our payments in March 2026']) {
      const parsed = parseQuestion(question, reference)
      expect(parsed).toEqual(parseQuestion(question, reference))
      expect(parsed.ok && validQuery(parsed.query)).toBe(true)
    }
  })
})

describe('validQuery', () => {
  it('refuses extra fields, bad days, reversed and oversized periods', () => {
    const scope = { from: '2026-01-01', to: '2026-01-31', direction: 'outflow', account_id: null, counterparty_id: null, category_id: null, currency: null }
    expect(validQuery({ kind: 'transaction_aggregate', measure: 'total', scope })).toBe(true)
    expect(validQuery({ kind: 'transaction_aggregate', measure: 'total', scope, sql: 'drop table' })).toBe(false)
    expect(validQuery({ kind: 'transaction_aggregate', measure: 'median', scope })).toBe(false)
    expect(validQuery({ kind: 'transaction_aggregate', measure: 'total', scope: { ...scope, to: '2025-12-31' } })).toBe(false)
    expect(validQuery({ kind: 'transaction_aggregate', measure: 'total', scope: { ...scope, from: '2026-02-30' } })).toBe(false)
    expect(validQuery({ kind: 'transaction_aggregate', measure: 'total', scope: { ...scope, from: '1990-01-01' } })).toBe(false)
    expect(validQuery({ kind: 'transaction_list', scope, limit: 51 })).toBe(false)
    expect(validQuery({ kind: 'cash_flow', scope })).toBe(false)
    expect(validQuery(null)).toBe(false)
  })
})

describe('answer helpers', () => {
  it('means at the currency scale, half away from zero', () => {
    expect(meanOf('10.00', 3, 'EUR')).toBe('3.33')
    expect(meanOf('0.05', 2, 'EUR')).toBe('0.03')
    expect(meanOf('-0.05', 2, 'EUR')).toBe('-0.03')
    expect(meanOf('1', 3, 'USDC')).toBe('0.333333')
  })

  it('numbers in a worded answer must be among the allowed ones', () => {
    expect(numbersGrounded('You spent 1,234.50 EUR in March 2026.', ['1234.50', 'March 2026'])).toBe(true)
    expect(numbersGrounded('You spent about 1,300 EUR.', ['1234.50'])).toBe(false)
  })
})
