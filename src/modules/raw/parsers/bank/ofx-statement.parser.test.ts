import { beforeAll, describe, expect, it } from 'vitest'
import { ParseError, type ParsedRecord } from '../parser.ts'
import { csvBankStatementParser } from './csv-statement.parser.ts'
import { bytesInput, fixtureCatalogue, fixtureInput, ofKind, parseAll, parseFailure, readableFixtures, schemaErrors, sumOfAmounts, toCents } from './fixture-input.testing.ts'
import { ofxStatementParser as parser } from './ofx-statement.parser.ts'

const checking = { account_number: '000123456789', institution_id: '121000248', currency: 'USD' }

function byFitId(records: readonly ParsedRecord[], fitId: string): ParsedRecord {
  const found = records.filter((entry) => entry.record.kind === 'transaction' && entry.record.external_transaction_id === fitId)
  expect(found, fitId).toHaveLength(1)
  return found[0]!
}

const sgmlHeader = 'OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nSECURITY:NONE\nENCODING:USASCII\nCHARSET:1252\nCOMPRESSION:NONE\nOLDFILEUID:NONE\nNEWFILEUID:NONE\n\n'
const statement = (body: string, currency = '<CURDEF>USD') =>
  `${sgmlHeader}<OFX><BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS><STMTRS>${currency}<BANKACCTFROM><BANKID>1<ACCTID>42<ACCTTYPE>CHECKING</BANKACCTFROM><BANKTRANLIST><DTSTART>20240101<DTEND>20240131${body}</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>`

describe('ofx_statement: OFX 1.x (SGML, Windows-1252) bank statement', () => {
  let records: ParsedRecord[]
  beforeAll(async () => {
    records = await parseAll(parser, fixtureInput('ofx/bluebird-checking-2024-01-02.ofx'))
  })

  it('yields the account, 28 transactions and the ledger and available balances', () => {
    expect(records.map((entry) => entry.record.kind)).toEqual(['account', ...Array(28).fill('transaction'), 'balance', 'balance'])
    expect(records[0]).toEqual({
      type: 'record',
      record: { kind: 'account', account: checking, account_type: 'bank_checking', institution: 'First Harbor Bank' },
      confidence: 1,
    })
    expect(ofKind(records, 'balance')).toEqual([
      { kind: 'balance', account: checking, balance_type: 'closing', as_of: '2024-02-29', amount: '20284.26', currency: 'USD' },
      { kind: 'balance', account: checking, balance_type: 'available', as_of: '2024-02-29', amount: '19044.26', currency: 'USD' },
    ])
  })

  it('reads each STMTTRN field by field', () => {
    expect(byFitId(records, 'FHB20240102001')).toEqual({
      type: 'record',
      record: {
        kind: 'transaction',
        account: checking,
        external_transaction_id: 'FHB20240102001',
        amount: '-54.99',
        currency: 'USD',
        transaction_date: '2023-12-31',
        posted_date: '2024-01-02',
        status: 'posted',
        description: 'ADOBE *CREATIVE CLOUD 800-833-6687 CA',
        counterparty: { name: 'ADOBE *CREATIVE CLOUD' },
        details: { transaction_type: 'DEBIT' },
      },
      // NAME is "payee or description" in OFX: a payee by convention only.
      confidence: 0.9,
    })
    expect(byFitId(records, 'FHB20240110005').record).toMatchObject({ amount: '1860.00', description: 'MAPLE STREET CAFE - ACH DEPOSIT INV 1042', counterparty: { name: 'MAPLE STREET CAFE' } })
    expect(byFitId(records, 'FHB20240116008')).toEqual({
      type: 'record',
      record: {
        kind: 'transaction',
        account: checking,
        external_transaction_id: 'FHB20240116008',
        amount: '-950.00',
        currency: 'USD',
        transaction_date: '2024-01-16',
        posted_date: '2024-01-16',
        status: 'posted',
        description: 'CHECK 1201',
        details: { transaction_type: 'CHECK', check_number: '1201' },
      },
      confidence: 1,
    })
    expect(byFitId(records, 'FHB20240220023').record).toMatchObject({ description: 'CAFÉ VITA SEATTLE', amount: '-45.67', transaction_date: '2024-02-19', posted_date: '2024-02-20' })
    expect(byFitId(records, 'FHB20240226026').record).toMatchObject({ description: 'PG&E WEB ONLINE ACCT 4471', counterparty: { name: 'PG&E WEB ONLINE' } })
    expect(byFitId(records, 'FHB20240227027')).toMatchObject({ record: { amount: '1.37', description: 'INTEREST PAYMENT', details: { transaction_type: 'INT' } }, confidence: 1 })
    expect(byFitId(records, 'FHB20240227027').record).not.toHaveProperty('counterparty')
  })

  it('holds the same transactions as the CSV export of the same account and period', async () => {
    const csv = await parseAll(csvBankStatementParser, fixtureInput('csv/bluebird-checking-2024-01-02.us.csv', { sourceRef: { account_number: '000123456789', currency: 'USD' } }))
    const fromOfx = ofKind(records, 'transaction').map((transaction) => `${transaction.posted_date} ${transaction.amount}`)
    const fromCsv = ofKind(csv, 'transaction').map((transaction) => `${transaction.transaction_date} ${transaction.amount}`)
    expect(fromOfx).toEqual(fromCsv)
    const closing = ofKind(records, 'balance').find((balance) => balance.balance_type === 'closing')
    const csvOpening = ofKind(csv, 'balance').find((balance) => balance.balance_type === 'opening')
    expect(toCents(closing!.amount) - toCents(csvOpening!.amount)).toBe(sumOfAmounts(ofKind(records, 'transaction').map((transaction) => transaction.amount)))
  })
})

describe('ofx_statement: overlapping statements', () => {
  it('gives the transactions both statements share identical records (same FITIDs)', async () => {
    const first = ofKind(await parseAll(parser, fixtureInput('ofx/bluebird-checking-overlap-1.ofx')), 'transaction')
    const second = ofKind(await parseAll(parser, fixtureInput('ofx/bluebird-checking-overlap-2.ofx')), 'transaction')
    expect([first.length, second.length]).toEqual([21, 15])
    const sharedIds = first.map((transaction) => transaction.external_transaction_id).filter((id) => second.some((other) => other.external_transaction_id === id))
    expect(sharedIds).toHaveLength(8)
    for (const id of sharedIds) {
      expect(second.find((transaction) => transaction.external_transaction_id === id)).toEqual(first.find((transaction) => transaction.external_transaction_id === id))
    }
  })
})

describe('ofx_statement: OFX 2.x (XML) credit card and savings statements', () => {
  it('reads a QFX credit card statement: card account, signed charges and payments, original currency, negative balance', async () => {
    const records = await parseAll(parser, fixtureInput('ofx/bluebird-card-2024-02.qfx'))
    const card = { account_number: '5549480012347311', currency: 'USD' }
    expect(records[0]?.record).toEqual({ kind: 'account', account: card, account_type: 'card', institution: 'First Harbor Bank' })
    const transactions = ofKind(records, 'transaction')
    expect(transactions).toHaveLength(13)
    expect(transactions.find((transaction) => transaction.external_transaction_id === '24043400007')).toMatchObject({ amount: '1500.00', description: 'PAYMENT THANK YOU', details: { transaction_type: 'PAYMENT' } })
    expect(transactions.find((transaction) => transaction.external_transaction_id === '24054400011')).toEqual({
      kind: 'transaction',
      account: card,
      external_transaction_id: '24054400011',
      amount: '-316.54',
      currency: 'USD',
      transaction_date: '2024-02-22',
      posted_date: '2024-02-23',
      status: 'posted',
      description: 'LA MARZOCCO EUROPE - EUR 292.00 @ 1.08404',
      counterparty: { name: 'LA MARZOCCO EUROPE' },
      details: { transaction_type: 'DEBIT', original_currency: { currency: 'EUR', rate: '1.08404' } },
    })
    expect(sumOfAmounts(transactions.map((transaction) => transaction.amount))).toBe(toCents('427.94'))
    expect(ofKind(records, 'balance').map(({ balance_type, as_of, amount }) => [balance_type, as_of, amount])).toEqual([
      ['closing', '2024-02-29', '-776.83'],
      ['available', '2024-02-29', '14223.17'],
    ])
  })

  it('reads a statement whose single STMTTRN is an object, not an array', async () => {
    const records = await parseAll(parser, fixtureInput('ofx/bluebird-savings-single-transaction.ofx'))
    const savings = { account_number: '000987654321', institution_id: '121000248', currency: 'USD' }
    expect(records.map((entry) => entry.record)).toEqual([
      { kind: 'account', account: savings, account_type: 'bank_savings', institution: 'First Harbor Bank' },
      {
        kind: 'transaction',
        account: savings,
        external_transaction_id: 'FHBS20240229001',
        amount: '12.04',
        currency: 'USD',
        transaction_date: '2024-02-29',
        posted_date: '2024-02-29',
        status: 'posted',
        description: 'INTEREST PAYMENT - Interest for February 2024',
        details: { transaction_type: 'INT' },
      },
      { kind: 'balance', account: savings, balance_type: 'closing', as_of: '2024-02-29', amount: '15012.04', currency: 'USD' },
    ])
  })

  it('reads a statement without STMTTRN as zero transactions, not a failure', async () => {
    const records = await parseAll(parser, fixtureInput('ofx/bluebird-savings-no-transactions.ofx'))
    expect(records.map((entry) => entry.record.kind)).toEqual(['account', 'balance'])
    expect(ofKind(records, 'balance')[0]).toMatchObject({ balance_type: 'closing', as_of: '2024-03-31', amount: '15012.04' })
  })

  it('reads several statements of one file, and a CURRENCY aggregate over CURDEF', async () => {
    const two = `${sgmlHeader}<OFX><BANKMSGSRSV1>${[1, 2]
      .map(
        (number) =>
          `<STMTTRNRS><TRNUID>${number}<STATUS><CODE>0<SEVERITY>INFO</STATUS><STMTRS><CURDEF>EUR<BANKACCTFROM><BANKID>1<ACCTID>DE89370400440532013000<ACCTTYPE>SAVINGS</BANKACCTFROM><BANKTRANLIST><DTSTART>20240101<DTEND>20240131<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>2024010${number}<TRNAMT>-1,5<FITID>F${number}<NAME>SHOP<CURRENCY><CURRATE>1.1<CURSYM>USD</CURRENCY></STMTTRN></BANKTRANLIST></STMTRS></STMTTRNRS>`,
      )
      .join('')}</BANKMSGSRSV1></OFX>`
    const records = await parseAll(parser, bytesInput(two, { filename: 'two.ofx' }))
    expect(records.map((entry) => entry.record.kind)).toEqual(['account', 'transaction', 'transaction'])
    expect(records[0]?.record).toMatchObject({ account: { iban: 'DE89370400440532013000', account_number: 'DE89370400440532013000', currency: 'EUR' }, account_type: 'bank_savings' })
    expect(ofKind(records, 'transaction')[0]).toMatchObject({ amount: '-1.50', currency: 'USD', details: { currency_rate: '1.1' } })
  })
})

describe('ofx_statement: malformed files end in a ParseError', () => {
  it('refuses a truncated file, naming the unclosed element', async () => {
    const failure = await parseFailure(parser, fixtureInput('ofx/malformed-truncated.ofx'))
    expect(failure).toBeInstanceOf(ParseError)
    expect((failure as ParseError).message).toMatch(/^the OFX is malformed or truncated: Missing closing tag for STMTTRN/)
    expect((failure as ParseError).location).toBe('element <STMTTRN>')
  })

  it.each([
    ['no OFX element', 'Date,Amount\n2024-01-01,1.00\n', /^no <OFX> element/, 'the whole file'],
    ['no statement', `${sgmlHeader}<OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS></SONRS></SIGNONMSGSRSV1></OFX>`, /^no bank or credit card statement/, 'element <OFX>'],
    ['a bank error instead of a statement', `${sgmlHeader}<OFX><BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>2000<SEVERITY>ERROR<MESSAGE>General error</STATUS></STMTTRNRS></BANKMSGSRSV1></OFX>`, /error 2000: General error/, 'STMTTRNRS 1'],
    ['no CURDEF', statement('<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240105<TRNAMT>-1.00<FITID>A1<NAME>X</STMTTRN>', ''), /names no currency \(CURDEF\)/, 'STMTTRNRS 1, CURDEF'],
    ['no TRNAMT', statement('<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240105<FITID>A1<NAME>X</STMTTRN>'), /^the amount is missing/, 'STMTTRNRS 1, STMTTRN 1 (FITID A1), TRNAMT'],
    ['a TRNAMT that is no number', statement('<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240105<TRNAMT>twelve<FITID>A1<NAME>X</STMTTRN>'), /"twelve" is not an amount/, 'STMTTRNRS 1, STMTTRN 1 (FITID A1), TRNAMT'],
    ['an impossible DTPOSTED', statement('<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240230<TRNAMT>-1.00<FITID>A1<NAME>X</STMTTRN>'), /"20240230" is not an OFX date/, 'STMTTRNRS 1, STMTTRN 1 (FITID A1), DTPOSTED'],
    ['element names long enough to make the SGML reader backtrack for minutes', `${sgmlHeader}<OFX>${'<ABCDEFGHIJKLMNOPQRSTUVWXYZ0123>x'.repeat(3)}</OFX>`, /too long to read safely/, 'element <ABCDEFGHIJKLMNOPQRSTUVWXYZ0123>'],
  ])('%s', async (_label, text, message, location) => {
    const failure = await parseFailure(parser, bytesInput(text, { filename: 'statement.ofx' }))
    expect(failure).toBeInstanceOf(ParseError)
    expect((failure as ParseError).message).toMatch(message)
    expect((failure as ParseError).location).toBe(location)
  })

  it('refuses a binary file named .ofx', async () => {
    const failure = await parseFailure(parser, fixtureInput('csv/malformed-binary.csv', { filename: 'statement.ofx' }))
    expect(failure).toBeInstanceOf(ParseError)
  })
})

describe('ofx_statement: accepts', () => {
  it.each(fixtureCatalogue)('%s → %s', (path, expected) => {
    expect(parser.accepts(fixtureInput(path))).toBe(expected === parser.name)
  })

  it('accepts OFX by its header whatever the name, and refuses CAMT even when named .ofx', () => {
    expect(parser.accepts(fixtureInput('ofx/bluebird-card-2024-02.qfx', { filename: null, mimeType: 'application/octet-stream' }))).toBe(true)
    expect(parser.accepts(fixtureInput('camt053/lindenhof-2024-03-04.camt053-v08.xml', { filename: 'statement.ofx' }))).toBe(false)
  })
})

describe('ofx_statement: every record validates against ExtractedRecord', () => {
  it.each(readableFixtures.filter((path) => path.startsWith('ofx/')))('%s', async (path) => {
    const records = await parseAll(parser, fixtureInput(path))
    expect(records.flatMap((entry) => schemaErrors(entry.record))).toEqual([])
  })
})
