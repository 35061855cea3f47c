/**
 * Dispatch benchmark for the execution worker (issue 17), in-process on the real runtime, on embedded
 * PGlite or on PostgreSQL (DATABASE_URL: a throwaway database on that server, dropped at the end).
 *
 * A **completed execution** here is the worker's commit of the rail's answer: the `committed` step of
 * dispatch.service.ts (claim transaction, the sandbox bank_ach rail's submit, the apply transaction). The
 * sandbox rail answers "pending" at once, so the execution ends that step `in_flight` with its
 * `rail_reference`, awaiting settlement; the provider settles it SANDBOX_ACH_SETTLE_SECONDS later by a
 * job, reported apart (`settlement`).
 *
 * 1. Throughput, a backlog drained: N jobs are queued while no worker runs, then the worker is started
 *    and timed until the N-th job is done.
 *    - baseline: N no-op jobs on a queue of their own with the dispatch queue's policy, on the same
 *      job-queue machinery (platform/jobs/job-queue.ts: pg-boss in the same database and schema, a second
 *      instance, the same batch, burst and polling options: workBatches, as the dispatch worker); measured before the
 *      dispatch drain (other workers not started, after an untimed warm-up drain) and again after it
 *      (every worker running), ratio against their mean;
 *    - dispatch: N approved intents executed through the gate (each commit writes its outbox row and
 *      enqueues its `execution-dispatch` job), then every worker of the runtime is started (as the
 *      server does) and timed until N dispatches have committed; then their settlement is waited for;
 *    - references: N jobs whose handler commits one single-row INSERT, and N whose batch commits twice,
 *      the batch's rows in one INSERT each time (the least a crash-safe dispatch commits: its batch's
 *      claims before the rail call, their answers after it): a floor for the dispatch, as a ratio of the
 *      bare mean.
 * 2. Latency, workers running: jobs arriving at a fixed rate (an open loop), timed from the commit that
 *    enqueued each (the send's transaction; the gate's execute command) to the handler starting (bare),
 *    to the dispatch's `claimed` step and to its `committed` step, via the diagnostics channel
 *    `steward:execution:step`. On PostgreSQL also bare jobs sent from another process (a second pool and
 *    job queue) that nudges the queue after each commit, which reaches the worker here by NOTIFY.
 *
 * Target (issue 17): dispatch rate ≥ 0.5× the bare job rate.
 *
 *   npm run bench:execution -- [--executions N] [--rate 20] [--latency-seconds 8] [--batch-size 4]
 */
import { randomBytes } from 'node:crypto'
import diagnostics from 'node:diagnostics_channel'
import inspector from 'node:inspector'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { parseArgs } from 'node:util'
import { sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import pg from 'pg'
import pino from 'pino'
import Type from 'typebox'
import type { CommandContext } from '../src/kernel/context.ts'
import type { Principal } from '../src/kernel/principal.ts'
import { loadConfig } from '../src/main/config.ts'
import { createRuntime, type Runtime } from '../src/main/compose.ts'
import type { AuditRecord } from '../src/kernel/audit-record.ts'
import { createIdSource } from '../src/kernel/ids.ts'
import { createAuditRecorder } from '../src/modules/audit/audit.recorder.ts'
import { createWebhookSubscriber } from '../src/modules/webhooks/index.ts'
import { createCommandRunner } from '../src/platform/commands/command.ts'
import { createIdempotencyStore } from '../src/platform/commands/idempotency.store.pg.ts'
import { createEventRecorder } from '../src/platform/outbox/events.ts'
import { resolveSecrets } from '../src/main/secrets.ts'
import { openDatabase, queryRows } from '../src/platform/db/database.ts'
import { createJobQueue, defineQueue } from '../src/platform/jobs/job-queue.ts'
import { defaultExecutionSettings, executionQueues } from '../src/modules/execution/index.ts'
import { seedParsedArtifact } from '../src/modules/raw/raw.testing.ts'
import { round } from './load.ts'
import { tenantRateLimit } from './server.ts'

const { values } = parseArgs({
  options: {
    executions: { type: 'string', default: process.env.BENCH_EXECUTION_COUNT },
    rate: { type: 'string', default: process.env.BENCH_EXECUTION_RATE },
    'latency-seconds': { type: 'string', default: process.env.BENCH_EXECUTION_LATENCY_SECONDS ?? '8' },
    'batch-size': { type: 'string', default: process.env.BENCH_EXECUTION_BATCH_SIZE ?? String(defaultExecutionSettings.batchSize) },
    /** Batches each worker (the dispatch's and the bare ones alike) works on at once. */
    concurrency: { type: 'string', default: process.env.BENCH_EXECUTION_CONCURRENCY ?? String(defaultExecutionSettings.concurrency) },
    'polling-seconds': { type: 'string', default: '2' },
    callers: { type: 'string', default: '8' },
    tenants: { type: 'string', default: '8' },
    'settle-seconds': { type: 'string', default: '15' },
    'settle-wait': { type: 'string', default: '60' },
    output: { type: 'string', default: process.env.BENCH_EXECUTION_OUTPUT ?? 'bench/results/execution.json' },
    /** Writes a V8 CPU profile of the dispatch drain alone to this path (open it in Chrome's DevTools). */
    'profile-dispatch': { type: 'string' },
  },
  strict: true,
})
const databaseServerUrl = process.env.DATABASE_URL === undefined || process.env.DATABASE_URL.trim() === '' ? undefined : process.env.DATABASE_URL.trim()
const engine = databaseServerUrl === undefined ? 'pglite' : 'postgres'
/** Defaults sized so that a run stays under about two minutes on 2 cores (PGlite is several times slower). */
const executionCount = Number(values.executions ?? (engine === 'postgres' ? 600 : 200))
const latencyRate = Number(values.rate ?? (engine === 'postgres' ? 20 : 5))
const latencySeconds = Number(values['latency-seconds'])
const batchSize = Number(values['batch-size'])
const concurrency = Number(values.concurrency)
const pollingSeconds = Number(values['polling-seconds'])
const callers = Number(values.callers)
const tenantCount = Number(values.tenants)
const settleSeconds = Number(values['settle-seconds'])
const settleWaitSeconds = Number(values['settle-wait'])
for (const [name, value] of Object.entries({ executionCount, latencyRate, latencySeconds, batchSize, concurrency, pollingSeconds, callers, tenantCount, settleSeconds })) {
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name}: "${value}" is not a positive number`)
}
if (!Number.isFinite(settleWaitSeconds) || settleWaitSeconds < 0) throw new Error(`settle-wait: "${settleWaitSeconds}" is not a number >= 0`)
const serviceTokenSecret = 'bench-service-token-secret-0123456789abcdef'
const password = 'correct horse battery staple'
/** How long a drain may take before the run gives up on it (a stuck worker, not a slow one). */
const drainTimeoutMs = 300_000

const log = (message: string) => process.stderr.write(`${process.env.BENCH_TS ? `[${process.hrtime.bigint() / 1000n}] ` : ''}${message}\n`)

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!
}

function latencySummary(latencies: number[]) {
  const sorted = [...latencies].sort((a, b) => a - b)
  return { samples: sorted.length, p50_ms: round(percentile(sorted, 0.5), 1), p99_ms: round(percentile(sorted, 0.99), 1), max_ms: round(sorted.at(-1) ?? Number.NaN, 1) }
}

/** Runs `operation` `count` times from `concurrency` closed loops; throws on the first error. */
async function runAll(count: number, concurrency: number, operation: (index: number) => Promise<unknown>): Promise<number> {
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await operation(next++)
    }),
  )
  return round(count / ((performance.now() - started) / 1000), 0)
}

/** Calls `operation` at `perSecond` on a fixed schedule for `count` arrivals (an open loop). */
async function atRate(count: number, perSecond: number, operation: (index: number) => Promise<unknown>): Promise<void> {
  const started = performance.now()
  const pending: Array<Promise<unknown>> = []
  for (let index = 0; index < count; index += 1) {
    const wait = started + (index * 1000) / perSecond - performance.now()
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
    pending.push(operation(index))
  }
  await Promise.all(pending)
}

/** Resolves when `done()` holds, checked every 20 ms; rejects after `timeoutMs`. */
async function until(done: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = performance.now() + timeoutMs
  while (!done()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/**
 * CPU ticks (user + system, 1/100 s) of this run's PostgreSQL backends, by pid: the backends connected to
 * the bench database (pg_stat_activity), read from /proc. Only this run's, not those of other clients of
 * a shared server; empty when the server is not local (or on PGlite, which runs in this process).
 */
async function backendTicks(runtime: Runtime): Promise<Map<number, number>> {
  const ticks = new Map<number, number>()
  if (engine !== 'postgres') return ticks
  const rows = await queryRows<{ pid: number }>(runtime.db.orm, sql`select pid from pg_stat_activity where datname = current_database()`)
  for (const { pid } of rows) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      if (!stat.includes('(postgres)')) continue
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      ticks.set(Number(pid), Number(fields[11]) + Number(fields[12]))
    } catch {
      // Not local, or the backend ended meanwhile.
    }
  }
  return ticks
}

/**
 * Where PostgreSQL's time goes during a drain, by statement: pg_stat_statements of this database, reset
 * at the drain's start, its top statements by execution time at the end. Only where the server preloads
 * the extension (`shared_preload_libraries`); otherwise (PGlite, a default server) null, once decided.
 */
let statementsProfileUsable: boolean | undefined
async function statementsProfile(runtime: Runtime, jobs: number) {
  if (engine !== 'postgres') return async () => null
  if (statementsProfileUsable === undefined) {
    try {
      await runtime.db.orm.execute(sql`create extension if not exists pg_stat_statements`)
      await runtime.db.orm.execute(sql`select 1 from pg_stat_statements limit 1`)
      statementsProfileUsable = true
    } catch {
      statementsProfileUsable = false
    }
  }
  if (!statementsProfileUsable) return async () => null
  await runtime.db.orm.execute(sql`select pg_stat_statements_reset(0, (select oid from pg_database where datname = current_database()), 0)`)
  return async () => {
    const rows = await queryRows<{ calls: string; total_ms: number; rows: string; query: string }>(
      runtime.db.orm,
      sql`select calls::text, total_exec_time as total_ms, rows::text, left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 120) as query
            from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database()) and query not like '%pg_stat_statements%'
           order by total_exec_time desc`,
    )
    const totalMs = rows.reduce((sum, row) => sum + row.total_ms, 0)
    return {
      executor_ms_per_job: round(totalMs / jobs, 3),
      top: rows.slice(0, 8).map((row) => ({ calls: Number(row.calls), ms_per_job: round(row.total_ms / jobs, 3), share: round(row.total_ms / totalMs, 2), rows: Number(row.rows), query: row.query })),
    }
  }
}

/**
 * CPU per job over a drain: this process (the workers, and on PGlite the database too) and this run's
 * PostgreSQL backends. Less sensitive than the rates to other load on a shared machine; a share of the
 * wall time near 1 is a bottleneck (one core each; two cores here). A backend that ended during the
 * drain is not counted (`backends_lost`).
 */
async function cpuMeter(runtime: Runtime, jobs: number) {
  const node = process.cpuUsage()
  const before = await backendTicks(runtime)
  // Before the count starts: its reset is not one of the drain's statements.
  const profile = await statementsProfile(runtime, jobs)
  const statements = countStatements()
  return async (wallSeconds: number) => {
    const sent = statements.stop()
    const postgresStatements = await profile()
    const used = process.cpuUsage(node)
    const nodeSeconds = (used.user + used.system) / 1e6
    const after = await backendTicks(runtime)
    let postgresTicks = 0
    for (const [pid, now] of after) postgresTicks += now - (before.get(pid) ?? 0)
    const postgresSeconds = after.size === 0 ? null : postgresTicks / 100
    return {
      node_cpu_ms_per_job: round((nodeSeconds / jobs) * 1e3, 3),
      node_cpu_share_of_wall: round(nodeSeconds / wallSeconds, 2),
      postgres_cpu_ms_per_job: postgresSeconds === null ? null : round((postgresSeconds / jobs) * 1e3, 3),
      postgres_cpu_share_of_wall: postgresSeconds === null ? null : round(postgresSeconds / wallSeconds, 2),
      backends_lost: [...before.keys()].filter((pid) => !after.has(pid)).length,
      // PostgreSQL: the statements this process sent meanwhile (every worker's), per job and by kind.
      statements_per_job: sent === null ? null : Object.fromEntries(Object.entries(sent).map(([kind, count]) => [kind, round(count / jobs, 2)])),
      // With pg_stat_statements preloaded: PostgreSQL's executor time per job, and its top statements.
      postgres_statements: postgresStatements,
    }
  }
}

/** The V8 profiler of this process (node:inspector), started now; `stop` answers the profile. */
async function startProfiler(): Promise<{ stop(): Promise<object> }> {
  const session = new inspector.Session()
  session.connect()
  const post = (method: string, params?: object) =>
    new Promise<any>((resolve, reject) => session.post(method, params ?? {}, (error, result) => (error === null ? resolve(result) : reject(error))))
  await post('Profiler.enable')
  await post('Profiler.setSamplingInterval', { interval: 200 })
  await post('Profiler.start')
  return {
    async stop() {
      const { profile } = await post('Profiler.stop')
      session.disconnect()
      return profile as object
    },
  }
}

/**
 * Counts the statements this process sends through `pg` until stopped, by kind (transaction control,
 * reads, writes, other): where a job's round trips go. Null on PGlite, which `pg` does not carry.
 */
function countStatements(): { stop(): Record<string, number> | null } {
  if (engine !== 'postgres') return { stop: () => null }
  const counts: Record<string, number> = { total: 0, transaction: 0, read: 0, write: 0, other: 0 }
  const original = pg.Client.prototype.query
  pg.Client.prototype.query = function counted(this: pg.Client, ...args: unknown[]) {
    const [first] = args
    const text = typeof first === 'string' ? first : (first as { text?: unknown } | undefined)?.text
    const word = typeof text === 'string' ? (/^\s*(\w+)/.exec(text)?.[1] ?? '').toLowerCase() : ''
    const kind = ['begin', 'commit', 'rollback', 'savepoint', 'release'].includes(word) ? 'transaction' : ['select', 'with'].includes(word) ? 'read' : ['insert', 'update', 'delete'].includes(word) ? 'write' : 'other'
    counts.total! += 1
    counts[kind]! += 1
    return (original as (...queryArgs: unknown[]) => unknown).apply(this, args)
  } as never
  return {
    stop() {
      pg.Client.prototype.query = original
      return counts
    },
  }
}

// ---------------------------------------------------------------------------------------------------
// The runtime: the wiring of bench/server.ts (same config, throwaway database, same cleanup), which takes
// no runtime options, with the execution settings this benchmark varies (RuntimeOptions.execution) and
// the settle delay. No HTTP listener: setup goes through app.inject.

interface BenchRuntime {
  readonly runtime: Runtime
  readonly app: FastifyInstance
  /** PostgreSQL: the throwaway database's URL (another "process" opens it too). */
  readonly databaseUrl: string | undefined
  close(): Promise<void>
}

async function adminQuery(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

async function startRuntime(): Promise<BenchRuntime> {
  // Same prefixes as bench/server.ts, whose leftover sweep then also removes ours after a killed run.
  const dataDir = mkdtempSync(join(tmpdir(), 'steward-bench-'))
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
    if (databaseServerUrl !== undefined) {
      const name = `steward_bench_${Date.now()}_${randomBytes(3).toString('hex')}`
      await adminQuery(databaseServerUrl, `create database ${name}`)
      cleanups.push(() => adminQuery(databaseServerUrl, `drop database if exists ${name} with (force)`))
      const url = new URL(databaseServerUrl)
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
        PUBLIC_RATE_LIMIT_PER_MINUTE: '1000000',
        PUBLIC_RATE_LIMIT_BURST: '1000000',
        LOG_LEVEL: 'warn',
        SHUTDOWN_TIMEOUT_MS: '5000',
        SERVICE_TOKEN_SECRET: serviceTokenSecret,
        SANDBOX_ACH_SETTLE_SECONDS: String(settleSeconds),
        DATABASE_URL: databaseUrl,
      }),
    )
    const runtime = await createRuntime({
      config,
      logger: pino({ name: 'steward-bench', level: config.logLevel }),
      pgliteDataDir: databaseUrl === undefined ? join(dataDir, 'pglite') : undefined,
      blobRoot: join(dataDir, 'blobs'),
      jobPollingIntervalSeconds: pollingSeconds,
      // The sweeper takes up outbox rows nobody claimed for pendingGraceSeconds (lost jobs): the prepared
      // backlog is not lost, and a sweep dispatching it beside the queue would not be the queue's rate.
      execution: { batchSize, concurrency, pendingGraceSeconds: 3600 },
    })
    cleanups.push(() => runtime.close())
    const app = await runtime.buildApp()
    cleanups.push(() => app.close())
    await app.ready()
    return { runtime, app, databaseUrl, close: cleanup }
  } catch (error) {
    await cleanup()
    throw error
  }
}

// ---------------------------------------------------------------------------------------------------
// Tenants: as bench/payments.ts sets them up (a funded account, a trusted supplier, an owner, an admin,
// and a promoted agent, so that the gate dispatches live instead of running shadow).

interface BenchTenant {
  readonly tenantId: string
  readonly ownerContext: CommandContext
  readonly agentContext: CommandContext
  readonly accountId: string
  readonly counterpartyId: string
}

async function inject(app: FastifyInstance, method: 'GET' | 'POST', url: string, body?: unknown, token?: string) {
  const response = await app.inject({ method, url, ...(body === undefined ? {} : { payload: body as object }), headers: token === undefined ? {} : { authorization: `Bearer ${token}` } })
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`)
  return response.json() as Record<string, any>
}

async function setUpTenant({ runtime, app }: BenchRuntime, index: number): Promise<BenchTenant> {
  const email = `bench-${index}-${Date.now()}@example.com`
  const signup = await inject(app, 'POST', '/v1/signup', { email, password })
  const tenantId = signup.tenant_id as string
  await inject(app, 'POST', '/v1/auth/verify-email', { tenant_id: tenantId, token: signup.verification_token })
  await runtime.db.orm.execute(
    sql`update tenants set rate_limit_tier = 'enterprise', rate_limit_per_minute = ${tenantRateLimit.perMinute}, rate_limit_burst = ${tenantRateLimit.burst} where id = ${tenantId}`,
  )
  const owner = (await inject(app, 'POST', '/v1/auth/login', { email, password })).access_token as string
  const invite = await inject(app, 'POST', `/v1/tenants/${tenantId}/members`, { email: `admin-${email}`, role: 'admin' }, owner)
  await inject(app, 'POST', '/v1/auth/accept-invitation', { tenant_id: tenantId, token: invite.invitation_token, password })
  const admin = (await inject(app, 'POST', '/v1/auth/login', { email: `admin-${email}`, password })).access_token as string

  const account = { iban: 'DE89370400440532013000', name: 'Operating account', currency: 'EUR' }
  const seeded = await seedParsedArtifact(runtime.db, {
    tenantId,
    at: new Date(),
    records: [
      { kind: 'transaction', account, currency: 'EUR', status: 'posted', amount: '-10.00', transaction_date: '2026-03-02', description: 'PAPER SUPPLY', counterparty: { name: 'Paper Supply Co', iban: 'DE02120300000000202051' } },
      { kind: 'balance', account, balance_type: 'closing', as_of: '2026-03-31', amount: '100000000.00', currency: 'EUR' },
    ],
  })
  await runtime.ledger.normalizer.normalizeArtifact(tenantId, seeded.artifactId, { actor: { type: 'system', id: 'bench' } })
  const accountId = (await inject(app, 'GET', '/v1/ledger/accounts', undefined, owner)).accounts[0].id as string
  const counterpartyId = (await inject(app, 'GET', '/v1/ledger/counterparties', undefined, owner)).counterparties[0].id as string
  await inject(app, 'POST', `/v1/ledger/counterparties/${counterpartyId}/trust/grant`, undefined, admin)

  const minted = await inject(app, 'POST', '/v1/auth/service-token', { tenant_id: tenantId, reason: 'bench' }, serviceTokenSecret)
  const principalOf = (token: string): Promise<Principal> => runtime.services.auth.authenticate(token)
  const agent = await principalOf(minted.access_token as string)
  await inject(
    app,
    'POST',
    `/v1/execution/agents/${agent.type === 'service' ? agent.credentialId : agent.id}/promote`,
    {
      currency: 'EUR',
      per_payment_cap: '1000000',
      per_day_cap: '100000000',
      rails: ['bank_ach'],
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
      reason: 'bench',
      thresholds: { min_shadow_runs: 0, min_approval_rate: 0, max_gate_failure_rate: 1 },
    },
    admin,
  )
  return {
    tenantId,
    ownerContext: { requestId: 'req_bench', principal: await principalOf(owner) },
    agentContext: { requestId: 'req_bench', principal: agent },
    accountId,
    counterpartyId,
  }
}

// ---------------------------------------------------------------------------------------------------

/**
 * The bare jobs, on queues with the dispatch queue's policy, one queue per drain: no-op handlers (a, b),
 * and a handler that commits one single-row INSERT (c, a reference for a job that writes).
 */
const barePayload = Type.Object({ n: Type.Integer() }, { additionalProperties: false })
const dispatchPolicy = executionQueues.find((queue) => queue.name === 'execution-dispatch')!.policy
const bareQueues = ['a', 'b', 'c', 'warmup', 'twice', 'thrice', 'audited'].map((suffix) => defineQueue({ name: `bench-bare-${suffix}`, version: 1, payload: barePayload, policy: dispatchPolicy }))
const writingQueue = 2
const warmupQueue = 3
/**
 * Jobs whose batch commits twice, one INSERT of the batch's rows each: the least a dispatch commits (its
 * batch's claims before the rail call and their answers after it, so a crash on either side loses nothing
 * and repeats nothing).
 */
const twiceQueue = 4
/**
 * Jobs whose batch commits three times, one INSERT of the batch's rows each: the least a dispatch through
 * the sandbox rail commits, since the rail's book (standing for the provider's own system) is committed
 * between the claims and the answers, in a transaction of its own that the worker's cannot share.
 */
const thriceQueue = 5
/**
 * The same three commits, the claims' and the answers' each carrying one audit record a row (as a
 * dispatch's do: execution.created, then execution.awaiting_settlement), through the audit recorder the
 * commands use, linked into each tenant's chain by the runtime's sequencer while the drain runs.
 */
const auditedQueue = 6
/** Untimed no-op jobs drained first: the first drain of a process otherwise pays for compiling pg-boss's fetch and completion paths. */
const warmupJobs = 200

async function main() {
  const bench = await startRuntime()
  const { runtime } = bench
  const bareJobs = createJobQueue(runtime.db, { schema: 'pgboss', logger: runtime.logger, queues: bareQueues })
  let bareStarted = false
  try {
    await bareJobs.start()
    bareStarted = true
    log(`${engine}: ${executionCount} executions, batch size ${batchSize}, concurrency ${concurrency}, polling ${pollingSeconds}s, ${tenantCount} tenants`)

    // Every dispatch's steps, by outbox row; when each bare job's handler finished, by job id.
    const claimedAt = new Map<string, number>()
    const answeredAt = new Map<string, number>()
    const committedAt = new Map<string, number>()
    let committedCount = 0
    diagnostics.subscribe('steward:execution:step', (message) => {
      const { point, outboxId } = message as { point: string; outboxId: string }
      if (point === 'claimed') claimedAt.set(outboxId, performance.now())
      else if (point === 'rail_answered') answeredAt.set(outboxId, performance.now())
      else if (point === 'committed') {
        committedAt.set(outboxId, performance.now())
        committedCount += 1
      }
    })
    /** Within each dispatch: claim commit to rail answer (the sandbox submit's transaction), answer to the apply commit. */
    const segments = (outboxIds: readonly string[]) => ({
      claimed_to_rail_answered: latencySummary(outboxIds.map((id) => answeredAt.get(id)! - claimedAt.get(id)!)),
      rail_answered_to_committed: latencySummary(outboxIds.map((id) => committedAt.get(id)! - answeredAt.get(id)!)),
    })
    const bareHandledAt = new Map<string, number>()
    const sendBare = async (queueIndex: number, n: number) => {
      const id = await runtime.db.transaction((tx) => bareJobs.enqueue(tx, bareQueues[queueIndex]!, { n }))
      return { id, at: performance.now() }
    }
    await runtime.db.orm.execute(sql`create table bench_job_write (id text primary key, n integer not null, created_at timestamptz not null)`)
    // The audited floor's commits go through a command runner of their own, on the runtime's database
    // (its audit recorder writes the inbox the runtime's sequencer links).
    const floorIds = createIdSource(() => runtime.clock.now().getTime())
    const floorCommands = createCommandRunner({
      db: runtime.db,
      clock: runtime.clock,
      audit: createAuditRecorder({ ids: floorIds, clock: runtime.clock }),
      events: createEventRecorder({ db: runtime.db, ids: floorIds, clock: runtime.clock, subscriber: createWebhookSubscriber({ jobs: runtime.jobs }) }),
      jobs: runtime.jobs,
      idempotency: createIdempotencyStore(),
    })
    /** The tenants the audited floor's records name (set up below, before any drain). */
    const floorTenants: string[] = []
    const floorRecord = (job: { id: string; data: { n: number } }, step: 'claim' | 'apply'): AuditRecord => ({
      tenantId: floorTenants[job.data.n % floorTenants.length]!,
      layer: 'execution',
      actor: { type: 'system', id: 'bench-floor' },
      action: step === 'claim' ? 'execution.created' : 'execution.awaiting_settlement',
      entity: { type: 'execution', id: `exe_${job.id}` },
      inputs: { payment_intent_id: `pi_${job.id}`, outbox_id: `obx_${job.id}`, rail: 'bank_ach', attempt: 1 },
      outputs: step === 'claim' ? { status: 'in_flight', lease_until: runtime.clock.now().toISOString() } : { status: 'in_flight', rail_reference: `ach_${job.id}` },
    })
    // The dispatch worker's machinery (workBatches, the same batch size and polling); the reference
    // queue's jobs each commit their own INSERT, the batch's together.
    const startBareWorker = (queueIndex: number) =>
      bareJobs.workBatches(
        bareQueues[queueIndex]!,
        async (jobs) => {
          if (queueIndex === twiceQueue || queueIndex === thriceQueue || queueIndex === auditedQueue) {
            // As the dispatch batches: the batch's claims in one transaction, (the rail's book in another,)
            // then its answers in another; audited, the claims and the answers each record one event a row.
            const rows = (step: string) => sql.join(jobs.map((job) => sql`(${`${job.id}:${step}`}, ${job.data.n}, now())`), sql`, `)
            for (const step of queueIndex === twiceQueue ? (['claim', 'apply'] as const) : (['claim', 'rail', 'apply'] as const))
              await runtime.db.transaction(async (tx) => {
                const written = tx.execute(sql`insert into bench_job_write (id, n, created_at) values ${rows(step)}`)
                if (queueIndex !== auditedQueue || step === 'rail') return written
                floorCommands.writeWithCommit(tx, [written])
                const audit = jobs.map((job) => floorRecord(job, step))
                return floorCommands.commit(tx, audit[0]!.tenantId, { audit })
              })
          }
          return Promise.all(
            jobs.map(async (job) => {
              if (queueIndex === writingQueue) await runtime.db.transaction((tx) => tx.execute(sql`insert into bench_job_write (id, n, created_at) values (${job.id}, ${job.data.n}, now())`))
              bareHandledAt.set(job.id, performance.now())
              return null
            }),
          )
        },
        { pollingIntervalSeconds: pollingSeconds, batchSize, concurrency },
      )

    log(`setting up ${tenantCount} tenants`)
    const tenants: BenchTenant[] = []
    for (let index = 0; index < tenantCount; index += 1) tenants.push(await setUpTenant(bench, index))
    floorTenants.push(...tenants.map((tenant) => tenant.tenantId))

    // Distinct amounts per tenant (the same amount again is a duplicate proposal, and a duplicate
    // payment for the gate), skipping the sandbox rail's scenario cents 91–95: every transfer settles.
    const amounts = new Map<string, number>()
    const nextAmount = (tenantId: string) => {
      let next = amounts.get(tenantId) ?? 0
      do next += 1
      while (next % 100 >= 91 && next % 100 <= 95)
      amounts.set(tenantId, next)
      return `${Math.floor(next / 100) + 1}.${String(next % 100).padStart(2, '0')}`
    }
    const latencyCount = Math.max(1, Math.round(latencyRate * latencySeconds))
    const prepareCount = executionCount + latencyCount
    log(`preparing ${prepareCount} approved intents (proposed, approved by the owner)`)
    const approved: Array<{ tenant: BenchTenant; id: string }> = []
    const approveRate = await runAll(prepareCount, callers, async (index) => {
      const tenant = tenants[index % tenants.length]!
      const { outcome } = await runtime.payments.propose.propose(tenant.agentContext, {
        action_type: 'ach_outbound',
        source_account_id: tenant.accountId,
        destination_counterparty_id: tenant.counterpartyId,
        amount: nextAmount(tenant.tenantId),
        currency: 'EUR',
        confidence: 0.9,
      })
      await runtime.payments.decide.approve(tenant.ownerContext, { id: outcome.id })
      approved[index] = { tenant, id: outcome.id }
    })
    await runtime.settleAudit()
    const execute = async (index: number) => {
      const intent = approved[index]!
      const { outcome } = await runtime.payments.gate.execute(intent.tenant.agentContext, { id: intent.id })
      if (!outcome.passed) throw new Error(`gate failed: ${outcome.checks.filter((check) => !check.passed).map((check) => check.name).join(', ')}`)
      if (outcome.status !== 'dispatching' || outcome.outbox_id === null) throw new Error(`not dispatched: ${outcome.status}`)
      return { outboxId: outcome.outbox_id, at: performance.now() }
    }

    log(`queueing ${executionCount} bare jobs (queue ${bareQueues[0]!.name}) and ${executionCount} dispatches (the gate), no worker running`)
    const bareSendRate = await runAll(executionCount, callers, (index) => sendBare(0, index))
    await runAll(executionCount, callers, (index) => sendBare(1, index))
    await runAll(executionCount, callers, (index) => sendBare(writingQueue, index))
    await runAll(executionCount, callers, (index) => sendBare(twiceQueue, index))
    await runAll(executionCount, callers, (index) => sendBare(thriceQueue, index))
    await runAll(executionCount, callers, (index) => sendBare(auditedQueue, index))
    await runAll(warmupJobs, callers, (index) => sendBare(warmupQueue, index))
    const drainOutboxIds: string[] = []
    const gateRate = await runAll(executionCount, callers, async (index) => void drainOutboxIds.push((await execute(index)).outboxId))
    await runtime.settleAudit()

    // 1a. Bare drain, nothing else running.
    // Timed from the worker's start to the last job's handler (not to when the wait below noticed it).
    const drainBare = async (queueIndex: number, jobs = executionCount) => {
      const before = bareHandledAt.size
      const cpu = await cpuMeter(runtime, jobs)
      const started = performance.now()
      await startBareWorker(queueIndex)
      await until(() => bareHandledAt.size - before >= jobs, drainTimeoutMs, 'the bare drain')
      const seconds = (Math.max(...[...bareHandledAt.values()].slice(before)) - started) / 1000
      return { jobs, seconds: round(seconds, 3), per_second: round(jobs / seconds, 1), cpu: await cpu(seconds) }
    }
    await drainBare(warmupQueue, warmupJobs)
    log('drain: bare jobs, no other worker running')
    const bareBefore = await drainBare(0)
    log(`  ${bareBefore.per_second}/s`)

    // 1b. Dispatch drain: every worker of the runtime started, as the server starts them.
    log('drain: dispatches, every worker started')
    const dispatchCpu = await cpuMeter(runtime, executionCount)
    const profiler = values['profile-dispatch'] === undefined ? undefined : await startProfiler()
    const dispatchStarted = performance.now()
    await runtime.startWorkers()
    await until(() => committedCount >= executionCount, drainTimeoutMs, 'the dispatch drain')
    if (profiler !== undefined) {
      writeFileSync(values['profile-dispatch']!, JSON.stringify(await profiler.stop()))
      log(`  CPU profile of the drain written to ${values['profile-dispatch']}`)
    }
    const dispatchSeconds = (Math.max(...drainOutboxIds.map((id) => committedAt.get(id)!)) - dispatchStarted) / 1000
    const dispatchDrain = {
      executions: executionCount,
      seconds: round(dispatchSeconds, 3),
      per_second: round(executionCount / dispatchSeconds, 1),
      cpu: await dispatchCpu(dispatchSeconds),
      ...segments(drainOutboxIds),
    }
    log(`  ${dispatchDrain.per_second}/s`)

    // Settlement of the drained executions: the sandbox provider's settle jobs (SANDBOX_ACH_SETTLE_SECONDS
    // after each transfer), each delivering its webhook, which completes the execution. Waited for here,
    // so that it overlaps neither the drains nor the latency runs (a drain longer than the settle delay
    // does overlap it: `settled_during_drain`).
    const countByStatus = async () => {
      const rows = await queryRows<{ status: string; awaiting: boolean; count: string | number }>(
        runtime.db.orm,
        sql`select status, rail_reference is not null as awaiting, count(*) as count from executions group by 1, 2`,
      )
      return Object.fromEntries(rows.map((row) => [`${row.status}${row.status === 'in_flight' && row.awaiting ? '_awaiting_settlement' : ''}`, Number(row.count)])) as Record<string, number>
    }
    let statuses = await countByStatus()
    const settledDuringDrain = statuses.completed ?? 0
    let settlement: Record<string, unknown> = { settle_after_seconds: settleSeconds, settled_during_drain: settledDuringDrain, waited: false }
    if (settleWaitSeconds > 0) {
      log(`settlement: waiting up to ${settleWaitSeconds}s for the ${executionCount} drained executions to settle (after ${settleSeconds}s)`)
      const settleDeadline = performance.now() + settleWaitSeconds * 1000
      while ((statuses.completed ?? 0) < executionCount && performance.now() < settleDeadline) {
        await new Promise((resolve) => setTimeout(resolve, 250))
        statuses = await countByStatus()
      }
      const [span] = await queryRows<{ first: Date | string | null; last: Date | string | null }>(
        runtime.db.orm,
        sql`select min(updated_at) as first, max(updated_at) as last from executions where status = 'completed'`,
      )
      const spanSeconds = span?.first == null || span.last == null ? Number.NaN : (new Date(span.last).getTime() - new Date(span.first).getTime()) / 1000
      const settled = statuses.completed ?? 0
      settlement = {
        ...settlement,
        waited: true,
        settled,
        of: executionCount,
        // First completion to last: the settle worker's rate when it falls behind the transfers falling due
        // (they fall due at the dispatch rate), else the dispatch rate.
        per_second: settled > 1 ? round((settled - 1) / spanSeconds, 1) : null,
        statuses,
      }
      log(`  ${settled}/${executionCount} settled, ${String(settlement.per_second)}/s`)
    }

    // 1c. Bare drain again, every worker running (idle but for the sweeper, the audit sequencer and settlements),
    // then the reference and floor drains.
    const drainLogged = async (what: string, queueIndex: number) => {
      log(`drain: ${what}, every worker running`)
      const drained = await drainBare(queueIndex)
      log(`  ${drained.per_second}/s`)
      return drained
    }
    const bareAfter = await drainLogged('bare jobs again', 1)
    const bareMean = (bareBefore.per_second + bareAfter.per_second) / 2
    const writingJobs = await drainLogged('jobs that commit one single-row INSERT', writingQueue)
    const twiceJobs = await drainLogged('jobs whose batch commits twice (its rows in one INSERT each time)', twiceQueue)
    const thriceJobs = await drainLogged('jobs whose batch commits three times (its rows in one INSERT each time)', thriceQueue)
    const auditedJobs = await drainLogged('the same, the claims and the answers each auditing one event a row', auditedQueue)
    // Their events linked before the latency runs, as the dispatches' were before the bare drains.
    await runtime.settleAudit()

    // 2. Latency at a fixed rate, every worker running.
    // At most a quarter of the measured dispatch and gate rates (the gate and the worker share the cores),
    // so that what is timed is the path, not a queue.
    const rate = round(Math.min(latencyRate, dispatchDrain.per_second / 4, gateRate / 4), 1)
    const arrivals = Math.max(1, Math.min(latencyCount, Math.round(rate * latencySeconds)))
    log(`latency: bare jobs at ${rate}/s for ${latencySeconds}s`)
    const bareSent: Array<{ id: string; at: number }> = []
    await atRate(arrivals, rate, async (index) => void bareSent.push(await sendBare(0, executionCount + index)))
    await until(() => bareSent.every((sent) => bareHandledAt.has(sent.id)), drainTimeoutMs, 'the bare latency jobs')
    log(`latency: gate executions at ${rate}/s for ${latencySeconds}s`)
    const executed: Array<{ outboxId: string; at: number }> = []
    await atRate(arrivals, rate, async (index) => void executed.push(await execute(executionCount + index)))
    await until(() => executed.every((sent) => committedAt.has(sent.outboxId)), drainTimeoutMs, 'the dispatch latency jobs')
    // PostgreSQL: the same bare jobs sent from another process (its own pool and job queue) that nudges the
    // queue after each commit: the worker here hears it by NOTIFY instead of waiting for its poll.
    let nudgedAcross: ReturnType<typeof latencySummary> | null = null
    if (bench.databaseUrl !== undefined) {
      log(`latency: bare jobs sent and nudged from another process at ${rate}/s for ${latencySeconds}s`)
      const other = await openDatabase({ url: bench.databaseUrl, poolConnectionsMax: 2 })
      const otherJobs = createJobQueue(other, { schema: 'pgboss', logger: runtime.logger, queues: bareQueues })
      try {
        await otherJobs.start()
        const sent: Array<{ id: string; at: number }> = []
        await atRate(arrivals, rate, async (index) => {
          const id = await other.transaction((tx) => otherJobs.enqueue(tx, bareQueues[0]!, { n: 2 * executionCount + index }))
          sent.push({ id, at: performance.now() })
          otherJobs.nudge(bareQueues[0]!)
        })
        await until(() => sent.every((job) => bareHandledAt.has(job.id)), drainTimeoutMs, 'the nudged bare jobs')
        nudgedAcross = latencySummary(sent.map((job) => bareHandledAt.get(job.id)! - job.at))
      } finally {
        await otherJobs.stop({ timeoutMs: 5000 })
        await other.close()
      }
    }
    const bareLatency = latencySummary(bareSent.map((sent) => bareHandledAt.get(sent.id)! - sent.at))
    const toClaim = latencySummary(executed.map((sent) => claimedAt.get(sent.outboxId)! - sent.at))
    const toCommit = latencySummary(executed.map((sent) => committedAt.get(sent.outboxId)! - sent.at))
    const latencySegments = segments(executed.map((sent) => sent.outboxId))

    const ratio = round(dispatchDrain.per_second / bareMean, 3)
    const result = {
      engine,
      node_version: process.version,
      cpus: cpus().length,
      cpu_model: cpus()[0]?.model ?? 'unknown',
      definition: 'completed execution = the worker committed the rail\'s answer (the `committed` step: claim, rail submit, apply); settlement reported apart',
      options: { executions: executionCount, batch_size: batchSize, concurrency, polling_seconds: pollingSeconds, callers, tenants: tenantCount, latency_rate_per_s: latencyRate, latency_seconds: latencySeconds, settle_seconds: settleSeconds },
      preparation: { propose_and_approve_per_s: approveRate, bare_send_per_s: bareSendRate, gate_execute_per_s: gateRate },
      drain: {
        bare_before: bareBefore,
        dispatch: dispatchDrain,
        bare_after: bareAfter,
        bare_drift_percent: round(((bareAfter.per_second - bareBefore.per_second) / bareMean) * 100, 1),
        ratio_vs_bare: ratio,
        // A reference, not the target's baseline: a job that commits one single-row INSERT.
        insert_job: writingJobs,
        ratio_vs_insert_job: round(dispatchDrain.per_second / writingJobs.per_second, 3),
        insert_job_vs_bare_after: round(writingJobs.per_second / bareAfter.per_second, 3),
        // The least a dispatch commits (its batch's claims, then their answers): against the target's baseline.
        two_commit_batch_job: twiceJobs,
        two_commit_batch_job_vs_bare: round(twiceJobs.per_second / bareMean, 3),
        ratio_vs_two_commit_batch_job: round(dispatchDrain.per_second / twiceJobs.per_second, 3),
        // The least a dispatch through the sandbox rail commits (claims, the rail's book, answers).
        three_commit_batch_job: thriceJobs,
        three_commit_batch_job_vs_bare: round(thriceJobs.per_second / bareMean, 3),
        ratio_vs_three_commit_batch_job: round(dispatchDrain.per_second / thriceJobs.per_second, 3),
        // The same with the audit records a dispatch writes (one a row in the claims, one in the answers).
        audited_three_commit_batch_job: auditedJobs,
        audited_three_commit_batch_job_vs_bare: round(auditedJobs.per_second / bareMean, 3),
        ratio_vs_audited_three_commit_batch_job: round(dispatchDrain.per_second / auditedJobs.per_second, 3),
      },
      latency: {
        rate_per_s: rate,
        bare_send_to_handler: bareLatency,
        // PostgreSQL: sent from another process, which nudges the queue (a NOTIFY) after each commit.
        bare_send_to_handler_nudged_from_another_process: nudgedAcross,
        dispatch_enqueue_to_claimed: toClaim,
        dispatch_enqueue_to_committed: toCommit,
        ratio_p99_claimed_vs_bare: round(toClaim.p99_ms / bareLatency.p99_ms, 4),
        ratio_p99_committed_vs_bare: round(toCommit.p99_ms / bareLatency.p99_ms, 4),
        ...latencySegments,
      },
      settlement,
      target: { dispatch_ratio_min: 0.5, met: ratio >= 0.5 },
    }
    mkdirSync(dirname(values.output), { recursive: true })
    writeFileSync(values.output, `${JSON.stringify(result, null, 2)}\n`)
    log(`\n${engine}, ${executionCount} executions, batch size ${batchSize}, concurrency ${concurrency}, polling ${pollingSeconds}s`)
    log(`  preparation              propose+approve ${approveRate}/s, bare send ${bareSendRate}/s, gate execute ${gateRate}/s`)
    const cpuText = (cpu: typeof bareBefore.cpu) =>
      `CPU/job node ${cpu.node_cpu_ms_per_job} ms (${cpu.node_cpu_share_of_wall} of wall)${cpu.postgres_cpu_ms_per_job === null ? '' : `, postgres ${cpu.postgres_cpu_ms_per_job} ms (${cpu.postgres_cpu_share_of_wall})`}` +
      (cpu.statements_per_job === null ? '' : `, statements/job ${cpu.statements_per_job.total} (${cpu.statements_per_job.write} writes)`)
    log(`  bare jobs (before)       ${bareBefore.per_second}/s  ${cpuText(bareBefore.cpu)}`)
    log(`  dispatch (committed)     ${dispatchDrain.per_second}/s  ×${ratio} of the bare mean  (target ×0.5: ${ratio >= 0.5 ? 'met' : 'NOT met'})  ${cpuText(dispatchDrain.cpu)}`)
    const topStatements = dispatchDrain.cpu.postgres_statements
    if (topStatements !== null)
      log(
        `                           postgres executor ${topStatements.executor_ms_per_job} ms a dispatch (pg_stat_statements); its top statements:\n` +
          topStatements.top.map((row) => `                             ${String(row.ms_per_job).padStart(6)} ms  ${String(Math.round(row.share * 100)).padStart(2)}%  ${row.calls} calls  ${row.query}`).join('\n'),
      )
    log(`                           claimed→rail answered p50 ${dispatchDrain.claimed_to_rail_answered.p50_ms} ms, rail answered→committed p50 ${dispatchDrain.rail_answered_to_committed.p50_ms} ms`)
    log(`  bare jobs (after)        ${bareAfter.per_second}/s  (drift ${result.drain.bare_drift_percent}%${Math.abs(result.drain.bare_drift_percent) > 15 ? ', NOISY' : ''})  ${cpuText(bareAfter.cpu)}`)
    log(`  INSERT + commit jobs     ${writingJobs.per_second}/s  ×${result.drain.insert_job_vs_bare_after} of bare (after), dispatch ×${result.drain.ratio_vs_insert_job} of it  ${cpuText(writingJobs.cpu)}`)
    log(`  two-commit batch jobs    ${twiceJobs.per_second}/s  ×${result.drain.two_commit_batch_job_vs_bare} of the bare mean: any dispatch's floor; dispatch ×${result.drain.ratio_vs_two_commit_batch_job} of it  ${cpuText(twiceJobs.cpu)}`)
    log(`  three-commit batch jobs  ${thriceJobs.per_second}/s  ×${result.drain.three_commit_batch_job_vs_bare} of the bare mean: the sandbox rail's floor; dispatch ×${result.drain.ratio_vs_three_commit_batch_job} of it  ${cpuText(thriceJobs.cpu)}`)
    log(`  audited three-commit     ${auditedJobs.per_second}/s  ×${result.drain.audited_three_commit_batch_job_vs_bare} of the bare mean: with a dispatch's audit; dispatch ×${result.drain.ratio_vs_audited_three_commit_batch_job} of it  ${cpuText(auditedJobs.cpu)}`)
    log(`  latency at ${rate}/s${' '.repeat(Math.max(1, 11 - String(rate).length))}bare send→handler p50 ${bareLatency.p50_ms} ms p99 ${bareLatency.p99_ms} ms`)
    if (nudgedAcross !== null) log(`                           bare, sent and nudged from another process: p50 ${nudgedAcross.p50_ms} ms p99 ${nudgedAcross.p99_ms} ms`)
    log(`                           execute→claimed p50 ${toClaim.p50_ms} ms p99 ${toClaim.p99_ms} ms (p99 ×${result.latency.ratio_p99_claimed_vs_bare} of the bare job's)`)
    log(`                           execute→committed p50 ${toCommit.p50_ms} ms p99 ${toCommit.p99_ms} ms (p99 ×${result.latency.ratio_p99_committed_vs_bare})`)
    log(`                           claimed→rail answered p50 ${latencySegments.claimed_to_rail_answered.p50_ms} ms, rail answered→committed p50 ${latencySegments.rail_answered_to_committed.p50_ms} ms`)
    log(
      settlement.waited
        ? `  settlement (after ${settleSeconds}s)   ${String(settlement.settled)}/${executionCount} settled, ${String(settlement.per_second)}/s first to last${settledDuringDrain > 0 ? ` (${settledDuringDrain} during the drain)` : ''}`
        : '  settlement               not waited for (--settle-wait 0)',
    )
    log(`written to ${values.output}`)
  } finally {
    if (bareStarted) await bareJobs.stop({ timeoutMs: 5000 }).catch((error: unknown) => log(`bare job queue stop: ${String(error)}`))
    await bench.close()
  }
}

await main()
