import { describe, expect, it } from 'vitest'
import { documentParsers } from './index.ts'
import { selectParser } from '../registry.ts'
import { fixtureBytes } from '../../../../../test/fixtures/raw/documents/fixture-input.ts'

const head = (text: string) => Buffer.from(text)
const pdfHead = fixtureBytes('invoice-en-vendor.pdf').subarray(0, 1024)
const emlHead = fixtureBytes('receipt-inline.eml').subarray(0, 1024)
const jsonHead = head('{"schema":')

const cases: ReadonlyArray<readonly [string, string, string | null, Buffer, string | undefined]> = [
  ['pdf_upload', 'application/pdf', 'invoice.pdf', pdfHead, 'pdf_invoice'],
  ['email_inbound', 'application/pdf', 'NW-2026-0042.pdf', pdfHead, 'pdf_invoice'],
  ['other', 'application/octet-stream', 'scan', pdfHead, 'pdf_invoice'],
  ['email_inbound', 'message/rfc822', null, emlHead, 'email_message'],
  ['email_inbound', 'application/octet-stream', 'forwarded.eml', emlHead, 'email_message'],
  ['bank_provider', 'application/json', null, jsonHead, 'bank_provider_payload'],
  ['card_processor', 'application/json', null, jsonHead, 'card_processor_payload'],
  ['erp_provider', 'application/json', null, jsonHead, 'erp_provider_payload'],
  ['accounting_provider', 'application/json', null, jsonHead, 'accounting_provider_payload'],
  ['payroll_provider', 'application/json; charset=utf-8', null, jsonHead, 'payroll_provider_payload'],
  ['chain_indexer_wallet', 'application/json', null, jsonHead, 'chain_indexer_wallet'],
  // Statements are the bank-statement parsers' to read, whatever source they came from.
  ['csv_upload', 'text/csv', 'statement.csv', head('Date,Description,Amount\n2026-03-01,Coffee,-4.50\n'), undefined],
  ['email_inbound', 'text/csv', 'statement-2026-03.csv', head('Date,Description,Amount\n'), undefined],
  ['other', 'application/x-ofx', 'statement.ofx', head('OFXHEADER:100\nDATA:OFXSGML\n<OFX>'), undefined],
  ['csv_upload', 'application/vnd.intu.qfx', 'statement.qfx', head('<?xml version="1.0"?><?OFX OFXHEADER="200"?><OFX>'), undefined],
  ['other', 'application/xml', 'camt053.xml', head('<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">'), undefined],
  // JSON from a source that is not a provider, and provider bodies that are not JSON.
  ['csv_upload', 'application/json', 'export.json', jsonHead, undefined],
  ['eth_address', 'application/json', null, jsonHead, undefined],
  ['bank_provider', 'text/csv', 'statement.csv', head('Date,Amount\n'), undefined],
  ['wiki_annotation', 'text/plain', null, head('a note'), undefined],
]

describe('document parsers', () => {
  it('are versioned (1.1.0 where a payload gained subscriptions) and named uniquely', () => {
    expect(Object.fromEntries(documentParsers.map((parser) => [parser.name, parser.version]))).toEqual({
      pdf_invoice: '1.0.0',
      email_message: '1.0.0',
      bank_provider_payload: '1.0.0',
      card_processor_payload: '1.0.0',
      erp_provider_payload: '1.1.0',
      accounting_provider_payload: '1.1.0',
      payroll_provider_payload: '1.0.0',
      chain_indexer_wallet: '1.0.0',
    })
    expect(new Set(documentParsers.map((parser) => parser.name)).size).toBe(documentParsers.length)
  })

  it.each(cases)('%s %s %s → %s', (sourceType, mimeType, filename, bytes, expected) => {
    const accepting = documentParsers.filter((parser) => parser.accepts({ sourceType, mimeType, filename, head: bytes })).map((parser) => parser.name)
    // Exactly one parser, or none: the order of the list never decides.
    expect(accepting).toEqual(expected === undefined ? [] : [expected])
  })

  it('are tried by the registry before the bank-statement parsers', () => {
    for (const [sourceType, mimeType, filename, bytes, expected] of cases) {
      if (expected !== undefined) expect(selectParser({ sourceType, mimeType, filename, head: bytes })?.name).toBe(expected)
    }
  })
})
