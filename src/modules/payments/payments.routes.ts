/**
 * PaymentIntent routes (spec, "PaymentIntents"). The tenant is the caller's; another tenant's intent is
 * 404 payment_intent_not_found. Proposing needs payment_intent:propose (agents and the service token;
 * never an owner JWT); approving, rejecting, pausing and cancelling need payment_intent:approve plus the
 * member rules (domain/approvals.ts); reads need execution:read. Every POST takes an Idempotency-Key.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { contextOf, principalOf } from '../../platform/http/context.ts'
import { IdempotencyKeyHeaders, markReplayed } from '../../platform/http/idempotency.ts'
import { bearerRoute } from '../../platform/http/route-auth.ts'
import { registerNamedSchemas } from '../../platform/http/schemas.ts'
import type { DecideService } from './decide.service.ts'
import { gateFailure, type GateService } from './gate.service.ts'
import type { ProposeService } from './propose.service.ts'
import type { ReadService } from './read.service.ts'
import * as paymentsSchemas from './payments.schemas.ts'
import {
  ExecuteResponse,
  IntentListQuery,
  IntentListResponse,
  IntentPathParams,
  IntentReadQuery,
  PaymentIntent,
  ProposeBody,
  RejectBody,
  ReplayInvestigationResponse,
} from './payments.schemas.ts'

export interface PaymentRoutesOptions {
  readonly propose: ProposeService
  readonly decide: DecideService
  readonly read: ReadService
  readonly gate: GateService
}

const tags = ['PaymentIntents']
const idempotencyNote =
  'With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.'
const memberRules =
  '403 payment_intent_approval_invalid with details.reason (actor_unresolved, actor_inactive, domain_not_authorized, actor_limit_exceeded, self_approval_blocked, second_approval_required) when the member may not; 409 payment_intent_invalid_state from a status that does not allow it.'

export const paymentRoutes: FastifyPluginAsyncTypebox<PaymentRoutesOptions> = async (app, { propose, decide, read, gate }) => {
  registerNamedSchemas(app, [...Object.values(paymentsSchemas)])
  const approverRoute = bearerRoute(['payment_intent:approve'])

  app.post(
    '/v1/payment-intents',
    {
      config: { auth: bearerRoute(['payment_intent:propose']) },
      schema: {
        operationId: 'createPaymentIntent',
        tags,
        summary: 'Propose a payment',
        description:
          'Checks the proposal against the Ledger, evaluates the active policy with every gate-populated key (agent, action type, confidence, evidence score, counterparty risk, spend and count in the window) and answers 201 with the PolicyDecision attached and the status it leads to: approved, pending_approval (the policy said confirm, or the hard human-approval floor holds it) or rejected. ' +
          '400 validation_failed (currency and amount rules; a proposal naming an invoice_id must pay that invoice: its counterparty, its currency, at most what is outstanding), 404 for an account, counterparty, invoice, obligation or evidence row that is not the tenant\'s, 409 invoice_already_paid, 409 invoice_not_payable (cancelled, no counterparty, or `reason: being_paid`: other intents already pay what it has outstanding, or the pay_invoice shortcut\'s whole amount does not fit beside them; a smaller explicit amount that does not fit is 400 validation_failed naming what is left), 409 agent_proposal_duplicate (the same agent proposed the same action within 24 hours), 409 policy_not_active, 422 obligation_direction_invalid. ' +
          idempotencyNote,
        headers: IdempotencyKeyHeaders,
        body: ProposeBody,
        response: { 201: PaymentIntent },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await propose.propose(contextOf(request), request.body)
      return markReplayed(reply, replayed).code(201).send(outcome)
    },
  )

  app.get(
    '/v1/payment-intents',
    {
      config: { auth: bearerRoute(['execution:read']) },
      schema: {
        operationId: 'listPaymentIntents',
        tags,
        summary: 'List payment intents',
        description: 'Newest first; filters by status, action type, proposing agent and creation time; a cursor is bound to its filters.',
        querystring: IntentListQuery,
        response: { 200: IntentListResponse },
      },
    },
    async (request) => read.list(principalOf(request).tenantId, request.query),
  )

  app.get(
    '/v1/payment-intents/:payment_intent_id',
    {
      config: { auth: bearerRoute(['execution:read']) },
      schema: { operationId: 'getPaymentIntent', tags, summary: 'Read a payment intent', params: IntentPathParams, querystring: IntentReadQuery, response: { 200: PaymentIntent } },
    },
    async (request) => read.get(principalOf(request).tenantId, request.params.payment_intent_id, { expandAgent: request.query.expand === 'agent' }),
  )

  app.get(
    '/v1/payment-intents/:payment_intent_id/replay-investigation',
    {
      config: { auth: bearerRoute(['execution:read']) },
      schema: {
        operationId: 'getPaymentIntentReplayInvestigation',
        tags,
        summary: 'Investigate a payment intent',
        description: 'The intent, its rail executions, its policy decision id and its evidence.',
        params: IntentPathParams,
        response: { 200: ReplayInvestigationResponse },
      },
    },
    async (request) => read.replayInvestigation(principalOf(request).tenantId, request.params.payment_intent_id),
  )

  app.post(
    '/v1/payment-intents/:payment_intent_id/approve',
    {
      config: { auth: approverRoute },
      schema: {
        operationId: 'approvePaymentIntent',
        tags,
        summary: 'Approve a payment intent',
        description: `No body. Approved once the distinct approvals reach approvals_required, else awaiting_second_approval (a distinct second member must approve). ${memberRules} ${idempotencyNote}`,
        params: IntentPathParams,
        headers: IdempotencyKeyHeaders,
        response: { 200: PaymentIntent },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await decide.approve(contextOf(request), { id: request.params.payment_intent_id })
      return markReplayed(reply, replayed).send(outcome)
    },
  )

  app.post(
    '/v1/payment-intents/:payment_intent_id/reject',
    {
      config: { auth: approverRoute },
      schema: {
        operationId: 'rejectPaymentIntent',
        tags,
        summary: 'Reject a payment intent',
        description: `Optional reason (at most 500 characters). From pending_approval or awaiting_second_approval. ${memberRules} ${idempotencyNote}`,
        params: IntentPathParams,
        headers: IdempotencyKeyHeaders,
        body: RejectBody,
        response: { 200: PaymentIntent },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await decide.reject(contextOf(request), { id: request.params.payment_intent_id, reason: request.body?.reason })
      return markReplayed(reply, replayed).send(outcome)
    },
  )

  app.post(
    '/v1/payment-intents/:payment_intent_id/pause',
    {
      config: { auth: approverRoute },
      schema: {
        operationId: 'pausePaymentIntent',
        tags,
        summary: 'Pause an approved payment intent',
        description: `No body. approved → paused. ${memberRules} ${idempotencyNote}`,
        params: IntentPathParams,
        headers: IdempotencyKeyHeaders,
        response: { 200: PaymentIntent },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await decide.pause(contextOf(request), { id: request.params.payment_intent_id })
      return markReplayed(reply, replayed).send(outcome)
    },
  )

  app.post(
    '/v1/payment-intents/:payment_intent_id/cancel',
    {
      config: { auth: approverRoute },
      schema: {
        operationId: 'cancelPaymentIntent',
        tags,
        summary: 'Cancel a payment intent',
        description: `No body. From proposed, pending_approval, awaiting_second_approval or paused → cancelled (the spec leaves this HTTP route unshown; the agent protocol's payment_intent.cancel calls the same command for the proposing agent). ${memberRules} ${idempotencyNote}`,
        params: IntentPathParams,
        headers: IdempotencyKeyHeaders,
        response: { 200: PaymentIntent },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await decide.cancel(contextOf(request), { id: request.params.payment_intent_id })
      return markReplayed(reply, replayed).send(outcome)
    },
  )

  const gateNote =
    'Runs the 23 checks of the section 6 gate on one snapshot (docs/gate.md); every run is recorded. A failure is 409 payment_intent_gate_failed whose details name the first failed check (index, name, gate code, reason) and list every failed one; the intent is unchanged.'

  app.post(
    '/v1/payment-intents/:payment_intent_id/execute',
    {
      config: { auth: bearerRoute(['payment_intent:execute']) },
      schema: {
        operationId: 'executePaymentIntent',
        tags,
        summary: 'Execute an approved payment intent through the gate',
        description: `No body; needs payment_intent:execute, which no external credential carries. ${gateNote} On a pass: 202, the intent is dispatching, its outbox row and (for money leaving a Ledger account) its reservation are written in the same transaction. A money proposal of an agent that is not promoted is a shadow run (governing rule 7): every check runs and is recorded, then the intent ends shadow_completed and nothing is sent or reserved, pass or fail: 202 with status shadow_completed, outbox_id null and \`shadow\` saying whether the gate passed (docs/execution.md). 409 action_already_executed for an intent already dispatched; 409 payment_intent_invalid_state from any status but approved. ${idempotencyNote}`,
        params: IntentPathParams,
        headers: IdempotencyKeyHeaders,
        response: { 202: ExecuteResponse },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await gate.execute(contextOf(request), { id: request.params.payment_intent_id })
      if (!outcome.passed) throw gateFailure(outcome)
      const { passed: _passed, ...dispatch } = outcome
      return markReplayed(reply, replayed).code(202).send({ ...dispatch, status: dispatch.status === 'shadow_completed' ? 'shadow_completed' : ('dispatching' as const) })
    },
  )

  app.post(
    '/v1/payment-intents/:payment_intent_id/resume',
    {
      config: { auth: approverRoute },
      schema: {
        operationId: 'resumePaymentIntent',
        tags,
        summary: 'Resume a paused payment intent',
        description: `No body. paused → approved when the live gate passes against the current Ledger. ${gateNote} ${memberRules} ${idempotencyNote}`,
        params: IntentPathParams,
        headers: IdempotencyKeyHeaders,
        response: { 200: PaymentIntent },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await gate.resume(contextOf(request), { id: request.params.payment_intent_id })
      if (!outcome.passed) throw gateFailure(outcome)
      return markReplayed(reply, replayed).send(await read.get(principalOf(request).tenantId, outcome.payment_intent_id, { expandAgent: false }))
    },
  )
}
