/**
 * The Raw slice as the composition root sees it: the service for the routes, the connectors service for
 * the platform's operator routes (`/v1/platform/connectors…`), and the workers (extraction, retention purge and its periodic sweep). Options
 * exist so tests can register a parser, resolve names without real DNS and shorten the fetch deadline;
 * production uses the defaults.
 */
import type { Clock } from '../../kernel/clock.ts'
import type { StewardEnvironment } from '../../kernel/context.ts'
import type { CursorCodec } from '../../kernel/cursor.ts'
import { hmacSha256Hex } from '../../kernel/hashing.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { ReplayableSecrets } from '../../kernel/secrets.ts'
import type { CommandRunner } from '../../platform/commands/command.ts'
import type { Database, Tx } from '../../platform/db/database.ts'
import type { JobQueue } from '../../platform/jobs/job-queue.ts'
import { systemResolver, type HostResolver } from '../../platform/net/egress.ts'
import type { BlobStore } from '../../platform/storage/blob-store.ts'
import { createArtifactRecorder } from './artifacts.ts'
import { createConnectorsService, type ConnectorsService } from './connectors.service.ts'
import { createExtractHandler, type ParserSelector } from './extraction.job.ts'
import { selectParser } from './parsers/registry.ts'
import { createRawService, type RawService } from './raw.service.ts'
import { createRawStore } from './raw.store.pg.ts'
import { createRetentionPurgeHandler, retentionSweepIntervalMsDefault } from './retention.job.ts'
import { createUrlFetcher, rawFetchPolicy, urlFetchTotalMsDefault } from './url-fetch.ts'
import { rawExtractQueue, rawRetentionPurgeQueue } from './raw.jobs.ts'
import type { BlobReferences, ContributionHolds, LedgerIntake, LedgerNormalizations, RawTenants } from './ports.ts'

export { rawRoutes } from './raw.routes.ts'
export { rawRpc } from './raw.rpc.ts'
export { connectorRoutes } from './connectors.routes.ts'
export { rawQueues } from './raw.jobs.ts'
export { createRawRecords, type RawRecords } from './records.ts'
export type { RawService } from './raw.service.ts'
export type { ConnectionInput, ConnectionView, ConnectionWithSecret, ConnectorsService } from './connectors.service.ts'
export { providerSignatureHeader, signatureToleranceSeconds, verifyProviderSignature } from './domain/provider-signature.ts'
export type { Provider } from './domain/source-types.ts'

/** Extractions in flight per process: each holds one transaction for the whole artifact. */
export const extractConcurrencyDefault = 2

export interface RawOptions {
  /** Resolves host names of URLs to fetch; defaults to the system resolver. */
  readonly resolver?: HostResolver
  /** Chooses the parser of an artifact; defaults to the parser registry (src/modules/raw/parsers/registry.ts). */
  readonly selectParser?: ParserSelector
  /** The total time limit of a fetch by URL; default 120 s. */
  readonly fetchTotalMs?: number
  /** How often each worker enqueues a retention sweep; default hourly. */
  readonly retentionSweepIntervalMs?: number
  readonly extractConcurrency?: number
}

export interface RawSettings {
  /** HMAC key of signed content URLs (derived from JWT_SECRET by the composition root). */
  readonly contentUrlKey: string
  /** RAW_FETCH_ALLOW_LOOPBACK: fetch from loopback addresses (sandbox only; production ignores it). */
  readonly fetchAllowLoopback: boolean
}

/** Held artifacts released per release call; more wait for the next release (docs/agents.md). */
export const heldArtifactsReleasedMax = 1000

export interface Raw {
  readonly service: RawService
  readonly connectors: ConnectorsService
  /**
   * Hands the artifacts a contribution hold kept for `agentId` to the Ledger's intake (at most
   * `heldArtifactsReleasedMax`, oldest first), in the caller's transaction; answers their ids.
   */
  releaseHeldContributions(tx: Tx, tenantId: string, agentId: string): Promise<string[]>
  /** Registers the extraction and retention workers and starts the periodic retention sweep. */
  startWorkers(jobs: Pick<JobQueue, 'work' | 'enqueue'>, options: { pollingIntervalSeconds: number }): Promise<void>
  /** Stops the periodic sweep (the job queue stops the workers). */
  stop(): void
}

/** What the Raw module is built from: the platform's machinery and the other modules' ports it uses. */
export interface RawDeps {
  readonly db: Database
  /** Runs Raw's commands and commits their audit events, business events, jobs and idempotency records. */
  readonly commands: CommandRunner
  /** Wakes extraction after a commit that queued it (the commit itself enqueues, through the runner). */
  readonly jobs: Pick<JobQueue, 'nudge'>
  readonly blobs: BlobStore
  readonly cursors: CursorCodec
  readonly ids: IdSource
  readonly clock: Clock
  readonly environment: StewardEnvironment
  /** Where signed content URLs point. */
  readonly publicBaseUrl: string
  readonly ledgerIntake: LedgerIntake
  /** Whether a contributor is under a contribution hold (the agents module). */
  readonly contributionHolds: ContributionHolds
  /** The Ledger's normalization of each artifact (the artifact views show its progress). */
  readonly ledgerNormalizations: LedgerNormalizations
  readonly blobReferences: BlobReferences
  readonly tenants: RawTenants
  /** Derives provider connection secrets from seeds, so a replayed add or rotation hands out the same secret. */
  readonly secrets: ReplayableSecrets
}

export function createRaw(deps: RawDeps, settings: RawSettings, options: RawOptions = {}): Raw {
  const { db, commands, jobs, blobs, cursors, ids, clock, blobReferences } = deps
  const store = createRawStore()
  const recorder = createArtifactRecorder({ db, store, blobs, jobs, ids, clock, blobReferences })
  const fetcher = createUrlFetcher({
    policy: rawFetchPolicy(deps.environment, { allowLoopback: settings.fetchAllowLoopback }),
    resolver: options.resolver ?? systemResolver,
    totalMs: options.fetchTotalMs ?? urlFetchTotalMsDefault,
  })
  let sweep: NodeJS.Timeout | undefined
  return {
    service: createRawService({
      db,
      commands,
      store,
      blobs,
      cursors,
      clock,
      recorder,
      fetcher,
      contentUrlKey: settings.contentUrlKey,
      // Derived from the content URL key, for one purpose only: fingerprints of fetches by URL.
      fingerprintKey: hmacSha256Hex(settings.contentUrlKey, 'steward:raw-fetch-fingerprint:v1'),
      publicBaseUrl: deps.publicBaseUrl,
      normalizations: deps.ledgerNormalizations,
    }),
    connectors: createConnectorsService({ db, commands, store, tenants: deps.tenants, ids, clock, secrets: deps.secrets }),
    async releaseHeldContributions(tx, tenantId, agentId) {
      const artifactIds = await store.lockHeldArtifacts(tx, tenantId, agentId, heldArtifactsReleasedMax)
      for (const artifactId of artifactIds) {
        await deps.ledgerIntake.requestNormalization(tx, { tenantId, artifactId, createdBy: 'system:contribution-release' })
        await store.updateArtifact(tx, tenantId, artifactId, { heldForAgentId: null })
      }
      return artifactIds
    },
    async startWorkers(queue, { pollingIntervalSeconds }) {
      const extract = createExtractHandler({ db, commands, store, blobs, jobs, clock, recorder, ledgerIntake: deps.ledgerIntake, contributionHolds: deps.contributionHolds, selectParser: options.selectParser ?? selectParser })
      await queue.work(rawExtractQueue, extract, {
        pollingIntervalSeconds,
        concurrency: options.extractConcurrency ?? extractConcurrencyDefault,
      })
      await queue.work(rawRetentionPurgeQueue, createRetentionPurgeHandler({ db, commands, store, blobs, clock, blobReferences }), { pollingIntervalSeconds })
      const enqueueSweep = () => {
        db.transaction((tx) => queue.enqueue(tx, rawRetentionPurgeQueue, {})).catch(() => undefined)
      }
      enqueueSweep()
      sweep = setInterval(enqueueSweep, options.retentionSweepIntervalMs ?? retentionSweepIntervalMsDefault)
      sweep.unref()
    },
    stop() {
      if (sweep !== undefined) clearInterval(sweep)
      sweep = undefined
    },
  }
}
