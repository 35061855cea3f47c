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

/**
 * How a query's values come back. `plain`: as the driver parses them by default. `drizzle`: as arrays of
 * values parsed the way Drizzle's own drivers ask (dates, timestamps, intervals and their arrays left as
 * text), for the column's `mapFromDriverValue` to finish, exactly as in a Drizzle select.
 */
type Mode = 'plain' | 'drizzle'

/** What both drivers answer a parameterized query with. */
type RowsOf = (text: string, parameters: unknown[], mode?: Mode) => Promise<{ rows: unknown[] }>

/** Type ids Drizzle's drivers keep as text: timestamptz, timestamp, date, interval and their arrays, numeric[]. */
const textTypeIds = new Set([1184, 1114, 1082, 1186, 1231, 1115, 1185, 1187, 1182])
const asText = (value: string) => value
const drizzleTypes = {
  getTypeParser: (typeId: number, format?: 'text' | 'binary') =>
    textTypeIds.has(typeId) ? asText : (pg.types.getTypeParser as (id: number, format?: string) => unknown)(typeId, format),
}
const drizzlePgliteParsers = Object.fromEntries([...textTypeIds].map((typeId) => [typeId, asText]))

/** The driver under a Drizzle executor: a pg pool or connection, or a PGlite instance or transaction. */
function driverOf(executor: Executor): RowsOf {
  const client = (executor as unknown as { session?: { client?: unknown } }).session?.client
  if (client instanceof pg.Pool || client instanceof pg.Client) {
    const pgClient = client as pg.Pool | pg.Client
    return (text, values, mode = 'plain') =>
      pgClient.query(mode === 'plain' ? { text, values } : ({ text, values, rowMode: 'array', types: drizzleTypes } as pg.QueryArrayConfig))
  }
  if (client !== null && typeof client === 'object' && typeof (client as { query?: unknown }).query === 'function') {
    // PGlite (or its transaction): query(text, params, options) answers { rows }.
    const pglite = client as { query(text: string, parameters: unknown[], options?: object): Promise<{ rows: unknown[] }> }
    return (text, values, mode = 'plain') => (mode === 'plain' ? pglite.query(text, values) : pglite.query(text, values, { rowMode: 'array', parsers: drizzlePgliteParsers }))
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

/** A selector's columns (every one of the table's, or those named) and how a raw row of them becomes a Drizzle row. */
function shapeOf<Table extends PgTable, Column extends string>(table: Table, names: readonly Column[] | undefined) {
  const all = Object.entries(getTableColumns(table)) as Array<[string, PgColumn]>
  const byKey = new Map(all)
  const columnOf = (key: string): PgColumn => {
    const column = byKey.get(key)
    if (column === undefined) throw new TypeError(`selector: ${getTableName(table)} has no column ${key}`)
    return column
  }
  const columns: Array<[string, PgColumn]> = names === undefined ? all : names.map((key) => [key, columnOf(key)])
  const rowOf = (raw: unknown[]) => {
    const row: Record<string, unknown> = {}
    for (let index = 0; index < columns.length; index += 1) {
      const [key, column] = columns[index]!
      const value = raw[index]
      row[key] = value === null ? null : column.mapFromDriverValue(value)
    }
    return row as Pick<Table['$inferSelect'], Column & keyof Table['$inferSelect']>
  }
  return { columnOf, columns, rowOf }
}

export interface SelectorOptions<Column extends string = string> {
  /** Row lock taken until the transaction ends. */
  readonly lock?: 'update' | 'share'
  /** At most this many rows (default 1). */
  readonly limit?: number
  /** Only these columns (default every column of the table). */
  readonly columns?: readonly Column[]
  /** A further condition, fixed SQL over the table's own column names (`"superseded_at" is null`). */
  readonly where?: string
}

/** Reads the rows of a table whose key columns equal the given values, in the order of `keys`. */
export type Selector<Row> = (executor: Executor, values: readonly unknown[]) => Promise<Row[]>

/**
 * The columns of `table`'s rows (every one, or `options.columns`) where each of `keys` equals its value
 * ($1, $2, … in order), and `options.where` holds, as Drizzle's `select().from(table).where(and(eq(…), …))
 * .limit(n)` answers them: the same row objects, each value through its column's `mapFromDriverValue`,
 * without building the query on each call.
 */
export function selector<Table extends PgTable, Column extends keyof Table['$inferSelect'] & string = keyof Table['$inferSelect'] & string>(
  table: Table,
  keys: ReadonlyArray<keyof Table['$inferSelect'] & string>,
  options: SelectorOptions<Column> = {},
): Selector<Pick<Table['$inferSelect'], Column>> {
  const { columnOf, columns, rowOf } = shapeOf<Table, Column>(table, options.columns)
  const conditions = keys.map((key, index) => `"${columnOf(key).name}" = $${index + 1}`)
  if (options.where !== undefined) conditions.push(`(${options.where})`)
  const text =
    `select ${columns.map(([, column]) => `"${column.name}"`).join(', ')} from "${getTableName(table)}" where ${conditions.join(' and ')} limit ${options.limit ?? 1}` +
    (options.lock === undefined ? '' : ` for ${options.lock}`)
  const keyColumns = keys.map(columnOf)
  return async (executor, values) => {
    const parameters = values.map((value, index) => (value === null || value === undefined ? null : keyColumns[index]!.mapToDriverValue(value)))
    const { rows } = await driverOf(executor)(text, parameters, 'drizzle')
    return (rows as unknown[][]).map(rowOf)
  }
}

/**
 * Reads the rows of a table whose key tuple is one of the given tuples, in key order: a batch's rows in
 * one statement instead of one read each.
 */
export type BatchSelector<Row> = (executor: Executor, keys: ReadonlyArray<readonly unknown[]>) => Promise<Row[]>

/**
 * `selector` for many keys at once: the rows of `table` whose `keys` columns equal one of the tuples given
 * (`(k1, k2) in (select * from unnest($1::type[], $2::type[]))`), ordered by those columns, so that
 * `lock` takes its row locks in one order whatever order the tuples came in (two batches that share rows
 * wait on each other instead of deadlocking). Every matching row (no limit); the same row objects as
 * `selector`.
 */
export function selectorIn<Table extends PgTable, Column extends keyof Table['$inferSelect'] & string = keyof Table['$inferSelect'] & string>(
  table: Table,
  keys: ReadonlyArray<keyof Table['$inferSelect'] & string>,
  options: Omit<SelectorOptions<Column>, 'limit'> = {},
): BatchSelector<Pick<Table['$inferSelect'], Column>> {
  const { columnOf, columns, rowOf } = shapeOf<Table, Column>(table, options.columns)
  const keyColumns = keys.map(columnOf)
  const keyNames = keyColumns.map((column) => `"${column.name}"`).join(', ')
  const conditions = [`(${keyNames}) in (select * from unnest(${keyColumns.map((column, index) => `$${index + 1}::${column.getSQLType()}[]`).join(', ')}))`]
  if (options.where !== undefined) conditions.push(`(${options.where})`)
  const text =
    `select ${columns.map(([, column]) => `"${column.name}"`).join(', ')} from "${getTableName(table)}" where ${conditions.join(' and ')} order by ${keyNames}` +
    (options.lock === undefined ? '' : ` for ${options.lock}`)
  return async (executor, tuples) => {
    if (tuples.length === 0) return []
    const parameters = keyColumns.map((column, index) => tuples.map((tuple) => (tuple[index] === null || tuple[index] === undefined ? null : column.mapToDriverValue(tuple[index]))))
    const { rows } = await driverOf(executor)(text, parameters, 'drizzle')
    return (rows as unknown[][]).map(rowOf)
  }
}
