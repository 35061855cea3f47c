/**
 * The demo business's Ledger does not depend on the order its files are normalized in (issue 15, item
 * 4): on PostgreSQL with a separate worker, January's checking statement was normalized before the
 * savings account existed and its reserve transfer stayed an `outflow`. Here the demo is loaded through
 * the real pipeline (the default order), then the same parsed rows are copied into a second tenant and
 * normalized there file by file in the reverse order, with a reconciliation run after each file as the
 * pipeline queues one: every file then arrives before the accounts it names (checking before savings,
 * the card processor before checking). Both Ledgers must be the same, and the figures of
 * sandbox/demo/README.md. Runs on both engines.
 */
import { sql } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../../src/platform/db/database.ts'
import { seedParsedArtifact } from '../../src/modules/raw/raw.testing.ts'
import type { ExtractedRecord } from '../../src/modules/raw/domain/extracted.ts'
import { loadDemoBusiness } from '../../src/main/sandbox/demo-business.ts'
import { createTestApp, signupOwner, type TestApp } from '../support/harness.ts'
import { normalizerActor, settledPipeline } from '../support/ledger.ts'

let test: TestApp
let defaultOrder: string
let reverseOrder: string

const settled = (tenantId: string) => settledPipeline(test, tenantId, 120_000)

/**
 * Copies every artifact's parsed rows (the real parsers' output) from one tenant into another, as
 * artifacts of their own, and returns the copies in ingest order.
 */
async function copyParsedRows(from: string, to: string): Promise<string[]> {
  const artifacts = await queryRows<{ id: string; parser: string; parser_version: string }>(
    test.runtime.db.orm,
    sql`select id, parser, parser_version from raw_artifacts where tenant_id = ${from} and extraction_status = 'succeeded' order by ingested_at, id`,
  )
  const copies: string[] = []
  for (const artifact of artifacts) {
    const rows = await queryRows<{ extracted: ExtractedRecord; confidence: number }>(
      test.runtime.db.orm,
      sql`select extracted, confidence from raw_parsed_rows
          where tenant_id = ${from} and raw_artifact_id = ${artifact.id} and parser = ${artifact.parser} and parser_version = ${artifact.parser_version}
          order by row_index`,
    )
    if (rows.length === 0) continue
    const { artifactId } = await seedParsedArtifact(test.runtime.db, {
      tenantId: to,
      records: rows.map((row) => row.extracted),
      confidences: rows.map((row) => row.confidence),
      parser: artifact.parser,
      parserVersion: artifact.parser_version,
      at: test.runtime.clock.now(),
    })
    copies.push(artifactId)
  }
  return copies
}

/** An account as a reader names it, without ids (which may be derived from another first key). */
const accountLabel = sql`coalesce(a.iban, a.wallet_address, a.name)`

interface TransactionLine {
  readonly account_type: string
  readonly account: string
  readonly transaction_date: string
  readonly amount: string
  readonly direction: string
}

/** The tenant's Ledger, without ids and system times: what a user reads, in a stable order. */
async function ledgerOf(tenantId: string) {
  const orm = test.runtime.db.orm
  const rows = <T extends object = Record<string, unknown>>(query: ReturnType<typeof sql>) => queryRows<T>(orm, query)
  return {
    accounts: await rows(sql`select a.account_type, a.iban, a.wallet_address, a.name, a.currency from ledger_accounts a
                            where a.tenant_id = ${tenantId} and a.superseded_at is null order by 1, 2, 3, 4`),
    transactions: await rows<TransactionLine>(sql`select a.account_type, ${accountLabel} as account, t.transaction_date, t.amount, t.currency, t.direction, t.status,
                                        t.reconciliation_status, t.description
                                 from ledger_transactions t join ledger_accounts a on a.id = t.account_id and a.superseded_at is null
                                 where t.tenant_id = ${tenantId} and t.superseded_at is null order by 1, 2, 3, 4, 5, 6, 7, 8, 9`),
    balances: await rows(sql`select a.account_type, ${accountLabel} as account, b.balance_type, b.as_of, b.amount
                             from ledger_balances b join ledger_accounts a on a.id = b.account_id and a.superseded_at is null
                             where b.tenant_id = ${tenantId} and b.superseded_at is null order by 1, 2, 3, 4, 5`),
    invoices: await rows(sql`select direction, invoice_number, total, amount_paid, status from ledger_invoices
                             where tenant_id = ${tenantId} and superseded_at is null order by 1, 2`),
    obligations: await rows(sql`select obligation_type, reference, amount, status, metadata->>'outstanding' as outstanding from ledger_obligations
                                where tenant_id = ${tenantId} and superseded_at is null order by 1, 2, 3`),
    matches: await rows(sql`select match_type, status, amount, difference, cardinality(subject_refs) as subjects from ledger_reconciliation_matches
                            where tenant_id = ${tenantId} and superseded_at is null order by 1, 2, 3, 4`),
  }
}

/** Counts per key. */
function tally<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1
  return counts
}

beforeAll(async () => {
  test = await createTestApp({ workers: true })
  const loaded = await loadDemoBusiness(test.runtime, test.app, pino({ level: 'silent' }))
  defaultOrder = loaded!.credentials.tenant_id
  await settled(defaultOrder)

  reverseOrder = (await signupOwner(test)).tenantId
  const copies = await copyParsedRows(defaultOrder, reverseOrder)
  // 12 artifacts; the e-mail's record is its PDF attachment, a child artifact of its own.
  expect(copies).toHaveLength(11)
  for (const artifactId of [...copies].reverse()) {
    await test.runtime.ledger.normalizer.normalizeArtifact(reverseOrder, artifactId, { actor: normalizerActor })
    await test.runtime.ledger.reconcile(reverseOrder, { actor: normalizerActor })
  }
}, 300_000)
afterAll(async () => test?.close())

describe('the demo business normalized in another order', () => {
  it('gives the same Ledger: accounts, every transaction with its direction and reconciliation status, balances, invoices, obligations, matches', async () => {
    const expected = await ledgerOf(defaultOrder)
    const actual = await ledgerOf(reverseOrder)
    expect(actual.accounts).toEqual(expected.accounts)
    const byDirection = (row: TransactionLine) => `${row.account_type}:${row.direction}`
    expect(tally(actual.transactions, byDirection)).toEqual(tally(expected.transactions, byDirection))
    expect(actual.transactions).toEqual(expected.transactions)
    expect(actual.balances).toEqual(expected.balances)
    expect(actual.invoices).toEqual(expected.invoices)
    expect(actual.obligations).toEqual(expected.obligations)
    expect(actual.matches).toEqual(expected.matches)
  })

  it('has, in both orders, the directions sandbox/demo/README.md promises: 3 reserve transfers on checking, 13 payouts on the processor', async () => {
    for (const tenantId of [defaultOrder, reverseOrder]) {
      const { transactions } = await ledgerOf(tenantId)
      const directions = tally(transactions, (row) => `${row.account_type}:${row.direction}`)
      expect(directions['bank_checking:transfer'], tenantId).toBe(3)
      expect(directions['payment_processor:transfer'], tenantId).toBe(13)
      const reserve = transactions.filter((row) => row.account_type === 'bank_checking' && row.direction === 'transfer')
      expect(reserve.map((row) => `${row.transaction_date} ${row.amount}`).sort()).toEqual(['2026-01-15 -10000.00', '2026-02-16 -2500.00', '2026-03-16 -2500.00'])
      expect(transactions).toHaveLength(791)
    }
  })
})
