/**
 * Bulk inserts (src/platform/db/bulk.ts): `copyMany` writes exactly what `insertMany` writes. On PostgreSQL it
 * COPYs inside the caller's transaction; on PGlite it is `insertMany`. Rows whose text holds every
 * character COPY's text format escapes (and the ones array literals quote) are written both ways and
 * read back: the two must be equal field by field, and equal to what was given.
 */
import { randomUUID } from 'node:crypto'
import { asc, eq } from 'drizzle-orm'
import fc from 'fast-check'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { copyMany, copyText, insertMany } from '../../src/platform/db/bulk.ts'
import { ledgerTransactions } from '../../src/modules/ledger/ledger.tables.ts'
import { events } from '../../src/platform/outbox/outbox.tables.ts'
import { createTestApp, engineName, type TestApp } from '../support/harness.ts'

let test: TestApp
beforeAll(async () => {
  test = await createTestApp()
})
afterAll(async () => test?.close())

type TransactionInsert = typeof ledgerTransactions.$inferInsert

/** Text with the characters that need care: COPY's escapes, array-literal quoting, JSON escapes, non-ASCII. */
const trickyText = fc.string({
  unit: fc.constantFrom('a', 'Z', '7', ' ', '\t', '\n', '\r', '\\', '"', "'", ',', '{', '}', '(', ')', 'N', '\\N', 'NULL', 'é', '€', '😀', '\u2028'),
  maxLength: 24,
})
// PostgreSQL text cannot hold NUL; JSON round-tripped so -0 and the like compare as stored.
const jsonValue = fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.parse(JSON.stringify(value).replace(/\\u0000/g, "")) as unknown)

const transactionRow = (tenantId: string, index: number) =>
  fc.record({
    sourceIds: fc.array(trickyText, { maxLength: 4 }),
    evidenceIds: fc.array(trickyText, { maxLength: 4 }),
    metadata: fc.dictionary(trickyText, jsonValue, { maxKeys: 3 }),
    description: trickyText,
    descriptionNormalized: trickyText,
    externalTransactionId: fc.option(trickyText, { nil: null }),
    amount: fc.integer({ min: -10_000_000, max: 10_000_000 }).map((cents) => (cents / 100).toFixed(2)),
    confidence: fc.double({ min: 0, max: 1, noNaN: true }),
    supersededAt: fc.option(fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }), { nil: null }),
  }).map(
    (random): TransactionInsert => ({
      versionId: `ver_${tenantId}_${index}`,
      id: `txn_${index}`,
      tenantId,
      version: 1 + (index % 3),
      supersedes: null,
      provenance: 'extracted',
      createdAt: new Date('2024-03-01T10:20:30.123Z'),
      updatedAt: new Date('2024-03-01T10:20:30.123Z'),
      accountId: 'acc_1',
      currency: 'USD',
      direction: 'outflow',
      transactionDate: '2024-02-29',
      postedDate: index % 2 === 0 ? null : '2024-03-01',
      counterpartyId: null,
      categoryId: 'cat_tab\there',
      status: 'posted',
      reconciliationStatus: 'unmatched',
      ...random,
    }),
  )

async function writeAndRead(write: typeof copyMany, rows: readonly TransactionInsert[]) {
  const tenantId = rows[0]!.tenantId
  const written = await test.runtime.db.orm.transaction((tx) => write(tx, ledgerTransactions, rows))
  const read = await test.runtime.db.orm
    .select()
    .from(ledgerTransactions)
    .where(eq(ledgerTransactions.tenantId, tenantId))
    .orderBy(asc(ledgerTransactions.version), asc(ledgerTransactions.id))
  return { written, read: read.map(({ tenantId: _tenant, versionId: _version, ...rest }) => rest) }
}

describe('copyMany', () => {
  it('writes what insertMany writes, field by field, for text that COPY and array literals must escape', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 12 }).chain((count) => {
          const copied = randomUUID()
          const inserted = randomUUID()
          return fc.tuple(...Array.from({ length: count }, (_, index) => transactionRow(copied, index))).map((rows) => ({
            copied: rows,
            inserted: rows.map((row) => ({ ...row, tenantId: inserted, versionId: row.versionId.replace(copied, inserted) })),
          }))
        }),
        async ({ copied, inserted }) => {
          const byCopy = await writeAndRead(copyMany, copied)
          const byInsert = await writeAndRead(insertMany, inserted)
          expect(byCopy.written).toBe(copied.length)
          expect(byCopy.read).toEqual(byInsert.read)
          // And both are what was given (numerics and timestamps in the forms PostgreSQL returns them).
          const given = [...copied].sort((a, b) => a.version! - b.version! || (a.id < b.id ? -1 : 1))
          expect(byCopy.read.map((row) => [row.description, row.sourceIds, row.evidenceIds, row.metadata, row.externalTransactionId, row.supersededAt])).toEqual(
            given.map((row) => [row.description, row.sourceIds, row.evidenceIds, row.metadata, row.externalTransactionId, row.supersededAt]),
          )
        },
      ),
      { numRuns: 40 },
    )
  })

  it(`${engineName() === 'postgres' ? 'COPYs inside the transaction' : 'falls back to one INSERT on PGlite'}, and a failed COPY rolls the transaction back`, async () => {
    const query = vi.spyOn(pg.Client.prototype, 'query')
    const tenantId = randomUUID()
    const row = (id: string) => ({ id, tenantId, eventType: 'ledger.transaction.created', payload: { note: 'tab\there' }, auditEventId: null, createdAt: new Date(), fanoutPending: false })
    try {
      await test.runtime.db.orm.transaction((tx) => copyMany(tx, events, [row('evt_bulk_1'), row('evt_bulk_2')]))
      const copies = query.mock.calls.filter(([submitted]) => /^copy "events"/.test(String((submitted as { text?: unknown }).text)))
      expect(copies).toHaveLength(engineName() === 'postgres' ? 1 : 0)
      // A duplicate id fails the statement, and nothing of the transaction stays.
      await expect(test.runtime.db.orm.transaction((tx) => copyMany(tx, events, [row('evt_bulk_3'), row('evt_bulk_1')]))).rejects.toThrow()
    } finally {
      query.mockRestore()
    }
    const stored = await test.runtime.db.orm.select({ id: events.id, payload: events.payload }).from(events).where(eq(events.tenantId, tenantId)).orderBy(asc(events.id))
    expect(stored).toEqual([
      { id: 'evt_bulk_1', payload: { note: 'tab\there' } },
      { id: 'evt_bulk_2', payload: { note: 'tab\there' } },
    ])
  })
})

describe('copyText', () => {
  it('escapes backslash, newline, carriage return and tab, and nothing else', () => {
    expect(copyText('a\\b\nc\rd\te"f,{g}')).toBe('a\\\\b\\nc\\rd\\te"f,{g}')
    expect(copyText('\\N')).toBe('\\\\N')
    expect(copyText(12.5)).toBe('12.5')
    expect(copyText(true)).toBe('t')
    expect(copyText(Buffer.from([0, 255]))).toBe('\\\\x00ff')
    expect(copyText('tab\tkept', false)).toBe('tab\tkept')
  })
})
