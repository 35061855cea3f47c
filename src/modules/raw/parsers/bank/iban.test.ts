import { describe, expect, it } from 'vitest'
import { normalizeIban } from './iban.ts'

describe('normalizeIban', () => {
  it.each([
    ['DE89370400440532013000', 'DE89370400440532013000'],
    ['DE89 3704 0044 0532 0130 00', 'DE89370400440532013000'],
    ['fr76 3000 6000 0112 3456 7890 189', 'FR7630006000011234567890189'],
    ['NL91ABNA0417164300', 'NL91ABNA0417164300'],
    ['GB29NWBK60161331926819', 'GB29NWBK60161331926819'],
  ])('accepts %s', (text, iban) => {
    expect(normalizeIban(text)).toBe(iban)
  })

  it.each(['DE89370400440532013001', 'DE8937040044', '000123456789', 'COBADEFFXXX', ''])('refuses %j (bad check digits or not an IBAN)', (text) => {
    expect(normalizeIban(text)).toBeUndefined()
  })
})
