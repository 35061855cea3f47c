/** Ledger: transactions (filters, cursor paging), accounts with balances, counterparties, invoices,
 * obligations, reconciliation matches; an entity page with as-of reading and its evidence chain down to
 * the raw file. */
import { api } from '../api.ts'
import { badge, facts, filterForm, h, input, link, pager, select, table, type Child } from '../dom.ts'
import { dateTime, money, shortId } from '../format.ts'

const limit = 50
const q = (query: URLSearchParams, name: string) => query.get(name) ?? undefined

const directions: Array<[string, string]> = [['', 'Any direction'], ['inflow', 'Inflow'], ['outflow', 'Outflow'], ['transfer', 'Transfer'], ['adjustment', 'Adjustment']]
const statuses: Array<[string, string]> = [['', 'Any status'], ...['pending', 'posted', 'cleared', 'failed', 'reversed', 'disputed'].map((value): [string, string] => [value, value])]

export async function transactionsPage(_params: Record<string, string>, query: URLSearchParams): Promise<Child> {
  const [page, accounts] = await Promise.all([
    api.GET('/v1/ledger/transactions', {
      params: {
        query: {
          limit,
          account_id: q(query, 'account_id'),
          direction: q(query, 'direction') as 'inflow' | undefined,
          status: q(query, 'status') as 'posted' | undefined,
          since: q(query, 'since'),
          until: q(query, 'until'),
          cursor: q(query, 'cursor'),
        },
      },
    }),
    api.GET('/v1/ledger/accounts', { params: { query: { limit: 200 } } }),
  ])
  const accountName = new Map(accounts.accounts.map((account) => [account.id, account.name]))
  return [
    h('h1', {}, 'Transactions'),
    filterForm('/ledger/transactions', [
      ['Account', select('account_id', [['', 'Any account'], ...accounts.accounts.map((account): [string, string] => [account.id, `${account.name} (${account.currency})`])], query.get('account_id') ?? '')],
      ['Direction', select('direction', directions, query.get('direction') ?? '')],
      ['Status', select('status', statuses, query.get('status') ?? '')],
      ['From date', input('since', query.get('since'), { type: 'date' })],
      ['To date', input('until', query.get('until'), { type: 'date' })],
    ]),
    table(
      'Transactions',
      [
        { title: 'Date', cell: (row) => row.transaction_date },
        { title: 'Description', cell: (row) => link(`#/ledger/transactions/${encodeURIComponent(row.id)}`, row.description || row.id) },
        { title: 'Account', cell: (row) => accountName.get(row.account_id) ?? row.account_id },
        { title: 'Direction', cell: (row) => row.direction },
        { title: 'Amount', numeric: true, cell: (row) => money(row.amount, row.currency) },
        { title: 'Status', cell: (row) => row.status },
        { title: 'Reconciliation', cell: (row) => row.reconciliation_status },
      ],
      page.transactions,
    ),
    pager('/ledger/transactions', query, page.next_cursor),
  ]
}

type LedgerKind = 'transactions' | 'accounts' | 'counterparties' | 'invoices' | 'obligations'

async function fetchRecord(kind: LedgerKind, id: string, asOf: string | undefined): Promise<Record<string, unknown>> {
  const query = { as_of: asOf }
  switch (kind) {
    case 'transactions':
      return api.GET('/v1/ledger/transactions/{transaction_id}', { params: { path: { transaction_id: id }, query } })
    case 'accounts':
      return api.GET('/v1/ledger/accounts/{account_id}', { params: { path: { account_id: id }, query } })
    case 'counterparties':
      return api.GET('/v1/ledger/counterparties/{counterparty_id}', { params: { path: { counterparty_id: id }, query } })
    case 'invoices':
      return api.GET('/v1/ledger/invoices/{invoice_id}', { params: { path: { invoice_id: id } } })
    case 'obligations':
      return api.GET('/v1/ledger/obligations/{obligation_id}', { params: { path: { obligation_id: id } } })
  }
}

const kindNames: Record<LedgerKind, string> = { transactions: 'Transaction', accounts: 'Account', counterparties: 'Counterparty', invoices: 'Invoice', obligations: 'Obligation' }
const hiddenFields = new Set(['source_ids', 'evidence_ids', 'metadata'])

function valueText(value: unknown): string {
  if (value === null || value === undefined) return '—'
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

export const transactionPage = (params: Record<string, string>, query: URLSearchParams) => entityPage({ kind: 'transactions', id: params.id! }, query)

export async function entityPage(params: Record<string, string>, query: URLSearchParams): Promise<Child> {
  const kind = params.kind as LedgerKind
  if (!(kind in kindNames)) throw new Error('No such kind of record.')
  const asOf = q(query, 'as_of')
  const record = await fetchRecord(kind, params.id!, asOf === undefined ? undefined : new Date(asOf).toISOString())
  const path = `/ledger/${kind}/${encodeURIComponent(params.id!)}`
  const asOfInput = input('as_of', asOf ?? '', { type: 'datetime-local' })
  const title = valueText(record.description ?? record.name ?? record.invoice_number ?? record.reference ?? record.id)
  const related: Child[] = []
  if (typeof record.counterparty_id === 'string') related.push(h('li', {}, 'Counterparty: ', link(`#/ledger/counterparties/${encodeURIComponent(record.counterparty_id)}`, record.counterparty_id)))
  if (typeof record.account_id === 'string') related.push(h('li', {}, 'Account: ', link(`#/ledger/accounts/${encodeURIComponent(record.account_id)}`, record.account_id)))
  if (typeof record.invoice_id === 'string') related.push(h('li', {}, 'Invoice: ', link(`#/ledger/invoices/${encodeURIComponent(record.invoice_id)}`, record.invoice_id)))
  return [
    h('h1', {}, `${kindNames[kind]}: `, h('span', { 'data-testid': 'entity-title' }, title)),
    asOf === undefined ? h('p', {}, 'As recorded now.') : h('p', { class: 'note' }, `As it was recorded at ${asOf}.`),
    filterForm(path, [['Read as of', asOfInput]], 'Read'),
    facts(Object.entries(record).filter(([key]) => !hiddenFields.has(key)).map(([key, value]): [string, Child] => [key, key === 'amount' || key === 'total' || key === 'amount_due' ? money(value as string, record.currency as string) : valueText(value)])),
    related.length > 0 ? h('ul', { class: 'related' }, related) : null,
    await entityHistory(path, params.id!, q(query, 'version')),
    await evidenceChain((record.evidence_ids as string[] | undefined) ?? [], (record.source_ids as string[] | undefined) ?? []),
  ]
}

type HistoryEntry = Awaited<ReturnType<typeof readHistory>>['versions'][number]
const readHistory = (id: string, cursor?: string) => api.GET('/v1/wiki/entity/{entity_id}/history', { params: { path: { entity_id: id }, query: { limit: 500, ...(cursor === undefined ? {} : { cursor }) } } })

function historyLabel(entry: HistoryEntry): string {
  if (entry.ledger_version !== null) return `Ledger version ${entry.ledger_version.version}`
  return `Annotation ${entry.annotation?.version ?? ''} by ${entry.annotation?.actor.type ?? 'a person'}`
}

/** The fields one version shows: a Ledger version's record, or what an annotation asserted. */
function versionFields(entry: HistoryEntry): ReadonlyArray<readonly [string, Child]> {
  if (entry.ledger_version !== null) {
    const record = entry.ledger_version.record as unknown as Record<string, unknown>
    return [
      ...Object.entries(record).filter(([key]) => !hiddenFields.has(key)).map(([key, value]): [string, Child] => [key, key === 'amount' || key === 'total' || key === 'amount_due' ? money(value as string, record.currency as string) : valueText(value)]),
      ['Raw files', `${entry.ledger_version.source_ids.length}`],
      ['Parsed rows', `${entry.ledger_version.evidence_ids.length}`],
      ['Superseded', entry.ledger_version.superseded_at === null ? 'no: the current version' : dateTime(entry.ledger_version.superseded_at)],
    ]
  }
  const annotation = entry.annotation!
  return [
    ['Note', annotation.note ?? '—'],
    ['Labels', annotation.labels === null ? '—' : annotation.labels.join(', ') || '(cleared)'],
    ['Corrections', annotation.corrections === null ? '—' : Object.entries(annotation.corrections).map(([field, value]) => `${field} = ${value === null ? '(withdrawn)' : String(value)}`).join('; ')],
    ['Relation status', annotation.relation_status ?? '—'],
    ['By', `${annotation.actor.type} ${annotation.actor.id}`],
    ['On Ledger version', annotation.basis_version_id],
  ]
}

/** The record's versions (the Wiki's entity history: Ledger versions and annotations, oldest first); `?version=N` shows one. */
async function entityHistory(path: string, id: string, selected: string | undefined): Promise<HTMLElement> {
  let versions: HistoryEntry[] = []
  try {
    let cursor: string | undefined
    do {
      const page = await readHistory(id, cursor)
      versions = [...versions, ...page.versions]
      cursor = page.next_cursor ?? undefined
    } while (cursor !== undefined && versions.length < 2000)
  } catch (error) {
    return h('section', { 'aria-label': 'History', 'data-testid': 'entity-history' }, h('h2', {}, 'History'), h('p', { class: 'empty' }, `The history could not be read: ${error instanceof Error ? error.message : String(error)}`))
  }
  const chosen = selected === undefined ? undefined : versions.find((entry) => String(entry.wiki_version) === selected)
  return h(
    'section',
    { 'aria-label': 'History', 'data-testid': 'entity-history' },
    h('h2', {}, `History (${versions.length} version${versions.length === 1 ? '' : 's'})`),
    table('Versions, oldest first', [
      { title: 'Version', cell: (entry) => String(entry.wiki_version) },
      { title: 'What', cell: historyLabel },
      { title: 'Recorded', cell: (entry) => dateTime(entry.recorded_at) },
      { title: 'Provenance', cell: (entry) => entry.provenance.replaceAll('_', ' ') },
      {
        title: 'Fields',
        cell: (entry) =>
          chosen === entry
            ? h('span', { 'aria-current': 'true' }, 'Shown below')
            : link(`#${path}?version=${entry.wiki_version}`, `Show version ${entry.wiki_version}`, { 'data-testid': `history-version-${entry.wiki_version}` }),
      },
    ], versions),
    selected === undefined
      ? null
      : chosen === undefined
        ? h('p', { class: 'error', role: 'alert' }, `This record has no version ${selected}.`)
        : h(
            'div',
            { 'data-testid': 'history-selected' },
            h('h3', {}, `Version ${chosen.wiki_version}: ${historyLabel(chosen)}, recorded ${dateTime(chosen.recorded_at)}`),
            facts(versionFields(chosen)),
          ),
  )
}

/** Record → parsed rows (evidence_ids) → Raw artifacts (source_ids) → the raw file. */
export async function evidenceChain(evidenceIds: readonly string[], sourceIds: readonly string[]): Promise<HTMLElement> {
  const artifacts = await Promise.all(
    sourceIds.map(async (rawId) => {
      try {
        return await api.GET('/v1/raw/{raw_id}', { params: { path: { raw_id: rawId } } })
      } catch {
        return { raw_id: rawId, unavailable: true as const }
      }
    }),
  )
  const rows = new URLSearchParams({ rows: evidenceIds.join(',') }).toString()
  return h(
    'section',
    { 'aria-labelledby': 'evidence-title', class: 'evidence' },
    h('h2', { id: 'evidence-title' }, 'Evidence'),
    h('p', {}, `${evidenceIds.length} parsed row(s) from ${sourceIds.length} raw file(s).`),
    h(
      'ol',
      { class: 'chain' },
      ...artifacts.map((artifact) =>
        'unavailable' in artifact
          ? h('li', {}, `Raw file ${artifact.raw_id} (no longer available)`)
          : h(
              'li',
              {},
              link(`#/raw/${encodeURIComponent(artifact.raw_id)}?${rows}`, `Raw file ${artifact.filename ?? artifact.raw_id}`, { 'data-testid': 'evidence-raw' }),
              ` — ${artifact.source_type}, ${artifact.bytes} bytes, parsed by ${artifact.parser ?? '—'} ${artifact.parser_version ?? ''}, sha256 ${artifact.sha256.slice(0, 16)}…`,
            ),
      ),
    ),
    evidenceIds.length > 0 ? h('p', { class: 'ids' }, 'Parsed rows: ', evidenceIds.join(', ')) : null,
  )
}

export async function accountsPage(_params: Record<string, string>, query: URLSearchParams): Promise<Child> {
  const [page, balances] = await Promise.all([
    api.GET('/v1/ledger/accounts', { params: { query: { limit, cursor: q(query, 'cursor') } } }),
    api.GET('/v1/ledger/balances', {}),
  ])
  const latest = latestBalances(balances.balances)
  return [
    h('h1', {}, 'Accounts'),
    table(
      'Accounts with their latest balance',
      [
        { title: 'Name', cell: (row) => link(`#/ledger/accounts/${encodeURIComponent(row.id)}`, row.name) },
        { title: 'Type', cell: (row) => row.account_type },
        { title: 'Institution', cell: (row) => row.institution ?? '—' },
        { title: 'Number', cell: (row) => row.iban ?? row.account_number_masked ?? row.wallet_address ?? '—' },
        { title: 'Status', cell: (row) => row.status },
        { title: 'Balance', numeric: true, cell: (row) => (latest.get(row.id) ? money(latest.get(row.id)!.amount, latest.get(row.id)!.currency) : '—') },
        { title: 'As of', cell: (row) => latest.get(row.id)?.as_of ?? '—' },
      ],
      page.accounts,
    ),
    pager('/ledger/accounts', query, page.next_cursor),
  ]
}

export interface BalanceRow {
  readonly account_id: string
  readonly amount: string
  readonly currency: string
  readonly as_of: string
  readonly balance_type: string
}

/** Each account's most recent balance (closing or current preferred on the same day). */
export function latestBalances<B extends BalanceRow>(balances: readonly B[]): Map<string, B> {
  const rank = (balance: BalanceRow) => ['opening', 'available', 'closing', 'current'].indexOf(balance.balance_type)
  const latest = new Map<string, B>()
  for (const balance of balances) {
    const seen = latest.get(balance.account_id)
    if (seen === undefined || balance.as_of > seen.as_of || (balance.as_of === seen.as_of && rank(balance) > rank(seen))) latest.set(balance.account_id, balance)
  }
  return latest
}

const trustTone: Record<string, string> = { trusted: 'good', paused: 'bad', acknowledged: 'warn', unreviewed: '' }

export async function counterpartiesPage(_params: Record<string, string>, query: URLSearchParams): Promise<Child> {
  const page = await api.GET('/v1/ledger/counterparties', { params: { query: { limit, cursor: q(query, 'cursor') } } })
  return [
    h('h1', {}, 'Counterparties'),
    table(
      'Counterparties',
      [
        { title: 'Name', cell: (row) => link(`#/ledger/counterparties/${encodeURIComponent(row.id)}`, row.name) },
        { title: 'Type', cell: (row) => row.type },
        { title: 'Trust', cell: (row) => badge(row.trust_state, trustTone[row.trust_state]) },
        { title: 'Verification', cell: (row) => row.verified_status },
        { title: 'Risk', cell: (row) => row.risk_level },
        { title: 'Also known as', cell: (row) => row.aliases.join(', ') },
      ],
      page.counterparties,
    ),
    pager('/ledger/counterparties', query, page.next_cursor),
  ]
}

export async function invoicesPage(_params: Record<string, string>, query: URLSearchParams): Promise<Child> {
  const direction = (query.get('direction') ?? 'receivable') as 'receivable' | 'payable'
  const page = await api.GET('/v1/ledger/invoices', { params: { query: { limit, direction, cursor: q(query, 'cursor') } } })
  return [
    h('h1', {}, 'Invoices'),
    filterForm('/ledger/invoices', [['Direction', select('direction', [['receivable', 'Receivable (issued by you)'], ['payable', 'Payable (bills)']], direction)]]),
    table(
      direction === 'receivable' ? 'Receivable invoices' : 'Payable invoices',
      [
        { title: 'Number', cell: (row) => link(`#/ledger/invoices/${encodeURIComponent(row.id)}`, row.invoice_number) },
        { title: 'Issued', cell: (row) => row.issue_date ?? '—' },
        { title: 'Due', cell: (row) => row.due_date ?? '—' },
        { title: 'Total', numeric: true, cell: (row) => money(row.total, row.currency) },
        { title: 'Due amount', numeric: true, cell: (row) => money(row.amount_due, row.currency) },
        { title: 'Status', cell: (row) => row.status },
      ],
      page.invoices,
    ),
    pager('/ledger/invoices', query, page.next_cursor),
  ]
}

export async function obligationsPage(_params: Record<string, string>, query: URLSearchParams): Promise<Child> {
  const page = await api.GET('/v1/ledger/obligations', { params: { query: { limit, cursor: q(query, 'cursor') } } })
  return [
    h('h1', {}, 'Obligations'),
    table(
      'Obligations',
      [
        { title: 'Reference', cell: (row) => link(`#/ledger/obligations/${encodeURIComponent(row.id)}`, row.reference || row.id) },
        { title: 'Type', cell: (row) => row.type },
        { title: 'Direction', cell: (row) => row.direction ?? '—' },
        { title: 'Due', cell: (row) => row.due_date ?? '—' },
        { title: 'Amount', numeric: true, cell: (row) => money(row.amount, row.currency) },
        { title: 'Status', cell: (row) => row.status },
      ],
      page.obligations,
    ),
    pager('/ledger/obligations', query, page.next_cursor),
  ]
}

export async function matchesPage(_params: Record<string, string>, query: URLSearchParams): Promise<Child> {
  const page = await api.GET('/v1/ledger/reconciliation-matches', { params: { query: { limit, cursor: q(query, 'cursor') } } })
  return [
    h('h1', {}, 'Reconciliation matches'),
    table(
      'Matches',
      [
        { title: 'Type', cell: (row) => row.match_type },
        { title: 'Status', cell: (row) => row.status },
        { title: 'What', cell: (row) => row.subject_refs.join(', ') },
        { title: 'Amount', numeric: true, cell: (row) => money(row.amount ?? null, row.currency) },
        { title: 'Difference', numeric: true, cell: (row) => money(row.difference ?? null, row.currency) },
        { title: 'Why', cell: (row) => row.explanation },
        { title: 'Recorded', cell: (row) => dateTime(row.created_at) },
      ],
      page.matches,
    ),
    pager('/ledger/matches', query, page.next_cursor),
  ]
}

export { shortId }
