/** IBANs as bank files write them (grouped in fours, lower case) checked with the ISO 13616 mod-97 rule. */

/** The IBAN in its electronic form (no spaces, upper case) when the text is one with a valid check; else undefined. */
export function normalizeIban(text: string): string | undefined {
  const compact = text.replace(/[\s-]/g, '').toUpperCase()
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/.test(compact)) return undefined
  const rearranged = `${compact.slice(4)}${compact.slice(0, 4)}`
  let remainder = 0
  for (const character of rearranged) {
    const value = character >= 'A' ? String(character.charCodeAt(0) - 55) : character
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97
  }
  return remainder === 1 ? compact : undefined
}
