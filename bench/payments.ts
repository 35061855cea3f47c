/**
 * Payments benchmarks (issue 16), in-process on the real runtime, on embedded PGlite or on PostgreSQL
 * (DATABASE_URL: a throwaway database on that server):
 *
 * 1. Governed proposal: the propose command (validation against the Ledger, the policy with every
 *    gate-populated key, the intent and its decision inserted, audit event and business events, one
 *    transaction) over 64 tenants from `concurrency` concurrent callers, as a RATIO against a bare
 *    single-row INSERT + commit through the same pool in the same run. Then the same proposals at half
 *    the measured throughput (an open loop: arrivals on a schedule), for the p99 at that load.
 * 2. Execute: the gate command (snapshot, 23 checks, gate run, outbox row, reservation, audit, event)
 *    over intents approved beforehand, against the same baseline.
 * 3. The 23 pure checks alone, in process: p50 and p99 of one runGate call (process.hrtime.bigint).
 *
 * 4. The write floors (PostgreSQL, floor.ts): each command's own writes, recorded from real commands
 *    and replayed with fresh ids in one round trip with nothing else (no read, lock, policy or hashing),
 *    prepared as the commands' own statements are; and grouped eight to a transaction with multi-row
 *    inserts (group commit's best case), proposals and executes. No implementation that writes what the
 *    spec makes these commands write, one command a transaction, could beat the first; none at all the
 *    second. Their ratios are against the mean of the run's two bare INSERT measurements.
 *
 * Targets (issue 16): proposal ≥ 0.5× the baseline and p99 ≤ 15 ms at half load; execute ≥ 0.3×; the
 * checks p99 ≤ 200 µs.
 *
 *   npm run bench:payments -- [--duration 10] [--concurrency 8] [--tenants 64]
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { parseArgs } from 'node:util'
import { sql } from 'drizzle-orm'
import type { CommandContext } from '../src/kernel/context.ts'
import { createIdSource } from '../src/kernel/ids.ts'
import type { Principal } from '../src/kernel/principal.ts'
import { runGate } from '../src/modules/payments/domain/gate.ts'
import { passingGateSnapshot } from '../src/modules/payments/domain/gate.testing.ts'
import { seedParsedArtifact } from '../src/modules/raw/raw.testing.ts'
import { freshValues, groupingFor, recordStatements, replayGrouped, replayGroupedAsSent, replayWrites, withoutWakeUp, type RecordedStatement } from './floor.ts'
import { round } from './load.ts'
import { describePauses, watchPauses, type PauseReport } from './pauses.ts'
import { startBenchServer, type BenchServer } from './server.ts'

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: process.env.BENCH_DURATION ?? '10' },
    concurrency: { type: 'string', default: process.env.BENCH_PAYMENTS_CONCURRENCY ?? '8' },
    tenants: { type: 'string', default: '64' },
    'gate-runs': { type: 'string', default: '200000' },
    output: { type: 'string', default: process.env.BENCH_PAYMENTS_OUTPUT ?? 'bench/results/payments.json' },
  },
  strict: true,
})
const durationSeconds = Number(values.duration)
const concurrency = Number(values.concurrency)
const tenantCount = Number(values.tenants)
const gateRuns = Number(values['gate-runs'])
const serviceTokenSecret = 'bench-service-token-secret-0123456789abcdef'
const password = 'correct horse battery staple'

const log = (message: string) => process.stderr.write(`${process.env.BENCH_TS ? `[${process.hrtime.bigint() / 1000n}] ` : ""}${message}\n`)

interface Throughput {
  readonly operations: number
  readonly perSecond: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly errors: number
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!
}

function summary(latencies: number[], seconds: number, errors: number): Throughput {
  latencies.sort((a, b) => a - b)
  return { operations: latencies.length, perSecond: round(latencies.length / seconds, 0), p50Ms: round(percentile(latencies, 0.5), 3), p99Ms: round(percentile(latencies, 0.99), 3), errors }
}

/** Runs `operation` from `concurrency` closed loops for `seconds`, timing each call; errors are counted, not timed. */
async function drive(seconds: number, operation: (worker: number, index: number) => Promise<unknown>, limit = Number.POSITIVE_INFINITY): Promise<Throughput> {
  const latencies: number[] = []
  let errors = 0
  let issued = 0
  const deadline = performance.now() + seconds * 1000
  const started = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      for (let index = 0; performance.now() < deadline && issued < limit; index += 1) {
        issued += 1
        const begin = performance.now()
        try {
          await operation(worker, index)
          latencies.push(performance.now() - begin)
        } catch (error) {
          errors += 1
          if (errors <= 3) log(`  error: ${error instanceof Error ? error.message : String(error)}`)
        }
      }
    }),
  )
  return summary(latencies, (performance.now() - started) / 1000, errors)
}

/**
 * Issues `operation` at `perSecond` on a fixed schedule for `seconds` (an open loop), timing each from its
 * scheduled start; with what paused this process meanwhile (pauses.ts), for the tail.
 */
async function driveAtRate(seconds: number, perSecond: number, operation: (index: number) => Promise<unknown>): Promise<Throughput & { pauses: PauseReport }> {
  const latencies: number[] = []
  let errors = 0
  const total = Math.floor(seconds * perSecond)
  const pauses = watchPauses()
  const started = performance.now()
  const pending: Array<Promise<void>> = []
  for (let index = 0; index < total; index += 1) {
    const scheduled = started + (index * 1000) / perSecond
    const wait = scheduled - performance.now()
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
    pending.push(
      operation(index).then(
        () => {
          const ended = performance.now()
          latencies.push(ended - scheduled)
          pauses.operation(scheduled, ended)
        },
        () => void (errors += 1),
      ),
    )
  }
  await Promise.all(pending)
  return { ...summary(latencies, (performance.now() - started) / 1000, errors), pauses: pauses.stop() }
}

interface BenchTenant {
  readonly tenantId: string
  readonly ownerContext: CommandContext
  readonly agentContext: CommandContext
  readonly accountId: string
  readonly counterpartyId: string
}

async function inject(server: BenchServer, method: 'GET' | 'POST', url: string, body?: unknown, token?: string, headers: Record<string, string> = {}) {
  const response = await server.app.inject({ method, url, ...(body === undefined ? {} : { payload: body as object }), headers: { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), ...headers } })
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`)
  return response.json() as Record<string, any>
}

/** A tenant with a funded account, a trusted supplier, an owner and a service token (the proposing agent). */
async function setUpTenant(server: BenchServer, index: number): Promise<BenchTenant> {
  const email = `bench-${index}-${Date.now()}@example.com`
  const signup = await inject(server, 'POST', '/v1/signup', { email, password })
  const tenantId = signup.tenant_id as string
  await inject(server, 'POST', '/v1/auth/verify-email', { tenant_id: tenantId, token: signup.verification_token })
  await server.unlimitTenant(tenantId)
  const owner = (await inject(server, 'POST', '/v1/auth/login', { email, password })).access_token as string
  const invite = await inject(server, 'POST', `/v1/tenants/${tenantId}/members`, { email: `admin-${email}`, role: 'admin' }, owner)
  await inject(server, 'POST', '/v1/auth/accept-invitation', { tenant_id: tenantId, token: invite.invitation_token, password })
  const admin = (await inject(server, 'POST', '/v1/auth/login', { email: `admin-${email}`, password })).access_token as string

  const account = { iban: 'DE89370400440532013000', name: 'Operating account', currency: 'EUR' }
  const seeded = await seedParsedArtifact(server.runtime.db, {
    tenantId,
    at: new Date(),
    records: [
      { kind: 'transaction', account, currency: 'EUR', status: 'posted', amount: '-10.00', transaction_date: '2026-03-02', description: 'PAPER SUPPLY', counterparty: { name: 'Paper Supply Co', iban: 'DE02120300000000202051' } },
      { kind: 'balance', account, balance_type: 'closing', as_of: '2026-03-31', amount: '100000000.00', currency: 'EUR' },
    ],
  })
  await server.runtime.ledger.normalizer.normalizeArtifact(tenantId, seeded.artifactId, { actor: { type: 'system', id: 'bench' } })
  const accountId = (await inject(server, 'GET', '/v1/ledger/accounts', undefined, owner)).accounts[0].id as string
  const counterpartyId = (await inject(server, 'GET', '/v1/ledger/counterparties', undefined, owner)).counterparties[0].id as string
  await inject(server, 'POST', `/v1/ledger/counterparties/${counterpartyId}/trust/grant`, undefined, admin)

  const minted = await inject(server, 'POST', '/v1/auth/service-token', { tenant_id: tenantId, reason: 'bench' }, serviceTokenSecret)
  const principalOf = (token: string): Promise<Principal> => server.runtime.services.auth.authenticate(token)
  // A promoted agent: the execute benchmark measures live dispatches, not shadow runs (governing rule 7).
  const agent = await principalOf(minted.access_token as string)
  await inject(
    server,
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

/** Proposals a transaction in the grouped floor (group commit's best case: one per concurrent caller). */
const floorGroup = Number(process.env.BENCH_FLOOR_GROUP ?? concurrency)
/** The recordings a grouped floor's call replays together: `floorGroup` of them, spread as the callers are. */
const groupMembers = (worker: number, index: number, recordings: number) =>
  Array.from({ length: floorGroup }, (_, member) => (worker * 7919 + index * floorGroup + member) % recordings)
/** A grouped floor's figures: its transactions, and the commands they carried, a second and against the baseline. */
const groupedFloor = <Key extends string>(floor: Throughput, baselineMean: number, perSecondKey: Key) => ({
  ...floor,
  group: floorGroup,
  ...({ [perSecondKey]: round(floor.perSecond * floorGroup, 1) } as Record<Key, number>),
  ratio: round((floor.perSecond * floorGroup) / baselineMean, 3),
})
/** A proposal's writes: its decision, intent, agent proposal, audit event and business events. */
const proposalWritePattern = /^(insert into "(payment_policy_decisions|payment_intents|agent_proposals)"|(with inserted as \()?insert into audit_inbox|with subscribed as)/
const proposalIdPrefixes = new Set(['pdc', 'pi', 'prp', 'aev', 'evt'])
/** An execute's writes but its dispatch job (see the execute floor). */
const executeWritePattern = /^(insert into "(policy_verdicts|payment_gate_runs|payment_outbox|payment_reservations)"|update (policy_verdicts|payment_intents) |(with inserted as \()?insert into audit_inbox|with subscribed as)/
const executeIdPrefixes = new Set(['pvd', 'gtr', 'pob', 'rsv', 'aev', 'evt', 'pi'])

/** Prepares, then runs and records, one command a tenant, one at a time; each must have sent `count` writes. */
async function recordPerTenant(tenants: readonly BenchTenant[], prepare: (tenant: BenchTenant) => Promise<() => Promise<unknown>>, pattern: RegExp, count: number): Promise<RecordedStatement[][]> {
  const recorded: RecordedStatement[][] = []
  for (const tenant of tenants) {
    const command = await prepare(tenant)
    const { statements } = await recordStatements(command, (text) => pattern.test(text))
    if (statements.length !== count) throw new Error(`expected ${count} writes, recorded ${statements.length}: ${statements.map((statement) => statement.text.slice(0, 60)).join(' | ')}`)
    recorded.push(statements.map(withoutWakeUp))
  }
  return recorded
}

function gateChecksTiming() {
  const snapshot = passingGateSnapshot(new Date())
  for (let index = 0; index < 20_000; index += 1) runGate(snapshot)
  const samples = new Float64Array(gateRuns)
  for (let index = 0; index < gateRuns; index += 1) {
    const begin = process.hrtime.bigint()
    runGate(snapshot)
    samples[index] = Number(process.hrtime.bigint() - begin) / 1000
  }
  const sorted = Array.from(samples).sort((a, b) => a - b)
  return { runs: gateRuns, p50Us: round(percentile(sorted, 0.5), 2), p99Us: round(percentile(sorted, 0.99), 2), maxUs: round(sorted.at(-1)!, 2) }
}

async function main() {
  log('gate checks: in process')
  const checks = gateChecksTiming()
  log(`  p50 ${checks.p50Us} µs, p99 ${checks.p99Us} µs`)

  const server = await startBenchServer({ ...process.env, SERVICE_TOKEN_SECRET: serviceTokenSecret }, 'warn', { startWorkers: true })
  try {
    const { db } = server.runtime
    const ids = createIdSource()
    log(`setting up ${tenantCount} tenants (${server.engine})`)
    const tenants: BenchTenant[] = []
    for (let index = 0; index < tenantCount; index += 1) tenants.push(await setUpTenant(server, index))
    await db.orm.execute(sql`create table bench_baseline (id text primary key, tenant_id uuid not null, payload jsonb not null, created_at timestamptz not null)`)
    const insertBaseline = (tenantId: string, index: number) =>
      db.transaction((tx) => tx.execute(sql`insert into bench_baseline (id, tenant_id, payload, created_at) values (${ids.newId('event')}, ${tenantId}, ${JSON.stringify({ index })}::jsonb, now())`))

    // A distinct amount per proposal of a tenant: the same amount again would be a duplicate proposal.
    const amounts = new Map<string, number>()
    const nextAmount = (tenantId: string) => {
      const next = (amounts.get(tenantId) ?? 0) + 1
      amounts.set(tenantId, next)
      return `${Math.floor(next / 100) + 1}.${String(next % 100).padStart(2, '0')}`
    }
    const propose = (tenant: BenchTenant) =>
      server.runtime.payments.propose.propose(tenant.agentContext, {
        action_type: 'ach_outbound',
        source_account_id: tenant.accountId,
        destination_counterparty_id: tenant.counterpartyId,
        amount: nextAmount(tenant.tenantId),
        currency: 'EUR',
        confidence: 0.9,
      })
    const tenantFor = (worker: number, index: number) => tenants[(worker * 7919 + index) % tenants.length]!
    // The intents the measured proposals created, by tenant: the rows the execute floor's writes reference.
    const proposed = new Map<string, string[]>()
    const proposeKept = async (tenant: BenchTenant) => {
      const { outcome } = await propose(tenant)
      proposed.set(tenant.tenantId, [...(proposed.get(tenant.tenantId) ?? []), outcome.id])
    }

    log('warming up')
    await drive(Math.min(2, durationSeconds), (worker, index) => (index % 2 === 0 ? insertBaseline(tenantFor(worker, index).tenantId, index) : propose(tenantFor(worker, index))))
    await server.runtime.settleAudit()

    log(`baseline: bare single-row INSERT + commit, ${concurrency} callers, ${durationSeconds}s`)
    const baseline = await drive(durationSeconds, (worker, index) => insertBaseline(tenantFor(worker, index).tenantId, index))
    log(`proposal: ${tenants.length} tenants, ${concurrency} callers`)
    const proposal = await drive(durationSeconds, (worker, index) => proposeKept(tenantFor(worker, index)))
    await server.runtime.settleAudit()
    const halfRate = Math.max(1, Math.floor(proposal.perSecond / 2))
    log(`proposal at half load: ${halfRate}/s, open loop`)
    let next = 0
    const proposalHalf = await driveAtRate(durationSeconds, halfRate, () => proposeKept(tenants[next++ % tenants.length]!))
    await server.runtime.settleAudit()

    // The proposal's write floors (floor.ts, PostgreSQL): its own five writes, recorded from one real
    // proposal per tenant, replayed with fresh ids in one round trip; then grouped, `floorGroup` proposals
    // a transaction with one multi-row insert per table (group commit's best case).
    const proposalFloors = server.engine !== 'postgres' ? undefined : await (async () => {
      const writes = await recordPerTenant(tenants, async (tenant) => () => propose(tenant), proposalWritePattern, 5)
      // The intents these replays insert are kept too (writes[i] is tenants[i]'s), so the execute floor never runs out of them.
      const freshKept = (tenantId: string) => (values: readonly unknown[], map: Map<string, string>) =>
        freshValues(values, map, ids, {
          prefixes: proposalIdPrefixes,
          substitute: (_, prefix) => {
            if (prefix !== 'pi') return undefined
            const id = `pi_${ids.newId('event').slice('evt_'.length)}`
            proposed.set(tenantId, [...(proposed.get(tenantId) ?? []), id])
            return id
          },
        })
      log(`proposal floor: its ${writes[0]!.length} writes alone, one round trip`)
      const alone = await drive(durationSeconds, (worker, index) => {
        const which = (worker * 7919 + index) % writes.length
        return replayWrites(db, writes[which]!, freshKept(tenants[which]!.tenantId))
      })
      await server.runtime.settleAudit()
      const grouping = await groupingFor(db, ['payment_policy_decisions', 'payment_intents', 'agent_proposals'])
      log(`proposal floor, grouped: ${floorGroup} proposals' writes a transaction, one multi-row insert per table`)
      const grouped = await drive(durationSeconds, (worker, index) => {
        const members = groupMembers(worker, index, writes.length)
        return replayGrouped(db, grouping, members.map((which) => writes[which]!), (values, map, command) => freshKept(tenants[members[command]!]!.tenantId)(values, map))
      })
      await server.runtime.settleAudit()
      log(`proposal floor, grouped as sent: ${floorGroup} proposals' writes a transaction, each statement as its proposal sent it`)
      const groupedAsSent = await drive(durationSeconds, (worker, index) => {
        const members = groupMembers(worker, index, writes.length)
        return replayGroupedAsSent(db, members.map((which) => writes[which]!), (values, map, command) => freshKept(tenants[members[command]!]!.tenantId)(values, map))
      })
      await server.runtime.settleAudit()
      return { alone, grouped, groupedAsSent }
    })()

    // Execute: intents approved beforehand (proposed, then approved by the tenant's owner), one per call.
    const executeCount = Math.max(200, Math.ceil(proposal.perSecond * 0.6 * durationSeconds))
    log(`execute: preparing ${executeCount} approved intents`)
    const approved: Array<{ tenant: BenchTenant; id: string }> = []
    await drive(3600, async (worker, index) => {
      const tenant = tenantFor(worker, index)
      const { outcome } = await propose(tenant)
      await server.runtime.payments.decide.approve(tenant.ownerContext, { id: outcome.id })
      approved.push({ tenant, id: outcome.id })
    }, executeCount)
    await server.runtime.settleAudit()
    log(`baseline again, then execute: ${concurrency} callers`)
    const baselineAgain = await drive(durationSeconds, (worker, index) => insertBaseline(tenantFor(worker, index).tenantId, index))
    let taken = 0
    const execute = await drive(durationSeconds, async () => {
      const intent = approved[taken++]
      if (intent === undefined) return
      const { outcome } = await server.runtime.payments.gate.execute(intent.tenant.agentContext, { id: intent.id })
      if (!outcome.passed) throw new Error(`gate failed: ${outcome.checks.filter((check) => !check.passed).map((check) => check.name).join(', ')}`)
      if (outcome.status !== 'dispatching') throw new Error(`not dispatched: ${outcome.status}`)
    }, approved.length)

    await server.runtime.settleAudit()

    // The execute's write floor (PostgreSQL): its writes (the verdict and its use, the gate run, the
    // intent's move, the outbox row, the reservation, two audit events, the event; not the dispatch job,
    // which would set the worker dispatching), recorded from one real execute per tenant, replayed on the
    // intents the proposal workloads created (their foreign keys need a real intent), one round trip.
    const executeFloor = server.engine !== 'postgres' ? undefined : await (async () => {
      const writes = await recordPerTenant(
        tenants,
        async (tenant) => {
          const { outcome } = await propose(tenant)
          await server.runtime.payments.decide.approve(tenant.ownerContext, { id: outcome.id })
          return () => server.runtime.payments.gate.execute(tenant.agentContext, { id: outcome.id })
        },
        executeWritePattern,
        9,
      )
      const tenantOf = writes.map((statements) => String(statements[0]!.values[1]))
      // A grouped replay's fresh values: each command's intent one the proposal floors kept for its tenant.
      const freshFor = (members: readonly number[]) => (values: readonly unknown[], map: Map<string, string>, command: number) =>
        freshValues(values, map, ids, { prefixes: executeIdPrefixes, substitute: (_, prefix) => (prefix === 'pi' ? proposed.get(tenantOf[members[command]!]!)?.pop() : undefined) })
      log(`execute floor: its ${writes[0]!.length} writes alone, one round trip`)
      const alone = await drive(durationSeconds, (worker, index) => {
        const which = (worker * 7919 + index) % writes.length
        const substitute = (_: string, prefix: string) => (prefix === 'pi' ? proposed.get(tenantOf[which]!)?.pop() : undefined)
        return replayWrites(db, writes[which]!, (values, map) => freshValues(values, map, ids, { prefixes: executeIdPrefixes, substitute }))
      })
      await server.runtime.settleAudit()
      // Group commit's best case for executes too: eight executes' writes a transaction, merged as the proposals' are.
      const grouping = await groupingFor(db, ['policy_verdicts', 'payment_gate_runs', 'payment_outbox', 'payment_reservations'])
      log(`execute floor, grouped: ${floorGroup} executes' writes a transaction, one multi-row insert per table`)
      const grouped = await drive(durationSeconds, (worker, index) => {
        const members = groupMembers(worker, index, writes.length)
        return replayGrouped(
          db,
          grouping,
          members.map((which) => writes[which]!),
          freshFor(members),
        )
      })
      await server.runtime.settleAudit()
      log(`execute floor, grouped as sent: ${floorGroup} executes' writes a transaction, each statement as its execute sent it`)
      const groupedAsSent = await drive(durationSeconds, (worker, index) => {
        const members = groupMembers(worker, index, writes.length)
        return replayGroupedAsSent(
          db,
          members.map((which) => writes[which]!),
          freshFor(members),
        )
      })
      return { alone, grouped, groupedAsSent }
    })()

    const baselineMean = (baseline.perSecond + baselineAgain.perSecond) / 2
    const result = {
      engine: server.engine,
      concurrency,
      tenants: tenants.length,
      duration_s: durationSeconds,
      baseline_insert: baseline,
      proposal: { ...proposal, ratio: round(proposal.perSecond / baseline.perSecond, 3) },
      proposal_half_load: { ...proposalHalf, rate_per_s: halfRate },
      baseline_insert_before_execute: baselineAgain,
      execute: { ...execute, ratio: round(execute.perSecond / baselineAgain.perSecond, 3) },
      // What no implementation writing the same rows could beat (floor.ts): the command's writes alone, and
      // group commit's best case; against the mean of the run's two bare INSERT measurements.
      floors:
        proposalFloors === undefined || executeFloor === undefined
          ? null
          : {
              baseline_mean_per_s: round(baselineMean, 1),
              proposal_writes_alone: { ...proposalFloors.alone, ratio: round(proposalFloors.alone.perSecond / baselineMean, 3) },
              proposal_writes_grouped: groupedFloor(proposalFloors.grouped, baselineMean, 'proposals_per_second'),
              proposal_writes_grouped_as_sent: groupedFloor(proposalFloors.groupedAsSent, baselineMean, 'proposals_per_second'),
              execute_writes_alone: { ...executeFloor.alone, ratio: round(executeFloor.alone.perSecond / baselineMean, 3) },
              execute_writes_grouped: groupedFloor(executeFloor.grouped, baselineMean, 'executes_per_second'),
              execute_writes_grouped_as_sent: groupedFloor(executeFloor.groupedAsSent, baselineMean, 'executes_per_second'),
            },
      gate_checks_in_process: checks,
      targets: { proposal_ratio_min: 0.5, proposal_half_load_p99_ms_max: 15, execute_ratio_min: 0.3, gate_checks_p99_us_max: 200 },
    }
    mkdirSync(dirname(values.output), { recursive: true })
    writeFileSync(values.output, `${JSON.stringify(result, null, 2)}\n`)
    log(`\n${server.engine}, ${concurrency} callers, ${tenants.length} tenants, ${durationSeconds}s each`)
    log(`  bare INSERT + commit     ${baseline.perSecond}/s  p99 ${baseline.p99Ms} ms`)
    log(`  governed proposal        ${proposal.perSecond}/s  p99 ${proposal.p99Ms} ms  ×${result.proposal.ratio}  (errors ${proposal.errors})`)
    log(`  proposal at ${halfRate}/s       p50 ${proposalHalf.p50Ms} ms  p99 ${proposalHalf.p99Ms} ms  (errors ${proposalHalf.errors})`)
    log(`    meanwhile: ${describePauses(proposalHalf.pauses)}`)
    log(`  bare INSERT (again)      ${baselineAgain.perSecond}/s`)
    log(`  execute (gate)           ${execute.perSecond}/s  p99 ${execute.p99Ms} ms  ×${result.execute.ratio}  (errors ${execute.errors})`)
    log(`  23 checks in process     p50 ${checks.p50Us} µs  p99 ${checks.p99Us} µs`)
    const { floors } = result
    if (floors !== null) {
      log(`  floors (the command's writes alone, fresh ids, one round trip; ratios against the bare mean, ${floors.baseline_mean_per_s}/s):`)
      log(`    proposal's 5 writes    ${floors.proposal_writes_alone.perSecond}/s  ×${floors.proposal_writes_alone.ratio}  (errors ${floors.proposal_writes_alone.errors})`)
      log(`    ${floorGroup} grouped, multi-row  ${floors.proposal_writes_grouped.proposals_per_second} proposals/s  ×${floors.proposal_writes_grouped.ratio}  (errors ${floors.proposal_writes_grouped.errors})`)
      log(`    ${floorGroup} grouped, as sent    ${floors.proposal_writes_grouped_as_sent.proposals_per_second} proposals/s  ×${floors.proposal_writes_grouped_as_sent.ratio}  (errors ${floors.proposal_writes_grouped_as_sent.errors})`)
      log(`    execute's 9 writes     ${floors.execute_writes_alone.perSecond}/s  ×${floors.execute_writes_alone.ratio}  (errors ${floors.execute_writes_alone.errors})`)
      log(`    ${floorGroup} grouped, multi-row  ${floors.execute_writes_grouped.executes_per_second} executes/s  ×${floors.execute_writes_grouped.ratio}  (errors ${floors.execute_writes_grouped.errors})`)
      log(`    ${floorGroup} grouped, as sent    ${floors.execute_writes_grouped_as_sent.executes_per_second} executes/s  ×${floors.execute_writes_grouped_as_sent.ratio}  (errors ${floors.execute_writes_grouped_as_sent.errors})`)
    }
    log(`written to ${values.output}`)
  } finally {
    await server.close()
  }
}

await main()
