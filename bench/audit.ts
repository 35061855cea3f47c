/**
 * Audit benchmarks (issue 3), in-process on the real runtime, on embedded PGlite or on PostgreSQL
 * (DATABASE_URL: a throwaway database on that server):
 *
 * 1. Append throughput: audit.record in its own transaction, from `concurrency` concurrent writers,
 *    for one hot tenant and for 64 tenants, as a RATIO against a bare single-row INSERT + commit through
 *    the same pool in the same run. The sequencer runs meanwhile, as in the server, and its lag (events
 *    recorded but not yet linked) is reported after each phase.
 * 2. Inclusion proof latency: GET-event-with-proof through the audit service, for random events of a
 *    tenant holding 10^5 and 10^6 events (p50 and p99).
 * 3. Merkle root build time for one batch of 10^5 leaves.
 *
 *   npm run bench:audit -- [--duration 10] [--concurrency 8] [--proof-events 100000,1000000] [--skip-proofs]
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { parseArgs } from 'node:util'
import { sql } from 'drizzle-orm'
import { createAuditRecorder } from '../src/modules/audit/audit.recorder.ts'
import { buildTree, type Hex32 } from '../src/modules/audit/domain/merkle.ts'
import { queryRows } from '../src/platform/db/database.ts'
import { systemClock } from '../src/kernel/clock.ts'
import { createIdSource } from '../src/kernel/ids.ts'
import { round } from './load.ts'
import { startBenchServer, type BenchServer } from './server.ts'

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: process.env.BENCH_DURATION ?? '10' },
    concurrency: { type: 'string', default: process.env.BENCH_AUDIT_CONCURRENCY ?? '8' },
    'proof-events': { type: 'string', default: process.env.BENCH_PROOF_EVENTS ?? '100000,1000000' },
    'proof-samples': { type: 'string', default: '2000' },
    'skip-proofs': { type: 'boolean', default: false },
    output: { type: 'string', default: process.env.BENCH_AUDIT_OUTPUT ?? 'bench/results/audit.json' },
  },
  strict: true,
})
const durationSeconds = Number(values.duration)
const concurrency = Number(values.concurrency)
const proofSizes = values['proof-events'].split(',').map(Number).filter((size) => size > 0)
const proofSamples = Number(values['proof-samples'])

interface Throughput {
  readonly operations: number
  readonly seconds: number
  readonly perSecond: number
  readonly p50Ms: number
  readonly p99Ms: number
}

function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!
}

/** Runs `operation` from `concurrency` loops for `seconds`, timing each call. */
async function drive(seconds: number, operation: (worker: number, index: number) => Promise<unknown>): Promise<Throughput> {
  const latencies: number[] = []
  const deadline = performance.now() + seconds * 1000
  const started = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      for (let index = 0; performance.now() < deadline; index += 1) {
        const begin = performance.now()
        await operation(worker, index)
        latencies.push(performance.now() - begin)
      }
    }),
  )
  const elapsed = (performance.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  return { operations: latencies.length, seconds: round(elapsed, 2), perSecond: round(latencies.length / elapsed, 0), p50Ms: round(percentile(latencies, 0.5), 3), p99Ms: round(percentile(latencies, 0.99), 3) }
}

async function unsequencedCount(server: BenchServer): Promise<number> {
  const [row] = await queryRows<{ count: number }>(server.runtime.db.orm, sql`select count(*)::int as count from audit_inbox`)
  return row?.count ?? 0
}

async function appendBenchmarks(server: BenchServer) {
  const { db } = server.runtime
  const ids = createIdSource()
  const recorder = createAuditRecorder({ ids, clock: systemClock })
  await db.orm.execute(sql`create table bench_baseline (id text primary key, tenant_id uuid not null, payload jsonb not null, created_at timestamptz not null)`)
  const tenants = Array.from({ length: 64 }, () => ids.newUuid())
  const record = (tenantId: string, index: number) =>
    db.transaction((tx) =>
      recorder.record(tx, {
        tenantId,
        layer: 'audit',
        actor: { type: 'system', id: 'bench' },
        action: 'bench.append',
        entity: { type: 'tenant', id: tenantId },
        inputs: { request: `sha256:${'0'.repeat(64)}` },
        outputs: { index },
      }),
    )
  const insertBaseline = (tenantId: string, index: number) =>
    db.transaction((tx) =>
      tx.execute(sql`insert into bench_baseline (id, tenant_id, payload, created_at) values (${ids.newId('event')}, ${tenantId}, ${JSON.stringify({ index })}::jsonb, now())`),
    )

  log(`append: warming up`)
  await drive(Math.min(2, durationSeconds), (worker, index) => (index % 2 === 0 ? insertBaseline(tenants[worker % 64]!, index) : record(tenants[worker % 64]!, index)))
  await server.runtime.settleAudit()

  // Phase 1, the request path: what recording costs the writer, with the sequencer idle.
  log(`append: baseline (bare single-row INSERT + commit), ${concurrency} writers, ${durationSeconds}s`)
  const baseline = await drive(durationSeconds, (worker, index) => insertBaseline(tenants[worker % 64]!, index))
  log(`append (sequencer idle): one hot tenant`)
  const hotIdle = await drive(durationSeconds, (_worker, index) => record(tenants[0]!, index))
  log(`append (sequencer idle): 64 tenants`)
  const spreadIdle = await drive(durationSeconds, (worker, index) => record(tenants[(worker * 7919 + index) % 64]!, index))
  const backlog = await unsequencedCount(server)
  const drainStarted = performance.now()
  await server.runtime.settleAudit()
  const drainSeconds = (performance.now() - drainStarted) / 1000

  // Phase 2, sustained: the sequencer runs beside the writers, as in the server, linking as they write.
  await server.runtime.startWorkers()
  log(`append (sequencer running): one hot tenant`)
  const hot = await drive(durationSeconds, (_worker, index) => record(tenants[0]!, index))
  const hotLag = await unsequencedCount(server)
  await server.runtime.settleAudit()
  log(`append (sequencer running): 64 tenants`)
  const spread = await drive(durationSeconds, (worker, index) => record(tenants[(worker * 7919 + index) % 64]!, index))
  const spreadLag = await unsequencedCount(server)
  await server.runtime.settleAudit()
  await db.orm.execute(sql`drop table bench_baseline`)
  const ratio = (value: Throughput) => round(value.perSecond / baseline.perSecond, 3)
  return {
    concurrency,
    baseline,
    request_path: {
      one_hot_tenant: { ...hotIdle, ratio_vs_baseline: ratio(hotIdle) },
      sixty_four_tenants: { ...spreadIdle, ratio_vs_baseline: ratio(spreadIdle) },
      backlog_events: backlog,
      backlog_linked_and_batched_seconds: round(drainSeconds, 2),
      backlog_linked_per_second: round(backlog / drainSeconds, 0),
    },
    sustained: {
      one_hot_tenant: { ...hot, ratio_vs_baseline: ratio(hot), sequencer_lag_events_at_end: hotLag },
      sixty_four_tenants: { ...spread, ratio_vs_baseline: ratio(spread), sequencer_lag_events_at_end: spreadLag },
    },
  }
}

async function proofBenchmarks(server: BenchServer) {
  const { db } = server.runtime
  const results = []
  for (const size of proofSizes) {
    const tenantId = createIdSource().newUuid()
    // Ids unique to this run and size: a 6-character prefix and the event number in hex.
    const idPrefix = randomBytes(3).toString('hex').toUpperCase()
    const eventId = (number: number) => `aev_${idPrefix}${number.toString(16).padStart(20, '0')}`
    log(`proofs: recording ${size.toLocaleString()} events for one tenant`)
    const loadStarted = performance.now()
    // Content rows in bulk (the recorder's columns), then the real sequencer links and batches them.
    const chunk = 50_000
    for (let offset = 0; offset < size; offset += chunk) {
      const count = Math.min(chunk, size - offset)
      await db.orm.execute(sql`
        insert into audit_inbox (id, tenant_id, layer, actor_type, actor_id, action, entity_type, entity_id, inputs, outputs, evidence_ids, request_id, created_at)
        select 'aev_' || ${idPrefix} || lpad(to_hex(${offset} + n), 20, '0'), ${tenantId}, 'audit', 'system', 'bench', 'bench.proof', 'tenant', ${tenantId},
               '{}'::jsonb, jsonb_build_object('n', ${offset} + n), '{}'::text[], null, date_trunc('milliseconds', now())
        from generate_series(1, ${count}) as n`)
    }
    const insertSeconds = (performance.now() - loadStarted) / 1000
    // The running sequencer starts linking as soon as rows land; settling finishes what it has not.
    await server.runtime.settleAudit({ closeOpenBatch: true })
    const loadSeconds = (performance.now() - loadStarted) / 1000
    log(`proofs: ${size.toLocaleString()} events recorded, linked and batched in ${round(loadSeconds, 1)} s; sampling ${proofSamples} proofs`)

    const sampleIds = Array.from({ length: proofSamples }, () => eventId(1 + Math.floor(Math.random() * size)))
    for (const id of sampleIds.slice(0, 50)) await server.runtime.services.audit.event(tenantId, id) // warm-up
    const latencies: number[] = []
    for (const id of sampleIds) {
      const begin = performance.now()
      const proof = await server.runtime.services.audit.event(tenantId, id)
      latencies.push(performance.now() - begin)
      if (proof.inclusion.status !== 'included') throw new Error(`event ${id} is ${proof.inclusion.status}`)
    }
    latencies.sort((a, b) => a - b)
    results.push({
      events: size,
      batch_events_max: server.runtime.config.auditBatchEventsMax,
      insert_seconds: round(insertSeconds, 1),
      recorded_linked_and_batched_seconds: round(loadSeconds, 1),
      recorded_linked_and_batched_events_per_second: round(size / loadSeconds, 0),
      proof_p50_ms: round(percentile(latencies, 0.5), 3),
      proof_p99_ms: round(percentile(latencies, 0.99), 3),
      samples: latencies.length,
    })
  }
  return results
}

function merkleBuildBenchmark() {
  const leaves = Array.from({ length: 100_000 }, () => `0x${randomBytes(32).toString('hex')}` as Hex32)
  const runs: number[] = []
  for (let run = 0; run < 3; run += 1) {
    const begin = performance.now()
    buildTree(leaves)
    runs.push(performance.now() - begin)
  }
  runs.sort((a, b) => a - b)
  return { leaves: leaves.length, runs_ms: runs.map((value) => round(value, 0)), median_ms: round(runs[1]!, 0) }
}

function log(message: string): void {
  process.stderr.write(`bench:audit ${message}\n`)
}

// Workers start after the request-path phase, so it measures recording alone.
const server = await startBenchServer({ ...process.env, WORKERS_IN_PROCESS: 'true' }, 'warn', { startWorkers: false })
let exitCode = 0
try {
  const append = await appendBenchmarks(server)
  const proofs = values['skip-proofs'] ? [] : await proofBenchmarks(server)
  const merkle = merkleBuildBenchmark()
  const report = { engine: server.engine, node: process.version, measured_at: new Date().toISOString(), append, proofs, merkle_root_build: merkle }
  mkdirSync(dirname(values.output), { recursive: true })
  writeFileSync(values.output, `${JSON.stringify(report, null, 2)}\n`)
  const line = (label: string, value: { perSecond: number; p99Ms: number; ratio_vs_baseline?: number }) =>
    `  ${label.padEnd(26)} ${String(value.perSecond).padStart(8)}/s   p99 ${String(value.p99Ms).padStart(8)} ms${value.ratio_vs_baseline === undefined ? '' : `   ${value.ratio_vs_baseline}× baseline`}`
  process.stdout.write(
    [
      `Audit benchmarks on ${server.engine} (${concurrency} concurrent writers, ${durationSeconds}s each)`,
      line('bare INSERT (baseline)', append.baseline),
      line('append, 1 hot tenant', append.request_path.one_hot_tenant) + '   (request path: sequencer idle)',
      line('append, 64 tenants', append.request_path.sixty_four_tenants) + '   (request path: sequencer idle)',
      `  sequencer: linked and batched that backlog of ${append.request_path.backlog_events} events at ${append.request_path.backlog_linked_per_second}/s`,
      line('append, 1 hot tenant', append.sustained.one_hot_tenant) + `   (sustained: sequencer running, lag ${append.sustained.one_hot_tenant.sequencer_lag_events_at_end})`,
      line('append, 64 tenants', append.sustained.sixty_four_tenants) + `   (sustained: sequencer running, lag ${append.sustained.sixty_four_tenants.sequencer_lag_events_at_end})`,
      ...proofs.map((proof) => `  inclusion proof at ${proof.events.toLocaleString()} events: p50 ${proof.proof_p50_ms} ms, p99 ${proof.proof_p99_ms} ms (recorded, linked and batched at ${proof.recorded_linked_and_batched_events_per_second}/s)`),
      `  Merkle root of ${merkle.leaves.toLocaleString()} leaves: ${merkle.median_ms} ms (median of 3)`,
      `Results: ${values.output}`,
      '',
    ].join('\n'),
  )
} catch (error) {
  process.stderr.write(`bench:audit failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  exitCode = 1
} finally {
  await server.close()
}
process.exit(exitCode)
