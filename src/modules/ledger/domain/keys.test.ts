import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { counterpartyFromDescription, normalizeCounterpartyName, normalizeDescription, normalizeText, storedKey, storedKeyBytesMax } from './keys.ts'

describe('storedKey', () => {
  it('keeps a key of up to 64 UTF-8 bytes as it is', () => {
    expect(storedKey('iban:DE89370400440532013000')).toBe('iban:DE89370400440532013000')
    const exactly = `name:${'X'.repeat(storedKeyBytesMax - 5)}`
    expect(Buffer.byteLength(exactly)).toBe(64)
    expect(storedKey(exactly)).toBe(exactly)
  })

  it('stores a longer key as # and its base64url SHA-256, counting bytes, not characters', () => {
    const long = `fp:acc_1:2024-03-01:12.5:${'SETTLEMENT DETAIL '.repeat(10)}:1`
    const expected = `#${createHash('sha256').update(long, 'utf8').digest('base64url')}`
    expect(storedKey(long)).toBe(expected)
    expect(storedKey(long)).toHaveLength(44)
    // 60 characters but 66 bytes: hashed.
    const accented = `name:${'É'.repeat(6)}${'X'.repeat(49)}`
    expect(accented).toHaveLength(60)
    expect(storedKey(accented)).toMatch(/^#[A-Za-z0-9_-]{43}$/)
    // Different keys, different stored forms.
    expect(storedKey(`${long}2`)).not.toBe(storedKey(long))
  })
})

describe('counterpartyFromDescription', () => {
  /** The straightforward form it replaced: the name, split, filtered, its first three words joined. */
  function reference(description: string): string | undefined {
    const name = normalizeCounterpartyName(description.replace(/\b[0-9]{1,2}[/.-][0-9]{1,2}([/.-][0-9]{2,4})?\b/g, ' '))
    const words = name.split(' ').filter((word) => word.length > 1 && !/[0-9]/.test(word))
    return words.length === 0 ? undefined : words.slice(0, 3).join(' ')
  }

  it('guesses the merchant from a card purchase', () => {
    expect(counterpartyFromDescription('CARD PURCHASE 12/03 STARBUCKS #1234 SEATTLE')).toBe('STARBUCKS SEATTLE')
    expect(counterpartyFromDescription('SQ *BLUE BOTTLE COFFEE INC 0042')).toBe('BLUE BOTTLE COFFEE')
    expect(counterpartyFromDescription('ACME CO')).toBe('ACME')
    expect(counterpartyFromDescription('12/03/2024 4411')).toBeUndefined()
    expect(counterpartyFromDescription('')).toBeUndefined()
  })

  it('gives what the name would, word for word, for any description', () => {
    const words = [
      'CARD', 'PURCHASE', 'POS', 'SQ', 'PAYPAL', 'DEBIT', 'SEPA', 'APPLE', 'PAY', 'AMZN', 'MKTP', 'INC', 'LTD', 'GMBH', 'CO', 'AG', 'EV', 'X', 'A1',
      'STARBUCKS', 'Blue', 'bottle', 'Café', 'Müller', 'ß', 'Øre', '12/03', '1.5.24', '31-12-2024', '2024-03-12', '123456', '42', '#0482', '*', ',', '-', '  ', '\t', 'ﬁn', 'x2y',
    ]
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...words), { maxLength: 14 }), fc.array(fc.constantFrom(' ', '', '/', '.', ' - '), { maxLength: 14 }), (parts, separators) => {
        const description = parts.map((part, index) => `${part}${separators[index] ?? ' '}`).join('')
        expect(counterpartyFromDescription(description)).toBe(reference(description))
      }),
      { numRuns: 3000 },
    )
  })
})

describe('normalizeDescription', () => {
  it('drops numbers of six or more digits and keeps single spaces, as the three-step form did', () => {
    const reference = (description: string) => normalizeText(description).replace(/\b[0-9]{6,}\b/g, ' ').replace(/\s+/g, ' ').trim()
    expect(normalizeDescription('CARD 00012345 Café  #123456 REF 12345')).toBe('CARD CAFE REF 12345')
    const words = ['CARD', 'x', '123456', '12345', '0000001', 'A123456', '123456B', '987654321', 'É', '-', '/', '  ', '\n']
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...words), { maxLength: 12 }), fc.array(fc.constantFrom(' ', '', '.', ' - '), { maxLength: 12 }), (parts, separators) => {
        const description = parts.map((part, index) => `${part}${separators[index] ?? ' '}`).join('')
        expect(normalizeDescription(description)).toBe(reference(description))
      }),
      { numRuns: 3000 },
    )
  })
})

describe('normalizeText', () => {
  it('gives each text its own normal form, however texts repeat and alternate', () => {
    const reference = (text: string) => (/[^\x00-\x7f]/.test(text) ? text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '') : text).toUpperCase().replace(/[^A-Z0-9]+/g, ' ').trim()
    const texts = ['Café Müller', 'CARD 1234 shop', '', '  a-b  ', 'ﬁne ß']
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...texts), { maxLength: 30 }), (sequence) => {
        for (const text of sequence) expect(normalizeText(text)).toBe(reference(text))
      }),
    )
  })
})
