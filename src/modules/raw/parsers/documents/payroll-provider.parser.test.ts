import { describe, expect, it } from 'vitest'
import { payrollProviderParser } from './payroll-provider.parser.ts'
import { ParseError } from '../parser.ts'
import { collect, contractProblems, fixtureInput, fixtureJson, jsonInput, parseFailure } from '../../../../../test/fixtures/raw/documents/fixture-input.ts'

describe('payroll_provider_payload', () => {
  it('is named and versioned', () => {
    expect([payrollProviderParser.name, payrollProviderParser.version]).toEqual(['payroll_provider_payload', '1.0.0'])
  })

  it('maps pay runs to payroll obligations and their taxes to tax obligations, skipping a cancelled run', async () => {
    const outputs = await collect(payrollProviderParser, fixtureInput('payroll-provider.json', { sourceType: 'payroll_provider', mimeType: 'application/json' }))
    expect(contractProblems(outputs)).toEqual([])
    expect(outputs.every((output) => output.type === 'record' && output.confidence === 1)).toBe(true)
    expect(outputs.map((output) => (output.type === 'record' ? output.record : output))).toEqual([
      {
        kind: 'obligation',
        obligation_type: 'payroll',
        direction: 'payable',
        reference: 'examplepayroll:pr_2026_03_a',
        description: 'Payroll 2026-03-01 to 2026-03-15, paid 2026-03-20',
        amount: '18452.31',
        currency: 'USD',
        due_date: '2026-03-18',
        counterparty: { name: 'ExamplePayroll Inc.' },
      },
      {
        kind: 'obligation',
        obligation_type: 'tax',
        direction: 'payable',
        reference: 'examplepayroll:tx_fit_0320',
        description: 'federal_income_tax_withholding (withheld) for pay run pr_2026_03_a',
        amount: '3720',
        currency: 'USD',
        due_date: '2026-04-15',
        counterparty: { name: 'IRS' },
      },
      {
        kind: 'obligation',
        obligation_type: 'tax',
        direction: 'payable',
        reference: 'examplepayroll:tx_fica_er_0320',
        description: 'employer_fica (employer) for pay run pr_2026_03_a',
        amount: '1897.2',
        currency: 'USD',
        due_date: '2026-04-15',
        counterparty: { name: 'IRS' },
      },
      {
        kind: 'obligation',
        obligation_type: 'tax',
        direction: 'payable',
        reference: 'examplepayroll:tx_ca_sui_0320',
        description: 'state_unemployment_insurance (employer) for pay run pr_2026_03_a',
        amount: '210.8',
        currency: 'USD',
        due_date: '2026-04-30',
        counterparty: { name: 'California EDD' },
      },
      {
        kind: 'obligation',
        obligation_type: 'payroll',
        direction: 'payable',
        reference: 'examplepayroll:pr_2026_03_b',
        description: 'Payroll 2026-03-16 to 2026-03-31, paid 2026-04-03',
        amount: '18452.31',
        currency: 'USD',
        due_date: '2026-04-03',
        counterparty: { name: 'ExamplePayroll Inc.' },
      },
    ])
  })

  it('refuses per-employee data (the invalid fixture), naming the field', async () => {
    const error = await parseFailure(payrollProviderParser, fixtureInput('payroll-provider-invalid.json', { sourceType: 'payroll_provider', mimeType: 'application/json' }))
    expect(error).toBeInstanceOf(ParseError)
    expect((error as Error).message).toBe('invalid steward.payroll_provider.v1 payload: /pay_runs/0: unknown field "employees"')
  })

  it.each([
    ['an unknown schema', (p: any) => void (p.schema = 'steward.payroll_provider.v0'), /unknown payload schema/],
    ['a period that ends before it starts', (p: any) => void (p.pay_runs[0].period_end = '2026-02-28'), /\/pay_runs\/0\/period_end: before period_start/],
    ['funding after the pay date', (p: any) => void (p.pay_runs[0].funding_date = '2026-03-21'), /\/pay_runs\/0\/funding_date: after the pay date/],
    ['a tax id used twice', (p: any) => void (p.pay_runs[2].taxes = [{ ...p.pay_runs[0].taxes[0] }]), /\/pay_runs\/2\/taxes\/0\/id: duplicate id "tx_fit_0320"/],
    ['a pay run id used twice', (p: any) => void (p.pay_runs[2].id = 'pr_2026_03_a'), /\/pay_runs\/2\/id: duplicate id/],
    ['an unknown payer', (p: any) => void (p.pay_runs[0].taxes[0].paid_by = 'employee'), /\/pay_runs\/0\/taxes\/0\/paid_by/],
    ['a net pay as a number', (p: any) => void (p.pay_runs[0].net_pay = 18452.31), /\/pay_runs\/0\/net_pay: must be string/],
    ['an impossible tax due date', (p: any) => void (p.pay_runs[0].taxes[1].due_date = '2026-04-31'), /\/pay_runs\/0\/taxes\/1\/due_date: "2026-04-31" is not a calendar date/],
  ])('refuses %s', async (_case, mutate, message) => {
    const payload = fixtureJson('payroll-provider.json')
    mutate(payload)
    const error = await parseFailure(payrollProviderParser, jsonInput('payroll_provider', payload))
    expect(error).toBeInstanceOf(ParseError)
    expect((error as Error).message).toMatch(message)
  })

  it('accepts only JSON from a payroll provider', () => {
    const accepts = (sourceType: string) => payrollProviderParser.accepts({ sourceType, mimeType: 'application/json', filename: null, head: Buffer.from('{') })
    expect([accepts('payroll_provider'), accepts('accounting_provider'), accepts('other')]).toEqual([true, false, false])
  })
})
