import { describe, expect, it } from 'vitest'
import { bankProviderParser } from './bank-provider.parser.ts'
import { ParseError } from '../parser.ts'
import { collect, contractProblems, fixtureInput, fixtureJson, inputFromBytes, jsonInput, parseFailure } from '../../../../../test/fixtures/raw/documents/fixture-input.ts'

const account = {
  external_account_id: 'acc_7f3a91',
  currency: 'USD',
  name: 'Operating account',
  account_number: '000123456789',
  institution_id: '021000021',
}

async function failureMessage(value: unknown): Promise<string> {
  const error = await parseFailure(bankProviderParser, jsonInput('bank_provider', value))
  expect(error).toBeInstanceOf(ParseError)
  return (error as Error).message
}

describe('bank_provider_payload', () => {
  it('is named and versioned', () => {
    expect([bankProviderParser.name, bankProviderParser.version]).toEqual(['bank_provider_payload', '1.0.0'])
  })

  it('maps the account, a pending→posted pair, other transactions and balances, field by field', async () => {
    const outputs = await collect(bankProviderParser, fixtureInput('bank-provider.json', { sourceType: 'bank_provider', mimeType: 'application/json' }))
    expect(contractProblems(outputs)).toEqual([])
    expect(outputs.every((output) => output.type === 'record' && output.confidence === 1)).toBe(true)
    expect(outputs.map((output) => (output.type === 'record' ? output.record : output))).toEqual([
      { kind: 'account', account, account_type: 'bank_checking', institution: 'First Example Bank', status: 'active' },
      {
        kind: 'transaction',
        account,
        external_transaction_id: 'txn_pending_001',
        amount: '-1356.25',
        currency: 'USD',
        transaction_date: '2026-03-03',
        status: 'pending',
        description: 'NORTHWIND OFFICE SUPPLIES',
        counterparty: { name: 'Northwind Office Supplies LLC' },
      },
      {
        kind: 'transaction',
        account,
        external_transaction_id: 'txn_posted_001',
        pending_transaction_id: 'txn_pending_001',
        amount: '-1356.25',
        currency: 'USD',
        transaction_date: '2026-03-03',
        posted_date: '2026-03-04',
        status: 'posted',
        description: 'NORTHWIND OFFICE SUPPLIES INV NW-2026-0042',
        counterparty: { name: 'Northwind Office Supplies LLC' },
        category: 'office_supplies',
      },
      {
        kind: 'transaction',
        account,
        external_transaction_id: 'txn_posted_002',
        amount: '1300',
        currency: 'USD',
        transaction_date: '2026-03-05',
        posted_date: '2026-03-05',
        status: 'posted',
        description: 'GLOBEX SARL F-2026-017',
        counterparty: { name: 'Globex SARL', iban: 'FR7630006000011234567890189' },
      },
      {
        kind: 'transaction',
        account,
        external_transaction_id: 'txn_posted_003',
        amount: '-45.9',
        currency: 'USD',
        transaction_date: '2026-03-06',
        posted_date: '2026-03-07',
        status: 'posted',
        description: 'CLOUDHOST EU',
        details: { original_amount: '-42', original_currency: 'EUR', merchant_category_code: '4816' },
      },
      { kind: 'balance', account, balance_type: 'current', as_of: '2026-03-07', amount: '8597.85', currency: 'USD' },
      { kind: 'balance', account, balance_type: 'available', as_of: '2026-03-07', amount: '8497.85', currency: 'USD' },
    ])
  })

  it('refuses the invalid fixture, naming the first problem', async () => {
    const error = await parseFailure(bankProviderParser, fixtureInput('bank-provider-invalid.json', { sourceType: 'bank_provider', mimeType: 'application/json' }))
    expect(error).toBeInstanceOf(ParseError)
    expect((error as Error).message).toBe('invalid steward.bank_provider.v1 payload: /transactions/0/amount: must be string')
  })

  it.each([
    ['an unknown schema version', (p: any) => void (p.schema = 'steward.bank_provider.v2'), /unknown payload schema "steward.bank_provider.v2" for source type bank_provider/],
    ['another provider type’s schema', (p: any) => void (p.schema = 'steward.card_processor.v1'), /unknown payload schema/],
    ['no schema name', (p: any) => void delete p.schema, /no "schema" name/],
    ['an unknown field', (p: any) => void (p.account.nickname = 'ops'), /\/account: unknown field "nickname"/],
    ['a missing field', (p: any) => void delete p.transactions[0].date, /\/transactions\/0: missing required field "date"/],
    ['an amount with a thousands separator', (p: any) => void (p.balances[0].amount = '8,597.85'), /\/balances\/0\/amount: must match pattern/],
    ['a float-looking exponent', (p: any) => void (p.transactions[0].amount = '1e3'), /\/transactions\/0\/amount/],
    ['a lower-case currency', (p: any) => void (p.account.currency = 'usd'), /\/account\/currency/],
    ['an unknown status', (p: any) => void (p.transactions[0].status = 'booked'), /\/transactions\/0\/status: must be one of "pending", "posted"/],
    ['a date that is no calendar day', (p: any) => void (p.transactions[0].date = '2026-02-30'), /\/transactions\/0\/date: "2026-02-30" is not a calendar date/],
    ['a duplicate id', (p: any) => void (p.transactions[2].id = 'txn_posted_001'), /\/transactions\/2\/id: duplicate id "txn_posted_001"/],
    ['a pending transaction naming a pending id', (p: any) => void (p.transactions[0].pending_id = 'x'), /only a posted transaction names/],
    ['a transaction replacing itself', (p: any) => void (p.transactions[1].pending_id = 'txn_posted_001'), /cannot replace itself/],
    ['a pending transaction with a posted date', (p: any) => void (p.transactions[0].posted_date = '2026-03-04'), /a pending transaction has not posted/],
    ['an original amount without its currency', (p: any) => void delete p.transactions[3].original_currency, /original_amount and original_currency come together/],
    ['an empty counterparty', (p: any) => void (p.transactions[0].counterparty = {}), /\/transactions\/0\/counterparty/],
  ])('refuses %s', async (_case, mutate, message) => {
    const payload = fixtureJson('bank-provider.json')
    mutate(payload)
    expect(await failureMessage(payload)).toMatch(message)
  })

  it.each([
    ['not JSON', Buffer.from('{"schema": "steward.bank_provider.v1",'), /not valid JSON/],
    ['not UTF-8', Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), /not valid UTF-8/],
    ['a JSON array', Buffer.from('[]'), /not a JSON object/],
    ['JSON null', Buffer.from('null'), /not a JSON object/],
    ['empty input', Buffer.alloc(0), /not valid JSON/],
  ])('refuses %s', async (_case, bytes, message) => {
    const error = await parseFailure(bankProviderParser, inputFromBytes(bytes, { sourceType: 'bank_provider', mimeType: 'application/json' }))
    expect(error).toBeInstanceOf(ParseError)
    expect((error as Error).message).toMatch(message)
  })

  it('accepts a UTF-8 byte-order mark', async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(fixtureJson('bank-provider.json')))])
    const outputs = await collect(bankProviderParser, inputFromBytes(bytes, { sourceType: 'bank_provider', mimeType: 'application/json' }))
    expect(outputs).toHaveLength(7)
  })

  it('accepts only JSON from a bank provider', () => {
    const accepts = (sourceType: string, mimeType: string, filename: string | null) => bankProviderParser.accepts({ sourceType, mimeType, filename, head: Buffer.from('{') })
    expect(accepts('bank_provider', 'application/json', null)).toBe(true)
    expect(accepts('bank_provider', 'application/json; charset=utf-8', null)).toBe(true)
    expect(accepts('bank_provider', 'application/octet-stream', 'webhook.json')).toBe(true)
    expect(accepts('card_processor', 'application/json', null)).toBe(false)
    expect(accepts('csv_upload', 'application/json', null)).toBe(false)
    expect(accepts('bank_provider', 'text/csv', 'statement.csv')).toBe(false)
    expect(accepts('bank_provider', 'application/x-ofx', 'statement.ofx')).toBe(false)
  })
})
