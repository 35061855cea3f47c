/**
 * Raw and Ledger benchmarks (issue 4), against the real runtime and app over HTTP, on embedded PGlite or
 * on PostgreSQL (DATABASE_URL: a throwaway database on that server):
 *
 * 1. Pipeline: a generated bank-statement CSV (`--rows`, default 100,000) uploaded with
 *    POST /v1/raw/ingest, then extracted and normalized by the job workers, timed from the first byte
 *    sent to the normalization job's success. Reported as rows/s and as a RATIO against a batched
 *    INSERT of the same rows (the transactions the pipeline wrote) through the same driver in the same
 *    run: `--repeats` (default 3) timed runs, each followed by its baseline, and the median of their
 *    ratios. Peak heap and RSS growth are sampled during a small run (`--small-rows`, default 10,000) and
 *    a large one: streaming means the two peaks are about the same.
 * 2. Transaction list: a tenant with `--list-transactions` (default 1,000,000) transactions;
 *    GET /v1/ledger/transactions, filtered and paginated, p50 and p99, and the p99 as a ratio against
 *    GET /v1/health measured in the same run.
 *
 *   npm run bench:ledger -- [--rows 100000] [--small-rows 10000] [--repeats 3] [--list-transactions 1000000] [--samples 300]
 */
import { mkdirSync, mkdtempSync, openAsBlob, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { parseArgs } from 'node:util'
import { sql } from 'drizzle-orm'
import { queryRows } from '../src/platform/db/database.ts'
import { writeLargeCsv } from '../test/fixtures/raw/bank/generate-large-csv.ts'
import { round } from './load.ts'
import { startBenchServer, type BenchServer } from './server.ts'

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: process.env.BENCH_LEDGER_ROWS ?? '100000' },
    'small-rows': { type: 'string', default: '10000' },
    repeats: { type: 'string', default: process.env.BENCH_LEDGER_REPEATS ?? '3' },
    'list-transactions': { type: 'string', default: process.env.BENCH_LIST_TRANSACTIONS ?? '1000000' },
    samples: { type: 'string', default: '300' },
    'skip-pipeline': { type: 'boolean', default: false },
    'skip-list': { type: 'boolean', default: false },
    output: { type: 'string', default: process.env.BENCH_LEDGER_OUTPUT ?? 'bench/results/ledger.json' },
  },
  strict: true,
})

const largeRows = Number(values.rows)
const smallRows = Number(values['small-rows'])
const repeats = Number(values.repeats)
if (!Number.isInteger(repeats) || repeats < 1) throw new Error('--repeats must be a positive integer')
const listSize = Number(values['list-transactions'])
const samples = Number(values.samples)

/**
 * fetch, retried once on a connection reset: after a long pause (seeding a million rows) the client may
 * reuse a keep-alive socket the server has just closed.
 */
async function request(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init)
  } catch (error) {
    if ((error as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw error
    return fetch(url, init)
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN
}

interface Owner {
  readonly tenantId: string
  readonly token: string
}

/** A tenant whose owner token can read, and an admin-free path: ingest needs raw:write, which owners hold. */
async function signup(server: BenchServer, label: string): Promise<Owner> {
  const email = `bench-${label}-${Date.now()}@example.com`
  const password = 'correct horse battery staple'
  const post = (url: string, body: unknown) =>
    fetch(`${server.baseUrl}${url}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (response) => {
      if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`)
      return response.json() as Promise<Record<string, string>>
    })
  const created = await post('/v1/signup', { email, password })
  await post('/v1/auth/verify-email', { tenant_id: created.tenant_id, token: created.verification_token })
  const login = await post('/v1/auth/login', { email, password })
  await server.unlimitTenant(created.tenant_id!)
  return { tenantId: created.tenant_id!, token: login.access_token! }
}

/**
 * Samples memory until stopped: the peak RSS, and the peak live heap — heap used right after a forced
 * garbage collection, every 500 ms (run with --expose-gc, as `npm run bench:ledger` does) — above
 * their levels at the start. The live heap is what streaming keeps flat; RSS also holds freed pages.
 */
function memorySampler(liveHeap: boolean) {
  const collect = liveHeap ? (globalThis as { gc?: () => void }).gc : undefined
  collect?.()
  const start = process.memoryUsage()
  let peakLive = start.heapUsed
  let peakRss = start.rss
  const timer = setInterval(() => {
    collect?.()
    const now = process.memoryUsage()
    peakLive = Math.max(peakLive, now.heapUsed)
    peakRss = Math.max(peakRss, now.rss)
  }, 500)
  return () => {
    clearInterval(timer)
    return {
      live_heap_growth_mb: collect === undefined ? null : round((peakLive - start.heapUsed) / 2 ** 20, 1),
      rss_growth_mb: round((peakRss - start.rss) / 2 ** 20, 1),
      peak_rss_mb: round(peakRss / 2 ** 20, 1),
    }
  }
}

/**
 * CPU seconds (user + system) spent so far by every local PostgreSQL process, from /proc, including
 * the processes that have ended (a backend's time moves to the postmaster's `cutime`/`cstime` when it
 * exits and is reaped; without them a backend closing during a run made the difference negative);
 * undefined when there is none to read (PGlite runs inside this process, or the server is elsewhere or
 * not on Linux).
 */
function postgresCpuSeconds(): number | undefined {
  let ticks = 0
  let found = false
  let pids: string[]
  try {
    pids = readdirSync('/proc').filter((name) => /^[0-9]+$/.test(name))
  } catch {
    return undefined
  }
  for (const pid of pids) {
    let stat: string
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    } catch {
      continue // the process ended meanwhile
    }
    if (!stat.includes('(postgres)')) continue
    // Fields after the `(comm)`: state is the first, then utime, stime, cutime and cstime are the 12th
    // to the 15th (proc(5)).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])
    found = true
  }
  // USER_HZ is 100 on every Linux this runs on.
  return found ? ticks / 100 : undefined
}

/**
 * Where a run's CPU went, per pipeline row: this process (the server, its job workers and, on PGlite,
 * the database) and local PostgreSQL. With two cores, whichever is near the wall time is the bottleneck.
 */
function cpuMeter(rows: number) {
  const node = process.cpuUsage()
  const postgres = postgresCpuSeconds()
  return (wallSeconds: number) => {
    const used = process.cpuUsage(node)
    const nodeSeconds = (used.user + used.system) / 1e6
    const postgresNow = postgresCpuSeconds()
    const postgresSeconds = postgres === undefined || postgresNow === undefined ? null : postgresNow - postgres
    return {
      node_cpu_seconds: round(nodeSeconds, 2),
      node_cpu_us_per_row: round((nodeSeconds / rows) * 1e6, 0),
      node_cpu_share_of_wall: round(nodeSeconds / wallSeconds, 2),
      postgres_cpu_seconds: postgresSeconds === null ? null : round(postgresSeconds, 2),
      postgres_cpu_us_per_row: postgresSeconds === null ? null : round((postgresSeconds / rows) * 1e6, 0),
      postgres_cpu_share_of_wall: postgresSeconds === null ? null : round(postgresSeconds / wallSeconds, 2),
    }
  }
}

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs: number, label: string): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${label}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** Uploads the CSV and waits for its normalization to succeed; returns seconds from upload to done, and memory peaks. */
async function runPipeline(server: BenchServer, owner: Owner, rows: number, directory: string, options: { liveHeap: boolean }) {
  const path = join(directory, `statement-${rows}.csv`)
  await writeLargeCsv(path, rows)
  const form = new FormData()
  form.set('source_type', 'csv_upload')
  form.set('source_ref', JSON.stringify({ account_name: 'Bench checking', currency: 'USD' }))
  form.set('file', await openAsBlob(path, { type: 'text/csv' }), `statement-${rows}.csv`)
  const stopSampling = memorySampler(options.liveHeap)
  const stopCpu = cpuMeter(rows)
  const started = performance.now()
  const response = await fetch(`${server.baseUrl}/v1/raw/ingest`, { method: 'POST', headers: { authorization: `Bearer ${owner.token}` }, body: form })
  if (response.status !== 201) throw new Error(`ingest: ${response.status} ${await response.text()}`)
  const uploaded = performance.now()
  const { raw_id: rawId } = (await response.json()) as { raw_id: string }
  const job = await waitFor(
    async () => {
      const [row] = await queryRows<{ status: string; error: string | null; result: Record<string, unknown> | null }>(
        server.runtime.db.orm,
        sql`select status, error, result from ledger_jobs where tenant_id = ${owner.tenantId} and kind = 'normalize' and input->>'artifact_id' = ${rawId}`,
      )
      if (row?.status === 'failed') throw new Error(`normalization failed: ${row.error}`)
      const [artifact] = await queryRows<{ extraction_status: string; extraction_error: string | null }>(
        server.runtime.db.orm,
        sql`select extraction_status, extraction_error from raw_artifacts where id = ${rawId}`,
      )
      if (artifact?.extraction_status === 'failed') throw new Error(`extraction failed: ${artifact.extraction_error}`)
      return row?.status === 'succeeded' ? row : undefined
    },
    30 * 60_000,
    'normalization',
  )
  const seconds = (performance.now() - started) / 1000
  const cpu = stopCpu(seconds)
  const memory = stopSampling()
  const uploadSeconds = (uploaded - started) / 1000
  const [phases] = await queryRows<{ extraction: number; queued: number; normalization: number }>(
    server.runtime.db.orm,
    sql`select extract(epoch from a.extracted_at - a.ingested_at)::float8 as extraction,
               extract(epoch from j.started_at - j.created_at)::float8 as queued,
               extract(epoch from j.finished_at - j.started_at)::float8 as normalization
          from raw_artifacts a join ledger_jobs j on j.input->>'artifact_id' = a.id and j.kind = 'normalize'
         where a.id = ${rawId}`,
  )
  const [count] = await queryRows<{ n: number }>(server.runtime.db.orm, sql`select count(*)::int as n from ledger_transactions where tenant_id = ${owner.tenantId} and superseded_at is null`)
  if (count?.n !== rows) throw new Error(`expected ${rows} transactions, found ${count?.n}`)
  // Let the reconciliation the normalization queued finish, so it does not run into the next phase.
  await waitFor(
    async () => {
      const [pending] = await queryRows<{ n: number }>(server.runtime.db.orm, sql`select count(*)::int as n from ledger_jobs where tenant_id = ${owner.tenantId} and status in ('queued', 'running')`)
      return pending?.n === 0 ? true : undefined
    },
    30 * 60_000,
    'reconciliation',
  )
  return {
    rows,
    seconds: round(seconds, 2),
    rows_per_second: round(rows / seconds, 0),
    phases_seconds: { upload: round(uploadSeconds, 2), extraction: round(phases!.extraction, 2), queued: round(phases!.queued, 2), normalization: round(phases!.normalization, 2) },
    cpu,
    memory,
    job: job.result,
  }
}

/** Rows per statement of the baseline's batched INSERT. */
const baselineBatchRows = 500

/**
 * The baseline: THE SAME ROWS the pipeline wrote (every column of the tenant's ledger_transactions),
 * INSERTed `baselineBatchRows` per statement as a plain multi-row `insert … values ($1, …), …` through
 * the same driver (pg's pool, or the PGlite instance: Drizzle's `$client`, so no ORM cost is counted).
 * Values travel as text, as the driver sends every parameter. Twice: into a bare copy of the table (no
 * indexes: the cheapest write of the rows), and into a copy with all of ledger_transactions' indexes
 * and constraints (the same rows written where they land).
 */
async function baselineInsert(server: BenchServer, tenantId: string) {
  const { db } = server.runtime
  const client = (db.orm as unknown as { $client: { query(text: string, params?: unknown[]): Promise<{ rows: Array<Record<string, string | null>> }> } }).$client
  const columns = (await client.query(
    `select column_name from information_schema.columns where table_schema = current_schema() and table_name = 'ledger_transactions' order by ordinal_position`,
  )).rows.map((row) => row.column_name!)
  const { rows } = await client.query(`select ${columns.map((column) => `${column}::text`).join(', ')} from ledger_transactions where tenant_id = $1 order by version_id`, [tenantId])
  const values = rows.map((row) => columns.map((column) => row[column] ?? null))
  const statementFor = (count: number) =>
    `insert into bench_baseline_transactions (${columns.join(', ')}) values ${Array.from({ length: count }, (_, row) => `(${columns.map((_, column) => `$${row * columns.length + column + 1}`).join(', ')})`).join(', ')}`
  const fullStatement = statementFor(baselineBatchRows)
  const run = async (like: 'including defaults' | 'including all') => {
    await client.query(`drop table if exists bench_baseline_transactions`)
    await client.query(`create table bench_baseline_transactions (like ledger_transactions ${like})`)
    const started = performance.now()
    for (let offset = 0; offset < values.length; offset += baselineBatchRows) {
      const batch = values.slice(offset, offset + baselineBatchRows)
      await client.query(batch.length === baselineBatchRows ? fullStatement : statementFor(batch.length), batch.flat())
    }
    const seconds = (performance.now() - started) / 1000
    await client.query(`drop table bench_baseline_transactions`)
    return { rows: values.length, seconds: round(seconds, 2), rows_per_second: round(values.length / seconds, 0) }
  }
  return { batch_rows: baselineBatchRows, bare: await run('including defaults'), indexed: await run('including all') }
}

/** `count` transactions over 5 accounts, 200 counterparties and ~3 years, inserted set-wise. */
async function seedTransactions(server: BenchServer, tenantId: string, count: number) {
  const started = performance.now()
  for (let offset = 0; offset < count; offset += 100_000) {
    const upto = Math.min(count, offset + 100_000)
    await server.runtime.db.orm.execute(sql`
      insert into ledger_transactions (version_id, id, tenant_id, version, supersedes, source_ids, evidence_ids, provenance, confidence, metadata,
        created_at, updated_at, superseded_at, account_id, external_transaction_id, amount, currency, direction, transaction_date, posted_date,
        counterparty_id, category_id, status, description, description_normalized, reconciliation_status)
      select 'ver_b' || n, 'txn_b' || lpad(n::text, 9, '0'), ${tenantId}::uuid, 1, null, array['raw_bench'], array['rpr_' || n], 'extracted', 0.95, '{}'::jsonb,
             now(), now(), null, 'acc_b' || (n % 5), null, round(((n::bigint * 7919) % 200000 - 100000) / 100.0, 2), 'USD',
             case when n % 3 = 0 then 'inflow' else 'outflow' end, date '2024-01-01' + (n % 1095), date '2024-01-01' + (n % 1095),
             'cpy_b' || (n % 200), null, case when n % 50 = 0 then 'pending' else 'posted' end, 'BENCH ROW ' || n, 'BENCH ROW', 'unmatched'
        from generate_series(${offset}::int, ${upto - 1}::int) as n`)
  }
  await server.runtime.db.orm.execute(sql`analyze ledger_transactions`)
  return round((performance.now() - started) / 1000, 1)
}

async function timeRequests(baseUrl: string, token: string | undefined, urls: readonly string[], count: number) {
  const latencies: number[] = []
  for (let index = 0; index < count; index += 1) {
    const url = urls[index % urls.length]!
    const begin = performance.now()
    const response = await request(`${baseUrl}${url}`, { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } })
    await response.arrayBuffer()
    if (response.status !== 200) throw new Error(`${url}: ${response.status}`)
    latencies.push(performance.now() - begin)
  }
  latencies.sort((a, b) => a - b)
  return { requests: count, p50_ms: round(percentile(latencies, 0.5), 2), p99_ms: round(percentile(latencies, 0.99), 2) }
}

async function listBenchmark(server: BenchServer) {
  const owner = await signup(server, 'list')
  const seedSeconds = await seedTransactions(server, owner.tenantId, listSize)
  // A cursor deep into the listing: follow five pages once, then time the sixth.
  let cursor = ''
  for (let page = 0; page < 5; page += 1) {
    const response = await request(`${server.baseUrl}/v1/ledger/transactions?limit=100${cursor === '' ? '' : `&cursor=${encodeURIComponent(cursor)}`}`, {
      headers: { authorization: `Bearer ${owner.token}` },
    })
    cursor = ((await response.json()) as { next_cursor: string }).next_cursor
  }
  const queries: Record<string, string> = {
    first_page: '/v1/ledger/transactions',
    account_month: '/v1/ledger/transactions?account_id=acc_b3&since=2025-06-01&until=2025-06-30',
    outflow_posted: '/v1/ledger/transactions?direction=outflow&status=posted&limit=100',
    counterparty: '/v1/ledger/transactions?counterparty_id=cpy_b42&limit=50',
    sixth_page: `/v1/ledger/transactions?limit=100&cursor=${encodeURIComponent(cursor)}`,
    max_page: '/v1/ledger/transactions?limit=1000',
  }
  // Warm-up, then the baseline and each query, interleaved so noise hits them alike.
  await timeRequests(server.baseUrl, owner.token, Object.values(queries), 30)
  const baseline = await timeRequests(server.baseUrl, undefined, ['/v1/health'], samples)
  const results: Record<string, unknown> = {}
  for (const [name, url] of Object.entries(queries)) {
    const timing = await timeRequests(server.baseUrl, owner.token, [url], samples)
    results[name] = { ...timing, p99_ratio_to_health: round(timing.p99_ms / baseline.p99_ms, 1) }
  }
  return { transactions: listSize, seed_seconds: seedSeconds, baseline_health: baseline, queries: results }
}

const server = await startBenchServer(process.env, process.env.BENCH_LOG_LEVEL ?? 'warn')
const directory = mkdtempSync(join(tmpdir(), 'steward-bench-ledger-'))
const report: Record<string, unknown> = { engine: server.engine, started_at: new Date().toISOString() }
try {
  if (!values['skip-pipeline']) {
    // Memory: a small and a large file with the live heap sampled (forced collections cost time), then
    // the large file again, timed without them (`--repeats` times, each with its baseline).
    const small = await runPipeline(server, await signup(server, 'pipeline-small'), smallRows, directory, { liveHeap: true })
    const largeMemory = await runPipeline(server, await signup(server, 'pipeline-memory'), largeRows, directory, { liveHeap: true })
    // The timed runs: each one right before its baseline, so that both sides of each ratio meet the
    // same machine (these machines are noisy: the baseline alone varies by a quarter between runs).
    const timed = []
    for (let repeat = 0; repeat < repeats; repeat += 1) {
      const owner = await signup(server, `pipeline-large-${repeat}`)
      const run = await runPipeline(server, owner, largeRows, directory, { liveHeap: false })
      const baseline = await baselineInsert(server, owner.tenantId)
      timed.push({
        ...run,
        baseline_insert: baseline,
        ratio: round(run.rows_per_second / baseline.bare.rows_per_second, 3),
        ratio_vs_indexed_insert: round(run.rows_per_second / baseline.indexed.rows_per_second, 3),
      })
    }
    const ratio = round(median(timed.map((run) => run.ratio)), 3)
    const ratioIndexed = round(median(timed.map((run) => run.ratio_vs_indexed_insert)), 3)
    const large = [...timed].sort((a, b) => a.ratio - b.ratio)[Math.floor((timed.length - 1) / 2)]!
    report.pipeline = { small, large_memory: largeMemory, repeats, timed, ratio, ratio_vs_indexed_insert: ratioIndexed }
    for (const [index, run] of timed.entries()) {
      console.log(
        `pipeline ${largeRows} rows, run ${index + 1}/${repeats}: ${run.rows_per_second} rows/s (${run.seconds} s) vs batched INSERT ${run.baseline_insert.bare.rows_per_second} rows/s (bare table) → ratio ${run.ratio}; ` +
          `vs ${run.baseline_insert.indexed.rows_per_second} rows/s (ledger_transactions' indexes) → ratio ${run.ratio_vs_indexed_insert}`,
      )
    }
    console.log(`median ratio over ${repeats} runs: ${ratio} (bare table), ${ratioIndexed} (indexed); the median run's figures follow`)
    console.log(`phases (s): ${JSON.stringify(large.phases_seconds)}`)
    console.log(
      `cpu per row: node ${large.cpu.node_cpu_us_per_row} µs (${large.cpu.node_cpu_share_of_wall} of the wall time)` +
        (large.cpu.postgres_cpu_us_per_row === null ? '' : `, postgres ${large.cpu.postgres_cpu_us_per_row} µs (${large.cpu.postgres_cpu_share_of_wall})`),
    )
    console.log(
      `memory: ${smallRows} rows: live heap +${small.memory.live_heap_growth_mb} MB, rss +${small.memory.rss_growth_mb} MB; ` +
        `${largeRows} rows: live heap +${largeMemory.memory.live_heap_growth_mb} MB, rss +${largeMemory.memory.rss_growth_mb} MB`,
    )
  }
  if (!values['skip-list']) {
    const list = await listBenchmark(server)
    report.transaction_list = list
    console.log(`transaction list over ${listSize} transactions (health p99 ${list.baseline_health.p99_ms} ms):`)
    for (const [name, timing] of Object.entries(list.queries)) console.log(`  ${name}: ${JSON.stringify(timing)}`)
  }
} finally {
  rmSync(directory, { recursive: true, force: true })
  await server.close()
}
mkdirSync(dirname(values.output), { recursive: true })
writeFileSync(values.output, `${JSON.stringify(report, null, 2)}\n`)
console.log(`results written to ${values.output}`)
