/** Home: cash by account and currency, this month against last, open receivables and payables, what
 * needs the user, and the balance over time. */
import { api, can, currentSession } from '../api.ts'
import { facts, h, link, svg, table, type Child } from '../dom.ts'
import { addDecimal, money } from '../format.ts'
import { latestBalances } from './ledger.ts'
import { inboxGroups, offeredTo } from './approvals.ts'

const monthKey = (date: Date) => date.toISOString().slice(0, 7)

async function recentTransactions(since: string) {
  const rows: Array<{ amount: string; currency: string; transaction_date: string; direction: string }> = []
  let cursor: string | undefined
  for (let page = 0; page < 10; page += 1) {
    const answer = await api.GET('/v1/ledger/transactions', { params: { query: { since, limit: 1000, cursor } } })
    rows.push(...answer.transactions)
    if (!answer.next_cursor) break
    cursor = answer.next_cursor
  }
  return rows
}

export async function homePage(): Promise<Child> {
  const now = new Date()
  const thisMonth = monthKey(now)
  const lastMonth = monthKey(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)))
  const yearAgo = new Date(Date.UTC(now.getUTCFullYear() - 1, now.getUTCMonth(), 1)).toISOString().slice(0, 10)
  const [accounts, balances, transactions, receivable, payable, inbox, failedImports, endpoints] = await Promise.all([
    api.GET('/v1/ledger/accounts', { params: { query: { limit: 200 } } }),
    api.GET('/v1/ledger/balances', {}),
    recentTransactions(yearAgo),
    api.GET('/v1/ledger/invoices', { params: { query: { direction: 'receivable', limit: 200 } } }),
    api.GET('/v1/ledger/invoices', { params: { query: { direction: 'payable', limit: 200 } } }),
    inboxGroups().catch(() => []),
    api.GET('/v1/raw', { params: { query: { extraction_status: 'failed', limit: 100 } } }).catch(() => ({ artifacts: [] })),
    can('surfaces:admin') ? api.GET('/v1/webhooks', { params: { query: { limit: 100 } } }).catch(() => ({ endpoints: [], next_cursor: null })) : Promise.resolve({ endpoints: [], next_cursor: null }),
  ])
  // Dead letters are read one page (100) per endpoint: a full page means there are more, shown as "100+".
  const deadLetterPages = can('surfaces:admin')
    ? await Promise.all(endpoints.endpoints.map((endpoint) => api.GET('/v1/webhooks/{endpoint_id}/dead-letters', { params: { path: { endpoint_id: endpoint.id }, query: { limit: 100 } } }).then((page) => ({ count: page.dead_letters.length, more: Boolean(page.next_cursor) })).catch(() => ({ count: 0, more: false }))))
    : []
  const deadLetters = deadLetterPages.reduce((sum, page) => sum + page.count, 0)
  const moreDeadLetters = deadLetterPages.some((page) => page.more) || Boolean(endpoints.next_cursor)

  const latest = latestBalances(balances.balances)
  const cash = new Map<string, string>()
  for (const balance of latest.values()) cash.set(balance.currency, addDecimal(cash.get(balance.currency) ?? '0', balance.amount))

  // Net flow per currency, this month and last.
  const flows = new Map<string, { this: string; last: string; inThis: string; outThis: string }>()
  for (const row of transactions) {
    const month = row.transaction_date.slice(0, 7)
    if (month !== thisMonth && month !== lastMonth) continue
    const flow = flows.get(row.currency) ?? { this: '0', last: '0', inThis: '0', outThis: '0' }
    if (month === thisMonth) {
      flow.this = addDecimal(flow.this, row.amount)
      if (row.amount.startsWith('-')) flow.outThis = addDecimal(flow.outThis, row.amount)
      else flow.inThis = addDecimal(flow.inThis, row.amount)
    } else flow.last = addDecimal(flow.last, row.amount)
    flows.set(row.currency, flow)
  }
  const openSum = (invoices: ReadonlyArray<{ amount_due: string; currency: string; status: string }>) => {
    const sums = new Map<string, string>()
    for (const invoice of invoices) if (invoice.amount_due !== '0' && !/^0(\.0+)?$/.test(invoice.amount_due) && invoice.status !== 'void') sums.set(invoice.currency, addDecimal(sums.get(invoice.currency) ?? '0', invoice.amount_due))
    return [...sums.entries()].map(([currency, amount]) => money(amount, currency)).join(', ') || 'none'
  }
  // What the signed-in member is offered a decision on: agent proposals and payments, each payment once.
  const waiting = inbox.flatMap((group) => group.items).filter(offeredTo).length

  return [
    h('h1', {}, 'Home'),
    h('p', {}, `Signed in as ${currentSession()?.email ?? ''}.`),
    h('section', { 'aria-labelledby': 'needs-title', class: 'needs' },
      h('h2', { id: 'needs-title' }, 'Needs you'),
      h('ul', {},
        h('li', {}, link('#/approvals', `${waiting} proposal(s) and payment(s) awaiting your decision`, { 'data-testid': 'needs-approvals' })),
        h('li', {}, link('#/imports', `${failedImports.artifacts.length} failed import(s)`)),
        // Only admins read webhook endpoints: for anyone else the count would be a meaningless 0.
        can('surfaces:admin') ? h('li', {}, link('#/webhooks', `${deadLetters}${moreDeadLetters ? '+' : ''} dead-lettered webhook deliveries`, { 'data-testid': 'needs-dead-letters' })) : null,
      ),
    ),
    h('section', { 'aria-labelledby': 'cash-title' },
      h('h2', { id: 'cash-title' }, 'Cash'),
      table('Cash by currency (latest balance of each account)', [
        { title: 'Currency', cell: ([currency]) => currency },
        { title: 'Cash', numeric: true, cell: ([currency, amount]) => money(amount, currency) },
      ], [...cash.entries()], 'no balances recorded yet.'),
      table('Cash by account', [
        { title: 'Account', cell: (row) => link(`#/ledger/accounts/${encodeURIComponent(row.id)}`, row.name) },
        { title: 'Balance', numeric: true, cell: (row) => (latest.get(row.id) ? money(latest.get(row.id)!.amount, latest.get(row.id)!.currency) : '—') },
        { title: 'As of', cell: (row) => latest.get(row.id)?.as_of ?? '—' },
      ], accounts.accounts),
    ),
    h('section', { 'aria-labelledby': 'month-title' },
      h('h2', { id: 'month-title' }, `This month (${thisMonth}) against last (${lastMonth})`),
      table('Net flow by currency', [
        { title: 'Currency', cell: ([currency]) => currency },
        { title: 'In this month', numeric: true, cell: ([currency, flow]) => money(flow.inThis, currency) },
        { title: 'Out this month', numeric: true, cell: ([currency, flow]) => money(flow.outThis, currency) },
        { title: 'Net this month', numeric: true, cell: ([currency, flow]) => money(flow.this, currency) },
        { title: 'Net last month', numeric: true, cell: ([currency, flow]) => money(flow.last, currency) },
      ], [...flows.entries()], 'no transactions in these two months.'),
    ),
    h('section', { 'aria-labelledby': 'open-title' },
      h('h2', { id: 'open-title' }, 'Open receivables and payables'),
      facts([
        ['Receivable (owed to you)', link('#/ledger/invoices?direction=receivable', openSum(receivable.invoices))],
        ['Payable (you owe)', link('#/ledger/invoices?direction=payable', openSum(payable.invoices))],
      ]),
    ),
    h('section', { 'aria-labelledby': 'plot-title' }, h('h2', { id: 'plot-title' }, 'Balance over time'), balancePlot(transactions, latest)),
  ]
}

/**
 * The cumulative balance of the main currency over the last year's transactions, ending at the latest
 * recorded balance (when there is one) — an SVG line, its data also given as text for screen readers.
 */
function balancePlot(transactions: ReadonlyArray<{ amount: string; currency: string; transaction_date: string }>, latest: Map<string, { amount: string; currency: string }>): Child {
  const counts = new Map<string, number>()
  for (const row of transactions) counts.set(row.currency, (counts.get(row.currency) ?? 0) + 1)
  const currency = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0]
  if (currency === undefined) return h('p', {}, 'No transactions in the last year.')
  const daily = new Map<string, string>()
  for (const row of transactions) if (row.currency === currency) daily.set(row.transaction_date, addDecimal(daily.get(row.transaction_date) ?? '0', row.amount))
  const days = [...daily.keys()].sort()
  const end = [...latest.values()].filter((balance) => balance.currency === currency).reduce((sum, balance) => addDecimal(sum, balance.amount), '0')
  const totalFlow = days.reduce((sum, day) => addDecimal(sum, daily.get(day)!), '0')
  let running = addDecimal(end, totalFlow.startsWith('-') ? totalFlow.slice(1) : `-${totalFlow}`)
  const points = days.map((day) => {
    running = addDecimal(running, daily.get(day)!)
    return { day, value: Number(running) }
  })
  const width = 640
  const height = 160
  const values = points.map((point) => point.value)
  const min = Math.min(...values)
  const max = Math.max(...values)
  const span = max - min || 1
  const x = (index: number) => (points.length === 1 ? width / 2 : (index / (points.length - 1)) * (width - 20) + 10)
  const y = (value: number) => height - 10 - ((value - min) / span) * (height - 20)
  const line = points.map((point, index) => `${x(index).toFixed(1)},${y(point.value).toFixed(1)}`).join(' ')
  const title = svg('title')
  title.textContent = `Balance in ${currency} from ${points[0]!.day} to ${points.at(-1)!.day}`
  return h(
    'figure',
    {},
    svg('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', class: 'plot' }, title, svg('polyline', { points: line, fill: 'none', stroke: 'currentColor', 'stroke-width': 2 })),
    h('figcaption', {}, `${currency}: from ${money(points[0]!.value.toFixed(2), currency)} on ${points[0]!.day} to ${money(points.at(-1)!.value.toFixed(2), currency)} on ${points.at(-1)!.day}.`),
  )
}
