/**
 * The system under test: the real runtime and app (the same wiring as `main/server.ts`), listening on an
 * ephemeral port on 127.0.0.1. Embedded PGlite in a temporary directory by default; with DATABASE_URL, a
 * fresh throwaway database on that server, dropped on close.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import { sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import pg from 'pg'
import pino from 'pino'
import { loadConfig } from '../src/main/config.ts'
import { resolveSecrets } from '../src/main/secrets.ts'
import { createRuntime, type Runtime } from '../src/main/compose.ts'

/**
 * The public (per-address) budget, as high as config allows (PUBLIC_RATE_LIMIT_* max 1,000,000): every
 * request of the benchmark comes from 127.0.0.1, and the limiter must not be what is measured.
 */
const publicRateLimit = '1000000'

/** Per-credential limits written onto the bench tenant (int4 columns): high enough never to deny. */
export const tenantRateLimit = { perMinute: 1_000_000_000, burst: 1_000_000_000 }

export interface BenchServer {
  readonly engine: 'pglite' | 'postgres'
  readonly baseUrl: string
  readonly runtime: Runtime
  readonly app: FastifyInstance
  readonly rateLimitStore: 'memory' | 'redis'
  readonly workersInProcess: boolean
  /** Lifts the tenant's per-credential rate limit (enterprise tier with huge custom figures). */
  unlimitTenant(tenantId: string): Promise<void>
  close(): Promise<void>
}

const tempPrefix = 'steward-bench-'
const databasePrefix = 'steward_bench_'
/** Leftovers of runs killed before they could clean up (SIGKILL, a crash) are removed after this long. */
const leftoverAgeMs = 6 * 60 * 60 * 1000

export async function startBenchServer(
  env: Readonly<Record<string, string | undefined>>,
  logLevel: string,
  options: { startWorkers?: boolean } = {},
): Promise<BenchServer> {
  const serverUrl = env.DATABASE_URL === undefined || env.DATABASE_URL.trim() === '' ? undefined : env.DATABASE_URL.trim()
  await removeLeftovers(serverUrl)
  const dataDir = mkdtempSync(join(tmpdir(), tempPrefix))
  const cleanups: Array<() => Promise<void>> = [async () => rmSync(dataDir, { recursive: true, force: true })]
  const cleanup = async () => {
    for (const step of cleanups.splice(0).reverse()) {
      try {
        await step()
      } catch (error) {
        process.stderr.write(`bench cleanup: ${String(error)}\n`)
      }
    }
  }

  try {
    let databaseUrl: string | undefined
    if (serverUrl !== undefined) {
      const name = `${databasePrefix}${Date.now()}_${randomBytes(3).toString('hex')}`
      await adminQuery(serverUrl, `create database ${name}`)
      // BENCH_KEEP_DATABASE=1 keeps it for inspection (EXPLAIN, pg_stat_statements) after the run.
      if (process.env.BENCH_KEEP_DATABASE !== '1')
        cleanups.push(async () => {
          await adminQuery(serverUrl, `drop database if exists ${name} with (force)`)
        })
      else process.stderr.write(`bench: keeping database ${name}\n`)
      const url = new URL(serverUrl)
      url.pathname = `/${name}`
      databaseUrl = url.toString()
    }

    const config = resolveSecrets(
      loadConfig({
        STEWARD_ENV: 'sandbox',
        HOST: '127.0.0.1',
        PORT: '0',
        PUBLIC_BASE_URL: 'http://127.0.0.1',
        DATA_DIR: dataDir,
        JWT_SECRET: randomBytes(32).toString('hex'),
        API_KEY_PEPPER: randomBytes(32).toString('hex'),
        PUBLIC_RATE_LIMIT_PER_MINUTE: publicRateLimit,
        PUBLIC_RATE_LIMIT_BURST: publicRateLimit,
        LOG_LEVEL: logLevel,
        SHUTDOWN_TIMEOUT_MS: '5000',
        REDIS_URL: env.REDIS_URL,
        WORKERS_IN_PROCESS: env.WORKERS_IN_PROCESS,
        // The payments benchmark mints service tokens (the proposing agents).
        SERVICE_TOKEN_SECRET: env.SERVICE_TOKEN_SECRET,
        DATABASE_URL: databaseUrl,
      }),
    )
    // Production scrypt parameters (no `scrypt` override): login cost is part of what is measured.
    const runtime = await createRuntime({
      config,
      logger: pino({ name: 'steward-bench', level: config.logLevel }),
      pgliteDataDir: databaseUrl === undefined ? join(dataDir, 'pglite') : undefined,
      blobRoot: join(dataDir, 'blobs'),
    })
    cleanups.push(() => runtime.close())
    // As `main/server.ts` does: the workers run in the server process unless WORKERS_IN_PROCESS=false.
    if (config.workersInProcess && options.startWorkers !== false) await runtime.startWorkers()

    const app = await runtime.buildApp()
    cleanups.push(() => app.close())
    await app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = app.server.address() as AddressInfo

    return {
      engine: databaseUrl === undefined ? 'pglite' : 'postgres',
      baseUrl: `http://127.0.0.1:${port}`,
      runtime,
      app,
      rateLimitStore: config.redisUrl === undefined ? 'memory' : 'redis',
      workersInProcess: config.workersInProcess,
      async unlimitTenant(tenantId) {
        await runtime.db.orm.execute(
          sql`update tenants set rate_limit_tier = 'enterprise', rate_limit_per_minute = ${tenantRateLimit.perMinute}, rate_limit_burst = ${tenantRateLimit.burst} where id = ${tenantId}`,
        )
      },
      close: cleanup,
    }
  } catch (error) {
    await cleanup()
    throw error
  }
}

async function adminQuery(serverUrl: string, statement: string): Promise<Array<Record<string, unknown>>> {
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  try {
    return (await client.query(statement)).rows as Array<Record<string, unknown>>
  } finally {
    await client.end()
  }
}

/**
 * Removes throwaway databases and temporary directories of earlier runs that were killed before their
 * own cleanup ran (tsx answers a slow Ctrl-C with SIGKILL), once they are old enough not to belong to
 * a run still in progress.
 */
async function removeLeftovers(serverUrl: string | undefined): Promise<void> {
  const cutoff = Date.now() - leftoverAgeMs
  for (const entry of readdirSync(tmpdir())) {
    if (!entry.startsWith(tempPrefix)) continue
    const path = join(tmpdir(), entry)
    try {
      if (statSync(path).mtimeMs < cutoff) rmSync(path, { recursive: true, force: true })
    } catch {
      // Gone already, or not ours to remove.
    }
  }
  if (serverUrl === undefined) return
  const pattern = new RegExp(`^${databasePrefix}(\\d+)_[0-9a-f]{6}$`)
  const rows = await adminQuery(serverUrl, `select datname from pg_database where datname like '${databasePrefix}%'`)
  for (const row of rows) {
    const name = String(row.datname)
    const createdAt = Number(pattern.exec(name)?.[1])
    if (Number.isFinite(createdAt) && createdAt < cutoff) {
      process.stderr.write(`bench: dropping ${name}, left over by an interrupted run\n`)
      await adminQuery(serverUrl, `drop database if exists ${name} with (force)`).catch(() => {})
    }
  }
}
