/**
 * The governance module's table: frozen report snapshots (POST /v1/governance/reports/snapshot). A
 * snapshot is written once and never changed: GET /v1/governance/reports/{report_id} answers it without
 * querying anything else again.
 *
 * Part of the one schema of both engines (drizzle.config.ts collects every `*.tables.ts`).
 */
import { sql } from 'drizzle-orm'
import { check, index, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core'
import { createdAt, timestamptz } from '../../platform/db/columns.ts'
import type { TenantDataPlan } from '../../platform/db/tenant-data.ts'
import { tenants } from '../tenants/tenants.tables.ts'

export const governanceReportSnapshots = pgTable(
  'governance_report_snapshots',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    /** `grpt_…` */
    id: text('id').notNull(),
    periodStart: timestamptz('period_start').notNull(),
    periodEnd: timestamptz('period_end').notNull(),
    agentId: text('agent_id'),
    createdBy: text('created_by').notNull(),
    /** The report as it was computed, JSON (domain/report.ts). */
    report: jsonb('report').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.id] }),
    index('governance_report_snapshots_created_idx').on(table.tenantId, table.createdAt),
    check('governance_report_snapshots_period_check', sql`${table.periodStart} < ${table.periodEnd}`),
  ],
)

export type GovernanceReportSnapshotRow = typeof governanceReportSnapshots.$inferSelect

/** Deleted with the tenant. */
export const governanceTenantData: TenantDataPlan = {
  deleted: [{ table: governanceReportSnapshots, tenantColumn: governanceReportSnapshots.tenantId }],
}
