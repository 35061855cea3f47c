/**
 * What the Raw module needs from other modules; composition plugs the implementations in.
 */
import type { Tx } from '../../platform/db/database.ts'

/** The Ledger's intake: an extracted artifact is handed over for normalization, in Raw's transaction. */
export interface LedgerIntake {
  requestNormalization(tx: Tx, request: { tenantId: string; artifactId: string; createdBy: string }): Promise<string>
  /** After the commit: wake the normalization workers. */
  nudge(): void
}
