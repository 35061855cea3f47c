import { beforeAll, describe, expect, it } from 'vitest'
import { ParseError, type ParsedRecord } from '../parser.ts'
import { camt053StatementParser as parser } from './camt053-statement.parser.ts'
import { csvBankStatementParser } from './csv-statement.parser.ts'
import { bytesInput, fixtureCatalogue, fixtureInput, ofKind, parseAll, parseFailure, readableFixtures, schemaErrors, sumOfAmounts, toCents } from './fixture-input.testing.ts'

const account = { iban: 'DE89370400440532013000', institution_id: 'COBADEFFXXX', name: 'Geschäftskonto', currency: 'EUR' }

function byReference(records: readonly ParsedRecord[], reference: string) {
  const found = ofKind(records, 'transaction').filter((transaction) => transaction.external_transaction_id === reference)
  expect(found, reference).toHaveLength(1)
  return found[0]!
}

/** A minimal camt.053 document around the given Ntry elements. */
function document(entries: string, version = '08', accountId = '<IBAN>DE89370400440532013000</IBAN>') {
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.${version}"><BkToCstmrStmt><GrpHdr><MsgId>M1</MsgId><CreDtTm>2024-05-01T00:00:00</CreDtTm></GrpHdr>
<Stmt><Id>S1</Id><Acct><Id>${accountId}</Id><Ccy>EUR</Ccy></Acct>${entries}</Stmt></BkToCstmrStmt></Document>`
}

describe('camt053_statement: camt.053.001.08, two months of one account', () => {
  let records: ParsedRecord[]
  beforeAll(async () => {
    records = await parseAll(parser, fixtureInput('camt053/lindenhof-2024-03-04.camt053-v08.xml'))
  })

  it('yields the account, its balances and 31 entries', () => {
    expect(records.map((entry) => entry.record.kind)).toEqual(['account', 'balance', 'balance', 'balance', ...Array(31).fill('transaction')])
    expect(records[0]?.record).toEqual({ kind: 'account', account, institution: 'Commerzbank AG' })
    expect(ofKind(records, 'balance')).toEqual([
      { kind: 'balance', account, balance_type: 'opening', as_of: '2024-03-01', amount: '24380.15', currency: 'EUR' },
      { kind: 'balance', account, balance_type: 'closing', as_of: '2024-04-30', amount: '28441.10', currency: 'EUR' },
      { kind: 'balance', account, balance_type: 'available', as_of: '2024-04-30', amount: '28441.10', currency: 'EUR' },
    ])
    expect(records.every((entry) => entry.confidence === 1)).toBe(true)
  })

  it('reads each entry field by field: the other party depends on the direction', () => {
    // A credit: the other party is the debtor.
    expect(byReference(records, '202403040001')).toEqual({
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
      details: { bank_transaction_code: 'PMNT/RCDT/ESCT', end_to_end_id: 'RE2024017', additional_entry_information: 'SEPA-Gutschrift', entry_status: 'BOOK' },
    })
    // A debit: the other party is the creditor.
    expect(byReference(records, '202403010001')).toMatchObject({
      amount: '-71.39',
      description: 'ADOBE *CREATIVE CLOUD Abo 03/2024',
      counterparty: { name: 'Adobe Systems Software Ireland Ltd', iban: 'IE29AIBK93115212345678' },
    })
    expect(byReference(records, '202403050001')).toMatchObject({ amount: '-38.47', transaction_date: '2024-03-05', posted_date: '2024-03-04', counterparty: { name: 'REWE Markt GmbH' } })
    const fee = byReference(records, '202403290001')
    expect(fee).toMatchObject({ amount: '-12.90', description: 'Kontoführungsgebühr 03/2024', details: { bank_transaction_code: 'ACMT/MDOP/CHRG' } })
    expect(fee).not.toHaveProperty('counterparty')
    expect(sumOfAmounts(ofKind(records, 'transaction').map((transaction) => transaction.amount))).toBe(toCents('28441.10') - toCents('24380.15'))
  })

  it('holds the same transactions as the CSV export of the same account and months', async () => {
    const csv = await parseAll(csvBankStatementParser, fixtureInput('csv/lindenhof-2024-03-04.de-windows-1252.csv', { sourceRef: { iban: 'DE89370400440532013000' } }))
    const key = (transaction: { transaction_date: string; posted_date?: string; amount: string; description: string; counterparty?: { name?: string } }) =>
      [transaction.transaction_date, transaction.posted_date, transaction.amount, transaction.description, transaction.counterparty?.name ?? ''].join(' | ')
    expect(ofKind(records, 'transaction').map(key).sort()).toEqual(ofKind(csv, 'transaction').map(key).sort())
  })
})

describe('camt053_statement: camt.053.001.02, overlapping statements', () => {
  it('gives the entries both statements share identical records', async () => {
    const first = ofKind(await parseAll(parser, fixtureInput('camt053/lindenhof-overlap-1.camt053-v02.xml')), 'transaction')
    const second = ofKind(await parseAll(parser, fixtureInput('camt053/lindenhof-overlap-2.camt053-v02.xml')), 'transaction')
    expect([first.length, second.length]).toEqual([25, 16])
    const shared = first.filter((transaction) => transaction.transaction_date >= '2024-04-01')
    expect(shared).toHaveLength(10)
    expect(second.filter((transaction) => transaction.transaction_date <= '2024-04-15')).toEqual(shared)
    // v.02 writes the party name directly and the status as a bare code.
    expect(shared.find((transaction) => transaction.external_transaction_id === '202404030001')).toMatchObject({
      amount: '2380.00',
      counterparty: { name: 'Müller & Söhne GmbH', iban: 'DE12500105170648489890' },
      status: 'posted',
    })
  })
})

describe('camt053_statement: camt.053.001.04 with two accounts, a batch, a reversal and a pending entry', () => {
  let records: ParsedRecord[]
  beforeAll(async () => {
    records = await parseAll(parser, fixtureInput('camt053/lindenhof-two-accounts.camt053-v04.xml'))
  })

  it('yields one account per Stmt: by IBAN, and by Othr/Id when there is no IBAN', () => {
    expect(ofKind(records, 'account')).toEqual([
      { kind: 'account', account: { iban: 'DE89370400440532013000', institution_id: 'COBADEFFXXX', currency: 'EUR' } },
      { kind: 'account', account: { account_number: '0532013001', institution_id: 'COBADEFFXXX', name: 'Tagesgeld', currency: 'EUR' } },
    ])
    const savings = ofKind(records, 'transaction').filter((transaction) => transaction.account.account_number === '0532013001')
    expect(savings.map(({ amount, transaction_date, posted_date }) => [amount, transaction_date, posted_date])).toEqual([
      ['23.17', '2024-05-02', '2024-04-30'],
      ['-5000.00', '2024-05-03', '2024-05-03'],
    ])
    expect(ofKind(records, 'balance').map(({ account: { iban, account_number }, balance_type, amount }) => [iban ?? account_number, balance_type, amount])).toEqual([
      ['DE89370400440532013000', 'opening', '28441.10'],
      ['DE89370400440532013000', 'closing', '22426.84'],
      ['DE89370400440532013000', 'available', '22037.84'],
      ['0532013001', 'opening', '25000.00'],
      ['0532013001', 'closing', '20023.17'],
    ])
  })

  it('books a batch as one transaction and lists its parts', () => {
    expect(byReference(records, '202405020001')).toMatchObject({
      amount: '-6085.65',
      description: 'Sammelüberweisung Gehälter 05/2024',
      details: {
        batch: [
          { amount: '-3215.40', currency: 'EUR', end_to_end_id: 'GEHALT-2024-05-KOEHLER', creditor: 'Jürgen Köhler', remittance: 'Gehalt Mai 2024' },
          { amount: '-2870.25', currency: 'EUR', end_to_end_id: 'GEHALT-2024-05-OEZTUERK', creditor: 'Anna Öztürk', remittance: 'Gehalt Mai 2024' },
        ],
      },
    })
    expect(byReference(records, '202405020001')).not.toHaveProperty('counterparty')
  })

  it('keeps a reversal posted (it moves the balance), marks it details.reversal, signs it by its own direction and names the original creditor', () => {
    expect(byReference(records, '202405030001')).toEqual({
      kind: 'transaction',
      account: { iban: 'DE89370400440532013000', institution_id: 'COBADEFFXXX', currency: 'EUR' },
      external_transaction_id: '202405030001',
      amount: '71.39',
      currency: 'EUR',
      transaction_date: '2024-05-03',
      posted_date: '2024-05-02',
      status: 'posted',
      description: 'ADOBE *CREATIVE CLOUD Abo 05/2024 Rücklastschrift: Widerspruch',
      counterparty: { name: 'Adobe Systems Software Ireland Ltd', iban: 'IE29AIBK93115212345678' },
      details: {
        bank_transaction_code: 'PMNT/RDDT/UPDD',
        end_to_end_id: 'ADOBE-INV-IE2024-05',
        mandate_id: 'ADB-77120',
        additional_entry_information: 'Rücklastschrift',
        entry_status: 'BOOK',
        reversal: true,
      },
    })
  })

  it('reads a pending entry with a date-time booking date, without taking its NtryRef (numbered per statement) as an id', () => {
    const [pending, ...others] = ofKind(records, 'transaction').filter((transaction) => transaction.status === 'pending')
    expect(others).toEqual([])
    expect(pending).not.toHaveProperty('external_transaction_id')
    expect(pending).toMatchObject({ status: 'pending', amount: '-389.00', transaction_date: '2024-05-03', counterparty: { name: 'Deutsche Lufthansa AG' } })
    expect(pending).not.toHaveProperty('posted_date')
  })
})

describe('camt053_statement: entry variants', () => {
  const entry = (inner: string) => `<Ntry><Amt Ccy="EUR">10.00</Amt><CdtDbtInd>CRDT</CdtDbtInd>${inner}<BookgDt><Dt>2024-05-02</Dt></BookgDt></Ntry>`

  it.each([
    ['an INFO entry is skipped', entry('<Sts><Cd>INFO</Cd></Sts>'), [], []],
    ['FUTR is pending', entry('<Sts><Cd>FUTR</Cd></Sts>'), [{ status: 'pending' }], []],
    ['the EndToEndId is the id when the bank gives no reference', entry('<Sts><Cd>BOOK</Cd></Sts><NtryDtls><TxDtls><Refs><EndToEndId>E2E-1</EndToEndId></Refs></TxDtls></NtryDtls>'), [{ external_transaction_id: 'E2E-1' }], []],
    ['NOTPROVIDED is no id', entry('<Sts><Cd>BOOK</Cd></Sts><NtryDtls><TxDtls><Refs><EndToEndId>NOTPROVIDED</EndToEndId></Refs></TxDtls></NtryDtls>'), [{ description: '' }], ['external_transaction_id']],
    ['AddtlTxInf describes when there is no remittance', entry('<Sts><Cd>BOOK</Cd></Sts><NtryDtls><TxDtls><AddtlTxInf>Zahlung</AddtlTxInf></TxDtls></NtryDtls><AddtlNtryInf>Gutschrift</AddtlNtryInf>'), [{ description: 'Zahlung' }], []],
  ])('%s', async (_label, entries, expected, absent) => {
    const records = await parseAll(parser, bytesInput(document(entries), { filename: 'camt.xml' }))
    const transactions = ofKind(records, 'transaction')
    expect(transactions).toHaveLength(expected.length)
    expect(transactions).toMatchObject(expected)
    for (const key of absent) expect(transactions[0]).not.toHaveProperty(key)
  })
})

describe('camt053_statement: amounts stay exact', () => {
  it('keeps every digit the bank wrote, even beyond the currency’s minor units, and pads to them', async () => {
    const entries = ['0.125', '7', '1234.5'].map((amount) => `<Ntry><Amt Ccy="EUR">${amount}</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2024-05-02</Dt></BookgDt></Ntry>`).join('')
    const records = await parseAll(parser, bytesInput(document(entries), { filename: 'camt.xml' }))
    expect(ofKind(records, 'transaction').map((transaction) => transaction.amount)).toEqual(['-0.125', '-7.00', '-1234.50'])
  })
})

describe('camt053_statement: malformed files end in a ParseError', () => {
  it('refuses a truncated file, naming the elements left open', async () => {
    const failure = await parseFailure(parser, fixtureInput('camt053/malformed-truncated.xml'))
    expect(failure).toBeInstanceOf(ParseError)
    expect((failure as ParseError).message).toBe(
      'the XML ends before its elements are closed (still open: Document/BkToCstmrStmt/Stmt/Ntry/NtryDtls/TxDtls/RltdPties): the file is truncated (at end of file, line 398)',
    )
    expect((failure as ParseError).location).toBe('end of file, line 398')
  })

  it.each([
    ['mismatched tags', '<?xml version="1.0"?>\n<Document><BkToCstmrStmt></Stmt></Document>', /^the XML is malformed: /, /^line 2, column \d+$/],
    ['not a statement', '<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.09"><CstmrCdtTrfInitn/></Document>', /^no BkToCstmrStmt element/, /^element Document$/],
    ['a camt.052 report', '<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.052.001.08"><BkToCstmrAcctRpt/></Document>', /not a camt\.053 statement/, /^element Document$/],
    ['no account', document('', '08', ''), /names no account/, /^Stmt 1 \(Id S1\), Acct$/],
    ['an invalid account IBAN', document('', '08', '<IBAN>DE00370400440532013000</IBAN>'), /IBAN "DE00370400440532013000" is not valid/, /^Stmt 1 \(Id S1\), Acct\/Id\/IBAN$/],
    ['no CdtDbtInd', document('<Ntry><Amt Ccy="EUR">1.00</Amt><Sts>BOOK</Sts><BookgDt><Dt>2024-05-02</Dt></BookgDt></Ntry>'), /neither CRDT nor DBIT/, /^Stmt 1 \(Id S1\), Ntry 1, CdtDbtInd$/],
    ['an amount with grouping', document('<Ntry><Amt Ccy="EUR">1,000.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2024-05-02</Dt></BookgDt></Ntry>'), /"1,000.00" is not an amount/, /^Stmt 1 \(Id S1\), Ntry 1, Amt$/],
    ['an amount without currency', document('<Ntry><Amt>1.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2024-05-02</Dt></BookgDt></Ntry>'), /no currency/, /^Stmt 1 \(Id S1\), Ntry 1, Amt\/@Ccy$/],
    ['an unknown status', document('<Ntry><Amt Ccy="EUR">1.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>XXXX</Sts><BookgDt><Dt>2024-05-02</Dt></BookgDt></Ntry>'), /status "XXXX"/, /^Stmt 1 \(Id S1\), Ntry 1, Sts$/],
    ['no date', document('<Ntry><Amt Ccy="EUR">1.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts></Ntry>'), /neither a booking date nor a value date/, /^Stmt 1 \(Id S1\), Ntry 1$/],
    ['an impossible date', document('<Ntry><Amt Ccy="EUR">1.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2024-02-30</Dt></BookgDt></Ntry>'), /"2024-02-30" is not an ISO date/, /^Stmt 1 \(Id S1\), Ntry 1, BookgDt$/],
  ])('%s', async (_label, text, message, location) => {
    const failure = await parseFailure(parser, bytesInput(text, { filename: 'camt053.xml' }))
    expect(failure).toBeInstanceOf(ParseError)
    expect((failure as ParseError).message).toMatch(message)
    expect((failure as ParseError).location).toMatch(location)
  })
})

describe('camt053_statement: accepts', () => {
  it.each(fixtureCatalogue)('%s → %s', (path, expected) => {
    expect(parser.accepts(fixtureInput(path))).toBe(expected === parser.name)
  })

  it('refuses other XML and camt.052, even named .xml', () => {
    expect(parser.accepts({ sourceType: 'other', mimeType: 'application/xml', filename: 'payments.xml', head: Buffer.from('<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.09">') })).toBe(false)
    expect(parser.accepts({ sourceType: 'other', mimeType: 'application/xml', filename: 'report.xml', head: Buffer.from('<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.052.001.08"><BkToCstmrAcctRpt>') })).toBe(false)
  })
})

describe('camt053_statement: every record validates against ExtractedRecord', () => {
  it.each(readableFixtures.filter((path) => path.startsWith('camt053/')))('%s', async (path) => {
    const records = await parseAll(parser, fixtureInput(path))
    expect(records.flatMap((entry) => schemaErrors(entry.record))).toEqual([])
  })
})
