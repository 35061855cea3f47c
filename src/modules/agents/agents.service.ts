/**
 * Reading the agents (spec, "Agents"): the first-party catalog, filtered, and one agent with its
 * definition (the catalog entry and whether it runs in shadow mode for this tenant) and its registration
 * (null: first-party agents are not registered on chain). An unknown agent is 404 agent_not_found.
 */
import { AppError } from '../../kernel/errors.ts'
import { catalog, filterCatalog, type CatalogEntry, type CatalogFilter } from './domain/catalog.ts'
import type { AgentsPromotions } from './ports.ts'

export interface AgentDetail {
  agent_id: string
  definition: CatalogEntry & { shadow_mode: boolean }
  registration: null
}

export function createAgentsService(deps: { promotions: AgentsPromotions }) {
  return {
    list(filter: CatalogFilter): { agents: CatalogEntry[] } {
      return { agents: filterCatalog(catalog, filter) }
    },

    async get(tenantId: string, agentId: string): Promise<AgentDetail> {
      const entry = catalog.find((candidate) => candidate.agent_key === agentId)
      if (entry === undefined) throw new AppError('agent_not_found', 'No such agent.', { agent_id: agentId })
      return { agent_id: entry.agent_key, definition: { ...entry, shadow_mode: !(await deps.promotions.isPromoted(tenantId, entry.agent_key)) }, registration: null }
    },
  }
}

export type AgentsService = ReturnType<typeof createAgentsService>
