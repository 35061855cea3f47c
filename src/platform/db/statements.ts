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
 * Rows come back as the drivers parse them, which the two engines agree on for the types a statement
 * should select here: text, uuid, integer and boolean as strings, numbers and booleans, and timestamptz
 * as a Date. Name the columns as the row type wants them (`org_id as "orgId"`). Not for numeric, int8,
 * bytea or json columns, whose parsing differs between the drivers (use the ORM for those).
 */
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
