/**
 * The proposal and evidence routes (spec, "Proposals and evidence"): the read model over agent output
 * (GET /v1/proposals, GET /v1/proposals/{id}), deciding on a proposal (POST /v1/proposals/{id}/decide) and
 * evidence resolve (POST /v1/evidence/resolve). Thin: each handler calls one service method.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { contextOf, principalOf } from '../../platform/http/context.ts'
import { IdempotencyKeyHeaders, markReplayed } from '../../platform/http/idempotency.ts'
import { bearerRoute } from '../../platform/http/route-auth.ts'
import { registerNamedSchemas } from '../../platform/http/schemas.ts'
import type { DecideService } from './decide.service.ts'
import type { EvidenceService } from './evidence.service.ts'
import * as proposalSchemas from './proposals.schemas.ts'
import { DecideBody, DecideResult, EvidenceResolveBody, EvidenceResolveResult, Proposal, ProposalList, ProposalListQuery, ProposalParams } from './proposals.schemas.ts'
import type { ReadService } from './read.service.ts'

const tags = ['Proposals']
const executionRead = bearerRoute(['execution:read'])

export const proposalsReadNote =
  'Every agent proposal — the first-party agents\' findings and payments, and actions agents proposed themselves (POST /v1/agents/actions) — as a Proposal: its public type (resolved in the spec\'s order: a stored action type that is a public type, the agent\'s role or catalog key, the explicit map; notify, escalate, create_task and recommend_action by role only), its status (a money proposal\'s is its PaymentIntent\'s now, shadow_completed reading approved; a finding\'s is its latest decision), risk band, policy decision (a finding\'s: the active policy on an agent_action, evaluated when read), presentation and available decisions (docs/proposals.md).'

export const decideNote =
  'Body decision approve, reject, acknowledge or undo, optional reason (≤ 500 characters). Only a person decides: an agent, API key or service token is 403 actor_unresolved; a user needs execution:read or payment_intent:approve. ' +
  'A money proposal is approved or rejected through its PaymentIntent, with the member checks in the spec\'s order (active member, admin or approver role, approval domain, per-item limit, not the payee, a distinct second approver): 403 payment_intent_approval_invalid with details.reason (a repeated approval by the same member is second_approval_required); 409 payment_intent_invalid_state when the intent no longer waits for approval. Approval authorizes the internal settlement path and dispatches no rail. ' +
  'A finding is acknowledged (a person saw it) or rejected (closed) by an active owner, admin or approver whose approval domains cover it (*, its type or its action type; else 403 actor_unresolved with details.reason); undo reverses the acknowledge or reject in force (status undone; it can be decided again). Money decisions are not undone (pause or cancel the intent instead). A decision not among the proposal\'s available decisions is 409 proposal_decision_unavailable. ' +
  'Every decision is written to the audit log (proposal.decision_recorded) before the status changes, in one transaction; emits proposal.decided when the proposal reaches approved, rejected, acknowledged or undone, and proposal.awaiting_second_approval when a first approval waits for a second member. With Idempotency-Key, a repeated request gets the first decision (header Idempotent-Replayed: true) and the proposal as it reads now; a different request with the same key is 409 idempotency_key_reused.'

export const evidenceNote =
  'Up to 50 refs (kind and ref); each is answered, never an error (51 refs is 400). account, counterparty, invoice, obligation and transaction refs are looked up in your Ledger, wiki_entity refs (any Ledger record id) through the Wiki: found, with summary and deep_link (the API path that reads it); a well-formed ref that names nothing in your tenant is resolvable true, not_found true. document, payment_intent, policy, raw_artifact and any other kind are resolvable false with reason unsupported_kind; a ref that is not an id of its kind (wrong prefix, empty, over 160 characters) reason malformed_ref.'

export interface ProposalRoutesOptions {
  readonly read: ReadService
  readonly decide: DecideService
  readonly evidence: EvidenceService
}

export const proposalRoutes: FastifyPluginAsyncTypebox<ProposalRoutesOptions> = async (app, { read, decide, evidence }) => {
  registerNamedSchemas(app, Object.values(proposalSchemas))

  app.get(
    '/v1/proposals',
    {
      config: { auth: executionRead },
      schema: {
        operationId: 'listProposals',
        tags,
        summary: 'Agent proposals, newest first',
        description: `${proposalsReadNote} Filters type, status, risk_band, min_confidence (0..1); limit 1 to 100 (default 50); cursor (bound to the filters: a cursor of another filter set is 400 invalid_cursor). next_cursor is null on the last page. With type, status or risk_band, one request reads at most 2,000 proposals: a page may then hold fewer than limit items, even none, and still carry a next_cursor that goes on from the last proposal read.`,
        querystring: ProposalListQuery,
        response: { 200: ProposalList },
      },
    },
    async (request) => read.list(principalOf(request).tenantId, request.query),
  )

  app.get(
    '/v1/proposals/:id',
    {
      config: { auth: executionRead },
      schema: {
        operationId: 'getProposal',
        tags,
        summary: 'One proposal',
        description: `${proposalsReadNote} 404 execution_proposal_not_found for an id that names no proposal of your tenant.`,
        params: ProposalParams,
        response: { 200: Proposal },
      },
    },
    async (request) => read.get(principalOf(request).tenantId, request.params.id),
  )

  app.post(
    '/v1/proposals/:id/decide',
    {
      // Any bearer reaches the service, which answers agents and keys actor_unresolved (spec, "Decide rules").
      config: { auth: bearerRoute([]) },
      schema: {
        operationId: 'decideProposal',
        tags,
        summary: 'Approve, reject, acknowledge or undo a decision on a proposal',
        description: `${decideNote} 404 execution_proposal_not_found for an id that names no proposal of your tenant.`,
        headers: IdempotencyKeyHeaders,
        params: ProposalParams,
        body: DecideBody,
        response: { 200: DecideResult },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await decide.decide(contextOf(request), { id: request.params.id, ...request.body })
      return markReplayed(reply, replayed).send(outcome)
    },
  )

  app.post(
    '/v1/evidence/resolve',
    {
      config: { auth: executionRead },
      schema: {
        operationId: 'resolveEvidence',
        tags,
        summary: 'Resolve evidence refs to records',
        description: evidenceNote,
        body: EvidenceResolveBody,
        response: { 200: EvidenceResolveResult },
      },
    },
    async (request) => evidence.resolve(principalOf(request).tenantId, request.body),
  )
}
