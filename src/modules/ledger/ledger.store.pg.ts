/** The Drizzle implementation of LedgerStore (both engines). */
import { and, arrayContains, asc, desc, eq, getTableColumns, gt, gte, inArray, isNull, lt, lte, ne, notInArray, or, sql, type SQL } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import { assert } from '../../kernel/assert.ts'
import { copyMany, insertMany } from '../../platform/db/bulk.ts'
import { queryRows } from '../../platform/db/database.ts'
import { ledgerAccounts, ledgerBalances, ledgerCounterparties, ledgerEntityKeys, ledgerInvoices, ledgerJobs, ledgerObligations, ledgerReconciliationMatches, ledgerTransactions } from './ledger.tables.ts'
import type { RawRecords } from './ports.ts'
import type { AsOf, LedgerKind, LedgerRowByKind, LedgerStore, TransactionRow } from './ledger.store.ts'
import { storedKey } from './domain/keys.ts'

/** The columns every versioned ledger table has. */
interface VersionedTable {
  readonly table: PgTable
  readonly versionId: PgColumn
  readonly id: PgColumn
  readonly tenantId: PgColumn
  readonly updatedAt: PgColumn
  readonly supersededAt: PgColumn
}

const versioned = (table: typeof ledgerAccounts | typeof ledgerBalances | typeof ledgerCounterparties | typeof ledgerTransactions | typeof ledgerInvoices | typeof ledgerObligations | typeof ledgerReconciliationMatches): VersionedTable => ({
  table,
  versionId: table.versionId,
  id: table.id,
  tenantId: table.tenantId,
  updatedAt: table.updatedAt,
  supersededAt: table.supersededAt,
})

const tables: Readonly<Record<LedgerKind, VersionedTable>> = {
  account: versioned(ledgerAccounts),
  balance: versioned(ledgerBalances),
  counterparty: versioned(ledgerCounterparties),
  transaction: versioned(ledgerTransactions),
  invoice: versioned(ledgerInvoices),
  obligation: versioned(ledgerObligations),
  reconciliation_match: versioned(ledgerReconciliationMatches),
}

/** Rows per bulk INSERT (one json parameter whatever the row count, so only memory bounds it). */
const bulkChunkRows = 5_000

/** The version visible at `asOf`: the current one, or the one recorded before it and not yet superseded then. */
function visibleAt(table: VersionedTable, asOf: AsOf): SQL {
  if (asOf === undefined) return isNull(table.supersededAt)
  return and(lte(table.updatedAt, asOf), or(isNull(table.supersededAt), gt(table.supersededAt, asOf)))!
}

/** `column = any($1)` with the values as one text[] parameter: one bind however many values. */
const anyOf = (column: PgColumn, values: readonly string[]): SQL => sql`${column} = any(${sql.param([...values])}::text[])`

/** A fixed key for the advisory lock class of ledger normalization. */
const ledgerLockClass = 7_264_110

export function createLedgerStore(raw: RawRecords): LedgerStore {
  return {
    async lockTenant(tx, tenantId) {
      await tx.execute(sql`select pg_advisory_xact_lock(${ledgerLockClass}, hashtext(${tenantId}))`)
    },
    async holdTenant(connection, tenantId) {
      await connection.execute(sql`select pg_advisory_lock(${ledgerLockClass}, hashtext(${tenantId}))`)
    },
    async releaseTenant(connection, tenantId) {
      await connection.execute(sql`select pg_advisory_unlock(${ledgerLockClass}, hashtext(${tenantId}))`)
    },
    async relaxCommit(tx) {
      await tx.execute(sql`set local synchronous_commit = off`)
    },
    async findEntityIds(executor, tenantId, kind, keys) {
      const found = new Map<string, string>()
      if (keys.length === 0) return found
      // Keys are stored in their stored form (storedKey): looked up by it, answered by the key itself.
      const keyOf = new Map(keys.map((key) => [storedKey(key), key]))
      const rows = await executor
        .select({ key: ledgerEntityKeys.key, entityId: ledgerEntityKeys.entityId })
        .from(ledgerEntityKeys)
        .where(and(eq(ledgerEntityKeys.tenantId, tenantId), eq(ledgerEntityKeys.kind, kind), anyOf(ledgerEntityKeys.key, [...keyOf.keys()])))
      for (const row of rows) found.set(keyOf.get(row.key)!, row.entityId)
      return found
    },
    async addKeys(tx, tenantId, kind, entries, at) {
      for (let offset = 0; offset < entries.length; offset += bulkChunkRows) {
        const chunk = entries.slice(offset, offset + bulkChunkRows).map((entry) => ({ tenantId, kind, key: storedKey(entry.key), entityId: entry.entityId, createdAt: at }))
        await insertMany(tx, ledgerEntityKeys, chunk, { onConflictDoNothing: true })
      }
    },

    async currentVersions(executor, kind, tenantId, ids) {
      const table = tables[kind]
      const found = new Map<string, LedgerRowByKind[typeof kind]>()
      if (ids.length === 0) return found
      const rows = (await executor
        .select()
        .from(table.table)
        .where(and(eq(table.tenantId, tenantId), anyOf(table.id, ids), isNull(table.supersededAt)))) as Array<LedgerRowByKind[typeof kind]>
      for (const row of rows) found.set(row.id, row)
      return found
    },
    async insertVersions(tx, kind, rows) {
      // COPY on a server (db/bulk.ts): versions never conflict, so they need none of INSERT's handling.
      await copyMany(tx, tables[kind].table, rows)
    },
    async supersede(tx, kind, tenantId, versionIds, at) {
      if (versionIds.length === 0) return
      const table = tables[kind]
      await tx
        .update(table.table)
        .set({ supersededAt: at } as never)
        .where(and(eq(table.tenantId, tenantId), anyOf(table.versionId, versionIds), isNull(table.supersededAt)))
    },

    async transactionCandidates(executor, tenantId, probes, dateFrom, dateTo) {
      if (probes.length === 0) return []
      return (await queryRows<Record<string, unknown>>(
        executor,
        sql`select t.* from ledger_transactions t
            join unnest(${sql.param(probes.map((probe) => probe.accountId))}::text[], ${sql.param(probes.map((probe) => probe.amount))}::numeric[])
                 as probe(account_id, amount)
              on t.account_id = probe.account_id and t.amount = probe.amount
            where t.tenant_id = ${tenantId} and t.superseded_at is null
              and t.transaction_date between ${dateFrom}::date and ${dateTo}::date`,
      )).map(toTransactionRow)
    },

    // Raw's records, read through Raw's port (the Ledger reads no Raw table).
    findArtifact: raw.findArtifact,
    parsedRows: raw.parsedRows,
    countParsedRows: raw.countParsedRows,
    parsedRecordsOfDay: raw.parsedRecordsOfDay,
    findParsedRow: raw.findParsedRow,
    parsedRecords: raw.parsedRecords,

    async findEntity(executor, kind, tenantId, id, asOf) {
      const table = tables[kind]
      const [row] = await executor
        .select()
        .from(table.table)
        .where(and(eq(table.tenantId, tenantId), eq(table.id, id), visibleAt(table, asOf)))
        .limit(1)
      return row as LedgerRowByKind[typeof kind] | undefined
    },
    async listTransactions(executor, tenantId, filter) {
      const t = ledgerTransactions
      return executor
        .select()
        .from(t)
        .where(
          and(
            eq(t.tenantId, tenantId),
            visibleAt(tables.transaction, filter.asOf),
            filter.accountId === undefined ? undefined : eq(t.accountId, filter.accountId),
            filter.counterpartyId === undefined ? undefined : eq(t.counterpartyId, filter.counterpartyId),
            filter.direction === undefined ? undefined : eq(t.direction, filter.direction),
            filter.status === undefined ? undefined : eq(t.status, filter.status),
            filter.since === undefined ? undefined : gte(t.transactionDate, filter.since),
            filter.until === undefined ? undefined : lte(t.transactionDate, filter.until),
            filter.before === undefined
              ? undefined
              : or(lt(t.transactionDate, filter.before.transactionDate), and(eq(t.transactionDate, filter.before.transactionDate), lt(t.id, filter.before.id))),
          ),
        )
        .orderBy(desc(t.transactionDate), desc(t.id))
        .limit(filter.limit)
    },
    async listEntities(executor, kind, tenantId, filter) {
      const table = tables[kind]
      const columns = table.table as unknown as Record<string, PgColumn>
      const column = (name: string) => {
        const target = columns[name]
        // The filters' column names are the service's, checked by no type: a wrong one is a bug.
        assert(target !== undefined, `listEntities filters on column ${name}, which ${kind} does not have`)
        return target
      }
      const defined = (entries: Readonly<Record<string, string | undefined>> | undefined) =>
        Object.entries(entries ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined)
      const equals = [
        ...defined(filter.equals).map(([name, value]) => eq(column(name), value)),
        ...defined(filter.arrayContains).map(([name, value]) => arrayContains(column(name), [value])),
      ]
      const rows = await executor
        .select()
        .from(table.table)
        .where(and(eq(table.tenantId, tenantId), visibleAt(table, filter.asOf), filter.afterId === undefined ? undefined : gt(table.id, filter.afterId), ...equals))
        .orderBy(asc(table.id))
        .limit(filter.limit)
      return rows as Array<LedgerRowByKind[typeof kind]>
    },
    async latestBalances(executor, tenantId, options) {
      const b = ledgerBalances
      // Closing and current balances describe the end of a day; prefer them over opening and available.
      const rows = await executor
        .selectDistinctOn([b.accountId])
        .from(b)
        .where(
          and(
            eq(b.tenantId, tenantId),
            visibleAt(tables.balance, options.asOf),
            options.accountId === undefined ? undefined : eq(b.accountId, options.accountId),
            options.onOrBefore === undefined ? undefined : lte(b.asOf, options.onOrBefore),
          ),
        )
        .orderBy(b.accountId, desc(b.asOf), sql`case ${b.balanceType} when 'closing' then 0 when 'current' then 1 when 'available' then 2 else 3 end`)
      return rows
    },

    async allCurrent(executor, kind, tenantId) {
      const table = tables[kind]
      const rows: Array<LedgerRowByKind[typeof kind]> = []
      let afterId: string | undefined
      for (;;) {
        const page = (await executor
          .select()
          .from(table.table)
          .where(and(eq(table.tenantId, tenantId), isNull(table.supersededAt), afterId === undefined ? undefined : gt(table.id, afterId)))
          .orderBy(asc(table.id))
          .limit(5_000)) as Array<LedgerRowByKind[typeof kind]>
        rows.push(...page)
        if (page.length < 5_000) return rows
        afterId = page[page.length - 1]!.id
      }
    },
    async transactionsByAmount(executor, tenantId, probes) {
      if (probes.length === 0) return []
      return (await queryRows<Record<string, unknown>>(
        executor,
        sql`select distinct t.* from ledger_transactions t
            join unnest(${sql.param(probes.map((probe) => probe.currency))}::text[], ${sql.param(probes.map((probe) => probe.amount))}::numeric[],
                        ${sql.param(probes.map((probe) => probe.from))}::date[], ${sql.param(probes.map((probe) => probe.to))}::date[])
                 as probe(currency, amount, date_from, date_to)
              on t.currency = probe.currency and t.amount = probe.amount and t.transaction_date between probe.date_from and probe.date_to
            where t.tenant_id = ${tenantId} and t.superseded_at is null`,
      )).map(toTransactionRow)
    },
    async transactionsCiting(executor, tenantId, probes) {
      if (probes.length === 0) return []
      return (await queryRows<Record<string, unknown>>(
        executor,
        sql`select distinct t.* from ledger_transactions t
            join unnest(${sql.param(probes.map((probe) => probe.text))}::text[], ${sql.param(probes.map((probe) => probe.from))}::date[],
                        ${sql.param(probes.map((probe) => probe.to))}::date[]) as probe(text, date_from, date_to)
              on t.transaction_date between probe.date_from and probe.date_to
             and strpos(upper(regexp_replace(t.description, '[^A-Za-z0-9]+', '', 'g')), probe.text) > 0
            where t.tenant_id = ${tenantId} and t.superseded_at is null`,
      )).map(toTransactionRow)
    },
    async movementSums(executor, tenantId, ranges) {
      if (ranges.length === 0) return []
      const rows = await queryRows<{ ordinal: number; total: string | null }>(
        executor,
        sql`select r.ordinal::int as ordinal,
                   (select coalesce(sum(t.amount), 0)::text from ledger_transactions t
                     where t.tenant_id = ${tenantId} and t.superseded_at is null and t.account_id = r.account_id
                       and t.transaction_date between r.date_from and r.date_to
                       and t.status not in ('pending', 'failed', 'reversed')) as total
            from unnest(${sql.param(ranges.map((range) => range.accountId))}::text[], ${sql.param(ranges.map((range) => range.from))}::date[],
                        ${sql.param(ranges.map((range) => range.to))}::date[]) with ordinality as r(account_id, date_from, date_to, ordinal)
            order by r.ordinal`,
      )
      return rows.map((row) => row.total ?? '0')
    },
    async sharedHashTransactions(executor, tenantId) {
      return (await queryRows<Record<string, unknown>>(
        executor,
        sql`select t.* from ledger_transactions t
            where t.tenant_id = ${tenantId} and t.superseded_at is null and t.metadata->'details'->>'tx_hash' in (
              select metadata->'details'->>'tx_hash' from ledger_transactions
               where tenant_id = ${tenantId} and superseded_at is null and metadata->'details'->>'tx_hash' is not null
               group by 1 having count(*) > 1)`,
      )).map(toTransactionRow)
    },
    async outflowsOf(executor, tenantId, accountIds) {
      if (accountIds.length === 0) return []
      const t = ledgerTransactions
      return executor
        .select()
        .from(t)
        .where(and(eq(t.tenantId, tenantId), isNull(t.supersededAt), inArray(t.accountId, [...accountIds]), lt(t.amount, '0'), notInArray(t.status, ['failed', 'reversed'])))
    },
    async nonTransfersWith(executor, tenantId, counterpartyIds) {
      if (counterpartyIds.length === 0) return []
      const t = ledgerTransactions
      return executor
        .select()
        .from(t)
        .where(and(eq(t.tenantId, tenantId), isNull(t.supersededAt), inArray(t.counterpartyId, [...counterpartyIds]), ne(t.direction, 'transfer')))
    },
    async ambiguousTransactions(executor, tenantId) {
      return executor
        .select()
        .from(ledgerTransactions)
        .where(and(eq(ledgerTransactions.tenantId, tenantId), isNull(ledgerTransactions.supersededAt), eq(ledgerTransactions.provenance, 'ambiguous')))
    },

    async insertJob(tx, job) {
      await tx.insert(ledgerJobs).values(job)
    },
    async findJob(executor, tenantId, jobId) {
      const [row] = await executor
        .select()
        .from(ledgerJobs)
        .where(and(eq(ledgerJobs.tenantId, tenantId), eq(ledgerJobs.id, jobId)))
        .limit(1)
      return row
    },
    async latestNormalizations(executor, tenantId, artifactIds) {
      if (artifactIds.length === 0) return new Map()
      // Served by ledger_jobs_artifact_idx (tenant_id, input->>'artifact_id', created_at) where kind = 'normalize'.
      const artifactOf = sql<string>`(${ledgerJobs.input} ->> 'artifact_id')`
      const rows = await executor
        .selectDistinctOn([artifactOf], { artifactId: artifactOf, job: ledgerJobs })
        .from(ledgerJobs)
        .where(and(eq(ledgerJobs.tenantId, tenantId), eq(ledgerJobs.kind, 'normalize'), inArray(artifactOf, [...artifactIds])))
        .orderBy(artifactOf, desc(ledgerJobs.createdAt), desc(ledgerJobs.id))
      return new Map(rows.map((row) => [row.artifactId, row.job]))
    },
    async updateJob(executor, tenantId, jobId, values) {
      await executor.update(ledgerJobs).set(values).where(and(eq(ledgerJobs.tenantId, tenantId), eq(ledgerJobs.id, jobId)))
    },
  }
}

/** A raw `select t.*` row of ledger_transactions in the camelCase shape of its Drizzle type. */
function toTransactionRow(row: Record<string, unknown>): TransactionRow {
  const asDate = (value: unknown) => (value === null ? null : value instanceof Date ? value : new Date(String(value)))
  const asDay = (value: unknown) => (value === null ? null : value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10))
  return {
    versionId: String(row.version_id),
    id: String(row.id),
    tenantId: String(row.tenant_id),
    version: Number(row.version),
    supersedes: (row.supersedes as string | null) ?? null,
    sourceIds: row.source_ids as string[],
    evidenceIds: row.evidence_ids as string[],
    provenance: row.provenance as TransactionRow['provenance'],
    confidence: Number(row.confidence),
    metadata: row.metadata,
    createdAt: asDate(row.created_at)!,
    updatedAt: asDate(row.updated_at)!,
    supersededAt: asDate(row.superseded_at),
    accountId: String(row.account_id),
    externalTransactionId: (row.external_transaction_id as string | null) ?? null,
    amount: String(row.amount),
    currency: String(row.currency),
    direction: row.direction as TransactionRow['direction'],
    transactionDate: asDay(row.transaction_date)!,
    postedDate: asDay(row.posted_date),
    counterpartyId: (row.counterparty_id as string | null) ?? null,
    categoryId: (row.category_id as string | null) ?? null,
    status: row.status as TransactionRow['status'],
    description: String(row.description),
    descriptionNormalized: String(row.description_normalized),
    reconciliationStatus: row.reconciliation_status as TransactionRow['reconciliationStatus'],
  }
}
