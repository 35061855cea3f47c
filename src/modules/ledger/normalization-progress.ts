/**
 * What the Ledger tells other modules about the normalization of an artifact (Raw's artifact views):
 * its latest normalization job, with its progress and outcome. Reads only; every query takes the tenant.
 */
import type { Executor } from '../../platform/db/database.ts'
import { outcomeTotals, type OutcomeCounts } from './domain/outcomes.ts'
import type { LedgerJobRow, LedgerStore } from './ledger.store.ts'
import type { RefusedRow, RunProgress, RunSummary } from './normalize/normalizer.ts'

export interface NormalizationStatus {
  readonly job_id: string
  readonly status: LedgerJobRow['status']
  /** Parsed rows normalized so far (refused ones included), and the artifact's total; null until the run starts. */
  readonly rows_done: number
  readonly rows_total: number | null
  /** Entities of the batches written so far: first versions, new versions that superseded one, and unchanged. */
  readonly created: number
  readonly unchanged: number
  readonly superseded: number
  /** Parsed rows the Ledger refused (not a record it knows); the first ones with their reasons. */
  readonly refused_rows: number
  readonly refused: readonly RefusedRow[]
  readonly error: string | null
  readonly started_at: string | null
  readonly finished_at: string | null
}

export interface LedgerNormalizations {
  /** The latest normalization job of each artifact that has one, keyed by artifact id. */
  latestOf(executor: Executor, tenantId: string, artifactIds: readonly string[]): Promise<Map<string, NormalizationStatus>>
}

/**
 * A normalization job's status. Its progress when it has one; a job that finished before progress was
 * recorded reports its result's totals; a queued one, nothing yet.
 */
export function normalizationStatusOf(row: LedgerJobRow): NormalizationStatus {
  const progress = row.progress as RunProgress | null
  const result = row.result as Partial<RunSummary> | null
  const counts: OutcomeCounts = progress?.counts ?? result?.counts ?? {}
  const rowsDone = progress?.rows_done ?? result?.parsed_rows ?? 0
  return {
    job_id: row.id,
    status: row.status,
    rows_done: rowsDone,
    rows_total: progress?.rows_total ?? result?.parsed_rows ?? null,
    ...outcomeTotals(counts),
    refused_rows: progress?.refused_rows ?? result?.rejected_rows ?? 0,
    refused: progress?.refused ?? result?.refused ?? [],
    error: row.error,
    started_at: row.startedAt?.toISOString() ?? null,
    finished_at: row.finishedAt?.toISOString() ?? null,
  }
}

export function createLedgerNormalizations(store: Pick<LedgerStore, 'latestNormalizations'>): LedgerNormalizations {
  return {
    async latestOf(executor, tenantId, artifactIds) {
      const jobs = await store.latestNormalizations(executor, tenantId, artifactIds)
      return new Map([...jobs].map(([artifactId, row]) => [artifactId, normalizationStatusOf(row)]))
    },
  }
}
