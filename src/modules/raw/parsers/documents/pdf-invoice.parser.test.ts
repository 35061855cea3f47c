import { describe, expect, it } from 'vitest'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { pdfInvoiceParser } from './pdf-invoice.parser.ts'
import { ParseError } from '../parser.ts'
import { collect, contractProblems, fixtureBytes, fixtureInput, inputFromBytes, parseFailure } from '../../../../../test/fixtures/raw/documents/fixture-input.ts'

const pdf = (name: string, sourceRef: Record<string, unknown> = {}, sourceType = 'pdf_upload') =>
  fixtureInput(name, { sourceType, mimeType: 'application/pdf', sourceRef })

async function onlyRecord(name: string, sourceRef: Record<string, unknown> = {}) {
  const outputs = await collect(pdfInvoiceParser, pdf(name, sourceRef))
  expect(contractProblems(outputs)).toEqual([])
  expect(outputs).toHaveLength(1)
  const [output] = outputs
  if (output?.type !== 'record') throw new Error('expected one record')
  return output
}

describe('pdf_invoice', () => {
  it('is named and versioned', () => {
    expect([pdfInvoiceParser.name, pdfInvoiceParser.version]).toEqual(['pdf_invoice', '1.0.0'])
  })

  it('reads an English vendor invoice (payable, net 30) field by field', async () => {
    const output = await onlyRecord('invoice-en-vendor.pdf')
    expect(output.record).toEqual({
      kind: 'invoice',
      direction: 'payable',
      invoice_number: 'NW-2026-0042',
      issue_date: '2026-03-02',
      due_date: '2026-04-01',
      currency: 'USD',
      total: '1356.25',
      subtotal: '1250',
      tax: '106.25',
      counterparty: { name: 'Northwind Office Supplies LLC', tax_id: '94-1234567', email: 'billing@northwind.example' },
    })
    expect(output.confidence).toBe(0.9)
  })

  it('reads a German invoice with comma decimals, EUR, the issuer tax id and IBAN from the footer', async () => {
    const output = await onlyRecord('rechnung-de.pdf')
    expect(output.record).toEqual({
      kind: 'invoice',
      direction: 'payable',
      invoice_number: 'RE-2026-1187',
      issue_date: '2026-03-15',
      due_date: '2026-04-14',
      currency: 'EUR',
      total: '2380',
      subtotal: '2000',
      tax: '380',
      counterparty: {
        name: 'Müller & Söhne GmbH',
        tax_id: 'DE123456789',
        email: 'buchhaltung@mueller-soehne.example',
        iban: 'DE89370400440532013000',
      },
    })
    expect(output.confidence).toBe(0.9)
  })

  it.each([[{ direction: 'receivable' }], [{ issuer_is_tenant: true }]])(
    'reads an invoice the tenant issued as receivable, the customer as counterparty (source_ref %j)',
    async (sourceRef) => {
      const output = await onlyRecord('facture-fr-receivable.pdf', sourceRef)
      expect(output.record).toEqual({
        kind: 'invoice',
        direction: 'receivable',
        invoice_number: 'F-2026-017',
        issue_date: '2026-03-05',
        due_date: '2026-04-04',
        currency: 'EUR',
        total: '1800',
        subtotal: '1500',
        tax: '300',
        amount_paid: '500',
        status: 'partial',
        counterparty: { name: 'Globex SARL', tax_id: 'FR40303265045' },
      })
      expect(output.confidence).toBe(0.9)
    },
  )

  it('reads the same French invoice as payable (the issuer as counterparty) without the source_ref', async () => {
    const output = await onlyRecord('facture-fr-receivable.pdf')
    expect(output.record).toMatchObject({ direction: 'payable', counterparty: { name: 'Steward Test SAS' } })
  })

  it('reads a card-purchase receipt as a paid invoice, less sure of a bare $', async () => {
    const output = await onlyRecord('receipt-card-purchase.pdf')
    expect(output.record).toEqual({
      kind: 'invoice',
      direction: 'payable',
      invoice_number: '1042-7781',
      issue_date: '2026-03-09',
      currency: 'USD',
      total: '11.15',
      subtotal: '10.25',
      tax: '0.9',
      amount_paid: '11.15',
      status: 'paid',
      counterparty: { name: 'Blue Bottle Coffee' },
    })
    expect(output.confidence).toBe(0.8)
  })

  it('guesses an unlabelled total from the largest amount and says so with a low confidence', async () => {
    const output = await onlyRecord('invoice-unlabelled-total.pdf')
    expect(output.record).toEqual({
      kind: 'invoice',
      direction: 'payable',
      invoice_number: 'FDS-311',
      issue_date: '2026-02-20',
      currency: 'EUR',
      total: '1550',
      counterparty: { name: 'Fabrikam Design Studio' },
    })
    expect(output.confidence).toBeLessThanOrEqual(0.5)
  })

  it('refuses a PDF without a text layer, saying OCR is not supported', async () => {
    const error = await parseFailure(pdfInvoiceParser, pdf('scanned-no-text.pdf'))
    expect(error).toBeInstanceOf(ParseError)
    expect((error as Error).message).toMatch(/no text layer.*OCR is not supported/)
  })

  it('refuses an empty page the same way', async () => {
    const document = await PDFDocument.create({ updateMetadata: false })
    document.addPage()
    const error = await parseFailure(pdfInvoiceParser, inputFromBytes(Buffer.from(await document.save()), { sourceType: 'pdf_upload', mimeType: 'application/pdf' }))
    expect(error).toBeInstanceOf(ParseError)
    expect((error as Error).message).toMatch(/OCR is not supported/)
  })

  it('refuses a PDF that is not an invoice, with the reason', async () => {
    const error = await parseFailure(pdfInvoiceParser, pdf('letter-not-invoice.pdf'))
    expect(error).toBeInstanceOf(ParseError)
    expect((error as Error).message).toMatch(/not read as an invoice: no invoice number/)
  })

  it('refuses a truncated PDF and bytes that are not a PDF', async () => {
    for (const input of [
      pdf('truncated.pdf'),
      inputFromBytes(Buffer.from('%PDF-1.7\n garbage'), { sourceType: 'pdf_upload', mimeType: 'application/pdf' }),
      inputFromBytes(Buffer.from('just text'), { sourceType: 'pdf_upload', mimeType: 'application/pdf' }),
      inputFromBytes(Buffer.alloc(0), { sourceType: 'pdf_upload', mimeType: 'application/pdf' }),
    ]) {
      expect(await parseFailure(pdfInvoiceParser, input)).toBeInstanceOf(ParseError)
    }
  })

  it('refuses a PDF longer than the page limit', async () => {
    const document = await PDFDocument.create({ updateMetadata: false })
    const font = await document.embedFont(StandardFonts.Helvetica)
    for (let page = 0; page < 51; page++) document.addPage().drawText(`Invoice No: P-${page} Total EUR 1.00`, { x: 50, y: 700, font })
    const error = await parseFailure(pdfInvoiceParser, inputFromBytes(Buffer.from(await document.save()), { sourceType: 'pdf_upload', mimeType: 'application/pdf' }))
    expect((error as Error).message).toMatch(/51 pages; at most 50/)
  })

  it('refuses a malformed source_ref direction rather than guessing', async () => {
    for (const sourceRef of [{ direction: 'incoming' }, { issuer_is_tenant: 'yes' }, { direction: 'payable', issuer_is_tenant: true }]) {
      expect(await parseFailure(pdfInvoiceParser, pdf('invoice-en-vendor.pdf', sourceRef))).toBeInstanceOf(ParseError)
    }
  })

  it('does not detach or alter the buffer it is given, so it can parse the same input twice', async () => {
    const input = pdf('invoice-en-vendor.pdf')
    const before = Buffer.from(await input.buffer())
    const first = await collect(pdfInvoiceParser, input)
    const second = await collect(pdfInvoiceParser, input)
    expect(second).toEqual(first)
    expect(Buffer.compare(await input.buffer(), before)).toBe(0)
  })

  it('accepts PDFs from uploads, e-mail and other sources, by media type or header', () => {
    const head = fixtureBytes('invoice-en-vendor.pdf').subarray(0, 1024)
    const accepts = (sourceType: string, mimeType: string, filename: string | null, bytes: Buffer = head) =>
      pdfInvoiceParser.accepts({ sourceType, mimeType, filename, head: bytes })
    expect(accepts('pdf_upload', 'application/pdf', 'a.pdf')).toBe(true)
    expect(accepts('email_inbound', 'application/pdf', 'a.pdf')).toBe(true)
    expect(accepts('other', 'application/octet-stream', null)).toBe(true)
    expect(accepts('pdf_upload', 'Application/PDF; name=a.pdf', null, Buffer.from('x'))).toBe(true)
    expect(accepts('csv_upload', 'application/pdf', 'a.pdf')).toBe(false)
    expect(accepts('bank_provider', 'application/pdf', 'a.pdf')).toBe(false)
    expect(accepts('pdf_upload', 'text/csv', 'a.csv', Buffer.from('Date,Amount\n'))).toBe(false)
  })
})
