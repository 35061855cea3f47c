/**
 * The platform's view of a tenant's registered agents (GET/PATCH /v1/governance/agents…): the agents
 * module's lifecycle through its port, the tenant checked first (404 tenant_not_found), and each agent's
 * `lifecycle_events` read from the audit log.
 */
import type { CommandContext } from '../../kernel/context.ts'
import { AppError } from '../../kernel/errors.ts'
import type { GovernanceAgentView, GovernanceStatus, LifecycleTransition } from '../agents/index.ts'
import type { GovernanceAgents, GovernanceAudit, GovernanceTenants } from './ports.ts'

export interface LifecycleEvent {
  audit_event_id: string
  actor: string
  action: string
  policy_decision_id: string | null
  policy_check_id: string | null
  /** The state the event left the agent in (`outputs.state`), or the event's own outcome; null when neither. */
  outcome: string | null
  created_at: string
  inputs: Record<string, unknown>
  outputs: Record<string, unknown>
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null)

export function createGovernanceAgentsService(deps: { tenants: GovernanceTenants; agents: GovernanceAgents; audit: GovernanceAudit }) {
  const { tenants, agents, audit } = deps

  async function tenantMustExist(tenantId: string): Promise<void> {
    if (!(await tenants.exists(tenantId))) throw new AppError('tenant_not_found', 'No such tenant.', { tenant_id: tenantId })
  }

  return {
    async list(query: { tenant_id: string; status?: GovernanceStatus | undefined; owner?: string | undefined; limit?: number | undefined; cursor?: string | undefined }) {
      await tenantMustExist(query.tenant_id)
      const { tenant_id: tenantId, ...filters } = query
      return agents.list(tenantId, filters)
    },

    async get(tenantId: string, agentId: string): Promise<GovernanceAgentView & { lifecycle_events: LifecycleEvent[] }> {
      await tenantMustExist(tenantId)
      const agent = await agents.get(tenantId, agentId)
      const events = await audit.agentEvents(tenantId, agentId)
      return {
        ...agent,
        lifecycle_events: events.map((event) => ({
          audit_event_id: event.id,
          actor: `${event.actor.type}:${event.actor.id}`,
          action: event.action,
          policy_decision_id: text(event.outputs['policy_decision_id']),
          policy_check_id: text(event.outputs['matched_rule_id']),
          outcome: text(event.outputs['state']) ?? text(event.outputs['outcome']),
          created_at: event.created_at,
          inputs: { ...event.inputs },
          outputs: { ...event.outputs },
        })),
      }
    },

    async transition(context: CommandContext, agentId: string, body: { tenant_id: string; transition: LifecycleTransition; reason: string; actor: string }): Promise<GovernanceAgentView> {
      await tenantMustExist(body.tenant_id)
      return agents.transition(context, { tenantId: body.tenant_id, agentId, transition: body.transition, reason: body.reason, actor: body.actor })
    },
  }
}

export type GovernanceAgentsService = ReturnType<typeof createGovernanceAgentsService>
