/**
 * What the Ledger needs from other modules; composition plugs the implementations in. The Ledger reads
 * Raw's artifacts and parsed rows through Raw's records port, never Raw's tables.
 */
import type { Executor } from '../../platform/db/database.ts'

/** A stored artifact, as far as normalization cares. */
export interface ArtifactRow {
  readonly id: string
  readonly tenantId: string
  readonly status: 'stored' | 'tombstoned'
  readonly parser: string | null
  readonly parserVersion: string | null
}

/** A parsed row (its `extracted` record is Raw's parsed-row contract, checked by the Ledger). */
export interface ParsedRowRecord {
  readonly id: string
  readonly tenantId: string
  readonly rawArtifactId: string
  readonly parser: string
  readonly parserVersion: string
  readonly rowIndex: number
  readonly extracted: unknown
  readonly confidence: number
}

/** Raw's records, read by the Ledger (normalization and POST /v1/ledger/normalize). */
export interface RawRecords {
  findArtifact(executor: Executor, tenantId: string, artifactId: string): Promise<ArtifactRow | undefined>
  /** An artifact's rows of one parser version after `afterRowIndex`, in row order, at most `limit`. */
  parsedRows(executor: Executor, tenantId: string, artifactId: string, parser: string, parserVersion: string, afterRowIndex: number, limit: number): Promise<ParsedRowRecord[]>
  /** How many rows of one parser version the artifact has (a normalization's total). */
  countParsedRows(executor: Executor, tenantId: string, artifactId: string, parser: string, parserVersion: string): Promise<number>
  /** The records of rows before `beforeRowIndex` dated `day` (transaction_date, or a timestamp's date), in row order. */
  parsedRecordsOfDay(executor: Executor, tenantId: string, artifactId: string, parser: string, parserVersion: string, day: string, beforeRowIndex: number): Promise<unknown[]>
  findParsedRow(executor: Executor, tenantId: string, parsedRowId: string): Promise<ParsedRowRecord | undefined>
  /** The `extracted` records of these parsed rows (the tenant's that exist), in no particular order. */
  parsedRecords(executor: Executor, tenantId: string, parsedRowIds: readonly string[]): Promise<Array<{ id: string; extracted: unknown }>>
}
