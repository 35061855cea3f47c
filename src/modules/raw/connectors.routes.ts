/**
 * The platform's connector routes: the operator surface for provider connections, under `/v1/platform/`
 * and behind X-Platform-Service-Auth only (an end user's bearer is refused, as on provisioning and
 * governance). The spec's "No /v1/sources resource family exists" is about the tenant API; connectors
 * are configured out of band, and this is that band: `steward connectors …` (and `npm run connectors`)
 * call these routes, so they work while the server runs, on either engine.
 *
 * A connection is named by its tenant and its provider account (the X-Provider-Account of its
 * webhooks), as the operator and the provider know it; a connection of another tenant is 404
 * source_not_found, exactly as a missing one. Every POST takes an Idempotency-Key, scoped to the
 * connection's tenant and the command.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { contextOf } from '../../platform/http/context.ts'
import { IdempotencyKeyHeaders, markReplayed } from '../../platform/http/idempotency.ts'
import { platformRoute } from '../../platform/http/route-auth.ts'
import type { ConnectionWithSecret as ConnectionWithSecretOutcome, ConnectorsService } from './connectors.service.ts'
import { ConnectionBody, ConnectionChange, ConnectionList, ConnectionListQuery, ConnectionWithSecret } from './connectors.schemas.ts'

export interface ConnectorRoutesOptions {
  readonly connectors: ConnectorsService
  /** PUBLIC_BASE_URL: where providers reach this server's webhook route. */
  readonly publicBaseUrl: string
}

const tags = ['Platform: connectors']
const idempotencyNote =
  'With Idempotency-Key (scoped to the tenant_id of the body), a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.'
const auditNote = 'Audited as raw.source_status_changed (layer raw, actor platform) and announced as raw.source.status_changed, in the change\'s transaction.'

export const connectorRoutes: FastifyPluginAsyncTypebox<ConnectorRoutesOptions> = async (app, { connectors, publicBaseUrl }) => {
  const auth = platformRoute()
  const withWebhookUrl = (outcome: ConnectionWithSecretOutcome) => ({ ...outcome, webhook_url: `${publicBaseUrl}/v1/raw/webhooks/${outcome.connection.provider}` })

  app.get(
    '/v1/platform/connectors',
    {
      config: { auth },
      schema: {
        tags,
        operationId: 'listPlatformConnectors',
        summary: 'List a tenant\'s provider connections',
        description: 'Every connection of the tenant, in creation order, without secrets. 404 tenant_not_found for an unknown tenant.',
        querystring: ConnectionListQuery,
        response: { 200: ConnectionList },
      },
    },
    async (request) => ({ connections: await connectors.list(request.query.tenant_id) }),
  )

  app.post(
    '/v1/platform/connectors',
    {
      config: { auth },
      schema: {
        tags,
        operationId: 'addPlatformConnector',
        summary: 'Connect a provider account to a tenant',
        description:
          'Creates an active connection with a new signing secret, or re-activates the tenant\'s revoked connection of that account with a new secret. ' +
          '404 tenant_not_found; 409 source_already_connected when the account is connected (to this tenant and not revoked, or to another tenant). ' +
          `${auditNote} ${idempotencyNote} A replay returns the same secret.`,
        headers: IdempotencyKeyHeaders,
        body: ConnectionBody,
        response: { 201: ConnectionWithSecret },
      },
    },
    async (request, reply) => {
      const { tenant_id, provider, account_ref } = request.body
      const { outcome, replayed } = await connectors.add(contextOf(request), { tenantId: tenant_id, provider, accountRef: account_ref })
      return markReplayed(reply, replayed).code(201).send(withWebhookUrl(outcome))
    },
  )

  const moves = [
    { move: 'pause', operationId: 'pausePlatformConnector', summary: 'Pause a connection', effect: 'Its webhooks are refused (401 raw_webhook_signature_invalid) until it is resumed.' },
    { move: 'resume', operationId: 'resumePlatformConnector', summary: 'Resume a paused connection', effect: 'Its webhooks are accepted again, signed with its current secret.' },
    { move: 'revoke', operationId: 'revokePlatformConnector', summary: 'Revoke a connection', effect: 'For good: only adding the account again (with a new secret) re-activates it.' },
  ] as const
  for (const { move, operationId, summary, effect } of moves) {
    app.post(
      `/v1/platform/connectors/${move}`,
      {
        config: { auth },
        schema: {
          tags,
          operationId,
          summary,
          description:
            `${effect} A connection that already has the status is answered with changed: false and nothing is recorded. ` +
            `404 source_not_found when the tenant has no such connection; 409 source_revoked to pause or resume a revoked one. ${auditNote} ${idempotencyNote}`,
          headers: IdempotencyKeyHeaders,
          body: ConnectionBody,
          response: { 200: ConnectionChange },
        },
      },
      async (request, reply) => {
        const { tenant_id, provider, account_ref } = request.body
        const { outcome, replayed } = await connectors.change(contextOf(request), { tenantId: tenant_id, provider, accountRef: account_ref, move })
        return markReplayed(reply, replayed).send(outcome)
      },
    )
  }

  app.post(
    '/v1/platform/connectors/rotate-secret',
    {
      config: { auth },
      schema: {
        tags,
        operationId: 'rotatePlatformConnectorSecret',
        summary: 'Give a connection a new signing secret',
        description:
          'The old secret stops verifying at once (no overlap). 404 source_not_found; 409 source_revoked for a revoked connection. ' +
          `${auditNote} ${idempotencyNote} A replay returns the same secret.`,
        headers: IdempotencyKeyHeaders,
        body: ConnectionBody,
        response: { 200: ConnectionWithSecret },
      },
    },
    async (request, reply) => {
      const { tenant_id, provider, account_ref } = request.body
      const { outcome, replayed } = await connectors.rotateSecret(contextOf(request), { tenantId: tenant_id, provider, accountRef: account_ref })
      return markReplayed(reply, replayed).send(withWebhookUrl(outcome))
    },
  )
}
