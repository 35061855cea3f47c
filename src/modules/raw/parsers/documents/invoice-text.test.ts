import { describe, expect, it } from 'vitest'
import { invoiceFromFields, readInvoiceText, readPaymentTermsDays } from './invoice-text.ts'

const read = (text: string, options: Parameters<typeof readInvoiceText>[1] = { issuerFromFirstLines: true }) => readInvoiceText(text, options)

function invoiceOf(text: string, direction: 'payable' | 'receivable' = 'payable', options: Parameters<typeof readInvoiceText>[1] = { issuerFromFirstLines: true }) {
  const reading = invoiceFromFields(readInvoiceText(text, options), direction)
  if (!reading.ok) throw new Error(`expected an invoice, got: ${reading.reason}`)
  return reading
}

describe('labels', () => {
  it.each([
    ['Invoice No: INV-1001', 'INV-1001'],
    ['Invoice #1001', '1001'],
    ['INVOICE NUMBER 2026/0042', '2026/0042'],
    ['Invoice: A-77', 'A-77'],
    ['Receipt # 1042-7781', '1042-7781'],
    ['Rechnungsnummer: RE-2026-1187', 'RE-2026-1187'],
    ['Rechnungs-Nr. 4711', '4711'],
    ['Facture n° F-2026-017', 'F-2026-017'],
    ['N° de facture : 2026-12', '2026-12'],
    ['Numéro de facture 88', '88'],
  ])('reads the invoice number in %j', (text, number) => {
    expect(read(text).invoiceNumber).toBe(number)
  })

  it('does not take a customer number, an order number or a word for the invoice number', () => {
    expect(read('Customer No: 40021\nOrder #5512').invoiceNumber).toBeUndefined()
    expect(read('Kundennummer: 40021').invoiceNumber).toBeUndefined()
    expect(read('Invoice No: pending').invoiceNumber).toBeUndefined()
  })

  it('tells the due date from the issue date in all three languages', () => {
    const english = read('Invoice date: 2026-03-02 Due date: 2026-04-01')
    expect([english.issueDate, english.dueDate]).toEqual(['2026-03-02', '2026-04-01'])
    const german = read('Datum: 15.03.2026\nFällig am: 14.04.2026')
    expect([german.issueDate, german.dueDate]).toEqual(['2026-03-15', '2026-04-14'])
    const french = read("Date d'émission : 5 mars 2026\nDate d'échéance : 4 avril 2026")
    expect([french.issueDate, french.dueDate]).toEqual(['2026-03-05', '2026-04-04'])
    const labelAbove = read('Payment Due\nApril 1, 2026\nDate\nMarch 2, 2026')
    expect([labelAbove.issueDate, labelAbove.dueDate]).toEqual(['2026-03-02', '2026-04-01'])
  })

  it('derives the due date from payment terms only when none is printed', () => {
    expect(read('Invoice date: 2026-03-02\nTerms: Net 30').dueDate).toBe('2026-04-01')
    expect(read('Invoice date: 2026-03-02\nTerms: Net 30').evidence.dueDateFromTerms).toBe(true)
    expect(read('Invoice date: 2026-03-02\nDue date: 2026-03-20\nTerms: Net 30').dueDate).toBe('2026-03-20')
    expect(read('Terms: Net 30').dueDate).toBeUndefined()
  })

  it.each([
    ['Net 30', 30],
    ['payable within 14 days', 14],
    ['zahlbar innerhalb von 10 Tagen', 10],
    ['virement sous 45 jours', 45],
    ['30 days net', 30],
    ['Net 0', undefined],
    ['Net 9999', undefined],
    ['no terms', undefined],
  ])('reads payment terms %j as %s days', (text, days) => {
    expect(readPaymentTermsDays(text)).toBe(days)
  })
})

describe('amounts', () => {
  it('separates total, subtotal, tax, paid and due, with the longest label winning', () => {
    const fields = read(['Subtotal $1,000.00', 'VAT (20%) $200.00', 'Total $1,200.00', 'Amount paid $200.00', 'Balance due $1,000.00'].join('\n'))
    expect(fields).toMatchObject({ subtotal: '1000', tax: '200', total: '1200', amountPaid: '200', balanceDue: '1000' })
    expect(fields.evidence.arithmeticConsistent).toBe(true)
  })

  it('reads French and German totals that contain the word total or netto', () => {
    expect(read('Total HT 1 500,00 €\nTVA 20 % 300,00 €\nTotal TTC 1 800,00 €')).toMatchObject({ subtotal: '1500', tax: '300', total: '1800' })
    expect(read('Summe netto 100,00 EUR\nMwSt. 19 % 19,00 EUR\nGesamtbetrag 119,00 EUR')).toMatchObject({ subtotal: '100', tax: '19', total: '119' })
  })

  it('adds several tax lines when that is what makes the invoice add up', () => {
    expect(read('Nettobetrag 200,00 €\nMwSt. 7 % 7,00 €\nMwSt. 19 % 19,00 €\nGesamtbetrag 226,00 €').tax).toBe('26')
  })

  it('does not take a tax id, a percentage or a card number for an amount', () => {
    const fields = read('VAT ID: GB123456789\nTax (8.5%)\nPaid with Visa 4242\nTotal $10.00')
    expect(fields.tax).toBeUndefined()
    expect(fields.vendor.taxId).toBe('GB123456789')
    expect(fields.amountPaid).toBeUndefined()
    expect(fields.total).toBe('10')
  })

  it('computes the total from the amount due and what was paid', () => {
    const fields = read('Invoice No: 5\nPaid: €50.00\nAmount due: €150.00')
    expect(fields).toMatchObject({ total: '200', amountPaid: '50', balanceDue: '150' })
    expect(fields.evidence.totalSource).toBe('balance_due')
  })

  it('computes the amount paid from the total and the amount due', () => {
    expect(read('Total: 1,800.00 EUR\nAmount due: 1,300.00 EUR').amountPaid).toBe('500')
  })

  it('computes the total from subtotal and tax when no total is printed, with less confidence', () => {
    const reading = invoiceOf('Acme Ltd\nInvoice No: 7\nSubtotal £100.00\nVAT £20.00')
    expect(reading.record.total).toBe('120')
    expect(reading.confidence).toBe(0.75)
  })

  it('falls back to the largest money amount, with low confidence', () => {
    const reading = invoiceOf('Acme Ltd\nInvoice No: 7\nDesign EUR 900.00\nPrint EUR 1,550.00\nPhone 0049 30 123456')
    expect(reading.record.total).toBe('1550')
    expect(reading.fields.evidence.totalSource).toBe('largest_amount')
    expect(reading.confidence).toBeLessThanOrEqual(0.5)
  })

  it('refuses a credit note (a negative total)', () => {
    const reading = invoiceFromFields(read('Credit note\nInvoice No: CN-1\nTotal -€50.00'), 'payable')
    expect(reading).toMatchObject({ ok: false })
    expect(reading.ok ? '' : reading.reason).toMatch(/credit note/)
  })
})

describe('currency', () => {
  it.each([
    ['Total USD 10.00', 'USD', 'total', false],
    ['Total 10,00 €', 'EUR', 'total', false],
    ['Total £10.00', 'GBP', 'total', false],
    ['Total CA$10.00', 'CAD', 'total', false],
    ['Total $10.00', 'USD', 'total', true],
    ['All amounts in CAD\nTotal $10.00', 'CAD', 'total', false],
    ['Currency: CHF\nTotal 10.00', 'CHF', 'label', false],
    ['Prices in EUR\nTotal 10.00', 'EUR', 'document_code', false],
  ] as const)('reads %j as %s (%s, ambiguous %s)', (text, currency, source, ambiguous) => {
    const fields = read(text)
    expect(fields.currency).toBe(currency)
    expect(fields.evidence.currencySource).toBe(source)
    expect(fields.evidence.currencyAmbiguous).toBe(ambiguous)
  })

  it('uses the source currency only when the text names none', () => {
    expect(read('Total 10.00', { fallbackCurrency: 'SEK' })).toMatchObject({ currency: 'SEK', evidence: { currencySource: 'source_ref' } })
    expect(read('Total 10.00 EUR', { fallbackCurrency: 'SEK' }).currency).toBe('EUR')
    expect(read('Total 10.00').currency).toBeUndefined()
  })

  it('reads ambiguous numeric dates month first in a dollar document and day first otherwise', () => {
    expect(read('Invoice date: 03/04/2026\nTotal USD 1.00').issueDate).toBe('2026-03-04')
    expect(read('Invoice date: 03/04/2026\nTotal EUR 1.00').issueDate).toBe('2026-04-03')
    expect(read('Invoice date: 03/04/2026\nTotal EUR 1.00').evidence.dateAmbiguous).toBe(true)
  })
})

describe('parties', () => {
  const text = [
    'Initech Ltd INVOICE',
    '1 Office Park Invoice No: 42',
    'hello@initech.example VAT No: GB999999973',
    'IBAN: GB82 WEST 1234 5698 7654 32',
    'Bill To:',
    'Globex Corporation Due Date: 2026-04-01',
    'ap@globex.example',
    'VAT No: GB123456789',
    'Total £120.00',
  ].join('\n')

  it('reads the issuer from the letterhead and the bill-to party from its block', () => {
    const fields = read(text)
    expect(fields.vendor).toEqual({ name: 'Initech Ltd', email: 'hello@initech.example', taxId: 'GB999999973', iban: 'GB82WEST12345698765432' })
    expect(fields.billTo).toEqual({ name: 'Globex Corporation', email: 'ap@globex.example', taxId: 'GB123456789' })
  })

  it('makes the issuer the counterparty of a payable and the bill-to party that of a receivable', () => {
    expect(invoiceOf(text, 'payable').record.counterparty).toEqual({ name: 'Initech Ltd', tax_id: 'GB999999973', email: 'hello@initech.example', iban: 'GB82WEST12345698765432' })
    expect(invoiceOf(text, 'receivable').record.counterparty).toEqual({ name: 'Globex Corporation', tax_id: 'GB123456789', email: 'ap@globex.example' })
  })

  it('refuses an IBAN whose checksum is wrong', () => {
    expect(read('IBAN: GB82 WEST 1234 5698 7654 33').vendor.iban).toBeUndefined()
  })

  it('takes the issuer from a From label or a receipt line, and not from the first line of an e-mail', () => {
    expect(read('From: Contoso GmbH\nInvoice No: 1').vendor.name).toBe('Contoso GmbH')
    expect(read('Your receipt from Blue Bottle Coffee\nTotal $5.00', { issuerFromFirstLines: false }).vendor.name).toBe('Blue Bottle Coffee')
    expect(read('Hello there\nTotal $5.00', { issuerFromFirstLines: false }).vendor.name).toBeUndefined()
  })
})

describe('confidence', () => {
  const base = 'Acme Ltd\nInvoice No: 7\nInvoice date: 2026-03-02\n'

  it.each([
    ['labelled number, total and currency', 0.9, `${base}Total EUR 100.00`],
    ['an ambiguous $', 0.8, `${base}Total $100.00`],
    ['currency from elsewhere in the document', 0.8, `${base}Prices in EUR\nTotal 100.00`],
    ['amounts that do not add up', 0.7, `${base}Subtotal EUR 100.00\nTax EUR 20.00\nTotal EUR 130.00`],
    ['no counterparty name', 0.8, 'Invoice No: 7\nInvoice date: 2026-03-02\nTotal EUR 100.00'],
    ['an ambiguous date', 0.8, 'Acme Ltd\nInvoice No: 7\nInvoice date: 03/04/2026\nTotal EUR 100.00'],
    ['the largest amount', 0.4, `${base}Services EUR 100.00`],
  ])('%s → %s', (_case, confidence, text) => {
    expect(invoiceOf(text).confidence).toBe(confidence)
  })

  it('uses the source currency at a cost', () => {
    expect(invoiceOf(`${base}Total 100.00`, 'payable', { fallbackCurrency: 'EUR', issuerFromFirstLines: true }).confidence).toBe(0.7)
  })
})

describe('what is not an invoice', () => {
  it.each([
    ['', /no invoice number/],
    ['Dear customer, our office is closed.', /no invoice number/],
    ['Invoice No: 7', /no total/],
    ['Invoice No: 7\nTotal 100.00', /no currency/],
  ])('%j fails with a reason', (text, reason) => {
    const reading = invoiceFromFields(read(text), 'payable')
    expect(reading.ok).toBe(false)
    expect(reading.ok ? '' : reading.reason).toMatch(reason)
  })

  it('never throws, whatever the text', () => {
    const texts = ['\u0000\u0001', '€'.repeat(10_000), 'Total '.repeat(5_000), '9'.repeat(50_000), 'Invoice No: 1\n'.repeat(3_000)]
    for (const text of texts) expect(() => invoiceFromFields(read(text), 'payable')).not.toThrow()
  })
})
