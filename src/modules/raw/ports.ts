/**
 * What the Raw module needs from other modules; composition plugs the implementations in.
 */
import type { Executor, Tx } from '../../platform/db/database.ts'

/** The Ledger's intake: an extracted artifact is handed over for normalization, in Raw's transaction. */
export interface LedgerIntake {
  requestNormalization(tx: Tx, request: { tenantId: string; artifactId: string; createdBy: string }): Promise<string>
  /** After the commit: wake the normalization workers. */
  nudge(): void
}

/** Whether another module still needs bytes Raw stored (an audit export shares the blob store). */
export interface BlobReferences {
  isReferenced(executor: Executor, tenantId: string, sha256: string): Promise<boolean>
}

/** Whether a tenant exists (the tenants module's directory). */
export interface RawTenants {
  tenantExists(executor: Executor, tenantId: string): Promise<boolean>
}
