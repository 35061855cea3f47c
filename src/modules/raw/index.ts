/**
 * The Raw slice as the composition root sees it: the service for the routes, the connectors service for
 * the out-of-band CLI, and the workers (extraction, retention purge and its periodic sweep). Options
 * exist so tests can register a parser, resolve names without real DNS and shorten the fetch deadline;
 * production uses the defaults.
 */
import type { CoreDeps } from '../../platform/deps.ts'
import type { JobQueue } from '../../platform/jobs/job-queue.ts'
import type { CursorCodec } from '../../kernel/cursor.ts'
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
import type { BlobReferences, LedgerIntake, RawTenants } from './ports.ts'

export { rawRoutes } from './raw.routes.ts'
export { rawQueues } from './raw.jobs.ts'
export { createRawRecords, type RawRecords } from './records.ts'
export type { RawService } from './raw.service.ts'
export type { ConnectorsService } from './connectors.service.ts'

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

export interface Raw {
  readonly service: RawService
  readonly connectors: ConnectorsService
  /** Registers the extraction and retention workers and starts the periodic retention sweep. */
  startWorkers(jobs: Pick<JobQueue, 'work' | 'enqueue'>, options: { pollingIntervalSeconds: number }): Promise<void>
  /** Stops the periodic sweep (the job queue stops the workers). */
  stop(): void
}

export function createRaw(
  deps: CoreDeps & { cursors: CursorCodec; blobs: BlobStore; ledgerIntake: LedgerIntake; blobReferences: BlobReferences; tenants: RawTenants },
  settings: RawSettings, options: RawOptions = {}): Raw {
  const store = createRawStore()
  const recorder = createArtifactRecorder({ ...deps, store })
  const fetcher = createUrlFetcher({
    policy: rawFetchPolicy(deps.environment, { allowLoopback: settings.fetchAllowLoopback }),
    resolver: options.resolver ?? systemResolver,
    totalMs: options.fetchTotalMs ?? urlFetchTotalMsDefault,
  })
  let sweep: NodeJS.Timeout | undefined
  return {
    service: createRawService({ ...deps, store, recorder, fetcher, contentUrlKey: settings.contentUrlKey }),
    connectors: createConnectorsService({ ...deps, store }),
    async startWorkers(jobs, { pollingIntervalSeconds }) {
      await jobs.work(rawExtractQueue, createExtractHandler({ ...deps, store, recorder, selectParser: options.selectParser ?? selectParser }), {
        pollingIntervalSeconds,
        concurrency: options.extractConcurrency ?? extractConcurrencyDefault,
      })
      await jobs.work(rawRetentionPurgeQueue, createRetentionPurgeHandler({ ...deps, store }), { pollingIntervalSeconds })
      const enqueueSweep = () => {
        deps.db.transaction((tx) => jobs.enqueue(tx, rawRetentionPurgeQueue, {})).catch(() => undefined)
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
