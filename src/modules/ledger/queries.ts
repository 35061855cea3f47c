/**
 * Questions other modules ask of the Ledger (its query port): they read the Ledger through these, never
 * its tables. Policy replays a period's outflows through simulate-historical; Payments reads the
 * accounts, counterparties, invoices and obligations a PaymentIntent names.
 */
import { and, asc, desc, eq, gt, gte, inArray, isNull, lt, lte, ne, or, sql, type SQL } from 'drizzle-orm'
import { queryRows, type Executor } from '../../platform/db/database.ts'
import { selector, statement } from '../../platform/db/statements.ts'
import { entityIdOf } from './domain/keys.ts'
import { ledgerAccounts, ledgerBalances, ledgerCounterparties, ledgerEntityKeys, ledgerInvoices, ledgerObligations, ledgerReconciliationMatches, ledgerTransactions } from './ledger.tables.ts'
import { accountView, balanceView, counterpartyView, invoiceView, matchView, obligationView, transactionView } from './ledger.views.ts'
import type { LedgerKind } from './ledger.store.ts'
import { idPrefixes } from '../../kernel/ids.ts'

/** An account as a payment needs it (its current version). */
export interface PaymentAccount {
  readonly id: string
  readonly status: 'active' | 'closed' | 'frozen' | 'pending'
  readonly currency: string
  readonly accountType: string
}

/** A counterparty as a payment needs it (its current version). */
export interface PaymentCounterparty {
  readonly id: string
  readonly name: string
  readonly verifiedStatus: 'unverified' | 'self_attested' | 'document_verified' | 'sanctions_cleared'
  readonly riskLevel: 'low' | 'medium' | 'high' | 'sanctioned'
  readonly trustState: 'unreviewed' | 'trusted' | 'paused' | 'acknowledged'
  /** The wallets it is paid at: the `wallet:` entries of its linked accounts, lower-cased, in the order recorded. */
  readonly walletAddresses: readonly string[]
}

/** An invoice as a payment needs it (its current version). */
export interface PaymentInvoice {
  readonly id: string
  readonly direction: 'payable' | 'receivable'
  readonly invoiceNumber: string
  readonly currency: string
  readonly total: string
  readonly amountPaid: string
  readonly status: 'draft' | 'sent' | 'partial' | 'paid' | 'overdue' | 'cancelled' | 'disputed'
  readonly counterpartyId: string | null
  /** The parsed rows it was read from. */
  readonly evidenceIds: readonly string[]
}

/** An obligation as a payment needs it (its current version). */
export interface PaymentObligation {
  readonly id: string
  readonly direction: 'payable' | 'receivable' | null
  readonly status: 'open' | 'settled' | 'cancelled'
  readonly currency: string
  readonly amount: string
  readonly counterpartyId: string | null
  readonly invoiceId: string | null
}

export interface OutflowRecord {
  readonly id: string
  /** Signed, as the Ledger records it (negative for an outflow). */
  readonly amount: string
  readonly currency: string
  readonly counterpartyId: string | null
  readonly transactionDate: string
}

/**
 * The tenant's whole current Ledger as its read API shows it (ledger.views.ts), every list in id order:
 * what the first-party agents' programs read (the agents module's LedgerSnapshot). Balances are the
 * latest per account and type; a counterparty's `first_recorded_at` is its first version's; an
 * obligation's `outstanding` is what its metadata says remains, when it says.
 */
export interface CurrentLedger {
  readonly accounts: ReadonlyArray<ReturnType<typeof accountView>>
  readonly balances: ReadonlyArray<ReturnType<typeof balanceView>>
  readonly transactions: ReadonlyArray<ReturnType<typeof transactionView>>
  readonly counterparties: ReadonlyArray<ReturnType<typeof counterpartyView> & { readonly first_recorded_at: string }>
  readonly invoices: ReadonlyArray<ReturnType<typeof invoiceView>>
  readonly obligations: ReadonlyArray<ReturnType<typeof obligationView> & { readonly outstanding: string | null }>
}

/** Which transactions a Wiki question reads: dated from..to inclusive; a null field does not narrow. */
export interface TransactionSelection {
  readonly from: string
  readonly to: string
  readonly direction: 'inflow' | 'outflow' | 'transfer' | 'adjustment' | null
  readonly accountId: string | null
  readonly counterpartyId: string | null
  readonly categoryId: string | null
  readonly currency: string | null
}

/** A Ledger record as a Wiki answer cites it: the version read and the parsed rows it came from. */
export interface CitedRecord {
  readonly id: string
  readonly versionId: string
  readonly evidenceIds: readonly string[]
}

export interface CitedTransaction extends CitedRecord {
  readonly transactionDate: string
  readonly amount: string
  readonly currency: string
  readonly direction: string
  readonly description: string
  readonly accountId: string
  readonly counterpartyId: string | null
}

export interface CitedInvoice extends CitedRecord {
  readonly invoiceNumber: string
  readonly direction: string
  readonly status: string
  readonly currency: string
  readonly total: string
  readonly amountPaid: string
  readonly dueDate: string | null
  readonly counterpartyId: string | null
}

export interface CitedObligation extends CitedRecord {
  readonly reference: string
  readonly obligationType: string
  readonly description: string | null
  readonly amount: string
  readonly currency: string
  readonly dueDate: string | null
  readonly recurrence: string | null
  readonly counterpartyId: string | null
}

/** Which invoices: `open` is sent, partial or overdue with something left to pay; `overdue` is open and due before `on`. */
export interface InvoiceSelection {
  readonly direction: 'receivable' | 'payable'
  readonly state: 'all' | 'open' | 'overdue' | 'paid'
  readonly on: string
  readonly counterpartyId: string | null
  readonly invoiceNumber: string | null
}

/** Which obligations: payable and open, due on or before `to` (bills due); or subscriptions not cancelled. */
export type ObligationSelection = { readonly kind: 'bills_due'; readonly to: string } | { readonly kind: 'subscriptions' }

/** The kinds of Ledger record an id can name (its prefix says which). */
export type LedgerRecordKind = LedgerKind

const recordPrefixes: ReadonlyArray<readonly [string, LedgerRecordKind]> = [
  [`${idPrefixes.account}_`, 'account'],
  [`${idPrefixes.balance}_`, 'balance'],
  [`${idPrefixes.counterparty}_`, 'counterparty'],
  [`${idPrefixes.transaction}_`, 'transaction'],
  [`${idPrefixes.invoice}_`, 'invoice'],
  [`${idPrefixes.obligation}_`, 'obligation'],
  [`${idPrefixes.reconciliationMatch}_`, 'reconciliation_match'],
]

/** The kind of Ledger record an id names by its prefix; undefined for an id no Ledger record can have. */
export function ledgerRecordKindOf(id: string): LedgerRecordKind | undefined {
  return recordPrefixes.find(([prefix]) => id.startsWith(prefix))?.[1]
}

/** One version of a Ledger record, with the record as the Ledger's read API shows it (ledger.views.ts). */
export interface LedgerRecordVersion {
  readonly kind: LedgerRecordKind
  readonly id: string
  readonly versionId: string
  readonly version: number
  /** When this version was recorded (system time: the row's updated_at). */
  readonly recordedAt: Date
  /** When the next version was recorded; null for the current one. */
  readonly supersededAt: Date | null
  readonly provenance: string
  readonly confidence: number
  readonly sourceIds: readonly string[]
  readonly evidenceIds: readonly string[]
  /** The record's wire view (the same body as the Ledger route that reads it). */
  readonly record: Readonly<Record<string, unknown>>
}

const recordTables = {
  account: { table: ledgerAccounts, view: accountView },
  balance: { table: ledgerBalances, view: balanceView },
  counterparty: { table: ledgerCounterparties, view: counterpartyView },
  transaction: { table: ledgerTransactions, view: transactionView },
  invoice: { table: ledgerInvoices, view: invoiceView },
  obligation: { table: ledgerObligations, view: obligationView },
  reconciliation_match: { table: ledgerReconciliationMatches, view: matchView },
} as const

function recordVersionOf(kind: LedgerRecordKind, row: Record<string, unknown>): LedgerRecordVersion {
  const view = recordTables[kind].view as (row: never) => Record<string, unknown>
  const versioned = row as { id: string; versionId: string; version: number; updatedAt: Date; supersededAt: Date | null; provenance: string; confidence: number; sourceIds: string[]; evidenceIds: string[] }
  return {
    kind,
    id: versioned.id,
    versionId: versioned.versionId,
    version: versioned.version,
    recordedAt: versioned.updatedAt,
    supersededAt: versioned.supersededAt,
    provenance: versioned.provenance,
    confidence: versioned.confidence,
    sourceIds: versioned.sourceIds,
    evidenceIds: versioned.evidenceIds,
    record: view(row as never),
  }
}

export interface LedgerQueries {
  /**
   * The version of the tenant's Ledger record `id` (any kind) visible at `asOf` (recorded by then and not
   * yet superseded then), or the current one when `asOf` is undefined; undefined when there is none.
   */
  recordAsOf(executor: Executor, tenantId: string, id: string, asOf?: Date): Promise<LedgerRecordVersion | undefined>
  /** The versions of the tenant's Ledger record `id`, oldest first (by version), `offset` skipped, at most `limit`. */
  recordVersions(executor: Executor, tenantId: string, id: string, options: { offset: number; limit: number }): Promise<LedgerRecordVersion[]>
  /**
   * Totals of the selected transactions as recorded at `asOf` (undefined: the current Ledger), one row per
   * currency and direction: count and sum, computed in SQL (ledger_transactions_date_idx, or
   * ledger_transactions_counterparty_idx / _account_idx when narrowed by one).
   */
  transactionTotals(executor: Executor, tenantId: string, selection: TransactionSelection, asOf: Date | undefined): Promise<Array<{ currency: string; direction: string; count: number; total: string }>>
  /** The selected transactions as recorded at `asOf`, oldest first (transaction_date, id), at most `limit`. */
  citedTransactions(executor: Executor, tenantId: string, selection: TransactionSelection, asOf: Date | undefined, limit: number): Promise<CitedTransaction[]>
  /** Invoices of the selection as recorded at `asOf`: per status and currency, count, total and amount left to pay. */
  invoiceTotals(executor: Executor, tenantId: string, selection: InvoiceSelection, asOf: Date | undefined): Promise<Array<{ status: string; currency: string; count: number; total: string; outstanding: string }>>
  /** Invoices of the selection as recorded at `asOf`, by due date (none last) then id, at most `limit`. */
  citedInvoices(executor: Executor, tenantId: string, selection: InvoiceSelection, asOf: Date | undefined, limit: number): Promise<CitedInvoice[]>
  /** Obligations of the selection as recorded at `asOf`: per currency (and recurrence), count and sum. */
  obligationTotals(executor: Executor, tenantId: string, selection: ObligationSelection, asOf: Date | undefined): Promise<Array<{ currency: string; recurrence: string | null; count: number; total: string }>>
  /** Obligations of the selection as recorded at `asOf`, by due date (none last) then id, at most `limit`. */
  citedObligations(executor: Executor, tenantId: string, selection: ObligationSelection, asOf: Date | undefined, limit: number): Promise<CitedObligation[]>
  /**
   * What a name in a question may mean, as recorded at `asOf`: counterparties whose name or an alias
   * contains it, accounts whose name does (case-insensitive; at most 5 of each), and the category ids of
   * the current Ledger that do.
   */
  namedIn(executor: Executor, tenantId: string, name: string, asOf: Date | undefined): Promise<{ counterparties: Array<{ id: string; name: string }>; accounts: Array<{ id: string; name: string }>; categories: string[] }>
  /** The versions of these accounts or counterparties as recorded at `asOf`, for citing them. */
  citedEntities(executor: Executor, tenantId: string, kind: 'account' | 'counterparty', ids: readonly string[], asOf: Date | undefined): Promise<CitedRecord[]>
  /** Which kinds of records the tenant has now (what its suggested questions may be about). */
  dataPresence(executor: Executor, tenantId: string): Promise<{ transactions: boolean; outflows: boolean; inflows: boolean; receivableInvoices: boolean; payableInvoices: boolean; payableObligations: boolean; subscriptions: boolean }>

  /** Every current record of the tenant (see CurrentLedger). */
  currentLedger(executor: Executor, tenantId: string): Promise<CurrentLedger>
  /**
   * Current outflows dated from..to inclusive, oldest first, strictly after `after` (transaction_date,
   * id), at most `limit`.
   */
  outflowsInPeriod(
    executor: Executor,
    tenantId: string,
    options: { from: string; to: string; after?: { transactionDate: string; id: string } | undefined; limit: number },
  ): Promise<OutflowRecord[]>
  /** The account's current version; undefined when the tenant has none of that id. */
  findAccount(executor: Executor, tenantId: string, accountId: string): Promise<PaymentAccount | undefined>
  /** The tenant's accounts in this currency that are active, in id order. */
  activeAccountsIn(executor: Executor, tenantId: string, currency: string): Promise<PaymentAccount[]>
  findCounterparty(executor: Executor, tenantId: string, counterpartyId: string): Promise<PaymentCounterparty | undefined>
  findInvoice(executor: Executor, tenantId: string, invoiceId: string): Promise<PaymentInvoice | undefined>
  findObligation(executor: Executor, tenantId: string, obligationId: string): Promise<PaymentObligation | undefined>
  /**
   * Whether one of these identity keys (`email:<address>`, `wallet:<address>`, `iban:<IBAN>`, as
   * normalization keys them) names this counterparty: a stored key of it, or the key its id derives from.
   */
  counterpartyNamedBy(executor: Executor, tenantId: string, counterpartyId: string, keys: readonly string[]): Promise<boolean>
  /** The account's latest recorded balance: the newest day's available, current or closing balance (in that preference). */
  latestBalance(executor: Executor, tenantId: string, accountId: string): Promise<{ amount: string; asOf: string } | undefined>
  /**
   * When the counterparty's payment details (an IBAN or wallet key) were last added, if after it was first
   * seen; null when they never changed.
   */
  counterpartyDetailsChangedAt(executor: Executor, tenantId: string, counterpartyId: string): Promise<Date | null>
}

type VersionedTable = typeof ledgerAccounts | typeof ledgerCounterparties | typeof ledgerTransactions | typeof ledgerInvoices | typeof ledgerObligations

/** The version visible at `asOf`: the current one, or the one recorded by then and not yet superseded then. */
function visibleAt(table: VersionedTable, asOf: Date | undefined): SQL {
  if (asOf === undefined) return isNull(table.supersededAt)
  return and(lte(table.updatedAt, asOf), or(isNull(table.supersededAt), gt(table.supersededAt, asOf)))!
}

function transactionsWhere(tenantId: string, s: TransactionSelection, asOf: Date | undefined): SQL {
  const t = ledgerTransactions
  return and(
    eq(t.tenantId, tenantId),
    visibleAt(t, asOf),
    gte(t.transactionDate, s.from),
    lte(t.transactionDate, s.to),
    s.direction === null ? undefined : eq(t.direction, s.direction),
    s.accountId === null ? undefined : eq(t.accountId, s.accountId),
    s.counterpartyId === null ? undefined : eq(t.counterpartyId, s.counterpartyId),
    s.categoryId === null ? undefined : eq(t.categoryId, s.categoryId),
    s.currency === null ? undefined : eq(t.currency, s.currency),
  )!
}

function invoicesWhere(tenantId: string, s: InvoiceSelection, asOf: Date | undefined): SQL {
  const i = ledgerInvoices
  const open = and(inArray(i.status, ['sent', 'partial', 'overdue']), gt(i.total, i.amountPaid))
  const state = s.state === 'open' ? open : s.state === 'overdue' ? and(open, lt(i.dueDate, s.on)) : s.state === 'paid' ? eq(i.status, 'paid') : undefined
  return and(
    eq(i.tenantId, tenantId),
    visibleAt(i, asOf),
    eq(i.direction, s.direction),
    state,
    s.counterpartyId === null ? undefined : eq(i.counterpartyId, s.counterpartyId),
    s.invoiceNumber === null ? undefined : sql`lower(${i.invoiceNumber}) = lower(${s.invoiceNumber})`,
  )!
}

function obligationsWhere(tenantId: string, s: ObligationSelection, asOf: Date | undefined): SQL {
  const o = ledgerObligations
  const which = s.kind === 'bills_due' ? and(eq(o.direction, 'payable'), eq(o.status, 'open'), lte(o.dueDate, s.to)) : and(eq(o.obligationType, 'subscription'), ne(o.status, 'cancelled'))
  return and(eq(o.tenantId, tenantId), visibleAt(o, asOf), which)!
}

const accountFields = { id: ledgerAccounts.id, status: ledgerAccounts.status, currency: ledgerAccounts.currency, accountType: ledgerAccounts.accountType }

// The money path's reads, by key with fixed text (platform/db/statements.ts): the gate asks each of them on every execute.
const currentAccount = selector(ledgerAccounts, ['tenantId', 'id'], { columns: ['id', 'status', 'currency', 'accountType'], where: '"superseded_at" is null' })
const currentCounterparty = selector(ledgerCounterparties, ['tenantId', 'id'], {
  columns: ['id', 'name', 'verifiedStatus', 'riskLevel', 'trustState', 'linkedAccounts'],
  where: '"superseded_at" is null',
})
const latestBalanceOf = statement<{ amount: string; asOf: string }>(
  `select amount::text as "amount", as_of::text as "asOf" from ledger_balances
    where tenant_id = $1 and account_id = $2 and superseded_at is null and balance_type in ('available', 'current', 'closing')
    order by as_of desc, case balance_type when 'available' then 0 when 'current' then 1 else 2 end limit 1`,
)
const detailsChangedOf = statement<{ first: Date | null; details: Date | null }>(
  `select (select min(created_at) from ledger_counterparties where tenant_id = $1 and id = $2) as "first",
          (select max(created_at) from ledger_entity_keys
            where tenant_id = $1 and kind = 'counterparty' and entity_id = $2 and (key like 'iban:%' or key like 'wallet:%')) as "details"`,
)
const namedByOf = statement<{ named: boolean }>(
  `select exists (select 1 from ledger_entity_keys where tenant_id = $1 and kind = 'counterparty' and key = any($3::text[]) and entity_id = $2)
       or ($4::boolean and exists (select 1 from ledger_counterparties where tenant_id = $1 and id = $2 and superseded_at is null)) as "named"`,
)

export function createLedgerQueries(): LedgerQueries {
  return {
    async recordAsOf(executor, tenantId, id, asOf) {
      const kind = ledgerRecordKindOf(id)
      if (kind === undefined) return undefined
      // Every Ledger table has the version columns read here; one type stands for them.
      const table = recordTables[kind].table as unknown as typeof ledgerAccounts
      const visible: SQL =
        asOf === undefined ? isNull(table.supersededAt) : and(lte(table.updatedAt, asOf), or(isNull(table.supersededAt), gt(table.supersededAt, asOf)))!
      const [row] = await executor.select().from(table).where(and(eq(table.tenantId, tenantId), eq(table.id, id), visible)).limit(1)
      return row === undefined ? undefined : recordVersionOf(kind, row)
    },

    async recordVersions(executor, tenantId, id, options) {
      const kind = ledgerRecordKindOf(id)
      if (kind === undefined) return []
      // Every Ledger table has the version columns read here; one type stands for them.
      const table = recordTables[kind].table as unknown as typeof ledgerAccounts
      // Served by the table's (tenant_id, id, version) unique index.
      const rows = await executor
        .select()
        .from(table)
        .where(and(eq(table.tenantId, tenantId), eq(table.id, id)))
        .orderBy(asc(table.version))
        .offset(options.offset)
        .limit(options.limit)
      return rows.map((row) => recordVersionOf(kind, row))
    },

    async transactionTotals(executor, tenantId, selection, asOf) {
      const t = ledgerTransactions
      const rows = await executor
        .select({ currency: t.currency, direction: t.direction, count: sql<number>`count(*)::int`, total: sql<string>`sum(${t.amount})::text` })
        .from(t)
        .where(transactionsWhere(tenantId, selection, asOf))
        .groupBy(t.currency, t.direction)
        .orderBy(asc(t.currency), asc(t.direction))
      return rows.map((row) => ({ ...row, count: Number(row.count) }))
    },

    async citedTransactions(executor, tenantId, selection, asOf, limit) {
      const t = ledgerTransactions
      return executor
        .select({
          id: t.id,
          versionId: t.versionId,
          evidenceIds: t.evidenceIds,
          transactionDate: t.transactionDate,
          amount: t.amount,
          currency: t.currency,
          direction: t.direction,
          description: t.description,
          accountId: t.accountId,
          counterpartyId: t.counterpartyId,
        })
        .from(t)
        .where(transactionsWhere(tenantId, selection, asOf))
        .orderBy(asc(t.transactionDate), asc(t.id))
        .limit(limit)
    },

    async invoiceTotals(executor, tenantId, selection, asOf) {
      const i = ledgerInvoices
      const rows = await executor
        .select({
          status: i.status,
          currency: i.currency,
          count: sql<number>`count(*)::int`,
          total: sql<string>`sum(${i.total})::text`,
          outstanding: sql<string>`sum(greatest(${i.total} - ${i.amountPaid}, 0))::text`,
        })
        .from(i)
        .where(invoicesWhere(tenantId, selection, asOf))
        .groupBy(i.status, i.currency)
        .orderBy(asc(i.status), asc(i.currency))
      return rows.map((row) => ({ ...row, count: Number(row.count) }))
    },

    async citedInvoices(executor, tenantId, selection, asOf, limit) {
      const i = ledgerInvoices
      return executor
        .select({
          id: i.id,
          versionId: i.versionId,
          evidenceIds: i.evidenceIds,
          invoiceNumber: i.invoiceNumber,
          direction: i.direction,
          status: i.status,
          currency: i.currency,
          total: i.total,
          amountPaid: i.amountPaid,
          dueDate: i.dueDate,
          counterpartyId: i.counterpartyId,
        })
        .from(i)
        .where(invoicesWhere(tenantId, selection, asOf))
        .orderBy(sql`${i.dueDate} asc nulls last`, asc(i.id))
        .limit(limit)
    },

    async obligationTotals(executor, tenantId, selection, asOf) {
      const o = ledgerObligations
      const rows = await executor
        .select({ currency: o.currency, recurrence: o.recurrence, count: sql<number>`count(*)::int`, total: sql<string>`sum(${o.amount})::text` })
        .from(o)
        .where(obligationsWhere(tenantId, selection, asOf))
        .groupBy(o.currency, o.recurrence)
        .orderBy(asc(o.currency), sql`${o.recurrence} asc nulls last`)
      return rows.map((row) => ({ ...row, count: Number(row.count) }))
    },

    async citedObligations(executor, tenantId, selection, asOf, limit) {
      const o = ledgerObligations
      return executor
        .select({
          id: o.id,
          versionId: o.versionId,
          evidenceIds: o.evidenceIds,
          reference: o.reference,
          obligationType: o.obligationType,
          description: o.description,
          amount: o.amount,
          currency: o.currency,
          dueDate: o.dueDate,
          recurrence: o.recurrence,
          counterpartyId: o.counterpartyId,
        })
        .from(o)
        .where(obligationsWhere(tenantId, selection, asOf))
        .orderBy(sql`${o.dueDate} asc nulls last`, asc(o.id))
        .limit(limit)
    },

    async namedIn(executor, tenantId, name, asOf) {
      const needle = name.toLowerCase()
      const c = ledgerCounterparties
      const a = ledgerAccounts
      const [counterparties, accounts, categories] = await Promise.all([
        executor
          .select({ id: c.id, name: c.name })
          .from(c)
          .where(and(eq(c.tenantId, tenantId), visibleAt(c, asOf), or(sql`position(${needle} in lower(${c.name})) > 0`, sql`exists (select 1 from unnest(${c.aliases}) as alias where position(${needle} in lower(alias)) > 0)`)))
          .orderBy(asc(c.id))
          .limit(5),
        executor
          .select({ id: a.id, name: a.name })
          .from(a)
          .where(and(eq(a.tenantId, tenantId), visibleAt(a, asOf), sql`position(${needle} in lower(${a.name})) > 0`))
          .orderBy(asc(a.id))
          .limit(5),
        // The tenant's distinct categories by a loose index scan of ledger_transactions_category_idx (one
        // probe per category, not per transaction); categories are labels, read from the current Ledger.
        queryRows<{ category_id: string }>(
          executor,
          sql`with recursive categories as (
                (select category_id from ledger_transactions
                  where tenant_id = ${tenantId} and superseded_at is null and category_id is not null
                  order by category_id limit 1)
                union all
                select (select category_id from ledger_transactions
                         where tenant_id = ${tenantId} and superseded_at is null and category_id > categories.category_id
                         order by category_id limit 1)
                  from categories where categories.category_id is not null
              )
              select category_id from categories
               where category_id is not null and position(${needle} in lower(category_id)) > 0
               order by category_id limit 5`,
        ),
      ])
      return { counterparties, accounts, categories: categories.map((row) => row.category_id) }
    },

    async citedEntities(executor, tenantId, kind, ids, asOf) {
      if (ids.length === 0) return []
      const table = kind === 'account' ? ledgerAccounts : ledgerCounterparties
      return executor
        .select({ id: table.id, versionId: table.versionId, evidenceIds: table.evidenceIds })
        .from(table)
        .where(and(eq(table.tenantId, tenantId), inArray(table.id, [...ids]), visibleAt(table, asOf)))
        .orderBy(asc(table.id))
    },

    async dataPresence(executor, tenantId) {
      const t = ledgerTransactions
      const i = ledgerInvoices
      const o = ledgerObligations
      const exists = async (table: VersionedTable, condition: SQL | undefined) => {
        const rows = await executor.select({ one: sql<number>`1` }).from(table).where(and(eq(table.tenantId, tenantId), isNull(table.supersededAt), condition)).limit(1)
        return rows.length > 0
      }
      const [transactions, outflows, inflows, receivableInvoices, payableInvoices, payableObligations, subscriptions] = await Promise.all([
        exists(t, undefined),
        exists(t, eq(t.direction, 'outflow')),
        exists(t, eq(t.direction, 'inflow')),
        exists(i, eq(i.direction, 'receivable')),
        exists(i, eq(i.direction, 'payable')),
        exists(o, eq(o.direction, 'payable')),
        exists(o, eq(o.obligationType, 'subscription')),
      ])
      return { transactions, outflows, inflows, receivableInvoices, payableInvoices, payableObligations, subscriptions }
    },

    async currentLedger(executor, tenantId) {
      const current = <T extends typeof ledgerAccounts | typeof ledgerBalances | typeof ledgerTransactions | typeof ledgerCounterparties | typeof ledgerInvoices | typeof ledgerObligations>(table: T) =>
        and(eq(table.tenantId, tenantId), isNull(table.supersededAt))
      const c = ledgerCounterparties
      const [accounts, balances, transactions, counterparties, firstRecorded, invoices, obligations] = await Promise.all([
        executor.select().from(ledgerAccounts).where(current(ledgerAccounts)).orderBy(asc(ledgerAccounts.id)),
        executor.select().from(ledgerBalances).where(current(ledgerBalances)).orderBy(asc(ledgerBalances.id)),
        executor.select().from(ledgerTransactions).where(current(ledgerTransactions)).orderBy(asc(ledgerTransactions.id)),
        executor.select().from(c).where(current(c)).orderBy(asc(c.id)),
        executor.select({ id: c.id, at: sql<Date | string>`min(${c.createdAt})` }).from(c).where(eq(c.tenantId, tenantId)).groupBy(c.id),
        executor.select().from(ledgerInvoices).where(current(ledgerInvoices)).orderBy(asc(ledgerInvoices.id)),
        executor.select().from(ledgerObligations).where(current(ledgerObligations)).orderBy(asc(ledgerObligations.id)),
      ])
      // The latest balance per account and type (the newest as_of; the id breaks a tie).
      const latest = new Map<string, (typeof balances)[number]>()
      for (const balance of balances) {
        const key = `${balance.accountId}|${balance.balanceType}`
        const kept = latest.get(key)
        if (kept === undefined || balance.asOf > kept.asOf || (balance.asOf === kept.asOf && balance.id > kept.id)) latest.set(key, balance)
      }
      const firstAt = new Map(firstRecorded.map((row) => [row.id, new Date(row.at).toISOString()]))
      return {
        accounts: accounts.map(accountView),
        balances: [...latest.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map(balanceView),
        transactions: transactions.map(transactionView),
        counterparties: counterparties.map((row) => ({ ...counterpartyView(row), first_recorded_at: firstAt.get(row.id) ?? row.createdAt.toISOString() })),
        invoices: invoices.map(invoiceView),
        obligations: obligations.map((row) => {
          const outstanding = (row.metadata as Record<string, unknown> | null)?.['outstanding']
          return { ...obligationView(row), outstanding: typeof outstanding === 'string' ? outstanding : typeof outstanding === 'number' ? String(outstanding) : null }
        }),
      }
    },

    async findAccount(executor, tenantId, accountId) {
      const [row] = await currentAccount(executor, [tenantId, accountId])
      return row
    },

    async activeAccountsIn(executor, tenantId, currency) {
      const a = ledgerAccounts
      return executor
        .select(accountFields)
        .from(a)
        .where(and(eq(a.tenantId, tenantId), eq(a.currency, currency), eq(a.status, 'active'), isNull(a.supersededAt)))
        .orderBy(asc(a.id))
        .limit(100)
    },

    async findCounterparty(executor, tenantId, counterpartyId) {
      const [row] = await currentCounterparty(executor, [tenantId, counterpartyId])
      if (row === undefined) return undefined
      const { linkedAccounts, ...counterparty } = row
      const walletAddresses = linkedAccounts.filter((account) => account.startsWith('wallet:')).map((account) => account.slice('wallet:'.length).toLowerCase())
      return { ...counterparty, walletAddresses }
    },

    async findInvoice(executor, tenantId, invoiceId) {
      const i = ledgerInvoices
      const [row] = await executor
        .select({
          id: i.id,
          direction: i.direction,
          invoiceNumber: i.invoiceNumber,
          currency: i.currency,
          total: i.total,
          amountPaid: i.amountPaid,
          status: i.status,
          counterpartyId: i.counterpartyId,
          evidenceIds: i.evidenceIds,
        })
        .from(i)
        .where(and(eq(i.tenantId, tenantId), eq(i.id, invoiceId), isNull(i.supersededAt)))
        .limit(1)
      return row
    },

    async findObligation(executor, tenantId, obligationId) {
      const o = ledgerObligations
      const [row] = await executor
        .select({ id: o.id, direction: o.direction, status: o.status, currency: o.currency, amount: o.amount, counterpartyId: o.counterpartyId, invoiceId: o.invoiceId })
        .from(o)
        .where(and(eq(o.tenantId, tenantId), eq(o.id, obligationId), isNull(o.supersededAt)))
        .limit(1)
      return row
    },

    async latestBalance(executor, tenantId, accountId) {
      return latestBalanceOf.first(executor, [tenantId, accountId])
    },

    async counterpartyDetailsChangedAt(executor, tenantId, counterpartyId) {
      const row = await detailsChangedOf.first(executor, [tenantId, counterpartyId])
      if (row?.first == null || row.details == null) return null
      // Keys recorded with the counterparty's first version came with it; a later one is a change of details.
      return row.details.getTime() > row.first.getTime() ? row.details : null
    },

    async counterpartyNamedBy(executor, tenantId, counterpartyId, keys) {
      if (keys.length === 0) return false
      // A counterparty's first key needs no row: its id derives from it (and then the counterparty must be current).
      const derived = keys.some((key) => entityIdOf('counterparty', tenantId, key) === counterpartyId)
      const row = await namedByOf.first(executor, [tenantId, counterpartyId, [...keys], derived])
      return row?.named === true
    },

    async outflowsInPeriod(executor, tenantId, options) {
      const t = ledgerTransactions
      return executor
        .select({ id: t.id, amount: t.amount, currency: t.currency, counterpartyId: t.counterpartyId, transactionDate: t.transactionDate })
        .from(t)
        .where(
          and(
            eq(t.tenantId, tenantId),
            isNull(t.supersededAt),
            eq(t.direction, 'outflow'),
            gte(t.transactionDate, options.from),
            lte(t.transactionDate, options.to),
            options.after === undefined
              ? undefined
              : or(gt(t.transactionDate, options.after.transactionDate), and(eq(t.transactionDate, options.after.transactionDate), gt(t.id, options.after.id))),
          ),
        )
        // Served by ledger_transactions_date_idx (tenant_id, transaction_date, id) where superseded_at is null.
        .orderBy(asc(t.transactionDate), asc(t.id))
        .limit(options.limit)
    },
  }
}
