/**
 * Execution routes: the rail providers' webhooks. `POST /v1/rails/bank_ach/webhooks` is public (the
 * provider's signature authenticates it) and reads its body as raw bytes, because the signature is over
 * the exact bytes sent.
 */
import type { FastifyPluginAsync, FastifySchemaCompiler } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { publicRoute } from '../../platform/http/route-auth.ts'
import { registerNamedSchemas } from '../../platform/http/schemas.ts'
import { validatorCompiler } from '../../platform/http/validation.ts'
import * as executionSchemas from './execution.schemas.ts'
import { AchWebhookPayload, RailWebhookAccepted, RailWebhookHeaders } from './execution.schemas.ts'
import type { RailWebhooks } from './rail-webhooks.service.ts'

/** A provider webhook's body stays bytes; every other part is validated as everywhere else. */
const bodyAsBytes: FastifySchemaCompiler<unknown> = (route) => (route.httpPart === 'body' ? () => true : validatorCompiler(route))

/** A provider event is small; anything larger is not one. */
export const railWebhookBytesMax = 16 * 1024

export const executionRoutes: FastifyPluginAsync<{ railWebhooks: RailWebhooks }> = async (app, { railWebhooks }) => {
  registerNamedSchemas(app, [...Object.values(executionSchemas)])
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
