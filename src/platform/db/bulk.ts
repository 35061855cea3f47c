/**
 * Many rows in one statement, cheaply.
 *
 * `insertMany`: the rows travel as ONE json parameter and PostgreSQL turns it back into typed columns
 * (`insert … select … from json_to_recordset($1::json) as r("versionId" text, …)`, each row's keys being
 * the Drizzle column keys). The statement has one parameter whatever the number of rows (no 65,535-parameter
 * limit), serializing is a single native JSON.stringify, and PostgreSQL's json reader builds arrays
 * (text[]), jsonb documents, numerics, dates and timestamps from their JSON forms. A Drizzle multi-row
 * `values()`, by contrast, spends most of a bulk write's CPU time building SQL for every value
 * (bench/ledger.ts). Per-column text[] literals through `unnest` take about as long end to end (an A/B of
 * 2,000-row ledger_transactions batches: 95 ms unnest, 88 ms JSON) but spend twice the Node CPU building
 * them. It handles conflicts (`on conflict do nothing`) and runs on both engines.
 *
 * `copyMany`: for rows that cannot conflict, on a PostgreSQL server, `COPY … FROM STDIN` in the caller's
 * transaction (pg-copy-streams), each value in COPY's text format. PostgreSQL parses no JSON and plans no
 * statement: in the ledger benchmark its CPU per pipeline row fell from about 150–200 µs to 95–140 µs with
 * the normalization's versions, the first extraction's parsed rows and the events copied (docs/decisions.md).
 * The rows of one call are encoded at once (callers pass a batch: at most a few thousand rows). On PGlite
 * it is `insertMany`. Same rows, same constraints and triggers, same transaction either way.
 */
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { getTableColumns, getTableName, sql, type SQL } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import pg from 'pg'
import { from as copyFrom } from 'pg-copy-streams'
import { queryRows, type Executor } from './database.ts'

interface TablePlan {
  /** The Drizzle columns, keyed as rows are. */
  readonly columns: ReadonlyArray<readonly [key: string, column: PgColumn]>
  /** `copy "t" ("version_id", …) from stdin` */
  readonly copy: string
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
      columns,
      copy: `copy ${quoted(getTableName(table))} (${names}) from stdin`,
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

/**
 * Inserts `rows` like `insertMany` without conflict handling (a conflicting row fails the statement), with
 * COPY … FROM STDIN when the executor is a transaction on a PostgreSQL server connection, elsewhere (PGlite)
 * through `insertMany`. Returns how many rows were inserted.
 */
export async function copyMany<T extends PgTable>(executor: Executor, table: T, rows: ReadonlyArray<T['$inferInsert']>): Promise<number> {
  if (rows.length === 0) return 0
  const client = serverConnectionOf(executor)
  if (client === undefined) return insertMany(executor, table, rows)
  const plan = planOf(table)
  // Encoded before the COPY starts, so the data goes out as soon as the server is ready for it, without
  // waiting for Node to produce it.
  const data = Buffer.from(copyTextOf(plan.columns, rows as ReadonlyArray<Record<string, unknown>>))
  // A COPY keeps the connection to itself: pg refuses custom query classes in pipeline mode, so the mode is
  // off while it runs (the caller awaited its earlier queries: nothing else is on the wire).
  const connection = client as pg.ClientBase & { pipeline?: boolean }
  const pipelined = connection.pipeline === true
  connection.pipeline = false
  try {
    const stream = client.query(copyFrom(plan.copy))
    await pipeline(Readable.from([data]), stream)
    return stream.rowCount
  } finally {
    connection.pipeline = pipelined
  }
}

/**
 * The server connection under a Drizzle node-postgres transaction (its session's client), or undefined
 * for anything else: PGlite, or the pool itself (a COPY belongs inside the caller's transaction).
 */
function serverConnectionOf(executor: Executor): pg.ClientBase | undefined {
  const client = (executor as unknown as { session?: { client?: unknown } }).session?.client
  return client instanceof pg.Client ? client : undefined
}

/** The rows in COPY's text format: one line each, tab-separated fields, `\\N` for NULL. */
function copyTextOf(columns: TablePlan['columns'], rows: ReadonlyArray<Record<string, unknown>>): string {
  const fields = columns.map(([key, column]) => ({ key, column, escape: !unescapedTypes.has(column.getSQLType()), last: undefined as unknown, lastText: '' }))
  let text = ''
  for (const row of rows) {
    for (let position = 0; position < fields.length; position += 1) {
      const field = fields[position]!
      const value = row[field.key]
      let cell: string
      if (value === null || value === undefined) cell = '\\N'
      else if (value === field.last) cell = field.lastText
      else {
        cell = copyText(field.column.mapToDriverValue(value), field.escape)
        // A batch's rows share objects such as its timestamp: each is encoded once per run of equal values.
        if (typeof value === 'object') {
          field.last = value
          field.lastText = cell
        }
      }
      text += position === 0 ? cell : `\t${cell}`
    }
    text += '\n'
  }
  return text
}

/** Column types whose text form never holds a backslash, newline, carriage return or tab. */
const unescapedTypes = new Set(['uuid', 'integer', 'bigint', 'smallint', 'numeric', 'double precision', 'real', 'boolean', 'date', 'timestamp with time zone', 'timestamp'])

const copySpecial = /[\\\n\r\t]/
const copySpecials = /[\\\n\r\t]/g
const copyEscapes: Readonly<Record<string, string>> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' }

/**
 * A driver value as a field of COPY's text format: the value's text form, with backslash, newline,
 * carriage return and tab escaped (NULL is `\N`, written by the caller). Drizzle's columns already turn
 * timestamps, arrays, jsonb and numerics into their text forms; what remains is strings, numbers,
 * booleans and bytes.
 */
export function copyText(value: unknown, escape = true): string {
  let text: string
  if (typeof value === 'string') text = value
  else if (typeof value === 'number' || typeof value === 'bigint') text = String(value)
  else if (typeof value === 'boolean') text = value ? 't' : 'f'
  else if (value instanceof Uint8Array) text = `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`
  else if (value instanceof Date) text = value.toISOString()
  else text = JSON.stringify(value)
  return escape && copySpecial.test(text) ? text.replace(copySpecials, (character) => copyEscapes[character]!) : text
}
