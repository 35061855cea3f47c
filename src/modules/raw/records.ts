/**
 * Raw's records port: what other modules (the Ledger) may read of artifacts and parsed rows. Reads only;
 * every query takes the tenant id.
 */
import { and, asc, count, eq, getTableColumns, gt, inArray, lt, or, sql } from 'drizzle-orm'
import type { Executor } from '../../platform/db/database.ts'
import { rawArtifacts, rawParsedRows } from './raw.tables.ts'

/** An artifact's parsed rows of one parser version (the unique index's leading columns). */
const rowsOfParserVersion = (tenantId: string, artifactId: string, parser: string, parserVersion: string) =>
  and(eq(rawParsedRows.tenantId, tenantId), eq(rawParsedRows.rawArtifactId, artifactId), eq(rawParsedRows.parser, parser), eq(rawParsedRows.parserVersion, parserVersion))

/** The columns of a parsed row others read: not `extracted_at` (a timestamp parsed into a Date per row, and nothing reads it). */
const { extractedAt: _extractedAt, ...parsedRowColumns } = getTableColumns(rawParsedRows)

export type ParsedRow = Omit<typeof rawParsedRows.$inferSelect, 'extractedAt'>

export interface RawRecords {
  findArtifact(executor: Executor, tenantId: string, artifactId: string): Promise<typeof rawArtifacts.$inferSelect | undefined>
  parsedRows(executor: Executor, tenantId: string, artifactId: string, parser: string, parserVersion: string, afterRowIndex: number, limit: number): Promise<ParsedRow[]>
  countParsedRows(executor: Executor, tenantId: string, artifactId: string, parser: string, parserVersion: string): Promise<number>
  parsedRecordsOfDay(executor: Executor, tenantId: string, artifactId: string, parser: string, parserVersion: string, day: string, beforeRowIndex: number): Promise<unknown[]>
  findParsedRow(executor: Executor, tenantId: string, parsedRowId: string): Promise<ParsedRow | undefined>
  /** The `extracted` records of these parsed rows (those of the tenant that exist), in no particular order. */
  parsedRecords(executor: Executor, tenantId: string, parsedRowIds: readonly string[]): Promise<Array<{ id: string; extracted: unknown }>>
  /**
   * These parsed rows as evidence a payment cites (those of the tenant that exist): the Raw artifact each
   * was read from, the parser that read it and how confident its extraction was.
   */
  parsedRowEvidence(executor: Executor, tenantId: string, parsedRowIds: readonly string[]): Promise<ParsedRowEvidence[]>
}

/** A parsed row as evidence: its id, its artifact, its parser and its extraction confidence. */
export interface ParsedRowEvidence {
  readonly id: string
  readonly rawArtifactId: string
  readonly parser: string
  readonly confidence: number
}

export function createRawRecords(): RawRecords {
  return {
    async findArtifact(executor, tenantId, artifactId) {
      const [row] = await executor
        .select()
        .from(rawArtifacts)
        .where(and(eq(rawArtifacts.tenantId, tenantId), eq(rawArtifacts.id, artifactId)))
        .limit(1)
      return row
    },
    async parsedRows(executor, tenantId, artifactId, parser, parserVersion, afterRowIndex, limit) {
      return executor
        .select(parsedRowColumns)
        .from(rawParsedRows)
        .where(and(rowsOfParserVersion(tenantId, artifactId, parser, parserVersion), gt(rawParsedRows.rowIndex, afterRowIndex)))
        .orderBy(asc(rawParsedRows.rowIndex))
        .limit(limit)
    },
    async countParsedRows(executor, tenantId, artifactId, parser, parserVersion) {
      // An index-only count over the unique index's leading columns.
      const [row] = await executor.select({ total: count() }).from(rawParsedRows).where(rowsOfParserVersion(tenantId, artifactId, parser, parserVersion))
      return Number(row?.total ?? 0)
    },
    async parsedRecordsOfDay(executor, tenantId, artifactId, parser, parserVersion, day, beforeRowIndex) {
      const rows = await executor
        .select({ extracted: rawParsedRows.extracted })
        .from(rawParsedRows)
        .where(
          and(
            rowsOfParserVersion(tenantId, artifactId, parser, parserVersion),
            lt(rawParsedRows.rowIndex, beforeRowIndex),
            or(sql`${rawParsedRows.extracted}->>'transaction_date' = ${day}`, sql`left(${rawParsedRows.extracted}->>'timestamp', 10) = ${day}`),
          ),
        )
        .orderBy(asc(rawParsedRows.rowIndex))
      return rows.map((row) => row.extracted)
    },
    async findParsedRow(executor, tenantId, parsedRowId) {
      const [row] = await executor
        .select(parsedRowColumns)
        .from(rawParsedRows)
        .where(and(eq(rawParsedRows.tenantId, tenantId), eq(rawParsedRows.id, parsedRowId)))
        .limit(1)
      return row
    },
    async parsedRecords(executor, tenantId, parsedRowIds) {
      if (parsedRowIds.length === 0) return []
      return executor
        .select({ id: rawParsedRows.id, extracted: rawParsedRows.extracted })
        .from(rawParsedRows)
        .where(and(eq(rawParsedRows.tenantId, tenantId), inArray(rawParsedRows.id, [...parsedRowIds])))
    },
    async parsedRowEvidence(executor, tenantId, parsedRowIds) {
      if (parsedRowIds.length === 0) return []
      return executor
        .select({ id: rawParsedRows.id, rawArtifactId: rawParsedRows.rawArtifactId, parser: rawParsedRows.parser, confidence: rawParsedRows.confidence })
        .from(rawParsedRows)
        .where(and(eq(rawParsedRows.tenantId, tenantId), inArray(rawParsedRows.id, [...parsedRowIds])))
    },
  }
}
