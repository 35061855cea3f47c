/**
 * Normalization across batch boundaries (src/modules/ledger/normalize/normalizer.ts). Batches of three rows make
 * every cross-row rule (pending → posted, identical rows, a counterparty or account seen again, an
 * obligation naming an invoice) span batches. On PostgreSQL a run is pipelined — the next batch reads
 * while the previous one's writes are still uncommitted, from what the previous batch carries — and
 * must give exactly what the same batches give one after another; on PGlite both run one after another.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAuditRecorder } from '../../../src/modules/audit/audit.recorder.ts'
import { queryRows, type Database } from '../../../src/platform/db/database.ts'
import { createIdSource } from '../../../src/kernel/ids.ts'
import { createNormalizer, type NormalizerDeps } from '../../../src/modules/ledger/normalize/normalizer.ts'
import type { ExtractedRecord } from '../../../src/modules/raw/domain/extracted.ts'
import { createEventRecorder } from '../../../src/platform/outbox/events.ts'
import { auditEvents } from '../../support/audit-log.ts'
import { createTestApp, signupOwner, type TestApp } from '../../support/harness.ts'
import { bankTransaction, normalizerActor, seedArtifact } from '../../support/ledger.ts'
import { createWebhookSubscriber } from '../../../src/modules/webhooks/index.ts'

let test: TestApp
beforeAll(async () => {
  test = await createTestApp()
})
afterAll(async () => test?.close())

/** An audit recorder over the test runtime's clock. */
const auditRecorder = () => createAuditRecorder({ ids: createIdSource(() => test.runtime.clock.now().getTime()), clock: test.runtime.clock })

/** A normalizer over the test runtime with three-row batches; `db` may be wrapped to observe it. */
function normalizerWith(options: Partial<NormalizerDeps> = {}) {
  const { runtime } = test
  return createNormalizer({
    db: runtime.db,
    store: runtime.ledger.store,
    clock: runtime.clock,
    audit: auditRecorder(),
    events: createEventRecorder({ db: runtime.db, ids: createIdSource(() => runtime.clock.now().getTime()), clock: runtime.clock, subscriber: createWebhookSubscriber({ jobs: runtime.jobs }) }),
    batchRows: 3,
    ...options,
  })
}

/** The database, with a count of the dedicated connections taken (pipelined runs). */
function observedDatabase(): { db: Database; dedicated: () => number } {
  const { db } = test.runtime
  let taken = 0
  const dedicatedConnection = db.dedicatedConnection
  return {
    db:
      dedicatedConnection === undefined
        ? db
        : {
            ...db,
            dedicatedConnection: (work) => {
              taken += 1
              return dedicatedConnection(work)
            },
          },
    dedicated: () => taken,
  }
}

const account = { iban: 'DE89 3704 0044 0532 0130 00', name: 'Operating account', currency: 'EUR' }
const cafe = bankTransaction({ account, amount: '-3.80', transaction_date: '2026-05-04', description: 'CAFE LUMEN', counterparty: { name: 'Cafe Lumen' } })

/** Twelve rows, four batches of three; the comments say what each row needs from an earlier batch. */
const statement: ExtractedRecord[] = [
  // Batch 1.
  { kind: 'account', account, account_type: 'bank_checking', institution: 'Commerzbank' },
  bankTransaction({ account, amount: '-64.10', transaction_date: '2026-05-01', description: 'PENDING UBER TRIP', status: 'pending', external_transaction_id: 'pend_1' }),
  bankTransaction({ account, amount: '-18.00', transaction_date: '2026-05-02', description: 'PENDING DELI', status: 'pending' }),
  // Batch 2: the two pending transactions post (by the pending id's key, and by account, amount and date).
  bankTransaction({ account, amount: '-64.10', transaction_date: '2026-05-03', description: 'UBER *TRIP', external_transaction_id: 'post_1', pending_transaction_id: 'pend_1' }),
  bankTransaction({ account, amount: '-18.00', transaction_date: '2026-05-04', description: 'DELI ON 5TH', external_transaction_id: 'post_2' }),
  cafe,
  // Batch 3: the same coffee again (a second transaction); the cafe gains a linked account; the account a number.
  { ...cafe, counterparty: { name: 'Cafe Lumen', iban: 'DE02120300000000202051' } },
  bankTransaction({ account, amount: '1200.00', transaction_date: '2026-05-05', description: 'CUSTOMER PAYMENT', counterparty: { name: 'Northwind Traders' } }),
  { kind: 'account', account: { ...account, account_number: '0532013000' }, account_type: 'bank_checking', institution: 'Commerzbank' },
  // Batch 4: an invoice to the counterparty of batch 3, and an obligation naming an invoice of this batch.
  { kind: 'invoice', direction: 'receivable', invoice_number: 'INV-7', issue_date: '2026-05-01', due_date: '2026-05-31', currency: 'EUR', total: '1200', counterparty: { name: 'Northwind Traders' } },
  { kind: 'obligation', obligation_type: 'other', direction: 'receivable', reference: 'collect-INV-7', amount: '1200', currency: 'EUR', invoice_number: 'INV-7', counterparty: { name: 'Northwind Traders' } },
  { kind: 'balance', account, balance_type: 'closing', as_of: '2026-05-31', amount: '2295.92', currency: 'EUR' },
]

/**
 * The tenant's Ledger without what differs between tenants (ids, version ids, times): every version of
 * every entity, in a stable order, each with the version number it holds and whether it is current.
 */
async function ledgerOf(tenantId: string) {
  const versions = async (table: string, fields: string, order = fields) =>
    queryRows<Record<string, unknown>>(
      test.runtime.db.orm,
      sql`select ${sql.raw(fields)}, version, superseded_at is null as current, provenance, confidence, metadata - 'possible_duplicate_of' as metadata,
                 cardinality(evidence_ids) as evidence, cardinality(source_ids) as sources
            from ${sql.raw(table)} where tenant_id = ${tenantId} order by ${sql.raw(order)}, version`,
    )
  return {
    accounts: await versions('ledger_accounts', 'name, iban, account_number_masked'),
    counterparties: await versions('ledger_counterparties', 'name, type, aliases, linked_accounts'),
    transactions: await versions('ledger_transactions', 'transaction_date, amount, description, status, posted_date, external_transaction_id'),
    balances: await versions('ledger_balances', 'as_of, balance_type, amount'),
    invoices: await versions('ledger_invoices', 'invoice_number, total, status'),
    obligations: await versions('ledger_obligations', 'reference, amount, invoice_id is not null as linked', 'reference, amount'),
    keys: (await queryRows<{ kind: string; n: number }>(test.runtime.db.orm, sql`select kind, count(*)::int as n from ledger_entity_keys where tenant_id = ${tenantId} group by kind order by kind`)),
    events: (await queryRows<{ event_type: string; n: number }>(
      test.runtime.db.orm,
      sql`select event_type, count(*)::int as n from events where tenant_id = ${tenantId} and event_type like 'ledger.%' group by event_type order by event_type`,
    )),
    audit: (await auditEvents(test, tenantId, { action: 'ledger.normalized' })).map((event) => event.outputs),
  }
}

describe('normalization in batches', () => {
  it('gives, pipelined, exactly what the same batches give one after another', async () => {
    const sequential = await signupOwner(test)
    const pipelined = await signupOwner(test)
    const observed = observedDatabase()
    // As the job runs them (a job id: batches commit without waiting for their WAL flush).
    const options = { actor: normalizerActor, jobId: 'ljob_batches' }
    const sequentialRun = await normalizerWith({ pipeline: false }).normalizeArtifact(sequential.tenantId, (await seedArtifact(test, sequential.tenantId, statement)).artifactId, options)
    const pipelinedRun = await normalizerWith({ db: observed.db }).normalizeArtifact(pipelined.tenantId, (await seedArtifact(test, pipelined.tenantId, statement)).artifactId, options)
    // Pipelined where the database has connections to spare (PostgreSQL), one after another on PGlite.
    expect(observed.dedicated()).toBe(test.runtime.db.dedicatedConnection === undefined ? 0 : 1)
    expect({ ...pipelinedRun, artifact_id: undefined }).toEqual({ ...sequentialRun, artifact_id: undefined })
    expect(pipelinedRun).toMatchObject({ parsed_rows: 12, batches: 4 })
    const ledger = await ledgerOf(pipelined.tenantId)
    expect(ledger).toEqual(await ledgerOf(sequential.tenantId))

    // What the rules make of the rows across batches.
    const current = (rows: Array<Record<string, unknown>>) => rows.filter((row) => row.current === true)
    expect(current(ledger.transactions).map((row) => [row.transaction_date, row.amount, row.description, row.status, row.version])).toEqual([
      ['2026-05-01', '-64.10', 'UBER *TRIP', 'posted', 2],
      ['2026-05-02', '-18.00', 'DELI ON 5TH', 'posted', 2],
      ['2026-05-04', '-3.80', 'CAFE LUMEN', 'posted', 1],
      ['2026-05-04', '-3.80', 'CAFE LUMEN', 'posted', 1],
      ['2026-05-05', '1200.00', 'CUSTOMER PAYMENT', 'posted', 1],
    ])
    expect(current(ledger.accounts)).toEqual([expect.objectContaining({ iban: 'DE89370400440532013000', account_number_masked: '••••3000', version: 2 })])
    const named = current(ledger.counterparties).filter((row) => row.provenance === 'extracted')
    expect(named.map((row) => [row.name, row.linked_accounts, row.version])).toEqual([
      ['Cafe Lumen', ['iban:DE02120300000000202051'], 2],
      ['Northwind Traders', [], 2],
    ])
    expect(current(ledger.obligations).map((row) => [row.reference, row.linked])).toEqual([
      ['INV-7', true],
      ['collect-INV-7', true],
    ])
    expect(ledger.audit).toHaveLength(4)
  })

  it('runs a statement again without a change, and finds a re-sent part of it again', async () => {
    const owner = await signupOwner(test)
    const normalizer = normalizerWith()
    const first = await seedArtifact(test, owner.tenantId, statement)
    await normalizer.normalizeArtifact(owner.tenantId, first.artifactId, { actor: normalizerActor })
    const before = await ledgerOf(owner.tenantId)
    const again = await normalizer.normalizeArtifact(owner.tenantId, first.artifactId, { actor: normalizerActor })
    expect(Object.values(again.counts).every((tally) => tally.created === 0 && tally.updated === 0)).toBe(true)
    expect(await ledgerOf(owner.tenantId)).toEqual(before)

    // Another file with rows 4 to 8: every transaction is found again (cited, not created).
    const resent = await seedArtifact(test, owner.tenantId, statement.slice(3, 8))
    const summary = await normalizer.normalizeArtifact(owner.tenantId, resent.artifactId, { actor: normalizerActor })
    expect(summary.counts.transaction).toMatchObject({ created: 0 })
    const transactions = (await ledgerOf(owner.tenantId)).transactions.filter((row) => row.current === true)
    expect(transactions).toHaveLength(5)
  })

  it('keeps two runs of one tenant apart: overlapping statements normalized at once count each row once', async () => {
    const owner = await signupOwner(test)
    const rows = Array.from({ length: 20 }, (_, index) =>
      bankTransaction({ account, amount: `-${10 + index}.00`, transaction_date: `2026-06-${String(1 + (index % 28)).padStart(2, '0')}`, description: `SHOP ${index}` }),
    )
    const one = await seedArtifact(test, owner.tenantId, rows)
    const other = await seedArtifact(test, owner.tenantId, [...rows].reverse())
    const [first, second] = await Promise.all([
      normalizerWith().normalizeArtifact(owner.tenantId, one.artifactId, { actor: normalizerActor }),
      normalizerWith().normalizeArtifact(owner.tenantId, other.artifactId, { actor: normalizerActor }),
    ])
    expect(first.counts.transaction!.created + second.counts.transaction!.created).toBe(20)
    const [count] = await queryRows<{ n: number }>(test.runtime.db.orm, sql`select count(*)::int as n from ledger_transactions where tenant_id = ${owner.tenantId} and superseded_at is null`)
    expect(count?.n).toBe(20)
  })

  it('a run that fails part way leaves whole batches and lets the next run of the tenant proceed', async () => {
    const owner = await signupOwner(test)
    const { artifactId } = await seedArtifact(test, owner.tenantId, statement)
    const audit = auditRecorder()
    let batches = 0
    const failing = normalizerWith({
      audit: {
        ...audit,
        record: async (tx, event) => {
          batches += 1
          if (batches === 2) throw new Error('audit store unavailable')
          return audit.record(tx, event)
        },
      },
    })
    await expect(failing.normalizeArtifact(owner.tenantId, artifactId, { actor: normalizerActor })).rejects.toThrow('audit store unavailable')
    // The first batch committed, the second rolled back entirely; nothing after it was written.
    expect((await ledgerOf(owner.tenantId)).audit).toHaveLength(1)

    // The tenant's lock and the connection were released: another run completes the statement.
    const summary = await normalizerWith().normalizeArtifact(owner.tenantId, artifactId, { actor: normalizerActor })
    expect(summary.batches).toBe(4)
    expect((await ledgerOf(owner.tenantId)).transactions.filter((row) => row.current === true)).toHaveLength(5)
  })
})
