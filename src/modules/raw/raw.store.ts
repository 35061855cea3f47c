/**
 * What the Raw services need from storage. Every artifact and parsed-row method takes the tenant id and
 * filters by it: another tenant's artifact is, to the caller, one that does not exist. The two
 * exceptions say so: the retention sweep lists due artifacts of every tenant, and a provider webhook
 * finds its connection by (provider, account) before it knows the tenant.
 */
import type { Executor, Tx } from '../../platform/db/database.ts'
import type { providerConnections, rawArtifacts, rawParsedRows } from './raw.tables.ts'

export type ArtifactRow = typeof rawArtifacts.$inferSelect
export type ParsedRowRow = typeof rawParsedRows.$inferSelect
export type ConnectionRow = typeof providerConnections.$inferSelect

export type ArtifactChanges = Partial<
  Pick<
    ArtifactRow,
    'status' | 'extractionStatus' | 'extractionError' | 'parsedRows' | 'extractionFailedRow' | 'parser' | 'parserVersion' | 'extractedAt' | 'tombstonedAt' | 'bytesPurgedAt' | 'heldForAgentId'
  >
>
export type ConnectionChanges = Partial<Pick<ConnectionRow, 'status' | 'secret' | 'updatedAt'>>

export interface ParsedRowPosition {
  readonly parser: string
  readonly parserVersion: string
  readonly rowIndex: number
}

/** GET /v1/raw's filters and position: stored artifacts, newest first (ingested_at, then id, descending). */
export interface ArtifactListing {
  readonly sourceType?: ArtifactRow['sourceType'] | undefined
  readonly extractionStatus?: ArtifactRow['extractionStatus'] | undefined
  /** Ingested at or after. */
  readonly since?: Date | undefined
  /** Ingested before. */
  readonly until?: Date | undefined
  /** Position after which the page starts. */
  readonly before?: { ingestedAt: Date; id: string } | undefined
  readonly limit: number
}

export interface RawStore {
  /**
   * Serializes, until the transaction ends, everything that puts, keeps or deletes one tenant's bytes of
   * one SHA-256: recording an artifact, purging tombstoned bytes, discarding an unused upload.
   */
  lockContent(tx: Tx, tenantId: string, sha256: string): Promise<void>
  findArtifact(executor: Executor, tenantId: string, rawId: string, options?: { forUpdate?: boolean }): Promise<ArtifactRow | undefined>
  findArtifactBySha256(executor: Executor, tenantId: string, sha256: string, options?: { forUpdate?: boolean }): Promise<ArtifactRow | undefined>
  /** Inserts the artifact unless one with the same (tenant, sha256) exists; true if inserted. */
  insertArtifact(tx: Tx, artifact: ArtifactRow): Promise<boolean>
  updateArtifact(executor: Executor, tenantId: string, rawId: string, changes: ArtifactChanges): Promise<void>
  /** Locks and answers the ids of the artifacts a contribution hold keeps for `agentId`, oldest first, at most `limit`. */
  lockHeldArtifacts(tx: Tx, tenantId: string, agentId: string, limit: number): Promise<string[]>
  /** The tenant's stored (not tombstoned) artifacts, filtered, newest first. */
  listArtifacts(executor: Executor, tenantId: string, listing: ArtifactListing): Promise<ArtifactRow[]>
  /** Tombstoned artifacts of any tenant whose bytes are still stored and were tombstoned at or before `cutoff`. */
  listPurgeDue(executor: Executor, cutoff: Date, limit: number): Promise<Array<Pick<ArtifactRow, 'id' | 'tenantId' | 'sha256'>>>

  /** Whether the artifact has parsed rows of this parser version. */
  hasParsedRows(executor: Executor, tenantId: string, rawId: string, parser: string, parserVersion: string): Promise<boolean>
  /**
   * Multi-row insert; returns how many were inserted. With `skipExisting`, rows that exist (same artifact,
   * parser, version, row index) are skipped; without, such a row is an error (and the insert is cheaper:
   * PostgreSQL does not probe the unique indexes before every row).
   */
  insertParsedRows(tx: Tx, rows: readonly ParsedRowRow[], options: { skipExisting: boolean }): Promise<number>
  listParsedRows(
    executor: Executor,
    tenantId: string,
    rawId: string,
    query: { parser?: string | undefined; parserVersion?: string | undefined; after?: ParsedRowPosition | undefined; limit: number },
  ): Promise<ParsedRowRow[]>
  countParsedRows(executor: Executor, tenantId: string, rawId: string): Promise<number>

  /** The Ledger's job row for a normalization of the artifact (the Ledger owns what happens next). */

  /** By (provider, account): the webhook route's lookup, before the tenant is known. */
  findConnectionByAccount(executor: Executor, provider: ConnectionRow['provider'], accountRef: string, options?: { forUpdate?: boolean }): Promise<ConnectionRow | undefined>
  listConnections(executor: Executor, tenantId: string): Promise<ConnectionRow[]>
  insertConnection(tx: Tx, connection: ConnectionRow): Promise<void>
  updateConnection(tx: Tx, tenantId: string, connectionId: string, changes: ConnectionChanges): Promise<void>
}
