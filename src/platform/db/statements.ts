/**
 * Hot statements without the ORM's query building: SQL text written once, run with positional parameters
 * straight on the executor's driver (a `pg` pool or connection, or PGlite), on both engines.
 *
 * Drizzle builds every query from its builder objects on each call and maps every row field by field:
 * on the authenticated request path that was about a quarter of Node's CPU (bench/README.md, "Where the
 * time goes"), for queries whose text never changes. A store keeps Drizzle for everything else and
 * uses `statement` for the few statements every request runs. The text is fixed, so on PostgreSQL the
 * pipelined connection prepares it once per connection (database.ts).
 *
 * `inserter(table)` writes rows of a Drizzle table the same way: the INSERT's text is made once per set of
 * columns given, and each value goes through its column's own driver mapping (`mapToDriverValue`, the
 * mapping Drizzle's insert applies: jsonb as JSON text, a Date as ISO text, an array as a PostgreSQL array
 * literal), so the row written is the row Drizzle would write, for every column type.
 *
 * Rows come back as the drivers parse them, which the two engines agree on for the types a statement
 * should select here: text, uuid, integer and boolean as strings, numbers and booleans, and timestamptz
 * as a Date. Name the columns as the row type wants them (`org_id as "orgId"`). Not for numeric, int8,
 * bytea or json columns, whose parsing differs between the drivers (use the ORM for those).
 */
import { getTableColumns, getTableName } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import pg from 'pg'
import type { Executor } from './database.ts'

export interface Statement<Row> {
  readonly text: string
  /** Runs the statement on `executor` (the database, or an open transaction) and returns its rows. */
  rows(executor: Executor, parameters: readonly unknown[]): Promise<Row[]>
  /** The first row, or undefined. */
  first(executor: Executor, parameters: readonly unknown[]): Promise<Row | undefined>
}

/** What both drivers answer a parameterized query with. */
type RowsOf = (text: string, parameters: unknown[]) => Promise<{ rows: unknown[] }>

/** The driver under a Drizzle executor: a pg pool or connection, or a PGlite instance or transaction. */
function driverOf(executor: Executor): RowsOf {
  const client = (executor as unknown as { session?: { client?: unknown } }).session?.client
  if (client instanceof pg.Pool || client instanceof pg.Client) {
    const pgClient = client as pg.Pool | pg.Client
    return (text, values) => pgClient.query({ text, values })
  }
  if (client !== null && typeof client === 'object' && typeof (client as { query?: unknown }).query === 'function') {
    // PGlite (or its transaction): query(text, params) answers { rows } with the same default parsers.
    const pglite = client as { query(text: string, parameters: unknown[]): Promise<{ rows: unknown[] }> }
    return (text, values) => pglite.query(text, values)
  }
  throw new TypeError('statement: not a Drizzle executor of a known driver')
}

export function statement<Row>(text: string): Statement<Row> {
  const rows = async (executor: Executor, parameters: readonly unknown[]) => (await driverOf(executor)(text, [...parameters])).rows as Row[]
  return {
    text,
    rows,
    async first(executor, parameters) {
      return (await rows(executor, parameters))[0]
    },
  }
}

/** Inserts one row of `table` (its TypeScript shape, as Drizzle's insert takes it) in one statement. */
export type Inserter<Row> = (executor: Executor, row: Row) => Promise<void>

export function inserter<Table extends PgTable>(table: Table): Inserter<Table['$inferInsert']> {
  const columns = Object.entries(getTableColumns(table)) as Array<[string, PgColumn]>
  const name = getTableName(table)
  const texts = new Map<string, string>()
  return async (executor, row) => {
    const values = row as Record<string, unknown>
    const given: PgColumn[] = []
    const parameters: unknown[] = []
    let signature = ''
    for (const [key, column] of columns) {
      let value = values[key]
      // As Drizzle's insert: an absent value takes the column's application default, else the database's.
      if (value === undefined && column.defaultFn !== undefined) value = column.defaultFn()
      else if (value === undefined && column.default === undefined && column.onUpdateFn !== undefined) value = column.onUpdateFn()
      if (value === undefined) continue
      given.push(column)
      parameters.push(value === null ? null : column.mapToDriverValue(value))
      signature += `${key},`
    }
    let text = texts.get(signature)
    if (text === undefined) {
      text = `insert into "${name}" (${given.map((column) => `"${column.name}"`).join(', ')}) values (${given.map((_, index) => `$${index + 1}`).join(', ')})`
      texts.set(signature, text)
    }
    await driverOf(executor)(text, parameters)
  }
}
