/**
 * The engine switch. Embedded PGlite is the default (a fresh clone needs no server); PostgreSQL through
 * `pg` when a URL is given. Nothing outside `db/` knows which engine is in use: both are exposed as the
 * same Drizzle `PgDatabase`, and job-queue wiring asks this module for its connection instead of
 * inspecting the engine itself.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { sql, type ExtractTablesWithRelations, type SQL } from 'drizzle-orm'
import { drizzle as drizzleNodePostgres } from 'drizzle-orm/node-postgres'
import { NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres/session'
import { migrate as migrateNodePostgres } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgQueryResultHKT, PgTransaction, PgTransactionConfig } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import { fromPglite } from 'pg-boss'
/**
 * No relational schema is given to Drizzle: queries name their tables (each module's `*.tables.ts`), so
 * the database layer needs to know none of them.
 */
export type Schema = Record<string, never>
export type Orm = PgDatabase<PgQueryResultHKT, Schema>
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>
/** Anything a store query can run on: the database itself or an open transaction. */
export type Executor = Orm | Tx

export type Engine = 'pglite' | 'postgres'

/** How the job queue reaches the same database (pg-boss constructor options). */
export type JobQueueConnection =
  | { kind: 'adapter'; options: { db: ReturnType<typeof fromPglite>; backend: 'pglite' } }
  | { kind: 'url'; options: { connectionString: string; max: number } }

export interface Database {
  readonly engine: Engine
  readonly orm: Orm
  /**
   * Runs `work` in one transaction. On PGlite transactions are serialized by the engine (one
   * connection); on PostgreSQL they run concurrently at the given isolation level. Never call
   * `orm` from inside `work`: on PGlite that waits for the transaction it is inside. Writes `work`
   * handed to `commitWith` are awaited before this resolves, and fail it (rolled back) if one fails.
   */
  transaction<T>(work: (tx: Tx) => Promise<T>, config?: PgTransactionConfig): Promise<T>
  /**
   * Runs `work` on a connection of its own, held for the whole of `work` while other queries use the
   * rest of the pool: session state (a session-level advisory lock) lasts as long as `work`, and the
   * connection's transactions run beside queries on `orm`. When `work` fails the connection is closed
   * rather than reused, so whatever session state it held goes with it. Undefined on PGlite, whose one
   * connection everything shares.
   */
  readonly dedicatedConnection?: <T>(work: (connection: Orm) => Promise<T>) => Promise<T>
  /** Applies every pending migration; safe to call from several processes at once. */
  migrate(): Promise<void>
  jobQueueConnection(): JobQueueConnection
  /**
   * Calls `onNotification` with the payload of every NOTIFY on `channel` (delivered when the notifying
   * transaction commits). Returns a function that stops listening. On PostgreSQL this holds one
   * dedicated connection, reconnected after a failure; callers must not rely on never missing one.
   */
  listen(channel: string, onNotification: (payload: string) => void): Promise<() => Promise<void>>
  close(): Promise<void>
}

export interface DatabaseOptions {
  /** PostgreSQL URL; unset selects embedded PGlite. */
  url?: string | undefined
  /** PGlite data directory; unset keeps the database in memory (tests). */
  pgliteDataDir?: string | undefined
  /** PostgreSQL pool size. */
  poolConnectionsMax?: number
}

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url))

/** A fixed key for the advisory lock that serializes migrations across processes. */
const migrationLockKey = 7_264_110_501

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.url === undefined ? openPglite(options.pgliteDataDir) : openPostgres(options.url, options.poolConnectionsMax ?? 10)
}

async function openPglite(dataDir: string | undefined): Promise<Database> {
  let releaseLock = () => {}
  if (dataDir !== undefined) {
    mkdirSync(dataDir, { recursive: true })
    releaseLock = lockDataDir(dataDir)
  }
  let client: PGlite
  try {
    // pg_trgm: the Wiki search's trigram similarity (its migration creates the extension on both engines).
    client = await PGlite.create(dataDir === undefined ? undefined : join(dataDir), { extensions: { pg_trgm } })
  } catch (error) {
    releaseLock()
    throw error
  }
  const orm = drizzlePglite({ client }) as unknown as Orm
  return {
    engine: 'pglite',
    orm,
    transaction: (work, config) =>
      orm.transaction(async (tx) => {
        try {
          const result = await work(tx)
          await settleDeferred(tx)
          return result
        } catch (error) {
          throw await causeOf(tx, error)
        }
      }, config),
    // One connection in one process (the lock file): nothing else can migrate concurrently.
    migrate: () => migratePglite(orm as never, { migrationsFolder }),
    jobQueueConnection: () => ({ kind: 'adapter', options: { db: fromPglite(client), backend: 'pglite' } }),
    listen: async (channel, onNotification) => {
      assertChannelName(channel)
      const unlisten = await client.listen(channel, onNotification)
      return async () => {
        if (!client.closed) await unlisten()
      }
    },
    close: async () => {
      await client.close()
      releaseLock()
    },
  }
}

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database in ${dataDir} is open in another process (pid ${pid}). PGlite serves one process: ` +
        'stop that process, or use PostgreSQL (DATABASE_URL) to run several.',
    )
    this.name = 'DataDirInUseError'
  }
}

/**
 * PGlite has no cross-process locking, and two processes writing one data directory corrupt it. A lock
 * file holding our pid refuses a second opener; a lock left by a process that no longer exists is taken over.
 */
function lockDataDir(dataDir: string): () => void {
  const lockPath = join(dataDir, 'steward.lock')
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      writeFileSync(lockPath, String(process.pid), { flag: 'wx' })
      return () => rmSync(lockPath, { force: true })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const holder = Number(readFileSync(lockPath, 'utf8').trim())
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && processIsAlive(holder)) throw new DataDirInUseError(dataDir, holder)
      rmSync(lockPath, { force: true })
    }
  }
  throw new Error(`could not lock ${dataDir}`)
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * A server connection in pipeline mode (pg ≥ 8.23) whose writes leave in one system call per tick.
 *
 * Pipeline mode: queries a transaction issues together (Promise.all over independent reads or writes) go
 * out at once and share one round trip; queries issued one after another behave exactly as without it. A
 * COPY turns it off for its duration (bulk.ts).
 *
 * Corking: pg writes each protocol message of a query separately (Parse, Bind, Describe, Execute, Sync),
 * and each write is a system call: on this class of machine about a third of the process's CPU in a
 * gate run went to writev. The socket is corked at the first write of a tick and uncorked once the tick's
 * promise jobs have run (process.nextTick), so every message issued in that tick (a whole wave of
 * pipelined queries) leaves in one writev.
 *
 * Statements are prepared on the connection the first time they run (a name derived from their text), as
 * postgres.js and most drivers do: the server then parses and analyses each statement once per connection
 * instead of on every execution, and may keep its plan (about a third of the server's CPU on the payment
 * commands went to parse, analysis and planning). Only plain DML is prepared (SELECT, INSERT, UPDATE,
 * DELETE, WITH), and at most `preparedPerConnectionMax` statements per connection, so statements whose
 * text varies with their input (IN lists, multi-row VALUES) cannot grow a connection's cache without bound.
 */
class PipelinedClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super({ ...(typeof config === 'string' ? { connectionString: config } : config), pipeline: true } as pg.ClientConfig)
    const connection = (this as unknown as { connection: { stream: NodeJS.WritableStream & { cork(): void; uncork(): void }; _send(buffer: Buffer): boolean } }).connection
    const send = connection._send.bind(connection)
    let corked = false
    connection._send = (buffer) => {
      if (!corked) {
        const stream = connection.stream
        corked = true
        stream.cork()
        process.nextTick(() => {
          corked = false
          stream.uncork()
        })
      }
      return send(buffer)
    }
  }

  /** Why no statement may be queued now (a transaction's COMMIT is on its way), or undefined. */
  private sealedBecause: string | undefined

  seal(reason: string): void {
    this.sealedBecause = reason
  }

  unseal(): void {
    this.sealedBecause = undefined
  }

  override query(...args: unknown[]): never {
    if (this.sealedBecause !== undefined) {
      return Promise.reject(new Error(`a statement was queued after the transaction's end: ${this.sealedBecause}`)) as never
    }
    const [config] = args
    if (typeof config === 'object' && config !== null && !('submit' in config) && (config as pg.QueryConfig).name === undefined) {
      const name = preparedNameOf((config as pg.QueryConfig).text, this)
      if (name !== undefined) args[0] = { ...(config as pg.QueryConfig), name }
    }
    return (pg.Client.prototype.query as (...queryArgs: unknown[]) => never).apply(this, args)
  }
}

const preparedPerConnectionMax = 500
const preparableStatement = /^\s*(select|insert|update|delete|with)\b/i
const preparedNames = new Map<string, string | null>()

/** The prepared statement name for `text` on `client`, or undefined to run it unnamed. */
function preparedNameOf(text: string, client: pg.Client): string | undefined {
  let name = preparedNames.get(text)
  if (name === undefined) {
    name = preparableStatement.test(text) ? `steward_${createHash('sha256').update(text).digest('base64url').slice(0, 22)}` : null
    // The text-to-name memo is bounded too: past it, names are derived again (a hash per query).
    if (preparedNames.size < 10 * preparedPerConnectionMax) preparedNames.set(text, name)
  }
  if (name === null) return undefined
  const connection = (client as unknown as { connection: { parsedStatements: Record<string, string>; submittedNamedStatements: Record<string, string> } }).connection
  if (connection.parsedStatements[name] !== undefined || connection.submittedNamedStatements[name] !== undefined) return name
  return Object.keys(connection.parsedStatements).length < preparedPerConnectionMax ? name : undefined
}

async function openPostgres(url: string, poolConnectionsMax: number): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolConnectionsMax, Client: PipelinedClient })
  // An idle client's network error must not crash the process; the pool replaces the client.
  pool.on('error', () => {})
  const orm = drizzleNodePostgres({ client: pool }) as unknown as Orm
  return {
    engine: 'postgres',
    orm,
    transaction: (work, config) => pipelinedTransaction(pool, orm, work, config),
    dedicatedConnection: async (work) => {
      const client = await pool.connect()
      let failed = false
      try {
        return await work(drizzleNodePostgres({ client }) as unknown as Orm)
      } catch (error) {
        failed = true
        throw error
      } finally {
        client.release(failed)
      }
    },
    migrate: async () => {
      const lockClient = await pool.connect()
      try {
        await lockClient.query('select pg_advisory_lock($1)', [migrationLockKey])
        await migrateNodePostgres(orm as never, { migrationsFolder })
      } finally {
        await lockClient.query('select pg_advisory_unlock($1)', [migrationLockKey]).catch(() => {})
        lockClient.release()
      }
    },
    jobQueueConnection: () => ({ kind: 'url', options: { connectionString: url, max: 4 } }),
    listen: (channel, onNotification) => listenPostgres(url, channel, onNotification),
    close: () => pool.end(),
  }
}

/** Writes a transaction's commit goes out with (`commitWith`), by transaction. */
const deferredWrites = new WeakMap<Tx, Array<Promise<unknown>>>()

/**
 * Hands the transaction runner writes `tx` has sent and not awaited, for the commit to go out with them:
 * on PostgreSQL the COMMIT is pipelined behind them (one round trip for the last writes and the commit),
 * and the transaction resolves only once every one of them has; if one failed, PostgreSQL ran the COMMIT
 * as a ROLLBACK (a failed statement aborts the transaction) and the transaction rejects with that
 * write's error. Nothing may be sent on `tx` after this but further deferred writes. `writes` is started
 * here if it is a lazy (Drizzle) query promise.
 */
export function commitWith(tx: Tx, writes: PromiseLike<unknown>): void {
  // Started here, once: a Drizzle query promise runs its query again on every `then`.
  const started = new Promise<unknown>((resolve, reject) => {
    writes.then(resolve, reject)
  })
  started.catch(() => {}) // observed by the runner; never an unhandled rejection meanwhile
  const pending = deferredWrites.get(tx)
  if (pending === undefined) deferredWrites.set(tx, [started])
  else pending.push(started)
}

/**
 * Why a transaction failed: `error`, unless a write handed to `commitWith` failed — sent before whatever
 * threw, its failure aborted the transaction and is the cause (a statement behind it only reports the
 * abort). Forgets the transaction's deferred writes.
 */
async function causeOf(tx: Tx, error: unknown): Promise<unknown> {
  const pending = deferredWrites.get(tx)
  deferredWrites.delete(tx)
  if (pending === undefined) return error
  const failed = (await Promise.allSettled(pending)).find((outcome) => outcome.status === 'rejected')
  return failed === undefined ? error : failed.reason
}

/** Awaits the transaction's deferred writes, throwing the first failure. */
async function settleDeferred(tx: Tx): Promise<void> {
  const pending = deferredWrites.get(tx)
  if (pending === undefined) return
  deferredWrites.delete(tx)
  const settled = await Promise.allSettled(pending)
  const failed = settled.find((outcome) => outcome.status === 'rejected')
  if (failed !== undefined) throw failed.reason
}

/** BEGIN with the transaction's characteristics, as Drizzle words them. */
function beginStatement(config: PgTransactionConfig | undefined): string {
  const characteristics = [
    ...(config?.isolationLevel === undefined ? [] : [`isolation level ${config.isolationLevel}`]),
    ...(config?.accessMode === undefined ? [] : [config.accessMode]),
    ...(config?.deferrable === undefined ? [] : [config.deferrable ? 'deferrable' : 'not deferrable']),
  ]
  return ['begin', ...characteristics].join(' ')
}

/**
 * Drizzle's transaction, with its BEGIN and COMMIT pipelined (PostgreSQL).
 *
 * BEGIN is queued on the connection at once, without waiting for its answer, so it leaves with the
 * transaction's first statement (one round trip instead of two). COMMIT is queued as soon as `work` has
 * returned and every statement it started is on the connection, without waiting for the writes it handed
 * to `commitWith`: the last writes and the COMMIT share a round trip. This is correct because a pipelined
 * connection runs statements in the order they were queued and PostgreSQL ends a transaction at its first
 * failure: a BEGIN that fails fails everything behind it, and a write that fails aborts the transaction,
 * so the COMMIT behind it does a ROLLBACK. That is answered with the command tag `ROLLBACK`, not an error,
 * so a COMMIT answered with anything but `COMMIT` rejects the transaction, with the failed write's error.
 *
 * "Every statement it started": Drizzle's query promises reach the driver through a few promise jobs, so
 * COMMIT is queued on the next tick, once the promise jobs of this one have run. A statement queued later
 * still (one started after awaiting I/O, which `work` must not leave unawaited) would run after the COMMIT,
 * outside the transaction; the connection is sealed when COMMIT is queued, so such a statement fails
 * loudly instead. A connection whose ROLLBACK fails is closed, not reused.
 */
async function pipelinedTransaction<T>(pool: pg.Pool, orm: Orm, work: (tx: Tx) => Promise<T>, config: PgTransactionConfig | undefined): Promise<T> {
  type Parts = ConstructorParameters<typeof NodePgSession<Schema, ExtractTablesWithRelations<Schema>>>
  const root = (orm as unknown as { session: { dialect: Parts[1]; schema: Parts[2]; options: Parts[3] } }).session
  const client = (await pool.connect()) as PipelinedClient & pg.PoolClient
  const session = new NodePgSession<Schema, ExtractTablesWithRelations<Schema>>(client, root.dialect, root.schema, root.options)
  const tx = new NodePgTransaction<Schema, ExtractTablesWithRelations<Schema>>(root.dialect, session, root.schema) as unknown as Tx
  /** Queues `text` on the connection now (the driver's promise starts at once), observing its failure until awaited. */
  const queue = (text: string): Promise<pg.QueryResult> => {
    const answer = client.query(text) as Promise<pg.QueryResult>
    answer.catch(() => {})
    return answer
  }
  const everythingQueued = () => new Promise<void>((resolve) => process.nextTick(resolve))
  let broken: Error | undefined
  try {
    const begun = queue(beginStatement(config))
    try {
      const result = await work(tx)
      await everythingQueued()
      const committed = queue('commit')
      client.seal('the transaction has been committed')
      await begun
      await settleDeferred(tx)
      const answer = await committed
      if (answer.command !== 'COMMIT') throw new Error(`the transaction was rolled back (COMMIT answered ${String(answer.command)})`)
      return result
    } catch (thrown) {
      const error = await causeOf(tx, thrown)
      await everythingQueued()
      client.unseal()
      try {
        // Harmless after a COMMIT that rolled back (a warning, no error).
        await queue('rollback')
      } catch (rollbackFailure) {
        broken = rollbackFailure instanceof Error ? rollbackFailure : new Error(String(rollbackFailure))
      }
      throw error
    }
  } finally {
    client.unseal()
    client.release(broken)
  }
}

/**
 * Runs a raw SQL statement and returns its rows. Both drivers answer `{ rows }`; the engine-neutral
 * Drizzle type cannot say so, which is why this lives here.
 */
export async function queryRows<Row>(executor: Executor, query: SQL): Promise<Row[]> {
  const result = (await executor.execute(query)) as unknown as { rows: Row[] }
  return result.rows
}

const listenReconnectDelayMs = 1_000

function assertChannelName(channel: string): void {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new TypeError(`not a channel name: ${channel}`)
}

async function listenPostgres(url: string, channel: string, onNotification: (payload: string) => void): Promise<() => Promise<void>> {
  assertChannelName(channel)
  let stopped = false
  let client: pg.Client | undefined
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url })
    next.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) onNotification(message.payload)
    })
    next.on('error', () => {
      // The connection broke: listen again on a new one after a pause (callers also sweep periodically).
      next.end().catch(() => {})
      if (!stopped) setTimeout(() => void connect().catch(() => {}), listenReconnectDelayMs).unref()
    })
    await next.connect()
    await next.query(`listen ${channel}`)
    client = next
  }
  await connect()
  return async () => {
    stopped = true
    await client?.end().catch(() => {})
  }
}

/** A trivial round trip, for readiness checks. */
export async function ping(database: Database): Promise<void> {
  await database.orm.execute(sql`select 1`)
}
