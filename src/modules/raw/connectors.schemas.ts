/** Wire schemas of the platform's connector routes (`/v1/platform/connectors…`, connectors.routes.ts). */
import Type from 'typebox'
import { Strict, TenantId, Timestamp } from '../../platform/http/schemas.ts'
import { accountRefPattern } from './connectors.service.ts'
import { providers } from './domain/source-types.ts'

const Provider = Type.Enum(providers, { description: 'The provider whose webhooks the connection accepts (POST /v1/raw/webhooks/{provider}).' })
const AccountRef = Type.String({
  pattern: accountRefPattern.source,
  description: 'The provider account: the X-Provider-Account header its webhooks carry. Unique per provider across tenants.',
})

export const Connection = Strict({
  connection_id: Type.String({ description: 'pcn_…' }),
  tenant_id: TenantId,
  provider: Provider,
  account_ref: Type.String(),
  status: Type.Enum(['active', 'paused', 'revoked']),
  created_at: Timestamp,
  updated_at: Timestamp,
})

export const ConnectionListQuery = Strict({ tenant_id: TenantId })
export const ConnectionList = Strict({ connections: Type.Array(Connection) })

/** Names one connection: the tenant it must belong to (404 source_not_found otherwise), and its provider account. */
export const ConnectionBody = Strict({ tenant_id: TenantId, provider: Provider, account_ref: AccountRef })

export const ConnectionWithSecret = Strict({
  connection: Connection,
  secret: Type.String({
    pattern: '^psk_[A-Za-z0-9_-]{43}$',
    description: 'The signing secret: X-Provider-Signature is t=<unix seconds>,v1=<hex HMAC-SHA-256(secret, "<t>." + body)>. Shown in this response (and its replays for the same Idempotency-Key) only.',
  }),
  webhook_url: Type.String({ description: 'Where the provider POSTs: PUBLIC_BASE_URL/v1/raw/webhooks/{provider}, as this server is configured.' }),
})

export const ConnectionChange = Strict({
  connection: Connection,
  changed: Type.Boolean({ description: 'false when the connection already had the status asked for (nothing recorded).' }),
})

