/**
 * Writes the PDF and e-mail fixtures of the document parsers into test/fixtures/raw/documents/.
 * Run with `npx tsx scripts/generate-document-fixtures.ts`; the output is committed, and the script is
 * deterministic (fixed metadata, fixed MIME boundaries, seeded noise), so running it again changes
 * nothing. The JSON payload fixtures beside them are written by hand.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { crc32, deflateSync } from 'node:zlib'
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib'

const outputDirectory = join(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'fixtures', 'raw', 'documents')
const fixedDate = new Date(Date.UTC(2026, 2, 1, 9, 0, 0))

interface TextRow {
  readonly x: number
  readonly y: number
  readonly text: string
  readonly size?: number
  readonly bold?: boolean
}

interface Fonts {
  readonly regular: PDFFont
  readonly bold: PDFFont
}

async function newDocument(title: string): Promise<{ document: PDFDocument; fonts: Fonts }> {
  // updateMetadata: false keeps pdf-lib from stamping the current time, so the bytes are reproducible.
  const document = await PDFDocument.create({ updateMetadata: false })
  document.setTitle(title)
  document.setProducer('steward generate-document-fixtures')
  document.setCreationDate(fixedDate)
  document.setModificationDate(fixedDate)
  const fonts = { regular: await document.embedFont(StandardFonts.Helvetica), bold: await document.embedFont(StandardFonts.HelveticaBold) }
  return { document, fonts }
}

/** Draws rows in the order given: each printed line left to right, as a real invoice generator does. */
function draw(page: PDFPage, fonts: Fonts, rows: readonly TextRow[]): void {
  for (const row of rows) {
    page.drawText(row.text, { x: row.x, y: row.y, size: row.size ?? 10, font: row.bold === true ? fonts.bold : fonts.regular, color: rgb(0.1, 0.1, 0.1) })
  }
}

/** A line of text in two or more columns: `[[x, text], …]` at one height. */
function line(y: number, ...cells: ReadonlyArray<readonly [number, string]>): TextRow[] {
  return cells.map(([x, text]) => ({ x, y, text }))
}

async function englishVendorInvoice(): Promise<Uint8Array> {
  const { document, fonts } = await newDocument('Invoice NW-2026-0042')
  const page = document.addPage([595, 842])
  draw(page, fonts, [
    { x: 50, y: 790, text: 'Northwind Office Supplies LLC', size: 16, bold: true },
    { x: 430, y: 790, text: 'INVOICE', size: 20, bold: true },
    ...line(765, [50, '1200 Harbor Blvd, Suite 400'], [330, 'Invoice No:'], [430, 'NW-2026-0042']),
    ...line(750, [50, 'Oakland, CA 94607'], [330, 'Invoice Date:'], [430, 'March 2, 2026']),
    ...line(735, [50, 'billing@northwind.example'], [330, 'Due Date:'], [430, 'April 1, 2026']),
    ...line(720, [50, 'Tax ID: 94-1234567'], [330, 'Terms:'], [430, 'Net 30']),
    { x: 50, y: 680, text: 'Bill To:', bold: true },
    { x: 50, y: 665, text: 'Steward Test Co.' },
    { x: 50, y: 650, text: '500 Market Street' },
    { x: 50, y: 635, text: 'San Francisco, CA 94105' },
    ...line(590, [50, 'Description'], [330, 'Qty'], [390, 'Unit Price'], [490, 'Amount']),
    ...line(570, [50, 'Printer paper, A4 (box of 10)'], [330, '12'], [390, '45.00'], [490, '540.00']),
    ...line(555, [50, 'Toner cartridge TN-660'], [330, '4'], [390, '162.50'], [490, '650.00']),
    ...line(540, [50, 'Delivery'], [330, '1'], [390, '60.00'], [490, '60.00']),
    ...line(500, [330, 'Subtotal'], [490, '$1,250.00']),
    ...line(485, [330, 'Sales Tax (8.5%)'], [490, '$106.25']),
    ...line(470, [330, 'Total'], [490, 'USD 1,356.25']),
    ...line(455, [330, 'Amount Due'], [490, '$1,356.25']),
    { x: 50, y: 400, text: 'Payment terms: Net 30. Please include the invoice number with your payment.' },
    { x: 50, y: 385, text: 'Questions? billing@northwind.example or +1 510 555 0142' },
  ])
  return document.save()
}

async function germanInvoice(): Promise<Uint8Array> {
  const { document, fonts } = await newDocument('Rechnung RE-2026-1187')
  const page = document.addPage([595, 842])
  draw(page, fonts, [
    { x: 50, y: 790, text: 'Müller & Söhne GmbH', size: 16, bold: true },
    { x: 430, y: 790, text: 'RECHNUNG', size: 20, bold: true },
    ...line(765, [50, 'Hauptstraße 12'], [330, 'Rechnungsnummer:'], [440, 'RE-2026-1187']),
    ...line(750, [50, '10115 Berlin'], [330, 'Rechnungsdatum:'], [440, '15.03.2026']),
    ...line(735, [50, 'buchhaltung@mueller-soehne.example'], [330, 'Fällig am:'], [440, '14.04.2026']),
    ...line(720, [330, 'Kundennummer:'], [440, '40021']),
    { x: 50, y: 680, text: 'Rechnungsempfänger:', bold: true },
    { x: 50, y: 665, text: 'Steward Test GmbH' },
    { x: 50, y: 650, text: 'Friedrichstraße 100' },
    { x: 50, y: 635, text: '10117 Berlin' },
    { x: 50, y: 620, text: 'USt-IdNr.: DE298765432' },
    ...line(580, [50, 'Beschreibung'], [330, 'Menge'], [390, 'Einzelpreis'], [490, 'Betrag']),
    ...line(560, [50, 'Beratung (Stunden)'], [330, '8'], [390, '120,00'], [490, '960,00']),
    ...line(545, [50, 'Lizenz Jahresabonnement'], [330, '1'], [390, '1.040,00'], [490, '1.040,00']),
    ...line(505, [330, 'Nettobetrag'], [480, '2.000,00 €']),
    ...line(490, [330, 'zzgl. MwSt. 19 %'], [480, '380,00 €']),
    ...line(475, [330, 'Gesamtbetrag'], [480, '2.380,00 €']),
    { x: 50, y: 420, text: 'Bitte überweisen Sie den Betrag innerhalb von 30 Tagen unter Angabe der Rechnungsnummer.' },
    { x: 50, y: 120, text: 'Bankverbindung: Commerzbank · IBAN DE89 3704 0044 0532 0130 00 · BIC COBADEFFXXX', size: 8 },
    { x: 50, y: 108, text: 'USt-IdNr.: DE123456789 · Amtsgericht Berlin HRB 12345 · Geschäftsführer: Hans Müller', size: 8 },
  ])
  return document.save()
}

async function frenchReceivableInvoice(): Promise<Uint8Array> {
  const { document, fonts } = await newDocument('Facture F-2026-017')
  const page = document.addPage([595, 842])
  draw(page, fonts, [
    { x: 50, y: 790, text: 'Steward Test SAS', size: 16, bold: true },
    { x: 430, y: 790, text: 'FACTURE', size: 20, bold: true },
    ...line(765, [50, '12 rue de la Paix'], [330, 'Facture n° :'], [440, 'F-2026-017']),
    ...line(750, [50, '75002 Paris'], [330, 'Date de facture :'], [440, '5 mars 2026']),
    ...line(735, [50, 'SIRET : 123 456 789 00012'], [330, 'Échéance :'], [440, '4 avril 2026']),
    { x: 50, y: 690, text: 'Facturé à :', bold: true },
    { x: 50, y: 675, text: 'Globex SARL' },
    { x: 50, y: 660, text: '8 avenue Victor Hugo, 69002 Lyon' },
    { x: 50, y: 645, text: 'N° TVA intracommunautaire : FR40303265045' },
    ...line(600, [50, 'Désignation'], [330, 'Quantité'], [400, 'Prix unitaire'], [490, 'Montant']),
    ...line(580, [50, 'Mise en place de la plateforme'], [330, '1'], [400, '1 500,00'], [490, '1 500,00']),
    ...line(540, [330, 'Total HT'], [480, '1 500,00 €']),
    ...line(525, [330, 'TVA 20 %'], [480, '300,00 €']),
    ...line(510, [330, 'Total TTC'], [480, '1 800,00 €']),
    ...line(495, [330, 'Acompte versé'], [480, '500,00 €']),
    ...line(480, [330, 'Net à payer'], [480, '1 300,00 €']),
    { x: 50, y: 420, text: 'Conditions de paiement : virement sous 30 jours.' },
  ])
  return document.save()
}

async function cardPurchaseReceipt(): Promise<Uint8Array> {
  const { document, fonts } = await newDocument('Receipt 1042-7781')
  const page = document.addPage([226, 400])
  draw(page, fonts, [
    { x: 20, y: 370, text: 'Blue Bottle Coffee', size: 12, bold: true },
    { x: 20, y: 355, text: '315 Linden St, San Francisco', size: 8 },
    { x: 20, y: 330, text: 'Receipt #1042-7781' },
    { x: 20, y: 315, text: 'Date: 2026-03-09 08:14' },
    ...line(285, [20, 'Cappuccino'], [160, '5.50']),
    ...line(270, [20, 'Almond croissant'], [160, '4.75']),
    ...line(245, [20, 'Subtotal'], [150, '$10.25']),
    ...line(230, [20, 'Tax'], [150, '$0.90']),
    ...line(215, [20, 'Total'], [150, '$11.15']),
    { x: 20, y: 190, text: 'Visa •••• 4242 – approved' },
    { x: 20, y: 165, text: 'Thank you!' },
  ])
  return document.save()
}

async function unlabelledTotalInvoice(): Promise<Uint8Array> {
  const { document, fonts } = await newDocument('Statement of work')
  const page = document.addPage([595, 842])
  draw(page, fonts, [
    { x: 50, y: 790, text: 'Fabrikam Design Studio', size: 16, bold: true },
    { x: 50, y: 765, text: 'Invoice # FDS-311' },
    { x: 50, y: 750, text: 'Issued on 2026-02-20' },
    ...line(700, [50, 'Logo design'], [450, 'EUR 900.00']),
    ...line(685, [50, 'Brand guidelines'], [450, 'EUR 650.00']),
    ...line(670, [50, 'Together'], [450, 'EUR 1,550.00']),
  ])
  return document.save()
}

async function notAnInvoice(): Promise<Uint8Array> {
  const { document, fonts } = await newDocument('Letter')
  const page = document.addPage([595, 842])
  draw(page, fonts, [
    { x: 50, y: 790, text: 'Dear customer,' },
    { x: 50, y: 770, text: 'our office will be closed between Christmas and New Year.' },
    { x: 50, y: 750, text: 'Kind regards, the Northwind team' },
  ])
  return document.save()
}

/** A tiny grey-noise PNG, as a scanner would produce (seeded, so the bytes are reproducible). */
function noisePng(width: number, height: number, seed: number): Buffer {
  let state = seed
  const raw = Buffer.alloc((width + 1) * height)
  for (let row = 0; row < height; row++) {
    raw[row * (width + 1)] = 0
    for (let column = 0; column < width; column++) {
      state = (state * 1103515245 + 12345) % 2147483648
      raw[row * (width + 1) + 1 + column] = 200 + (state % 56)
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
    const checksum = Buffer.alloc(4)
    checksum.writeUInt32BE(crc32(body))
    return Buffer.concat([length, body, checksum])
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 8 // bit depth
  header[9] = 0 // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

async function scannedInvoice(): Promise<Uint8Array> {
  const { document } = await newDocument('Scan 2026-03-04')
  const page = document.addPage([595, 842])
  const image = await document.embedPng(noisePng(120, 170, 42))
  page.drawImage(image, { x: 0, y: 0, width: 595, height: 842 })
  page.drawRectangle({ x: 50, y: 700, width: 200, height: 60, borderColor: rgb(0, 0, 0), borderWidth: 1 })
  return document.save()
}

function base64Lines(bytes: Uint8Array): string {
  return (Buffer.from(bytes).toString('base64').match(/.{1,76}/g) ?? []).join('\r\n')
}

function message(lines: readonly string[]): string {
  return `${lines.join('\r\n')}\r\n`
}

const statementCsv = [
  'Date,Description,Amount,Balance',
  '2026-03-01,Opening balance,,10000.00',
  '2026-03-03,NORTHWIND OFFICE SUPPLIES,-1356.25,8643.75',
  '2026-03-05,CUSTOMER PAYMENT GLOBEX,1300.00,9943.75',
  '',
].join('\n')

function emailWithAttachments(invoicePdf: Uint8Array): string {
  return message([
    'From: Northwind Billing <billing@northwind.example>',
    'To: Accounts Payable <ap@steward-test.example>',
    'Subject: Invoice NW-2026-0042 from Northwind Office Supplies',
    'Date: Mon, 02 Mar 2026 16:05:00 +0000',
    'Message-ID: <nw-2026-0042@mail.northwind.example>',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="==steward-fixture-mixed=="',
    '',
    '--==steward-fixture-mixed==',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 7bit',
    '',
    'Hello,',
    '',
    'please find attached invoice NW-2026-0042 for USD 1,356.25, due April 1, 2026.',
    'Your March account statement is attached as a CSV file.',
    '',
    'Northwind Billing',
    '',
    '--==steward-fixture-mixed==',
    'Content-Type: application/pdf; name="NW-2026-0042.pdf"',
    'Content-Disposition: attachment; filename="NW-2026-0042.pdf"',
    'Content-Transfer-Encoding: base64',
    '',
    base64Lines(invoicePdf),
    '',
    '--==steward-fixture-mixed==',
    'Content-Type: text/csv; charset=utf-8; name="statement-2026-03.csv"',
    'Content-Disposition: attachment; filename="statement-2026-03.csv"',
    'Content-Transfer-Encoding: base64',
    '',
    base64Lines(Buffer.from(statementCsv, 'utf8')),
    '',
    '--==steward-fixture-mixed==--',
  ])
}

function emailWithInlineReceipt(): string {
  return message([
    'From: Blue Bottle Coffee <receipts@bluebottle.example>',
    'To: ap@steward-test.example',
    'Subject: Your receipt from Blue Bottle Coffee',
    'Date: Tue, 10 Mar 2026 08:30:12 -0700',
    'Message-ID: <r-1042-7782@bluebottle.example>',
    'MIME-Version: 1.0',
    'Content-Type: multipart/alternative; boundary="==steward-fixture-alt=="',
    '',
    '--==steward-fixture-alt==',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    'Your receipt from Blue Bottle Coffee',
    '',
    'Receipt #1042-7782',
    'Date: March 10, 2026',
    '',
    'Cappuccino              $5.50',
    'Sales tax               $0.48',
    'Total                   $5.98',
    '',
    'Charged to Visa =E2=80=A2=E2=80=A2=E2=80=A2=E2=80=A2 4242. Thank you for your visit!',
    '',
    '--==steward-fixture-alt==',
    'Content-Type: text/html; charset=utf-8',
    '',
    '<html><body><h1>Your receipt from Blue Bottle Coffee</h1><p>Receipt #1042-7782<br>Date: March 10, 2026</p>',
    '<table><tr><td>Cappuccino</td><td>$5.50</td></tr><tr><td>Sales tax</td><td>$0.48</td></tr>',
    '<tr><td>Total</td><td>$5.98</td></tr></table></body></html>',
    '',
    '--==steward-fixture-alt==--',
  ])
}

function emailWithHtmlOnlyReceipt(): string {
  return message([
    'From: "Lyft" <no-reply@lyftmail.example>',
    'To: ap@steward-test.example',
    'Subject: Your ride with Lyft on March 12',
    'Date: Thu, 12 Mar 2026 22:41:00 +0000',
    'Message-ID: <ride-8812@lyftmail.example>',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="==steward-fixture-html=="',
    '',
    '--==steward-fixture-html==',
    'Content-Type: text/html; charset=utf-8',
    '',
    '<html><body><p>Thanks for riding with Lyft.</p>',
    '<p>Your receipt from <b>Lyft</b>:</p>',
    '<table><tr><td>Ride fare</td><td>$21.10</td></tr><tr><td>Service fee</td><td>$2.30</td></tr>',
    '<tr><td><b>Total</b></td><td><b>$23.40</b></td></tr></table>',
    '<p>Paid with Mastercard 5100</p></body></html>',
    '',
    '--==steward-fixture-html==--',
  ])
}

function emailWithoutReceipt(): string {
  return message([
    'From: Dana Lee <dana@globex.example>',
    'To: finance@steward-test.example',
    'Subject: Lunch next week?',
    'Date: Wed, 11 Mar 2026 12:00:00 +0100',
    'Message-ID: <lunch-1@globex.example>',
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Hi, are you free for lunch on the 18th? The place on 5th Street does a 12.50 menu.',
    '',
    'Dana',
  ])
}

function emailForwardingMessage(invoicePdf: Uint8Array): string {
  const inner = message([
    'From: Northwind Billing <billing@northwind.example>',
    'To: owner@steward-test.example',
    'Subject: Invoice NW-2026-0042',
    'Date: Mon, 02 Mar 2026 16:05:00 +0000',
    'Message-ID: <nw-2026-0042-owner@mail.northwind.example>',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="==steward-fixture-inner=="',
    '',
    '--==steward-fixture-inner==',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Invoice attached.',
    '',
    '--==steward-fixture-inner==',
    'Content-Type: application/pdf; name="NW-2026-0042.pdf"',
    'Content-Disposition: attachment; filename="NW-2026-0042.pdf"',
    'Content-Transfer-Encoding: base64',
    '',
    base64Lines(invoicePdf),
    '',
    '--==steward-fixture-inner==--',
  ])
  return message([
    'From: Owner <owner@steward-test.example>',
    'To: ap@steward-test.example',
    'Subject: Fwd: Invoice NW-2026-0042',
    'Date: Tue, 03 Mar 2026 09:00:00 +0000',
    'Message-ID: <fwd-1@steward-test.example>',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="==steward-fixture-outer=="',
    '',
    '--==steward-fixture-outer==',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Forwarding the original message: please pay this one.',
    '',
    '--==steward-fixture-outer==',
    'Content-Type: message/rfc822',
    'Content-Disposition: attachment; filename="Invoice NW-2026-0042.eml"',
    '',
    inner.trimEnd(),
    '',
    '--==steward-fixture-outer==',
    'Content-Type: message/rfc822',
    '',
    message(['From: bank@acme-bank.example', 'Subject: Payment reminder', 'Date: Tue, 03 Mar 2026 08:00:00 +0000', '', 'Your card payment is due.']).trimEnd(),
    '',
    '--==steward-fixture-outer==--',
  ])
}

/** Bytes that are not an e-mail: seeded noise, with NULs and no header structure. */
function garbageBytes(length: number, seed: number): Buffer {
  const bytes = Buffer.alloc(length)
  let state = seed
  for (let index = 0; index < length; index++) {
    state = (state * 1103515245 + 12345) % 2147483648
    bytes[index] = state >> 16 & 0xff
  }
  return bytes
}

async function main(): Promise<void> {
  mkdirSync(outputDirectory, { recursive: true })
  const write = (name: string, content: Uint8Array | string) => {
    writeFileSync(join(outputDirectory, name), content)
    console.log(`wrote ${name}`)
  }
  const englishInvoice = await englishVendorInvoice()
  write('invoice-en-vendor.pdf', englishInvoice)
  write('rechnung-de.pdf', await germanInvoice())
  write('facture-fr-receivable.pdf', await frenchReceivableInvoice())
  write('receipt-card-purchase.pdf', await cardPurchaseReceipt())
  write('invoice-unlabelled-total.pdf', await unlabelledTotalInvoice())
  write('letter-not-invoice.pdf', await notAnInvoice())
  write('scanned-no-text.pdf', await scannedInvoice())
  write('truncated.pdf', Buffer.from(englishInvoice).subarray(0, 700))
  write('invoice-with-attachments.eml', emailWithAttachments(englishInvoice))
  write('receipt-inline.eml', emailWithInlineReceipt())
  write('receipt-html-only.eml', emailWithHtmlOnlyReceipt())
  write('no-receipt.eml', emailWithoutReceipt())
  write('forwarded-message.eml', emailForwardingMessage(englishInvoice))
  write('malformed.eml', garbageBytes(4096, 7))
}

await main()
