/**
 * The sandbox demo business (sandbox/demo/, written by scripts/generate-sandbox-data.ts) read back
 * through the real parsers, chosen the way extraction chooses them (`selectParser` over source type,
 * media type, file name and the first 64 KiB), with the source types and source_ref of manifest.json
 * (the table of sandbox/demo/README.md). Checks that every file parses, the records each yields, that
 * every statement adds up exactly (opening + transactions = closing, each month opening where the last
 * closed), and that the files agree with one another: every payment the story implies is on both sides
 * with the same amount and a reference or counterparty reconciliation can see.
 *
 * Pure: no database, no server. Runs in a few seconds.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { addDays, daysBetween } from '../../src/kernel/dates.ts'
import { decimalCompare, decimalNegate, decimalSubtract, decimalSum } from '../../src/kernel/money.ts'
import type {
  AccountRecord,
  BalanceRecord,
  ExtractedRecord,
  InvoiceRecord,
  ObligationRecord,
  TransactionRecord,
  WalletTransferRecord,
} from '../../src/modules/raw/domain/extracted.ts'
import { decideMediaType } from '../../src/modules/raw/domain/media-types.ts'
import { genericSourceType, providerSourceTypes, type Provider } from '../../src/modules/raw/domain/source-types.ts'
import type { ParsedAttachment, ParserOutput } from '../../src/modules/raw/parsers/parser.ts'
import { selectParser } from '../../src/modules/raw/parsers/registry.ts'
import { contractProblems, inputFromBytes } from '../fixtures/raw/documents/fixture-input.ts'

const demoDirectory = fileURLToPath(new URL('../../sandbox/demo/', import.meta.url))

interface FileSpec {
  readonly file: string
  readonly mime_type: string
  readonly source_type: string
  readonly ingest: 'upload' | 'webhook' | 'internal'
  readonly provider_webhook?: string
  readonly source_ref?: Record<string, unknown>
  readonly parser: string
}

const manifest = JSON.parse(readFileSync(join(demoDirectory, 'manifest.json'), 'utf8')) as { load_in_order: FileSpec[] }
const specs = manifest.load_in_order
const readme = readFileSync(join(demoDirectory, 'README.md'), 'utf8')

const files = {
  erp: 'erp-kontor-2026-q1.json',
  payroll: 'payroll-lohnwerk-2026-q1.json',
  savings: 'tagesgeld-2026-q1.ofx',
  january: 'girokonto-2026-01.camt053.xml',
  february: 'girokonto-2026-02.sta',
  march: 'girokonto-2026-03.csv',
  overlap: 'girokonto-2026-03-15_2026-04-10.csv',
  processor: 'lumenpay-2026-q1.json',
  pdf: 'rechnung-hanse-rohkaffee-HR-26-0158.pdf',
  email: 'quittung-kartonwerk-KW-88213.eml',
  wallet: 'wallet-base-usdc-2026-q1.json',
} as const

/** What each file yields, by record kind (and attachments). */
const expectedKinds: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  [files.erp]: { invoice: 15, obligation: 1 },
  [files.payroll]: { obligation: 9 },
  [files.savings]: { account: 1, transaction: 6, balance: 2 },
  [files.january]: { account: 1, balance: 3, transaction: 29 },
  [files.february]: { account: 1, balance: 3, transaction: 29 },
  [files.march]: { account: 1, balance: 2, transaction: 30 },
  [files.overlap]: { account: 1, balance: 2, transaction: 25 },
  [files.processor]: { account: 1, transaction: 685, balance: 1 },
  [files.pdf]: { invoice: 1 },
  [files.email]: { attachment: 1 },
  [files.wallet]: { account: 1, wallet_transfer: 4 },
}

const checkingIban = 'DE84100900002847563019'
const savingsIban = 'DE62100900002847563027'

const outputs = new Map<string, ParserOutput[]>()
const parserNames = new Map<string, string | undefined>()

function inputOf(spec: FileSpec) {
  const bytes = readFileSync(join(demoDirectory, spec.file))
  return inputFromBytes(bytes, { sourceType: spec.source_type, mimeType: spec.mime_type, filename: spec.file, ...(spec.source_ref === undefined ? {} : { sourceRef: spec.source_ref }) })
}

async function parse(spec: FileSpec): Promise<ParserOutput[]> {
  const input = inputOf(spec)
  const parser = selectParser(input)
  parserNames.set(spec.file, parser?.name)
  if (parser === undefined) throw new Error(`no parser accepts ${spec.file}`)
  const collected: ParserOutput[] = []
  for await (const output of parser.parse(input)) collected.push(output)
  return collected
}

function records(file: string): ExtractedRecord[] {
  const collected = outputs.get(file)
  if (collected === undefined) throw new Error(`${file} was not parsed`)
  return collected.flatMap((output) => (output.type === 'record' ? [output.record] : []))
}

function ofKind<K extends ExtractedRecord['kind']>(file: string, kind: K): Array<Extract<ExtractedRecord, { kind: K }>> {
  return records(file).filter((record): record is Extract<ExtractedRecord, { kind: K }> => record.kind === kind)
}

const transactions = (file: string): TransactionRecord[] => ofKind(file, 'transaction')
const balance = (file: string, type: BalanceRecord['balance_type']): BalanceRecord => {
  const found = ofKind(file, 'balance').filter((record) => record.balance_type === type)
  expect(found, `${file}: one ${type} balance`).toHaveLength(1)
  return found[0]!
}
/** Exact sums and comparisons; results canonical (`"35108.5"`), so compare with `same` or canonicalize with `canon`. */
const sumOf = (amounts: readonly string[]) => decimalSum(amounts)
const canon = (amount: string) => decimalSum([amount])
const same = (a: string, b: string) => decimalCompare(a, b) === 0

/** Every checking transaction once: January, February, March, and the overlap file's April rows. */
function checkingTransactions(): TransactionRecord[] {
  return [...transactions(files.january), ...transactions(files.february), ...transactions(files.march), ...transactions(files.overlap).filter((row) => row.transaction_date >= '2026-04-01')]
}

/** What reconciliation compares: the description without spaces and punctuation (matchers.ts `citesReference`). */
function cites(transaction: TransactionRecord, reference: string): boolean {
  const squash = (text: string) => text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toUpperCase().replace(/[^A-Z0-9]/g, '')
  return squash(transaction.description).includes(squash(reference))
}

beforeAll(async () => {
  for (const spec of specs) outputs.set(spec.file, await parse(spec))
})

describe('sandbox/demo: every file parses with the parser extraction would choose', () => {
  it('the manifest lists exactly the data files of the directory, and the README names each with its source type', () => {
    const onDisk = readdirSync(demoDirectory)
      .filter((name) => name !== 'README.md' && name !== 'manifest.json')
      .sort()
    expect(specs.map((spec) => spec.file).sort()).toEqual(onDisk)
    expect(Object.keys(expectedKinds).sort()).toEqual(onDisk)
    for (const spec of specs) {
      const row = readme.split('\n').find((line) => line.startsWith(`| \`${spec.file}\``))
      expect(row, `README row for ${spec.file}`).toBeDefined()
      expect(row).toContain(`\`${spec.source_type}\``)
      if (spec.provider_webhook !== undefined) expect(row).toContain(`provider webhook \`${spec.provider_webhook}\``)
    }
  })

  it.each(specs.map((spec) => [spec.file, spec] as const))('%s', (file, spec) => {
    expect(parserNames.get(file)).toBe(spec.parser)
    const collected = outputs.get(file)!
    expect(contractProblems(collected)).toEqual([])
    const kinds: Record<string, number> = {}
    for (const output of collected) {
      const kind = output.type === 'record' ? output.record.kind : 'attachment'
      kinds[kind] = (kinds[kind] ?? 0) + 1
      if (output.type === 'record') expect(output.confidence).toBeGreaterThanOrEqual(0.9)
    }
    expect(kinds).toEqual(expectedKinds[file])
  })

  it('webhook payloads use the source type their provider webhook delivers; uploads use an ingestible one', () => {
    for (const spec of specs) {
      if (spec.ingest === 'webhook') {
        const provider = spec.provider_webhook as Provider
        const payload = JSON.parse(readFileSync(join(demoDirectory, spec.file), 'utf8'))
        expect(spec.source_type).toBe(provider === 'generic_hmac' ? genericSourceType(payload) : providerSourceTypes[provider])
      }
      if (spec.ingest === 'upload') expect(['csv_upload', 'pdf_upload', 'email_inbound', 'other']).toContain(spec.source_type)
    }
    // Payroll has no webhook of its own: generic_hmac records it as payroll_provider by its schema.
    expect(specs.find((spec) => spec.file === files.payroll)).toMatchObject({ ingest: 'webhook', provider_webhook: 'generic_hmac', source_type: 'payroll_provider' })
  })
})

describe('sandbox/demo: the checking account', () => {
  it('is one account (IBAN) in all four files, EUR', () => {
    for (const file of [files.january, files.february, files.march, files.overlap]) {
      const [account] = ofKind(file, 'account') as AccountRecord[]
      expect(account?.account.iban).toBe(checkingIban)
      expect(account?.account.currency).toBe('EUR')
      expect(transactions(file).every((row) => row.account.iban === checkingIban && row.currency === 'EUR' && row.status === 'posted')).toBe(true)
    }
  })

  it('each statement adds up exactly: opening + transactions = closing', () => {
    for (const file of [files.january, files.february, files.march, files.overlap]) {
      const opening = balance(file, 'opening').amount
      const closing = balance(file, 'closing').amount
      expect(sumOf([opening, ...transactions(file).map((row) => row.amount)]), file).toBe(canon(closing))
    }
  })

  it('each month opens where the previous one closed; each opening is dated after the previous closing and by its first booking', () => {
    // What statement_balance needs: an opening balance counts its own day's bookings, so it must be dated
    // after the previous statement's closing day and no later than its statement's first booking.
    const chain = [files.january, files.february, files.march] as const
    expect(balance(files.january, 'opening')).toMatchObject({ as_of: '2026-01-01', amount: '89412.60' })
    expect(balance(files.january, 'available').amount).toBe(balance(files.january, 'closing').amount)
    expect([balance(files.january, 'closing'), balance(files.february, 'closing'), balance(files.march, 'closing'), balance(files.overlap, 'closing')].map((closing) => [closing.as_of, closing.amount])).toEqual([
      ['2026-01-31', '66286.75'],
      ['2026-02-28', '45540.15'],
      ['2026-03-31', '30212.58'],
      ['2026-04-10', '22860.04'],
    ])
    chain.forEach((file, index) => {
      const opening = balance(file, 'opening')
      const firstBooking = transactions(file).map((row) => row.transaction_date).sort()[0]!
      expect(opening.as_of <= firstBooking, file).toBe(true)
      if (index > 0) {
        const previous = balance(chain[index - 1]!, 'closing')
        expect(opening.amount, file).toBe(previous.amount)
        expect(opening.as_of > previous.as_of, file).toBe(true)
      }
    })
  })

  it('each month has 25 to 45 bookings, all dated within it', () => {
    const months = [
      [files.january, '2026-01'],
      [files.february, '2026-02'],
      [files.march, '2026-03'],
    ] as const
    for (const [file, month] of months) {
      const rows = transactions(file)
      expect(rows.length).toBeGreaterThanOrEqual(25)
      expect(rows.length).toBeLessThanOrEqual(45)
      expect(rows.every((row) => row.transaction_date.startsWith(month))).toBe(true)
    }
  })

  it('the CSV running balance is consistent row by row (oldest first: previous + amount = balance after)', () => {
    for (const file of [files.march, files.overlap]) {
      let running = balance(file, 'opening').amount
      for (const row of [...transactions(file)].reverse()) {
        running = decimalSum([running, row.amount])
        expect(same(running, String(row.details?.balance_after)), `${file} ${row.transaction_date} ${row.description}`).toBe(true)
      }
    }
  })

  it('the overlap file repeats the second half of March exactly as the March file has it, and its opening is the balance before it', () => {
    const key = (row: TransactionRecord) => JSON.stringify([row.transaction_date, row.posted_date, row.amount, row.description, row.counterparty ?? null])
    const marchSecondHalf = transactions(files.march).filter((row) => row.transaction_date >= '2026-03-15')
    const overlapMarch = transactions(files.overlap).filter((row) => row.transaction_date <= '2026-03-31')
    expect(overlapMarch.length).toBe(17)
    expect(overlapMarch.map(key)).toEqual(marchSecondHalf.map(key))
    const beforeOverlap = transactions(files.march).filter((row) => row.transaction_date < '2026-03-15')
    const opening = balance(files.overlap, 'opening')
    expect(opening.as_of).toBe('2026-03-16')
    expect(canon(opening.amount)).toBe(sumOf([balance(files.march, 'opening').amount, ...beforeOverlap.map((row) => row.amount)]))
    expect(transactions(files.overlap).filter((row) => row.transaction_date >= '2026-04-01')).toHaveLength(8)
  })

  it('has two genuinely identical bookings on 19 March, in both CSV files', () => {
    for (const file of [files.march, files.overlap]) {
      const filterPaper = transactions(file).filter((row) => row.transaction_date === '2026-03-19' && row.description === 'Kartenzahlung girocard Barista Supply Berlin Filterpapier')
      expect(filterPaper.map((row) => [row.amount, row.counterparty])).toEqual([
        ['-23.80', { name: 'Barista Supply Berlin' }],
        ['-23.80', { name: 'Barista Supply Berlin' }],
      ])
    }
  })

  it('gives every CAMT and MT940 booking its own bank reference', () => {
    const ids = [...transactions(files.january), ...transactions(files.february)].map((row) => row.external_transaction_id)
    expect(ids.every((id) => id !== undefined)).toBe(true)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('reads counterparty names with umlauts the same in CAMT (UTF-8), MT940 (Latin-1) and CSV (UTF-8)', () => {
    const names = new Set(checkingTransactions().flatMap((row) => (row.counterparty?.name === undefined ? [] : [row.counterparty.name])))
    for (const name of ['Bäckerei Sonnenkorn GmbH & Co. KG', 'Röstmaschinen Service Nord GmbH', 'Frischmarkt Großhandel Berlin', 'Café Kiez Kaffeebar GmbH', 'Bürobedarf Ostkreuz']) {
      expect(names.has(name), name).toBe(true)
    }
    expect([...names].some((name) => /[\uFFFD]|Ã/.test(name))).toBe(false)
  })
})

describe('sandbox/demo: the other accounts', () => {
  it('savings (OFX): 20,000.00 on 1 January + its transactions = the closing balance; the transfers are the checking outflows to its IBAN', () => {
    const [account] = ofKind(files.savings, 'account')
    expect(account).toMatchObject({ account: { iban: savingsIban, currency: 'EUR' }, account_type: 'bank_savings' })
    const closing = balance(files.savings, 'closing')
    expect(closing.as_of).toBe('2026-03-31')
    expect(canon(closing.amount)).toBe(sumOf(['20000.00', ...transactions(files.savings).map((row) => row.amount)]))
    const inflows = transactions(files.savings)
      .filter((row) => row.details?.transaction_type === 'XFER')
      .map((row) => [row.transaction_date, row.amount])
    const outflows = checkingTransactions()
      .filter((row) => row.counterparty?.iban === savingsIban)
      .map((row) => [row.transaction_date, canon(decimalNegate(row.amount))])
    expect(inflows.map(([date, amount]) => [date, canon(amount!)])).toEqual(outflows)
    expect(outflows).toHaveLength(3)
  })

  it('card processor: the balance is the sum of every movement; each payout is the week of charges − fees − refunds before it', () => {
    const rows = transactions(files.processor)
    const current = balance(files.processor, 'current')
    expect(current.as_of).toBe('2026-03-31')
    expect(sumOf(rows.map((row) => row.amount))).toBe(canon(current.amount))
    const payouts = rows.filter((row) => row.details?.kind === 'payout')
    expect(payouts).toHaveLength(13)
    let paidThrough = '2025-12-31'
    for (const payout of payouts) {
      const week = rows.filter((row) => row.details?.kind !== 'payout' && row.transaction_date > paidThrough && row.transaction_date < payout.transaction_date)
      expect(canon(decimalNegate(payout.amount)), payout.external_transaction_id).toBe(sumOf(week.map((row) => row.amount)))
      paidThrough = daysBeforeIso(payout.transaction_date)
    }
  })

  it('card processor: every payout arrives on checking as a credit of the same amount and text from LumenPay', () => {
    const payouts = transactions(files.processor).filter((row) => row.details?.kind === 'payout')
    const credits = checkingTransactions().filter((row) => row.counterparty?.name === 'LumenPay Europe B.V.')
    expect(credits).toHaveLength(payouts.length)
    for (const payout of payouts) {
      expect(payout.counterparty).toEqual({ name: 'Juniper & Finch Geschäftskonto', iban: checkingIban })
      const arrival = payout.status === 'posted' ? payout.posted_date : (payout.details?.expected_arrival_date as string)
      const credit = credits.filter((row) => row.transaction_date === arrival && row.description === payout.description)
      expect(credit.map((row) => canon(row.amount)), `${payout.external_transaction_id} arriving ${arrival}`).toEqual([decimalNegate(payout.amount)])
    }
    expect(payouts.filter((payout) => payout.status === 'pending').map((payout) => payout.details?.expected_arrival_date)).toEqual(['2026-04-01'])
  })

  it('wallet: three USDC payments in, 3,000 USDC out to the exchange, whose euros arrive on checking two days later', () => {
    const [account] = ofKind(files.wallet, 'account')
    expect(account).toMatchObject({ account: { chain_id: 8453 }, account_type: 'onchain' })
    const transfers = ofKind(files.wallet, 'wallet_transfer') as WalletTransferRecord[]
    expect(transfers.map((transfer) => [transfer.timestamp.slice(0, 10), transfer.token, transfer.amount])).toEqual([
      ['2026-01-22', 'USDC', '1250'],
      ['2026-02-19', 'USDC', '980.5'],
      ['2026-03-18', 'USDC', '1410'],
      ['2026-03-24', 'USDC', '-3000'],
    ])
    expect(sumOf(transfers.map((transfer) => transfer.amount))).toBe(canon('640.50'))
    expect(new Set(transfers.map((transfer) => transfer.chain_id))).toEqual(new Set([8453]))
    const proceeds = checkingTransactions().filter((row) => row.counterparty?.name === 'Nordlicht Digital Exchange GmbH')
    expect(proceeds.map((row) => [row.transaction_date, canon(row.amount)])).toEqual([['2026-03-26', '2752.8']])
    expect(cites(proceeds[0]!, '3000 USDC')).toBe(true)
  })
})

describe('sandbox/demo: invoices, bills, the subscription and payroll agree with the bank', () => {
  const erpInvoices = () => ofKind(files.erp, 'invoice') as InvoiceRecord[]

  it('ERP: 10 receivable invoices, 5 bills, all open in the ERP, amounts that add up', () => {
    const invoices = erpInvoices()
    expect(invoices.filter((invoice) => invoice.direction === 'receivable')).toHaveLength(10)
    expect(invoices.filter((invoice) => invoice.direction === 'payable')).toHaveLength(5)
    for (const invoice of invoices) {
      expect(invoice.currency).toBe('EUR')
      expect(sumOf([invoice.subtotal!, invoice.tax!])).toBe(canon(invoice.total))
      expect(sumOf((invoice.line_items ?? []).map((line) => line.amount!))).toBe(canon(invoice.subtotal!))
      expect(invoice.amount_paid).toBe('0')
      expect(invoice.status).toBe(invoice.invoice_number === 'JF-2026-007' ? 'overdue' : 'sent')
    }
  })

  it('receivables: the credits citing each invoice number pay it in full, in two parts for JF-2026-004, not at all for JF-2026-007', () => {
    const bank = checkingTransactions()
    const paidIn = new Map<string, string[]>()
    for (const invoice of erpInvoices().filter((candidate) => candidate.direction === 'receivable')) {
      const payments = bank.filter((row) => cites(row, invoice.invoice_number))
      paidIn.set(invoice.invoice_number, payments.map((row) => row.amount))
      for (const payment of payments) {
        expect(Number(payment.amount)).toBeGreaterThan(0)
        expect(payment.counterparty?.name).toBe(invoice.counterparty.name)
        expect(Math.abs(daysBetween(invoice.due_date!, payment.transaction_date))).toBeLessThanOrEqual(45)
      }
      if (invoice.invoice_number === 'JF-2026-007') expect(payments).toEqual([])
      else expect(sumOf(payments.map((row) => row.amount)), invoice.invoice_number).toBe(canon(invoice.total))
    }
    expect(paidIn.get('JF-2026-004')?.map(canon)).toEqual(['1500', '1913.3'])
    // An invoice paid in one transfer is the only credit of its customer with its amount: nothing else could take it.
    for (const invoice of erpInvoices().filter((candidate) => candidate.direction === 'receivable' && candidate.invoice_number !== 'JF-2026-004')) {
      const sameAmount = bank.filter((row) => row.counterparty?.name === invoice.counterparty.name && same(row.amount, invoice.total))
      expect(sameAmount.length, invoice.invoice_number).toBe(invoice.invoice_number === 'JF-2026-007' ? 0 : 1)
    }
  })

  it('bills: each is paid by one transfer to the vendor IBAN, citing its number, for its total', () => {
    const bank = checkingTransactions()
    for (const bill of erpInvoices().filter((invoice) => invoice.direction === 'payable')) {
      const payments = bank.filter((row) => cites(row, bill.invoice_number))
      expect(payments, bill.invoice_number).toHaveLength(1)
      expect(same(payments[0]!.amount, decimalNegate(bill.total)), bill.invoice_number).toBe(true)
      expect(payments[0]!.counterparty?.iban).toBe(bill.counterparty.iban)
      expect(payments[0]!.transaction_date <= bill.due_date!).toBe(true)
    }
  })

  it('the subscription: a recurring payable obligation to Shopify, charged three times on the 13th for its amount', () => {
    const [obligation] = ofKind(files.erp, 'obligation') as ObligationRecord[]
    expect(obligation).toEqual({
      kind: 'obligation',
      obligation_type: 'subscription',
      direction: 'payable',
      reference: 'kontor_erp:sub_shopify_basic',
      description: 'Shopify Basic, Onlineshop juniperfinch.example',
      amount: '39',
      currency: 'EUR',
      due_date: '2026-04-13',
      recurrence: 'monthly',
      counterparty: { name: 'Shopify International Limited', iban: expect.stringMatching(/^IE\d{2}CITI/) },
    })
    const charges = checkingTransactions().filter((row) => row.counterparty?.iban === obligation!.counterparty!.iban)
    expect(charges.map((row) => [row.transaction_date, row.amount, row.counterparty?.name])).toEqual([
      ['2026-01-13', '-39.00', 'Shopify International Limited'],
      ['2026-02-13', '-39.00', 'Shopify International Limited'],
      ['2026-03-13', '-39.00', 'Shopify International Limited'],
    ])
    expect(checkingTransactions().filter((row) => same(row.amount, '-39'))).toHaveLength(3)
  })

  it('payroll: each net pay is debited by the provider on its funding date; each tax is paid to its authority on its due date', () => {
    const obligations = ofKind(files.payroll, 'obligation') as ObligationRecord[]
    const bank = checkingTransactions()
    const payroll = obligations.filter((obligation) => obligation.obligation_type === 'payroll')
    const taxes = obligations.filter((obligation) => obligation.obligation_type === 'tax')
    expect(payroll).toHaveLength(3)
    expect(taxes).toHaveLength(6)
    for (const obligation of payroll) {
      const debits = bank.filter((row) => same(row.amount, decimalNegate(obligation.amount)))
      expect(debits.map((row) => [row.transaction_date, row.counterparty?.name]), obligation.reference).toEqual([[obligation.due_date, 'Lohnwerk Payroll GmbH']])
      expect(obligation.counterparty).toEqual({ name: 'Lohnwerk Payroll GmbH' })
    }
    for (const obligation of taxes) {
      const debits = bank.filter((row) => same(row.amount, decimalNegate(obligation.amount)) && row.counterparty?.name === obligation.counterparty?.name)
      expect(debits.map((row) => row.transaction_date), obligation.reference).toEqual([obligation.due_date])
    }
  })

  it('the PDF is bill HR-26-0158 as the ERP has it: number, dates, amounts and the vendor identity (so it is one Ledger invoice)', () => {
    const [pdf] = ofKind(files.pdf, 'invoice') as InvoiceRecord[]
    const bill = erpInvoices().find((invoice) => invoice.invoice_number === 'HR-26-0158')!
    expect(pdf).toEqual({
      kind: 'invoice',
      direction: 'payable',
      invoice_number: bill.invoice_number,
      issue_date: bill.issue_date,
      due_date: bill.due_date,
      currency: bill.currency,
      total: bill.total,
      subtotal: bill.subtotal,
      tax: bill.tax,
      counterparty: bill.counterparty,
    })
    expect(bill.counterparty).toMatchObject({ name: 'Hanse Rohkaffee Import GmbH', iban: expect.any(String), tax_id: expect.any(String), email: expect.any(String) })
  })

  it('the e-mail carries the PDF receipt, which pdf_invoice reads as paid; the card payment it documents is in the February statement', async () => {
    const attachments = outputs.get(files.email)!.filter((output): output is ParsedAttachment => output.type === 'attachment')
    expect(attachments.map((attachment) => [attachment.filename, attachment.mimeType])).toEqual([['Quittung-KW-88213.pdf', 'application/pdf']])
    const attachment = attachments[0]!
    const mediaType = decideMediaType(attachment.mimeType, attachment.filename)
    if (!mediaType.ok) throw new Error('the attachment is not a media type Raw keeps')
    const input = inputFromBytes(attachment.content, { sourceType: 'email_inbound', mimeType: mediaType.mediaType, filename: attachment.filename })
    const parser = selectParser(input)
    expect(parser?.name).toBe('pdf_invoice')
    const read: ParserOutput[] = []
    for await (const output of parser!.parse(input)) read.push(output)
    expect(contractProblems(read)).toEqual([])
    expect(read).toHaveLength(1)
    const receipt = (read[0] as { record: InvoiceRecord }).record
    expect(receipt).toEqual({
      kind: 'invoice',
      direction: 'payable',
      invoice_number: 'KW-88213',
      issue_date: '2026-02-18',
      currency: 'EUR',
      total: '318.62',
      subtotal: '267.75',
      tax: '50.87',
      amount_paid: '318.62',
      status: 'paid',
      counterparty: { name: 'Kartonwerk Verpackungen GmbH', tax_id: 'DE296614058', email: 'shop@kartonwerk.example' },
    })
    // transaction_receipt: the one outflow of its total, dated 3 days before to 7 after, with its counterparty or number.
    const charges = checkingTransactions().filter((row) => same(row.amount, decimalNegate(receipt.total)))
    expect(charges).toHaveLength(1)
    expect(charges[0]).toMatchObject({ transaction_date: '2026-02-19', posted_date: '2026-02-18', counterparty: { name: receipt.counterparty.name } })
    const offset = daysBetween(receipt.issue_date!, charges[0]!.transaction_date)
    expect(offset >= -3 && offset <= 7).toBe(true)
    expect(cites(charges[0]!, 'KW-88213')).toBe(true)
  })

  it('no two open one-off obligations of one counterparty and amount fall due within 3 days (no obligation_duplicate)', () => {
    const oneOff = [
      ...erpInvoices().map((invoice) => ({ who: invoice.counterparty.name, amount: invoice.total, due: invoice.due_date!, reference: invoice.invoice_number })),
      ...(ofKind(files.payroll, 'obligation') as ObligationRecord[]).map((obligation) => ({ who: obligation.counterparty?.name, amount: obligation.amount, due: obligation.due_date!, reference: obligation.reference })),
    ]
    for (const a of oneOff) {
      for (const b of oneOff) {
        if (a.reference === b.reference) continue
        const clash = a.who === b.who && same(a.amount, b.amount) && Math.abs(daysBetween(a.due, b.due)) <= 3
        expect(clash, `${a.reference} / ${b.reference}`).toBe(false)
      }
    }
  })

  it('the README states the figures the files hold', () => {
    const unique = checkingTransactions().length
    expect(unique).toBe(96)
    expect(readme).toContain(`checking ${unique} (`)
    const total = unique + transactions(files.savings).length + transactions(files.processor).length + ofKind(files.wallet, 'wallet_transfer').length
    expect(readme).toContain(`**Transactions: ${total}**`)
    for (const file of [files.january, files.february, files.march, files.overlap]) {
      expect(readme).toContain(`EUR ${englishAmount(balance(file, 'closing').amount)}`)
    }
    expect(readme).toContain(`EUR ${englishAmount(balance(files.savings, 'closing').amount)} (31 Mar, LEDGERBAL)`)
    expect(decimalSubtract(balance(files.january, 'opening').amount, balance(files.march, 'closing').amount)).toBe('59200.02')
  })
})

function daysBeforeIso(day: string): string {
  return addDays(day, -1)
}

/** `22860.04` as the README writes it: `22,860.04`. */
function englishAmount(amount: string): string {
  const [whole, fraction = '00'] = amount.split('.')
  return `${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction.padEnd(2, '0')}`
}
