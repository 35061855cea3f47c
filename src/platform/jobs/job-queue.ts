/**
 * Durable jobs on pg-boss, in the same database as the data. A job is enqueued inside the business
 * transaction (`enqueue(tx, …)`), so it exists exactly when the change that asked for it committed.
 * pg-boss owns its own schema (default `pgboss`) and installs or upgrades it at start.
 *
 * A job whose worker died (kill -9, out of memory, a lost host) is made retryable within about half a
 * minute, not after its queue's expiry (up to 15 minutes), and a live job is never taken from its worker:
 *
 * - PostgreSQL (several processes): every queue has a pg-boss heartbeat. While a handler runs, its
 *   worker touches the job every jobHeartbeatRefreshSeconds; pg-boss's supervisor, every
 *   superviseIntervalSeconds in each process (one pass per interval across them), fails for retry a
 *   job untouched for jobHeartbeatSeconds. A live job is touched however long it runs (up to its
 *   expiry); a dead worker's job is retried about half a minute after the worker died.
 * - PGlite (one process: the data directory is locked to it, see db/database.ts): a job still active
 *   when the queue starts belongs to a process that no longer exists, so start fails every such job for
 *   retry at once. No heartbeat here: its touch would queue behind a long transaction on the one
 *   connection, and a supervisor pass that ran first could take a live job from its worker.
 *
 * A reclaim is a failed attempt in pg-boss's accounting: it uses one of the queue's retries, like a
 * handler's error or the expiry. A job is idempotent, so running it again is safe, and a job that kills
 * its worker every time (a file that runs it out of memory) stops after retryLimit reclaims instead of
 * taking down a worker forever.
 */
import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { fromDrizzle, PgBoss, type Job, type JobResult, type QueueOptions } from 'pg-boss'
import type { Logger } from 'pino'
import type { Static, TObject } from 'typebox'
import { Compile } from 'typebox/compile'
import type { Database, Tx } from '../db/database.ts'
import { assert } from '../../kernel/assert.ts'

/** How pg-boss runs a queue's jobs: retries, backoff, expiry, and `singleton` for one at a time. */
export type QueuePolicy = QueueOptions & { readonly policy?: 'standard' | 'singleton' }

/**
 * A queue as the module that owns it declares it (in its `<module>.jobs.ts`): its name, its payload's
 * schema and version, and its policy. Composition hands every module's queues to the job queue, which
 * creates them at start; nothing outside the owning module names a queue.
 *
 * A job's data is its payload plus `v`, the payload version. A worker runs only jobs of its version that
 * match the schema: anything else fails (and is retried per the policy), so during a rolling deploy a job
 * of a newer version waits for a newer worker instead of being misread. Jobs enqueued before versions
 * existed have no `v` and are read as version 1.
 */
export interface QueueDefinition<Payload> {
  readonly name: string
  readonly version: number
  readonly payload: TObject
  readonly policy: QueuePolicy
  /** Type only: the payload as handlers see it. */
  readonly __payload?: Payload
}

export function defineQueue<Schema extends TObject>(definition: {
  name: string
  version: number
  payload: Schema
  policy: QueuePolicy
}): QueueDefinition<Static<Schema>> {
  return definition
}

/** Any queue, whatever its payload. */
export type AnyQueue = QueueDefinition<any>

export type PayloadOf<Q> = Q extends QueueDefinition<infer Payload> ? Payload : never

/** A job as a handler sees it: pg-boss's job with the payload checked and its version field removed. */
export type QueuedJob<Payload> = Omit<Job<Payload>, 'data'> & { readonly data: Payload }

export type JobHandler<Payload> = (job: QueuedJob<Payload>) => Promise<void>

/** How many retries a queue allows after the first attempt; a job whose retryCount reaches it is on its last try. */
export function retryLimitOf(queue: AnyQueue): number {
  return queue.policy.retryLimit ?? 0
}

/**
 * PostgreSQL: a running job untouched this long is taken to have lost its worker (pg-boss's minimum is
 * 10). With a touch every jobHeartbeatRefreshSeconds, a worker must miss three touches in a row (an
 * event loop or pool stalled for 15 s) before its live job is retried elsewhere.
 */
export const jobHeartbeatSeconds = 20
export const jobHeartbeatRefreshSeconds = 5
/**
 * PostgreSQL: how often pg-boss's supervisor looks for expired and abandoned jobs (its default is 60 s).
 * Each pass also counts every queue's jobs (one scan of the job table, 0.19 s at a million jobs by
 * pg-boss's own measurement, and pg-boss backs off when the scans grow long); once every ten seconds
 * across all processes is the price of a dead worker's job being retried within
 * jobHeartbeatSeconds + superviseIntervalSeconds + the queue's retry delay.
 */
export const superviseIntervalSeconds = 10

/**
 * PostgreSQL: the channel on which `nudge` reaches the workers of other processes (a NOTIFY whose payload
 * names the pg-boss schema, the queue and the sending process), and how often one process sends it per
 * queue at most. PostgreSQL serializes notifying commits on one global lock, so the NOTIFY is its own
 * statement after the business commit, never inside it; a nudge within the interval of the last is sent
 * once at the interval's end, so another process's worker hears of a committed job within
 * jobWakeIntervalMs plus a round trip, instead of at its next poll.
 */
export const jobWakeChannel = 'steward_job_wake'
export const jobWakeIntervalMs = 10

const nilUuid = '00000000-0000-0000-0000-000000000000'

export interface EnqueueOptions {
  readonly startAfterSeconds?: number
  readonly singletonKey?: string
  /** The job's id, chosen by the caller (a UUID); pg-boss makes one when absent. */
  readonly id?: string
}

export interface JobQueue {
  /** Installs or upgrades the pg-boss schema and creates every registered queue. */
  start(): Promise<void>
  /**
   * Enqueues inside the caller's transaction: the job exists exactly when the transaction commits. Returns
   * the job's id: `options.id` (a UUID) when the caller named it beforehand, so that a record written
   * before the enqueue (a command's audit event) can cite the job.
   */
  enqueue<Payload>(tx: Tx, queue: QueueDefinition<Payload>, data: Payload, options?: EnqueueOptions): Promise<string>
  /** `enqueue` for several jobs of one queue in one statement. */
  enqueueMany<Payload>(tx: Tx, queue: QueueDefinition<Payload>, jobs: ReadonlyArray<{ readonly data: Payload; readonly options?: EnqueueOptions }>): Promise<void>
  /**
   * Runs `handler` for the queue's jobs, up to `concurrency` at once (default 1). While fetches come
   * back full, the worker fetches again at once instead of waiting out the polling interval, so a
   * backlog drains at handler speed; each job succeeds or fails (and retries) on its own.
   */
  work<Payload>(queue: QueueDefinition<Payload>, handler: JobHandler<Payload>, options?: { pollingIntervalSeconds?: number; concurrency?: number }): Promise<void>
  /**
   * `work` for a handler that takes the fetched jobs together (up to `batchSize`, default 4; `concurrency`
   * batches at a time, default 1, each fetched by a worker of its own): it answers, in order, null for each
   * job done or the error it failed with (that job alone is retried per the queue's policy). A job whose
   * payload does not check fails on its own and is not passed on; a handler that throws fails the whole
   * batch.
   */
  workBatches<Payload>(
    queue: QueueDefinition<Payload>,
    handler: (jobs: ReadonlyArray<QueuedJob<Payload>>) => Promise<ReadonlyArray<unknown>>,
    options?: { pollingIntervalSeconds?: number; batchSize?: number; concurrency?: number },
  ): Promise<void>
  /**
   * Wakes the queue's workers to fetch now instead of at their next poll: this process's at once or, on
   * PostgreSQL when this process runs none, other processes' by a NOTIFY (paced: jobWakeIntervalMs). For
   * a job enqueued in a transaction that has committed, when its latency matters (a pipeline's next step).
   */
  nudge(queue: AnyQueue): void
  /** Stops fetching, waits up to `timeoutMs` for running jobs to finish. */
  stop(options: { timeoutMs: number }): Promise<void>
}

export function createJobQueue(database: Database, options: { schema: string; logger: Logger; queues: readonly AnyQueue[] }): JobQueue {
  const queues = new Map<string, { definition: AnyQueue; check: ReturnType<typeof Compile> }>()
  for (const definition of options.queues) {
    assert(!queues.has(definition.name), `queue ${definition.name} is defined twice`)
    queues.set(definition.name, { definition, check: Compile(definition.payload) })
  }
  const registered = (queue: AnyQueue) => {
    const entry = queues.get(queue.name)
    assert(entry !== undefined && entry.definition === queue, `queue ${queue.name} is not registered with the job queue`)
    return entry
  }
  const connection = database.jobQueueConnection()
  // See the module comment: a heartbeat where several processes share the queue, a reclaim at start
  // where the one process that can open the database is this one.
  const oneProcess = connection.kind === 'adapter' && connection.options.backend === 'pglite'
  const heartbeatSeconds = oneProcess ? null : jobHeartbeatSeconds
  const boss = new PgBoss({
    ...connection.options,
    schema: options.schema,
    supervise: true,
    schedule: false,
    ...(oneProcess ? {} : { superviseIntervalSeconds, monitorIntervalSeconds: superviseIntervalSeconds }),
  })
  const workers = new Map<string, string[]>()
  const wake = oneProcess ? undefined : createWakeAcrossProcesses(database, options.schema, options.logger, (queue) => notifyWorkers(queue))
  const notifyWorkers = (queue: string) => {
    for (const workerId of workers.get(queue) ?? []) boss.notifyWorker(workerId)
  }
  /** Registers a worker of the queue; the first worker of the process also starts listening for other processes' nudges. */
  async function registerWorker(queue: string, workerId: string): Promise<void> {
    workers.set(queue, [...(workers.get(queue) ?? []), workerId])
    await wake?.listen()
  }
  boss.on('error', (error) => options.logger.error({ err: error }, 'job queue error'))
  let started = false

  /** PGlite, at start: every job still active was taken by a process that is gone; each is failed for retry. */
  async function reclaimAbandonedJobs(): Promise<void> {
    for (const queue of queues.keys()) {
      const active = (await boss.findJobs(queue)).filter((job) => job.state === 'active').map((job) => job.id)
      if (active.length === 0) continue
      await boss.fail(queue, active, { message: 'the process running this job stopped; reclaimed when the job queue started again' })
      options.logger.warn({ queue, jobs: active.length }, 'jobs left active by a stopped process were failed for retry')
    }
  }

  /** How a worker fetches: a batch, at once again while batches come back full, else every polling interval. */
  const fetchOptions = (batchSize: number, pollingIntervalSeconds = 2) => ({
    batchSize,
    burstWhenBatchFull: true,
    perJobResults: true as const,
    pollingIntervalSeconds,
    // Used only where the queue has a heartbeat (PostgreSQL).
    heartbeatRefreshSeconds: jobHeartbeatRefreshSeconds,
  })

  /** A job's payload without its version, checked against the queue's schema and version (throws otherwise). */
  function payloadOf(definition: AnyQueue, check: ReturnType<typeof Compile>, job: Job<Record<string, unknown>>): unknown {
    const { v: version = 1, ...payload } = (job.data ?? {}) as { v?: unknown }
    if (version !== definition.version) {
      throw new Error(`job payload version ${String(version)} is not this worker's ${definition.version}; left for a worker of that version`)
    }
    if (!check.Check(payload)) {
      throw new Error(`job payload does not match its schema: ${[...check.Errors(payload)].map((error) => `${error.instancePath} ${error.message}`).join('; ')}`)
    }
    return payload
  }

  function failed(queue: AnyQueue, job: Job<unknown>, error: unknown): JobResult {
    options.logger.warn({ err: error, queue: queue.name, job_id: job.id, attempt: job.retryCount + 1 }, 'job failed; pg-boss retries it per the queue policy')
    return { id: job.id, status: 'failed', output: { message: error instanceof Error ? error.message : String(error) } }
  }

  return {
    async start() {
      await boss.start()
      started = true
      for (const [queue, { definition }] of queues) {
        const existing = await boss.getQueue(queue)
        if (existing === null) await boss.createQueue(queue, { ...definition.policy, ...(heartbeatSeconds === null ? {} : { heartbeatSeconds }) })
        // A queue created before heartbeats (or on another engine's policy) gets the heartbeat now; jobs
        // already queued keep the setting they were created with.
        else if ((existing.heartbeatSeconds ?? null) !== heartbeatSeconds) await boss.updateQueue(queue, { heartbeatSeconds })
        // Fill pg-boss's queue cache now (getJobById reads through it). createQueue evicts the entry,
        // and a send whose queue is not cached looks it up on pg-boss's own connection: inside our
        // transaction on PGlite (one connection) that lookup waits for the transaction waiting on it.
        await boss.getJobById(queue, nilUuid)
      }
      if (oneProcess) {
        await reclaimAbandonedJobs()
      } else {
        // A supervisor pass now rather than superviseIntervalSeconds from now: a worker restarted after a
        // crash retries its predecessor's jobs as soon as their heartbeat is stale. In the background, as
        // the timer's passes are (it may also delete old jobs); stop() waits for it.
        boss.supervise().catch((error: unknown) => options.logger.error({ err: error }, 'job queue supervision failed'))
      }
    },
    async enqueue(tx, queue, data, sendOptions = {}) {
      const { definition, check } = registered(queue)
      assertPayload(queue, check, data)
      const id = await boss.send(queue.name, { ...(data as object), v: definition.version }, { db: fromDrizzle(tx as never, sql as never), ...jobOptionsOf(sendOptions) })
      if (id === null) throw new Error(`job queue refused a job for ${queue.name}`)
      return id
    },
    async enqueueMany(tx, queue, jobs) {
      const { definition, check } = registered(queue)
      if (jobs.length === 0) return
      for (const { data } of jobs) assertPayload(queue, check, data)
      await boss.insert(
        queue.name,
        jobs.map(({ data, options: jobOptions = {} }) => ({ data: { ...(data as object), v: definition.version }, ...jobOptionsOf(jobOptions) })),
        { db: fromDrizzle(tx as never, sql as never) },
      )
    },
    async work(queue, handler, workOptions = {}) {
      const { definition, check } = registered(queue)
      const concurrency = workOptions.concurrency ?? 1
      const workerId = await boss.work<Record<string, unknown>>(
        queue.name,
        // A batch of one is always "full", so burst mode needs at least two.
        fetchOptions(Math.max(2, concurrency), workOptions.pollingIntervalSeconds),
        (jobs) =>
          mapLimit(jobs, concurrency, async (job) => {
            try {
              await handler({ ...job, data: payloadOf(definition, check, job) as never })
              return { id: job.id, status: 'completed' as const }
            } catch (error) {
              return failed(queue, job, error)
            }
          }),
      )
      await registerWorker(queue.name, workerId)
    },
    async workBatches(queue, handler, workOptions = {}) {
      const { definition, check } = registered(queue)
      const concurrency = workOptions.concurrency ?? 1
      assert(Number.isInteger(concurrency) && concurrency >= 1, `workBatches(${queue.name}): concurrency must be a positive integer`)
      // pg-boss runs `localConcurrency` workers of the queue, each fetching and handing on its own batch.
      const workerOptions = { ...fetchOptions(Math.max(2, workOptions.batchSize ?? 4), workOptions.pollingIntervalSeconds), localConcurrency: concurrency }
      const workerId = await boss.work<Record<string, unknown>>(queue.name, workerOptions, async (jobs) => {
        const results: JobResult[] = new Array(jobs.length)
        const taken: Array<{ index: number; job: QueuedJob<never> }> = []
        jobs.forEach((job, index) => {
          try {
            taken.push({ index, job: { ...job, data: payloadOf(definition, check, job) as never } })
          } catch (error) {
            results[index] = failed(queue, job, error)
          }
        })
        const outcomes = taken.length === 0 ? [] : await handler(taken.map(({ job }) => job))
        taken.forEach(({ index, job }, position) => {
          const outcome = outcomes[position]
          results[index] = outcome === null || outcome === undefined ? { id: job.id, status: 'completed' } : failed(queue, job, outcome)
        })
        return results
      })
      await registerWorker(queue.name, workerId)
    },
    nudge(queue) {
      if (!started) return
      // A worker of the queue here takes the job (at once, or in its burst after the batch it is on);
      // other processes are told only when none runs here, so the usual deployment (workers in the
      // server) sends no NOTIFY.
      if ((workers.get(queue.name) ?? []).length > 0) notifyWorkers(queue.name)
      else wake?.announce(queue.name)
    },
    async stop({ timeoutMs }) {
      if (!started) return
      started = false
      await wake?.stop()
      await boss.stop({ graceful: true, timeout: timeoutMs, close: true })
    },
  }
}

/**
 * Nudges between processes sharing a PostgreSQL database: `announce` sends a NOTIFY on jobWakeChannel
 * (at most one per queue per jobWakeIntervalMs, the last of an interval's nudges sent at its end), and
 * `listen` hands every other process's nudge of this schema's queues to `onWake`.
 */
function createWakeAcrossProcesses(database: Database, schema: string, logger: Logger, onWake: (queue: string) => void) {
  const sender = randomUUID()
  const lastSentAt = new Map<string, number>()
  const trailing = new Map<string, NodeJS.Timeout>()
  let listening: Promise<() => Promise<void>> | undefined
  let stopped = false

  const send = (queue: string) => {
    lastSentAt.set(queue, Date.now())
    database.orm
      .execute(sql`select pg_notify(${jobWakeChannel}, ${JSON.stringify({ schema, queue, sender })})`)
      .catch((error: unknown) => logger.warn({ err: error, queue }, 'could not nudge other processes; their workers take the job at their next poll'))
  }

  return {
    announce(queue: string): void {
      if (stopped || trailing.has(queue)) return
      const wait = (lastSentAt.get(queue) ?? Number.NEGATIVE_INFINITY) + jobWakeIntervalMs - Date.now()
      if (wait <= 0) return send(queue)
      const timer = setTimeout(() => {
        trailing.delete(queue)
        if (!stopped) send(queue)
      }, wait)
      timer.unref()
      trailing.set(queue, timer)
    },
    async listen(): Promise<void> {
      listening ??= database.listen(jobWakeChannel, (payload) => {
        let message: { schema?: unknown; queue?: unknown; sender?: unknown }
        try {
          message = JSON.parse(payload) as typeof message
        } catch {
          return
        }
        if (!stopped && message.schema === schema && message.sender !== sender && typeof message.queue === 'string') onWake(message.queue)
      })
      await listening
    },
    async stop(): Promise<void> {
      stopped = true
      for (const timer of trailing.values()) clearTimeout(timer)
      trailing.clear()
      const unlisten = await listening?.catch(() => undefined)
      await unlisten?.()
    },
  }
}

/** A payload that does not match its own schema is a programming error, caught where the job is made. */
function assertPayload(queue: AnyQueue, check: ReturnType<typeof Compile>, data: unknown): void {
  assert(check.Check(data), `job for ${queue.name} does not match its payload schema: ${[...check.Errors(data)].map((error) => `${error.instancePath} ${error.message}`).join('; ')}`)
}

/** pg-boss's options for a job. */
function jobOptionsOf(options: EnqueueOptions) {
  return {
    ...(options.startAfterSeconds === undefined ? {} : { startAfter: options.startAfterSeconds }),
    ...(options.singletonKey === undefined ? {} : { singletonKey: options.singletonKey }),
    ...(options.id === undefined ? {} : { id: options.id }),
  }
}

/** Runs `work` over `items` with at most `limit` in flight, keeping the results in order. */
async function mapLimit<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length)
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next
        next += 1
        results[index] = await work(items[index]!)
      }
    }),
  )
  return results
}
