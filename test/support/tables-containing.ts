/**
 * Where a value is stored: every table of the database, in every non-system schema (the job queue's
 * included), searched row by row for a text. Tests use it to prove a secret handed to a caller is kept
 * nowhere (API keys, invitation tokens, stored idempotent outcomes).
 */
import { sql } from 'drizzle-orm'
import { queryRows } from '../../src/platform/db/database.ts'
import type { TestApp } from './harness.ts'

async function databaseTables(app: Pick<TestApp, 'runtime'>) {
  return queryRows<{ table_schema: string; table_name: string }>(
    app.runtime.db.orm,
    sql`select table_schema, table_name from information_schema.tables
        where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')
        order by table_schema, table_name`,
  )
}

/** Tables (schema.table) holding a row whose JSON form contains `needle`. */
export async function tablesContaining(app: Pick<TestApp, 'runtime'>, needle: string): Promise<string[]> {
  const hits: string[] = []
  for (const { table_schema: schema, table_name: table } of await databaseTables(app)) {
    const [row] = await queryRows<{ n: number }>(
      app.runtime.db.orm,
      sql`select count(*)::int as n from ${sql.identifier(schema)}.${sql.identifier(table)} as t where position(${needle} in row_to_json(t)::text) > 0`,
    )
    if (row!.n > 0) hits.push(`${schema}.${table}`)
  }
  return hits
}
