/**
 * What normalization and the Ledger read routes need from storage. Every method takes the tenant id.
 * Ledger tables are versioned (docs/raw-and-ledger.md): writers read current versions, insert new ones
 * and close the old ones (`superseded_at`), nothing else.
 */
import type { Executor, Tx } from '../../platform/db/database.ts'
import type { ledgerAccounts, ledgerBalances, ledgerCounterparties, ledgerInvoices, ledgerJobs, ledgerObligations, ledgerReconciliationMatches, ledgerTransactions } from './ledger.tables.ts'
import type { Account, Balance, Counterparty, Evidence, Invoice, KeyKind, LedgerKind, Obligation, ReconciliationMatch, Transaction } from './domain/entities.ts'

export { ledgerKinds, type KeyKind, type LedgerKind } from './domain/entities.ts'

export type AccountRow = typeof ledgerAccounts.$inferSelect
export type BalanceRow = typeof ledgerBalances.$inferSelect
export type CounterpartyRow = typeof ledgerCounterparties.$inferSelect
export type TransactionRow = typeof ledgerTransactions.$inferSelect
export type InvoiceRow = typeof ledgerInvoices.$inferSelect
export type ObligationRow = typeof ledgerObligations.$inferSelect
export type MatchRow = typeof ledgerReconciliationMatches.$inferSelect
export type LedgerJobRow = typeof ledgerJobs.$inferSelect
/** A job as first written: no progress yet. */
export type NewLedgerJob = Omit<LedgerJobRow, 'progress'> & Partial<Pick<LedgerJobRow, 'progress'>>
/** A parsed row as normalization reads it: everything but its extraction time, which nothing here uses. */
export type { ArtifactRow, ParsedRowRecord } from './ports.ts'
import type { ArtifactRow, ParsedRowRecord } from './ports.ts'

export interface LedgerRowByKind {
  account: AccountRow
  balance: BalanceRow
  counterparty: CounterpartyRow
  transaction: TransactionRow
  invoice: InvoiceRow
  obligation: ObligationRow
  reconciliation_match: MatchRow
}

/**
 * Each table's row is the domain's entity, field for field, and a parsed row is evidence: checked here at
 * compile time, so rows pass to the rules of domain/ as they are read, with no mapping per row.
 */
type SameShape<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
type Holds<T extends true> = T
export type RowsAreEntities = [
  Holds<SameShape<AccountRow, Account>>,
  Holds<SameShape<BalanceRow, Balance>>,
  Holds<SameShape<CounterpartyRow, Counterparty>>,
  Holds<SameShape<TransactionRow, Transaction>>,
  Holds<SameShape<InvoiceRow, Invoice>>,
  Holds<SameShape<ObligationRow, Obligation>>,
  Holds<SameShape<MatchRow, ReconciliationMatch>>,
  Holds<ParsedRowRecord extends Evidence ? true : false>,
]

/** A point in system time for reads: undefined is "now" (current versions). */
export type AsOf = Date | undefined

export interface TransactionFilter {
  readonly accountId?: string | undefined
  readonly counterpartyId?: string | undefined
  readonly direction?: TransactionRow['direction'] | undefined
  readonly status?: TransactionRow['status'] | undefined
  readonly since?: string | undefined
  readonly until?: string | undefined
  /** Position after which the page starts (newest first: transaction_date, then id, descending). */
  readonly before?: { transactionDate: string; id: string } | undefined
  readonly limit: number
  readonly asOf: AsOf
}

export interface LedgerStore {
  /** Serializes normalization per tenant: two runs resolving the same keys cannot create two entities. */
  lockTenant(tx: Tx, tenantId: string): Promise<void>
  /**
   * The same lock for a whole session (a dedicated connection, across its transactions) until
   * `releaseTenant`: a pipelined run holds it while its reads run on other connections.
   */
  holdTenant(connection: Executor, tenantId: string): Promise<void>
  releaseTenant(connection: Executor, tenantId: string): Promise<void>
  /** Lets this transaction commit without waiting for its WAL to reach disk (synchronous_commit off). */
  relaxCommit(tx: Tx): Promise<void>
  findEntityIds(executor: Executor, tenantId: string, kind: KeyKind, keys: readonly string[]): Promise<Map<string, string>>
  addKeys(tx: Tx, tenantId: string, kind: KeyKind, entries: ReadonlyArray<{ key: string; entityId: string }>, at: Date): Promise<void>

  currentVersions<K extends LedgerKind>(executor: Executor, kind: K, tenantId: string, ids: readonly string[]): Promise<Map<string, LedgerRowByKind[K]>>
  insertVersions<K extends LedgerKind>(tx: Tx, kind: K, rows: ReadonlyArray<LedgerRowByKind[K]>): Promise<void>
  supersede(tx: Tx, kind: LedgerKind, tenantId: string, versionIds: readonly string[], at: Date): Promise<void>

  /** Current transactions of these accounts with these amounts in a date window: dedupe candidates. */
  transactionCandidates(executor: Executor, tenantId: string, probes: ReadonlyArray<{ accountId: string; amount: string }>, dateFrom: string, dateTo: string): Promise<TransactionRow[]>

  findArtifact(executor: Executor, tenantId: string, artifactId: string): Promise<ArtifactRow | undefined>
  /** An artifact's parsed rows of one parser version, in row order, after `afterRowIndex`. */
  parsedRows(executor: Executor, tenantId: string, artifactId: string, parser: string, parserVersion: string, afterRowIndex: number, limit: number): Promise<ParsedRowRecord[]>
  /** How many rows of one parser version the artifact has. */
  countParsedRows(executor: Executor, tenantId: string, artifactId: string, parser: string, parserVersion: string): Promise<number>
  findParsedRow(executor: Executor, tenantId: string, parsedRowId: string): Promise<ParsedRowRecord | undefined>
  /** The `extracted` records of these parsed rows: a transaction's evidence, read again by reconciliation. */
  parsedRecords(executor: Executor, tenantId: string, parsedRowIds: readonly string[]): Promise<Array<{ id: string; extracted: unknown }>>
  /** The `extracted` records of an artifact's rows (one parser version) before `beforeRowIndex` that belong to `day`. */
  parsedRecordsOfDay(executor: Executor, tenantId: string, artifactId: string, parser: string, parserVersion: string, day: string, beforeRowIndex: number): Promise<unknown[]>

  /** One entity at a point in system time (its current version when `asOf` is undefined). */
  findEntity<K extends LedgerKind>(executor: Executor, kind: K, tenantId: string, id: string, asOf: AsOf): Promise<LedgerRowByKind[K] | undefined>
  listTransactions(executor: Executor, tenantId: string, filter: TransactionFilter): Promise<TransactionRow[]>
  /** Entities of a kind ordered by id, after `afterId`, filtered by equality (and containment) on the given columns. */
  listEntities<K extends LedgerKind>(
    executor: Executor,
    kind: K,
    tenantId: string,
    filter: {
      equals?: Readonly<Record<string, string | undefined>>
      /** Array columns that must contain the value. */
      arrayContains?: Readonly<Record<string, string | undefined>>
      afterId?: string | undefined
      limit: number
      asOf: AsOf
    },
  ): Promise<Array<LedgerRowByKind[K]>>
  /** The latest balance of each account (or one account) with `as_of` on or before the date. */
  latestBalances(executor: Executor, tenantId: string, options: { accountId?: string; onOrBefore: string | undefined; asOf: AsOf }): Promise<BalanceRow[]>

  /** Every current entity of a kind (reconciliation's working set: accounts, balances, invoices, obligations, matches). */
  allCurrent<K extends LedgerKind>(executor: Executor, kind: K, tenantId: string): Promise<Array<LedgerRowByKind[K]>>
  /** Current transactions with one of these (currency, amount) pairs dated in the probe's window. */
  transactionsByAmount(executor: Executor, tenantId: string, probes: ReadonlyArray<{ currency: string; amount: string; from: string; to: string }>): Promise<TransactionRow[]>
  /** Current transactions dated in the probe's window whose description contains the text (letters and digits only, case-insensitive). */
  transactionsCiting(executor: Executor, tenantId: string, probes: ReadonlyArray<{ text: string; from: string; to: string }>): Promise<TransactionRow[]>
  /** Per range, the sum of an account's settled movements (not pending, failed or reversed) dated from..to inclusive. */
  movementSums(executor: Executor, tenantId: string, ranges: ReadonlyArray<{ accountId: string; from: string; to: string }>): Promise<string[]>
  /** Current on-chain transactions whose transaction hash appears on more than one of the tenant's transactions. */
  sharedHashTransactions(executor: Executor, tenantId: string): Promise<TransactionRow[]>
  /** Current outflows (negative amounts) of these accounts that are not failed or reversed. */
  outflowsOf(executor: Executor, tenantId: string, accountIds: readonly string[]): Promise<TransactionRow[]>
  /**
   * Current transactions with one of these counterparties whose direction is not `transfer`: those a
   * reconciliation run checks again for a transfer to an account that exists by now.
   */
  nonTransfersWith(executor: Executor, tenantId: string, counterpartyIds: readonly string[]): Promise<TransactionRow[]>
  /** Current transactions recorded as possible copies of others (provenance ambiguous). */
  ambiguousTransactions(executor: Executor, tenantId: string): Promise<TransactionRow[]>

  insertJob(tx: Tx, job: NewLedgerJob): Promise<void>
  findJob(executor: Executor, tenantId: string, jobId: string): Promise<LedgerJobRow | undefined>
  /** The latest normalization job of each of these artifacts (by creation), keyed by artifact id. */
  latestNormalizations(executor: Executor, tenantId: string, artifactIds: readonly string[]): Promise<Map<string, LedgerJobRow>>
  updateJob(executor: Executor, tenantId: string, jobId: string, values: Partial<Omit<LedgerJobRow, 'id' | 'tenantId'>>): Promise<void>
}
