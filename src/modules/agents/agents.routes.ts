/** The agent catalog routes (spec, "Agents"): GET /v1/agents and GET /v1/agents/{agent_id}, execution:read. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { principalOf } from '../../platform/http/context.ts'
import { bearerRoute } from '../../platform/http/route-auth.ts'
import { registerNamedSchemas } from '../../platform/http/schemas.ts'
import type { AgentsService } from './agents.service.ts'
import * as agentSchemas from './agents.schemas.ts'
import { AgentDetail, AgentList, AgentListQuery, AgentParams } from './agents.schemas.ts'

const tags = ['Agents']
const executionRead = bearerRoute(['execution:read'])

export const agentRoutes: FastifyPluginAsyncTypebox<{ agents: AgentsService }> = async (app, { agents }) => {
  registerNamedSchemas(app, [...Object.values(agentSchemas)])
  app.get(
    '/v1/agents',
    {
      config: { auth: executionRead },
      schema: {
        operationId: 'listAgents',
        tags,
        summary: 'The first-party agent catalog',
        description: 'Every first-party agent (each a deterministic program over your Ledger), filtered by kind, capability, category and state (enabled or disabled by default), in catalog order.',
        querystring: AgentListQuery,
        response: { 200: AgentList },
      },
    },
    async (request) => agents.list(request.query),
  )

  app.get(
    '/v1/agents/:agent_id',
    {
      config: { auth: executionRead },
      schema: {
        operationId: 'getAgent',
        tags,
        summary: 'One agent: its definition and registration',
        description: 'definition is the catalog entry with shadow_mode (true until an admin promotes the agent for your tenant); registration is null for first-party agents. 404 agent_not_found for any other id.',
        params: AgentParams,
        response: { 200: AgentDetail },
      },
    },
    async (request) => agents.get(principalOf(request).tenantId, request.params.agent_id),
  )
}
