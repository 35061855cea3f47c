/** Wire schemas of the execution module's routes: the rail providers' webhooks. */
import Type from 'typebox'
import { named, Strict } from '../../platform/http/schemas.ts'
import { signatureToleranceSeconds } from '../raw/index.ts'

/** A bank_ach provider event: a transfer settled, or returned (before or after it settled). Inline: request schemas are not named. */
export const AchWebhookPayload = Strict(
  {
    id: Type.String({ minLength: 1, maxLength: 128, description: 'The provider\'s event id; the same on every redelivery.' }),
    type: Type.Union([Type.Literal('transfer.settled'), Type.Literal('transfer.returned')]),
    transfer_id: Type.String({ minLength: 1, maxLength: 128, description: 'The provider\'s transfer id (the execution\'s rail_reference).' }),
    idempotency_key: Type.String({ minLength: 1, maxLength: 128, description: 'The key the transfer was created with: the outbox row\'s.' }),
    metadata: Strict(
      { tenant_id: Type.String({ format: 'uuid' }), payment_intent_id: Type.String({ maxLength: 64 }) },
      { description: 'What Steward attached to the transfer, echoed by the provider: the tenant and the intent.' },
    ),
    amount: Type.String({ maxLength: 40 }),
    currency: Type.String({ maxLength: 10 }),
    return_code: Type.Union([Type.String({ pattern: '^R[0-9]{2}$' }), Type.Null()], { description: 'NACHA return code of a returned transfer.' }),
    settled_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When the transfer settled; null for one returned before settlement.' }),
    occurred_at: Type.String({ format: 'date-time' }),
  },
  { description: 'A bank_ach provider event, signed over its raw bytes.' },
)

export const RailWebhookHeaders = Type.Object({
  'x-provider-signature': Type.Optional(
    Type.String({ description: `t=<unix seconds>,v1=<hex HMAC-SHA-256(secret, "<t>." + raw body)>; the timestamp must be within ${signatureToleranceSeconds} s of ours.` }),
  ),
})

export const RailWebhookAccepted = named(
  'RailWebhookAccepted',
  Strict({
    accepted: Type.Literal(true),
    applied: Type.Boolean({ description: 'False when the event changed nothing (a redelivery, or an event about an execution already settled that way).' }),
    execution_id: Type.String(),
    execution_status: Type.Union([Type.Literal('dispatched'), Type.Literal('in_flight'), Type.Literal('completed'), Type.Literal('failed')]),
  }),
)
