/**
 * Ledger test helpers: artifacts with parsed rows written straight to the database (so Ledger tests do
 * not depend on a parser), and the normalizer run in-process. The end-to-end tests in
 * raw-ledger-pipeline.test.ts go through ingest and the real parsers instead.
 */
import { createHash, randomBytes } from 'node:crypto'
import { rawArtifacts, rawParsedRows } from '../../src/modules/raw/raw.tables.ts'
import { deterministicId } from '../../src/kernel/ids.ts'
import type { ExtractedRecord } from '../../src/modules/raw/domain/extracted.ts'
import { expect } from 'vitest'
import type { TestApp } from './harness.ts'

export interface SeededArtifact {
  readonly artifactId: string
  /** Parsed row ids, in record order. */
  readonly rowIds: string[]
}

/** An artifact (as if ingested and extracted) whose parsed rows are `records`. */
export async function seedArtifact(
  test: TestApp,
  tenantId: string,
  records: readonly ExtractedRecord[],
  options: { parser?: string; parserVersion?: string; sourceType?: 'csv_upload' | 'pdf_upload' | 'bank_provider' | 'chain_indexer_wallet' | 'erp_provider'; confidence?: number } = {},
): Promise<SeededArtifact> {
  const parser = options.parser ?? 'test_records'
  const parserVersion = options.parserVersion ?? '1.0.0'
  const sha256 = createHash('sha256').update(randomBytes(16)).digest('hex')
  const artifactId = deterministicId('rawArtifact', tenantId, sha256)
  const at = test.runtime.clock.now()
  await test.runtime.db.orm.insert(rawArtifacts).values({
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
    parser,
    parserVersion,
    extractedAt: at,
    createdBy: 'test',
    ingestedAt: at,
    tombstonedAt: null,
    bytesPurgedAt: null,
  })
  const rows = records.map((record, rowIndex) => ({
    id: deterministicId('parsedRow', artifactId, parser, parserVersion, String(rowIndex)),
    tenantId,
    rawArtifactId: artifactId,
    parser,
    parserVersion,
    rowIndex,
    extracted: record,
    confidence: options.confidence ?? 0.95,
    extractedAt: at,
  }))
  if (rows.length > 0) await test.runtime.db.orm.insert(rawParsedRows).values(rows)
  return { artifactId, rowIds: rows.map((row) => row.id) }
}

export const normalizerActor = { type: 'system', id: 'test' } as const

export async function normalize(test: TestApp, tenantId: string, artifactId: string) {
  return test.runtime.ledger.normalizer.normalizeArtifact(tenantId, artifactId, { actor: normalizerActor })
}

/** A bank transaction record with sensible defaults. */
export function bankTransaction(overrides: Partial<Extract<ExtractedRecord, { kind: 'transaction' }>> & { amount: string; transaction_date: string; description: string }) {
  return {
    kind: 'transaction',
    account: { iban: 'DE89370400440532013000', name: 'Operating account', currency: 'EUR' },
    currency: 'EUR',
    status: 'posted',
    ...overrides,
  } as const satisfies ExtractedRecord
}

/** GET with a bearer token, expecting 200; the parsed body. */
export async function getOk(test: TestApp, token: string, url: string) {
  const response = await test.request({ method: 'GET', url, token })
  expect(response.statusCode, response.body).toBe(200)
  return response.json()
}
