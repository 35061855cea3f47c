/**
 * Tenant deletion (spec, "Tenants"): each module states which of its tables hold a tenant's rows, in the
 * order they are emptied (children before the rows they reference), and which it keeps (the audit
 * chain outlives its tenant). Composition lists the modules' plans in dependency order; deletion runs
 * them in one transaction. A test checks that every table with a `tenant_id` column is in some plan, so
 * a new table cannot escape tenant deletion unnoticed.
 */
import { getTableName, sql } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import { queryRows, type Tx } from './database.ts'

export interface TenantTable {
  readonly table: PgTable
  readonly tenantColumn: PgColumn
}

/** One module's part of tenant deletion. */
export interface TenantDataPlan {
  /** Emptied of the tenant's rows, in this order. */
  readonly deleted: readonly TenantTable[]
  /** Kept on deletion, deliberately (the audit chain). */
  readonly preserved?: readonly PgTable[]
}

export const tableName = (table: PgTable) => getTableName(table)

/** Rows removed per table by a tenant deletion, in deletion order. */
export type DeletedRows = Record<string, number>

/** Deletes the tenant's rows table by table, in the plans' order; returns the count per table. */
export async function deleteTenantRows(tx: Tx, tenantId: string, plans: readonly TenantDataPlan[]): Promise<DeletedRows> {
  const deletedRows: DeletedRows = {}
  for (const { table, tenantColumn } of plans.flatMap((plan) => plan.deleted)) {
    // Counted in the database: one round trip, and no rows shipped back however large the table.
    const [result] = await queryRows<{ removed: number }>(
      tx,
      sql`with removed as (delete from ${table} where ${tenantColumn} = ${tenantId} returning 1) select count(*)::int as removed from removed`,
    )
    deletedRows[tableName(table)] = Number(result?.removed ?? 0)
  }
  return deletedRows
}

/** The tables the plans keep, by name. */
export const preservedTables = (plans: readonly TenantDataPlan[]): string[] => plans.flatMap((plan) => plan.preserved ?? []).map(tableName)
