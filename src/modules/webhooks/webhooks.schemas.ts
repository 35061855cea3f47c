/** Wire schemas of the webhook routes: endpoint registration, dead letters, replay. */
import Type from 'typebox'
import { named, NextCursor, Nullable, pageQuery, PathId, Strict, TenantId, Timestamp } from '../../platform/http/schemas.ts'
import { prefixedIdPattern } from '../../kernel/ids.ts'
import { replayAttemptsMax } from './domain/delivery.ts'
import { eventTypes } from '../../platform/outbox/events.ts'
import { eventPageRows } from './events.service.ts'
import {
  deadLetterPageRows,
  descriptionCharsMax,
  endpointPageRows,
  replayRowsMax,
  secretOverlapSecondsMax,
  urlCharsMax,
} from './webhooks.service.ts'

const literals = Type.Enum

const Url = Type.String({
  minLength: 1,
  maxLength: urlCharsMax,
  description:
    'Where events are POSTed. http or https (https only in production), no user name or password; in production the host must resolve only to public internet addresses (docs/webhooks.md).',
})
const EventTypes = Type.Array(literals(eventTypes), {
  uniqueItems: true,
  maxItems: eventTypes.length,
  description: 'Event types to deliver, from the fixed allowlist; empty means every type.',
})
const Description = Type.String({ minLength: 1, maxLength: descriptionCharsMax })
const EndpointStatus = literals(['enabled', 'disabled'] as const)

export const WebhookEndpoint = named('WebhookEndpoint', Strict({
  id: Type.String(),
  tenant_id: TenantId,
  url: Type.String(),
  description: Nullable(Type.String()),
  event_types: Type.Array(Type.String(), { description: 'Empty means every type.' }),
  status: EndpointStatus,
  previous_secret_expires_at: Nullable(Timestamp),
  created_by: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
}))

export const EndpointWithSecretResponse = named('WebhookEndpointWithSecret', Strict({
  endpoint: WebhookEndpoint,
  secret: Type.String({ description: 'The signing secret (whsec_ + base64 of 32 bytes). Shown only in this response; store it now.' }),
}))

export const CreateEndpointBody = Strict({
  url: Url,
  event_types: Type.Optional(EventTypes),
  description: Type.Optional(Description),
})

export const UpdateEndpointBody = Strict(
  {
    url: Type.Optional(Url),
    event_types: Type.Optional(EventTypes),
    description: Type.Optional(Nullable(Description)),
    status: Type.Optional(EndpointStatus),
  },
  { minProperties: 1 },
)

export const RotateSecretBody = Strict({
  previous_secret_expires_in_seconds: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: secretOverlapSecondsMax,
      description: 'Keep signing with the old secret too for this long (default 0: it stops at once). Deliveries then carry two signatures.',
    }),
  ),
})

export const EndpointPathParams = Strict({ endpoint_id: PathId('webhook_endpoint_not_found', 'webhookEndpoint', 'The endpoint id') })

export const EndpointListQuery = Strict({ ...pageQuery(endpointPageRows) })
export const EndpointListResponse = Strict({ endpoints: Type.Array(WebhookEndpoint), next_cursor: NextCursor })

export const DeletedEndpointResponse = Strict({ endpoint_id: Type.String(), deleted: Type.Literal(true) })

const eventTypeAlternatives = `(${eventTypes.map((type) => type.replaceAll('.', '\\.')).join('|')})`

export const EventListQuery = Strict({
  after: Type.Optional(
    Type.String({ pattern: prefixedIdPattern('event'), description: 'Only events whose id sorts after this one: the id of the last event you handled.' }),
  ),
  since: Type.Optional(Timestamp),
  types: Type.Optional(
    Type.String({
      maxLength: 2048,
      pattern: `^${eventTypeAlternatives}(,${eventTypeAlternatives})*$`,
      description: 'Only these event types, comma-separated (the allowlist of the webhook event types).',
    }),
  ),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: eventPageRows.maxRows, description: `Page size, 1 to ${eventPageRows.maxRows} (default ${eventPageRows.defaultRows}).` }),
  ),
})

export const WebhookEvent = Strict({
  type: Type.String({ description: 'The event type, one of the allowlist.' }),
  id: Type.String({ description: 'The event id (evt_…): the webhook-id of its deliveries.' }),
  created_at: Timestamp,
  tenant_id: TenantId,
  audit_event_id: Nullable(Type.String({ description: 'The audit event recording the same change.' })),
  data: Type.Record(Type.String(), Type.Unknown(), { description: 'The event\'s own fields (docs/webhooks.md).' }),
})

export const EventListResponse = Strict({
  events: Type.Array(WebhookEvent),
  has_more: Type.Boolean({ description: 'More events follow: ask again with after = the id of the last event of this page.' }),
})

export const DeadLetter = named('WebhookDeadLetter', Strict({
  id: Type.String(),
  event_id: Type.String(),
  event_type: Type.String(),
  last_error: Type.String(),
  attempt_count: Type.Integer(),
  created_at: Timestamp,
  last_attempt_at: Timestamp,
}))

export const DeadLetterListQuery = Strict({ ...pageQuery(deadLetterPageRows) })
export const DeadLetterListResponse = Strict({ endpoint_id: Type.String(), dead_letters: Type.Array(DeadLetter), next_cursor: NextCursor })

export const ReplayBody = Strict({})
export const ReplayResponse = Strict({
  endpoint_id: Type.String(),
  attempted: Type.Integer({ description: `Dead letters re-attempted by this call (at most ${replayRowsMax}).` }),
  redelivered: Type.Integer({ description: 'Of those, delivered now: their dead letters are gone.' }),
  still_failing: Type.Integer({ description: 'Of those, failed again: attempt_count went up by one.' }),
  remaining: Type.Integer({ description: `Dead letters under the cap of ${replayAttemptsMax} attempts that this call did not reach; call again.` }),
})
