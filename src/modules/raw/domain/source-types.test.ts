import { describe, expect, it } from 'vitest'
import { checkIngestSourceType, genericSourceType, providers, providerSourceTypes, sourceTypes } from './source-types.ts'

describe('checkIngestSourceType', () => {
  it.each(['email_inbound', 'csv_upload', 'pdf_upload', 'eth_address', 'agent_contributed', 'other'])('accepts %s', (value) => {
    expect(checkIngestSourceType(value)).toEqual({ ok: true, sourceType: value })
  })
  it.each(['bank_provider', 'card_processor', 'erp_provider', 'accounting_provider', 'payroll_provider', 'chain_indexer_wallet', 'wiki_annotation'])('reserves %s', (value) => {
    expect(checkIngestSourceType(value)).toEqual({ ok: false, problem: 'reserved' })
  })
  it.each(['', 'CSV_UPLOAD', 'chain_indexer', 'bank', 'toString'])('does not know %j', (value) => {
    expect(checkIngestSourceType(value)).toEqual({ ok: false, problem: 'unsupported' })
  })
  it('maps every provider to a known source type', () => {
    for (const provider of providers) expect(sourceTypes).toContain(providerSourceTypes[provider])
  })
})

describe('genericSourceType', () => {
  it.each([
    [{ schema: 'steward.payroll_provider.v1' }, 'payroll_provider'],
    [{ schema: 'steward.accounting_provider.v1' }, 'accounting_provider'],
    [{ schema: 'steward.bank_provider.v1' }, 'other'],
    [{ schema: 42 }, 'other'],
    [[], 'other'],
    [null, 'other'],
    ['steward.payroll_provider.v1', 'other'],
  ])('%j → %s', (payload, expected) => {
    expect(genericSourceType(payload)).toBe(expected)
  })
})
