import { describe, expect, it } from 'vitest'
import { dateShape, readAmountCell, readDate, readNumber } from './csv-values.ts'

describe('readAmountCell', () => {
  it.each([
    ['1,234.56', false, '1,234.56', undefined, '.'],
    ['1.234,56', false, '1.234,56', undefined, ','],
    ['1 234,56', false, '1 234,56', undefined, ','],
    ['1\u00a0234,56', false, '1 234,56', undefined, ','],
    ["1'234.56", false, "1'234.56", undefined, '.'],
    ['(12.34)', true, '12.34', undefined, '.'],
    ['($1,240.00)', true, '1,240.00', 'USD', '.'],
    ['12.34-', true, '12.34', undefined, '.'],
    ['$54.99-', true, '54.99', 'USD', '.'],
    ['-$25.00', true, '25.00', 'USD', '.'],
    ['€ 12,34', false, '12,34', 'EUR', ','],
    ['-€ 45,90', true, '45,90', 'EUR', ','],
    ['12,34 €', false, '12,34', 'EUR', ','],
    ['$12.34', false, '12.34', 'USD', '.'],
    ['US$ 5.00', false, '5.00', 'USD', '.'],
    ['£7.5', false, '7.5', 'GBP', '.'],
    ['45.00 CR', false, '45.00', undefined, '.'],
    ['19.99 DR', true, '19.99', undefined, '.'],
    ['$89.00 CR', false, '89.00', 'USD', '.'],
    ['EUR 12.34', false, '12.34', 'EUR', '.'],
    ['-12.34 USD', true, '12.34', 'USD', '.'],
    ['+100', false, '100', undefined, 'none'],
    ['1,234', false, '1,234', undefined, 'ambiguous'],
    ['1.234', false, '1.234', undefined, 'ambiguous'],
    ['0,125', false, '0,125', undefined, ','],
    ['1,234,567', false, '1,234,567', undefined, '.'],
    ['1.234.567', false, '1.234.567', undefined, ','],
    ['−7,00', true, '7,00', undefined, ','],
  ])('%j → negative %s, number %j, currency %s, separator evidence %s', (cell, negative, number, currency, evidence) => {
    const amount = readAmountCell(cell)
    expect(amount).toMatchObject({ negative, number, currency, separatorEvidence: evidence })
  })

  it('marks $ and ¥ as currencies read by convention, € and US$ as explicit', () => {
    expect(readAmountCell('$1.00')?.currencyByConvention).toBe(true)
    expect(readAmountCell('¥100')?.currencyByConvention).toBe(true)
    expect(readAmountCell('US$1.00')?.currencyByConvention).toBe(false)
    expect(readAmountCell('€1,00')?.currencyByConvention).toBe(false)
  })

  it('reads an empty cell as null', () => {
    expect(readAmountCell('  ')).toBeNull()
  })

  it.each(['TBD', 'n/a', '12.3O', '12.34 CR-', '€ 12 $', 'EUR 12 USD', '1e5', '--', '12 34 56 78 90 12 34 56 78 90 12 34 56 78 90 12 34 56 78 90 1'])('refuses %j', (cell) => {
    expect(readAmountCell(cell)).toBeUndefined()
  })
})

describe('readNumber', () => {
  it.each([
    ['1,234.56', '.', { integer: '1234', fraction: '56' }],
    ['1.234,56', ',', { integer: '1234', fraction: '56' }],
    ['1 234,56', ',', { integer: '1234', fraction: '56' }],
    ['1,234', '.', { integer: '1234', fraction: '' }],
    ['1,234', ',', { integer: '1', fraction: '234' }],
    ['1,23,456.78', '.', { integer: '123456', fraction: '78' }],
    ['12.5', '.', { integer: '12', fraction: '5' }],
    [',5', ',', { integer: '', fraction: '5' }],
  ] as const)('%s with decimal %s', (number, separator, digits) => {
    expect(readNumber(number, separator)).toEqual(digits)
  })

  it.each([
    ['1.234.56', '.'],
    ['12,50', '.'],
    ['1234,567.00', '.'],
    ['1,,234.00', '.'],
  ] as const)('refuses %s with decimal %s', (number, separator) => {
    expect(readNumber(number, separator)).toBeUndefined()
  })
})

describe('dates', () => {
  it.each([
    ['2024-03-01', 'dmy', '2024-03-01', false],
    ['2024/3/1', 'mdy', '2024-03-01', false],
    ['2024-03-01T10:22:00Z', 'dmy', '2024-03-01', false],
    ['20240301', 'dmy', '2024-03-01', false],
    ['01.03.2024', 'dmy', '2024-03-01', true],
    ['01/03/2024', 'mdy', '2024-01-03', true],
    ['01/03/2024 10:22', 'dmy', '2024-03-01', true],
    ['05/05/2024', 'mdy', '2024-05-05', false],
    ['13/02/2024', 'dmy', '2024-02-13', false],
    ['02/13/2024', 'mdy', '2024-02-13', false],
    ['01.03.24', 'dmy', '2024-03-01', true],
    ['5 Mar 2024', 'dmy', '2024-03-05', false],
    ['05-MAR-24', 'mdy', '2024-03-05', false],
    ['5. März 2024', 'dmy', '2024-03-05', false],
    ['1 août 2024', 'dmy', '2024-08-01', false],
    ['3 dic 2024', 'dmy', '2024-12-03', false],
    ['12 mrt 2024', 'dmy', '2024-03-12', false],
    ['Mar 5, 2024', 'dmy', '2024-03-05', false],
  ] as const)('%s read %s is %s (order matters: %s)', (cell, order, date, orderMatters) => {
    expect(readDate(cell, order)).toEqual({ date, orderMatters })
  })

  it.each([
    ['30/02/2024', 'dmy'],
    ['2024-02-30', 'dmy'],
    ['13/13/2024', 'dmy'],
    ['02/13/2024', 'dmy'],
    ['32 Mar 2024', 'dmy'],
    ['5 Foo 2024', 'dmy'],
    ['yesterday', 'dmy'],
    ['', 'dmy'],
  ] as const)('refuses %j read %s', (cell, order) => {
    expect(readDate(cell, order)).toBeUndefined()
  })

  it('gives the evidence for the day/month order: which component is above 12', () => {
    expect(dateShape('13/02/2024')).toMatchObject({ kind: 'numeric', first: 13, second: 2, separator: '/' })
    expect(dateShape('02.13.2024')).toMatchObject({ kind: 'numeric', first: 2, second: 13, separator: '.' })
    expect(dateShape('2024-02-13')).toEqual({ kind: 'fixed', date: '2024-02-13' })
  })
})
