/**
 * The governance module (issue 18; docs/governance.md): the platform's surface over a tenant's agents —
 * its registered agents and their lifecycle (through the agents module), and agent-activity reports from
 * the audit log joined to the payments module's policy decisions, frozen as snapshots. Platform routes
 * only (X-Platform-Service-Auth).
 */
import type { Clock } from '../../kernel/clock.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { CommandRunner } from '../../platform/commands/command.ts'
import type { Database } from '../../platform/db/database.ts'
import { createGovernanceAgentsService, type GovernanceAgentsService } from './agents.service.ts'
import { createGovernanceStore } from './governance.store.pg.ts'
import type { GovernanceAgents, GovernanceAudit, GovernancePayments, GovernanceTenants } from './ports.ts'
import { createReportsService, type ReportsService } from './reports.service.ts'

export { governanceRoutes } from './governance.routes.ts'
export { governanceTenantData } from './governance.tables.ts'
export type { GovernanceAgents, GovernanceAudit, GovernanceAuditEvent, GovernancePayments, GovernanceTenants } from './ports.ts'

export interface Governance {
  readonly agents: GovernanceAgentsService
  readonly reports: ReportsService
}

export function createGovernance(deps: {
  db: Database
  commands: CommandRunner
  ids: IdSource
  clock: Clock
  tenants: GovernanceTenants
  agents: GovernanceAgents
  audit: GovernanceAudit
  payments: GovernancePayments
}): Governance {
  return {
    agents: createGovernanceAgentsService(deps),
    reports: createReportsService({ ...deps, store: createGovernanceStore() }),
  }
}
