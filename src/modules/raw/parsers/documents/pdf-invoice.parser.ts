/**
 * `pdf_invoice`: a PDF invoice or receipt, read from its text layer (unpdf's `extractText`, pages
 * merged) by the rules of invoice-text.ts. Yields one `invoice` record.
 *
 * - Direction: `payable` unless source_ref says the tenant issued it (see `invoiceDirection`).
 * - No obligation record: normalization derives a payable invoice's obligation (docs/raw-and-ledger.md),
 *   so emitting one here would count the bill twice.
 * - A PDF without a text layer (a scan, an image-only or empty page) fails with a reason saying OCR is
 *   not supported; so does a PDF that is encrypted, damaged, too long, or not an invoice.
 */
import { extractText, getDocumentProxy } from 'unpdf'
import { invoiceFromFields, readInvoiceText } from './invoice-text.ts'
import { baseMediaType, describeError, invoiceDirection, recordOutput, sourceRefCurrency } from './output.ts'
import { ParseError, type Parser, type ParserInput, type ParserOutput } from '../parser.ts'

/** Source types a PDF invoice arrives as: an upload, an e-mail attachment, anything else. */
const pdfSourceTypes: ReadonlySet<string> = new Set(['pdf_upload', 'email_inbound', 'other'])
/** Pages beyond this are not an invoice; refusing them bounds the work. */
export const pdfPagesMax = 50
/**
 * Fewer letters and digits than this in the whole text layer means there is none worth reading: a scanner
 * may stamp a page number, but an invoice has far more text.
 */
const textLayerCharactersMin = 12
/** The PDF header may follow a little junk (the PDF specification allows it within the first 1024 bytes). */
const pdfHeaderSearchBytes = 1024

function hasPdfHeader(bytes: Buffer): boolean {
  return bytes.subarray(0, pdfHeaderSearchBytes).includes('%PDF-')
}

async function readTextLayer(bytes: Buffer): Promise<string> {
  let document: Awaited<ReturnType<typeof getDocumentProxy>>
  try {
    // A copy: pdf.js may take ownership of (detach) the buffer it is given.
    document = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, stopAtErrors: false })
  } catch (error) {
    if (error instanceof Error && error.name === 'PasswordException') throw new ParseError('the PDF is encrypted (password-protected) and cannot be read')
    throw new ParseError(`not a readable PDF: ${describeError(error)}`)
  }
  try {
    if (document.numPages > pdfPagesMax) throw new ParseError(`the PDF has ${document.numPages} pages; at most ${pdfPagesMax} are read`)
    const { text } = await extractText(document, { mergePages: true })
    return text
  } catch (error) {
    if (error instanceof ParseError) throw error
    throw new ParseError(`could not read the PDF's text layer: ${describeError(error)}`)
  } finally {
    await document.destroy()
  }
}

export const pdfInvoiceParser: Parser = {
  name: 'pdf_invoice',
  version: '1.0.0',
  accepts(input) {
    if (!pdfSourceTypes.has(input.sourceType)) return false
    return baseMediaType(input.mimeType) === 'application/pdf' || hasPdfHeader(input.head)
  },
  async *parse(input: ParserInput): AsyncIterable<ParserOutput> {
    const direction = invoiceDirection(input.sourceRef)
    const bytes = await input.buffer()
    if (!hasPdfHeader(bytes)) throw new ParseError('not a PDF: no %PDF- header')
    const text = await readTextLayer(bytes)
    if ((text.match(/[\p{L}\p{N}]/gu)?.length ?? 0) < textLayerCharactersMin) {
      throw new ParseError('the PDF has no text layer (a scanned or image-only document); OCR is not supported')
    }
    const fields = readInvoiceText(text, { fallbackCurrency: sourceRefCurrency(input.sourceRef), issuerFromFirstLines: true })
    const reading = invoiceFromFields(fields, direction)
    if (!reading.ok) throw new ParseError(`not read as an invoice: ${reading.reason}`)
    yield recordOutput(reading.record, reading.confidence)
  },
}
