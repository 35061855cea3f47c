/** Wire schemas of the auth routes: login, service tokens, whoami, API keys. */
import Type from 'typebox'
import { named, NextCursor, Nullable, pageQuery, PathId, Strict, TenantId, TenantPathId, Timestamp } from '../../platform/http/schemas.ts'
import { prefixedIdPattern } from '../../kernel/ids.ts'
import { apiKeyPageRows, previousSecretSecondsMax } from './api-keys.service.ts'
import { apiKeyScopes, serviceTokenScopes } from './scopes.ts'
import { scopes } from '../../kernel/principal.ts'

const literals = Type.Enum

export const PrincipalSchema = named('Principal', Strict({
  id: Type.String(),
  type: literals(['user', 'service', 'api_key', 'agent'] as const),
  tenantId: TenantId,
  scopes: Type.Array(literals(scopes)),
}))

export const TokenResponse = named('Token', Strict({
  access_token: Type.String(),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer({ description: 'Seconds until the token expires.' }),
  principal: PrincipalSchema,
}))

export const LoginBody = Strict({
  email: Type.String({ minLength: 1, maxLength: 320 }),
  password: Type.String({ minLength: 1, maxLength: 4096 }),
})

export const ServiceTokenBody = Strict({
  tenant_id: TenantId,
  reason: Type.String({ minLength: 1, maxLength: 500, description: 'Why break-glass access is needed; recorded in the audit chain.' }),
  subject: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_.:-]+$', description: 'What the token acts as (for example an internal agent name); default "break-glass".' }),
  ),
  scopes: Type.Optional(
    Type.Array(literals(serviceTokenScopes), { minItems: 1, uniqueItems: true, description: 'A subset of the service-token scopes; default all of them.' }),
  ),
})

export const ApiKey = named('ApiKey', Strict({
  id: Type.String(),
  tenant_id: TenantId,
  name: Type.String(),
  environment: literals(['test', 'live'] as const),
  prefix: Type.String({ description: 'svc_sk_test_ (sandbox) or svc_sk_live_ (production).' }),
  secret_last_four: Type.String({ description: 'The last four characters of the current secret, to tell keys apart.' }),
  scopes: Type.Array(literals(apiKeyScopes)),
  status: literals(['active', 'expired', 'revoked'] as const),
  expires_at: Nullable(Timestamp),
  last_used_at: Nullable(Timestamp),
  rotated_at: Nullable(Timestamp),
  previous_secret_expires_at: Nullable(Timestamp),
  revoked_at: Nullable(Timestamp),
  created_by: Type.String(),
  created_at: Timestamp,
}))

export const IssuedKeyResponse = named('IssuedApiKey', Strict({
  api_key: ApiKey,
  secret: Type.String({ description: 'The plaintext key. Shown only in this response (and its replays under the same Idempotency-Key); store it now.' }),
}))

export const IssueKeyBody = Strict({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  scopes: Type.Optional(Type.Array(literals(apiKeyScopes), { minItems: 1, uniqueItems: true, description: 'Default: all three read scopes.' })),
  expires_at: Type.Optional(Timestamp),
})

export const RotateKeyBody = Strict({
  previous_secret_expires_in_seconds: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: previousSecretSecondsMax,
      description: 'Keep the old secret working this long (default 0: it stops at once).',
    }),
  ),
})

export const ApiKeyPathParams = Strict({ tenant_id: TenantPathId, key_id: PathId('api_key_not_found', 'apiKey', 'The API key id') })

export const ApiKeyListQuery = Strict({
  status: Type.Optional(literals(['active', 'expired', 'revoked'] as const)),
  ...pageQuery(apiKeyPageRows),
})

export const ApiKeyListResponse = Strict({ api_keys: Type.Array(ApiKey), next_cursor: NextCursor })

export const SiwxChallengeBody = Strict({
  address: Type.String({ pattern: '^0x[0-9a-fA-F]{40}$', description: 'The wallet that will sign (any letter case).' }),
})

export const SiwxChallenge = named('SiwxChallenge', Strict({
  nonce: Type.String({ description: 'Single use, bound to the address, held 300 seconds.' }),
  address: Type.String({ description: 'The address, EIP-55 checksummed, as the message must write it.' }),
  domain: Type.String({ description: 'The message\'s first-line domain: PUBLIC_BASE_URL\'s host[:port].' }),
  uri: Type.String({ description: 'The message\'s URI: PUBLIC_BASE_URL without a trailing slash.' }),
  version: Type.Literal('1'),
  chain_id: Type.Integer({ description: '8453.' }),
  issued_at: Type.String({ format: 'date-time' }),
  expiration_time: Type.String({ format: 'date-time', description: 'When the nonce expires.' }),
  message: Type.String({ description: 'The EIP-4361 message built from these fields, ready to sign with personal_sign.' }),
}))

export const SiwxSignInBody = Strict({
  message: Type.String({ minLength: 1, maxLength: 2048 }),
  signature: Type.String({ minLength: 1, maxLength: 200, description: '0x and 130 hex digits: an EIP-191 personal_sign signature.' }),
  session_id: Type.String({ minLength: 1, maxLength: 200, description: 'The client\'s session, recorded in the audit log.' }),
})
