/**
 * What the governance module needs from others, implemented by the composition root through their
 * index.ts: the tenant directory (does the tenant exist), the agents module's lifecycle (its registered
 * agents and their transitions), the audit log (a period's events, an agent's events) and the payments
 * module's stored policy decisions.
 */
import type { CommandContext } from '../../kernel/context.ts'
import type { GovernanceAgentView, GovernanceStatus, LifecycleTransition } from '../agents/index.ts'
import type { ReportAuditEvent } from './domain/report.ts'

export interface GovernanceTenants {
  exists(tenantId: string): Promise<boolean>
}

export interface GovernanceAgents {
  list(tenantId: string, query: { status?: GovernanceStatus | undefined; owner?: string | undefined; limit?: number | undefined; cursor?: string | undefined }): Promise<{ agents: GovernanceAgentView[]; next_cursor: string | null }>
  /** 404 agent_not_found when the tenant has no such registered agent. */
  get(tenantId: string, agentId: string): Promise<GovernanceAgentView>
  transition(context: CommandContext, input: { tenantId: string; agentId: string; transition: LifecycleTransition; reason: string; actor: string }): Promise<GovernanceAgentView>
}

/** An audit event as the governance reads show it. */
export interface GovernanceAuditEvent extends ReportAuditEvent {
  readonly inputs: Readonly<Record<string, unknown>>
}

export interface GovernanceAudit {
  /**
   * The tenant's audit events created in [since, until), in chain order. Throws 400 validation_failed when
   * there are more than `eventsMax` (the period must be narrowed).
   */
  eventsBetween(tenantId: string, since: Date, until: Date, eventsMax: number): Promise<GovernanceAuditEvent[]>
  /** Every audit event about the agent (entity `agent`), oldest first; empty when none. */
  agentEvents(tenantId: string, agentId: string): Promise<GovernanceAuditEvent[]>
}

export interface GovernancePayments {
  /** The stored outcome of each of the tenant's policy decisions among `ids`. */
  decisionOutcomes(tenantId: string, ids: readonly string[]): Promise<ReadonlyMap<string, string>>
}
