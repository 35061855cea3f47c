/**
 * Occurrences (docs/raw-and-ledger.md, rule 1): the k-th row of an artifact identical to earlier ones
 * (same account, day, amount and normalized description; for wallet transfers, the same transfer) is
 * occurrence k, so two genuine identical purchases stay two transactions while an overlapping statement
 * finds both again. What makes rows identical, and counting them; the run's counter, which keeps a
 * bounded number of days and reads a day again when it must, is normalize/occurrences.ts.
 */
import type { ExtractedRecord } from '../../../kernel/extracted-record.ts'
import { ledgerAmount, normalizeDescription, type NormalizedTexts } from './keys.ts'

/** What makes rows identical, and the day they belong to; undefined for records that are not counted. */
export function occurrenceIdentity(record: ExtractedRecord, recent?: NormalizedTexts): { day: string; key: string } | undefined {
  if (record.kind === 'transaction') {
    return {
      day: record.transaction_date,
      key: JSON.stringify([record.account, ledgerAmount(record.amount, record.currency), normalizeDescription(record.description, recent)]),
    }
  }
  if (record.kind === 'wallet_transfer') return { day: record.timestamp.slice(0, 10), key: JSON.stringify([record.account, record.tx_hash, record.log_index]) }
  return undefined
}

/** How many of `records` (an artifact's rows) have each identity on `day`. */
export function occurrenceCounts(records: readonly ExtractedRecord[], day: string, recent?: NormalizedTexts): Map<string, number> {
  const counts = new Map<string, number>()
  for (const record of records) {
    const identity = occurrenceIdentity(record, recent)
    if (identity !== undefined && identity.day === day) counts.set(identity.key, (counts.get(identity.key) ?? 0) + 1)
  }
  return counts
}

/**
 * The occurrence of a record among `earlier` (the records of its artifact's earlier rows of its day, or
 * more): one more than the earlier rows identical to it; 1 for a record that is not counted.
 */
export function occurrenceAmong(record: ExtractedRecord, earlier: readonly ExtractedRecord[], recent?: NormalizedTexts): number {
  const identity = occurrenceIdentity(record, recent)
  if (identity === undefined) return 1
  return (occurrenceCounts(earlier, identity.day, recent).get(identity.key) ?? 0) + 1
}
