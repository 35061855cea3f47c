/**
 * Counting a run's occurrences (docs/raw-and-ledger.md, rule 1; what makes rows identical is
 * domain/occurrences.ts) in bounded memory: counts are kept per day for the `activeDaysMax` days seen
 * most recently. A statement is sorted by date, so a day is finished once the statement has moved on; a
 * row of a day already let go (an unsorted file) has that day's counts rebuilt exactly from the
 * artifact's earlier rows of the day, read again. Memory is bounded by the rows of the busiest days, not
 * by the file.
 */
import type { ExtractedRecord } from '../../../kernel/extracted-record.ts'
import type { NormalizedTexts } from '../domain/keys.ts'
import { occurrenceAmong, occurrenceCounts, occurrenceIdentity } from '../domain/occurrences.ts'

/** Days whose counts are kept at once. */
export const activeDaysMax = 64

/** The records of the artifact's rows before `beforeRowIndex` that belong to `day`. */
export type EarlierRowsOfDay = (day: string, beforeRowIndex: number) => Promise<ExtractedRecord[]>

/** The occurrence of one row among the artifact's earlier rows (the single-row path). */
export async function occurrenceAmongEarlier(record: ExtractedRecord, rowIndex: number, earlierRowsOfDay: EarlierRowsOfDay, recent?: NormalizedTexts): Promise<number> {
  const identity = occurrenceIdentity(record, recent)
  if (identity === undefined) return 1
  return occurrenceAmong(record, await earlierRowsOfDay(identity.day, rowIndex), recent)
}

/** Counts the occurrences of an artifact's rows, fed in row order. */
export class OccurrenceCounter {
  /** Counts per day; the Map's order is recency (least recent first). */
  private readonly active = new Map<string, Map<string, number>>()
  private readonly released = new Set<string>()
  /** The most recently used day (already last in `active`'s order). */
  private lastDay: string | undefined

  /** `recent`: the run's recent text normalizations (a row's description is normalized again for its facts). */
  constructor(
    private readonly earlierRowsOfDay: EarlierRowsOfDay,
    private readonly recent?: NormalizedTexts,
  ) {}

  /**
   * The row's occurrence: a number, or a promise of one when the row's day was let go and its counts
   * must be read again first (rows of one day mostly follow each other, so callers await only then).
   */
  next(record: ExtractedRecord, rowIndex: number): number | Promise<number> {
    const identity = occurrenceIdentity(record, this.recent)
    if (identity === undefined) return 1
    const { day, key } = identity
    const counts = this.active.get(day)
    if (counts !== undefined) {
      if (day !== this.lastDay) {
        this.active.delete(day)
        this.active.set(day, counts)
        this.lastDay = day
      }
      return this.count(counts, key)
    }
    if (!this.released.delete(day)) return this.count(this.activate(day, new Map()), key)
    return this.earlierRowsOfDay(day, rowIndex).then((records) => this.count(this.activate(day, occurrenceCounts(records, day, this.recent)), key))
  }

  private activate(day: string, counts: Map<string, number>): Map<string, number> {
    this.active.set(day, counts)
    this.lastDay = day
    if (this.active.size > activeDaysMax) {
      const [oldest] = this.active.keys()
      this.active.delete(oldest!)
      this.released.add(oldest!)
    }
    return counts
  }

  private count(counts: Map<string, number>, key: string): number {
    const occurrence = (counts.get(key) ?? 0) + 1
    counts.set(key, occurrence)
    return occurrence
  }
}
