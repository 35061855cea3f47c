/**
 * Webhook routes. The tenant is the caller's (there is no tenant in these paths); another tenant's
 * endpoint is 404 webhook_endpoint_not_found.
 *
 * Scopes: registering, reading and changing endpoints is tenant administration (`surfaces:admin`, user
 * principals: owner and admin), because endpoints carry URLs and signing secrets; the dead-letter
 * surface uses the spec's scopes, audit:read and audit:write. Reading the events themselves (GET
 * /v1/events) is what an endpoint that takes every type receives, so it asks what registering one does.
 *
 * Every route that changes something takes an Idempotency-Key: POST (register, rotate, replay), and
 * PATCH and DELETE too, because a retry of those is not harmless either: a repeated PATCH would undo a
 * change made since and audit it again, a repeated DELETE would answer 404 to a delete that worked.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { contextOf, principalOf } from '../../platform/http/context.ts'
import { IdempotencyKeyHeaders, markReplayed } from '../../platform/http/idempotency.ts'
import { bearerRoute } from '../../platform/http/route-auth.ts'
import { deliveryAttemptsMax, replayAttemptsMax } from './domain/delivery.ts'
import { replayConcurrency, replayRowsMax, type WebhooksService } from './webhooks.service.ts'
import {
  CreateEndpointBody,
  DeadLetterListQuery,
  DeadLetterListResponse,
  DeletedEndpointResponse,
  EndpointListQuery,
  EndpointListResponse,
  EndpointPathParams,
  EndpointWithSecretResponse,
  EventListQuery,
  EventListResponse,
  ReplayBody,
  ReplayResponse,
  RotateSecretBody,
  UpdateEndpointBody,
  WebhookEndpoint,
} from './webhooks.schemas.ts'
import { registerNamedSchemas } from '../../platform/http/schemas.ts'
import * as webhooksSchemas from './webhooks.schemas.ts'

export interface WebhookRoutesOptions {
  readonly webhooks: WebhooksService
}

const tags = ['Webhooks']
/** What every changing route's description says about its Idempotency-Key. */
const idempotencyNote =
  'With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.'

export const webhookRoutes: FastifyPluginAsyncTypebox<WebhookRoutesOptions> = async (app, { webhooks }) => {
  // The named response schemas (Transaction, Member, …): OpenAPI components, referred to by $ref.
  registerNamedSchemas(app, [...Object.values(webhooksSchemas)])
  const endpointAdmin = bearerRoute(['surfaces:admin'], { principalTypes: ['user'] })

  app.post(
    '/v1/webhooks',
    {
      config: { auth: endpointAdmin },
      schema: {
        operationId: 'createWebhookEndpoint',
        tags,
        summary: 'Register a webhook endpoint',
        description:
          'Events of the listed types (all when event_types is empty or absent) are POSTed to the URL, signed per Standard Webhooks. The signing secret is in this response only (and in its replay for the same Idempotency-Key). 400 webhook_url_refused when the URL breaks the egress rules. ' +
          idempotencyNote,
        headers: IdempotencyKeyHeaders,
        body: CreateEndpointBody,
        response: { 201: EndpointWithSecretResponse },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await webhooks.create(contextOf(request), request.body)
      return markReplayed(reply, replayed).code(201).send(outcome)
    },
  )

  app.get(
    '/v1/webhooks',
    {
      config: { auth: endpointAdmin },
      schema: { operationId: 'listWebhookEndpoints', tags, summary: 'List webhook endpoints', querystring: EndpointListQuery, response: { 200: EndpointListResponse } },
    },
    async (request) => webhooks.list(principalOf(request).tenantId, request.query),
  )

  app.get(
    '/v1/webhooks/:endpoint_id',
    {
      config: { auth: endpointAdmin },
      schema: { operationId: 'getWebhookEndpoint', tags, summary: 'Read a webhook endpoint', params: EndpointPathParams, response: { 200: WebhookEndpoint } },
    },
    async (request) => webhooks.get(principalOf(request).tenantId, request.params.endpoint_id),
  )

  app.patch(
    '/v1/webhooks/:endpoint_id',
    {
      config: { auth: endpointAdmin },
      schema: {
        operationId: 'updateWebhookEndpoint',
        tags,
        summary: 'Change a webhook endpoint',
        description: `Changes the URL (checked again), event types, description (null clears it) or status. A disabled endpoint gets no new deliveries. ${idempotencyNote}`,
        params: EndpointPathParams,
        headers: IdempotencyKeyHeaders,
        body: UpdateEndpointBody,
        response: { 200: WebhookEndpoint },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await webhooks.update(contextOf(request), { endpointId: request.params.endpoint_id, ...request.body })
      return markReplayed(reply, replayed).send(outcome)
    },
  )

  app.delete(
    '/v1/webhooks/:endpoint_id',
    {
      config: { auth: endpointAdmin },
      schema: {
        operationId: 'deleteWebhookEndpoint',
        tags,
        summary: 'Delete a webhook endpoint',
        description: `Deletes the endpoint with its deliveries and dead letters; pending attempts are dropped. ${idempotencyNote}`,
        params: EndpointPathParams,
        headers: IdempotencyKeyHeaders,
        response: { 200: DeletedEndpointResponse },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await webhooks.remove(contextOf(request), { endpointId: request.params.endpoint_id })
      return markReplayed(reply, replayed).send(outcome)
    },
  )

  app.post(
    '/v1/webhooks/:endpoint_id/rotate-secret',
    {
      config: { auth: endpointAdmin },
      schema: {
        operationId: 'rotateWebhookEndpointSecret',
        tags,
        summary: 'Rotate an endpoint\'s signing secret',
        description:
          'Returns the new secret once (and in the replay for the same Idempotency-Key). With previous_secret_expires_in_seconds, deliveries carry signatures by both secrets (space-separated in webhook-signature) until the overlap ends. ' +
          idempotencyNote,
        params: EndpointPathParams,
        headers: IdempotencyKeyHeaders,
        body: RotateSecretBody,
        response: { 200: EndpointWithSecretResponse },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await webhooks.rotateSecret(contextOf(request), { endpointId: request.params.endpoint_id, ...request.body })
      return markReplayed(reply, replayed).send(outcome)
    },
  )

  app.get(
    '/v1/webhooks/:endpoint_id/dead-letters',
    {
      config: { auth: bearerRoute(['audit:read']) },
      schema: {
        operationId: 'listWebhookDeadLetters',
        tags,
        summary: 'List an endpoint\'s dead letters',
        description: `Deliveries that failed ${deliveryAttemptsMax} automatic attempts, oldest first.`,
        params: EndpointPathParams,
        querystring: DeadLetterListQuery,
        response: { 200: DeadLetterListResponse },
      },
    },
    async (request) => webhooks.listDeadLetters(principalOf(request).tenantId, request.params.endpoint_id, request.query),
  )

  app.post(
    '/v1/webhooks/:endpoint_id/replay',
    {
      config: { auth: bearerRoute(['audit:write']) },
      schema: {
        operationId: 'replayWebhookDeadLetters',
        tags,
        summary: 'Replay an endpoint\'s dead letters',
        description:
          `Re-attempts, synchronously, every dead letter with fewer than ${replayAttemptsMax} attempts, oldest first, at most ${replayRowsMax} per call and ${replayConcurrency} at a time. ` +
          'Each attempt is counted when its dead letter is claimed, before the request leaves; a dead letter another replay is attempting, or attempted after this call began, is skipped (neither attempted nor remaining). ' +
          'A success deletes the dead letter; a failure records the error. 409 webhook_endpoint_disabled for a disabled endpoint. ' +
          idempotencyNote,
        params: EndpointPathParams,
        headers: IdempotencyKeyHeaders,
        body: ReplayBody,
        response: { 200: ReplayResponse },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await webhooks.replay(contextOf(request), { endpointId: request.params.endpoint_id })
      return markReplayed(reply, replayed).send(outcome)
    },
  )

  app.get(
    '/v1/events',
    {
      config: { auth: endpointAdmin },
      schema: {
        tags,
        operationId: 'listEvents',
        summary: 'List your business events',
        description:
          'The events registered endpoints receive, with the same body (docs/webhooks.md), in id order: ids sort by creation time to the millisecond. ' +
          'Resume with after = the id of the last event handled. An event is given its id when it is recorded, not when its transaction commits, so an event of a long transaction can appear after a later id was read: ' +
          'a client that must see every event re-reads a trailing window with since and deduplicates on id (as steward webhooks listen does). Reads only.',
        querystring: EventListQuery,
        response: { 200: EventListResponse },
      },
    },
    async (request) => {
      const { types, ...query } = request.query
      return webhooks.events(principalOf(request).tenantId, { ...query, types: types?.split(',') })
    },
  )
}
