import { describe, expect, it } from 'vitest'
import { cardProcessorParser } from './card-processor.parser.ts'
import { ParseError } from '../parser.ts'
import { collect, contractProblems, fixtureInput, fixtureJson, jsonInput, parseFailure } from '../../../../../test/fixtures/raw/documents/fixture-input.ts'

const account = { external_account_id: 'acct_merchant_42', currency: 'USD', name: 'ExamplePay balance' }
const common = { kind: 'transaction', account, currency: 'USD' } as const

describe('card_processor_payload', () => {
  it('is named and versioned', () => {
    expect([cardProcessorParser.name, cardProcessorParser.version]).toEqual(['card_processor_payload', '1.0.0'])
  })

  it('maps charges (in), refunds, fees and payouts (out) and balances, field by field', async () => {
    const outputs = await collect(cardProcessorParser, fixtureInput('card-processor.json', { sourceType: 'card_processor', mimeType: 'application/json' }))
    expect(contractProblems(outputs)).toEqual([])
    expect(outputs.every((output) => output.type === 'record' && output.confidence === 1)).toBe(true)
    expect(outputs.map((output) => (output.type === 'record' ? output.record : output))).toEqual([
      { kind: 'account', account, account_type: 'payment_processor', institution: 'ExamplePay' },
      {
        ...common,
        external_transaction_id: 'ch_001',
        amount: '120',
        transaction_date: '2026-03-02',
        status: 'posted',
        description: 'Order 5001',
        counterparty: { name: 'Jane Roe', email: 'jane@example.com' },
        details: { kind: 'charge', card_brand: 'visa', card_last4: '4242' },
      },
      {
        ...common,
        external_transaction_id: 'ch_002',
        amount: '35.5',
        transaction_date: '2026-03-02',
        status: 'pending',
        description: 'Order 5002',
        details: { kind: 'charge', card_brand: 'mastercard', card_last4: '5100' },
      },
      { ...common, external_transaction_id: 'ch_003', amount: '80', transaction_date: '2026-03-03', status: 'failed', description: '', details: { kind: 'charge' } },
      {
        ...common,
        external_transaction_id: 're_001',
        amount: '-20',
        transaction_date: '2026-03-04',
        status: 'posted',
        description: 'Damaged item',
        details: { kind: 'refund', charge_id: 'ch_001' },
      },
      {
        ...common,
        external_transaction_id: 'fee_001',
        amount: '-3.78',
        transaction_date: '2026-03-02',
        status: 'posted',
        description: 'Processing fee',
        details: { kind: 'fee', charge_id: 'ch_001' },
      },
      {
        ...common,
        external_transaction_id: 'po_001',
        amount: '-96.22',
        transaction_date: '2026-03-05',
        posted_date: '2026-03-07',
        status: 'posted',
        description: 'EXAMPLEPAY PAYOUT',
        counterparty: { name: 'Operating account', account_number: '000123456789' },
        details: { kind: 'payout', payout_status: 'paid' },
      },
      {
        ...common,
        external_transaction_id: 'po_002',
        amount: '-34.47',
        transaction_date: '2026-03-07',
        status: 'pending',
        description: '',
        counterparty: { account_number: '000123456789' },
        details: { kind: 'payout', payout_status: 'in_transit', expected_arrival_date: '2026-03-09' },
      },
      { kind: 'balance', account, balance_type: 'available', as_of: '2026-03-07', amount: '0', currency: 'USD' },
      { kind: 'balance', account, balance_type: 'current', as_of: '2026-03-07', amount: '34.47', currency: 'USD' },
    ])
  })

  it('refuses the invalid fixture, naming the first problem', async () => {
    const error = await parseFailure(cardProcessorParser, fixtureInput('card-processor-invalid.json', { sourceType: 'card_processor', mimeType: 'application/json' }))
    expect(error).toBeInstanceOf(ParseError)
    expect((error as Error).message).toBe('invalid steward.card_processor.v1 payload: /charges/0/status: must be one of "pending", "succeeded", "failed"')
  })

  it.each([
    ['an unknown schema', (p: any) => void (p.schema = 'stripe.event'), /unknown payload schema "stripe.event"/],
    ['a signed charge amount', (p: any) => void (p.charges[0].amount = '-120.00'), /\/charges\/0\/amount: must match pattern/],
    ['an id used twice across lists', (p: any) => void (p.fees[0].id = 'ch_001'), /\/fees\/0\/id: duplicate id "ch_001" \(also at \/charges\/0\/id\)/],
    ['a payout arriving before it left', (p: any) => void (p.payouts[0].arrival_date = '2026-03-01'), /\/payouts\/0\/arrival_date: before the payout date/],
    ['a card with a full number', (p: any) => void (p.charges[0].card.last4 = '4242424242424242'), /\/charges\/0\/card\/last4/],
    ['a payout without a destination', (p: any) => void (p.payouts[0].destination = {}), /\/payouts\/0\/destination/],
    ['a missing list', (p: any) => void delete p.refunds, /missing required field "refunds"/],
    ['a pending balance type', (p: any) => void (p.balances[0].type = 'pending'), /\/balances\/0\/type/],
  ])('refuses %s', async (_case, mutate, message) => {
    const payload = fixtureJson('card-processor.json')
    mutate(payload)
    const error = await parseFailure(cardProcessorParser, jsonInput('card_processor', payload))
    expect(error).toBeInstanceOf(ParseError)
    expect((error as Error).message).toMatch(message)
  })

  it('accepts only JSON from a card processor', () => {
    const accepts = (sourceType: string, mimeType: string) => cardProcessorParser.accepts({ sourceType, mimeType, filename: null, head: Buffer.from('{') })
    expect(accepts('card_processor', 'application/json')).toBe(true)
    expect(accepts('bank_provider', 'application/json')).toBe(false)
    expect(accepts('card_processor', 'text/csv')).toBe(false)
  })
})
