/**
 * The Ledger's reads: listings and single entities (every one accepts an as-of time in system time),
 * balances, and the job route. Each is `name(context, input)` like the commands, with the path
 * parameters in the input, so an agent tool can call it without an HTTP request; the tenant is the
 * context's principal's. Reads lock nothing, audit nothing and emit nothing.
 */
import { digestOf } from '../../kernel/audit-record.ts'
import { type CommandContext, requirePrincipal } from '../../kernel/context.ts'
import type { PageSizeBounds, CursorCodec } from '../../kernel/cursor.ts'
import { AppError, type ErrorCode } from '../../kernel/errors.ts'
import type { Database } from '../../platform/db/database.ts'
import type { AsOf, LedgerKind, LedgerRowByKind, LedgerStore, TransactionRow } from './ledger.store.ts'
import {
  accountView,
  balanceView,
  counterpartyView,
  invoiceView,
  jobView,
  matchView,
  reconcileJobView,
  obligationView,
  transactionView,
  type AccountView,
  type BalanceView,
  type CounterpartyView,
  type InvoiceView,
  type JobView,
  type ReconcileJobView,
  type MatchView,
  type ObligationView,
  type TransactionView,
} from './ledger.views.ts'

export const transactionPageRows = { defaultRows: 100, maxRows: 1000 } as const satisfies PageSizeBounds
export const accountPageRows = { defaultRows: 50, maxRows: 500 } as const satisfies PageSizeBounds
/** Counterparties, invoices, obligations and reconciliation matches. */
export const entityPageRows = { defaultRows: 50, maxRows: 500 } as const satisfies PageSizeBounds

type Page<Key extends string, View> = { [K in Key]: View[] } & { next_cursor: string | null }

interface PageQuery {
  readonly limit?: number | undefined
  readonly cursor?: string | undefined
  /** System time: the Ledger as it was recorded at this instant (ISO 8601); now when omitted. */
  readonly as_of?: string | undefined
}

/** A single entity's read: as of a time in system time, now when omitted. */
interface AsOfRead {
  readonly as_of?: string | undefined
}

export interface TransactionQuery extends PageQuery {
  readonly account_id?: string | undefined
  readonly counterparty_id?: string | undefined
  readonly direction?: TransactionRow['direction'] | undefined
  readonly status?: TransactionRow['status'] | undefined
  readonly since?: string | undefined
  readonly until?: string | undefined
}

export interface ObligationQuery extends PageQuery {
  readonly scenario?: 'ap' | 'ar' | undefined
  readonly direction?: 'payable' | 'receivable' | undefined
  readonly type?: LedgerRowByKind['obligation']['obligationType'] | undefined
  readonly status?: LedgerRowByKind['obligation']['status'] | undefined
  readonly counterparty_id?: string | undefined
}

export interface LedgerReads {
  listTransactions(context: CommandContext, input: TransactionQuery): Promise<Page<'transactions', TransactionView>>
  transaction(context: CommandContext, input: AsOfRead & { transaction_id: string }): Promise<TransactionView>
  listAccounts(context: CommandContext, input: PageQuery & { status?: string | undefined; account_type?: string | undefined }): Promise<Page<'accounts', AccountView>>
  account(context: CommandContext, input: AsOfRead & { account_id: string }): Promise<AccountView & { latest_balance: BalanceView | null }>
  balances(context: CommandContext, input: { as_of?: string | undefined; known_at?: string | undefined; account_id?: string | undefined }): Promise<{ as_of: string | null; balances: BalanceView[] }>
  listCounterparties(
    context: CommandContext,
    input: PageQuery & { type?: string | undefined; trust_state?: string | undefined; verified_status?: string | undefined; risk_level?: string | undefined },
  ): Promise<Page<'counterparties', CounterpartyView>>
  counterparty(context: CommandContext, input: AsOfRead & { counterparty_id: string }): Promise<CounterpartyView>
  listInvoices(
    context: CommandContext,
    input: PageQuery & { direction?: 'payable' | 'receivable' | undefined; status?: string | undefined; counterparty_id?: string | undefined },
  ): Promise<Page<'invoices', InvoiceView> & { direction: 'payable' | 'receivable' }>
  invoice(context: CommandContext, input: AsOfRead & { invoice_id: string }): Promise<InvoiceView>
  listObligations(context: CommandContext, input: ObligationQuery): Promise<Page<'obligations', ObligationView>>
  obligation(context: CommandContext, input: AsOfRead & { obligation_id: string }): Promise<ObligationView>
  listMatches(
    context: CommandContext,
    input: PageQuery & { match_type?: string | undefined; status?: string | undefined; subject?: string | undefined },
  ): Promise<Page<'matches', MatchView>>
  /** A normalization or reconciliation job. */
  job(context: CommandContext, input: { job_id: string }): Promise<JobView>
  /** A reconciliation job (the job_id POST /v1/ledger/reconcile answers); any other id is ledger_job_not_found. */
  reconcileJob(context: CommandContext, input: { job_id: string }): Promise<ReconcileJobView>
}

export interface LedgerReadsDeps {
  readonly db: Database
  readonly store: LedgerStore
  readonly cursors: CursorCodec
}

/** The kinds with a single-entity read, and the 404 each answers for an unknown (or another tenant's) id. */
const notFound = {
  transaction: 'ledger_transaction_not_found',
  account: 'ledger_account_not_found',
  counterparty: 'ledger_counterparty_not_found',
  invoice: 'ledger_invoice_not_found',
  obligation: 'obligation_not_found',
} as const satisfies Partial<Record<LedgerKind, ErrorCode>>
type ReadableKind = keyof typeof notFound

function parseAsOf(value: string | undefined): AsOf {
  if (value === undefined) return undefined
  const at = new Date(value)
  if (Number.isNaN(at.getTime())) throw new AppError('request_params_invalid', 'as_of must be an ISO 8601 timestamp.', { issues: [{ path: 'as_of', message: 'not a timestamp' }] })
  return at
}

/** The calendar day a date or timestamp names, as written (`2026-03-01T23:00:00-05:00` is 2026-03-01). */
const dayOf = (value: string | undefined) => value?.slice(0, 10)

const tenantOf = (context: CommandContext) => requirePrincipal(context).tenantId

export function createLedgerReads(deps: LedgerReadsDeps): LedgerReads {
  const { db, store, cursors } = deps

  async function findOrFail<K extends ReadableKind>(kind: K, tenantId: string, id: string, asOf: string | undefined): Promise<LedgerRowByKind[K]> {
    const row = await store.findEntity(db.orm, kind, tenantId, id, parseAsOf(asOf))
    if (row === undefined) throw new AppError(notFound[kind])
    return row
  }

  /** A page of entities ordered by id, with a cursor bound to the listing and its filters. */
  async function entityPage<K extends LedgerKind, V>(
    kind: K,
    tenantId: string,
    query: PageQuery,
    bounds: PageSizeBounds,
    filter: { equals?: Readonly<Record<string, string | undefined>>; arrayContains?: Readonly<Record<string, string | undefined>> },
    view: (row: LedgerRowByKind[K]) => V,
  ): Promise<{ rows: V[]; next_cursor: string | null }> {
    const limit = query.limit ?? bounds.defaultRows
    const listing = `ledger:${kind}:${tenantId}:${digestOf({ ...filter, as_of: query.as_of ?? null })}`
    const afterId = query.cursor === undefined ? undefined : String(cursors.decode(listing, query.cursor).after_id)
    const rows = await store.listEntities(db.orm, kind, tenantId, { ...filter, afterId, limit: limit + 1, asOf: parseAsOf(query.as_of) })
    const page = rows.slice(0, limit)
    const last = page.at(-1)
    return { rows: page.map(view), next_cursor: rows.length > limit && last !== undefined ? cursors.encode(listing, { after_id: last.id }) : null }
  }

  return {
    async listTransactions(context, query) {
      const tenantId = tenantOf(context)
      const limit = query.limit ?? transactionPageRows.defaultRows
      const filters = {
        account_id: query.account_id,
        counterparty_id: query.counterparty_id,
        direction: query.direction,
        status: query.status,
        since: dayOf(query.since),
        until: dayOf(query.until),
        as_of: query.as_of,
      }
      const listing = `ledger:transactions:${tenantId}:${digestOf(filters)}`
      const position = query.cursor === undefined ? undefined : cursors.decode(listing, query.cursor)
      const rows = await store.listTransactions(db.orm, tenantId, {
        accountId: query.account_id,
        counterpartyId: query.counterparty_id,
        direction: query.direction,
        status: query.status,
        since: filters.since,
        until: filters.until,
        before: position === undefined ? undefined : { transactionDate: String(position.date), id: String(position.id) },
        limit: limit + 1,
        asOf: parseAsOf(query.as_of),
      })
      const page = rows.slice(0, limit)
      const last = page.at(-1)
      return {
        transactions: page.map(transactionView),
        next_cursor: rows.length > limit && last !== undefined ? cursors.encode(listing, { date: last.transactionDate, id: last.id }) : null,
      }
    },

    async transaction(context, input) {
      return transactionView(await findOrFail('transaction', tenantOf(context), input.transaction_id, input.as_of))
    },

    async listAccounts(context, query) {
      const page = await entityPage('account', tenantOf(context), query, accountPageRows, { equals: { status: query.status, accountType: query.account_type } }, accountView)
      return { accounts: page.rows, next_cursor: page.next_cursor }
    },

    async account(context, input) {
      const tenantId = tenantOf(context)
      const row = await findOrFail('account', tenantId, input.account_id, input.as_of)
      const [latest] = await store.latestBalances(db.orm, tenantId, { accountId: input.account_id, onOrBefore: undefined, asOf: parseAsOf(input.as_of) })
      return { ...accountView(row), latest_balance: latest === undefined ? null : balanceView(latest) }
    },

    async balances(context, query) {
      const rows = await store.latestBalances(db.orm, tenantOf(context), { accountId: query.account_id, onOrBefore: dayOf(query.as_of), asOf: parseAsOf(query.known_at) })
      return { as_of: dayOf(query.as_of) ?? null, balances: rows.map(balanceView) }
    },

    async listCounterparties(context, query) {
      const page = await entityPage(
        'counterparty',
        tenantOf(context),
        query,
        entityPageRows,
        { equals: { type: query.type, trustState: query.trust_state, verifiedStatus: query.verified_status, riskLevel: query.risk_level } },
        counterpartyView,
      )
      return { counterparties: page.rows, next_cursor: page.next_cursor }
    },

    async counterparty(context, input) {
      return counterpartyView(await findOrFail('counterparty', tenantOf(context), input.counterparty_id, input.as_of))
    },

    async listInvoices(context, query) {
      // The receivables inventory unless bills are asked for.
      const direction = query.direction ?? 'receivable'
      const page = await entityPage(
        'invoice',
        tenantOf(context),
        query,
        entityPageRows,
        { equals: { direction, status: query.status, counterpartyId: query.counterparty_id } },
        invoiceView,
      )
      return { direction, invoices: page.rows, next_cursor: page.next_cursor }
    },

    async invoice(context, input) {
      return invoiceView(await findOrFail('invoice', tenantOf(context), input.invoice_id, input.as_of))
    },

    async listObligations(context, query) {
      // scenario ar selects receivables and ap payables, unless a direction is given outright.
      const direction = query.direction ?? (query.scenario === 'ar' ? 'receivable' : query.scenario === 'ap' ? 'payable' : undefined)
      const page = await entityPage(
        'obligation',
        tenantOf(context),
        query,
        entityPageRows,
        { equals: { direction, obligationType: query.type, status: query.status, counterpartyId: query.counterparty_id } },
        obligationView,
      )
      return { obligations: page.rows, next_cursor: page.next_cursor }
    },

    async obligation(context, input) {
      return obligationView(await findOrFail('obligation', tenantOf(context), input.obligation_id, input.as_of))
    },

    async listMatches(context, query) {
      const page = await entityPage(
        'reconciliation_match',
        tenantOf(context),
        query,
        entityPageRows,
        { equals: { matchType: query.match_type, status: query.status }, arrayContains: { subjectRefs: query.subject } },
        matchView,
      )
      return { matches: page.rows, next_cursor: page.next_cursor }
    },

    async job(context, input) {
      const row = await store.findJob(db.orm, tenantOf(context), input.job_id)
      if (row === undefined) throw new AppError('ledger_job_not_found')
      return jobView(row)
    },

    async reconcileJob(context, input) {
      const row = await store.findJob(db.orm, tenantOf(context), input.job_id)
      // A normalization's id names no reconciliation: 404, like an id that names nothing.
      if (row === undefined || row.kind !== 'reconcile') throw new AppError('ledger_job_not_found')
      return reconcileJobView(row)
    },
  }
}
