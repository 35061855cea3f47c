/**
 * The HTTP benchmark: starts the real app in-process (PGlite, or PostgreSQL with DATABASE_URL), drives
 * it over HTTP with autocannon, and reports each workload as requests/s and latency, and as a ratio
 * against a trivial route measured in the same run on the same server. See bench/README.md.
 *
 *   npm run bench
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench -- --duration 20
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { dirname, resolve } from 'node:path'
import { defaultScryptParameters } from '../src/kernel/passwords.ts'
import { measure, round, type Measurement, type Workload } from './load.ts'
import { parseOptions, usage, UsageError, type BenchOptions } from './options.ts'
import { startBenchServer, tenantRateLimit, type BenchServer } from './server.ts'
import { startBareServer, type BareServer } from './bare.ts'
import { tokenIssuer } from '../src/modules/auth/tokens.ts'

const benchPassword = 'bench correct horse battery staple'

interface Credentials {
  readonly tenantId: string
  readonly email: string
  readonly password: string
  readonly apiKeySecret: string
}

interface Row extends Measurement {
  readonly baseline_id: string | null
  readonly ratio_rps_vs_baseline: number | null
  readonly ratio_p99_vs_baseline: number | null
  /** Non-2xx responses or connection errors: the figures describe failures, not the route. */
  readonly flagged: boolean
}

async function main(): Promise<number> {
  let options: BenchOptions | 'help'
  try {
    options = parseOptions(process.argv.slice(2), process.env)
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`bench: ${error.message}\n\n${usage}\n`)
      return 2
    }
    throw error
  }
  if (options === 'help') {
    process.stdout.write(`${usage}\n`)
    return 0
  }
  const selected = (id: string) => options.only === undefined || options.only.includes(id)
  let cleanupBare: BareServer | undefined

  const server = await startBenchServer(process.env, options.logLevel)
  const stop = () => {
    process.stderr.write('\nbench: interrupted, cleaning up\n')
    server.close().finally(() => process.exit(130))
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)

  try {
    log(`engine ${server.engine}, node ${process.version}, ${cpus().length} CPUs, serving at ${server.baseUrl}`)
    log(
      `${options.durationSeconds}s per workload after ${options.warmupSeconds}s warm-up; ${options.connections} connections (login ${options.loginConnections}); rate-limit store ${server.rateLimitStore}`,
    )
    const credentials = await setUp(server)
    // The bare twins (PostgreSQL only): the same queries through plain Fastify and pg, no framework of ours.
    const databaseUrl = server.runtime.config.databaseUrl
    const bare: BareServer | undefined =
      databaseUrl === undefined || !(selected('read') || selected('evaluate'))
        ? undefined
        : await startBareServer({ databaseUrl, jwtSecret: server.runtime.config.jwtSecret, issuer: tokenIssuer(server.runtime.config.environment), poolSize: 10 })
    cleanupBare = bare

    const mainBaseline: Workload = { id: 'baseline', name: 'baseline', method: 'GET', path: '/v1/health', connections: options.connections }
    const plan: Array<Workload | (() => Promise<Workload>)> = [mainBaseline]
    const baselineFor = new Map<number, string>([[options.connections, 'baseline']])
    if (selected('login') && options.loginConnections !== options.connections) {
      const id = `baseline_c${options.loginConnections}`
      plan.push({ ...mainBaseline, id, name: `baseline (${options.loginConnections} conns)`, connections: options.loginConnections })
      baselineFor.set(options.loginConnections, id)
    }
    if (selected('login')) {
      plan.push({
        id: 'login',
        name: 'login',
        method: 'POST',
        path: '/v1/auth/login',
        body: { email: credentials.email, password: credentials.password },
        connections: options.loginConnections,
      })
    }
    if (selected('read')) {
      // A fresh token just before the workload, so a long run cannot outlive its 900 s lifetime.
      plan.push(async () => ({
        id: 'read',
        name: 'authenticated read',
        method: 'GET',
        path: `/v1/tenants/${credentials.tenantId}`,
        headers: { authorization: `Bearer ${await login(server, credentials)}` },
        connections: options.connections,
      }))
    }
    if (selected('read') && bare !== undefined) {
      plan.push(async () => ({
        id: 'read_bare',
        name: 'bare twin of the read (fastify + pg)',
        method: 'GET',
        path: `/bare/tenants/${credentials.tenantId}`,
        headers: { authorization: `Bearer ${await login(server, credentials)}` },
        connections: options.connections,
        baseUrl: bare.baseUrl,
      }))
    }
    if (selected('read_api_key')) {
      plan.push({
        id: 'read_api_key',
        name: 'authenticated read (API key)',
        method: 'GET',
        path: `/v1/tenants/${credentials.tenantId}`,
        headers: { authorization: `Bearer ${credentials.apiKeySecret}` },
        connections: options.connections,
      })
    }
    if (selected('evaluate')) {
      // A policy decision over HTTP: the owner's JWT, the tenant's active (default) policy, one audit
      // event and one policy.evaluate business event (with its fan-out job) per request.
      plan.push(async () => ({
        id: 'evaluate',
        name: 'policy evaluate',
        method: 'POST',
        path: `/v1/policy/${credentials.tenantId}/evaluate`,
        headers: { authorization: `Bearer ${await login(server, credentials)}` },
        body: { action: { kind: 'outbound_payment', counterparty_id: 'cpy_bench_vendor', amount: { currency: 'EUR', value: '120.00' }, agent_role: 'collections' } },
        connections: options.connections,
      }))
    }
    if (selected('evaluate') && bare !== undefined) {
      plan.push(async () => ({
        id: 'insert_bare',
        name: 'bare authenticated INSERT (fastify + pg)',
        method: 'POST',
        path: '/bare/insert',
        headers: { authorization: `Bearer ${await login(server, credentials)}` },
        body: { action: { kind: 'outbound_payment', amount: { currency: 'EUR', value: '120.00' } } },
        connections: options.connections,
        baseUrl: bare.baseUrl,
      }))
    }
    // The baseline again at the end: how far the machine drifted during the run.
    plan.push({ ...mainBaseline, id: 'baseline_end', name: 'baseline (again, at the end)' })

    const measured: Measurement[] = []
    for (const step of plan) {
      const workload = typeof step === 'function' ? await step() : step
      if (options.warmupSeconds > 0) {
        const warm = await measure(workload.baseUrl ?? server.baseUrl, workload, options.warmupSeconds)
        if (warm.non_2xx > 0 || warm.errors > 0) log(`warning: ${workload.name}: warm-up saw ${warm.non_2xx} non-2xx and ${warm.errors} errors`)
      }
      log(`measuring ${workload.name} (${workload.method} ${workload.path}, ${workload.connections} conns) for ${options.durationSeconds}s`)
      measured.push(await measure(workload.baseUrl ?? server.baseUrl, workload, options.durationSeconds))
    }

    const report = buildReport(server, options, measured, baselineFor)
    printTable(report.workloads, report.baseline_drift_percent)
    for (const [name, ratio] of Object.entries(report.twin_ratios)) log(`${name}: rps x${ratio.ratio_rps}, p99 x${ratio.ratio_p99}`)
    const output = resolve(options.output)
    mkdirSync(dirname(output), { recursive: true })
    writeFileSync(output, `${JSON.stringify(report, null, 2)}\n`)
    log(`results written to ${output}`)

    const flagged = report.workloads.filter((row) => row.flagged)
    if (flagged.length > 0) {
      process.stderr.write(
        `\n${'!'.repeat(100)}\n!! INVALID: ${flagged.length} workload(s) got non-2xx responses or connection errors; their figures measure failures, not the route:\n` +
          flagged.map((row) => `!!   ${row.name}: ${row.non_2xx} non-2xx ${JSON.stringify(row.status_codes)}, ${row.errors} errors (${row.timeouts} timeouts)`).join('\n') +
          `\n${'!'.repeat(100)}\n`,
      )
      return 1
    }
    return 0
  } finally {
    process.removeListener('SIGINT', stop)
    process.removeListener('SIGTERM', stop)
    await cleanupBare?.close()
    await server.close()
  }
}

/** Signs up and verifies an owner, lifts the tenant's rate limit, and issues an API key. */
async function setUp(server: BenchServer): Promise<Credentials> {
  const email = `bench.${Date.now()}.${randomBytes(3).toString('hex')}@example.com`
  const signup = await call(server, 'POST', '/v1/signup', { email, password: benchPassword }, undefined, 201)
  const tenantId = String(signup.tenant_id)
  await call(server, 'POST', '/v1/auth/verify-email', { tenant_id: tenantId, token: signup.verification_token }, undefined, 200)
  await server.unlimitTenant(tenantId)
  const credentials = { tenantId, email, password: benchPassword, apiKeySecret: '' }
  const token = await login(server, credentials)
  const issued = await call(server, 'POST', `/v1/tenants/${tenantId}/api-keys`, { name: 'bench' }, token, 201)
  const apiKeySecret = String(issued.secret)
  // Both credentials must work before anything is measured.
  await call(server, 'GET', `/v1/tenants/${tenantId}`, undefined, token, 200)
  await call(server, 'GET', `/v1/tenants/${tenantId}`, undefined, apiKeySecret, 200)
  log(`set up tenant ${tenantId} (rate limit tier enterprise, ${tenantRateLimit.perMinute}/min)`)
  return { ...credentials, apiKeySecret }
}

async function login(server: BenchServer, credentials: Pick<Credentials, 'email' | 'password'>): Promise<string> {
  const response = await call(server, 'POST', '/v1/auth/login', { email: credentials.email, password: credentials.password }, undefined, 200)
  return String(response.access_token)
}

async function call(
  server: BenchServer,
  method: string,
  path: string,
  body: unknown,
  bearer: string | undefined,
  expectedStatus: number,
): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = {}
  if (body !== undefined) headers['content-type'] = 'application/json'
  if (bearer !== undefined) headers.authorization = `Bearer ${bearer}`
  const response = await fetch(server.baseUrl + path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
  const text = await response.text()
  if (response.status !== expectedStatus) throw new Error(`set-up: ${method} ${path} answered ${response.status}, expected ${expectedStatus}: ${text}`)
  return JSON.parse(text) as Record<string, unknown>
}

function buildReport(server: BenchServer, options: BenchOptions, measured: readonly Measurement[], baselineFor: ReadonlyMap<number, string>) {
  const byId = new Map(measured.map((row) => [row.id, row]))
  const start = byId.get('baseline')!
  const end = byId.get('baseline_end')
  // The main baseline is the mean of its start and end runs, so slow drift during the run cancels out.
  const baselineFigures = new Map<string, { rps: number; p99: number }>()
  for (const row of measured) {
    if (!row.id.startsWith('baseline') || row.id === 'baseline_end') continue
    baselineFigures.set(row.id, { rps: row.requests_per_second, p99: row.p99_ms })
  }
  if (end !== undefined) {
    baselineFigures.set('baseline', { rps: (start.requests_per_second + end.requests_per_second) / 2, p99: (start.p99_ms + end.p99_ms) / 2 })
  }
  const driftPercent = end === undefined || start.requests_per_second === 0 ? null : round(((end.requests_per_second - start.requests_per_second) / start.requests_per_second) * 100, 1)

  const workloads: Row[] = measured.map((row) => {
    const baselineId = row.id.startsWith('baseline') ? null : (baselineFor.get(row.connections) ?? 'baseline')
    const baseline = baselineId === null ? undefined : baselineFigures.get(baselineId)
    return {
      ...row,
      baseline_id: baselineId,
      ratio_rps_vs_baseline: baseline === undefined || baseline.rps === 0 ? null : Number((row.requests_per_second / baseline.rps).toPrecision(3)),
      ratio_p99_vs_baseline: baseline === undefined || baseline.p99 === 0 ? null : round(row.p99_ms / baseline.p99, 2),
      flagged: row.non_2xx > 0 || row.errors > 0,
    }
  })
  // The framework's cost: each workload against its bare twin (same queries through plain Fastify and pg).
  const twins: Array<[string, string]> = [
    ['read', 'read_bare'],
    ['evaluate', 'insert_bare'],
  ]
  const twinRatios = Object.fromEntries(
    twins.flatMap(([id, twin]) => {
      const row = byId.get(id)
      const bare = byId.get(twin)
      return row === undefined || bare === undefined || bare.requests_per_second === 0
        ? []
        : [[`${id}_vs_${twin}`, { ratio_rps: round(row.requests_per_second / bare.requests_per_second, 3), ratio_p99: bare.p99_ms === 0 ? null : round(row.p99_ms / bare.p99_ms, 2) }]]
    }),
  )
  return {
    generated_at: new Date().toISOString(),
    engine: server.engine,
    node_version: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpus: cpus().length,
    cpu_model: cpus()[0]?.model ?? 'unknown',
    rate_limit_store: server.rateLimitStore,
    workers_in_process: server.workersInProcess,
    scrypt: defaultScryptParameters,
    options: {
      duration_seconds: options.durationSeconds,
      warmup_seconds: options.warmupSeconds,
      connections: options.connections,
      login_connections: options.loginConnections,
    },
    baseline: Object.fromEntries([...baselineFigures].map(([id, figures]) => [id, { requests_per_second: round(figures.rps, 1), p99_ms: round(figures.p99, 2) }])),
    baseline_drift_percent: driftPercent,
    twin_ratios: twinRatios,
    workloads,
  }
}

function printTable(rows: readonly Row[], driftPercent: number | null): void {
  const header = ['workload', 'conns', 'req/s', 'p50 ms', 'p99 ms', '2xx', 'non-2xx', 'errors', 'rps vs base', 'p99 vs base', '']
  const lines = rows.map((row) => [
    row.name,
    String(row.connections),
    row.requests_per_second.toFixed(1),
    String(row.p50_ms),
    String(row.p99_ms),
    String(row.responses_2xx),
    String(row.non_2xx),
    String(row.errors),
    row.ratio_rps_vs_baseline === null ? '-' : `x${formatRatio(row.ratio_rps_vs_baseline)}`,
    row.ratio_p99_vs_baseline === null ? '-' : `x${formatRatio(row.ratio_p99_vs_baseline)}`,
    row.flagged ? '<-- INVALID: non-2xx/errors' : '',
  ])
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]!.length)))
  const format = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column === 0 || column === cells.length - 1 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ')
      .trimEnd()
  process.stdout.write(`\n${format(header)}\n${widths.map((width) => '-'.repeat(width)).join('  ').trimEnd()}\n${lines.map(format).join('\n')}\n`)
  process.stdout.write(
    `\nRatios compare each workload with GET /v1/health at the same connection count in this run (the main baseline is the mean of its start and end runs).\n` +
      `rps vs base below 1 = fewer requests/s than the trivial route; p99 vs base above 1 = slower tail.` +
      (driftPercent === null ? '\n' : ` Baseline drift start->end: ${driftPercent > 0 ? '+' : ''}${driftPercent}%${Math.abs(driftPercent) > 15 ? ' (NOISY: over 15%, rerun before trusting small differences)' : ''}\n`),
  )
}

function formatRatio(value: number): string {
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value >= 0.1 ? value.toFixed(2) : value.toPrecision(2)
}

/** `BENCH_TS=1` prefixes the monotonic clock in µs (a `node --cpu-prof` profile's clock), to cut a profile to one workload. */
function log(message: string): void {
  process.stdout.write(`${process.env.BENCH_TS ? `[${process.hrtime.bigint() / 1000n}] ` : ''}[bench] ${message}\n`)
}

const exitCode = await main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  return 1
})
process.exitCode = exitCode
// Everything is closed; if a stray handle still holds the process open, say so and exit anyway.
setTimeout(() => {
  process.stderr.write('bench: the process did not exit on its own 10 s after closing (a handle was left open); exiting\n')
  process.exit(exitCode)
}, 10_000).unref()
