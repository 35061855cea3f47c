/**
 * Issue 17's crash-injection test: the execution worker, as a real process on PostgreSQL, is killed with
 * SIGKILL at each moment of a dispatch (`claimed`, `rail_answered`, `before_commit`, `committed`, the
 * points dispatch.service.ts publishes on `steward:execution:step`) 25 times per moment, a new worker
 * process taking over after each kill; afterwards no outbox row is lost and no rail effect is doubled.
 *
 * How. One tenant's promoted agent proposes small bank_ach payments that its policy approves on its own,
 * and executes them: the gate writes each outbox row and enqueues its dispatch job. This test process runs
 * no worker; it keeps proposing and executing intents so that a few rows are always there to take up.
 * Worker processes (test/support/job-worker-process.ts with only the execution module's workers: dispatch
 * jobs in batches of the default size, the sweeper, the sandbox ACH provider's settlement) run one at a time, each
 * preloaded with test/support/crash-at-execution-step.ts, which kills it the 1st or 2nd time it reaches
 * its moment — the moments in turn — on whichever row it is then dispatching: one process boot per kill,
 * the next processes booting while the current one runs. A process dies with whatever else it had in
 * hand: other rows claimed, a settlement half delivered, its pg-boss jobs active. So the next ones meet
 * leases to wait out (5 s), transfers the provider made but Steward never recorded (taken up again before
 * their settlement 15 s later: the new attempt asks the rail, finds the transfer and does not submit), a
 * settlement webhook racing that new attempt, dead workers' jobs retried, and rows killed again on a
 * retried attempt. After the last kill, one more process (not killed) drains what is left.
 *
 * What is asserted at the end, for every intent of the run:
 * - its outbox row is `done` (none lost, none stuck), the intent `executed`, its reservation consumed;
 * - exactly one execution for the outbox row, `completed` with the row's key, its lease released, its
 *   attempts matching its audit (one `execution.created`, `attempts - 1` `execution.attempt_started`, at
 *   most one `execution.awaiting_settlement`, one `execution.completed`; no failure, retry or parking);
 * - exactly one settlement receipt, naming the transfer, the one the intent lists; one
 *   `payment_intent.executed` audit event and one `payment_intent.executed` business event;
 * - exactly one sandbox ACH transfer for the intent, under the row's key, for the intent's amount, settled,
 *   with `duplicate_submits` 0 (no attempt ever submitted a key the provider already had), and no transfer,
 *   execution or receipt of the tenant beyond one per row;
 * - each kill happened where it was asked and by SIGKILL, 25 per moment, and a row killed at `claimed`
 *   took more attempts than it was killed there (someone reached the rail after the last such kill).
 *
 * What it does not prove: safety with two live workers racing one row (one worker lives at a time here;
 * the row lock and the lease cover that, and execution.test.ts drives it in one process), a lease running
 * out under a live worker (5 s is far longer than an attempt, which is why zero duplicate submits can be
 * asserted), or anything about the database itself failing. Amounts avoid the sandbox's declines, returns
 * and outages (last minor digits 91–95): every intent is meant to settle.
 *
 * PostgreSQL only: PGlite serves one process, so no worker process can share its database.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrationsFolder, queryRows } from '../../../src/platform/db/database.ts'
import { dispatchSteps, type DispatchStep } from '../../../src/modules/execution/index.ts'
import type { CrashLogLine } from '../../support/crash-at-execution-step.ts'
import { auditEvents } from '../../support/audit-log.ts'
import { createTestApp, testDatabaseUrl, type TestApp } from '../../support/harness.ts'
import { isolatedDatabase, type IsolatedDatabase } from '../../support/isolated-database.ts'
import { approvedIntent, business, type Business } from '../../support/payments.ts'
import { nodeCommand, repositoryRoot } from '../../support/server-process.ts'

const onPostgres = testDatabaseUrl() !== undefined

/** The issue's bar: kills at each moment of a dispatch. */
const killsPerStep = 25
/** Which time the process reaches its moment it dies at: the first, or after it has done the same for other rows. */
const occurrences = [1, 2] as const
/** Processes booting ahead of the one running: a boot is most of a kill's cost, and a machine has two cores. */
const standbyProcesses = 2
/**
 * The test keeps at least this many outbox rows dispatchable (pending, or an attempt that awaits no
 * settlement, now or once a dead worker's lease runs out), so each process soon finds its moment.
 */
const dispatchableRowsMin = 8
const intentsPerTopUp = 8
/** Intents proposed and executed at once by this process (each is a few transactions; the gate serializes little). */
const intentsInParallel = 4
/** Bounds for a shared, busy machine: none is expected to be approached. */
const bootTimeoutMs = 300_000
const killTimeoutMs = 180_000
const drainTimeoutMs = 300_000

const achSecret = 'test-ach-webhook-secret-crash-0123456789abcdef'
/**
 * The workers' settings: a lease far longer than an attempt takes (claim to answer is milliseconds, so a
 * live worker never loses its attempt to a sweeper) yet short enough that a dead worker's rows come back
 * within a boot or two; a sweep every 200 ms taking up any pending row; settlement 15 s after a transfer
 * is created, longer than a lease, so a row whose worker died after the rail acted is usually taken up
 * again before its settlement (the new attempt asks the rail and finds the transfer), and sometimes settles
 * by the provider's webhook first.
 */
const workerSettings = { leaseSeconds: 5, sweepIntervalMs: 200, pendingGraceSeconds: 0, sweepRowsMax: 20, sandboxAch: { settleAfterSeconds: 15, returnAfterSeconds: 15 } }

interface Kill {
  readonly step: DispatchStep
  readonly occurrence: number
}

interface WorkerProcess {
  readonly child: ChildProcessWithoutNullStreams
  readonly kill: Kill | undefined
  /** Resolves when the runtime is built and the process waits to start its workers. */
  readonly ready: Promise<void>
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  start(): void
  output(): string
}

/** How a worker process is started: node on the bundled entry when esbuild is at hand, else node with tsx. */
type WorkerCommand = (crash: boolean) => readonly [string, readonly string[]]

interface Esbuild {
  build(options: Record<string, unknown>): Promise<unknown>
}

/**
 * Bundles the worker entry with its packages, and the crash preload, into one file each (esbuild, which
 * tsx itself runs on): a process then parses one file instead of resolving and loading some thousands
 * through tsx's loader: a boot then takes about 1.3 s of CPU instead of 5–7 s (measured on the 2-core
 * machine the test was written on), and a boot is what each of the hundred kills costs. Left outside the bundle: PGlite (it loads its WebAssembly beside its own module; unused on
 * PostgreSQL) and optional packages that are not installed. The bundle lives in the repository's ignored
 * `.test-results/` with `migrations` linked beside it, since the migrator reads them next to the database
 * module. Without esbuild, the same entry runs through tsx, only slower.
 */
async function workerCommand(directory: string): Promise<{ command: WorkerCommand; bundled: boolean }> {
  const esbuildName = 'esbuild'
  const esbuild = (await import(esbuildName).catch(() => undefined)) as Esbuild | undefined
  if (esbuild === undefined) {
    return { bundled: false, command: (crash) => nodeCommand('test/support/job-worker-process.ts', crash ? ['test/support/crash-at-execution-step.ts'] : []) }
  }
  await esbuild.build({
    entryPoints: { worker: join(repositoryRoot, 'test/support/job-worker-process.ts'), crash: join(repositoryRoot, 'test/support/crash-at-execution-step.ts') },
    outdir: directory,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['@electric-sql/pglite', '@electric-sql/pglite/*', 'pg-native', 'pino-pretty'],
    // Bundled CommonJS packages require node's own modules; an ES module has no `require` of its own.
    banner: { js: "import { createRequire as createRequireOfBundle } from 'node:module'; const require = createRequireOfBundle(import.meta.url);" },
    logLevel: 'warning',
  })
  symlinkSync(migrationsFolder, join(directory, 'migrations'))
  return { bundled: true, command: (crash) => [process.execPath, [...(crash ? ['--import', join(directory, 'crash.mjs')] : []), join(directory, 'worker.mjs')]] }
}

async function waitFor<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>, describeState: () => Promise<string> = async () => ''): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}. ${await describeState()}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

function withTimeout<T>(promise: Promise<T>, timeoutMs: number, failure: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(failure())), timeoutMs)))
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

const seconds = (fromMs: number, toMs: number) => Math.round((toMs - fromMs) / 100) / 10

describe.skipIf(!onPostgres)('the execution worker killed at each moment of a dispatch (PostgreSQL: worker processes share the database)', () => {
  let database: IsolatedDatabase
  let test: TestApp
  let b: Business
  let directory: string
  let dataDir: string
  let command: WorkerCommand
  let bundled: boolean
  const children: ChildProcessWithoutNullStreams[] = []

  beforeAll(async () => {
    // Its own database: the workers' sweeper takes up every tenant's due executions, other test files' included.
    database = await isolatedDatabase('execution_crash')
    test = await createTestApp({ env: { ACH_WEBHOOK_SECRET: achSecret, DATABASE_URL: database.url } })
    b = await business(test, '1000000.00')
    // Some 250 proposals and executes from one agent in a few minutes: past the free tier's burst, so this tenant is unthrottled (as races.test.ts).
    await test.runtime.db.orm.execute(sql`update tenants set rate_limit_tier = 'enterprise', rate_limit_per_minute = 1000000000, rate_limit_burst = 1000000000 where id = ${b.owner.tenantId}`)
    await test.runtime.settleAudit()
    mkdirSync(join(repositoryRoot, '.test-results'), { recursive: true })
    directory = mkdtempSync(join(repositoryRoot, '.test-results', 'execution-crash-'))
    dataDir = mkdtempSync(join(tmpdir(), 'steward-execution-crash-'))
    ;({ command, bundled } = await workerCommand(directory))
  })

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    await test?.close()
    await database?.drop()
    if (directory !== undefined) rmSync(directory, { recursive: true, force: true })
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true })
  })

  const db = () => test.runtime.db.orm
  const crashLog = () => join(directory, 'kills.jsonl')
  const killsLogged = (): CrashLogLine[] => {
    try {
      return readFileSync(crashLog(), 'utf8').split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as CrashLogLine)
    } catch {
      return []
    }
  }

  /** Starts booting a worker process that dies at `kill` (or, without one, runs until stopped). */
  function spawnWorker(kill: Kill | undefined): WorkerProcess {
    const [executable, args] = command(kill !== undefined)
    const child = spawn(executable, args, {
      cwd: repositoryRoot,
      env: {
        PATH: process.env.PATH ?? '',
        DATABASE_URL: database.url,
        JOB_SCHEMA: test.jobSchema,
        DATA_DIR: dataDir,
        WORKERS: 'execution',
        EXECUTION_SETTINGS: JSON.stringify(workerSettings),
        ACH_WEBHOOK_SECRET: achSecret,
        START_ON_STDIN: 'true',
        ...(kill === undefined
          ? {}
          : { STEWARD_TEST_CRASH_AT_STEP: kill.step, STEWARD_TEST_CRASH_AT_OCCURRENCE: String(kill.occurrence), STEWARD_TEST_CRASH_LOG: crashLog() }),
      },
    })
    children.push(child)
    // A process that died before it was told to start: the write fails, and the test reports its exit.
    child.stdin.on('error', () => undefined)
    let output = ''
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
    const ready = new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString()
        if (output.includes('runtime ready')) resolve()
      })
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
      void exited.then(({ code, signal }) => reject(new Error(`a worker process exited before it was ready (code ${code}, signal ${signal}):\n${output}`)))
    })
    // Awaited when its turn comes; until then a failure must not count as unhandled.
    ready.catch(() => undefined)
    return { child, kill, ready, exited, start: () => child.stdin.write('start\n'), output: () => output }
  }

  let intentsMade = 0
  /** Approved intents of distinct amounts (never ending in 91–95: each settles), each executed: its outbox row pending. */
  async function executeIntents(count: number): Promise<void> {
    // The gate refuses while an audit event has waited five minutes to be linked; no process here runs the sequencer.
    await test.runtime.settleAudit()
    const serials = Array.from({ length: count }, () => intentsMade++)
    for (let from = 0; from < serials.length; from += intentsInParallel) {
      await Promise.all(
        serials.slice(from, from + intentsInParallel).map(async (serial) => {
          const amount = `${10 + Math.floor(serial / 90)}.${String(serial % 90).padStart(2, '0')}`
          const id = await approvedIntent(test, b, { amount })
          const response = await test.request({ method: 'POST', url: `/v1/payment-intents/${id}/execute`, token: b.agent })
          expect(response.statusCode, response.body).toBe(202)
        }),
      )
    }
  }

  /** Outbox rows a worker can take up: never claimed, or an attempt awaiting no settlement (after its lease, if a dead worker holds one). */
  async function dispatchableRows(): Promise<number> {
    const [row] = await queryRows<{ count: number }>(
      db(),
      sql`select count(*)::int as count
            from payment_outbox o left join executions e on e.tenant_id = o.tenant_id and e.outbox_id = o.id
           where o.tenant_id = ${b.owner.tenantId} and o.status <> 'done'
             and (e.id is null or (e.status = 'in_flight' and e.rail_reference is null and e.parked_reason is null))`,
    )
    return row!.count
  }

  /** Where the tenant's rows and the execution queues stand (for a timeout's message, and the drain's end). */
  async function standing() {
    const [row] = await queryRows<{ not_done: number; not_executed: number; open_jobs: number }>(
      db(),
      sql`select
            (select count(*) from payment_outbox where tenant_id = ${b.owner.tenantId} and status <> 'done')::int as not_done,
            (select count(*) from payment_intents where tenant_id = ${b.owner.tenantId} and status <> 'executed')::int as not_executed,
            (select count(*) from ${sql.identifier(test.jobSchema)}.job
              where name in ('execution-dispatch', 'execution-sandbox-ach-settle') and state in ('created', 'retry', 'active'))::int as open_jobs`,
    )
    return row!
  }

  it(
    `loses no outbox row and doubles no rail effect, with ${killsPerStep} kills at each of ${dispatchSteps.join(', ')}`,
    async () => {
      const startedAt = Date.now()
      const plan: Kill[] = Array.from({ length: killsPerStep * dispatchSteps.length }, (_, index) => ({
        step: dispatchSteps[index % dispatchSteps.length]!,
        occurrence: occurrences[Math.floor(index / dispatchSteps.length) % occurrences.length]!,
      }))
      const turns: Array<Kill | undefined> = [...plan, undefined]
      const booting: WorkerProcess[] = []
      let spawned = 0
      const bootAhead = () => {
        while (booting.length < standbyProcesses && spawned < turns.length) booting.push(spawnWorker(turns[spawned++]))
      }
      bootAhead()
      // Intents are proposed and executed alongside, as the API would while workers run: never fewer than
      // a few rows to take up. A failure here ends the test at the next kill.
      let feeding = true
      let feedingFailure: unknown
      const fed = (async () => {
        while (feeding) {
          if ((await dispatchableRows()) < dispatchableRowsMin) await executeIntents(intentsPerTopUp)
          else await new Promise((resolve) => setTimeout(resolve, 250))
        }
      })().catch((error: unknown) => {
        feedingFailure = error
      })
      let bootWaitMs = 0
      let runToKillMs = 0

      try {
        for (const [index, kill] of plan.entries()) {
          const worker = booting.shift()!
          bootAhead()
          const waitedFrom = Date.now()
          await withTimeout(worker.ready, bootTimeoutMs, () => `worker process ${index} did not boot:\n${worker.output()}`)
          const logged = killsLogged().length
          worker.start()
          const startedFrom = Date.now()
          bootWaitMs += startedFrom - waitedFrom
          const exit = await withTimeout(worker.exited, killTimeoutMs, () => `worker process ${index} was not killed at ${kill.step} (occurrence ${kill.occurrence}) within ${killTimeoutMs} ms:\n${worker.output()}`)
          runToKillMs += Date.now() - startedFrom
          expect(exit, worker.output()).toEqual({ code: null, signal: 'SIGKILL' })
          const kills = killsLogged()
          expect(kills).toHaveLength(logged + 1)
          expect(kills.at(-1)).toMatchObject({ point: kill.step, occurrence: kill.occurrence, tenantId: b.owner.tenantId, pid: worker.child.pid })
          if (feedingFailure !== undefined) throw feedingFailure
        }
      } finally {
        feeding = false
        await fed
      }
      const killsDoneAt = Date.now()
      if (feedingFailure !== undefined) throw feedingFailure

      // One more process, not killed, takes up what the dead ones left: expired leases, pending rows and
      // settlements to deliver. (Dead workers' jobs come back after their heartbeat and pg-boss's backoff,
      // up to minutes; many did during the kills, and a row they name is answered `settled` by then.)
      const drain = booting.shift()!
      expect(drain.kill).toBeUndefined()
      await withTimeout(drain.ready, bootTimeoutMs, () => `the draining worker process did not boot:\n${drain.output()}`)
      drain.start()
      await waitFor(
        'every row done and every intent executed',
        drainTimeoutMs,
        async () => {
          const now = await standing()
          return now.not_done === 0 && now.not_executed === 0 ? true : undefined
        },
        async () => `${JSON.stringify(await standing())}\n${drain.output()}`,
      )
      const drainedAt = Date.now()
      drain.child.kill('SIGTERM')
      await drain.exited
      await test.runtime.settleAudit()

      const tenantId = b.owner.tenantId
      const [outbox, intents, reservations, executions, receipts, transfers, executedEvents] = await Promise.all([
        queryRows<{ id: string; payment_intent_id: string; idempotency_key: string; status: string }>(db(), sql`select id, payment_intent_id, idempotency_key, status from payment_outbox where tenant_id = ${tenantId}`),
        queryRows<{ id: string; status: string; amount: string; execution_receipt_ids: string[] }>(db(), sql`select id, status, amount::text as amount, execution_receipt_ids from payment_intents where tenant_id = ${tenantId}`),
        queryRows<{ payment_intent_id: string; status: string }>(db(), sql`select payment_intent_id, status from payment_reservations where tenant_id = ${tenantId}`),
        queryRows<{ id: string; outbox_id: string; payment_intent_id: string; idempotency_key: string; status: string; attempts: number; rail_reference: string | null; parked_reason: string | null; claimed_by: string | null; lease_until: Date | null }>(
          db(),
          sql`select id, outbox_id, payment_intent_id, idempotency_key, status, attempts, rail_reference, parked_reason, claimed_by, lease_until from executions where tenant_id = ${tenantId}`,
        ),
        queryRows<{ id: string; execution_id: string; kind: string; transfer_id: string | null }>(db(), sql`select id, execution_id, kind, receipt->>'transfer_id' as transfer_id from execution_receipts where tenant_id = ${tenantId}`),
        queryRows<{ id: string; payment_intent_id: string; idempotency_key: string; status: string; amount: string; duplicate_submits: number; created_at: Date }>(
          db(),
          sql`select id, payment_intent_id, idempotency_key, status, amount::text as amount, duplicate_submits, created_at from sandbox_ach_transfers where tenant_id = ${tenantId}`,
        ),
        queryRows<{ payment_intent_id: string }>(db(), sql`select payload->>'payment_intent_id' as payment_intent_id from events where tenant_id = ${tenantId} and event_type = 'payment_intent.executed'`),
      ])
      const audit = await auditEvents(test, tenantId, {
        actions: ['execution.created', 'execution.attempt_started', 'execution.awaiting_settlement', 'execution.completed', 'execution.failed', 'execution.retry_scheduled', 'execution.parked', 'payment_intent.executed'],
      })
      const groupBy = <T>(rows: readonly T[], key: (row: T) => string) => {
        const groups = new Map<string, T[]>()
        for (const row of rows) groups.set(key(row), [...(groups.get(key(row)) ?? []), row])
        return groups
      }
      const countBy = <T>(rows: readonly T[], key: (row: T) => string) => new Map([...groupBy(rows, key)].map(([name, group]) => [name, group.length]))
      const auditCounts = countBy(audit, (event) => `${event.entity_id} ${event.action}`)
      const auditCount = (entityId: string, action: string) => auditCounts.get(`${entityId} ${action}`) ?? 0

      expect(intents).toHaveLength(intentsMade)
      expect(outbox).toHaveLength(intentsMade)
      expect(outbox.filter((row) => row.status !== 'done')).toEqual([])
      expect(intents.filter((intent) => intent.status !== 'executed')).toEqual([])
      expect(reservations).toHaveLength(intentsMade)
      expect(reservations.filter((reservation) => reservation.status !== 'consumed')).toEqual([])
      // Nothing the rail did or Steward recorded belongs to no row: as many executions and transfers as rows.
      expect(executions).toHaveLength(outbox.length)
      expect(transfers).toHaveLength(outbox.length)
      expect(receipts).toHaveLength(outbox.length)
      expect(executedEvents).toHaveLength(outbox.length)

      const intentById = new Map(intents.map((intent) => [intent.id, intent]))
      const executionsByOutbox = groupBy(executions, (execution) => execution.outbox_id)
      const transfersByIntent = groupBy(transfers, (transfer) => transfer.payment_intent_id)
      const receiptsByExecution = groupBy(receipts, (receipt) => receipt.execution_id)
      const executedEventsByIntent = countBy(executedEvents, (event) => event.payment_intent_id)
      for (const row of outbox) {
        const intent = intentById.get(row.payment_intent_id)!
        const rowExecutions = executionsByOutbox.get(row.id) ?? []
        expect(rowExecutions, `outbox row ${row.id}: one execution`).toHaveLength(1)
        const execution = rowExecutions[0]!
        expect(execution, `outbox row ${row.id}`).toMatchObject({ payment_intent_id: intent.id, idempotency_key: row.idempotency_key, status: 'completed', parked_reason: null, claimed_by: null, lease_until: null })

        const rowTransfers = transfersByIntent.get(intent.id) ?? []
        expect(rowTransfers, `intent ${intent.id}: one transfer`).toHaveLength(1)
        const transfer = rowTransfers[0]!
        expect(transfer, `intent ${intent.id}`).toMatchObject({ idempotency_key: row.idempotency_key, amount: intent.amount, status: 'settled', duplicate_submits: 0 })
        // The reference is recorded when the worker saw the transfer pending; an execution completed straight
        // from a settled answer (the webhook, or a retried attempt asking the rail) has only its receipt.
        expect([null, transfer.id], `outbox row ${row.id}`).toContain(execution.rail_reference)

        const executionReceipts = receiptsByExecution.get(execution.id) ?? []
        expect(executionReceipts, `execution ${execution.id}: one receipt`).toHaveLength(1)
        expect(executionReceipts[0]).toMatchObject({ kind: 'settlement', transfer_id: transfer.id })
        expect(intent.execution_receipt_ids).toEqual([executionReceipts[0]!.id])
        expect(executedEventsByIntent.get(intent.id), `intent ${intent.id}: one payment_intent.executed event`).toBe(1)

        expect(
          {
            created: auditCount(execution.id, 'execution.created'),
            attemptsStarted: auditCount(execution.id, 'execution.attempt_started'),
            completed: auditCount(execution.id, 'execution.completed'),
            failed: auditCount(execution.id, 'execution.failed'),
            retries: auditCount(execution.id, 'execution.retry_scheduled'),
            parked: auditCount(execution.id, 'execution.parked'),
            executed: auditCount(intent.id, 'payment_intent.executed'),
          },
          `execution ${execution.id}: its audit`,
        ).toEqual({ created: 1, attemptsStarted: execution.attempts - 1, completed: 1, failed: 0, retries: 0, parked: 0, executed: 1 })
        expect(auditCount(execution.id, 'execution.awaiting_settlement')).toBeLessThanOrEqual(1)
      }

      // The kills happened where asked, and the recovery they call for ran.
      const kills = killsLogged()
      const killsByStep = Object.fromEntries(dispatchSteps.map((step) => [step, kills.filter((kill) => kill.point === step).length]))
      expect(killsByStep).toEqual(Object.fromEntries(dispatchSteps.map((step) => [step, killsPerStep])))
      const executionByOutbox = new Map(executions.map((execution) => [execution.outbox_id, execution]))
      const killedAtClaim = countBy(kills.filter((kill) => kill.point === 'claimed'), (kill) => kill.outboxId)
      for (const [outboxId, times] of killedAtClaim) {
        expect(executionByOutbox.get(outboxId)!.attempts, `outbox row ${outboxId} was killed ${times} time(s) at claimed`).toBeGreaterThan(times)
      }

      const attempts = executions.map((execution) => execution.attempts)
      // How the dead attempts' transfers were met: by a later attempt that asked the rail (it began after the
      // transfer existed), or only by the settlement webhook (completed with no attempt after the transfer).
      const transferByIntent = new Map(transfers.map((transfer) => [transfer.payment_intent_id, transfer]))
      const attemptStarts = groupBy(audit.filter((event) => event.action === 'execution.attempt_started'), (event) => event.entity_id)
      const foundByAsking = executions.filter((execution) => {
        const made = new Date(transferByIntent.get(execution.payment_intent_id)!.created_at).getTime()
        return (attemptStarts.get(execution.id) ?? []).some((event) => new Date(event.created_at).getTime() > made)
      }).length
      console.info(
        `[postgres] ${plan.length} worker processes killed (${dispatchSteps.map((step) => `${step} ${killsByStep[step]}`).join(', ')}; on the 1st or 2nd time each reached its moment) ` +
          `over ${new Set(kills.map((kill) => kill.outboxId)).size} distinct outbox rows of ${outbox.length}; ` +
          `${attempts.filter((count) => count > 1).length} executions took more than one attempt (at most ${Math.max(...attempts)}), ` +
          `${foundByAsking} of them began an attempt after their transfer existed (it asked the rail and found it); ` +
          `${intentsMade} intents; kills ${seconds(startedAt, killsDoneAt)} s (waiting for boots ${seconds(0, bootWaitMs)} s, started to killed ${seconds(0, runToKillMs)} s), drain ${seconds(killsDoneAt, drainedAt)} s ` +
          `(workers ${bundled ? 'bundled with esbuild' : 'run through tsx'}, ${standbyProcesses} booting ahead)`,
      )
    },
    60 * 60_000,
  )
})

describe.skipIf(onPostgres)('the execution worker killed at each moment of a dispatch, on PGlite', () => {
  it.skip('needs PostgreSQL: run with TEST_DATABASE_URL (PGlite serves one process, so no worker process can share its database and be killed)', () => {})
})
