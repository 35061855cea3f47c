/**
 * The audit module's public face: the recorder every module writes through (as the platform's
 * AuditRecorder sink), what other modules may ask of it, and the module as the composition root sees
 * it: the service for the routes, the sequencer that links recorded events into each tenant's chain, and
 * the export and anchor-publish workers.
 */
import type { Logger } from 'pino'
import type { Clock } from '../../kernel/clock.ts'
import type { CursorCodec } from '../../kernel/cursor.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { CommandRunner } from '../../platform/commands/command.ts'
import type { Database } from '../../platform/db/database.ts'
import type { JobQueue } from '../../platform/jobs/job-queue.ts'
import type { BlobStore } from '../../platform/storage/blob-store.ts'
import { createAnchorPublishHandler } from './anchor-publisher.job.ts'
import { anchorPublishQueue, auditExportQueue } from './audit.jobs.ts'
import { createAuditService, type AuditService } from './audit.service.ts'
import { createAuditStore } from './audit.store.pg.ts'
import type { AnchorChainPublisher } from './chain/anchor-chain.ts'
import { walkChain, type ChainWalkResult } from './chain-walk.ts'
import { createExportHandler } from './export.job.ts'
import { createAuditSequencer, type SettleResult } from './sequencer.ts'

export { createAuditRecorder } from './audit.recorder.ts'
export { createAuditBlobReferences, type AuditBlobReferences } from './blob-references.ts'
export { auditQueues } from './audit.jobs.ts'
export { auditRoutes } from './audit.routes.ts'
export { oldestUnlinkedSeconds } from './chain-health.ts'
export { createAnchorChain } from './chain/anchor-contract.ts'
export { hashAuditEvent } from './domain/chain.ts'
export { leafOf, rootFromProof, type Hex32 } from './domain/merkle.ts'
export { verifyEventProof, type OnchainVerifier, type ProofDocument } from './verifier.ts'
export type { AnchorView, AuditEventView, EventWithProof } from './audit.service.ts'
export type { AnchorChainPublisher } from './chain/anchor-chain.ts'
export type { ChainWalkResult } from './chain-walk.ts'
export type { AuditService } from './audit.service.ts'
export type { SettleResult } from './sequencer.ts'

export interface Audit {
  readonly service: AuditService
  /**
   * Links every pending audit event and closes due batches now, instead of waiting for the sequencer;
   * with `closeOpenBatch`, the partial batch at the end of each chain too.
   */
  settle(options?: { closeOpenBatch?: boolean }): Promise<SettleResult>
  /** Registers the export and anchor-publish workers, then starts the sequencer. */
  startWorkers(jobs: Pick<JobQueue, 'work'>, options: { pollingIntervalSeconds: number }): Promise<void>
  /** Stops the sequencer (the job queue stops the workers). */
  stop(): Promise<void>
}

export interface AuditDeps {
  readonly db: Database
  /** Runs the module's commands (verify, export) and commits what the anchor publisher audits. */
  readonly commands: CommandRunner
  /** The sequencer queues anchor publications when it closes a batch. */
  readonly jobs: JobQueue
  readonly cursors: CursorCodec
  readonly ids: IdSource
  readonly clock: Clock
  readonly logger: Logger
  /** Where an export's status_url and download_url point. */
  readonly publicBaseUrl: string
  /** Where exports are written. */
  readonly blobs: BlobStore
  /** The chain batch roots are published to; undefined keeps the database hash chain alone. */
  readonly chain: AnchorChainPublisher | undefined
}

export interface AuditSettings {
  /** AUDIT_BATCH_EVENTS_MAX: events per batch (one Merkle root). */
  readonly batchEventsMax: number
  /** AUDIT_BATCH_WAIT_SECONDS: how long a partial batch stays open. */
  readonly batchWaitSeconds: number
  /** How often the sequencer sweeps for work notifications missed. */
  readonly sweepIntervalMs: number
}

export function createAudit(deps: AuditDeps, settings: AuditSettings): Audit {
  const { db, commands, jobs, cursors, ids, clock, logger, blobs, chain } = deps
  const store = createAuditStore()
  const sequencer = createAuditSequencer({
    db,
    store,
    jobs,
    ids,
    clock,
    logger,
    options: {
      batchEventsMax: settings.batchEventsMax,
      batchWaitSeconds: settings.batchWaitSeconds,
      anchoringMode: chain === undefined ? 'database_hash_chain' : 'onchain_merkle_root',
      sweepIntervalMs: settings.sweepIntervalMs,
    },
  })
  return {
    service: createAuditService({ db, commands, store, cursors, ids, clock, publicBaseUrl: deps.publicBaseUrl, chain, blobs }),
    settle: (options) => sequencer.sweep(options),
    async startWorkers(queue, { pollingIntervalSeconds }) {
      await queue.work(auditExportQueue, createExportHandler({ db, store, blobs, clock }), { pollingIntervalSeconds })
      await queue.work(anchorPublishQueue, createAnchorPublishHandler({ db, store, commands, chain, clock }), { pollingIntervalSeconds })
      await sequencer.start()
    },
    stop: () => sequencer.stop(),
  }
}

/** Walks a tenant's audit chain and names the first break, if any (`npm run audit:verify`). */
export function walkAuditChain(db: Database, tenantId: string, options: { checkAnchors?: boolean } = {}): Promise<ChainWalkResult> {
  return walkChain(db, createAuditStore(), tenantId, options)
}
