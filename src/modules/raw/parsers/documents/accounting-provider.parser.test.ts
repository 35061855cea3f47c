import { describe, expect, it } from 'vitest'
import { accountingProviderParser, erpProviderParser } from './accounting-provider.parser.ts'
import { ParseError } from '../parser.ts'
import { collect, contractProblems, fixtureInput, fixtureJson, jsonInput, parseFailure } from '../../../../../test/fixtures/raw/documents/fixture-input.ts'

const recordsOf = async (parser: typeof erpProviderParser, name: string, sourceType: string) => {
  const outputs = await collect(parser, fixtureInput(name, { sourceType, mimeType: 'application/json' }))
  expect(contractProblems(outputs)).toEqual([])
  expect(outputs.every((output) => output.type === 'record' && output.confidence === 1)).toBe(true)
  return outputs.map((output) => (output.type === 'record' ? output.record : output))
}

describe('erp_provider_payload', () => {
  it('is named and versioned', () => {
    expect([erpProviderParser.name, erpProviderParser.version]).toEqual(['erp_provider_payload', '1.1.0'])
  })

  it('maps invoices (receivable) and bills (payable) with their customers and vendors, field by field', async () => {
    expect(await recordsOf(erpProviderParser, 'erp-provider.json', 'erp_provider')).toEqual([
      {
        kind: 'invoice',
        direction: 'receivable',
        invoice_number: 'F-2026-017',
        issue_date: '2026-03-05',
        due_date: '2026-04-04',
        currency: 'EUR',
        subtotal: '1500',
        tax: '300',
        total: '1800',
        amount_paid: '500',
        status: 'partial',
        counterparty: { name: 'Globex SARL', email: 'ap@globex.example', tax_id: 'FR40303265045' },
        line_items: [{ description: 'Mise en place de la plateforme', quantity: '1', amount: '1500' }],
      },
      {
        kind: 'invoice',
        direction: 'receivable',
        invoice_number: 'F-2026-018',
        issue_date: '2026-03-06',
        currency: 'GBP',
        total: '640',
        status: 'draft',
        counterparty: { name: 'Initech Ltd' },
      },
      {
        kind: 'invoice',
        direction: 'payable',
        invoice_number: 'NW-2026-0042',
        issue_date: '2026-03-02',
        due_date: '2026-04-01',
        currency: 'USD',
        subtotal: '1250',
        tax: '106.25',
        total: '1356.25',
        amount_paid: '0',
        status: 'sent',
        counterparty: { name: 'Northwind Office Supplies LLC', email: 'billing@northwind.example', tax_id: '94-1234567', account_number: '9876543210' },
        line_items: [
          { description: 'Printer paper, A4 (box of 10)', quantity: '12', amount: '540' },
          { description: 'Toner cartridge TN-660', quantity: '4', amount: '650' },
          { description: 'Delivery', quantity: '1', amount: '60' },
        ],
      },
    ])
  })

  it('refuses the invalid fixture, naming the first problem', async () => {
    const error = await parseFailure(erpProviderParser, fixtureInput('erp-provider-invalid.json', { sourceType: 'erp_provider', mimeType: 'application/json' }))
    expect(error).toBeInstanceOf(ParseError)
    expect((error as Error).message).toBe('invalid steward.erp_provider.v1 payload: /invoices/0: unknown field "discount"')
  })

  it.each([
    ['the accounting schema on the ERP source', (p: any) => void (p.schema = 'steward.accounting_provider.v1'), /unknown payload schema "steward.accounting_provider.v1" for source type erp_provider/],
    ['an invoice naming no known customer', (p: any) => void (p.invoices[0].customer_id = 'cus_999'), /\/invoices\/0\/customer_id: no customer "cus_999"/],
    ['a bill naming a customer as vendor', (p: any) => void (p.bills[0].vendor_id = 'cus_100'), /\/bills\/0\/vendor_id: no vendor "cus_100"/],
    ['a due date before the issue date', (p: any) => void (p.invoices[0].due_date = '2026-03-01'), /\/invoices\/0\/due_date: before the issue date/],
    ['more paid than the total', (p: any) => void (p.bills[0].amount_paid = '2000.00'), /\/bills\/0\/amount_paid: more than the total/],
    ['an impossible date', (p: any) => void (p.bills[0].issue_date = '2026-13-02'), /\/bills\/0\/issue_date: "2026-13-02" is not a calendar date/],
    ['two customers with one id', (p: any) => void (p.customers[1].id = 'cus_100'), /\/customers\/1\/id: duplicate id "cus_100"/],
    ['an unknown status', (p: any) => void (p.invoices[0].status = 'void'), /\/invoices\/0\/status: must be one of/],
  ])('refuses %s', async (_case, mutate, message) => {
    const payload = fixtureJson('erp-provider.json')
    mutate(payload)
    const error = await parseFailure(erpProviderParser, jsonInput('erp_provider', payload))
    expect(error).toBeInstanceOf(ParseError)
    expect((error as Error).message).toMatch(message)
  })
})

describe('subscriptions (1.1.0)', () => {
  const subscription = {
    id: 'sub_77',
    vendor_id: 'ven_200',
    description: 'Inventory software, Team plan',
    amount: '49.00',
    currency: 'USD',
    interval: 'monthly',
    next_due_date: '2026-04-13',
  }
  const withSubscriptions = (...subscriptions: unknown[]) => ({ ...fixtureJson('erp-provider.json'), subscriptions })
  const records = async (parser: typeof erpProviderParser, sourceType: string, payload: unknown) => {
    const outputs = await collect(parser, jsonInput(sourceType, payload))
    expect(contractProblems(outputs)).toEqual([])
    expect(outputs.every((output) => output.type === 'record' && output.confidence === 1)).toBe(true)
    return outputs.flatMap((output) => (output.type === 'record' ? [output.record] : []))
  }

  it('maps a subscription to a recurring payable obligation, after the invoices and bills, the vendor as counterparty', async () => {
    const all = await records(erpProviderParser, 'erp_provider', withSubscriptions(subscription))
    expect(all.map((record) => record.kind)).toEqual(['invoice', 'invoice', 'invoice', 'obligation'])
    expect(all.at(-1)).toEqual({
      kind: 'obligation',
      obligation_type: 'subscription',
      direction: 'payable',
      reference: 'example_erp:sub_77',
      description: 'Inventory software, Team plan',
      amount: '49',
      currency: 'USD',
      due_date: '2026-04-13',
      recurrence: 'monthly',
      counterparty: { name: 'Northwind Office Supplies LLC', email: 'billing@northwind.example', tax_id: '94-1234567', account_number: '9876543210' },
    })
  })

  it('reads subscriptions in the accounting envelope too, each interval, with the vendor IBAN', async () => {
    const payload = fixtureJson('accounting-provider.json')
    const vendorId = payload.vendors[0].id as string
    payload.subscriptions = (['weekly', 'monthly', 'quarterly', 'yearly'] as const).map((interval, index) => ({ ...subscription, id: `sub_${index}`, vendor_id: vendorId, currency: 'EUR', interval }))
    const obligations = (await records(accountingProviderParser, 'accounting_provider', payload)).filter((record) => record.kind === 'obligation')
    expect(obligations.map((record) => [record.reference, record.recurrence])).toEqual([
      ['example_books:sub_0', 'weekly'],
      ['example_books:sub_1', 'monthly'],
      ['example_books:sub_2', 'quarterly'],
      ['example_books:sub_3', 'yearly'],
    ])
    expect(obligations[0]).toMatchObject({ counterparty: { name: 'Müller & Söhne GmbH', tax_id: 'DE123456789', iban: 'DE89370400440532013000' } })
  })

  it('keeps a payload without the list valid, and an empty list yields nothing', async () => {
    const without = fixtureJson('erp-provider.json')
    expect('subscriptions' in without).toBe(false)
    expect((await records(erpProviderParser, 'erp_provider', without)).map((record) => record.kind)).toEqual(['invoice', 'invoice', 'invoice'])
    expect((await records(erpProviderParser, 'erp_provider', withSubscriptions())).map((record) => record.kind)).toEqual(['invoice', 'invoice', 'invoice'])
  })

  it.each([
    ['a subscription naming no known vendor', { vendor_id: 'ven_999' }, /\/subscriptions\/0\/vendor_id: no vendor "ven_999" in the payload/],
    ['a subscription naming a customer as vendor', { vendor_id: 'cus_100' }, /\/subscriptions\/0\/vendor_id: no vendor "cus_100"/],
    ['an unknown interval', { interval: 'daily' }, /^invalid steward\.erp_provider\.v1 payload: \/subscriptions\/0\/interval: must be one of "weekly", "monthly", "quarterly", "yearly"$/],
    ['a signed amount', { amount: '-49.00' }, /\/subscriptions\/0\/amount: must match pattern/],
    ['an amount as a JSON number', { amount: 49 }, /\/subscriptions\/0\/amount: must be string/],
    ['an impossible next due date', { next_due_date: '2026-02-30' }, /\/subscriptions\/0\/next_due_date: "2026-02-30" is not a calendar date/],
    ['an unknown field', { trial_days: 14 }, /\/subscriptions\/0: unknown field "trial_days"/],
    ['a missing description', { description: undefined }, /\/subscriptions\/0: missing required field "description"/],
  ])('refuses %s', async (_case, change, message) => {
    const error = await parseFailure(erpProviderParser, jsonInput('erp_provider', withSubscriptions({ ...subscription, ...change })))
    expect(error).toBeInstanceOf(ParseError)
    expect((error as Error).message).toMatch(message)
  })

  it('refuses two subscriptions with one id', async () => {
    const error = await parseFailure(erpProviderParser, jsonInput('erp_provider', withSubscriptions(subscription, { ...subscription, amount: '59.00' })))
    expect((error as Error).message).toMatch(/\/subscriptions\/1\/id: duplicate id "sub_77"/)
  })

  it('refuses a subscriptions value that is not a list', async () => {
    const error = await parseFailure(erpProviderParser, jsonInput('erp_provider', { ...fixtureJson('erp-provider.json'), subscriptions: null }))
    expect((error as Error).message).toMatch(/\/subscriptions: must be array/)
  })
})

describe('accounting_provider_payload', () => {
  it('is named and versioned', () => {
    expect([accountingProviderParser.name, accountingProviderParser.version]).toEqual(['accounting_provider_payload', '1.1.0'])
  })

  it('maps invoices and bills, the vendor IBAN only on a payable', async () => {
    expect(await recordsOf(accountingProviderParser, 'accounting-provider.json', 'accounting_provider')).toEqual([
      {
        kind: 'invoice',
        direction: 'receivable',
        invoice_number: '2026-077',
        issue_date: '2026-02-27',
        due_date: '2026-03-29',
        currency: 'GBP',
        total: '2400',
        amount_paid: '2400',
        status: 'paid',
        counterparty: { name: 'Initech Ltd', email: 'accounts@initech.example' },
      },
      {
        kind: 'invoice',
        direction: 'payable',
        invoice_number: 'RE-2026-1187',
        issue_date: '2026-03-15',
        due_date: '2026-04-14',
        currency: 'EUR',
        subtotal: '2000',
        tax: '380',
        total: '2380',
        status: 'sent',
        counterparty: { name: 'Müller & Söhne GmbH', tax_id: 'DE123456789', iban: 'DE89370400440532013000' },
      },
      {
        kind: 'invoice',
        direction: 'payable',
        invoice_number: 'CH-55102',
        issue_date: '2026-03-01',
        due_date: '2026-03-01',
        currency: 'EUR',
        total: '42',
        amount_paid: '42',
        status: 'paid',
        counterparty: { name: 'CloudHost EU BV' },
      },
    ])
  })

  it('refuses the invalid fixture, naming the first problem', async () => {
    const error = await parseFailure(accountingProviderParser, fixtureInput('accounting-provider-invalid.json', { sourceType: 'accounting_provider', mimeType: 'application/json' }))
    expect(error).toBeInstanceOf(ParseError)
    expect((error as Error).message).toMatch(/^invalid steward\.accounting_provider\.v1 payload: \/bills\/0\/total: must match pattern/)
  })

  it('refuses the ERP schema on the accounting source', async () => {
    const error = await parseFailure(accountingProviderParser, jsonInput('accounting_provider', fixtureJson('erp-provider.json')))
    expect((error as Error).message).toMatch(/unknown payload schema "steward.erp_provider.v1" for source type accounting_provider/)
  })

  it('each accepts its own source type only', () => {
    const head = Buffer.from('{')
    const input = (sourceType: string) => ({ sourceType, mimeType: 'application/json', filename: null, head })
    expect([erpProviderParser.accepts(input('erp_provider')), erpProviderParser.accepts(input('accounting_provider'))]).toEqual([true, false])
    expect([accountingProviderParser.accepts(input('accounting_provider')), accountingProviderParser.accepts(input('erp_provider'))]).toEqual([true, false])
  })
})
