/**
 * Provider webhooks (`POST /v1/raw/webhooks/{provider}`): a delivery signed with its connection's
 * secret becomes an artifact, recorded as every ingest is (artifacts.ts).
 *
 * It takes no Idempotency-Key: it is authenticated by its signature, not by a member, its tenant is known
 * only once the signature is checked, providers do not send the header, and the delivery is already
 * idempotent by content (a redelivery of the same bytes records nothing new: artifacts 0).
 */
import type { Clock } from '../../kernel/clock.ts'
import { type CommandContext, withoutIdempotencyKey } from '../../kernel/context.ts'
import { AppError } from '../../kernel/errors.ts'
import type { CommandRunner } from '../../platform/commands/command.ts'
import type { Database } from '../../platform/db/database.ts'
import type { BlobStore } from '../../platform/storage/blob-store.ts'
import { putBuffer, type ArtifactRecorder } from './artifacts.ts'
import { verifyProviderSignature } from './domain/provider-signature.ts'
import { genericSourceType, providerSourceTypes, type Provider } from './domain/source-types.ts'
import { providerWebhookBytesMax } from './ingest-rules.ts'
import type { RawStore } from './raw.store.ts'

export interface ProviderDelivery {
  readonly provider: Provider
  readonly accountRef: string | undefined
  readonly signature: string | undefined
  readonly body: Buffer
}

export interface DeliveryAccepted {
  accepted: true
  trace_id: string
  /** 1 when the delivery became a new artifact, 0 when the tenant already had these bytes. */
  artifacts: number
}

export interface ProviderWebhooksService {
  receiveProviderWebhook(context: CommandContext, delivery: ProviderDelivery): Promise<DeliveryAccepted>
}

/** A secret no connection has: unknown accounts are checked against it, so they cost the same as known ones. */
const absentSecret = 'steward-no-such-connection'

export function createProviderWebhooksService(deps: { db: Database; commands: CommandRunner; store: RawStore; blobs: BlobStore; recorder: ArtifactRecorder; clock: Clock }): ProviderWebhooksService {
  const { db, commands, store, blobs, recorder, clock } = deps
  return {
    /**
     * A signed provider delivery: the connection named by (provider, X-Provider-Account) must be
     * active and the signature valid within the tolerance; every failure is the same 401. The body
     * becomes an artifact (application/json) unless the tenant already has these bytes (artifacts 0;
     * a tombstoned artifact stays tombstoned). Locks the tenant's content key for the SHA-256; audits
     * raw.artifact_ingested or raw.artifact_deduplicated (layer raw, actor the connection); emits
     * raw.ingest.new or raw.ingest.deduplicated; a new artifact enqueues raw-extract. The context's trace
     * id is its request id.
     */
    async receiveProviderWebhook(context, delivery) {
      const connection =
        delivery.accountRef === undefined || delivery.accountRef === ''
          ? undefined
          : await store.findConnectionByAccount(db.orm, delivery.provider, delivery.accountRef)
      const usable = connection !== undefined && connection.status === 'active'
      const verified = verifyProviderSignature(delivery.signature, usable ? connection.secret : absentSecret, delivery.body, Math.floor(clock.now().getTime() / 1000))
      if (!usable || !verified) throw new AppError('raw_webhook_signature_invalid')
      let payload: unknown
      try {
        payload = JSON.parse(delivery.body.toString('utf8'))
      } catch {
        throw new AppError('request_body_invalid', 'A provider webhook body must be JSON.')
      }
      const tenantId = connection.tenantId
      const traceId = context.requestId
      const stored = await putBuffer(blobs, tenantId, delivery.body, providerWebhookBytesMax)
      const draft = {
        sourceType: delivery.provider === 'generic_hmac' ? genericSourceType(payload) : providerSourceTypes[delivery.provider],
        mimeType: 'application/json',
        filename: null,
        parentArtifactId: null,
        sourceRef: { provider: delivery.provider, connection_id: connection.id, account_ref: connection.accountRef, trace_id: traceId },
      }
      const { outcome } = await recorder.settle(tenantId, stored, (recorded) =>
        commands.run(withoutIdempotencyKey(context), { name: 'raw.receiveProviderWebhook', tenantId, input: null }, async (tx) => {
          const work = await recorder.recordInTx(tx, { tenantId, actor: { type: 'system', id: connection.id }, requestId: traceId }, stored, draft, { restoreTombstoned: false })
          recorded(work.outcome)
          return { ...work, outcome: work.outcome.kind === 'created' ? 1 : 0 }
        }),
      )
      return { accepted: true, trace_id: traceId, artifacts: outcome }
    },
  }
}
