/**
 * The Ledger slice as the composition root sees it: the service for the routes, the normalizer (the
 * Raw extraction job hands artifacts to it through the `ledger-normalize` queue), and the workers.
 */
import type { AuditRecorder } from '../../platform/commands/audit-sink.ts'
import type { CommandRunner } from '../../platform/commands/command.ts'
import type { Database, Tx } from '../../platform/db/database.ts'
import type { JobQueue } from '../../platform/jobs/job-queue.ts'
import type { EventRecorder } from '../../platform/outbox/events.ts'
import type { Clock } from '../../kernel/clock.ts'
import type { CursorCodec } from '../../kernel/cursor.ts'
import type { IdSource } from '../../kernel/ids.ts'
import { createNormalizeHandler, createReconcileHandler, queueNormalization } from './ledger.jobs.ts'
import { createLedgerService, type LedgerService } from './ledger.service.ts'
import { createLedgerStore } from './ledger.store.pg.ts'
import type { LedgerStore } from './ledger.store.ts'
import { createNormalizer, type Normalizer } from './normalize/normalizer.ts'
import { reconcileTenant, type ReconcileSummary } from './reconcile/reconcile.ts'
import type { AuditActor } from '../../kernel/audit-record.ts'
import { ledgerNormalizeQueue, ledgerReconcileQueue, type LedgerWriteListener } from './ledger.jobs.ts'
import { createLedgerQueries, type LedgerQueries } from './queries.ts'
import { createLedgerNormalizations, type LedgerNormalizations } from './normalization-progress.ts'
import type { RawRecords } from './ports.ts'

export { ledgerRoutes } from './ledger.routes.ts'
export { ledgerRpc } from './ledger.rpc.ts'
export { ledgerQueues, type LedgerWriteListener, type LedgerWriteNotice } from './ledger.jobs.ts'
export { ledgerRecordKindOf } from './queries.ts'
export { Account, Balance, Counterparty, Invoice, Obligation, ReconciliationMatch, Transaction } from './ledger.schemas.ts'
export type {
  CitedInvoice,
  CitedObligation,
  CitedRecord,
  CitedTransaction,
  CurrentLedger,
  InvoiceSelection,
  LedgerQueries,
  LedgerRecordKind,
  LedgerRecordVersion,
  ObligationSelection,
  OutflowRecord,
  TransactionSelection,
  PaymentAccount,
  PaymentCounterparty,
  PaymentInvoice,
  PaymentObligation,
} from './queries.ts'
export type { LedgerService } from './ledger.service.ts'
export type { LedgerNormalizations, NormalizationStatus } from './normalization-progress.ts'

/** The Ledger's intake port (Raw's `ports.ts` names what it needs of it). */
export interface LedgerIntake {
  /** In the caller's transaction: a normalization job for the artifact; returns its id. */
  requestNormalization(tx: Tx, request: { tenantId: string; artifactId: string; createdBy: string }): Promise<string>
  /** After the caller's commit: wake this process's normalization workers. */
  nudge(): void
}

export interface Ledger {
  readonly service: LedgerService
  readonly store: LedgerStore
  readonly normalizer: Normalizer
  /** One reconciliation run now, in-process (the `ledger-reconcile` job runs the same). */
  reconcile(tenantId: string, options: { actor: AuditActor; jobId?: string }): Promise<ReconcileSummary>
  /** How other modules hand work to the Ledger (Raw, once an artifact is extracted). */
  readonly intake: LedgerIntake
  /** What other modules may ask of the Ledger (Policy's historical outflows). */
  readonly queries: LedgerQueries
  /** How the normalization of an artifact goes (Raw's artifact views). */
  readonly normalizations: LedgerNormalizations
  /** Registers the normalization and reconciliation workers. */
  startWorkers(jobs: Pick<JobQueue, 'work'>, options: { pollingIntervalSeconds: number }): Promise<void>
}

export interface LedgerDeps {
  readonly db: Database
  /** Runs the Ledger's commands and commits what its jobs audit and queue. */
  readonly commands: CommandRunner
  /**
   * Normalization batches record their ledger.normalized audit event and their business events
   * themselves, in the batch's transaction (normalize/batch.ts): thousands of events per batch go in as
   * one bulk insert (`recordMany`), which the command runner's commit, one event at a time, does not do.
   */
  readonly audit: AuditRecorder
  readonly events: EventRecorder
  /** Wakes this process's workers after a commit that queued Ledger work. */
  readonly jobs: Pick<JobQueue, 'nudge'>
  readonly ids: IdSource
  readonly clock: Clock
  readonly cursors: CursorCodec
  /** Raw's artifacts and parsed rows (Raw's records port). */
  readonly raw: RawRecords
  /**
   * Told in the transaction of each normalization or reconciliation that wrote to the Ledger, returning
   * jobs to commit with it (the memory module regenerates its pages); optional.
   */
  readonly afterWrite?: LedgerWriteListener
}

export function createLedger(deps: LedgerDeps): Ledger {
  const { db, commands, audit, events, jobs, ids, clock, cursors } = deps
  const store = createLedgerStore(deps.raw)
  const normalizer = createNormalizer({ db, store, audit, events, clock })
  const jobDeps = { db, store, commands, jobs, ids, clock, normalizer, afterWrite: deps.afterWrite }
  return {
    service: createLedgerService({ db, commands, store, cursors, normalizer, jobs, ids, clock, afterWrite: deps.afterWrite }),
    store,
    normalizer,
    reconcile: (tenantId, options) => reconcileTenant(jobDeps, tenantId, options),
    queries: createLedgerQueries(),
    normalizations: createLedgerNormalizations(store),
    intake: {
      requestNormalization: (tx, request) => queueNormalization(jobDeps, tx, request),
      nudge: () => jobs.nudge(ledgerNormalizeQueue),
    },
    async startWorkers(jobs, { pollingIntervalSeconds }) {
      // Normalizations of one tenant serialize on its Ledger lock; two at once keep tenants independent.
      await jobs.work(ledgerNormalizeQueue, createNormalizeHandler(jobDeps), { pollingIntervalSeconds, concurrency: 2 })
      await jobs.work(ledgerReconcileQueue, createReconcileHandler(jobDeps), { pollingIntervalSeconds })
    },
  }
}
