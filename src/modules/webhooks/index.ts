/**
 * The webhooks slice as the composition root sees it: the endpoint service for the routes, the two
 * delivery workers and the delivery sweep. Options exist so tests (and operators embedding Steward) can
 * shorten the retry schedule and the sweep and resolve names without real DNS; production uses the
 * defaults.
 */
import type { Clock } from '../../kernel/clock.ts'
import type { StewardEnvironment } from '../../kernel/context.ts'
import type { CursorCodec } from '../../kernel/cursor.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { CommandRunner } from '../../platform/commands/command.ts'
import type { Database } from '../../platform/db/database.ts'
import type { JobQueue } from '../../platform/jobs/job-queue.ts'
import { systemResolver, type HostResolver } from '../../platform/net/egress.ts'
import { webhookEgressPolicy } from './sender.ts'
import { retryBaseSecondsDefault } from './domain/delivery.ts'
import {
  createDeliverHandler,
  createFanoutHandler,
  deliveryOverdueSecondsDefault,
  deliverySweepIntervalMsDefault,
  deliverySweepRowsMax,
  startDeliverySweeper,
} from './delivery.jobs.ts'
import { createWebhookSender, deliveryTimeoutMsDefault } from './sender.ts'
import { createWebhooksService, type WebhooksService } from './webhooks.service.ts'
import { createWebhooksStore } from './webhooks.store.pg.ts'
import { webhookDeliverQueue, webhookFanoutQueue } from './webhooks.jobs.ts'
export { webhookQueues } from './webhooks.jobs.ts'
export { createWebhookSubscriber } from './subscriber.ts'

export { webhookRoutes } from './webhooks.routes.ts'
export type { WebhooksService } from './webhooks.service.ts'

/**
 * Jobs in flight per queue in each process. Eight deliveries at once keep one slow receiver (10 s
 * timeout) from holding up every other tenant's deliveries.
 */
export const fanoutConcurrencyDefault = 4
export const deliverConcurrencyDefault = 8

export interface WebhookOptions {
  /** Resolves endpoint host names; defaults to the system resolver. */
  readonly resolver?: HostResolver
  /** Delay before the second attempt (later ones × 4); default 30 s. */
  readonly retryBaseSeconds?: number
  /** Timeout of one delivery attempt; default 10 s. */
  readonly requestTimeoutMs?: number
  readonly fanoutConcurrency?: number
  readonly deliverConcurrency?: number
  /** How often each worker process sweeps for deliveries whose job was lost; default 30 s. */
  readonly deliverySweepIntervalMs?: number
  /** How far past due a pending delivery must be before the sweep takes it up; default 120 s. */
  readonly deliveryOverdueSeconds?: number
}

export interface Webhooks {
  readonly service: WebhooksService
  /** Registers the fan-out worker and the delivery workers, and starts this process's delivery sweep. */
  startWorkers(jobs: Pick<JobQueue, 'work'>, options: { pollingIntervalSeconds: number }): Promise<void>
  /** Stops the delivery sweep, waiting for a pass under way (the job queue stops the workers). */
  stop(): Promise<void>
}

export interface WebhooksDeps {
  readonly db: Database
  /** Runs the endpoint commands and commits what the delivery jobs audit and queue. */
  readonly commands: CommandRunner
  readonly cursors: CursorCodec
  readonly ids: IdSource
  readonly clock: Clock
  /** Picks the egress rules every endpoint URL is checked against (docs/webhooks.md). */
  readonly environment: StewardEnvironment
  /** WEBHOOK_ALLOW_LOOPBACK: in a sandbox, endpoints may also be on loopback (a receiver on this machine). */
  readonly allowLoopback?: boolean | undefined
  /** Where the workers report what failed out of any caller's sight (a sweep pass, a fan-out given up): the process's log. */
  readonly onError: (error: unknown, message: string) => void
}

export function createWebhooks(deps: WebhooksDeps, options: WebhookOptions = {}): Webhooks {
  const { db, commands, cursors, ids, clock } = deps
  const store = createWebhooksStore()
  const egressPolicy = webhookEgressPolicy(deps.environment, { allowLoopback: deps.allowLoopback === true })
  const resolver = options.resolver ?? systemResolver
  const requestTimeoutMs = options.requestTimeoutMs ?? deliveryTimeoutMsDefault
  const sender = createWebhookSender({ policy: egressPolicy, resolver, timeoutMs: requestTimeoutMs, clock })
  const jobDeps = { db, commands, store, ids, clock, sender, retryBaseSeconds: options.retryBaseSeconds ?? retryBaseSecondsDefault, requestTimeoutMs, onError: deps.onError }
  let stopSweeper: (() => Promise<void>) | undefined
  return {
    service: createWebhooksService({ db, commands, store, cursors, ids, clock, sender, egressPolicy, resolver, requestTimeoutMs }),
    async startWorkers(jobs, { pollingIntervalSeconds }) {
      await jobs.work(webhookFanoutQueue, createFanoutHandler(jobDeps), { pollingIntervalSeconds, concurrency: options.fanoutConcurrency ?? fanoutConcurrencyDefault })
      await jobs.work(webhookDeliverQueue, createDeliverHandler(jobDeps), { pollingIntervalSeconds, concurrency: options.deliverConcurrency ?? deliverConcurrencyDefault })
      stopSweeper ??= startDeliverySweeper(jobDeps, {
        intervalMs: options.deliverySweepIntervalMs ?? deliverySweepIntervalMsDefault,
        overdueSeconds: options.deliveryOverdueSeconds ?? deliveryOverdueSecondsDefault,
        rowsMax: deliverySweepRowsMax,
      })
    },
    async stop() {
      await stopSweeper?.()
      stopSweeper = undefined
    },
  }
}
