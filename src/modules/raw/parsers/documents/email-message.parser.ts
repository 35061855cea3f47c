/**
 * `email_message`: an inbound e-mail (RFC 5322, `message/rfc822` or `.eml`), read with mailparser's
 * `simpleParser`.
 *
 * - Every attachment, inline parts and attached messages (`message/rfc822`) included, is yielded as an
 *   attachment output: extraction stores it as an artifact of its own (linked by `parent_artifact_id`)
 *   and the parser registry then reads it like any other artifact — an attached message by this parser
 *   again, a PDF by `pdf_invoice`, a CSV by the bank-statement parsers.
 * - The body yields an `invoice` record only when it carries a receipt or invoice itself (a labelled
 *   total and a currency, in a message that speaks of a receipt, invoice or payment) and the message has
 *   no PDF attachment: when a PDF is attached it is the document, and reading the covering note too
 *   would record the same bill twice. Such a record's confidence is at most 0.6 (a mail body is free
 *   text), and at most 0.4 when the body names no receipt or invoice number and the Message-ID stands in
 *   for it. Nothing else of the body is recorded: parsed rows hold extracted fields, never the payload.
 * - Bytes that are not an e-mail at all (no From, To, Subject, Date, Message-ID, MIME-Version or
 *   Content-Type header) fail with a ParseError; a real message without a receipt yields no records.
 */
import { convert } from 'html-to-text'
import { simpleParser, type Attachment, type ParsedMail } from 'mailparser'
import { invoiceFromFields, readInvoiceText } from './invoice-text.ts'
import { baseMediaType, describeError, hasExtension, invoiceDirection, recordOutput, sourceRefCurrency } from './output.ts'
import { ParseError, type Parser, type ParserInput, type ParserOutput } from '../parser.ts'

/** More attachments than this is not correspondence; refusing bounds what one message can create. */
export const emailAttachmentsMax = 100
/** Body text beyond this is not read for a receipt. */
const bodyCharactersMax = 100_000
/** HTML beyond this is not converted to text (mailparser's own guard, made explicit). */
const htmlCharactersMax = 1_000_000
/** Attachment names are cut to this length. */
const attachmentNameCharactersMax = 200
/** Confidence ceilings for a record read from a body (see the module comment). */
const bodyConfidenceMax = 0.6
const messageIdNumberConfidenceMax = 0.4

const messageHeaders = ['from', 'to', 'subject', 'date', 'message-id', 'mime-version', 'content-type']
const receiptWords = /(?<![\p{L}])(?:receipt|invoice|payment|paid|charged|order|rechnung|quittung|zahlung|beleg|facture|re[çc]u|paiement)(?![\p{L}])/iu

const extensionsByMediaType: Readonly<Record<string, string>> = {
  'application/pdf': '.pdf',
  'message/rfc822': '.eml',
  'text/csv': '.csv',
  'text/plain': '.txt',
  'text/html': '.html',
  'application/json': '.json',
  'application/xml': '.xml',
  'text/xml': '.xml',
  'image/png': '.png',
  'image/jpeg': '.jpg',
}

/** A file name safe to store: no directories, no control characters, bounded; invented when missing. */
function attachmentFilename(attachment: Attachment, index: number, mediaType: string): string {
  const given = (attachment.filename ?? '')
    .split(/[/\\]/)
    .at(-1)
    ?.replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, attachmentNameCharactersMax)
  if (given !== undefined && given !== '' && given !== '.' && given !== '..') return given
  const stem = mediaType === 'message/rfc822' ? 'message' : 'attachment'
  return `${stem}-${index + 1}${extensionsByMediaType[mediaType] ?? '.bin'}`
}

function isPdf(attachment: Attachment): boolean {
  return baseMediaType(attachment.contentType) === 'application/pdf' || hasExtension(attachment.filename ?? null, ['.pdf'])
}

function bodyText(mail: ParsedMail): string {
  const text = typeof mail.text === 'string' && mail.text.trim() !== '' ? mail.text : undefined
  if (text !== undefined) return text.slice(0, bodyCharactersMax)
  if (typeof mail.html === 'string' && mail.html.length <= htmlCharactersMax) {
    return convert(mail.html, {
      wordwrap: false,
      selectors: [
        { selector: 'a', options: { ignoreHref: true } },
        { selector: 'img', format: 'skip' },
      ],
    }).slice(0, bodyCharactersMax)
  }
  return ''
}

/**
 * The calendar day the message was sent on, in the sender's own time zone (the offset written in the Date
 * header): a receipt sent at 23:30 in New York is dated that day, not the next day in UTC.
 */
function senderLocalDate(mail: ParsedMail): string | undefined {
  if (mail.date === undefined || Number.isNaN(mail.date.getTime())) return undefined
  const headerLine = mail.headerLines.find((header) => header.key === 'date')?.line ?? ''
  const offset = /\s([+-])(\d{2})(\d{2})(?:\s*\([^)]*\))?\s*$/.exec(headerLine)
  const offsetMinutes = offset === null ? 0 : (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3]))
  return new Date(mail.date.getTime() + offsetMinutes * 60_000).toISOString().slice(0, 10)
}

function messageIdReference(mail: ParsedMail): string | undefined {
  const id = mail.messageId?.replace(/^<|>$/g, '').trim()
  return id === undefined || id === '' || id.length > 200 ? undefined : id
}

/** The invoice a body carries, when it carries one (see the module comment for the rules). */
function bodyInvoice(mail: ParsedMail, input: ParserInput) {
  const subject = mail.subject ?? ''
  const text = `${subject}\n${bodyText(mail)}`
  if (!receiptWords.test(text)) return undefined
  const fields = readInvoiceText(text, { fallbackCurrency: sourceRefCurrency(input.sourceRef), issuerFromFirstLines: false })
  if (fields.evidence.totalSource !== 'label' && fields.evidence.totalSource !== 'balance_due') return undefined
  const sender = mail.from?.value[0]
  if (fields.vendor.name === undefined) {
    // The sender is the issuer only when the body names no one else (a processor's receipts@ address
    // sends for many merchants).
    const senderName = sender?.name?.trim()
    if (senderName !== undefined && senderName !== '') fields.vendor.name = senderName
    if (sender?.address !== undefined && sender.address !== '') fields.vendor.email = sender.address.toLowerCase()
  }
  fields.issueDate ??= senderLocalDate(mail)
  let ceiling = bodyConfidenceMax
  if (fields.invoiceNumber === undefined) {
    fields.invoiceNumber = messageIdReference(mail)
    ceiling = messageIdNumberConfidenceMax
  }
  const reading = invoiceFromFields(fields, invoiceDirection(input.sourceRef))
  if (!reading.ok) return undefined
  return recordOutput(reading.record, Math.min(reading.confidence, ceiling))
}

export const emailMessageParser: Parser = {
  name: 'email_message',
  version: '1.0.0',
  accepts(input) {
    if (input.sourceType !== 'email_inbound') return false
    return baseMediaType(input.mimeType) === 'message/rfc822' || hasExtension(input.filename, ['.eml'])
  },
  async *parse(input: ParserInput): AsyncIterable<ParserOutput> {
    // Checked first, so a malformed source_ref fails the same way whatever the message holds.
    invoiceDirection(input.sourceRef)
    const bytes = await input.buffer()
    let mail: ParsedMail
    try {
      mail = await simpleParser(bytes, { skipTextToHtml: true, skipImageLinks: true, skipTextLinks: true, maxHtmlLengthToParse: htmlCharactersMax })
    } catch (error) {
      throw new ParseError(`not a readable e-mail: ${describeError(error)}`)
    }
    if (!messageHeaders.some((header) => mail.headers.has(header))) {
      throw new ParseError('not an e-mail message: it has none of the headers From, To, Subject, Date, Message-ID, MIME-Version, Content-Type')
    }
    if (mail.attachments.length > emailAttachmentsMax) {
      throw new ParseError(`the message has ${mail.attachments.length} attachments; at most ${emailAttachmentsMax} are read`)
    }
    for (const [index, attachment] of mail.attachments.entries()) {
      const mediaType = baseMediaType(attachment.contentType) || 'application/octet-stream'
      yield { type: 'attachment', filename: attachmentFilename(attachment, index, mediaType), mimeType: mediaType, content: attachment.content }
    }
    if (mail.attachments.some(isPdf)) return
    const record = bodyInvoice(mail, input)
    if (record !== undefined) yield record
  },
}
