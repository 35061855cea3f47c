/**
 * The confidence scale every bank statement parser uses, so that a number means the same thing whatever
 * the format. A record's confidence is the lowest level any of its values reached:
 *
 * - `exact` (1.0): every value was read from a field whose meaning the format defines — an OFX tag, a
 *   CAMT element, an MT940 sub-field, or a CSV column whose header is a known name — in a notation that
 *   has one reading (the date order and the decimal separator were decided by the data itself).
 * - `convention` (0.9): a value rests on a documented convention that the format does not guarantee,
 *   and that cannot change this record's meaning if the convention holds: a CSV header matched only by a
 *   keyword, a date order or decimal separator that was guessed for the file while this record's value
 *   reads the same either way (05/05/2024, 12.50), `$` read as USD, an account named after the file,
 *   a counterparty taken from the bank-specific sub-fields of an MT940 :86: line.
 * - `guess` (0.6): a value of this record would read differently if the guess were wrong: 03/04/2024 with
 *   a guessed day/month order, 1,234 with a guessed decimal separator.
 *
 * 1.0 is therefore never given to a record of a file whose column mapping or date order was guessed.
 */
export const confidenceLevels = {
  exact: 1,
  convention: 0.9,
  guess: 0.6,
} as const

export type ConfidenceLevel = keyof typeof confidenceLevels

/** The lowest of several levels (a record is only as sure as its least sure value). */
export function lowestConfidence(levels: readonly ConfidenceLevel[]): number {
  let lowest: number = confidenceLevels.exact
  for (const level of levels) lowest = Math.min(lowest, confidenceLevels[level])
  return lowest
}
