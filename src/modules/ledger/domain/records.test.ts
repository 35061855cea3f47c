import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ExtractedRecord, TransactionRecord, WalletTransferRecord } from '../../../kernel/extracted-record.ts'
import { NormalizedTexts } from './keys.ts'
import { accountReferenceOf, counterpartyMentionOf, ownAccountKeysOf, ownAccountKeysOfRecord, transactionFacts } from './records.ts'

const iban = 'DE89 3704 0044 0532 0130 00'
const wallet = '0xAbC0000000000000000000000000000000000001'
const other = '0xDef0000000000000000000000000000000000002'
const hash = `0x${'AB'.repeat(32)}`

const card = (overrides: Partial<TransactionRecord> = {}): TransactionRecord => ({
  kind: 'transaction',
  account: { iban },
  amount: '-12.5',
  currency: 'EUR',
  transaction_date: '2026-03-02',
  status: 'posted',
  description: 'CARD PURCHASE 01/03 STARBUCKS #1234 SEATTLE 12345678',
  ...overrides,
})

const transfer = (amount: string, overrides: Partial<WalletTransferRecord> = {}): WalletTransferRecord => ({
  kind: 'wallet_transfer',
  account: { wallet_address: wallet },
  chain_id: 8453,
  tx_hash: hash,
  log_index: 3,
  block_number: 100,
  timestamp: '2026-03-02T23:59:59Z',
  from: amount.startsWith('-') ? wallet : other,
  to: amount.startsWith('-') ? other : wallet,
  token: 'USDC',
  amount,
  ...overrides,
})

describe('transactionFacts', () => {
  it('reads a bank transaction: amount as the Ledger stores it, description normalized without long numbers', () => {
    const facts = transactionFacts(card({ external_transaction_id: 'FIT-1', pending_transaction_id: 'P-1', posted_date: '2026-03-03', category: 'Coffee' }))
    expect(facts).toMatchObject({
      externalId: 'FIT-1',
      pendingExternalId: 'P-1',
      amount: '-12.50',
      currency: 'EUR',
      transactionDate: '2026-03-02',
      postedDate: '2026-03-03',
      status: 'posted',
      descriptionNormalized: 'CARD PURCHASE 01 03 STARBUCKS 1234 SEATTLE',
      counterparty: undefined,
      category: 'Coffee',
      chainId: undefined,
    })
  })

  it.each([
    { name: 'outgoing', amount: '-5.25', description: `USDC sent to ${other.toLowerCase()}`, counterparty: other },
    { name: 'incoming', amount: '7', description: `USDC received from ${other.toLowerCase()}`, counterparty: other },
  ])('describes an $name wallet transfer from the wallet side, identified by hash and log index', ({ amount, description, counterparty }) => {
    const facts = transactionFacts(transfer(amount, { token_address: '0xTOKEN' }))
    expect(facts).toMatchObject({
      account: { wallet_address: wallet, chain_id: 8453 },
      externalId: `${hash.toLowerCase()}:3`,
      pendingExternalId: undefined,
      amount,
      currency: 'USDC',
      transactionDate: '2026-03-02',
      postedDate: '2026-03-02',
      status: 'posted',
      description,
      counterparty: { wallet_address: counterparty },
      chainId: 8453,
    })
    expect(facts.details).toMatchObject({ tx_hash: hash.toLowerCase(), from: expect.stringMatching(/^0x[0-9a-f]+$/), token_address: '0xtoken' })
  })

  it('keeps the chain id an account reference already has', () => {
    expect(transactionFacts(transfer('1', { account: { wallet_address: wallet, chain_id: 1 } })).account.chain_id).toBe(1)
  })

  it('refuses an amount that is not a decimal (a record that skipped validation)', () => {
    expect(() => transactionFacts(card({ amount: '12,50' }))).toThrow(TypeError)
  })
})

describe('accountReferenceOf', () => {
  it.each<{ name: string; record: ExtractedRecord; keys: string[] | undefined }>([
    { name: 'a bank transaction, by IBAN', record: card(), keys: ['iban:DE89370400440532013000'] },
    {
      name: 'an account record with every identifier',
      record: { kind: 'account', account: { iban, external_account_id: 'acct-9', account_number: '12-34 56', institution_id: 'BANK', name: 'Main  account', currency: 'EUR' } },
      keys: ['iban:DE89370400440532013000', 'external:acct-9', 'number:BANK:123456', 'name:MAIN ACCOUNT:EUR'],
    },
    { name: 'a balance named only by name, in its currency', record: { kind: 'balance', account: { name: 'Savings' }, balance_type: 'closing', as_of: '2026-03-31', amount: '1', currency: 'GBP' }, keys: ['name:SAVINGS:GBP'] },
    { name: 'a wallet transfer, on its chain', record: transfer('1'), keys: [`wallet:8453:${wallet.toLowerCase()}`] },
    { name: 'an invoice (names no account)', record: { kind: 'invoice', direction: 'payable', invoice_number: 'A-1', currency: 'EUR', total: '1', counterparty: { name: 'Acme' } }, keys: undefined },
  ])('$name', ({ record, keys }) => {
    expect(accountReferenceOf(record)?.keys).toEqual(keys)
  })

  it('refuses an account reference with nothing to key it by', () => {
    expect(() => accountReferenceOf(card({ account: { currency: 'EUR' } }))).toThrow(/needs an iban/)
  })

  it('gives a wallet account the asset it moves, never XXX, with the keys it had', () => {
    expect(accountReferenceOf(transfer('1'))?.ref.currency).toBe('USDC')
    expect(accountReferenceOf(transfer('1', { account: { wallet_address: wallet, currency: 'EURC' } }))?.ref.currency).toBe('EURC')
    const named = transfer('1', { account: { wallet_address: wallet, name: 'Treasury' } })
    expect(accountReferenceOf(named)?.keys).toEqual([`wallet:8453:${wallet.toLowerCase()}`, 'name:TREASURY:USDC'])
  })
})

describe('counterpartyMentionOf', () => {
  it.each<{ name: string; record: ExtractedRecord; mention: { keys: string[]; type: string; inferred: boolean } | undefined }>([
    { name: 'a card purchase naming none: the merchant guessed', record: card(), mention: { keys: ['name:STARBUCKS SEATTLE'], type: 'merchant', inferred: true } },
    { name: 'money in naming none', record: card({ amount: '40', description: 'ACME LTD REFUND' }), mention: { keys: ['name:ACME LTD REFUND'], type: 'other', inferred: true } },
    { name: 'a description with nothing to guess from', record: card({ description: '12/03/2024 4411' }), mention: undefined },
    { name: 'a transaction naming its counterparty', record: card({ counterparty: { name: 'Blue Bottle Coffee, Inc.', iban: 'gb29 nwbk 6016 1331 9268 19' } }), mention: { keys: ['iban:GB29NWBK60161331926819', 'name:BLUE BOTTLE COFFEE'], type: 'merchant', inferred: false } },
    { name: 'a counterparty named only by punctuation', record: card({ counterparty: { name: '--' } }), mention: undefined },
    { name: 'an outgoing wallet transfer', record: transfer('-1'), mention: { keys: [`wallet:${other.toLowerCase()}`], type: 'wallet', inferred: false } },
    { name: 'a payable invoice', record: { kind: 'invoice', direction: 'payable', invoice_number: 'A-1', currency: 'EUR', total: '1', counterparty: { email: ' Billing@Acme.example ' } }, mention: { keys: ['email:billing@acme.example'], type: 'vendor', inferred: false } },
    { name: 'a receivable invoice', record: { kind: 'invoice', direction: 'receivable', invoice_number: 'A-1', currency: 'EUR', total: '1', counterparty: { tax_id: 'de 123.456' } }, mention: { keys: ['tax:DE123456'], type: 'customer', inferred: false } },
    { name: 'payroll', record: { kind: 'obligation', obligation_type: 'payroll', direction: 'payable', reference: 'P', amount: '1', currency: 'EUR', counterparty: { name: 'Ann' } }, mention: { keys: ['name:ANN'], type: 'employee', inferred: false } },
    { name: 'tax', record: { kind: 'obligation', obligation_type: 'tax', direction: 'payable', reference: 'T', amount: '1', currency: 'EUR', counterparty: { name: 'HMRC' } }, mention: { keys: ['name:HMRC'], type: 'tax_authority', inferred: false } },
    { name: 'a receivable obligation', record: { kind: 'obligation', obligation_type: 'subscription', direction: 'receivable', reference: 'S', amount: '1', currency: 'EUR', counterparty: { name: 'Bob' } }, mention: { keys: ['name:BOB'], type: 'customer', inferred: false } },
    { name: 'an obligation without direction', record: { kind: 'obligation', obligation_type: 'rent', direction: null, reference: 'R', amount: '1', currency: 'EUR', counterparty: { name: 'Harbor' } }, mention: { keys: ['name:HARBOR'], type: 'vendor', inferred: false } },
    { name: 'an obligation naming none', record: { kind: 'obligation', obligation_type: 'rent', direction: null, reference: 'R', amount: '1', currency: 'EUR' }, mention: undefined },
    { name: 'a balance', record: { kind: 'balance', account: { iban }, balance_type: 'closing', as_of: '2026-03-31', amount: '1', currency: 'EUR' }, mention: undefined },
  ])('$name', ({ record, mention }) => {
    const found = counterpartyMentionOf(record)
    expect(found === undefined ? undefined : { keys: found.keys, type: found.type, inferred: found.inferred }).toEqual(mention)
  })
})

describe('ownAccountKeysOf', () => {
  it.each<{ name: string; record: ExtractedRecord; keys: string[] }>([
    { name: 'a transfer to an IBAN', record: card({ counterparty: { iban: 'gb29 nwbk 6016 1331 9268 19', wallet_address: wallet } }), keys: ['iban:GB29NWBK60161331926819'] },
    { name: 'a bank transaction naming no counterparty', record: card(), keys: [] },
    { name: 'a wallet transfer: the other side on its chain', record: transfer('-1'), keys: [`wallet:8453:${other.toLowerCase()}`] },
    { name: 'an incoming wallet transfer', record: transfer('1'), keys: [`wallet:8453:${other.toLowerCase()}`] },
    { name: 'a balance', record: { kind: 'balance', account: { iban }, balance_type: 'closing', as_of: '2026-03-31', amount: '1', currency: 'EUR' }, keys: [] },
  ])('$name', ({ record, keys }) => {
    expect(ownAccountKeysOfRecord(record)).toEqual(keys)
  })

  it('needs a chain to take a wallet as one of the accounts', () => {
    expect(ownAccountKeysOf({ wallet_address: wallet }, undefined)).toEqual([])
    expect(ownAccountKeysOf(undefined, 1)).toEqual([])
  })
})

describe("a run's NormalizedTexts", () => {
  it('changes no result, whatever records come in whatever order', () => {
    const descriptions = ['CARD PURCHASE 12/03 STARBUCKS #1234', 'Café Müller 123456', 'SQ *BLUE BOTTLE', '', '  ', 'ACME 01.02.24 LTD']
    const names = [undefined, 'Main account', 'Épargne']
    const record = fc.record({
      description: fc.constantFrom(...descriptions),
      name: fc.constantFrom(...names),
      counterparty: fc.constantFrom(undefined, 'Acme Inc', 'Café Müller GmbH'),
      amount: fc.constantFrom('-1', '2.5'),
    })
    fc.assert(
      fc.property(fc.array(record, { maxLength: 25 }), (entries) => {
        const recent = new NormalizedTexts()
        for (const entry of entries) {
          const transaction = card({
            account: entry.name === undefined ? { iban } : { name: entry.name },
            description: entry.description,
            amount: entry.amount,
            ...(entry.counterparty === undefined ? {} : { counterparty: { name: entry.counterparty } }),
          })
          expect(transactionFacts(transaction, recent)).toEqual(transactionFacts(transaction))
          expect(accountReferenceOf(transaction, recent)).toEqual(accountReferenceOf(transaction))
          expect(counterpartyMentionOf(transaction, recent)).toEqual(counterpartyMentionOf(transaction))
        }
      }),
    )
  })
})
