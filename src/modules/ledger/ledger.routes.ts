/**
 * Ledger routes (spec, "Ledger"): reads, normalization, reconciliation and counterparty trust. Every
 * handler calls one service method with the request's context; every POST (normalize, reconcile, the
 * trust transitions) takes an Idempotency-Key and marks a replayed outcome.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { contextOf } from '../../platform/http/context.ts'
import { IdempotencyKeyHeaders, markReplayed } from '../../platform/http/idempotency.ts'
import { bearerRoute } from '../../platform/http/route-auth.ts'
import { trustActions } from './domain/trust.ts'
import type { LedgerService } from './ledger.service.ts'
import {
  AccountList,
  AccountParams,
  AccountQuery,
  AccountWithBalance,
  AsOfQuery,
  BalanceList,
  BalanceQuery,
  Counterparty,
  CounterpartyList,
  CounterpartyParams,
  CounterpartyQuery,
  Invoice,
  InvoiceList,
  InvoiceParams,
  InvoiceQuery,
  JobParams,
  LedgerJob,
  MatchList,
  MatchQuery,
  NormalizeBody,
  NormalizeResponse,
  Obligation,
  ObligationList,
  ObligationParams,
  ObligationQuery,
  ReconcileBody,
  ReconcileJob,
  ReconcileJobParams,
  Transaction,
  TransactionList,
  TransactionParams,
  TransactionQuery,
  TrustBody,
} from './ledger.schemas.ts'
import { registerNamedSchemas } from '../../platform/http/schemas.ts'
import * as ledgerSchemas from './ledger.schemas.ts'

const tags = ['Ledger']
const ledgerRead = bearerRoute(['ledger:read'])
const ledgerWrite = bearerRoute(['ledger:write'])
/** Spec: a user bearer JWT with ledger:write; platform callers, service tokens and API keys cannot. */
const trustChange = bearerRoute(['ledger:write'], { principalTypes: ['user'] })
const asOfNote = 'as_of (optional) reads the Ledger as it was recorded at that instant.'
/** What every POST's description says about its Idempotency-Key. */
const idempotencyNote =
  'With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.'

const trustDescriptions = {
  grant: 'unreviewed, acknowledged or paused → trusted.',
  pause: 'unreviewed, acknowledged or trusted → paused (restore returns it to the state it was paused from).',
  restore: 'paused → the state it was paused from.',
  acknowledge: 'unreviewed → acknowledged: a member has seen it, without a trust decision.',
} as const

export const ledgerRoutes: FastifyPluginAsyncTypebox<{ ledger: LedgerService }> = async (app, { ledger }) => {
  // The named response schemas (Transaction, Member, …): OpenAPI components, referred to by $ref.
  registerNamedSchemas(app, [...Object.values(ledgerSchemas)])
  app.get(
    '/v1/ledger/transactions',
    {
      config: { auth: ledgerRead },
      schema: {
        operationId: 'listTransactions',
        tags,
        summary: 'List transactions',
        description: `Newest first (transaction_date, then id). since and until bound transaction_date, inclusive. ${asOfNote}`,
        querystring: TransactionQuery,
        response: { 200: TransactionList },
      },
    },
    async (request) => ledger.listTransactions(contextOf(request), request.query),
  )

  app.get(
    '/v1/ledger/transactions/:transaction_id',
    {
      config: { auth: ledgerRead },
      schema: { operationId: 'getTransaction', tags, summary: 'Read a transaction', description: asOfNote, params: TransactionParams, querystring: AsOfQuery, response: { 200: Transaction } },
    },
    async (request) => ledger.transaction(contextOf(request), { ...request.params, ...request.query }),
  )

  app.get(
    '/v1/ledger/accounts',
    {
      config: { auth: ledgerRead },
      schema: { operationId: 'listAccounts', tags, summary: 'List accounts', description: `Ordered by id. ${asOfNote}`, querystring: AccountQuery, response: { 200: AccountList } },
    },
    async (request) => ledger.listAccounts(contextOf(request), request.query),
  )

  app.get(
    '/v1/ledger/accounts/:account_id',
    {
      config: { auth: ledgerRead },
      schema: {
        operationId: 'getAccount',
        tags,
        summary: 'Read an account with its latest balance',
        description: `latest_balance is the account's most recent balance by date (closing preferred over current, available, opening), or null. ${asOfNote}`,
        params: AccountParams,
        querystring: AsOfQuery,
        response: { 200: AccountWithBalance },
      },
    },
    async (request) => ledger.account(contextOf(request), { ...request.params, ...request.query }),
  )

  app.get(
    '/v1/ledger/balances',
    {
      config: { auth: ledgerRead },
      schema: {
        operationId: 'listBalances',
        tags,
        summary: 'Balances as of a date',
        description:
          'One balance per account: the latest dated on or before as_of (a date; latest if omitted). known_at reads them as recorded at that instant.',
        querystring: BalanceQuery,
        response: { 200: BalanceList },
      },
    },
    async (request) => ledger.balances(contextOf(request), request.query),
  )

  app.get(
    '/v1/ledger/counterparties',
    {
      config: { auth: ledgerRead },
      schema: { operationId: 'listCounterparties', tags, summary: 'List counterparties', description: `Ordered by id. ${asOfNote}`, querystring: CounterpartyQuery, response: { 200: CounterpartyList } },
    },
    async (request) => ledger.listCounterparties(contextOf(request), request.query),
  )

  app.get(
    '/v1/ledger/counterparties/:counterparty_id',
    {
      config: { auth: ledgerRead },
      schema: { operationId: 'getCounterparty', tags, summary: 'Read a counterparty', description: asOfNote, params: CounterpartyParams, querystring: AsOfQuery, response: { 200: Counterparty } },
    },
    async (request) => ledger.counterparty(contextOf(request), { ...request.params, ...request.query }),
  )

  for (const action of trustActions) {
    app.post(
      `/v1/ledger/counterparties/:counterparty_id/trust/${action}`,
      {
        config: { auth: trustChange },
        schema: {
          operationId: `${action}CounterpartyTrust`,
          tags,
          summary: `Counterparty trust: ${action}`,
          description: `${trustDescriptions[action]} Records a new counterparty version (provenance human_confirmed) and emits ledger.counterparty.updated. 409 ledger_counterparty_trust_transition_invalid from any other state. Trust is advisory: it never lets a payment past policy or the gate. ${idempotencyNote}`,
          params: CounterpartyParams,
          headers: IdempotencyKeyHeaders,
          body: TrustBody,
          response: { 200: Counterparty },
        },
      },
      async (request, reply) => {
        const { outcome, replayed } = await ledger.changeTrust(contextOf(request), { ...request.params, action, ...request.body })
        return markReplayed(reply, replayed).send(outcome)
      },
    )
  }

  app.get(
    '/v1/ledger/invoices',
    {
      config: { auth: ledgerRead },
      schema: {
        operationId: 'listInvoices',
        tags,
        summary: 'Invoices: the receivables inventory',
        description: `Every receivable invoice (direction=payable lists bills), ordered by id, with amount_due. ${asOfNote}`,
        querystring: InvoiceQuery,
        response: { 200: InvoiceList },
      },
    },
    async (request) => ledger.listInvoices(contextOf(request), request.query),
  )

  app.get(
    '/v1/ledger/invoices/:invoice_id',
    {
      config: { auth: ledgerRead },
      schema: { operationId: 'getInvoice', tags, summary: 'Read an invoice', description: asOfNote, params: InvoiceParams, querystring: AsOfQuery, response: { 200: Invoice } },
    },
    async (request) => ledger.invoice(contextOf(request), { ...request.params, ...request.query }),
  )

  app.get(
    '/v1/ledger/obligations',
    {
      config: { auth: ledgerRead },
      schema: {
        operationId: 'listObligations',
        tags,
        summary: 'List obligations',
        description: `scenario ar selects receivable obligations and ap payable ones, unless direction is given. Any other scenario is 400 request_params_invalid. ${asOfNote}`,
        querystring: ObligationQuery,
        response: { 200: ObligationList },
      },
    },
    async (request) => ledger.listObligations(contextOf(request), request.query),
  )

  app.get(
    '/v1/ledger/obligations/:obligation_id',
    {
      config: { auth: ledgerRead },
      schema: { operationId: 'getObligation', tags, summary: 'Read an obligation', description: asOfNote, params: ObligationParams, querystring: AsOfQuery, response: { 200: Obligation } },
    },
    async (request) => ledger.obligation(contextOf(request), { ...request.params, ...request.query }),
  )

  app.post(
    '/v1/ledger/normalize',
    {
      config: { auth: ledgerWrite },
      schema: {
        operationId: 'normalizeParsedRow',
        tags,
        summary: 'Normalize one parsed row now',
        description:
          `Synchronous and idempotent: the same parsed row always resolves to the same entity ids, and normalizing it again writes nothing (outcome unchanged). Extraction already normalizes every row automatically; this is for a row of another parser version, or to see what a row became. target_entities is accepted and ignored (it is no part of the request an Idempotency-Key is compared with). 404 ledger_parsed_row_not_found, 410 raw_artifact_tombstoned, 422 ledger_parsed_row_unsupported. ${idempotencyNote}`,
        headers: IdempotencyKeyHeaders,
        body: NormalizeBody,
        response: { 200: NormalizeResponse },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await ledger.normalize(contextOf(request), request.body)
      return markReplayed(reply, replayed).send(outcome)
    },
  )

  app.post(
    '/v1/ledger/reconcile',
    {
      config: { auth: ledgerWrite },
      schema: {
        operationId: 'requestReconciliation',
        tags,
        summary: 'Run reconciliation',
        description:
          `Queues a reconciliation run over the current Ledger and answers 202 with the job; poll GET /v1/ledger/reconcile/{job_id}. Runs also start by themselves after each normalized artifact. Matches appear in GET /v1/ledger/reconciliation-matches. ${idempotencyNote} A replay answers the job as first answered (queued) and queues no other run.`,
        headers: IdempotencyKeyHeaders,
        body: ReconcileBody,
        response: { 202: LedgerJob },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await ledger.requestReconcile(contextOf(request), {})
      return markReplayed(reply, replayed).code(202).send(outcome)
    },
  )

  app.get(
    '/v1/ledger/reconcile/:job_id',
    {
      config: { auth: ledgerRead },
      schema: {
        tags,
        operationId: 'getReconcileJob',
        summary: 'A reconciliation run',
        description:
          'The run POST /v1/ledger/reconcile answered with (or one queued after a normalization): status, when it started and finished, why it failed, and once it succeeded its outcome (matches found, retired statement checks, entities created, unchanged and superseded). ' +
          '404 ledger_job_not_found for an id that names no reconciliation of the caller\'s tenant, whatever its shape (a normalization job\'s id included).',
        params: ReconcileJobParams,
        response: { 200: ReconcileJob },
      },
    },
    async (request) => ledger.reconcileJob(contextOf(request), request.params),
  )

  app.get(
    '/v1/ledger/jobs/:job_id',
    {
      config: { auth: ledgerRead },
      schema: {
        operationId: 'getLedgerJob',
        tags,
        summary: 'A normalization or reconciliation job',
        description: 'status: queued, running, succeeded or failed (with error); result holds counts per kind once finished.',
        params: JobParams,
        response: { 200: LedgerJob },
      },
    },
    async (request) => ledger.job(contextOf(request), request.params),
  )

  app.get(
    '/v1/ledger/reconciliation-matches',
    {
      config: { auth: ledgerRead },
      schema: {
        operationId: 'listReconciliationMatches',
        tags,
        summary: 'List reconciliation matches',
        description: `Filters: match_type, status, subject (a record the match involves, e.g. transaction:txn_…). Ordered by id. ${asOfNote}`,
        querystring: MatchQuery,
        response: { 200: MatchList },
      },
    },
    async (request) => ledger.listMatches(contextOf(request), request.query),
  )
}
