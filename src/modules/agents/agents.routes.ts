/**
 * The agent routes (spec, "Agents"): the catalog and registered agents (GET /v1/agents, GET
 * /v1/agents/{agent_id}, execution:read), registration (POST /v1/execution/agents/register,
 * execution:admin), and halt, restore, halt-category and the contribution-hold release
 * (payment_intent:approve).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { contextOf, principalOf } from '../../platform/http/context.ts'
import { IdempotencyKeyHeaders, markReplayed } from '../../platform/http/idempotency.ts'
import { bearerRoute } from '../../platform/http/route-auth.ts'
import { registerNamedSchemas } from '../../platform/http/schemas.ts'
import type { AgentsService } from './agents.service.ts'
import * as agentSchemas from './agents.schemas.ts'
import {
  AgentCategoryHalt,
  AgentDetail,
  AgentHalt,
  AgentList,
  AgentListQuery,
  AgentParams,
  AgentStateView,
  ContributionHoldRelease,
  HaltCategoryBody,
  RegisterAgentBody,
  RegisteredAgent,
} from './agents.schemas.ts'
import type { HaltService } from './halt.service.ts'
import type { RegistryService } from './registry.service.ts'

const tags = ['Agents']
const executionRead = bearerRoute(['execution:read'])
const executionAdmin = bearerRoute(['execution:admin'])
const approve = bearerRoute(['payment_intent:approve'])
const idempotencyNote = 'Optional Idempotency-Key: a repeated request gets the first response; the same key with another request is 409 idempotency_key_reused.'

export const agentRoutes: FastifyPluginAsyncTypebox<{ agents: AgentsService; registry: RegistryService; halt: HaltService }> = async (app, { agents, registry, halt }) => {
  registerNamedSchemas(app, [...Object.values(agentSchemas)])
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
          'The agent becomes active when its AgentRegistry registration is confirmed on chain (the registered_tx given, or the contract\'s record) with that scope hash; in a sandbox with no chain configured, by the platform\'s governance resume (docs/agents.md). 409 agent_already_registered for an id your tenant already has. ' +
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
