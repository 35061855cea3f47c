/**
 * Durable jobs on pg-boss, in the same database as the data. A job is enqueued inside the business
 * transaction (`enqueue(tx, …)`), so it exists exactly when the change that asked for it committed.
 * pg-boss owns its own schema (default `pgboss`) and installs or upgrades it at start.
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
  const boss = new PgBoss({ ...connection.options, schema: options.schema, supervise: true, schedule: false })
  const workers = new Map<QueueName, string[]>()
  boss.on('error', (error) => options.logger.error({ err: error }, 'job queue error'))
  let started = false

  return {
    async start() {
      await boss.start()
      started = true
      for (const queue of queueNames) {
        const existing = await boss.getQueue(queue)
        if (existing === null) await boss.createQueue(queue, queuePolicies[queue])
        // Fill pg-boss's queue cache now (getJobById reads through it). createQueue evicts the entry,
        // and a send whose queue is not cached looks it up on pg-boss's own connection: inside our
        // transaction on PGlite (one connection) that lookup waits for the transaction waiting on it.
        await boss.getJobById(queue, nilUuid)
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
