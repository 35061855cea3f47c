import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { counterpartyFromDescription, counterpartyKeys, NormalizedTexts, normalizeCounterpartyName, normalizeDescription, normalizedDescriptionsMax, normalizeText } from './keys.ts'

describe('NormalizedTexts', () => {
  it('gives what the functions give without it, however texts repeat and alternate', () => {
    const texts = ['Café Müller 1234567', 'CARD 12/03 STARBUCKS #1', '', '  ', 'ACME Inc.', 'ﬁne ß', 'acme inc']
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...texts), fc.integer({ min: 0, max: 4 })), { maxLength: 40 }), (calls) => {
        const recent = new NormalizedTexts()
        for (const [text, which] of calls) {
          switch (which) {
            case 0:
              expect(normalizeText(text, recent)).toBe(normalizeText(text))
              break
            case 1:
              expect(normalizeDescription(text, recent)).toBe(normalizeDescription(text))
              break
            case 2:
              expect(normalizeCounterpartyName(text, recent)).toBe(normalizeCounterpartyName(text))
              break
            case 3:
              expect(counterpartyFromDescription(text, recent)).toBe(counterpartyFromDescription(text))
              break
            default:
              expect(counterpartyKeys({ name: text === '' ? 'x' : text, tax_id: text }, recent)).toEqual(counterpartyKeys({ name: text === '' ? 'x' : text, tax_id: text }))
          }
        }
      }),
    )
  })

  it(`starts again after ${normalizedDescriptionsMax} descriptions, with the same results`, () => {
    const recent = new NormalizedTexts()
    for (let index = 0; index < normalizedDescriptionsMax + 10; index += 1) {
      const description = `SHOP ${index} 1234567`
      expect(recent.description(description)).toBe(`SHOP ${index}`)
    }
    expect(recent.description('SHOP 1 1234567')).toBe('SHOP 1')
  })
})
