/**
 * Execution routes: the rail providers' webhooks, and agents' promotions out of shadow mode.
 * `POST /v1/rails/bank_ach/webhooks` is public (the provider's signature authenticates it) and reads its
 * body as raw bytes, because the signature is over the exact bytes sent. Promoting and demoting need
 * execution:admin (admins); reading a promotion execution:read. Both POSTs take an Idempotency-Key.
 */
import type { FastifyPluginAsync, FastifySchemaCompiler } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { contextOf, principalOf } from '../../platform/http/context.ts'
import { IdempotencyKeyHeaders, markReplayed } from '../../platform/http/idempotency.ts'
import { bearerRoute, publicRoute } from '../../platform/http/route-auth.ts'
import { registerNamedSchemas } from '../../platform/http/schemas.ts'
import { validatorCompiler } from '../../platform/http/validation.ts'
import * as executionSchemas from './execution.schemas.ts'
import { AchWebhookPayload, AgentPathParams, DemoteBody, Promotion, PromoteBody, PromotionStanding, RailWebhookAccepted, RailWebhookHeaders } from './execution.schemas.ts'
import type { Promotions } from './promotions.service.ts'
import type { RailWebhooks } from './rail-webhooks.service.ts'

/** A provider webhook's body stays bytes; every other part is validated as everywhere else. */
const bodyAsBytes: FastifySchemaCompiler<unknown> = (route) => (route.httpPart === 'body' ? () => true : validatorCompiler(route))

/** A provider event is small; anything larger is not one. */
export const railWebhookBytesMax = 16 * 1024

const idempotencyNote =
  'With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.'

export const executionRoutes: FastifyPluginAsync<{ railWebhooks: RailWebhooks; promotions: Promotions }> = async (app, { railWebhooks, promotions }) => {
  registerNamedSchemas(app, [...Object.values(executionSchemas)])
  const typed = app.withTypeProvider<TypeBoxTypeProvider>()

  typed.post(
    '/v1/execution/agents/:agent_id/promote',
    {
      config: { auth: bearerRoute(['execution:admin']) },
      schema: {
        operationId: 'promoteAgent',
        tags: ['Execution'],
        summary: 'Promote an agent out of shadow mode',
        description:
          'Until promoted, an agent\'s money proposals run in shadow: the whole pipeline, policy and gate included, ending shadow_completed with no rail call (governing rule 7). A promotion lets its approved payments out within per-payment and per-day caps in one currency, on the rails and (optionally) to the counterparties it names, until it expires; the gate enforces them (check 10). ' +
          'Refused, 409 agent_promotion_refused with details.scorecard and details.unmet, unless the agent\'s shadow scorecard meets the request\'s thresholds; the scorecard is in the promotion and its audit event (agent.promoted). A new promotion replaces an open one. 404 agent_not_found, 409 agent_inactive, 400 validation_failed (expiry, caps). ' +
          idempotencyNote,
        params: AgentPathParams,
        headers: IdempotencyKeyHeaders,
        body: PromoteBody,
        response: { 201: Promotion },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await promotions.promote(contextOf(request), { ...request.body, agent_id: request.params.agent_id })
      return markReplayed(reply, replayed).code(201).send(outcome)
    },
  )

  typed.post(
    '/v1/execution/agents/:agent_id/demote',
    {
      config: { auth: bearerRoute(['execution:admin']) },
      schema: {
        operationId: 'demoteAgent',
        tags: ['Execution'],
        summary: 'Demote an agent back to shadow mode',
        description: `Closes the agent's promotion (audited agent.demoted); its next executes are shadow runs. Payments already dispatched go on. 404 agent_promotion_not_found when it is not promoted, 404 agent_not_found. ${idempotencyNote}`,
        params: AgentPathParams,
        headers: IdempotencyKeyHeaders,
        body: DemoteBody,
        response: { 200: Promotion },
      },
    },
    async (request, reply) => {
      const { outcome, replayed } = await promotions.demote(contextOf(request), { agent_id: request.params.agent_id, reason: request.body.reason })
      return markReplayed(reply, replayed).code(200).send(outcome)
    },
  )

  typed.get(
    '/v1/execution/agents/:agent_id/promotion',
    {
      config: { auth: bearerRoute(['execution:read']) },
      schema: {
        operationId: 'getAgentPromotion',
        tags: ['Execution'],
        summary: 'An agent\'s promotion and shadow scorecard',
        description: 'The agent\'s open promotion (null in shadow mode; `active` false once expired) and its shadow scorecard now, to judge a promotion before asking for it. 404 agent_not_found.',
        params: AgentPathParams,
        response: { 200: PromotionStanding },
      },
    },
    async (request) => promotions.standing(principalOf(request).tenantId, request.params.agent_id),
  )

  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: railWebhookBytesMax }, (_request, body, done) => done(null, body))
    scope.withTypeProvider<TypeBoxTypeProvider>().post(
      '/v1/rails/bank_ach/webhooks',
      {
        config: { auth: publicRoute('rail-webhooks') },
        validatorCompiler: bodyAsBytes,
        schema: {
          operationId: 'receiveAchRailWebhook',
          tags: ['Execution'],
          summary: 'Receive a bank_ach provider event (signed, no bearer)',
          description:
            'The ACH provider tells Steward a transfer settled or was returned. X-Provider-Signature signs the raw body with the rail\'s webhook secret (ACH_WEBHOOK_SECRET), as Raw\'s provider webhooks are signed (docs/raw.md); any failure is 401 rail_webhook_signature_invalid. ' +
            'Settled: the execution completes and the intent is executed. Returned before settlement: the execution fails and the intent is failed. Returned after settlement: the return is recorded as a second receipt and audited; statuses stay. ' +
            `A redelivery answers applied: false. 404 rail_transfer_unknown when no execution has the event's idempotency_key (the provider redelivers). No Idempotency-Key: the signature authenticates it and an event applies once. Body at most ${railWebhookBytesMax} bytes.`,
          headers: RailWebhookHeaders,
          body: { content: { 'application/json': { schema: AchWebhookPayload } } },
          response: { 202: RailWebhookAccepted },
        },
      },
      async (request, reply) => {
        const signature = request.headers['x-provider-signature']
        const accepted = await railWebhooks.receiveAch({
          signature: typeof signature === 'string' ? signature : undefined,
          body: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
        })
        return reply.code(202).send(accepted)
      },
    )
  })
}
