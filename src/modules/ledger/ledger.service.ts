/**
 * The Ledger's public operations, as the routes (and agent tools to come) call them: the reads
 * (reads.service.ts, every one accepting an as-of time in system time), and the commands — synchronous
 * normalization of one parsed row (normalize.service.ts), reconciliation runs (reconcile.service.ts) and
 * the counterparty trust transitions (trust.service.ts). Every one is `name(context, input)`; the
 * commands run through the command runner and return its result (the outcome, and whether it is the
 * replay of an earlier run with the same Idempotency-Key).
 *
 * Every Ledger writer — normalization batches, reconciliation, trust transitions — takes the tenant's
 * Ledger lock, so two writers never race to supersede the same current version.
 */
import type { Clock } from '../../kernel/clock.ts'
import type { CursorCodec } from '../../kernel/cursor.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { CommandRunner } from '../../platform/commands/command.ts'
import type { Database } from '../../platform/db/database.ts'
import type { JobQueue } from '../../platform/jobs/job-queue.ts'
import type { LedgerStore } from './ledger.store.ts'
import { createNormalizeCommands, type NormalizeCommands } from './normalize.service.ts'
import type { Normalizer } from './normalize/normalizer.ts'
import { createLedgerReads, type LedgerReads } from './reads.service.ts'
import { createReconcileCommands, type ReconcileCommands } from './reconcile.service.ts'
import { createTrustCommands, type TrustCommands } from './trust.service.ts'
import type { LedgerWriteListener } from './ledger.jobs.ts'

export { accountPageRows, entityPageRows, transactionPageRows, type ObligationQuery, type TransactionQuery } from './reads.service.ts'
export type { NormalizeResult } from './normalize.service.ts'

export type LedgerService = LedgerReads & NormalizeCommands & ReconcileCommands & TrustCommands

export interface LedgerServiceDeps {
  readonly db: Database
  readonly commands: CommandRunner
  readonly store: LedgerStore
  readonly cursors: CursorCodec
  readonly normalizer: Normalizer
  readonly jobs: Pick<JobQueue, 'nudge'>
  readonly ids: IdSource
  readonly clock: Clock
  /** Told of each trust transition, in its transaction (ledger.jobs.ts LedgerWriteListener). */
  readonly afterWrite?: LedgerWriteListener | undefined
}

export function createLedgerService(deps: LedgerServiceDeps): LedgerService {
  const { db, commands, store, cursors, normalizer, jobs, ids, clock } = deps
  return {
    ...createLedgerReads({ db, store, cursors }),
    ...createNormalizeCommands({ commands, store, normalizer, afterWrite: deps.afterWrite }),
    ...createReconcileCommands({ commands, store, jobs, ids, clock }),
    ...createTrustCommands({ commands, store, clock, afterWrite: deps.afterWrite }),
  }
}
