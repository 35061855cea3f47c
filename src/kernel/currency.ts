/**
 * Currency facts shared by every layer. Pure: the ISO 4217 exponents come from the ICU data Node ships
 * (Intl), so there is no table of our own to drift from the standard.
 */

const minorUnitsCache = new Map<string, number | undefined>()

/**
 * The number of minor-unit digits of an ISO 4217 currency, from the ICU data Node ships; undefined for
 * anything that is not three capital letters (token symbols such as USDC keep their digits as written).
 * Intl answers 2 for a well-formed code it does not know (`XYZ`); callers that must tell a known code
 * from an unknown one use `isKnownIsoCurrency`.
 */
export function currencyMinorUnits(currency: string): number | undefined {
  if (minorUnitsCache.has(currency)) return minorUnitsCache.get(currency)
  let digits: number | undefined
  if (/^[A-Z]{3}$/.test(currency)) {
    try {
      digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits
    } catch {
      digits = undefined
    }
  }
  minorUnitsCache.set(currency, digits)
  return digits
}

let isoCurrencies: ReadonlySet<string> | undefined

/** Whether ICU knows the code as an ISO 4217 currency (`USD`, `JPY`), as opposed to a merely well-formed one (`ETH`). */
export function isKnownIsoCurrency(currency: string): boolean {
  isoCurrencies ??= new Set(Intl.supportedValuesOf('currency'))
  return isoCurrencies.has(currency)
}
