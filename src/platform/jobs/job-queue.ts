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
import { sql } from 'drizzle-orm'
import { fromDrizzle, PgBoss, type Job, type QueueOptions } from 'pg-boss'
import type { Logger } from 'pino'
import type { Database, Tx } from '../db/database.ts'

/** Every queue, its payload, and its retry policy. */
export interface JobPayloads {
  'tenant-blob-purge': { tenant_id: string }
  'mail-send': { to: string; subject: string; text: string }
  /** Publishes pending Merkle roots on chain, up to 50 per transaction; one runs at a time. */
  'audit-anchor-publish': Record<string, never>
  'audit-export': { tenant_id: string; export_id: string }
  /** Creates one delivery per matching endpoint for each of a tenant's business events (up to 500). */
  'webhook-fanout': { tenant_id: string; event_ids: string[] }
  /** One delivery attempt; a failure schedules the next attempt itself, up to the cap. */
  'webhook-deliver': { tenant_id: string; delivery_id: string }
  /** Parses one Raw artifact into parsed rows (all in one transaction), then enqueues its normalization. */
  'raw-extract': { tenant_id: string; artifact_id: string }
  /** Normalizes parsed rows into the Ledger: one artifact's current rows, or one parsed row. */
  'ledger-normalize': { tenant_id: string; job_id: string; artifact_id?: string; parsed_row_id?: string }
  /** Runs reconciliation for a tenant. */
  'ledger-reconcile': { tenant_id: string; job_id: string }
  /** Deletes the stored bytes of artifacts tombstoned longer than the retention period. */
  'raw-retention-purge': Record<string, never>
}

export type QueueName = keyof JobPayloads

const queuePolicies: Readonly<Record<QueueName, QueueOptions & { policy?: 'standard' | 'singleton' }>> = {
  'tenant-blob-purge': { retryLimit: 5, retryDelay: 5, retryBackoff: true, retryDelayMax: 600, expireInSeconds: 600 },
  'mail-send': { retryLimit: 5, retryDelay: 10, retryBackoff: true, retryDelayMax: 900, expireInSeconds: 60 },
  'audit-anchor-publish': { policy: 'singleton', retryLimit: 3, retryDelay: 10, retryBackoff: true, expireInSeconds: 300 },
  'audit-export': { retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: 1800 },
  'webhook-fanout': { retryLimit: 10, retryDelay: 2, retryBackoff: true, retryDelayMax: 300, expireInSeconds: 60 },
  // Attempts are counted by the delivery itself; pg-boss retries only a worker that died mid-attempt.
  'webhook-deliver': { retryLimit: 3, retryDelay: 5, expireInSeconds: 60 },
  'raw-extract': { retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: 900 },
  'ledger-normalize': { retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: 900 },
  'ledger-reconcile': { retryLimit: 2, retryDelay: 10, expireInSeconds: 900 },
  'raw-retention-purge': { policy: 'singleton', retryLimit: 2, retryDelay: 60, expireInSeconds: 900 },
}

export const queueNames = Object.keys(queuePolicies) as QueueName[]

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

/** A queue's policy as created; on PostgreSQL every queue also has jobHeartbeatSeconds. */
export function queuePolicyOf(queue: QueueName): Readonly<QueueOptions> {
  return queuePolicies[queue]
}

const nilUuid = '00000000-0000-0000-0000-000000000000'

/** How many retries a queue allows after the first attempt; a job whose retryCount reaches it is on its last try. */
export function retryLimitOf(queue: QueueName): number {
  return queuePolicies[queue].retryLimit ?? 0
}

export type JobHandler<Q extends QueueName> = (job: Job<JobPayloads[Q]>) => Promise<void>

export interface JobQueue {
  /** Installs or upgrades the pg-boss schema and creates every queue. */
  start(): Promise<void>
  enqueue<Q extends QueueName>(tx: Tx, queue: Q, data: JobPayloads[Q], options?: { startAfterSeconds?: number; singletonKey?: string }): Promise<string>
  /**
   * Runs `handler` for the queue's jobs, up to `concurrency` at once (default 1). While fetches come
   * back full, the worker fetches again at once instead of waiting out the polling interval, so a
   * backlog drains at handler speed; each job succeeds or fails (and retries) on its own.
   */
  work<Q extends QueueName>(queue: Q, handler: JobHandler<Q>, options?: { pollingIntervalSeconds?: number; concurrency?: number }): Promise<void>
  /**
   * Wakes this process's workers of the queue to fetch now instead of at their next poll. For a job
   * enqueued in a transaction that has committed, when its latency matters (a pipeline's next step);
   * a no-op for queues this process does not work.
   */
  nudge(queue: QueueName): void
  /** Stops fetching, waits up to `timeoutMs` for running jobs to finish. */
  stop(options: { timeoutMs: number }): Promise<void>
}

export function createJobQueue(database: Database, options: { schema: string; logger: Logger }): JobQueue {
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
  const workers = new Map<QueueName, string[]>()
  boss.on('error', (error) => options.logger.error({ err: error }, 'job queue error'))
  let started = false

  /** PGlite, at start: every job still active was taken by a process that is gone; each is failed for retry. */
  async function reclaimAbandonedJobs(): Promise<void> {
    for (const queue of queueNames) {
      const active = (await boss.findJobs(queue)).filter((job) => job.state === 'active').map((job) => job.id)
      if (active.length === 0) continue
      await boss.fail(queue, active, { message: 'the process running this job stopped; reclaimed when the job queue started again' })
      options.logger.warn({ queue, jobs: active.length }, 'jobs left active by a stopped process were failed for retry')
    }
  }

  return {
    async start() {
      await boss.start()
      started = true
      for (const queue of queueNames) {
        const existing = await boss.getQueue(queue)
        if (existing === null) await boss.createQueue(queue, { ...queuePolicies[queue], ...(heartbeatSeconds === null ? {} : { heartbeatSeconds }) })
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
      const id = await boss.send(queue, data, {
        db: fromDrizzle(tx as never, sql as never),
        ...(sendOptions.startAfterSeconds === undefined ? {} : { startAfter: sendOptions.startAfterSeconds }),
        ...(sendOptions.singletonKey === undefined ? {} : { singletonKey: sendOptions.singletonKey }),
      })
      if (id === null) throw new Error(`job queue refused a job for ${queue}`)
      return id
    },
    async work(queue, handler, workOptions = {}) {
      const concurrency = workOptions.concurrency ?? 1
      const workerId = await boss.work<JobPayloads[typeof queue]>(
        queue,
        {
          // A batch of one is always "full", so burst mode needs at least two.
          batchSize: Math.max(2, concurrency),
          burstWhenBatchFull: true,
          perJobResults: true,
          pollingIntervalSeconds: workOptions.pollingIntervalSeconds ?? 2,
          // Used only where the queue has a heartbeat (PostgreSQL).
          heartbeatRefreshSeconds: jobHeartbeatRefreshSeconds,
        },
        (jobs) =>
          mapLimit(jobs, concurrency, async (job) => {
            try {
              await handler(job)
              return { id: job.id, status: 'completed' as const }
            } catch (error) {
              options.logger.warn({ err: error, queue, job_id: job.id, attempt: job.retryCount + 1 }, 'job failed; pg-boss retries it per the queue policy')
              return { id: job.id, status: 'failed' as const, output: { message: error instanceof Error ? error.message : String(error) } }
            }
          }),
      )
      workers.set(queue, [...(workers.get(queue) ?? []), workerId])
    },
    nudge(queue) {
      if (!started) return
      for (const workerId of workers.get(queue) ?? []) boss.notifyWorker(workerId)
    },
    async stop({ timeoutMs }) {
      if (!started) return
      started = false
      await boss.stop({ graceful: true, timeout: timeoutMs, close: true })
    },
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
