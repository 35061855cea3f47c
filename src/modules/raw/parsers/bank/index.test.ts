import { describe, expect, it } from 'vitest'
import { fixtureCatalogue, fixtureInput } from './fixture-input.testing.ts'
import { bankStatementParsers } from './index.ts'

describe('bankStatementParsers', () => {
  it('tries the structured formats before CSV, each parser once, all at version 1.0.0', () => {
    expect(bankStatementParsers.map((parser) => [parser.name, parser.version])).toEqual([
      ['camt053_statement', '1.0.0'],
      ['ofx_statement', '1.0.0'],
      ['mt940_statement', '1.0.0'],
      ['csv_bank_statement', '1.1.0'],
    ])
  })

  it.each(fixtureCatalogue)('the first parser to accept %s is %s', (path, expected) => {
    const input = fixtureInput(path)
    expect(bankStatementParsers.find((parser) => parser.accepts(input))?.name).toBe(expected)
    // Exactly one parser claims each fixture, so the order is a safeguard rather than a tie-breaker.
    expect(bankStatementParsers.filter((parser) => parser.accepts(input)).map((parser) => parser.name)).toEqual([expected])
  })

  it.each(fixtureCatalogue.filter(([, expected]) => expected !== 'csv_bank_statement'))('still picks the right parser for %s named .csv', (path, expected) => {
    const input = fixtureInput(path, { filename: 'export.csv', mimeType: 'text/csv' })
    expect(bankStatementParsers.find((parser) => parser.accepts(input))?.name).toBe(expected)
  })
})
