/**
 * The agent routes (spec, "Agents"): the catalog and registered agents (GET /v1/agents, GET
 * /v1/agents/{agent_id}), routing and runs (POST /v1/agents/route, /run, /events) and their reads,
 * registration (POST /v1/execution/agents/register, execution:admin), and halt, restore, halt-category
 * and the contribution-hold release (payment_intent:approve). Scopes (docs/decisions.md): every read,
 * route, run and events need execution:read; an agent that proposes payments is only run for a caller who
 * holds payment_intent:approve or execution:propose (else the decision is unscoped and nothing runs).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Static } from 'typebox'
import { contextOf, principalOf } from '../../platform/http/context.ts'
import { IdempotencyKeyHeaders, markReplayed } from '../../platform/http/idempotency.ts'
import { bearerRoute } from '../../platform/http/route-auth.ts'
import { registerNamedSchemas } from '../../platform/http/schemas.ts'
import { ProofSchema } from '../proofs/index.ts'
import type { AgentsService } from './agents.service.ts'
import * as agentSchemas from './agents.schemas.ts'
import {
  ActionsQuery,
  AgentActions,
  AgentCategoryHalt,
  AgentDetail,
  AgentHalt,
  AgentList,
  AgentListQuery,
  AgentParams,
  AgentStateView,
  ContributionHoldRelease,
  EventQueued,
  HaltCategoryBody,
  RegisterAgentBody,
  RegisteredAgent,
  RouteBody,
  RoutingDecisionDetail,
  RoutingDecisionParams,
  RoutingResult,
  RunDetail,
  RunEvidence,
  RunGateTrace,
  RunList,
  RunListQuery,
  RunParams,
  RunResult,
  RunWhy,
} from './agents.schemas.ts'
import type { ActionsService } from './actions.service.ts'
import { AgentActionBody, AgentActionProposed } from './agents.schemas.ts'
import type { HaltService } from './halt.service.ts'
import type { RegistryService } from './registry.service.ts'
import type { RunService } from './run.service.ts'
import type { RunsReadService } from './runs.read.ts'

const tags = ['Agents']
const executionRead = bearerRoute(['execution:read'])
const executionAdmin = bearerRoute(['execution:admin'])
const approve = bearerRoute(['payment_intent:approve'])
const idempotencyNote =
  'With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.'
const inputNote = 'Body: exactly one of event (a domain-event name) and intent (free text), plus optional context (context.as_of: the day to run for). Routing is deterministic (docs/agents.md, "Routing").'

export interface AgentRoutesOptions {
  readonly agents: AgentsService
  readonly runs: RunService
  readonly reads: RunsReadService
  readonly registry: RegistryService
  readonly halt: HaltService
  readonly actions: ActionsService
}

export const agentRoutes: FastifyPluginAsyncTypebox<AgentRoutesOptions> = async (app, { agents, runs, reads, registry, halt, actions }) => {
  registerNamedSchemas(app, [...Object.values(agentSchemas), ProofSchema])

  app.post(
    '/v1/agents/actions',
    {
      config: { auth: bearerRoute(['payment_intent:propose'], { principalTypes: ['agent', 'service'] }) },
      schema: {
        operationId: 'proposeAgentAction',
        tags,
        summary: 'Propose a non-money finding as the calling agent',
        description:
          `An agent (agent token with payment_intent:propose, or a service token standing for Steward's internal agents) records a finding — a flag, a reminder, a match, … — with its narrative, confidence, evidence refs and details. It becomes a proposal (GET /v1/proposals/{id}, status proposed) that a person acknowledges or rejects. Audited agent.action.proposed, and the event of that name. ` +
          `400 validation_failed for a payment action type (money moves are PaymentIntents: POST /v1/payment-intents) or one that resolves to no public proposal type; 409 agent_inactive when the agent is halted (quarantined), pending or revoked. The agent protocol's agent_action.propose tool calls the same service. ${idempotencyNote}`,
        headers: IdempotencyKeyHeaders,
        body: AgentActionBody,
        response: { 201: AgentActionProposed },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await actions.propose(contextOf(request), request.body)
      return markReplayed(reply, replayed).code(201).send(outcome)
    },
  )
  app.get(
    '/v1/agents',
    {
      config: { auth: executionRead },
      schema: {
        operationId: 'listAgents',
        tags,
        summary: 'The first-party agent catalog and your registered agents',
        description:
          'Every first-party agent (each a deterministic program over your Ledger), in catalog order, then your registered external agents (kind external), in id order. Filters: kind, capability and category (registered agents have neither, so either filter leaves them out), and state (catalog agents: enabled or disabled by default; registered agents: enabled when active).',
        querystring: AgentListQuery,
        response: { 200: AgentList },
      },
    },
    async (request) => agents.list(principalOf(request).tenantId, request.query),
  )

  app.post(
    '/v1/agents/route',
    {
      config: { auth: executionRead },
      schema: {
        operationId: 'routeAgent',
        tags,
        summary: 'Which agent should handle an event or intent (advisory)',
        description: `${inputNote} Nothing runs; the decision is recorded (GET /v1/agents/routing-decisions/{id}) and audited agent.routed. 400 validation_failed without exactly one of event and intent. ${idempotencyNote}`,
        headers: IdempotencyKeyHeaders,
        body: RouteBody,
        response: { 200: RoutingResult },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await runs.route(contextOf(request), request.body)
      return markReplayed(reply, replayed).send(outcome)
    },
  )

  app.post(
    '/v1/agents/run',
    {
      config: { auth: executionRead },
      schema: {
        operationId: 'runAgent',
        tags,
        summary: 'Route, run the agent on your Ledger, and propose through the gated path',
        description:
          `${inputNote} The pipeline: route; run the agent's program on your Ledger; resolve each money proposal's action and dry-run the gate on it (the active policy's decision); propose it as a PaymentIntent through the gated path as the agent (shadow_completed at once when the policy approved it and the agent is not promoted); record findings as proposals; persist the run (audited agent.run.completed). ` +
          `status proposal_created, no_proposal, no_match or unscoped. 409 agent_proposal_duplicate when every proposal the run would make was already made by the agent within 24 hours (details.run_id names the earlier run); 409 agent_inactive when the selected agent is halted (quarantined) or revoked in your tenant. ${idempotencyNote}`,
        headers: IdempotencyKeyHeaders,
        body: RouteBody,
        response: { 200: RunResult },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await runs.run(contextOf(request), request.body)
      return markReplayed(reply, replayed).send(outcome)
    },
  )

  app.post(
    '/v1/agents/events',
    {
      config: { auth: executionRead },
      schema: {
        operationId: 'queueAgentEvent',
        tags,
        summary: 'Queue a run for an event or intent',
        description: `${inputNote} The run (as POST /v1/agents/run, as you) happens in a job; GET /v1/agents/runs shows it with trigger=event and this job_id. Audited agent.event.queued. ${idempotencyNote}`,
        headers: IdempotencyKeyHeaders,
        body: RouteBody,
        response: { 202: EventQueued },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await runs.queue(contextOf(request), request.body)
      return markReplayed(reply, replayed).code(202).send(outcome)
    },
  )

  app.get(
    '/v1/agents/routing-decisions/:id',
    {
      config: { auth: executionRead },
      schema: {
        operationId: 'getRoutingDecision',
        tags,
        summary: 'One routing decision',
        description: 'The input, the selection, the rule that made it and every candidate with its score. 404 agent_routing_decision_not_found.',
        params: RoutingDecisionParams,
        response: { 200: RoutingDecisionDetail },
      },
    },
    async (request) => reads.routingDecision(principalOf(request).tenantId, request.params.id),
  )

  app.get(
    '/v1/agents/runs',
    {
      config: { auth: executionRead },
      schema: {
        operationId: 'listAgentRuns',
        tags,
        summary: 'Agent runs, newest first',
        description: 'Filtered by agent_id, status and category; paged by a cursor bound to the filters (400 invalid_cursor).',
        querystring: RunListQuery,
        response: { 200: RunList },
      },
    },
    async (request) => reads.runs(principalOf(request).tenantId, request.query),
  )

  app.get(
    '/v1/agents/runs/:run_id',
    {
      config: { auth: executionRead },
      schema: {
        operationId: 'getAgentRun',
        tags,
        summary: 'One run and its proposals',
        description: 'A money proposal\'s status is its PaymentIntent\'s now. 404 agent_run_not_found.',
        params: RunParams,
        response: { 200: RunDetail },
      },
    },
    async (request) => reads.run(principalOf(request).tenantId, request.params.run_id),
  )

  app.get(
    '/v1/agents/runs/:run_id/why',
    {
      config: { auth: executionRead },
      schema: {
        operationId: 'explainAgentRun',
        tags,
        summary: 'Why the run did what it did',
        description: 'The structured reason, the reasoning trace (record ids and kinds; the intent text and narratives redacted), the candidate agents and the behaviour hash it ran with. 404 agent_run_not_found.',
        params: RunParams,
        response: { 200: RunWhy },
      },
    },
    async (request) => reads.why(principalOf(request).tenantId, request.params.run_id),
  )

  app.get(
    '/v1/agents/runs/:run_id/evidence',
    {
      config: { auth: executionRead },
      schema: {
        operationId: 'getAgentRunEvidence',
        tags,
        summary: 'The evidence the run consulted',
        description: 'Every Ledger record and parsed row its proposals cite, each once with the proposals citing it, and what it read of the Ledger. 404 agent_run_not_found.',
        params: RunParams,
        response: { 200: RunEvidence },
      },
    },
    async (request) => reads.evidence(principalOf(request).tenantId, request.params.run_id),
  )

  app.get(
    '/v1/agents/runs/:run_id/gate-trace',
    {
      config: { auth: executionRead },
      schema: {
        operationId: 'getAgentRunGateTrace',
        tags,
        summary: 'The gate checks of the run\'s PaymentIntents',
        description: 'For each PaymentIntent the run proposed: the policy dry run made before proposing, and every gate run with its checks. Empty for a run with no payment. 404 agent_run_not_found.',
        params: RunParams,
        response: { 200: RunGateTrace },
      },
    },
    async (request) => reads.gateTrace(principalOf(request).tenantId, request.params.run_id),
  )

  app.get(
    '/v1/agents/runs/:run_id/proof',
    {
      config: { auth: bearerRoute(['execution:read', 'audit:read']) },
      schema: {
        operationId: 'getAgentRunProof',
        tags,
        summary: 'The proof of the run\'s PaymentIntent',
        description: 'GET /v1/proof/{action_id} for the run\'s first PaymentIntent (needs audit:read as that route does). 404 agent_run_not_found; 404 proof_not_found when the run proposed no payment.',
        params: RunParams,
        response: { 200: ProofSchema },
      },
    },
    async (request) => (await reads.proof(principalOf(request).tenantId, request.params.run_id)) as Static<typeof ProofSchema>,
  )

  app.get(
    '/v1/agents/:agent_id',
    {
      config: { auth: executionRead },
      schema: {
        operationId: 'getAgent',
        tags,
        summary: 'One agent: its definition and registration',
        description:
          'For a first-party agent, definition is the catalog entry with shadow_mode (true until an admin promotes the agent for your tenant) and registration is null; for an agent registered in your tenant, definition is null and registration is its record. state and contribution_hold are the agent\'s in your tenant. 404 agent_not_found for any other id.',
        params: AgentParams,
        response: { 200: AgentDetail },
      },
    },
    async (request) => agents.get(principalOf(request).tenantId, request.params.agent_id),
  )

  app.get(
    '/v1/agents/:agent_id/actions',
    {
      config: { auth: executionRead },
      schema: {
        operationId: 'listAgentActions',
        tags,
        summary: 'What the agent produced in your tenant',
        description: 'Each proposal, newest first, with its PaymentIntent (id, status now) for payments and null for findings. 404 agent_not_found.',
        params: AgentParams,
        querystring: ActionsQuery,
        response: { 200: AgentActions },
      },
    },
    async (request) => reads.actions(principalOf(request).tenantId, request.params.agent_id, request.query),
  )

  app.post(
    '/v1/execution/agents/register',
    {
      config: { auth: executionAdmin },
      schema: {
        operationId: 'registerAgent',
        tags,
        summary: 'Register an external agent',
        description:
          '201 with the agent: kind external, state pending_onchain, registered_at null. The role fixes its plain scopes and so its scope hash (a scope_hash given must equal it, else 400 validation_failed). ' +
          'The agent becomes active when its AgentRegistry registration is confirmed on chain (the registered_tx given, or the contract\'s record) with that scope hash; in a sandbox with no chain configured, by the platform\'s governance resume (docs/agents.md). 409 agent_already_registered for an id your tenant already has; 409 wallet_already_linked for an onchain_address another agent (of any tenant) is registered with, or that is linked to a person or another tenant (a wallet address belongs to one agent in the service). ' +
          idempotencyNote,
        headers: IdempotencyKeyHeaders,
        body: RegisterAgentBody,
        response: { 201: RegisteredAgent },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await registry.register(contextOf(request), request.body)
      return markReplayed(reply, replayed).code(201).send(outcome)
    },
  )

  app.post(
    '/v1/agents/halt-category',
    {
      config: { auth: approve },
      schema: {
        operationId: 'haltAgentCategory',
        tags,
        summary: 'Halt every agent of a category',
        description: `Halts every active first-party agent of the category in your tenant, as the single-agent halt does each, in one transaction; agents already quarantined are left as they are. Registered agents have no category. ${idempotencyNote}`,
        headers: IdempotencyKeyHeaders,
        body: HaltCategoryBody,
        response: { 200: AgentCategoryHalt },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await halt.haltCategory(contextOf(request), request.body)
      return markReplayed(reply, replayed).send(outcome)
    },
  )

  app.post(
    '/v1/agents/:agent_id/halt',
    {
      config: { auth: approve },
      schema: {
        operationId: 'haltAgent',
        tags,
        summary: 'Halt an agent',
        description: `Pauses every in-flight (approved) PaymentIntent the agent proposed, sets its state quarantined and holds its Raw contributions, in one transaction; audited (agent.halted, and payment_intent.paused per intent). 404 agent_not_found; 409 agent_inactive unless active. ${idempotencyNote}`,
        params: AgentParams,
        headers: IdempotencyKeyHeaders,
        response: { 200: AgentHalt },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await halt.halt(contextOf(request), { agent_id: request.params.agent_id })
      return markReplayed(reply, replayed).send(outcome)
    },
  )

  app.post(
    '/v1/agents/:agent_id/restore',
    {
      config: { auth: approve },
      schema: {
        operationId: 'restoreAgent',
        tags,
        summary: 'Restore a halted agent',
        description: `quarantined → active (audited agent.restored). Its paused intents stay paused, and its contribution hold stays until released. 404 agent_not_found when the agent is not registered; 409 agent_inactive unless quarantined. ${idempotencyNote}`,
        params: AgentParams,
        headers: IdempotencyKeyHeaders,
        response: { 200: AgentStateView },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await halt.restore(contextOf(request), { agent_id: request.params.agent_id })
      return markReplayed(reply, replayed).send(outcome)
    },
  )

  app.post(
    '/v1/agents/:agent_id/contribution-hold/release',
    {
      config: { auth: approve },
      schema: {
        operationId: 'releaseAgentContributionHold',
        tags,
        summary: 'Release an agent\'s contribution hold',
        description: `Clears the hold a halt put on the agent\'s Raw contributions (audited agent.contribution_hold_released); released is false when there was none. 404 agent_not_found. ${idempotencyNote}`,
        params: AgentParams,
        headers: IdempotencyKeyHeaders,
        response: { 200: ContributionHoldRelease },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await halt.releaseContributionHold(contextOf(request), { agent_id: request.params.agent_id })
      return markReplayed(reply, replayed).send(outcome)
    },
  )
}
