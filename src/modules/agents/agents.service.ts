/**
 * Reading the agents (spec, "Agents"): the first-party catalog and the tenant's registered (external)
 * agents, filtered, and one agent with its definition (a catalog agent's entry and whether it runs in
 * shadow mode for this tenant; null for a registered agent), its registration (a registered agent's
 * record; null for a catalog agent) and its state in the tenant. An unknown agent is 404 agent_not_found.
 */
import { AppError } from '../../kernel/errors.ts'
import type { Database } from '../../platform/db/database.ts'
import { catalog, filterCatalog, type CatalogEntry, type CatalogFilter } from './domain/catalog.ts'
import type { AgentsPromotions } from './ports.ts'
import { registeredAgentView, type RegisteredAgentView } from './registry.service.ts'
import type { RegistryStore } from './registry.store.pg.ts'

/** Registered agents listed per tenant at most (an operator registers agents by hand). */
export const registeredAgentsListedMax = 500

export interface AgentDetail {
  agent_id: string
  definition: (CatalogEntry & { shadow_mode: boolean }) | null
  registration: RegisteredAgentView | null
  state: RegisteredAgentView['state']
  contribution_hold: boolean
}

export function createAgentsService(deps: { db: Database; store: RegistryStore; promotions: AgentsPromotions }) {
  const { db, store } = deps
  return {
    async list(tenantId: string, filter: CatalogFilter): Promise<{ agents: Array<CatalogEntry | RegisteredAgentView> }> {
      const firstParty = filterCatalog(catalog, filter)
      // Registered agents have no capabilities or category, so those filters leave them out.
      const external =
        filter.kind === 'internal' || filter.capability !== undefined || filter.category !== undefined
          ? []
          : (await store.listRegistered(db.orm, tenantId, registeredAgentsListedMax))
              .map(registeredAgentView)
              .filter((agent) => filter.state === undefined || (filter.state === 'enabled') === (agent.state === 'active'))
      return { agents: [...firstParty, ...external] }
    },

    async get(tenantId: string, agentId: string): Promise<AgentDetail> {
      const entry = catalog.find((candidate) => candidate.agent_key === agentId)
      if (entry !== undefined) {
        const state = await store.findState(db.orm, tenantId, agentId)
        return {
          agent_id: entry.agent_key,
          definition: { ...entry, shadow_mode: !(await deps.promotions.isPromoted(tenantId, entry.agent_key)) },
          registration: null,
          state: state?.state ?? 'active',
          contribution_hold: state?.contributionHeld ?? false,
        }
      }
      const registered = await store.findRegistered(db.orm, tenantId, agentId)
      if (registered === undefined) throw new AppError('agent_not_found', 'No such agent.', { agent_id: agentId })
      const view = registeredAgentView(registered)
      return { agent_id: agentId, definition: null, registration: view, state: view.state, contribution_hold: view.contribution_hold }
    },
  }
}

export type AgentsService = ReturnType<typeof createAgentsService>
