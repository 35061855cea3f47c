/** `steward ledger transactions`: GET /v1/ledger/transactions as a table (or JSON), newest first. */
import { CliError, exitCodes } from '../context.ts'
import { table } from '../output.ts'
import type { CommandDefinition } from './definition.ts'

interface Transaction {
  id: string
  account_id: string
  amount: string
  currency: string
  direction: string
  transaction_date: string
  counterparty_id: string | null
  status: string
  description: string
  reconciliation_status: string
}

/** Rows a listing may gather with --all before it stops (and says so). */
const allRowsMax = 100_000

export const ledgerTransactions: CommandDefinition = {
  path: ['ledger', 'transactions'],
  summary: 'List Ledger transactions',
  usage:
    'steward ledger transactions [--limit N] [--all] [--cursor C] [--account-id ID] [--counterparty-id ID] [--direction D] [--status S] [--since DATE] [--until DATE] [--json]',
  help: 'Newest first. --limit is the page size (default 100, at most 1000); --all follows next_cursor to the end. --json prints the API\'s page(s) as JSON.',
  options: {
    limit: { type: 'string' },
    all: { type: 'boolean' },
    cursor: { type: 'string' },
    'account-id': { type: 'string' },
    'counterparty-id': { type: 'string' },
    direction: { type: 'string' },
    status: { type: 'string' },
    since: { type: 'string' },
    until: { type: 'string' },
  },
  async run(context) {
    if (context.positionals.length > 0) throw new CliError(exitCodes.usage, `unexpected argument ${context.positionals[0]}`)
    const api = context.tenantApi()
    const value = (name: string) => context.values[name] as string | undefined
    const query = {
      limit: value('limit'),
      account_id: value('account-id'),
      counterparty_id: value('counterparty-id'),
      direction: value('direction'),
      status: value('status'),
      since: value('since'),
      until: value('until'),
    }
    const transactions: Transaction[] = []
    let cursor = value('cursor')
    let nextCursor: string | null = null
    do {
      const page: { transactions: Transaction[]; next_cursor: string | null } = await api.get('/v1/ledger/transactions', { ...query, cursor })
      transactions.push(...page.transactions)
      nextCursor = page.next_cursor
      cursor = nextCursor ?? undefined
    } while (context.values.all === true && nextCursor !== null && transactions.length < allRowsMax)
    if (context.output.json) {
      context.output.data({ transactions, next_cursor: nextCursor })
      return exitCodes.ok
    }
    if (transactions.length === 0) {
      context.output.line('No transactions.')
      return exitCodes.ok
    }
    context.output.line(
      table(transactions, [
        { header: 'DATE', value: (row) => row.transaction_date },
        { header: 'AMOUNT', value: (row) => row.amount, right: true },
        { header: 'CURRENCY', value: (row) => row.currency },
        { header: 'STATUS', value: (row) => row.status },
        { header: 'DESCRIPTION', value: (row) => row.description, max: 48 },
        { header: 'RECONCILED', value: (row) => row.reconciliation_status },
        { header: 'ID', value: (row) => row.id },
      ]),
    )
    if (nextCursor !== null) context.output.note(`More: steward ledger transactions --cursor ${nextCursor}   (or --all)`)
    return exitCodes.ok
  },
}
