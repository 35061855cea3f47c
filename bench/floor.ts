/**
 * Write floors (PostgreSQL): what a command's own writes cost with everything else taken away.
 *
 * A real command is run once per tenant while the driver's statements are recorded. Its writes (text
 * and parameters, as sent) are then replayed with fresh ids, with no read, no lock, no policy, no
 * hashing and no logic, in one transaction whose statements and COMMIT leave in one round trip (the
 * pipelined connection of platform/db/database.ts), each a prepared statement as the commands' own are. However the command were written, it could not
 * beat this while it wrote the same rows into the same tables; the grouped variant shows what group
 * commit (several commands' rows in one transaction, one multi-row statement per table) could reach.
 */
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { randomBytes } from 'node:crypto'
import { commitWith, queryRows, type Database } from '../src/platform/db/database.ts'
import type { IdSource } from '../src/kernel/ids.ts'

export interface RecordedStatement {
  readonly text: string
  readonly values: readonly unknown[]
}

type QueryFunction = (this: pg.Client, ...args: unknown[]) => unknown

/**
 * Runs `work` while recording the statements it sends on one server connection whose text `keep`
 * accepts: those of the connection that sent the most of them (the command's transaction), so the
 * statements other work sends meanwhile on other connections (the audit sequencer, a job worker) are
 * left out.
 */
export async function recordStatements<T>(work: () => Promise<T>, keep: (text: string) => boolean): Promise<{ result: T; statements: RecordedStatement[] }> {
  const byConnection = new Map<pg.Client, RecordedStatement[]>()
  const original = pg.Client.prototype.query as unknown as QueryFunction
  pg.Client.prototype.query = function recorded(this: pg.Client, ...args: unknown[]) {
    const [first, second] = args
    const text = typeof first === 'string' ? first : (first as { text?: string } | undefined)?.text
    const values = typeof first === 'string' ? second : ((first as { values?: unknown[] } | undefined)?.values ?? second)
    if (typeof text === 'string' && keep(text)) byConnection.set(this, [...(byConnection.get(this) ?? []), { text, values: Array.isArray(values) ? [...values] : [] }])
    return original.apply(this, args)
  } as never
  try {
    const result = await work()
    const statements = [...byConnection.values()].reduce<RecordedStatement[]>((most, sent) => (sent.length > most.length ? sent : most), [])
    return { result, statements }
  } finally {
    pg.Client.prototype.query = original as never
  }
}

/** Steward's ids (`prefix_` + 26 characters) and 64-hex digests: what must be new on every replay. */
const uniqueValuePattern = /\b([a-z]{2,4})_[0-9A-Z]{26}\b|\b[0-9a-f]{64}\b/g

/**
 * The parameters with every id of the named `prefixes` and every digest in them (plain or inside JSON
 * text) replaced by a fresh one, the same one for the same original within one replay (`map`): what a
 * unique index or a primary key needs new. Other ids (the tenant's account, counterparty, agent) stay.
 * `substitute` may name the id to use instead (a row that other tables reference by foreign key).
 */
export function freshValues(
  values: readonly unknown[],
  map: Map<string, string>,
  ids: IdSource,
  options: { readonly prefixes: ReadonlySet<string>; readonly substitute?: (id: string, prefix: string) => string | undefined },
): unknown[] {
  return values.map((value) =>
    typeof value !== 'string'
      ? value
      : value.replace(uniqueValuePattern, (found: string, prefix: string | undefined) => {
          if (prefix !== undefined && !options.prefixes.has(prefix)) return found
          let next = map.get(found)
          if (next === undefined) {
            next = prefix === undefined ? randomBytes(32).toString('hex') : (options.substitute?.(found, prefix) ?? `${prefix}_${ids.newId('event').slice('evt_'.length)}`)
            map.set(found, next)
          }
          return next
        }),
  )
}

/** One command's recorded writes, replayed with fresh ids in one transaction, one round trip. */
export function replayWrites(db: Database, statements: readonly RecordedStatement[], fresh: (values: readonly unknown[], map: Map<string, string>) => unknown[]): Promise<void> {
  return db.transaction(async (tx) => {
    const client = (tx as unknown as { session: { client: pg.Client } }).session.client
    const map = new Map<string, string>()
    for (const statement of statements) commitWith(tx, client.query({ text: statement.text, values: fresh(statement.values, map) }))
  })
}

/**
 * The audit recorder's insert without the wake-up it carries at most once per 100 ms a process
 * (src/modules/audit/audit.recorder.ts): recorded on whichever command happened to carry it, the NOTIFY
 * would otherwise be replayed on every command, and a notifying commit takes a global lock.
 */
export function withoutWakeUp(statement: RecordedStatement): RecordedStatement {
  const wrapped = /^with inserted as \(([\s\S]*) returning tenant_id\)\s*select pg_notify\([\s\S]*$/.exec(statement.text)
  return wrapped === null ? statement : { ...statement, text: wrapped[1]!.trim() }
}

/** A statement whose one parameter is a JSON array of rows (the audit recorder's insert): merged by concatenating the arrays. */
const jsonRowsInsert = /^insert into \w+ [\s\S]*\$1::jsonb[\s\S]*$/

/** `insert into "table" (columns) values ($1, …)`: a Drizzle single-row insert, which grouping merges. */
const singleRowInsert = /^insert into "([^"]+)" \(([^)]*)\) values \(([^)]*)\)$/s

export interface Grouping {
  /** Column types of the tables whose inserts are merged (a multi-row VALUES list types its parameters as text otherwise). */
  readonly columnTypes: ReadonlyMap<string, ReadonlyMap<string, string>>
}

export async function groupingFor(db: Database, tables: readonly string[]): Promise<Grouping> {
  const rows = await queryRows<{ table_name: string; column_name: string; type: string }>(
    db.orm,
    sql`select c.relname as table_name, a.attname as column_name, format_type(a.atttypid, a.atttypmod) as type
          from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = 'public' and c.relname = any(${sql.param([...tables])}::text[]) and a.attnum > 0 and not a.attisdropped`,
  )
  const columnTypes = new Map<string, Map<string, string>>()
  for (const row of rows) {
    if (!columnTypes.has(row.table_name)) columnTypes.set(row.table_name, new Map())
    columnTypes.get(row.table_name)!.set(row.column_name, row.type)
  }
  return { columnTypes }
}

/**
 * Several commands' recorded writes in one transaction (group commit): each Drizzle single-row insert
 * merged across the commands into one multi-row insert per table, and each insert of a JSON array of rows
 * (the audit inbox's) into one with the arrays concatenated; the other statements (the business events'
 * insert, which is per tenant: it asks the tenant's subscribers) sent one by one; one round trip. Every
 * statement is sent with its text as a prepared statement's, as the commands' own are.
 */
export function replayGrouped(db: Database, grouping: Grouping, commands: ReadonlyArray<readonly RecordedStatement[]>, fresh: (values: readonly unknown[], map: Map<string, string>, command: number) => unknown[]): Promise<void> {
  return db.transaction(async (tx) => {
    const client = (tx as unknown as { session: { client: pg.Client } }).session.client
    const maps = commands.map(() => new Map<string, string>())
    const merged = new Map<string, { head: string; columns: string[]; tuples: string[]; values: unknown[] }>()
    const jsonRows = new Map<string, unknown[]>()
    commands.forEach((statements, index) => {
      for (const statement of statements) {
        const insert = singleRowInsert.exec(statement.text)
        const values = fresh(statement.values, maps[index]!, index)
        if (insert === null && values.length === 1 && typeof values[0] === 'string' && jsonRowsInsert.test(statement.text) && !/\$2\b/.test(statement.text)) {
          const group = jsonRows.get(statement.text) ?? []
          group.push(...(JSON.parse(values[0]) as unknown[]))
          jsonRows.set(statement.text, group)
          continue
        }
        if (insert === null) {
          commitWith(tx, client.query({ text: statement.text, values }))
          continue
        }
        const [, table, columnList, placeholders] = insert as unknown as [string, string, string, string]
        const columns = [...columnList.matchAll(/"([^"]+)"/g)].map((match) => match[1]!)
        let group = merged.get(table)
        if (group === undefined) {
          group = { head: `insert into "${table}" (${columnList}) values `, columns, tuples: [], values: [] }
          merged.set(table, group)
        }
        const offset = group.values.length
        const types = grouping.columnTypes.get(table)
        const cast = placeholders.split(',').map((placeholder, position) => {
          const trimmed = placeholder.trim()
          const type = types?.get(columns[position]!)
          const renumbered = trimmed.replace(/^\$(\d+)$/, (_, n: string) => `$${Number(n) + offset}`)
          return type === undefined || !trimmed.startsWith('$') ? renumbered : `${renumbered}::${type}`
        })
        group.tuples.push(`(${cast.join(', ')})`)
        group.values.push(...values)
      }
    })
    for (const group of merged.values()) commitWith(tx, client.query({ text: group.head + group.tuples.join(', '), values: group.values }))
    for (const [text, rows] of jsonRows) commitWith(tx, client.query({ text, values: [JSON.stringify(rows)] }))
  })
}

/**
 * Several commands' recorded writes in one transaction, each statement as its command sent it (nothing
 * merged), one round trip: group commit as a shared transaction could run commands whose code stays as
 * it is. It is the best case of that design (no savepoint per command: a group that failed would be run
 * again command by command), so a design that keeps the commands' statements cannot beat it.
 */
export function replayGroupedAsSent(db: Database, commands: ReadonlyArray<readonly RecordedStatement[]>, fresh: (values: readonly unknown[], map: Map<string, string>, command: number) => unknown[]): Promise<void> {
  return db.transaction(async (tx) => {
    const client = (tx as unknown as { session: { client: pg.Client } }).session.client
    commands.forEach((statements, index) => {
      const map = new Map<string, string>()
      for (const statement of statements) commitWith(tx, client.query({ text: statement.text, values: fresh(statement.values, map, index) }))
    })
  })
}
