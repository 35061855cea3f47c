/**
 * The Ledger's public operations: reads (every one accepts an as-of time in system time), synchronous
 * normalization of one parsed row, reconciliation runs, and the counterparty trust transitions.
 *
 * Every Ledger writer — normalization batches, reconciliation, trust transitions — takes the tenant's
 * normalization lock, so two writers never race to supersede the same current version.
 */
import { digestOf } from '../../kernel/audit-record.ts'
import { type CommandContext, actorOf, auditedBy, requirePrincipal } from '../../kernel/context.ts'
import type { Tx } from '../../platform/db/database.ts'
import type { CoreDeps } from '../../platform/deps.ts'
import type { PageSizeBounds, CursorCodec } from '../../kernel/cursor.ts'
import { AppError, type ErrorCode } from '../../kernel/errors.ts'
import { nextVersion } from './domain/versions.ts'
import { allowedTrustActions, trustTransition, type TrustAction, type TrustState } from './domain/trust.ts'
import type { AsOf, LedgerKind, LedgerRowByKind, LedgerStore, TransactionRow } from './ledger.store.ts'
import {
  accountView,
  balanceView,
  counterpartyView,
  invoiceView,
  jobView,
  matchView,
  obligationView,
  transactionView,
  type AccountView,
  type BalanceView,
  type CounterpartyView,
  type InvoiceView,
  type JobView,
  type MatchView,
  type ObligationView,
  type TransactionView,
} from './ledger.views.ts'
import { counterpartyEventPayload } from './ledger.events.ts'
import { queueReconcile } from './ledger.jobs.ts'
import type { EntityResult } from './normalize/batch.ts'
import type { Normalizer } from './normalize/normalizer.ts'
import { ledgerReconcileQueue } from './ledger.jobs.ts'

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

export interface NormalizeResult {
  raw_parsed_id: string
  raw_artifact_id: string
  parser: string
  parser_version: string
  entities: EntityResult[]
}

export interface LedgerService {
  listTransactions(tenantId: string, query: TransactionQuery): Promise<Page<'transactions', TransactionView>>
  transaction(tenantId: string, id: string, asOf: string | undefined): Promise<TransactionView>
  listAccounts(tenantId: string, query: PageQuery & { status?: string | undefined; account_type?: string | undefined }): Promise<Page<'accounts', AccountView>>
  account(tenantId: string, id: string, asOf: string | undefined): Promise<AccountView & { latest_balance: BalanceView | null }>
  balances(tenantId: string, query: { as_of?: string | undefined; known_at?: string | undefined; account_id?: string | undefined }): Promise<{ as_of: string | null; balances: BalanceView[] }>
  listCounterparties(
    tenantId: string,
    query: PageQuery & { type?: string | undefined; trust_state?: string | undefined; verified_status?: string | undefined; risk_level?: string | undefined },
  ): Promise<Page<'counterparties', CounterpartyView>>
  counterparty(tenantId: string, id: string, asOf: string | undefined): Promise<CounterpartyView>
  listInvoices(
    tenantId: string,
    query: PageQuery & { direction?: 'payable' | 'receivable' | undefined; status?: string | undefined; counterparty_id?: string | undefined },
  ): Promise<Page<'invoices', InvoiceView> & { direction: 'payable' | 'receivable' }>
  invoice(tenantId: string, id: string, asOf: string | undefined): Promise<InvoiceView>
  listObligations(tenantId: string, query: ObligationQuery): Promise<Page<'obligations', ObligationView>>
  obligation(tenantId: string, id: string, asOf: string | undefined): Promise<ObligationView>
  listMatches(
    tenantId: string,
    query: PageQuery & { match_type?: string | undefined; status?: string | undefined; subject?: string | undefined },
  ): Promise<Page<'matches', MatchView>>
  normalize(context: CommandContext, input: { raw_parsed_id: string }): Promise<NormalizeResult>
  requestReconcile(context: CommandContext): Promise<JobView>
  job(tenantId: string, jobId: string): Promise<JobView>
  changeTrust(context: CommandContext, counterpartyId: string, action: TrustAction, input: { reason?: string | undefined }): Promise<CounterpartyView>
}

export interface LedgerServiceDeps extends CoreDeps {
  readonly store: LedgerStore
  readonly cursors: CursorCodec
  readonly normalizer: Normalizer
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

export function createLedgerService(deps: LedgerServiceDeps): LedgerService {
  const { db, store, cursors, audit, events, clock, jobs, normalizer } = deps

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

  /** Writes the next version of an entity (under the tenant's lock, held by the caller). */
  async function writeVersion<K extends LedgerKind>(tx: Tx, kind: K, current: LedgerRowByKind[K], draft: LedgerRowByKind[K]) {
    const next = nextVersion(current, draft, clock.now())
    if (next === undefined) return current
    await store.supersede(tx, kind, current.tenantId, [current.versionId], next.updatedAt)
    await store.insertVersions(tx, kind, [next])
    return next
  }

  return {
    async listTransactions(tenantId, query) {
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

    async transaction(tenantId, id, asOf) {
      return transactionView(await findOrFail('transaction', tenantId, id, asOf))
    },

    async listAccounts(tenantId, query) {
      const page = await entityPage('account', tenantId, query, accountPageRows, { equals: { status: query.status, accountType: query.account_type } }, accountView)
      return { accounts: page.rows, next_cursor: page.next_cursor }
    },

    async account(tenantId, id, asOf) {
      const row = await findOrFail('account', tenantId, id, asOf)
      const [latest] = await store.latestBalances(db.orm, tenantId, { accountId: id, onOrBefore: undefined, asOf: parseAsOf(asOf) })
      return { ...accountView(row), latest_balance: latest === undefined ? null : balanceView(latest) }
    },

    async balances(tenantId, query) {
      const rows = await store.latestBalances(db.orm, tenantId, { accountId: query.account_id, onOrBefore: dayOf(query.as_of), asOf: parseAsOf(query.known_at) })
      return { as_of: dayOf(query.as_of) ?? null, balances: rows.map(balanceView) }
    },

    async listCounterparties(tenantId, query) {
      const page = await entityPage(
        'counterparty',
        tenantId,
        query,
        entityPageRows,
        { equals: { type: query.type, trustState: query.trust_state, verifiedStatus: query.verified_status, riskLevel: query.risk_level } },
        counterpartyView,
      )
      return { counterparties: page.rows, next_cursor: page.next_cursor }
    },

    async counterparty(tenantId, id, asOf) {
      return counterpartyView(await findOrFail('counterparty', tenantId, id, asOf))
    },

    async listInvoices(tenantId, query) {
      // The receivables inventory unless bills are asked for.
      const direction = query.direction ?? 'receivable'
      const page = await entityPage(
        'invoice',
        tenantId,
        query,
        entityPageRows,
        { equals: { direction, status: query.status, counterpartyId: query.counterparty_id } },
        invoiceView,
      )
      return { direction, invoices: page.rows, next_cursor: page.next_cursor }
    },

    async invoice(tenantId, id, asOf) {
      return invoiceView(await findOrFail('invoice', tenantId, id, asOf))
    },

    async listObligations(tenantId, query) {
      // scenario ar selects receivables and ap payables, unless a direction is given outright.
      const direction = query.direction ?? (query.scenario === 'ar' ? 'receivable' : query.scenario === 'ap' ? 'payable' : undefined)
      const page = await entityPage(
        'obligation',
        tenantId,
        query,
        entityPageRows,
        { equals: { direction, obligationType: query.type, status: query.status, counterpartyId: query.counterparty_id } },
        obligationView,
      )
      return { obligations: page.rows, next_cursor: page.next_cursor }
    },

    async obligation(tenantId, id, asOf) {
      return obligationView(await findOrFail('obligation', tenantId, id, asOf))
    },

    async listMatches(tenantId, query) {
      const page = await entityPage(
        'reconciliation_match',
        tenantId,
        query,
        entityPageRows,
        { equals: { matchType: query.match_type, status: query.status }, arrayContains: { subjectRefs: query.subject } },
        matchView,
      )
      return { matches: page.rows, next_cursor: page.next_cursor }
    },

    async normalize(context, input) {
      const principal = requirePrincipal(context)
      const row = await store.findParsedRow(db.orm, principal.tenantId, input.raw_parsed_id)
      if (row === undefined) throw new AppError('ledger_parsed_row_not_found')
      const artifact = await store.findArtifact(db.orm, principal.tenantId, row.rawArtifactId)
      if (artifact?.status === 'tombstoned') throw new AppError('raw_artifact_tombstoned')
      const result = await normalizer.normalizeParsedRow(principal.tenantId, row.id, { actor: actorOf(principal), requestId: context.requestId })
      if (result === undefined) throw new AppError('ledger_parsed_row_not_found')
      if (result.rejected) throw new AppError('ledger_parsed_row_unsupported')
      return { raw_parsed_id: row.id, raw_artifact_id: row.rawArtifactId, parser: row.parser, parser_version: row.parserVersion, entities: [...result.entities] }
    },

    async requestReconcile(context) {
      const principal = requirePrincipal(context)
      const job = await db.transaction(async (tx) => {
        const row = await queueReconcile(deps, tx, principal.tenantId, actorOf(principal).id)
        await audit.record(tx, auditedBy(context, { layer: 'ledger', action: 'ledger.reconcile_requested', entity: { type: 'ledger_job', id: row.id } }))
        return row
      })
      jobs.nudge(ledgerReconcileQueue)
      return jobView(job)
    },

    async job(tenantId, jobId) {
      const row = await store.findJob(db.orm, tenantId, jobId)
      if (row === undefined) throw new AppError('ledger_job_not_found')
      return jobView(row)
    },

    async changeTrust(context, counterpartyId, action, input) {
      const principal = requirePrincipal(context)
      const tenantId = principal.tenantId
      const updated = await db.transaction(async (tx) => {
        await store.lockTenant(tx, tenantId)
        const [current] = (await store.currentVersions(tx, 'counterparty', tenantId, [counterpartyId])).values()
        if (current === undefined) throw new AppError('ledger_counterparty_not_found')
        const metadata = { ...(current.metadata as Record<string, unknown>) }
        const pausedFrom = typeof metadata.trust_paused_from === 'string' ? (metadata.trust_paused_from as TrustState) : undefined
        const to = trustTransition(action, current.trustState, pausedFrom)
        if (to === undefined) {
          throw new AppError('ledger_counterparty_trust_transition_invalid', `Cannot ${action} a counterparty whose trust state is ${current.trustState}.`, {
            trust_state: current.trustState,
            action,
            allowed_actions: allowedTrustActions(current.trustState),
          })
        }
        const at = clock.now()
        if (action === 'pause') metadata.trust_paused_from = current.trustState
        else delete metadata.trust_paused_from
        metadata.trust_changed = { action, by: principal.id, at: at.toISOString(), ...(input.reason === undefined ? {} : { reason: input.reason }) }
        const next = await writeVersion(tx, 'counterparty', current, { ...current, trustState: to, provenance: 'human_confirmed', metadata })
        const audited = await audit.record(
          tx,
          auditedBy(context, {
            layer: 'ledger',
            action: `ledger.counterparty.trust_${action}`,
            entity: { type: 'counterparty', id: counterpartyId },
            inputs: { action, ...(input.reason === undefined ? {} : { reason_digest: digestOf(input.reason) }) },
            outputs: { from: current.trustState, to, version_id: next.versionId, version: next.version },
          }),
        )
        await events.record(tx, {
          tenantId,
          type: 'ledger.counterparty.updated',
          payload: counterpartyEventPayload(next),
          auditEventId: audited.id,
        })
        return next
      })
      return counterpartyView(updated)
    },
  }
}
