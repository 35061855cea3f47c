/**
 * Test support owned by the Raw module, for other modules' tests: an artifact with parsed rows written
 * as if it had been ingested and extracted, so a Ledger test need not depend on a parser and no test
 * writes Raw's tables itself. Not part of the service (excluded from the build and the import rules).
 */
import { createHash, randomBytes } from 'node:crypto'
import type { ExtractedRecord } from './domain/extracted.ts'
import { deterministicId } from '../../kernel/ids.ts'
import type { Database } from '../../platform/db/database.ts'
import { rawArtifacts, rawParsedRows } from './raw.tables.ts'

export interface SeededArtifact {
  readonly artifactId: string
  /** Parsed row ids, in record order. */
  readonly rowIds: string[]
}

/** Rows per INSERT: 9 columns keep 5,000 rows under PostgreSQL's 65,535 bind parameters. */
const seedChunkRows = 5_000

export async function seedParsedArtifact(
  db: Database,
  options: {
    tenantId: string
    records: readonly ExtractedRecord[]
    at: Date
    parser?: string
    parserVersion?: string
    sourceType?: 'csv_upload' | 'pdf_upload' | 'bank_provider' | 'chain_indexer_wallet' | 'erp_provider'
    confidence?: number
    /** Per record, instead of one `confidence` for all (a copy of real parsed rows keeps theirs). */
    confidences?: readonly number[]
  },
): Promise<SeededArtifact> {
  const { tenantId, at } = options
  const parser = options.parser ?? 'test_records'
  const parserVersion = options.parserVersion ?? '1.0.0'
  const sha256 = createHash('sha256').update(randomBytes(16)).digest('hex')
  const artifactId = deterministicId('rawArtifact', tenantId, sha256)
  await db.orm.insert(rawArtifacts).values({
    id: artifactId,
    tenantId,
    sha256,
    bytes: 100,
    mimeType: 'text/csv',
    sourceType: options.sourceType ?? 'csv_upload',
    sourceRef: {},
    filename: 'statement.csv',
    parentArtifactId: null,
    status: 'stored',
    extractionStatus: 'succeeded',
    extractionError: null,
    parsedRows: options.records.length,
    parser,
    parserVersion,
    extractedAt: at,
    createdBy: 'test',
    ingestedAt: at,
    tombstonedAt: null,
    bytesPurgedAt: null,
    heldForAgentId: null,
  })
  const rows = options.records.map((record, rowIndex) => ({
    id: deterministicId('parsedRow', artifactId, parser, parserVersion, String(rowIndex)),
    tenantId,
    rawArtifactId: artifactId,
    parser,
    parserVersion,
    rowIndex,
    extracted: record,
    confidence: options.confidences?.[rowIndex] ?? options.confidence ?? 0.95,
    extractedAt: at,
  }))
  for (let offset = 0; offset < rows.length; offset += seedChunkRows) await db.orm.insert(rawParsedRows).values(rows.slice(offset, offset + seedChunkRows))
  return { artifactId, rowIds: rows.map((row) => row.id) }
}
