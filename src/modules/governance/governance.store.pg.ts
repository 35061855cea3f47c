/**
 * The governance store: report snapshots. Touches only this module's table; every query names the tenant.
 */
import { and, eq } from 'drizzle-orm'
import type { Executor, Tx } from '../../platform/db/database.ts'
import { governanceReportSnapshots, type GovernanceReportSnapshotRow } from './governance.tables.ts'

export function createGovernanceStore() {
  return {
    async insertSnapshot(tx: Tx, row: GovernanceReportSnapshotRow): Promise<void> {
      await tx.insert(governanceReportSnapshots).values(row)
    },

    async findSnapshot(executor: Executor, tenantId: string, id: string): Promise<GovernanceReportSnapshotRow | undefined> {
      const s = governanceReportSnapshots
      const [row] = await executor.select().from(s).where(and(eq(s.tenantId, tenantId), eq(s.id, id))).limit(1)
      return row
    },
  }
}

export type GovernanceStore = ReturnType<typeof createGovernanceStore>
