import { describe, expect, it } from 'vitest'
import { emailMessageParser } from './email-message.parser.ts'
import { pdfInvoiceParser } from './pdf-invoice.parser.ts'
import { ParseError, type ParsedAttachment } from '../parser.ts'
import { collect, contractProblems, fixtureBytes, fixtureInput, inputFromBytes, parseFailure } from '../../../../../test/fixtures/raw/documents/fixture-input.ts'

const eml = (name: string, sourceRef: Record<string, unknown> = {}) => fixtureInput(name, { sourceType: 'email_inbound', mimeType: 'message/rfc822', sourceRef })
const emlBytes = (content: string | Buffer) => inputFromBytes(Buffer.isBuffer(content) ? content : Buffer.from(content), { sourceType: 'email_inbound', mimeType: 'message/rfc822' })

describe('email_message', () => {
  it('is named and versioned', () => {
    expect([emailMessageParser.name, emailMessageParser.version]).toEqual(['email_message', '1.0.0'])
  })

  it('yields a PDF invoice and a CSV statement as attachments, byte for byte, and no record from the covering note', async () => {
    const outputs = await collect(emailMessageParser, eml('invoice-with-attachments.eml'))
    expect(outputs.map((output) => output.type)).toEqual(['attachment', 'attachment'])
    const [invoice, statement] = outputs as ParsedAttachment[]
    expect(invoice).toMatchObject({ filename: 'NW-2026-0042.pdf', mimeType: 'application/pdf' })
    expect(Buffer.compare(invoice?.content ?? Buffer.alloc(0), fixtureBytes('invoice-en-vendor.pdf'))).toBe(0)
    expect(statement).toMatchObject({ filename: 'statement-2026-03.csv', mimeType: 'text/csv' })
    expect(statement?.content.toString('utf8')).toBe(
      'Date,Description,Amount,Balance\n2026-03-01,Opening balance,,10000.00\n2026-03-03,NORTHWIND OFFICE SUPPLIES,-1356.25,8643.75\n2026-03-05,CUSTOMER PAYMENT GLOBEX,1300.00,9943.75\n',
    )
  })

  it('hands the attached PDF to pdf_invoice, which reads the invoice', async () => {
    const [invoice] = (await collect(emailMessageParser, eml('invoice-with-attachments.eml'))) as ParsedAttachment[]
    if (invoice === undefined) throw new Error('expected an attachment')
    const attachmentInput = inputFromBytes(invoice.content, { sourceType: 'email_inbound', mimeType: invoice.mimeType, filename: invoice.filename })
    expect(pdfInvoiceParser.accepts(attachmentInput)).toBe(true)
    expect(emailMessageParser.accepts(attachmentInput)).toBe(false)
    const [record] = await collect(pdfInvoiceParser, attachmentInput)
    expect(record).toMatchObject({ type: 'record', record: { invoice_number: 'NW-2026-0042', total: '1356.25', currency: 'USD' } })
  })

  it('reads an inline plain-text receipt as an invoice, with at most 0.6 confidence', async () => {
    const outputs = await collect(emailMessageParser, eml('receipt-inline.eml'))
    expect(contractProblems(outputs)).toEqual([])
    expect(outputs).toEqual([
      {
        type: 'record',
        record: {
          kind: 'invoice',
          direction: 'payable',
          invoice_number: '1042-7782',
          issue_date: '2026-03-10',
          currency: 'USD',
          total: '5.98',
          tax: '0.48',
          amount_paid: '5.98',
          status: 'paid',
          counterparty: { name: 'Blue Bottle Coffee' },
        },
        confidence: 0.6,
      },
    ])
  })

  it('reads an HTML-only receipt with no number, keyed by the Message-ID, with at most 0.4 confidence', async () => {
    const outputs = await collect(emailMessageParser, eml('receipt-html-only.eml'))
    expect(contractProblems(outputs)).toEqual([])
    expect(outputs).toEqual([
      {
        type: 'record',
        record: {
          kind: 'invoice',
          direction: 'payable',
          invoice_number: 'ride-8812@lyftmail.example',
          issue_date: '2026-03-12',
          currency: 'USD',
          total: '23.4',
          amount_paid: '23.4',
          status: 'paid',
          counterparty: { name: 'Lyft' },
        },
        confidence: 0.4,
      },
    ])
  })

  it("takes the sender as the issuer when the body names none, and the Date header's day in the sender's zone as the issue date", async () => {
    const message = [
      'From: "Contoso Billing" <billing@contoso.example>',
      'Subject: Invoice 2026-118',
      'Date: Fri, 06 Mar 2026 23:30:00 -0500',
      'Message-ID: <inv-118@contoso.example>',
      '',
      'Invoice No: 2026-118',
      'Amount due: EUR 75.00',
      '',
    ].join('\r\n')
    const outputs = await collect(emailMessageParser, emlBytes(message))
    expect(outputs).toEqual([
      {
        type: 'record',
        record: {
          kind: 'invoice',
          direction: 'payable',
          invoice_number: '2026-118',
          issue_date: '2026-03-06',
          currency: 'EUR',
          total: '75',
          counterparty: { name: 'Contoso Billing', email: 'billing@contoso.example' },
        },
        confidence: 0.6,
      },
    ])
  })

  it('reads no invoice from the body when a PDF is attached, even a body with a labelled total', async () => {
    const message = [
      'From: Contoso Billing <billing@contoso.example>',
      'Subject: Invoice 2026-118',
      'Message-ID: <inv-118-pdf@contoso.example>',
      'Content-Type: multipart/mixed; boundary="b"',
      '',
      '--b',
      'Content-Type: text/plain',
      '',
      'Invoice No: 2026-118',
      'Amount due: EUR 75.00',
      '--b',
      'Content-Type: application/pdf',
      'Content-Disposition: attachment; filename="2026-118.pdf"',
      'Content-Transfer-Encoding: base64',
      '',
      fixtureBytes('invoice-en-vendor.pdf').toString('base64'),
      '--b--',
      '',
    ].join('\r\n')
    const outputs = await collect(emailMessageParser, emlBytes(message))
    expect(outputs.map((output) => output.type)).toEqual(['attachment'])
    // The same message without the PDF does yield the body's invoice: the attachment is what stops it.
    const withoutPdf = message.replace(/--b\r\nContent-Type: application\/pdf[\s\S]*?(?=--b--)/, '')
    expect((await collect(emailMessageParser, emlBytes(withoutPdf))).map((output) => output.type)).toEqual(['record'])
  })

  it('yields nothing for a message without a receipt, and never the body itself', async () => {
    expect(await collect(emailMessageParser, eml('no-receipt.eml'))).toEqual([])
  })

  it('yields attached messages as .eml attachments, which it then reads in turn', async () => {
    const outputs = (await collect(emailMessageParser, eml('forwarded-message.eml'))) as ParsedAttachment[]
    expect(outputs.map((output) => [output.type, output.filename, output.mimeType])).toEqual([
      ['attachment', 'Invoice NW-2026-0042.eml', 'message/rfc822'],
      ['attachment', 'message-2.eml', 'message/rfc822'],
    ])
    const nested = outputs[0]
    if (nested === undefined) throw new Error('expected the nested message')
    const nestedInput = inputFromBytes(nested.content, { sourceType: 'email_inbound', mimeType: nested.mimeType, filename: nested.filename })
    expect(emailMessageParser.accepts(nestedInput)).toBe(true)
    const inner = (await collect(emailMessageParser, nestedInput)) as ParsedAttachment[]
    expect(inner.map((output) => [output.type, output.filename])).toEqual([['attachment', 'NW-2026-0042.pdf']])
    expect(Buffer.compare(inner[0]?.content ?? Buffer.alloc(0), fixtureBytes('invoice-en-vendor.pdf'))).toBe(0)
  })

  it('refuses garbage bytes as not an e-mail, with a ParseError', async () => {
    const error = await parseFailure(emailMessageParser, eml('malformed.eml'))
    expect(error).toBeInstanceOf(ParseError)
    expect((error as Error).message).toMatch(/not an e-mail message/)
  })

  it('refuses empty input and plain prose the same way', async () => {
    for (const content of ['', 'this is not an email at all\njust words: here\n', '\u0000\u0000\u0000']) {
      expect(await parseFailure(emailMessageParser, emlBytes(content))).toBeInstanceOf(ParseError)
    }
  })

  it('reads a message cut off in the middle of an attachment without crashing', async () => {
    const whole = fixtureBytes('invoice-with-attachments.eml')
    const outputs = await collect(emailMessageParser, emlBytes(whole.subarray(0, Math.floor(whole.length / 2))))
    expect(outputs.every((output) => output.type === 'attachment')).toBe(true)
  })

  it('names attachments safely: no directories, no control characters, an invented name when none is given', async () => {
    const message = [
      'From: a@example.com',
      'Content-Type: multipart/mixed; boundary="b"',
      '',
      '--b',
      'Content-Type: text/plain',
      '',
      'see attached',
      '--b',
      'Content-Type: text/csv',
      'Content-Disposition: attachment; filename="../../etc/pass\twd.csv"',
      '',
      'a,b',
      '--b',
      'Content-Type: application/pdf',
      'Content-Disposition: attachment',
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from('%PDF-1.4 not really').toString('base64'),
      '--b--',
      '',
    ].join('\r\n')
    const outputs = (await collect(emailMessageParser, emlBytes(message))) as ParsedAttachment[]
    expect(outputs.map((output) => [output.filename, output.mimeType])).toEqual([
      ['passwd.csv', 'text/csv'],
      ['attachment-2.pdf', 'application/pdf'],
    ])
  })

  it('refuses a message with more attachments than the limit', async () => {
    const parts = Array.from({ length: 101 }, (_, index) => `--b\r\nContent-Type: text/plain\r\nContent-Disposition: attachment; filename="${index}.txt"\r\n\r\n${index}\r\n`)
    const message = `From: a@example.com\r\nContent-Type: multipart/mixed; boundary="b"\r\n\r\n${parts.join('')}--b--\r\n`
    const error = await parseFailure(emailMessageParser, emlBytes(message))
    expect((error as Error).message).toMatch(/101 attachments; at most 100/)
  })

  it('accepts only inbound e-mail, by media type or .eml name', () => {
    const head = fixtureBytes('receipt-inline.eml').subarray(0, 1024)
    const accepts = (sourceType: string, mimeType: string, filename: string | null) => emailMessageParser.accepts({ sourceType, mimeType, filename, head })
    expect(accepts('email_inbound', 'message/rfc822', null)).toBe(true)
    expect(accepts('email_inbound', 'application/octet-stream', 'Fwd.EML')).toBe(true)
    expect(accepts('other', 'message/rfc822', 'a.eml')).toBe(false)
    expect(accepts('email_inbound', 'text/csv', 'statement.csv')).toBe(false)
    expect(accepts('email_inbound', 'application/pdf', 'invoice.pdf')).toBe(false)
  })
})
