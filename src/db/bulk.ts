/**
 * Many rows in one INSERT, cheaply: every column travels as one text[] parameter and is cast back in an
 * `unnest` select (`insert … select c0::uuid, c1::jsonb, … from unnest($1::text[], $2::text[], …)`).
 * The statement has one parameter per column whatever the number of rows (no 65,535-parameter limit),
 * and building it costs almost nothing, where a Drizzle multi-row `values()` spends most of a bulk
 * write's CPU time building SQL for every value (measured: bench/ledger.ts). Same rows, same constraints
 * and triggers, same transaction.
 */
import { getTableColumns, getTableName, sql, type SQL } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import { queryRows, type Executor } from './database.ts'

/** A PostgreSQL array literal of text values: `{"a","b \"c\""}`. */
function textArrayLiteral(values: readonly unknown[]): string {
  return `{${values.map((value) => (value === null ? 'NULL' : `"${String(value).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)).join(',')}}`
}

/** A value as the text PostgreSQL casts back to the column's type. */
function asText(value: unknown, sqlType: string): string | null {
  if (value === null || value === undefined) return null
  if (sqlType.endsWith('[]')) return textArrayLiteral(value as unknown[])
  if (sqlType === 'jsonb' || sqlType === 'json') return JSON.stringify(value)
  if (value instanceof Date) return value.toISOString()
  return String(value)
}

interface ColumnPlan {
  readonly key: string
  readonly name: string
  readonly sqlType: string
}

const plans = new WeakMap<PgTable, ColumnPlan[]>()

function planOf(table: PgTable): ColumnPlan[] {
  let plan = plans.get(table)
  if (plan === undefined) {
    plan = Object.entries(getTableColumns(table) as Record<string, PgColumn>).map(([key, column]) => ({ key, name: column.name, sqlType: column.getSQLType() }))
    plans.set(table, plan)
  }
  return plan
}

/**
 * Inserts `rows` (objects keyed like the table's Drizzle columns; every column present, null for none)
 * in one statement. With `onConflictDoNothing`, rows that conflict are skipped; returns how many were
 * inserted.
 */
export async function insertMany<T extends PgTable>(
  executor: Executor,
  table: T,
  rows: ReadonlyArray<T['$inferInsert']>,
  options: { onConflictDoNothing?: boolean } = {},
): Promise<number> {
  if (rows.length === 0) return 0
  const plan = planOf(table)
  const columns = plan.map((column) => sql.identifier(column.name))
  const arrays = plan.map((column) => sql`${sql.param(rows.map((row) => asText((row as Record<string, unknown>)[column.key], column.sqlType)))}::text[]`)
  const aliases = plan.map((_, index) => sql.raw(`c${index}`))
  const casts = plan.map((column, index) => sql.raw(`c${index}::${column.sqlType}`))
  const statement: SQL = sql`with inserted as (
      insert into ${sql.identifier(getTableName(table))} (${sql.join(columns, sql`, `)})
      select ${sql.join(casts, sql`, `)} from unnest(${sql.join(arrays, sql`, `)}) as u(${sql.join(aliases, sql`, `)})
      ${options.onConflictDoNothing === true ? sql`on conflict do nothing` : sql``}
      returning 1)
    select count(*)::int as count from inserted`
  const [result] = await queryRows<{ count: number }>(executor, statement)
  return result?.count ?? 0
}
