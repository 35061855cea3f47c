/**
 * Currencies as documents write them: ISO 4217 codes and the symbols that stand for them. A symbol
 * shared by several currencies (`$`, `¥`) is read as its most common currency unless the document also
 * names one of the others by code, and the reading is then marked ambiguous.
 */

/** The ISO 4217 codes recognised in free text. A closed list: `VAT`, `TTC` or `NET` must not read as codes. */
export const currencyCodes: readonly string[] = [
  'USD', 'EUR', 'GBP', 'CHF', 'CAD', 'AUD', 'NZD', 'JPY', 'CNY', 'HKD', 'SGD', 'SEK', 'NOK', 'DKK', 'ISK',
  'PLN', 'CZK', 'HUF', 'RON', 'BGN', 'TRY', 'INR', 'MXN', 'BRL', 'ZAR', 'AED', 'ILS', 'KRW', 'THB', 'MYR',
]

interface SymbolReading {
  /** What the symbol most commonly means. */
  readonly currency: string
  /** Every currency the symbol is also written for; empty when the symbol is unambiguous. */
  readonly alternatives: readonly string[]
}

const dollarAlternatives = ['USD', 'CAD', 'AUD', 'NZD', 'SGD', 'HKD', 'MXN']

export const currencySymbols: Readonly<Record<string, SymbolReading>> = {
  'US$': { currency: 'USD', alternatives: [] },
  'CA$': { currency: 'CAD', alternatives: [] },
  'C$': { currency: 'CAD', alternatives: [] },
  'AU$': { currency: 'AUD', alternatives: [] },
  'A$': { currency: 'AUD', alternatives: [] },
  'NZ$': { currency: 'NZD', alternatives: [] },
  'HK$': { currency: 'HKD', alternatives: [] },
  'S$': { currency: 'SGD', alternatives: [] },
  'R$': { currency: 'BRL', alternatives: [] },
  $: { currency: 'USD', alternatives: dollarAlternatives },
  '€': { currency: 'EUR', alternatives: [] },
  '£': { currency: 'GBP', alternatives: [] },
  '¥': { currency: 'JPY', alternatives: ['JPY', 'CNY'] },
  '₹': { currency: 'INR', alternatives: [] },
  '₩': { currency: 'KRW', alternatives: [] },
  'zł': { currency: 'PLN', alternatives: [] },
  'Kč': { currency: 'CZK', alternatives: [] },
}

function escapeForPattern(text: string): string {
  return text.replace(/[$()*+.?[\\\]^{|}]/g, '\\$&')
}

/** Alternation of the codes, for building patterns. */
export const currencyCodeAlternatives = currencyCodes.join('|')

/** Alternation of the symbols, longest first so `US$` wins over `$`. */
export const currencySymbolAlternatives = Object.keys(currencySymbols)
  .sort((a, b) => b.length - a.length)
  .map(escapeForPattern)
  .join('|')

export interface CurrencyReading {
  readonly currency: string
  /** True when a shared symbol was read without a code in the document to settle it. */
  readonly ambiguous: boolean
}

/**
 * Reads a code or symbol. `documentCodes` are the codes the document names anywhere: they settle a
 * shared symbol (`$` in a document that says `CAD` is Canadian dollars).
 */
export function readCurrencyMarker(marker: string, documentCodes: ReadonlySet<string>): CurrencyReading | undefined {
  const upper = marker.toUpperCase()
  if (currencyCodes.includes(upper)) return { currency: upper, ambiguous: false }
  const symbol = currencySymbols[marker]
  if (symbol === undefined) return undefined
  if (symbol.alternatives.length === 0) return { currency: symbol.currency, ambiguous: false }
  const named = symbol.alternatives.filter((code) => documentCodes.has(code))
  if (named.length === 1 && named[0] !== undefined) return { currency: named[0], ambiguous: false }
  return { currency: symbol.currency, ambiguous: true }
}

export function isKnownCurrencyCode(value: string): boolean {
  return currencyCodes.includes(value)
}
