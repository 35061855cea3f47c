/**
 * Memory pages (spec, "Wiki and memory": page_type account, counterparty, obligation, invoice, agent,
 * policy, monthly_summary, cash_flow; content is Markdown), rendered from what the Ledger, Policy and the
 * agents module hold. PURE and deterministic: the same sources give byte-identical pages (records are
 * taken in id order, money is summed as decimals, nothing reads the clock), so a regeneration over
 * unchanged data changes no page and makes no new version.
 *
 * Every value from data goes through markdown.ts (`text`, `link`); links are relative API paths of this
 * service: Ledger records at /v1/ledger/…/{id}, their Raw sources at /v1/raw/{raw_id} (and the parsed rows
 * they cite at /v1/raw/{raw_id}/parsed), other pages at /v1/memory/pages/{slug}.
 */
import { sha256Hex } from '../../../kernel/hashing.ts'
import { decimalAbs, decimalCompare, decimalSubtract, decimalSum, formatAmount } from '../../../kernel/money.ts'
import type { PageType } from './page-types.ts'
import { figure, ledgerLink, link, pageLink, table, text } from './markdown.ts'

export { pageTypes, slugPrefixes, type PageType } from './page-types.ts'

/** How many of a subject's newest transactions its page lists (the totals cover all of them). */
export const pageTransactionsListed = 10
/** How many Raw sources and parsed rows a page's evidence section names (the rest are counted). */
export const pageEvidenceListed = 25
/** How many payees a monthly summary ranks per currency. */
export const summaryPayeesListed = 5
/** How many open obligations a cash-flow page lists, soonest due first. */
export const cashFlowObligationsListed = 10

interface Recorded {
  readonly id: string
  readonly source_ids: readonly string[]
  readonly evidence_ids: readonly string[]
  /** When this version was recorded. */
  readonly created_at: string
}

export interface AccountSource extends Recorded {
  readonly name: string | null
  readonly account_type: string
  readonly status: string
  readonly institution: string | null
  readonly currency: string
  readonly account_number_masked: string | null
  readonly wallet_address: string | null
  readonly chain_id: string | number | null
}
export interface BalanceSource extends Recorded {
  readonly account_id: string
  readonly balance_type: string
  readonly as_of: string
  readonly amount: string
  readonly currency: string
}
export interface TransactionSource extends Recorded {
  readonly account_id: string
  /** Signed, as the Ledger records it (negative for an outflow). */
  readonly amount: string
  readonly currency: string
  readonly direction: string
  readonly transaction_date: string
  readonly counterparty_id: string | null
  readonly status: string
  readonly description: string | null
}
export interface CounterpartySource extends Recorded {
  readonly name: string
  readonly type: string
  readonly verified_status: string
  readonly risk_level: string
  readonly trust_state: string
  readonly aliases: readonly string[]
}
export interface InvoiceSource extends Recorded {
  readonly direction: string
  readonly invoice_number: string
  readonly issue_date: string | null
  readonly due_date: string | null
  readonly currency: string
  readonly total: string
  readonly amount_paid: string
  readonly amount_due: string
  readonly status: string
  readonly counterparty_id: string | null
}
export interface ObligationSource extends Recorded {
  readonly type: string
  readonly direction: string | null
  readonly reference: string | null
  readonly description: string | null
  readonly amount: string
  readonly currency: string
  readonly due_date: string | null
  readonly recurrence: string | null
  readonly status: string
  readonly counterparty_id: string | null
  readonly invoice_id: string | null
  readonly outstanding: string | null
}

export interface PolicyRuleSource {
  readonly id: string
  readonly applies_to: readonly string[]
  readonly execute: string
  readonly require?: string | undefined
}
export interface PolicyVersionSource {
  readonly id: string
  readonly version: number
  readonly state: string
  readonly content_hash: string
  readonly created_at: string
  readonly activated_at: string | null
  readonly deactivated_at: string | null
}
export interface AgentSource {
  readonly id: string
  readonly kind: 'internal' | 'external'
  readonly display_name: string
  readonly role: string
  readonly description: string | null
  readonly state: string
  readonly capabilities: readonly string[]
  /** When it was registered (external agents); null for a first-party catalog agent. */
  readonly created_at: string | null
}

/** Everything pages are rendered from: the tenant's current Ledger, its policy and its agents. */
export interface MemorySources {
  readonly tenant_id: string
  readonly accounts: readonly AccountSource[]
  readonly balances: readonly BalanceSource[]
  readonly transactions: readonly TransactionSource[]
  readonly counterparties: readonly CounterpartySource[]
  readonly invoices: readonly InvoiceSource[]
  readonly obligations: readonly ObligationSource[]
  readonly policy: { readonly active: (PolicyVersionSource & { readonly rules: readonly PolicyRuleSource[] }) | null; readonly versions: readonly PolicyVersionSource[] }
  readonly agents: readonly AgentSource[]
}

/** A rendered page, before it is stored (the store adds its id, version and generated_at). */
export interface PageDraft {
  readonly slug: string
  readonly page_type: PageType
  readonly title: string
  readonly content: string
  /** SHA-256 (hex) of `content`: a new version exactly when it changes. */
  readonly content_sha256: string
  /** The ids of what the page is about (the Ledger record, agent or policy versions). */
  readonly subject_ids: readonly string[]
  /** When the newest source record the page was rendered from was recorded; null when none says (a catalog agent). */
  readonly source_version: string | null
}

const byId = <T extends { id: string }>(records: readonly T[]): T[] => [...records].sort((a, b) => compareText(a.id, b.id))
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
const newestFirst = (a: TransactionSource, b: TransactionSource) => compareText(b.transaction_date, a.transaction_date) || compareText(b.id, a.id)

function latestRecorded(values: ReadonlyArray<string | null | undefined>): string | null {
  let latest: string | null = null
  for (const value of values) if (value != null && (latest === null || value > latest)) latest = value
  return latest
}

function money(values: readonly string[], currency: string): string {
  return formatAmount(decimalSum(values), currency)
}

function groupBy<T>(records: readonly T[], keyOf: (record: T) => string | null): Map<string, T[]> {
  const groups = new Map<string, T[]>()
  for (const record of records) {
    const key = keyOf(record)
    if (key === null) continue
    const group = groups.get(key)
    if (group === undefined) groups.set(key, [record])
    else group.push(record)
  }
  return groups
}

/** Inflow, outflow (positive), net and counts of some transactions of one currency. */
function flowOf(transactions: readonly TransactionSource[], currency: string) {
  const inflows = transactions.filter((transaction) => transaction.direction === 'inflow')
  const outflows = transactions.filter((transaction) => transaction.direction === 'outflow')
  const inflow = money(inflows.map((transaction) => transaction.amount), currency)
  const outflow = money(outflows.map((transaction) => decimalAbs(transaction.amount)), currency)
  return {
    count: transactions.length,
    inflow,
    outflow,
    net: formatAmount(decimalSubtract(inflow, outflow), currency),
    transfers: transactions.filter((transaction) => transaction.direction === 'transfer').length,
    adjustments: transactions.filter((transaction) => transaction.direction === 'adjustment').length,
  }
}

const flowNote =
  'Inflow sums the inflow transactions, outflow the outflow transactions (as a positive amount), net is inflow less outflow; transfers between the tenant\'s own accounts and adjustments are counted but not summed. Every current transaction counts, whatever its status.'

/** The Raw sources and parsed rows the records cite, bounded. */
function evidenceSection(records: readonly Recorded[]): string {
  const sources = [...new Set(records.flatMap((record) => record.source_ids))].sort(compareText)
  const rows = [...new Set(records.flatMap((record) => record.evidence_ids))].sort(compareText)
  const more = (total: number) => (total > pageEvidenceListed ? `, and ${total - pageEvidenceListed} more` : '')
  const sourceLines = sources.slice(0, pageEvidenceListed).map((id) => `- ${ledgerLink.raw(id)} (${ledgerLink.parsedRows(id)})`)
  return [
    '## Evidence',
    '',
    `Raw sources (${sources.length}${more(sources.length)}):`,
    '',
    ...(sourceLines.length === 0 ? ['_None._'] : sourceLines),
    '',
    `Parsed rows cited (${rows.length}): ${rows.length === 0 ? '_none_' : rows.slice(0, pageEvidenceListed).map(text).join(', ') + more(rows.length)}`,
  ].join('\n')
}

function transactionRows(transactions: readonly TransactionSource[], accountsById: ReadonlyMap<string, AccountSource>): string[][] {
  return [...transactions]
    .sort(newestFirst)
    .slice(0, pageTransactionsListed)
    .map((transaction) => [
      figure(transaction.transaction_date),
      ledgerLink.transaction(transaction.id),
      accountsById.has(transaction.account_id) ? pageLink(accountsById.get(transaction.account_id)!.name ?? transaction.account_id, `account/${transaction.account_id}`) : text(transaction.account_id),
      figure(transaction.amount),
      text(transaction.currency),
      text(transaction.direction),
      text(transaction.status),
      text(transaction.description),
    ])
}

const transactionHeader = ['date', 'transaction', 'account', 'amount', 'currency', 'direction', 'status', 'description']

function page(draft: Omit<PageDraft, 'content_sha256' | 'content'> & { readonly lines: readonly string[] }): PageDraft {
  const content = `${draft.lines.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`
  return { slug: draft.slug, page_type: draft.page_type, title: draft.title, content, content_sha256: sha256Hex(content), subject_ids: draft.subject_ids, source_version: draft.source_version }
}

function fields(rows: ReadonlyArray<readonly [string, string]>): string {
  return table(['field', 'value'], rows.map(([name, value]) => [name, value]))
}

/** Every page the sources make, in slug order. */
export function renderPages(sources: MemorySources): PageDraft[] {
  const accountsById = new Map(sources.accounts.map((account) => [account.id, account]))
  const counterpartiesById = new Map(sources.counterparties.map((counterparty) => [counterparty.id, counterparty]))
  const transactionsByAccount = groupBy(sources.transactions, (transaction) => transaction.account_id)
  const transactionsByCounterparty = groupBy(sources.transactions, (transaction) => transaction.counterparty_id)
  const invoicesByCounterparty = groupBy(sources.invoices, (invoice) => invoice.counterparty_id)
  const obligationsByCounterparty = groupBy(sources.obligations, (obligation) => obligation.counterparty_id)
  const obligationsByInvoice = groupBy(sources.obligations, (obligation) => obligation.invoice_id)
  const balancesByAccount = groupBy(sources.balances, (balance) => balance.account_id)
  const counterpartyCell = (id: string | null) =>
    id === null ? text(null) : counterpartiesById.has(id) ? pageLink(counterpartiesById.get(id)!.name, `counterparty/${id}`) : ledgerLink.counterparty(id)
  const pages: PageDraft[] = []

  for (const account of byId(sources.accounts)) {
    const transactions = transactionsByAccount.get(account.id) ?? []
    const balances = [...(balancesByAccount.get(account.id) ?? [])].sort((a, b) => compareText(a.balance_type, b.balance_type) || compareText(a.id, b.id))
    const title = `Account: ${account.name ?? account.id}`
    pages.push(
      page({
        slug: `account/${account.id}`,
        page_type: 'account',
        title,
        subject_ids: [account.id],
        source_version: latestRecorded([account.created_at, ...transactions.map((t) => t.created_at), ...balances.map((b) => b.created_at)]),
        lines: [
          `# ${text(title)}`,
          '',
          fields([
            ['id', ledgerLink.account(account.id)],
            ['type', text(account.account_type)],
            ['status', text(account.status)],
            ['institution', text(account.institution)],
            ['currency', text(account.currency)],
            ['account number', text(account.account_number_masked)],
            ['wallet', text(account.wallet_address)],
            ['chain id', text(account.chain_id)],
          ]),
          '',
          '## Latest balances',
          '',
          table(['type', 'as of', 'amount', 'currency'], balances.map((balance) => [text(balance.balance_type), figure(balance.as_of), figure(balance.amount), text(balance.currency)])),
          '',
          '## Money moved',
          '',
          flowTable(groupBy(transactions, (transaction) => transaction.currency)),
          '',
          flowNote,
          '',
          `## Newest transactions (${Math.min(transactions.length, pageTransactionsListed)} of ${transactions.length})`,
          '',
          table(transactionHeader, transactionRows(transactions, accountsById)),
          '',
          evidenceSection([account]),
        ],
      }),
    )
  }

  for (const counterparty of byId(sources.counterparties)) {
    const transactions = transactionsByCounterparty.get(counterparty.id) ?? []
    const invoices = byId(invoicesByCounterparty.get(counterparty.id) ?? [])
    const obligations = byId(obligationsByCounterparty.get(counterparty.id) ?? [])
    const title = `Counterparty: ${counterparty.name}`
    pages.push(
      page({
        slug: `counterparty/${counterparty.id}`,
        page_type: 'counterparty',
        title,
        subject_ids: [counterparty.id],
        source_version: latestRecorded([counterparty.created_at, ...transactions.map((t) => t.created_at), ...invoices.map((i) => i.created_at), ...obligations.map((o) => o.created_at)]),
        lines: [
          `# ${text(title)}`,
          '',
          fields([
            ['id', ledgerLink.counterparty(counterparty.id)],
            ['name', text(counterparty.name)],
            ['type', text(counterparty.type)],
            ['trust state', text(counterparty.trust_state)],
            ['risk level', text(counterparty.risk_level)],
            ['verified status', text(counterparty.verified_status)],
            ['aliases', counterparty.aliases.length === 0 ? text(null) : [...counterparty.aliases].sort(compareText).map(text).join(', ')],
          ]),
          '',
          '## Money moved',
          '',
          flowTable(groupBy(transactions, (transaction) => transaction.currency)),
          '',
          flowNote,
          '',
          `## Invoices (${invoices.length})`,
          '',
          table(
            ['invoice', 'number', 'direction', 'due', 'total', 'amount due', 'currency', 'status'],
            invoices.map((invoice) => [pageLink(invoice.id, `invoice/${invoice.id}`), text(invoice.invoice_number), text(invoice.direction), figure(invoice.due_date), figure(invoice.total), figure(invoice.amount_due), text(invoice.currency), text(invoice.status)]),
          ),
          '',
          `## Obligations (${obligations.length})`,
          '',
          table(
            ['obligation', 'type', 'direction', 'due', 'amount', 'currency', 'status'],
            obligations.map((obligation) => [pageLink(obligation.id, `obligation/${obligation.id}`), text(obligation.type), text(obligation.direction), figure(obligation.due_date), figure(obligation.amount), text(obligation.currency), text(obligation.status)]),
          ),
          '',
          `## Newest transactions (${Math.min(transactions.length, pageTransactionsListed)} of ${transactions.length})`,
          '',
          table(transactionHeader, transactionRows(transactions, accountsById)),
          '',
          evidenceSection([counterparty]),
        ],
      }),
    )
  }

  for (const invoice of byId(sources.invoices)) {
    const obligations = byId(obligationsByInvoice.get(invoice.id) ?? [])
    const title = `Invoice ${invoice.invoice_number} (${invoice.direction})`
    pages.push(
      page({
        slug: `invoice/${invoice.id}`,
        page_type: 'invoice',
        title,
        subject_ids: [invoice.id],
        source_version: latestRecorded([invoice.created_at, ...obligations.map((o) => o.created_at)]),
        lines: [
          `# ${text(title)}`,
          '',
          fields([
            ['id', ledgerLink.invoice(invoice.id)],
            ['number', text(invoice.invoice_number)],
            ['direction', text(invoice.direction)],
            ['counterparty', counterpartyCell(invoice.counterparty_id)],
            ['issued', figure(invoice.issue_date)],
            ['due', figure(invoice.due_date)],
            ['currency', text(invoice.currency)],
            ['total', figure(invoice.total)],
            ['paid', figure(invoice.amount_paid)],
            ['amount due', figure(invoice.amount_due)],
            ['status', text(invoice.status)],
          ]),
          '',
          `## Obligations (${obligations.length})`,
          '',
          table(['obligation', 'due', 'amount', 'status'], obligations.map((obligation) => [pageLink(obligation.id, `obligation/${obligation.id}`), figure(obligation.due_date), figure(obligation.amount), text(obligation.status)])),
          '',
          evidenceSection([invoice]),
        ],
      }),
    )
  }

  for (const obligation of byId(sources.obligations)) {
    const title = `Obligation: ${obligation.description ?? obligation.reference ?? obligation.type}`
    pages.push(
      page({
        slug: `obligation/${obligation.id}`,
        page_type: 'obligation',
        title,
        subject_ids: [obligation.id],
        source_version: obligation.created_at,
        lines: [
          `# ${text(title)}`,
          '',
          fields([
            ['id', ledgerLink.obligation(obligation.id)],
            ['type', text(obligation.type)],
            ['direction', text(obligation.direction)],
            ['reference', text(obligation.reference)],
            ['description', text(obligation.description)],
            ['counterparty', counterpartyCell(obligation.counterparty_id)],
            ['invoice', obligation.invoice_id === null ? text(null) : pageLink(obligation.invoice_id, `invoice/${obligation.invoice_id}`)],
            ['due', figure(obligation.due_date)],
            ['recurrence', text(obligation.recurrence)],
            ['amount', figure(obligation.amount)],
            ['outstanding', figure(obligation.outstanding)],
            ['currency', text(obligation.currency)],
            ['status', text(obligation.status)],
          ]),
          '',
          evidenceSection([obligation]),
        ],
      }),
    )
  }

  // Monthly summaries: one per month that has a transaction, by transaction_date.
  const transactionsByMonth = groupBy(sources.transactions, (transaction) => transaction.transaction_date.slice(0, 7))
  for (const month of [...transactionsByMonth.keys()].sort(compareText)) {
    const transactions = transactionsByMonth.get(month)!
    const byCurrency = groupBy(transactions, (transaction) => transaction.currency)
    const { first, last } = monthBounds(month)
    const payees: string[][] = []
    for (const currency of [...byCurrency.keys()].sort(compareText)) {
      const outflows = byCurrency.get(currency)!.filter((transaction) => transaction.direction === 'outflow' && transaction.counterparty_id !== null)
      const ranked = [...groupBy(outflows, (transaction) => transaction.counterparty_id)]
        .map(([id, paid]) => ({ id, count: paid.length, total: money(paid.map((transaction) => decimalAbs(transaction.amount)), currency) }))
        .sort((a, b) => decimalCompare(b.total, a.total) || compareText(a.id, b.id))
        .slice(0, summaryPayeesListed)
      payees.push(...ranked.map((payee) => [counterpartyCell(payee.id), text(currency), figure(payee.total), figure(payee.count)]))
    }
    const title = `Monthly summary ${month}`
    pages.push(
      page({
        slug: `monthly-summary/${month}`,
        page_type: 'monthly_summary',
        title,
        subject_ids: [month],
        source_version: latestRecorded(transactions.map((transaction) => transaction.created_at)),
        lines: [
          `# ${text(title)}`,
          '',
          `Transactions dated ${figure(first)} to ${figure(last)}, by currency.`,
          '',
          flowTable(byCurrency),
          '',
          flowNote,
          '',
          `## Largest payees (outflow, at most ${summaryPayeesListed} per currency)`,
          '',
          table(['counterparty', 'currency', 'outflow', 'transactions'], payees),
          '',
          '## Evidence',
          '',
          `The month's transactions: [${text(`transactions ${first} to ${last}`)}](/v1/ledger/transactions?since=${first}&until=${last})`,
        ],
      }),
    )
  }

  // Cash flow: one page per currency the Ledger holds money in.
  const currencies = new Set([...sources.transactions.map((t) => t.currency), ...sources.balances.map((b) => b.currency), ...sources.obligations.map((o) => o.currency)])
  for (const currency of [...currencies].sort(compareText)) {
    const transactions = sources.transactions.filter((transaction) => transaction.currency === currency)
    const balances = sources.balances.filter((balance) => balance.currency === currency).sort((a, b) => compareText(a.account_id, b.account_id) || compareText(a.balance_type, b.balance_type))
    const open = sources.obligations.filter((obligation) => obligation.currency === currency && obligation.status === 'open')
    const remaining = (obligation: ObligationSource) => obligation.outstanding ?? obligation.amount
    const openOf = (direction: string) => open.filter((obligation) => obligation.direction === direction)
    const months = groupBy(transactions, (transaction) => transaction.transaction_date.slice(0, 7))
    const soonest = [...open].sort((a, b) => compareText(a.due_date ?? '9999-12-31', b.due_date ?? '9999-12-31') || compareText(a.id, b.id)).slice(0, cashFlowObligationsListed)
    const title = `Cash flow ${currency}`
    pages.push(
      page({
        slug: `cash-flow/${currency}`,
        page_type: 'cash_flow',
        title,
        subject_ids: [currency],
        source_version: latestRecorded([...transactions.map((t) => t.created_at), ...balances.map((b) => b.created_at), ...open.map((o) => o.created_at)]),
        lines: [
          `# ${text(title)}`,
          '',
          '## By month',
          '',
          table(
            ['month', 'transactions', 'inflow', 'outflow', 'net'],
            [...months.keys()].sort(compareText).map((month) => {
              const flow = flowOf(months.get(month)!, currency)
              return [pageLink(month, `monthly-summary/${month}`), figure(flow.count), figure(flow.inflow), figure(flow.outflow), figure(flow.net)]
            }),
          ),
          '',
          flowNote,
          '',
          '## Latest balances',
          '',
          table(
            ['account', 'type', 'as of', 'amount'],
            balances.map((balance) => [
              accountsById.has(balance.account_id) ? pageLink(accountsById.get(balance.account_id)!.name ?? balance.account_id, `account/${balance.account_id}`) : ledgerLink.account(balance.account_id),
              text(balance.balance_type),
              figure(balance.as_of),
              figure(balance.amount),
            ]),
          ),
          '',
          '## Open obligations',
          '',
          table(
            ['direction', 'open', 'outstanding'],
            ['payable', 'receivable'].map((direction) => [text(direction), figure(openOf(direction).length), figure(money(openOf(direction).map(remaining), currency))]),
          ),
          '',
          `Soonest due (at most ${cashFlowObligationsListed}):`,
          '',
          table(
            ['obligation', 'direction', 'due', 'outstanding', 'counterparty'],
            soonest.map((obligation) => [pageLink(obligation.id, `obligation/${obligation.id}`), text(obligation.direction), figure(obligation.due_date), figure(remaining(obligation)), counterpartyCell(obligation.counterparty_id)]),
          ),
        ],
      }),
    )
  }

  for (const agent of [...sources.agents].sort((a, b) => compareText(a.id, b.id))) {
    const title = `Agent: ${agent.display_name}`
    pages.push(
      page({
        slug: `agent/${agent.id}`,
        page_type: 'agent',
        title,
        subject_ids: [agent.id],
        source_version: agent.created_at,
        lines: [
          `# ${text(title)}`,
          '',
          fields([
            ['id', link(agent.id, ['v1', 'agents', agent.id])],
            ['kind', text(agent.kind === 'internal' ? 'first-party' : 'registered')],
            ['role', text(agent.role)],
            ['state', text(agent.state)],
            ['capabilities', agent.capabilities.length === 0 ? text(null) : [...agent.capabilities].sort(compareText).map(text).join(', ')],
            ['registered', figure(agent.created_at)],
          ]),
          '',
          agent.description === null ? '' : text(agent.description),
        ],
      }),
    )
  }

  const { active, versions } = sources.policy
  if (active !== null || versions.length > 0) {
    const ordered = [...versions].sort((a, b) => b.version - a.version)
    pages.push(
      page({
        slug: 'policy/active',
        page_type: 'policy',
        title: 'Policy',
        subject_ids: ordered.map((version) => version.id),
        source_version: latestRecorded(versions.flatMap((version) => [version.created_at, version.activated_at, version.deactivated_at])),
        lines: [
          '# Policy',
          '',
          active === null ? 'No version is active.' : `Version ${figure(active.version)} is active (${link(active.id, ['v1', 'policy', sources.tenant_id])}, content hash ${text(active.content_hash)}, activated ${figure(active.activated_at)}).`,
          '',
          '## Rules of the active version, in order',
          '',
          table(
            ['rule', 'applies to', 'requires', 'decision'],
            (active?.rules ?? []).map((rule) => [text(rule.id), rule.applies_to.map(text).join(', '), text(rule.require ?? null), text(rule.execute)]),
          ),
          '',
          `## Versions (${ordered.length}, newest first)`,
          '',
          table(['version', 'id', 'state', 'created', 'activated', 'deactivated'], ordered.map((version) => [figure(version.version), text(version.id), text(version.state), figure(version.created_at), figure(version.activated_at), figure(version.deactivated_at)])),
        ],
      }),
    )
  }

  return pages.sort((a, b) => compareText(a.slug, b.slug))

  function flowTable(byCurrency: ReadonlyMap<string, readonly TransactionSource[]>): string {
    return table(
      ['currency', 'transactions', 'inflow', 'outflow', 'net', 'transfers', 'adjustments'],
      [...byCurrency.keys()].sort(compareText).map((currency) => {
        const flow = flowOf(byCurrency.get(currency)!, currency)
        return [text(currency), figure(flow.count), figure(flow.inflow), figure(flow.outflow), figure(flow.net), figure(flow.transfers), figure(flow.adjustments)]
      }),
    )
  }
}

/** The first and last day of a `YYYY-MM` month. */
export function monthBounds(month: string): { first: string; last: string } {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number]
  const days = new Date(Date.UTC(year, monthNumber, 0)).getUTCDate()
  return { first: `${month}-01`, last: `${month}-${String(days).padStart(2, '0')}` }
}
