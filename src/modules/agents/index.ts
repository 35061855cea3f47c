/**
 * The agents module (issue 18, in progress): the first-party catalog — each agent a deterministic
 * program over the Ledger (domain/programs/) — read through GET /v1/agents and GET /v1/agents/{agent_id};
 * the spec's scope hash and the AgentRegistry contract's client (chain/agent-registry.ts) for external
 * agents. Registration, sign-in, runs and halt are coming (docs/agents.md).
 */
import { createAgentsService, type AgentsService } from './agents.service.ts'
import type { AgentsPromotions } from './ports.ts'

export { agentRoutes } from './agents.routes.ts'
export { behaviorHashOf, catalog, type CatalogEntry } from './domain/catalog.ts'
export { scopeHashOf } from './domain/scope-hash.ts'
export type { AgentsPromotions } from './ports.ts'
export type { AgentsService } from './agents.service.ts'

export interface Agents {
  readonly service: AgentsService
}

export function createAgents(deps: { promotions: AgentsPromotions }): Agents {
  return { service: createAgentsService(deps) }
}
