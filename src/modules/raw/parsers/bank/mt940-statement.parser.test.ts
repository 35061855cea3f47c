import { beforeAll, describe, expect, it } from 'vitest'
import { ParseError, type ParsedRecord } from '../parser.ts'
import { camt053StatementParser } from './camt053-statement.parser.ts'
import { bytesInput, fixtureCatalogue, fixtureInput, ofKind, parseAll, parseFailure, readableFixtures, schemaErrors, sumOfAmounts, toCents } from './fixture-input.testing.ts'
import { mt940StatementParser as parser } from './mt940-statement.parser.ts'

const account = { iban: 'DE89370400440532013000', currency: 'EUR' }

/** A one-statement MT940 file around the given lines. */
function statement(lines: string[], opening = ':60F:C240229EUR100,00', closing = ':62F:C240301EUR100,00', accountId = 'DE89370400440532013000'): string {
  return [':20:TEST', `:25:${accountId}`, ':28C:1/1', opening, ...lines, closing, '-', ''].join('\r\n')
}

describe('mt940_statement: two monthly statements in one file (Windows-1252, German :86: sub-fields)', () => {
  let records: ParsedRecord[]
  beforeAll(async () => {
    records = await parseAll(parser, fixtureInput('mt940/lindenhof-2024-03-04.sta'))
  })

  it('yields the account once and each statement’s balances and lines', () => {
    expect(records.map((entry) => entry.record.kind)).toEqual(['account', 'balance', 'balance', ...Array(15).fill('transaction'), 'balance', 'balance', 'balance', ...Array(16).fill('transaction')])
    expect(records[0]?.record).toEqual({ kind: 'account', account })
    expect(ofKind(records, 'balance').map(({ balance_type, as_of, amount, currency }) => [balance_type, as_of, amount, currency])).toEqual([
      // :60F: is dated the previous closing day; the opening balance is the start of the next day.
      ['opening', '2024-03-01', '24380.15', 'EUR'],
      ['closing', '2024-03-31', '27149.04', 'EUR'],
      ['opening', '2024-04-01', '27149.04', 'EUR'],
      ['closing', '2024-04-30', '28441.10', 'EUR'],
      ['available', '2024-04-30', '28441.10', 'EUR'],
    ])
  })

  it('reads each :61: and :86: field by field', () => {
    const receipt = records.find((entry) => entry.record.kind === 'transaction' && entry.record.external_transaction_id === '202403040001')
    expect(receipt).toEqual({
      type: 'record',
      record: {
        kind: 'transaction',
        account,
        external_transaction_id: '202403040001',
        amount: '4760.00',
        currency: 'EUR',
        transaction_date: '2024-03-04',
        posted_date: '2024-03-04',
        status: 'posted',
        description: 'Rechnung 2024-017',
        counterparty: { name: 'Müller & Söhne GmbH', iban: 'DE12500105170648489890' },
        details: {
          transaction_type_code: 'NTRF',
          customer_reference: 'RE2024017',
          bank_reference: '202403040001',
          transaction_code: '166',
          posting_text: 'GUTSCHR. UEBERWEISUNG',
          end_to_end_id: 'RE2024017',
        },
      },
      // The ?-sub-field layout is a bank convention, not MT940 itself.
      confidence: 0.9,
    })
    const transactions = ofKind(records, 'transaction')
    expect(transactions.find((transaction) => transaction.external_transaction_id === '202403010002')).toMatchObject({
      amount: '-2450.00',
      description: 'Miete März 2024 Büro Hauptstraße 5',
      counterparty: { name: 'Immobilien Schäfer KG', iban: 'DE02120300000000202051' },
    })
    // A name longer than one sub-field continues in ?33.
    expect(transactions.find((transaction) => transaction.external_transaction_id === '202403010001')?.counterparty).toEqual({ name: 'Adobe Systems Software Ireland Ltd', iban: 'IE29AIBK93115212345678' })
    // The entry date (booking) is the transaction date; the value date is when it settled.
    expect(transactions.find((transaction) => transaction.external_transaction_id === '202403050001')).toMatchObject({ transaction_date: '2024-03-05', posted_date: '2024-03-04', amount: '-38.47' })
    const fee = transactions.find((transaction) => transaction.external_transaction_id === '202404300001')
    expect(fee).toMatchObject({ amount: '-12.90', description: 'Kontoführungsgebühr 04/2024', details: { transaction_code: '805', posting_text: 'ABSCHLUSS' } })
    expect(fee).not.toHaveProperty('counterparty')
    expect(sumOfAmounts(transactions.map((transaction) => transaction.amount))).toBe(toCents('28441.10') - toCents('24380.15'))
  })

  it('holds the same transactions as the CAMT.053 of the same account and months', async () => {
    const camt = ofKind(await parseAll(camt053StatementParser, fixtureInput('camt053/lindenhof-2024-03-04.camt053-v08.xml')), 'transaction')
    const key = (transaction: (typeof camt)[number]) =>
      JSON.stringify([transaction.external_transaction_id, transaction.transaction_date, transaction.posted_date, transaction.amount, transaction.description, transaction.counterparty ?? null])
    expect(ofKind(records, 'transaction').map(key)).toEqual(camt.map(key))
  })
})

describe('mt940_statement: overlapping statements', () => {
  it('gives the lines both statements share identical records', async () => {
    const first = ofKind(await parseAll(parser, fixtureInput('mt940/lindenhof-overlap-1.sta')), 'transaction')
    const second = ofKind(await parseAll(parser, fixtureInput('mt940/lindenhof-overlap-2.sta')), 'transaction')
    expect([first.length, second.length]).toEqual([25, 16])
    const shared = first.filter((transaction) => transaction.transaction_date >= '2024-04-01')
    expect(shared).toHaveLength(10)
    expect(second.filter((transaction) => transaction.transaction_date <= '2024-04-15')).toEqual(shared)
    expect(shared[0]?.account).toEqual({ iban: 'DE89370400440532013000', institution_id: 'COBADEFFXXX', currency: 'EUR' })
  })
})

describe('mt940_statement: SWIFT blocks and the slash :86: layout', () => {
  it('reads the lines, a reversal and free-text information', async () => {
    const records = await parseAll(parser, fixtureInput('mt940/van-dijk-blocks-slash-details.swi'))
    const dutch = { iban: 'NL44RABO0123456789', currency: 'EUR' }
    expect(records[0]?.record).toEqual({ kind: 'account', account: dutch })
    expect(records.filter((entry) => entry.record.kind === 'transaction').map((entry) => [entry.record.kind === 'transaction' && entry.record.amount, entry.confidence])).toEqual([
      ['1250.00', 0.9],
      ['-89.95', 0.9],
      ['89.95', 0.9],
      ['-4.50', 1],
    ])
    const transactions = ofKind(records, 'transaction')
    expect(transactions[0]).toMatchObject({ description: 'Factuur 2024-031', counterparty: { name: 'Van Dijk Bouw BV', iban: 'NL91ABNA0417164300' }, details: { end_to_end_id: 'INV-2024-031' } })
    // RD: the reversal of a debit is money in, booked on 2 March for value 1 March.
    expect(transactions[2]).toMatchObject({ status: 'posted', amount: '89.95', transaction_date: '2024-03-02', posted_date: '2024-03-01', description: 'Storno incasso', details: { reversal: true } })
    expect(transactions[1]?.details).not.toHaveProperty('reversal')
    expect(transactions[3]).toMatchObject({ description: 'Kosten betalingsverkeer februari 2024', external_transaction_id: '0301Z9' })
    expect(transactions[3]).not.toHaveProperty('counterparty')
    expect(ofKind(records, 'balance').map(({ balance_type, amount }) => [balance_type, amount])).toEqual([
      ['opening', '5432.10'],
      ['closing', '6677.60'],
    ])
  })
})

describe('mt940_statement: exact amounts and dates from the raw lines', () => {
  it.each([
    ['three-decimal currency (KWD): not rounded to cents', statement([':61:240301C10,125NTRFNONREF//K1', ':86:Deposit'], ':60F:C240229KWD0,000', ':62F:C240301KWD10,125'), '10.125', 'KWD', '2024-03-01', '2024-03-01'],
    ['zero-decimal currency (JPY)', statement([':61:240301D1500,NTRFNONREF//J1', ':86:Fee'], ':60F:C240229JPY2000,', ':62F:C240301JPY500,'), '-1500', 'JPY', '2024-03-01', '2024-03-01'],
    ['an entry date across the year end', statement([':61:2312310102D10,00NTRFNONREF//Y1', ':86:Late booking'], ':60F:C231230EUR100,00', ':62F:C240102EUR90,00'), '-10.00', 'EUR', '2024-01-02', '2023-12-31'],
    ['RC: the reversal of a credit is money out', statement([':61:240301RC25,00NTRFNONREF//R1', ':86:Storno'], ':60F:C240229EUR100,00', ':62F:C240301EUR75,00'), '-25.00', 'EUR', '2024-03-01', '2024-03-01'],
  ])('%s', async (_label, text, amount, currency, transactionDate, postedDate) => {
    const [transaction] = ofKind(await parseAll(parser, bytesInput(text, { filename: 'statement.sta' })), 'transaction')
    expect(transaction).toMatchObject({ amount, currency, transaction_date: transactionDate, posted_date: postedDate })
  })

  it.each([
    ['dated the previous closing day', ':60F:C240229EUR100,00', '2024-03-01'],
    ['dated the first booking day', ':60F:C240301EUR100,00', '2024-03-01'],
    ['dated days before the first booking (no bookings in between)', ':60F:C240226EUR100,00', '2024-02-27'],
  ])('an opening balance %s is the balance at the start of the statement\'s first day', async (_label, opening, asOf) => {
    const text = statement([':61:240301D10,00NTRFNONREF//A1', ':86:Test'], opening, ':62F:C240301EUR90,00')
    const [balance] = ofKind(await parseAll(parser, bytesInput(text, { filename: 'statement.sta' })), 'balance')
    expect(balance).toMatchObject({ balance_type: 'opening', as_of: asOf })
  })

  it('an opening balance of a statement without lines is the day after its date', async () => {
    const [balance] = ofKind(await parseAll(parser, bytesInput(statement([], ':60F:C240229EUR100,00', ':62F:C240301EUR100,00'), { filename: 'statement.sta' })), 'balance')
    expect(balance).toMatchObject({ balance_type: 'opening', as_of: '2024-03-01' })
  })

  it('drops a :13D: creation time, which mt940js does not know', async () => {
    const text = [':20:TEST', ':13D:2403011200+0100', ':25:DE89370400440532013000', ':28C:1/1', ':60F:C240229EUR100,00', ':61:240301D10,00NTRFNONREF//A1', ':86:Test', ':62F:C240301EUR90,00', '-', ''].join('\n')
    const records = await parseAll(parser, bytesInput(text, { filename: 'statement.sta' }))
    expect(ofKind(records, 'transaction')).toHaveLength(1)
  })
})

describe('mt940_statement: malformed files end in a ParseError with the line', () => {
  it('refuses a broken :61: line, naming its line', async () => {
    const failure = await parseFailure(parser, fixtureInput('mt940/malformed-broken-61.sta'))
    expect(failure).toBeInstanceOf(ParseError)
    expect((failure as ParseError).message).toMatch(/^cannot read the :61: statement line "2403040304X4760\.00NTRFRE2024017\/\/202403040001": expected value date YYMMDD/)
    expect((failure as ParseError).location).toBe('line 14')
  })

  it.each([
    ['lines that do not add up to the balances', statement([':61:240301D10,00NTRFNONREF//A1']), /^the MT940 statement is not valid: Sum of lines \(-10\) != turnover \(0\)/, 'statement 1'],
    ['a missing :62F:', [':20:TEST', ':25:X', ':28C:1', ':60F:C240229EUR100,00', ''].join('\n'), /Mandatory tag 62 is missing/, 'statement 1'],
    ['an impossible value date', statement([':61:240230D10,00NTRFNONREF//A1']), /the value date 240230 is not a calendar date/, 'line 5'],
    ['an amount without a decimal comma', statement([':61:240301D10.00NTRFNONREF//A1']), /^cannot read the :61: statement line/, 'line 5'],
    ['a broken balance', statement([], ':60F:C240229EUR100.00'), /^cannot read the :60F: balance/, 'line 4'],
    ['an unknown tag', statement([':99:what']), /^unknown MT940 tag :99:/, 'line 5'],
    ['text before the first tag', `hello\n${statement([])}`, /^text before the first tag/, 'line 1'],
    ['a file that does not start with :20:', [':25:X', ':20:T'].join('\n'), /starts with :25: instead of :20:/, 'line 1'],
    ['no tags at all', 'just text\n', /^text before the first tag/, 'line 1'],
  ])('%s', async (_label, text, message, location) => {
    const failure = await parseFailure(parser, bytesInput(text, { filename: 'statement.sta' }))
    expect(failure).toBeInstanceOf(ParseError)
    expect((failure as ParseError).message).toMatch(message)
    expect((failure as ParseError).location).toBe(location)
  })
})

describe('mt940_statement: accepts', () => {
  it.each(fixtureCatalogue)('%s → %s', (path, expected) => {
    expect(parser.accepts(fixtureInput(path))).toBe(expected === parser.name)
  })

  it('accepts MT940 content whatever its name', () => {
    expect(parser.accepts(fixtureInput('mt940/lindenhof-2024-03-04.sta', { filename: 'export.txt', mimeType: 'text/plain' }))).toBe(true)
  })
})

describe('mt940_statement: every record validates against ExtractedRecord', () => {
  it.each(readableFixtures.filter((path) => path.startsWith('mt940/')))('%s', async (path) => {
    const records = await parseAll(parser, fixtureInput(path))
    expect(records.flatMap((entry) => schemaErrors(entry.record))).toEqual([])
  })
})
