/**
 * Governance reports (GET /v1/governance/reports, POST …/snapshot, GET …/{report_id}; docs/governance.md):
 * a tenant's agent activity in a period with its policy-decision coverage (domain/report.ts), computed on
 * request from the audit log and the stored decisions, and frozen as a snapshot that is answered as stored.
 */
import type { Clock } from '../../kernel/clock.ts'
import { canonicalJson, sha256Hex } from '../../kernel/hashing.ts'
import type { CommandContext } from '../../kernel/context.ts'
import { AppError } from '../../kernel/errors.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { CommandResult, CommandRunner } from '../../platform/commands/command.ts'
import type { Database } from '../../platform/db/database.ts'
import { buildReport, decisionIdsOf, type GovernanceReport } from './domain/report.ts'
import type { GovernanceStore } from './governance.store.pg.ts'
import type { GovernanceAudit, GovernancePayments, GovernanceTenants } from './ports.ts'

/** A report reads at most this many audit events (of every kind) in its period; narrow the period past it. */
export const reportAuditEventsMax = 50_000
/** The longest period a report covers. */
export const reportPeriodDaysMax = 366

export interface ReportQuery {
  readonly tenant_id: string
  readonly period_start: string
  readonly period_end: string
  readonly agent_id?: string | undefined
}

export interface ReportSnapshot {
  report_id: string
  tenant_id: string
  period_start: string
  period_end: string
  agent_id: string | null
  created_by: string
  created_at: string
  report: GovernanceReport
}

export function createReportsService(deps: {
  db: Database
  commands: CommandRunner
  store: GovernanceStore
  ids: IdSource
  clock: Clock
  tenants: GovernanceTenants
  audit: GovernanceAudit
  payments: GovernancePayments
}) {
  const { db, commands, store, ids, clock, tenants, audit, payments } = deps

  /** The period as dates; 400 validation_failed unless start < end within reportPeriodDaysMax. */
  function periodOf(query: ReportQuery): { start: Date; end: Date } {
    const start = new Date(query.period_start)
    const end = new Date(query.period_end)
    if (!(start.getTime() < end.getTime())) throw new AppError('validation_failed', 'period_start must be before period_end.', { period_start: query.period_start, period_end: query.period_end })
    if (end.getTime() - start.getTime() > reportPeriodDaysMax * 86_400_000) {
      throw new AppError('validation_failed', `A report covers at most ${reportPeriodDaysMax} days.`, { period_start: query.period_start, period_end: query.period_end })
    }
    return { start, end }
  }

  async function compute(query: ReportQuery): Promise<GovernanceReport> {
    const { start, end } = periodOf(query)
    if (!(await tenants.exists(query.tenant_id))) throw new AppError('tenant_not_found', 'No such tenant.', { tenant_id: query.tenant_id })
    const events = await audit.eventsBetween(query.tenant_id, start, end, reportAuditEventsMax)
    const decisions = await payments.decisionOutcomes(query.tenant_id, decisionIdsOf(events))
    return buildReport({ tenantId: query.tenant_id, periodStart: start.toISOString(), periodEnd: end.toISOString(), agentId: query.agent_id ?? null, events, decisions })
  }

  return {
    report: compute,

    /**
     * Computes the report and freezes it (audited governance.report.snapshot_created). With an
     * Idempotency-Key, the same key and request replay the first snapshot; another request is 409.
     */
    async snapshot(context: CommandContext, query: ReportQuery, body: { created_by: string }): Promise<CommandResult<ReportSnapshot>> {
      const report = await compute(query)
      const input = { ...query, agent_id: query.agent_id ?? null, created_by: body.created_by }
      return commands.run(context, { name: 'governance.report_snapshot', tenantId: query.tenant_id, input }, async (tx) => {
        const now = clock.now()
        const id = ids.newId('governanceReport')
        const row = {
          tenantId: query.tenant_id,
          id,
          periodStart: new Date(report.period_start),
          periodEnd: new Date(report.period_end),
          agentId: report.agent_id,
          createdBy: body.created_by,
          report,
          createdAt: now,
        }
        await store.insertSnapshot(tx, row)
        return {
          outcome: snapshotView(row),
          audit: [
            {
              tenantId: query.tenant_id,
              layer: 'audit',
              actor: { type: 'platform', id: body.created_by },
              action: 'governance.report.snapshot_created',
              entity: { type: 'governance_report', id },
              inputs: { period_start: report.period_start, period_end: report.period_end, agent_id: report.agent_id },
              outputs: { events: report.events.length, report_sha256: sha256Hex(canonicalJson(report)) },
              requestId: context.requestId,
            },
          ],
        }
      })
    },

    /** The frozen snapshot, as stored; 404 governance_report_not_found when the tenant has none of that id. */
    async snapshotOf(tenantId: string, reportId: string): Promise<ReportSnapshot> {
      const row = await store.findSnapshot(db.orm, tenantId, reportId)
      if (row === undefined) throw new AppError('governance_report_not_found', 'No such report snapshot for this tenant.', { report_id: reportId })
      return snapshotView(row)
    },
  }
}

function snapshotView(row: { id: string; tenantId: string; periodStart: Date; periodEnd: Date; agentId: string | null; createdBy: string; createdAt: Date; report: unknown }): ReportSnapshot {
  return {
    report_id: row.id,
    tenant_id: row.tenantId,
    period_start: row.periodStart.toISOString(),
    period_end: row.periodEnd.toISOString(),
    agent_id: row.agentId,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    report: row.report as GovernanceReport,
  }
}

export type ReportsService = ReturnType<typeof createReportsService>
