/**
 * The Raw module's use cases behind one object for its routes: ingest by upload (ingest.service.ts) and
 * by URL (fetch.service.ts), reads (read.service.ts), tombstones (tombstone.service.ts) and provider
 * webhooks (provider-webhooks.service.ts). Each is built from what it uses.
 */
import type { Clock } from '../../kernel/clock.ts'
import type { CursorCodec } from '../../kernel/cursor.ts'
import type { CommandRunner } from '../../platform/commands/command.ts'
import type { Database } from '../../platform/db/database.ts'
import type { BlobStore } from '../../platform/storage/blob-store.ts'
import type { ArtifactRecorder } from './artifacts.ts'
import { createFetchService, type FetchService } from './fetch.service.ts'
import { createIngestService, type IngestService } from './ingest.service.ts'
import { createProviderWebhooksService, type ProviderWebhooksService } from './provider-webhooks.service.ts'
import { createReadService, type ReadService } from './read.service.ts'
import type { RawStore } from './raw.store.ts'
import { createTombstoneService, type TombstoneService } from './tombstone.service.ts'
import type { UrlFetcher } from './url-fetch.ts'
import type { LedgerNormalizations } from './ports.ts'

export type RawService = IngestService & FetchService & ReadService & TombstoneService & ProviderWebhooksService

export interface RawServiceDeps {
  readonly db: Database
  readonly commands: CommandRunner
  readonly store: RawStore
  readonly blobs: BlobStore
  readonly cursors: CursorCodec
  readonly clock: Clock
  readonly recorder: ArtifactRecorder
  readonly fetcher: UrlFetcher
  /** HMAC key of signed content URLs (derived from JWT_SECRET). */
  readonly contentUrlKey: string
  /** HMAC key of the URL and auth header in a fetch's idempotency fingerprint. */
  readonly fingerprintKey: string
  readonly publicBaseUrl: string
  /** The Ledger's normalization of each artifact, for the artifact views. */
  readonly normalizations: LedgerNormalizations
}

export function createRawService(deps: RawServiceDeps): RawService {
  const { db, commands, store, blobs, cursors, clock, recorder, fetcher } = deps
  return {
    ...createIngestService({ commands, blobs, recorder }),
    ...createFetchService({ db, commands, blobs, recorder, fetcher, fingerprintKey: deps.fingerprintKey }),
    ...createReadService({ db, store, blobs, cursors, clock, contentUrlKey: deps.contentUrlKey, publicBaseUrl: deps.publicBaseUrl, normalizations: deps.normalizations }),
    ...createTombstoneService({ commands, store, clock }),
    ...createProviderWebhooksService({ db, commands, store, blobs, recorder, clock }),
  }
}
