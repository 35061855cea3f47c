import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ParsedRecord } from '../parser.ts'
import { ParseError } from '../parser.ts'
import { writeLargeCsv } from '../../../../../test/fixtures/raw/bank/generate-large-csv.ts'
import { csvBankStatementParser as parser } from './csv-statement.parser.ts'
import {
  bytesInput,
  fileInput,
  fixtureCatalogue,
  fixtureInput,
  ofKind,
  parseAll,
  parseFailure,
  schemaErrors,
  sumOfAmounts,
  toCents,
} from './fixture-input.testing.ts'

const lindenhof = { account_name: 'Lindenhof Geschäftskonto', iban: 'DE89 3704 0044 0532 0130 00' }
const lindenhofAccount = { iban: 'DE89370400440532013000', name: 'Lindenhof Geschäftskonto', currency: 'EUR' }

function transactionOn(records: readonly ParsedRecord[], date: string, description: string) {
  const matches = ofKind(records, 'transaction').filter((transaction) => transaction.transaction_date === date && transaction.description === description)
  expect(matches, `${date} ${description}`).toHaveLength(1)
  return matches[0]!
}

function confidences(records: readonly ParsedRecord[]): number[] {
  return [...new Set(records.map((entry) => entry.confidence))].sort()
}

describe('csv_bank_statement: European CSV (Windows-1252, semicolons, DD.MM.YYYY, decimal commas, newest first)', () => {
  let records: ParsedRecord[]
  beforeAll(async () => {
    records = await parseAll(parser, fixtureInput('csv/lindenhof-2024-03-04.de-windows-1252.csv', { sourceRef: lindenhof }))
  })

  it('yields the account first, then the opening balance, the 31 rows, and the closing balance', () => {
    expect(records.map((entry) => entry.record.kind)).toEqual(['account', 'balance', ...Array(31).fill('transaction'), 'balance'])
    expect(records[0]?.record).toEqual({ kind: 'account', account: lindenhofAccount })
    expect(records[1]?.record).toEqual({ kind: 'balance', account: lindenhofAccount, balance_type: 'opening', as_of: '2024-03-01', amount: '24380.15', currency: 'EUR' })
    expect(records.at(-1)?.record).toEqual({ kind: 'balance', account: lindenhofAccount, balance_type: 'closing', as_of: '2024-04-30', amount: '28441.10', currency: 'EUR' })
  })

  it('reads each row field by field, umlauts included', () => {
    expect(transactionOn(records, '2024-03-04', 'Rechnung 2024-017')).toEqual({
      kind: 'transaction',
      account: lindenhofAccount,
      amount: '4760.00',
      currency: 'EUR',
      transaction_date: '2024-03-04',
      posted_date: '2024-03-04',
      status: 'posted',
      description: 'Rechnung 2024-017',
      counterparty: { name: 'Müller & Söhne GmbH' },
      details: { balance_after: '26618.76' },
    })
    expect(transactionOn(records, '2024-03-01', 'Miete März 2024 Büro Hauptstraße 5')).toMatchObject({ amount: '-2450.00', counterparty: { name: 'Immobilien Schäfer KG' } })
    expect(transactionOn(records, '2024-03-05', 'KARTENZAHLUNG REWE SAGT DANKE 2024-03-04')).toMatchObject({ amount: '-38.47', posted_date: '2024-03-04' })
    const payroll = ofKind(records, 'transaction').filter((transaction) => transaction.description === 'Gehalt März 2024')
    expect(payroll.map(({ transaction_date, amount, counterparty }) => [transaction_date, amount, counterparty?.name])).toEqual([
      ['2024-03-15', '-2870.25', 'Anna Öztürk'],
      ['2024-03-15', '-3215.40', 'Jürgen Köhler'],
    ])
    expect(transactionOn(records, '2024-04-30', 'Kontoführungsgebühr 04/2024')).toEqual({
      kind: 'transaction',
      account: lindenhofAccount,
      amount: '-12.90',
      currency: 'EUR',
      transaction_date: '2024-04-30',
      posted_date: '2024-04-30',
      status: 'posted',
      description: 'Kontoführungsgebühr 04/2024',
      details: { balance_after: '28441.10' },
    })
  })

  it('keeps two identical rows on one day as two transactions', () => {
    const coffees = ofKind(records, 'transaction').filter((transaction) => transaction.description === 'Kartenzahlung Bäckerei Weiß Bewirtung' && transaction.transaction_date === '2024-03-08')
    expect(coffees.map((transaction) => transaction.amount)).toEqual(['-23.80', '-23.80'])
  })

  it('adds up: opening + the amounts = closing, and every record is sure (confidence 1)', () => {
    expect(sumOfAmounts(ofKind(records, 'transaction').map((transaction) => transaction.amount))).toBe(toCents('28441.10') - toCents('24380.15'))
    expect(confidences(records)).toEqual([1])
  })
})

describe('csv_bank_statement: US CSV (MM/DD/YYYY, separate Debit and Credit, thousands separators)', () => {
  const source = { account_number: '000123456789', currency: 'USD' }
  let records: ParsedRecord[]
  beforeAll(async () => {
    records = await parseAll(parser, fixtureInput('csv/bluebird-checking-2024-01-02.us.csv', { sourceRef: source }))
  })

  it('signs debits negative and credits positive, and reads the month first', () => {
    const account = { account_number: '000123456789', currency: 'USD' }
    expect(transactionOn(records, '2024-01-05', 'HARBOR PROPERTIES LLC RENT JANUARY 2024')).toEqual({
      kind: 'transaction',
      account,
      amount: '-3200.00',
      currency: 'USD',
      transaction_date: '2024-01-05',
      status: 'posted',
      description: 'HARBOR PROPERTIES LLC RENT JANUARY 2024',
      details: { balance_after: '37310.41' },
    })
    expect(transactionOn(records, '2024-02-21', 'NORTHWIND HOTELS WIRE IN REF 0221NW88')).toMatchObject({ amount: '5600.00' })
    expect(transactionOn(records, '2024-01-16', 'CHECK 1201')).toMatchObject({ amount: '-950.00', details: { check_number: '1201' } })
    expect(transactionOn(records, '2024-02-20', 'CAFÉ VITA SEATTLE')).toMatchObject({ amount: '-45.67' })
    expect(transactionOn(records, '2024-02-09', 'GUSTO PAYROLL 240209')).toMatchObject({ amount: '-7845.32' })
  })

  it('derives the opening balance from the first row and closes with the last', () => {
    const balances = ofKind(records, 'balance')
    expect(balances.map(({ balance_type, as_of, amount }) => [balance_type, as_of, amount])).toEqual([
      ['opening', '2024-01-02', '38250.00'],
      ['closing', '2024-02-29', '20284.26'],
    ])
    expect(sumOfAmounts(ofKind(records, 'transaction').map((transaction) => transaction.amount))).toBe(toCents('20284.26') - toCents('38250.00'))
    expect(ofKind(records, 'transaction')).toHaveLength(28)
    expect(confidences(records)).toEqual([1])
  })

  it('refuses to guess a currency when neither the file nor source_ref names one', async () => {
    const failure = await parseFailure(parser, fixtureInput('csv/bluebird-checking-2024-01-02.us.csv', { sourceRef: { account_number: '000123456789' } }))
    expect(failure).toBeInstanceOf(ParseError)
    expect((failure as ParseError).message).toMatch(/^no currency/)
  })
})

describe('csv_bank_statement: overlapping statements of one account (French, UTF-8 with BOM, Débit/Crédit, 1 234,56)', () => {
  const source = { iban: 'FR7630006000011234567890189', currency: 'EUR' }
  let first: ParsedRecord[]
  let second: ParsedRecord[]
  beforeAll(async () => {
    first = await parseAll(parser, fixtureInput('csv/dupont-overlap-1.fr.csv', { sourceRef: source }))
    second = await parseAll(parser, fixtureInput('csv/dupont-overlap-2.fr.csv', { sourceRef: source }))
  })

  it('reads the rows with their references as external ids', () => {
    expect(ofKind(first, 'transaction')).toHaveLength(18)
    expect(ofKind(second, 'transaction')).toHaveLength(12)
    expect(transactionOn(first, '2024-01-08', 'VIR SEPA RECU CLIENT BOULANGERIE MARTIN FACT 2024-001')).toEqual({
      kind: 'transaction',
      account: { iban: 'FR7630006000011234567890189', currency: 'EUR' },
      external_transaction_id: 'OP240108004',
      amount: '2400.00',
      currency: 'EUR',
      transaction_date: '2024-01-08',
      posted_date: '2024-01-08',
      status: 'posted',
      description: 'VIR SEPA RECU CLIENT BOULANGERIE MARTIN FACT 2024-001',
      details: { balance_after: '12759.80' },
    })
    expect(transactionOn(first, '2024-01-03', 'VIR SEPA LOYER JANVIER SCI LES TILLEULS')).toMatchObject({ amount: '-1850.00', external_transaction_id: 'OP240103002' })
    expect(transactionOn(first, '2024-01-05', 'CB LEROY MERLIN 04/01')).toMatchObject({ amount: '-234.56', posted_date: '2024-01-04' })
  })

  it('gives the rows both statements share byte-identical records, so the ledger can find them again', () => {
    const shared = (records: ParsedRecord[]) =>
      ofKind(records, 'transaction').filter((transaction) => transaction.transaction_date >= '2024-02-01' && transaction.transaction_date <= '2024-02-15')
    expect(shared(first)).toHaveLength(7)
    expect(shared(second)).toEqual(shared(first))
  })

  it('chains the balances: the second opening is the first statement’s balance before 1 February', () => {
    const januaryCents = sumOfAmounts(ofKind(first, 'transaction').filter((transaction) => transaction.transaction_date < '2024-02-01').map((transaction) => transaction.amount))
    const firstOpening = ofKind(first, 'balance').find((balance) => balance.balance_type === 'opening')
    const secondOpening = ofKind(second, 'balance').find((balance) => balance.balance_type === 'opening')
    expect(firstOpening).toMatchObject({ as_of: '2024-01-02', amount: '12480.35' })
    expect(secondOpening).toMatchObject({ as_of: '2024-02-01' })
    expect(toCents(secondOpening!.amount)).toBe(toCents(firstOpening!.amount) + januaryCents)
    expect(confidences([...first, ...second])).toEqual([1])
  })
})

describe('csv_bank_statement: other layouts', () => {
  it('reads UTF-16 LE, tab-delimited Spanish with a currency column, newest first', async () => {
    const records = await parseAll(parser, fixtureInput('csv/taller-ruiz-2024-03.es-utf16le-tab.csv', { sourceRef: { account_name: 'Taller Ruiz' } }))
    const account = { name: 'Taller Ruiz', currency: 'EUR' }
    expect(records[0]?.record).toEqual({ kind: 'account', account })
    expect(ofKind(records, 'transaction').map(({ transaction_date, amount }) => [transaction_date, amount])).toEqual([
      ['2024-03-28', '-12.00'],
      ['2024-03-25', '-1850.00'],
      ['2024-03-20', '-64.35'],
      ['2024-03-15', '3025.00'],
      ['2024-03-05', '-1200.00'],
      ['2024-03-01', '-24.19'],
    ])
    expect(transactionOn(records, '2024-03-20', 'COMPRA TARJ. REPSOL MADRID')).toMatchObject({ posted_date: '2024-03-19', currency: 'EUR' })
    expect(ofKind(records, 'balance').map(({ balance_type, as_of, amount }) => [balance_type, as_of, amount])).toEqual([
      ['opening', '2024-03-01', '8836.57'],
      ['closing', '2024-03-28', '8711.03'],
    ])
  })

  it('reads UTF-16 BE Dutch with YYYYMMDD dates, an Af/Bij column and the currency in the amount header', async () => {
    const records = await parseAll(parser, fixtureInput('csv/van-dijk-2024-03.nl-utf16be.csv', { sourceRef: { iban: 'NL20INGB0001234567' } }))
    const account = { iban: 'NL20INGB0001234567', currency: 'EUR' }
    expect(ofKind(records, 'transaction').map(({ transaction_date, amount }) => [transaction_date, amount])).toEqual([
      ['2024-03-01', '-23.45'],
      ['2024-03-04', '1250.00'],
      ['2024-03-05', '-89.95'],
      ['2024-03-15', '-2118.00'],
      ['2024-03-29', '-4.50'],
    ])
    expect(transactionOn(records, '2024-03-04', 'Factuur 2024-031')).toEqual({
      kind: 'transaction',
      account,
      amount: '1250.00',
      currency: 'EUR',
      transaction_date: '2024-03-04',
      status: 'posted',
      description: 'Factuur 2024-031',
      counterparty: { name: 'Van Dijk Bouw BV', iban: 'NL91ABNA0417164300' },
      details: { transaction_type: 'Online bankieren' },
    })
    expect(ofKind(records, 'balance')).toEqual([])
    expect(confidences(records)).toEqual([1])
  })

  it('reads pipes, currency symbols, parentheses, trailing minus, CR/DR and D MMM YYYY, with $ as USD by convention', async () => {
    const records = await parseAll(parser, fixtureInput('csv/bluebird-card-2024-03.pipe-symbols.csv', { sourceRef: { account_name: 'Bluebird card' } }))
    expect(ofKind(records, 'transaction').map(({ transaction_date, posted_date, amount, currency, external_transaction_id }) => [transaction_date, posted_date, amount, currency, external_transaction_id])).toEqual([
      ['2024-03-04', '2024-03-05', '-1240.00', 'USD', 'T-240305-001'],
      ['2024-03-06', '2024-03-07', '-54.99', 'USD', 'T-240307-002'],
      ['2024-03-08', '2024-03-08', '89.00', 'USD', 'T-240308-003'],
      ['2024-03-11', '2024-03-12', '-412.87', 'USD', 'T-240312-004'],
      ['2024-03-14', '2024-03-15', '2315.40', 'USD', 'T-240315-005'],
      ['2024-03-18', '2024-03-19', '-25.00', 'USD', 'T-240319-006'],
    ])
    expect(records[0]?.record).toEqual({ kind: 'account', account: { name: 'Bluebird card', currency: 'USD' } })
    expect(ofKind(records, 'transaction')[0]?.counterparty).toEqual({ name: 'SQ *BLUE MOUNTAIN BEANS' })
    expect(records.filter((entry) => entry.record.kind === 'transaction').map((entry) => entry.confidence)).toEqual(Array(6).fill(0.9))
  })

  it('guesses DD/MM when every date is ambiguous, lowers confidence where the guess matters, and names the account after the file', async () => {
    const records = await parseAll(parser, fixtureInput('csv/ambiguous-dates.csv'))
    expect(records[0]).toEqual({ type: 'record', record: { kind: 'account', account: { name: 'ambiguous dates', currency: 'EUR' } }, confidence: 0.9 })
    expect(records.slice(1).map((entry) => [entry.record.kind === 'transaction' && entry.record.transaction_date, entry.record.kind === 'transaction' && entry.record.amount, entry.confidence])).toEqual([
      ['2024-02-01', '1500.00', 0.6],
      ['2024-02-03', '-45.90', 0.6],
      ['2024-03-04', '-950.00', 0.6],
      ['2024-05-05', '-39.99', 0.9],
      ['2024-07-06', '2100.50', 0.6],
    ])
  })

  it.each([
    ['USD', '2024-01-02'],
    ['EUR', '2024-02-01'],
  ])('guesses MM/DD for a %s account only if it is in US dollars (01/02/2024 → %s)', async (currency, date) => {
    const input = bytesInput('Date,Description,Amount\n01/02/2024,Coffee,-3.50\n', { filename: 'x.csv', sourceRef: { account_name: 'Test', currency } })
    const [, transaction] = await parseAll(parser, input)
    expect(transaction).toMatchObject({ record: { transaction_date: date }, confidence: 0.6 })
  })

  it('skips the bank’s preamble and trailer, blank rows and a repeated header', async () => {
    const text = ['Kontoauszug', 'Konto;DE89370400440532013000', '', 'Datum;Text;Betrag', '01.03.2024;Kaffee;-3,50', ';;', 'Datum;Text;Betrag', '02.03.2024;Tee;-2,00', 'Endsaldo;;1.234,56', ''].join('\n')
    const records = await parseAll(parser, bytesInput(text, { filename: 'konto.csv', sourceRef: { account_name: 'Konto', currency: 'EUR' } }))
    expect(ofKind(records, 'transaction').map(({ transaction_date, description, amount }) => [transaction_date, description, amount])).toEqual([
      ['2024-03-01', 'Kaffee', '-3.50'],
      ['2024-03-02', 'Tee', '-2.00'],
    ])
  })

  it('reads a Windows-1252 character that first appears after the 64 KiB head', async () => {
    const rows = Array.from({ length: 1500 }, (_unused, index) => `2024-03-01,ASCII ROW ${String(index).padStart(6, '0')} PADDING TEXT,-1.00`)
    const tail = Buffer.from([...'2024-03-02,Müller,-2.00\n'].map((character) => character.charCodeAt(0)))
    const bytes = Buffer.concat([Buffer.from(['Date,Description,Amount', ...rows, ''].join('\n')), tail])
    expect(bytes.length).toBeGreaterThan(64 * 1024)
    const records = await parseAll(parser, bytesInput(bytes, { filename: 'late.csv', sourceRef: { account_name: 'Late', currency: 'EUR' } }))
    expect(ofKind(records, 'transaction').at(-1)).toMatchObject({ description: 'Müller', amount: '-2.00' })
  })
})

describe('csv_bank_statement: malformed files end in a ParseError with a location', () => {
  it.each([
    ['csv/malformed-no-amount-column.csv', /^no amount column: the header row has "Date", "Description", "Reference"/, 'line 1'],
    ['csv/malformed-non-numeric-amount-row7.csv', /^amount "TBD" is not a number/, 'line 8 (row 7), column "Amount"'],
    ['csv/malformed-unclosed-quote.csv', /^the CSV is malformed: Quote Not Closed/, undefined],
    ['csv/malformed-binary.csv', /^the file is binary, not CSV text/, 'the first bytes'],
  ])('%s', async (path, message, location) => {
    const failure = await parseFailure(parser, fixtureInput(path, { sourceRef: { account_name: 'Test', currency: 'USD' } }))
    expect(failure).toBeInstanceOf(ParseError)
    expect((failure as ParseError).message).toMatch(message)
    if (location !== undefined) expect((failure as ParseError).location).toBe(location)
    else expect((failure as ParseError).location).toMatch(/^line \d+$/)
  })

  it.each([
    ['csv/malformed-non-numeric-amount-row7.csv', 7],
    ['csv/malformed-no-amount-column.csv', undefined],
    ['csv/malformed-unclosed-quote.csv', undefined],
  ])('%s names the data row it refuses (%s), and only a row\'s failure names one', async (path, row) => {
    const failure = await parseFailure(parser, fixtureInput(path, { sourceRef: { account_name: 'Test', currency: 'USD' } }))
    expect(failure).toBeInstanceOf(ParseError)
    expect((failure as ParseError).row).toBe(row)
  })

  it.each([
    ['mixed decimal separators', 'Date;Text;Amount\n2024-03-01;A;1.234,56\n2024-03-02;B;1,234.56\n', { currency: 'EUR' }, /mix decimal points \(line 3\) and decimal commas \(line 2\)/, 'line 3'],
    ['mixed day/month order', 'Date,Text,Amount\n13/02/2024,A,1.00\n02/13/2024,B,1.00\n', { currency: 'EUR' }, /mix day-first and month-first/, 'line 3'],
    ['a date that is no date', 'Date,Text,Amount\n2024-03-01,A,1.00\nsoon,B,1.00\n2024-03-03,C,1.00\n', { currency: 'EUR' }, /^date "soon" is not a date/, 'line 3 (row 2), column "Date"'],
    ['both debit and credit', 'Date,Text,Debit,Credit\n2024-03-01,A,1.00,2.00\n', { currency: 'EUR' }, /both a debit and a credit/, 'line 2 (row 1), column "Debit"'],
    ['a symbol contradicting the currency', 'Date,Text,Amount\n2024-03-01,A,€ 1.00\n', { currency: 'USD' }, /written in EUR but the row's currency is USD/, 'line 2 (row 1), column "Amount"'],
    ['an invalid source_ref IBAN', 'Date,Text,Amount\n2024-03-01,A,1.00\n', { iban: 'DE00123', currency: 'EUR' }, /not a valid IBAN/, 'source_ref.iban'],
    ['no header row', 'just,some\nwords,here\n', { currency: 'EUR' }, /^no header row/, 'the first rows'],
    ['an amount without a date', 'Date,Text,Amount\n2024-03-01,A,1.00\n,B,2.00\n2024-03-03,C,1.00\n', { currency: 'EUR' }, /amount but no date/, 'line 3 (row 2), column "Date"'],
  ])('%s', async (_label, text, sourceRef, message, location) => {
    const failure = await parseFailure(parser, bytesInput(text, { filename: 'bad.csv', sourceRef: { account_name: 'Test', ...sourceRef } }))
    expect(failure).toBeInstanceOf(ParseError)
    expect((failure as ParseError).message).toMatch(message)
    expect((failure as ParseError).location).toBe(location)
  })

  it('needs an account: source_ref or at least a file name', async () => {
    const failure = await parseFailure(parser, bytesInput('Date,Text,Amount\n2024-03-01,A,1.00\n', { filename: null, sourceRef: { currency: 'EUR' } }))
    expect(failure).toBeInstanceOf(ParseError)
    expect((failure as ParseError).message).toMatch(/^no account/)
  })
})

describe('csv_bank_statement: accepts', () => {
  it.each(fixtureCatalogue)('%s → %s', (path, expected) => {
    expect(parser.accepts(fixtureInput(path))).toBe(expected === parser.name)
  })

  it.each(fixtureCatalogue.filter(([, expected]) => expected !== 'csv_bank_statement'))('refuses %s even when it is named .csv', (path) => {
    expect(parser.accepts(fixtureInput(path, { filename: 'statement.csv', mimeType: 'text/csv' }))).toBe(false)
  })

  it('accepts an unnamed plain-text upload with a statement header, and refuses prose', () => {
    const head = Buffer.from('Date;Description;Amount\n2024-03-01;Coffee;-3,50\n')
    expect(parser.accepts({ sourceType: 'csv_upload', mimeType: 'text/plain', filename: null, head })).toBe(true)
    expect(parser.accepts({ sourceType: 'other', mimeType: 'text/plain', filename: 'notes.txt', head: Buffer.from('Dear team,\nthe statement follows.\n') })).toBe(false)
    expect(parser.accepts({ sourceType: 'other', mimeType: 'application/json', filename: 'rows.json', head })).toBe(false)
  })
})

describe('csv_bank_statement: every record validates against ExtractedRecord', () => {
  it.each([
    ['csv/lindenhof-2024-03-04.de-windows-1252.csv', lindenhof],
    ['csv/bluebird-checking-2024-01-02.us.csv', { account_number: '000123456789', currency: 'USD' }],
    ['csv/dupont-overlap-1.fr.csv', { iban: 'FR7630006000011234567890189', currency: 'EUR' }],
    ['csv/dupont-overlap-2.fr.csv', { iban: 'FR7630006000011234567890189', currency: 'EUR' }],
    ['csv/taller-ruiz-2024-03.es-utf16le-tab.csv', {}],
    ['csv/van-dijk-2024-03.nl-utf16be.csv', {}],
    ['csv/bluebird-card-2024-03.pipe-symbols.csv', {}],
    ['csv/ambiguous-dates.csv', {}],
  ])('%s', async (path, sourceRef) => {
    const records = await parseAll(parser, fixtureInput(path, { sourceRef }))
    expect(records.length).toBeGreaterThan(1)
    expect(records.flatMap((entry) => schemaErrors(entry.record))).toEqual([])
  })
})

describe('csv_bank_statement: streaming', () => {
  const rows = 100_000
  /** Heap growth allowed while streaming 100,000 rows (≈24 MB of CSV): a sanity bound, not a benchmark. */
  const heapGrowthBytesMax = 20 * 1024 * 1024
  let directory: string
  let path: string
  let collectGarbage: () => void

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'steward-csv-'))
    path = join(directory, 'large.csv')
    await writeLargeCsv(path, rows)
    setFlagsFromString('--expose-gc')
    collectGarbage = runInNewContext('gc') as () => void
  }, 120_000)

  afterAll(() => {
    rmSync(directory, { recursive: true, force: true })
  })

  /** Parses the large file, sampling the heap after a collection every 10,000 records; the largest growth seen. */
  async function peakHeapGrowth(keep: ParsedRecord[] | undefined): Promise<{ growth: number; transactions: number }> {
    collectGarbage()
    const baseline = process.memoryUsage().heapUsed
    let growth = 0
    let transactions = 0
    let seen = 0
    for await (const output of parser.parse(fileInput(path, { sourceRef: { account_name: 'Large', currency: 'USD' } }))) {
      seen += 1
      if (output.type === 'record' && output.record.kind === 'transaction') transactions += 1
      if (keep !== undefined && output.type === 'record') keep.push(output)
      if (seen % 10_000 === 0) {
        collectGarbage()
        growth = Math.max(growth, process.memoryUsage().heapUsed - baseline)
      }
    }
    return { growth, transactions }
  }

  it('parses 100,000 rows with bounded heap growth', async () => {
    const { growth, transactions } = await peakHeapGrowth(undefined)
    expect(transactions).toBe(rows)
    expect(growth).toBeLessThan(heapGrowthBytesMax)
  }, 120_000)

  it('would exceed the bound if the records were kept (the measurement can fail)', async () => {
    const kept: ParsedRecord[] = []
    const { growth } = await peakHeapGrowth(kept)
    expect(kept.length).toBe(rows + 3)
    expect(growth).toBeGreaterThan(heapGrowthBytesMax)
  }, 120_000)
})
