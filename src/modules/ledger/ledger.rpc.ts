/**
 * The Ledger's agent-protocol contributions (docs/mcp.md): five read tools and three resource templates,
 * each a thin adapter over the same LedgerService method as its REST route, with the route's query (and
 * path) schema as its arguments. ledger:read, as the routes.
 */
import { Type } from 'typebox'
import { rpcTool, type RpcContribution } from '../../platform/rpc/contributions.ts'
import type { LedgerService } from './ledger.service.ts'
import {
  AccountList,
  AccountQuery,
  AsOfQuery,
  CounterpartyList,
  CounterpartyQuery,
  ObligationList,
  ObligationQuery,
  Transaction,
  TransactionList,
  TransactionParams,
  TransactionQuery,
} from './ledger.schemas.ts'

const scopes = ['ledger:read'] as const

export const TransactionGetArguments = Type.Object({ ...TransactionParams.properties, ...AsOfQuery.properties }, { additionalProperties: false })

export function ledgerRpc(ledger: LedgerService): RpcContribution {
  return {
    tools: [
      rpcTool({
        name: 'ledger.accounts.list',
        title: 'List accounts',
        description: 'The tenant\'s accounts, ordered by id, with filters status and account_type, a page (limit, cursor) and as_of. REST twin: GET /v1/ledger/accounts.',
        scopes,
        input: AccountQuery,
        output: AccountList,
        readOnly: true,
        call: (context, args) => ledger.listAccounts(context, args),
      }),
      rpcTool({
        name: 'ledger.transactions.list',
        title: 'List transactions',
        description: 'Transactions with filters account_id, counterparty_id, direction, status, since, until, a page (limit up to 1000, cursor) and as_of. REST twin: GET /v1/ledger/transactions.',
        scopes,
        input: TransactionQuery,
        output: TransactionList,
        readOnly: true,
        call: (context, args) => ledger.listTransactions(context, args),
      }),
      rpcTool({
        name: 'ledger.transactions.get',
        title: 'Read a transaction',
        description: 'One transaction by transaction_id (optionally as recorded at as_of); another tenant\'s or an unknown id is -32602 with error_code ledger_transaction_not_found. REST twin: GET /v1/ledger/transactions/{transaction_id}.',
        scopes,
        input: TransactionGetArguments,
        output: Transaction,
        readOnly: true,
        call: (context, args) => ledger.transaction(context, args),
      }),
      rpcTool({
        name: 'ledger.counterparties.list',
        title: 'List counterparties',
        description: 'Counterparties ordered by id, with filters type, trust_state, verified_status, risk_level, a page and as_of. REST twin: GET /v1/ledger/counterparties.',
        scopes,
        input: CounterpartyQuery,
        output: CounterpartyList,
        readOnly: true,
        call: (context, args) => ledger.listCounterparties(context, args),
      }),
      rpcTool({
        name: 'ledger.obligations.list',
        title: 'List obligations',
        description: 'Obligations (bills, subscriptions, loans…) with filters scenario (ap or ar), direction, type, status, counterparty_id, a page and as_of. REST twin: GET /v1/ledger/obligations.',
        scopes,
        input: ObligationQuery,
        output: ObligationList,
        readOnly: true,
        call: (context, args) => ledger.listObligations(context, args),
      }),
    ],
    resourceTemplates: [
      {
        name: 'ledger.account',
        title: 'Account',
        uriTemplate: 'svc://ledger/accounts/{account_id}',
        description: 'An account with its latest balance, as GET /v1/ledger/accounts/{account_id} answers.',
        mimeType: 'application/json',
        scopes,
        read: (context, params) => ledger.account(context, { account_id: params.account_id! }),
      },
      {
        name: 'ledger.transaction',
        title: 'Transaction',
        uriTemplate: 'svc://ledger/transactions/{transaction_id}',
        description: 'A transaction, as GET /v1/ledger/transactions/{transaction_id} answers.',
        mimeType: 'application/json',
        scopes,
        read: (context, params) => ledger.transaction(context, { transaction_id: params.transaction_id! }),
      },
      {
        name: 'ledger.obligation',
        title: 'Obligation',
        uriTemplate: 'svc://ledger/obligations/{obligation_id}',
        description: 'An obligation, as GET /v1/ledger/obligations/{obligation_id} answers.',
        mimeType: 'application/json',
        scopes,
        read: (context, params) => ledger.obligation(context, { obligation_id: params.obligation_id! }),
      },
    ],
  }
}
