/** What a Ledger write did to each entity it touched, and the counts its audit event and job result report. */
import type { LedgerKind } from './entities.ts'

/** An entity's fate in a write: a first version, a new version, or its content unchanged (nothing written). */
export type EntityOutcome = 'created' | 'updated' | 'unchanged'

export type KindCounts = Record<EntityOutcome, number>

/** Per kind, how many entities a write created, updated and left unchanged. */
export type OutcomeCounts = Partial<Record<LedgerKind, KindCounts>>

/** Counts as audit outputs: `transaction_created: 3`, `account_unchanged: 1`… (non-zero only). */
export function flatCounts(counts: OutcomeCounts): Record<string, number> {
  const flat: Record<string, number> = {}
  for (const [kind, tally] of Object.entries(counts)) {
    for (const [outcome, count] of Object.entries(tally)) if (count > 0) flat[`${kind}_${outcome}`] = count
  }
  return flat
}

/** Adds a batch's counts to a run's. */
export function addCounts(total: OutcomeCounts, batch: OutcomeCounts): void {
  for (const [kind, tally] of Object.entries(batch) as Array<[LedgerKind, KindCounts]>) {
    const into = (total[kind] ??= { created: 0, updated: 0, unchanged: 0 })
    into.created += tally.created
    into.updated += tally.updated
    into.unchanged += tally.unchanged
  }
}

/**
 * A write's outcomes over every kind, as an import reports them: entities `created` (a first version),
 * `superseded` (a new version replaced the current one: what `updated` counts per kind) and `unchanged`.
 */
export function outcomeTotals(counts: OutcomeCounts): { created: number; unchanged: number; superseded: number } {
  const totals = { created: 0, unchanged: 0, superseded: 0 }
  for (const tally of Object.values(counts)) {
    totals.created += tally.created
    totals.unchanged += tally.unchanged
    totals.superseded += tally.updated
  }
  return totals
}
