/**
 * Ledger test helpers: artifacts with parsed rows written straight to the database (so Ledger tests do
 * not depend on a parser), and the normalizer run in-process. The end-to-end tests in
 * raw-ledger-pipeline.test.ts go through ingest and the real parsers instead.
 */
import { seedParsedArtifact, type SeededArtifact } from '../../src/modules/raw/raw.testing.ts'
import { deterministicId } from '../../src/kernel/ids.ts'
import type { ExtractedRecord } from '../../src/modules/raw/domain/extracted.ts'
import { sql } from 'drizzle-orm'
import { expect } from 'vitest'
import { queryRows } from '../../src/platform/db/database.ts'
import type { TestApp } from './harness.ts'

export type { SeededArtifact }

/** An artifact (as if ingested and extracted) whose parsed rows are `records` (Raw's own test support writes it). */
export async function seedArtifact(
  test: TestApp,
  tenantId: string,
  records: readonly ExtractedRecord[],
  options: { parser?: string; parserVersion?: string; sourceType?: 'csv_upload' | 'pdf_upload' | 'bank_provider' | 'chain_indexer_wallet' | 'erp_provider'; confidence?: number } = {},
): Promise<SeededArtifact> {
  return seedParsedArtifact(test.runtime.db, { tenantId, records, at: test.runtime.clock.now(), ...options })
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

/**
 * Waits until the tenant has nothing left to extract, normalize or reconcile: no artifact pending or
 * running extraction, no Ledger job queued or running. Throws after `timeoutMs`, saying what was pending.
 */
export async function settledPipeline(test: TestApp, tenantId: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const [pending] = await queryRows<{ artifacts: number; jobs: number }>(
      test.runtime.db.orm,
      sql`select (select count(*)::int from raw_artifacts where tenant_id = ${tenantId} and extraction_status in ('pending', 'running')) as artifacts,
                 (select count(*)::int from ledger_jobs where tenant_id = ${tenantId} and status in ('queued', 'running')) as jobs`,
    )
    if (pending!.artifacts + pending!.jobs === 0) return
    if (Date.now() > deadline) throw new Error(`the pipeline did not settle: ${JSON.stringify(pending)}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
