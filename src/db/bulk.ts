/**
 * Many rows in one INSERT, cheaply: the rows travel as ONE json parameter and PostgreSQL turns it back
 * into typed columns (`insert … select … from json_to_recordset($1::json) as r("versionId" text, …)`,
 * each row's keys being the Drizzle column keys). The statement has one parameter whatever the number of
 * rows (no 65,535-parameter limit), serializing is a single native JSON.stringify, and PostgreSQL's json
 * reader builds arrays (text[]), jsonb documents, numerics, dates and timestamps from their JSON forms.
 * A Drizzle multi-row `values()`, by contrast, spends most of a bulk write's CPU time building SQL for
 * every value (bench/ledger.ts). Per-column text[] literals through `unnest` take about as long end to
 * end (an A/B of 2,000-row ledger_transactions batches: 95 ms unnest, 88 ms JSON) but spend twice the
 * Node CPU building them; JSON hands that work to PostgreSQL, which runs beside Node on another core.
 * Same rows, same constraints and triggers, same transaction.
 */
import { getTableColumns, getTableName, sql, type SQL } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import { queryRows, type Executor } from './database.ts'

interface TablePlan {
  /** `insert into "t" ("version_id", …) select "versionId", … from json_to_recordset(` */
  readonly head: SQL
  /** `) as r("versionId" text, …)` */
  readonly tail: SQL
}

const plans = new WeakMap<PgTable, TablePlan>()

const quoted = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`

function planOf(table: PgTable): TablePlan {
  let plan = plans.get(table)
  if (plan === undefined) {
    const columns = Object.entries(getTableColumns(table) as Record<string, PgColumn>)
    const names = columns.map(([, column]) => quoted(column.name)).join(', ')
    const keys = columns.map(([key]) => quoted(key)).join(', ')
    const definitions = columns.map(([key, column]) => `${quoted(key)} ${column.getSQLType()}`).join(', ')
    plan = {
      head: sql.raw(`insert into ${quoted(getTableName(table))} (${names}) select ${keys} from json_to_recordset(`),
      tail: sql.raw(`::json) as r(${definitions})`),
    }
    plans.set(table, plan)
  }
  return plan
}

/**
 * Inserts `rows` (objects keyed like the table's Drizzle columns; every column present, null or absent for
 * none: column defaults do not apply) in one statement. With `onConflictDoNothing`, rows that conflict are
 * skipped; returns how many were inserted.
 */
export async function insertMany<T extends PgTable>(
  executor: Executor,
  table: T,
  rows: ReadonlyArray<T['$inferInsert']>,
  options: { onConflictDoNothing?: boolean } = {},
): Promise<number> {
  if (rows.length === 0) return 0
  const plan = planOf(table)
  const statement: SQL = sql`with inserted as (
      ${plan.head}${JSON.stringify(rows)}${plan.tail}
      ${options.onConflictDoNothing === true ? sql`on conflict do nothing` : sql``}
      returning 1)
    select count(*)::int as count from inserted`
  const [result] = await queryRows<{ count: number }>(executor, statement)
  return result?.count ?? 0
}
