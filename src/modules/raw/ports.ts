/**
 * What the Raw module needs from other modules; composition plugs the implementations in.
 */
import type { Executor, Tx } from '../../platform/db/database.ts'

/**
 * Whether a contributor's artifacts are held from the Ledger: an agent under a contribution hold (the
 * agents module). Read in extraction's transaction.
 */
export interface ContributionHolds {
  isHeld(executor: Executor, tenantId: string, contributor: string): Promise<boolean>
}

/** The Ledger's intake: an extracted artifact is handed over for normalization, in Raw's transaction. */
export interface LedgerIntake {
  requestNormalization(tx: Tx, request: { tenantId: string; artifactId: string; createdBy: string }): Promise<string>
  /** After the commit: wake the normalization workers. */
  nudge(): void
}

/** How the Ledger's normalization of an artifact goes, as an artifact view shows it (the Ledger's word). */
export interface NormalizationStatus {
  readonly job_id: string
  readonly status: 'queued' | 'running' | 'succeeded' | 'failed'
  readonly rows_done: number
  readonly rows_total: number | null
  readonly created: number
  readonly unchanged: number
  readonly superseded: number
  readonly refused_rows: number
  readonly refused: ReadonlyArray<{ readonly row_index: number; readonly parsed_row_id: string; readonly reason: string }>
  readonly error: string | null
  readonly started_at: string | null
  readonly finished_at: string | null
}

/** The Ledger's normalization reads: the latest normalization of each artifact that has one. */
export interface LedgerNormalizations {
  latestOf(executor: Executor, tenantId: string, artifactIds: readonly string[]): Promise<ReadonlyMap<string, NormalizationStatus>>
}

/** Whether another module still needs bytes Raw stored (an audit export shares the blob store). */
export interface BlobReferences {
  isReferenced(executor: Executor, tenantId: string, sha256: string): Promise<boolean>
}

/** Whether a tenant exists (the tenants module's directory). */
export interface RawTenants {
  tenantExists(executor: Executor, tenantId: string): Promise<boolean>
}
