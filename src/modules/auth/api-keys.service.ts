/**
 * Tenant API keys: read-only credentials for API partners (spec, "Tenant API key").
 *
 * The secret (`svc_sk_test_…` in the sandbox, `svc_sk_live_…` in production) is returned only when a key
 * is issued or rotated; only an HMAC-SHA-256 of it keyed by API_KEY_PEPPER is stored, so a database leak
 * does not leak usable keys, and a pepper leak alone does not either. Live keys fail closed as
 * `auth_invalid_key` until key auth is enabled for production.
 */
import { digestOf } from '../../kernel/audit-record.ts'
import type { Tx } from '../../platform/db/database.ts'
import type { CoreDeps } from '../../platform/deps.ts'
import type { CursorCodec } from '../../kernel/cursor.ts'
import { AppError } from '../../kernel/errors.ts'
import { hmacSha256Hex } from '../../kernel/hashing.ts'
import { type CommandContext, auditedBy, requirePrincipal } from '../../kernel/context.ts'
import type { ApiKeyRow, ApiKeyStatus, CredentialsStore } from './credentials.store.ts'
import { apiKeyScopes, resolveRateLimitRule, type ApiKeyScope, type RateLimitTier } from './scopes.ts'
import { intersectScopes, type Principal } from '../../kernel/principal.ts'
import { isSecretShaped, newSecret } from '../../kernel/secrets.ts'

export const apiKeyPrefixes = { test: 'svc_sk_test_', live: 'svc_sk_live_' } as const
export const apiKeyPageRows = { defaultRows: 50, maxRows: 500 } as const
/** Longest overlap during which a rotated-out secret keeps working. */
export const previousSecretSecondsMax = 7 * 24 * 60 * 60
/** `last_used_at` is written at most this often per key, so a busy key does not write on every request. */
export const lastUsedWriteIntervalSeconds = 60
/** Keys whose last recorded use this process remembers; past this the memory starts over. */
const recordedUseKeysMax = 10_000

export interface ApiKeyView {
  id: string
  tenant_id: string
  name: string
  environment: 'test' | 'live'
  prefix: string
  secret_last_four: string
  scopes: ApiKeyScope[]
  status: ApiKeyStatus
  expires_at: string | null
  last_used_at: string | null
  rotated_at: string | null
  previous_secret_expires_at: string | null
  revoked_at: string | null
  created_by: string
  created_at: string
}

export interface IssuedKey {
  api_key: ApiKeyView
  /** The plaintext secret: shown this once, never again. */
  secret: string
}

export interface ApiKeysService {
  issue(tenantId: string, input: { name: string; scopes?: ApiKeyScope[] | undefined; expires_at?: string | undefined }, context: CommandContext): Promise<IssuedKey>
  list(tenantId: string, query: { status?: ApiKeyStatus | undefined; limit?: number | undefined; cursor?: string | undefined }): Promise<{ api_keys: ApiKeyView[]; next_cursor: string | null }>
  get(tenantId: string, keyId: string): Promise<ApiKeyView>
  rotate(tenantId: string, keyId: string, input: { previous_secret_expires_in_seconds?: number | undefined }, context: CommandContext): Promise<IssuedKey>
  revoke(tenantId: string, keyId: string, context: CommandContext): Promise<ApiKeyView>
  /** The checks of authenticate that read nothing: prefix, environment and shape. Throws 401 auth_invalid_key. */
  checkWithoutLookup(secret: string): void
  authenticate(secret: string): Promise<Principal>
}

export function apiKeyStatus(key: Pick<ApiKeyRow, 'revokedAt' | 'expiresAt'>, now: Date): ApiKeyStatus {
  if (key.revokedAt !== null) return 'revoked'
  if (key.expiresAt !== null && key.expiresAt.getTime() <= now.getTime()) return 'expired'
  return 'active'
}

export function toApiKeyView(key: ApiKeyRow, now: Date): ApiKeyView {
  const environment = key.environment as 'test' | 'live'
  return {
    id: key.id,
    tenant_id: key.tenantId,
    name: key.name,
    environment,
    prefix: apiKeyPrefixes[environment],
    secret_last_four: key.secretLastFour,
    scopes: intersectScopes(key.scopes, apiKeyScopes) as ApiKeyScope[],
    status: apiKeyStatus(key, now),
    expires_at: key.expiresAt?.toISOString() ?? null,
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    rotated_at: key.rotatedAt?.toISOString() ?? null,
    previous_secret_expires_at: key.previousSecretExpiresAt?.toISOString() ?? null,
    revoked_at: key.revokedAt?.toISOString() ?? null,
    created_by: key.createdBy,
    created_at: key.createdAt.toISOString(),
  }
}

export function createApiKeysService(
  deps: CoreDeps & {
    store: CredentialsStore
    cursors: CursorCodec
    /** API_KEY_AUTH_PRODUCTION_ENABLED and API_KEY_PEPPER (the HMAC key of stored key digests). */
    config: { readonly apiKeyAuthProductionEnabled: boolean; readonly apiKeyPepper: string }
    log: { warn(object: object, message: string): void }
  },
): ApiKeysService {
  const { db, store, audit, ids, clock, cursors } = deps
  const environment: 'test' | 'live' = deps.environment === 'production' ? 'live' : 'test'
  // Keys are issued only where they can authenticate (spec: "when API-key auth is enabled for the environment").
  const keyAuthEnabled = environment === 'test' || deps.config.apiKeyAuthProductionEnabled
  const assertKeyAuthEnabled = () => {
    if (!keyAuthEnabled) throw new AppError('api_key_auth_disabled')
  }
  const digest = (secret: string) => hmacSha256Hex(deps.config.apiKeyPepper, secret)
  const recordedUse = new Map<string, number>()
  const newKeySecret = () => newSecret(apiKeyPrefixes[environment])

  function checkWithoutLookup(secret: string): void {
    const livePrefix = secret.startsWith(apiKeyPrefixes.live)
    const testPrefix = secret.startsWith(apiKeyPrefixes.test)
    // Keys do not cross environments, and live keys fail closed until production key auth is enabled.
    if (!livePrefix && !testPrefix) throw new AppError('auth_invalid_key')
    if (livePrefix && (environment !== 'live' || !keyAuthEnabled)) throw new AppError('auth_invalid_key')
    if (testPrefix && environment !== 'test') throw new AppError('auth_invalid_key')
    if (!isSecretShaped(secret, apiKeyPrefixes[environment])) throw new AppError('auth_invalid_key')
  }

  async function loadForChange(tx: Tx, tenantId: string, keyId: string): Promise<ApiKeyRow> {
    const key = await store.findApiKey(tx, tenantId, keyId, { forUpdate: true })
    if (key === undefined) throw new AppError('api_key_not_found')
    return key
  }

  async function reload(tx: Tx, tenantId: string, keyId: string): Promise<ApiKeyRow> {
    const key = await store.findApiKey(tx, tenantId, keyId)
    if (key === undefined) throw new Error(`api key ${keyId} vanished inside its own transaction`)
    return key
  }

  return {
    /** Issues a key; the secret is in the response only. Audits api_key.issued. */
    async issue(tenantId, input, context) {
      const principal = requirePrincipal(context)
      assertKeyAuthEnabled()
      const now = clock.now()
      const expiresAt = input.expires_at === undefined ? null : new Date(input.expires_at)
      if (expiresAt !== null && expiresAt.getTime() <= now.getTime()) {
        throw new AppError('validation_failed', 'expires_at must be in the future.', { field: 'expires_at' })
      }
      const secret = newKeySecret()
      const keyId = ids.newId('apiKey')
      const key = await db.transaction(async (tx) => {
        await store.insertApiKey(tx, {
          id: keyId,
          tenantId,
          name: input.name,
          environment,
          scopes: input.scopes === undefined ? [...apiKeyScopes] : [...new Set(input.scopes)],
          secretDigest: digest(secret),
          secretLastFour: secret.slice(-4),
          previousSecretDigest: null,
          previousSecretExpiresAt: null,
          expiresAt,
          lastUsedAt: null,
          rotatedAt: null,
          revokedAt: null,
          createdBy: principal.id,
          createdAt: now,
          updatedAt: now,
        })
        const row = await reload(tx, tenantId, keyId)
        await audit.record(tx, auditedBy(context, {
          action: 'api_key.issued',
          entity: { type: 'api_key', id: keyId },
          inputs: { request: digestOf(input) },
          outputs: { environment, scopes: row.scopes, expires_at: row.expiresAt?.toISOString() ?? null },
        }))
        return row
      })
      return { api_key: toApiKeyView(key, now), secret }
    },

    async list(tenantId, query) {
      const now = clock.now()
      const limit = query.limit ?? apiKeyPageRows.defaultRows
      const listing = `api_keys:${tenantId}`
      const afterId = query.cursor === undefined ? undefined : String(cursors.decode(listing, query.cursor).after_id)
      const rows = await store.listApiKeys(db.orm, tenantId, { status: query.status, afterId, limit: limit + 1, now })
      const page = rows.slice(0, limit)
      const last = page.at(-1)
      return {
        api_keys: page.map((key) => toApiKeyView(key, now)),
        next_cursor: rows.length > limit && last !== undefined ? cursors.encode(listing, { after_id: last.id }) : null,
      }
    },

    async get(tenantId, keyId) {
      const key = await store.findApiKey(db.orm, tenantId, keyId)
      if (key === undefined) throw new AppError('api_key_not_found')
      return toApiKeyView(key, clock.now())
    },

    /**
     * Replaces the secret. The old one stops working at once, or after an overlap of up to seven days
     * when `previous_secret_expires_in_seconds` is given. Locks the key row. Audits api_key.rotated.
     */
    async rotate(tenantId, keyId, input, context) {
      const principal = requirePrincipal(context)
      assertKeyAuthEnabled()
      const now = clock.now()
      const overlapSeconds = input.previous_secret_expires_in_seconds ?? 0
      const secret = newKeySecret()
      const key = await db.transaction(async (tx) => {
        const current = await loadForChange(tx, tenantId, keyId)
        if (current.revokedAt !== null) throw new AppError('api_key_revoked')
        // A new secret on an expired key could never authenticate; issue a new key instead.
        if (apiKeyStatus(current, now) === 'expired') throw new AppError('api_key_expired')
        await store.updateApiKey(tx, tenantId, keyId, {
          secretDigest: digest(secret),
          secretLastFour: secret.slice(-4),
          previousSecretDigest: overlapSeconds > 0 ? current.secretDigest : null,
          previousSecretExpiresAt: overlapSeconds > 0 ? new Date(now.getTime() + overlapSeconds * 1000) : null,
          rotatedAt: now,
          updatedAt: now,
        })
        await audit.record(tx, auditedBy(context, {
          action: 'api_key.rotated',
          entity: { type: 'api_key', id: keyId },
          outputs: { previous_secret_overlap_seconds: overlapSeconds },
        }))
        return reload(tx, tenantId, keyId)
      })
      return { api_key: toApiKeyView(key, now), secret }
    },

    /** Revokes the key (and any overlapping previous secret) at once. Idempotent. Audits api_key.revoked. */
    async revoke(tenantId, keyId, context) {
      const principal = requirePrincipal(context)
      const now = clock.now()
      const key = await db.transaction(async (tx) => {
        const current = await loadForChange(tx, tenantId, keyId)
        if (current.revokedAt !== null) return current
        await store.updateApiKey(tx, tenantId, keyId, { revokedAt: now, previousSecretDigest: null, previousSecretExpiresAt: null, updatedAt: now })
        await audit.record(tx, auditedBy(context, {
          action: 'api_key.revoked',
          entity: { type: 'api_key', id: keyId },
        }))
        return reload(tx, tenantId, keyId)
      })
      return toApiKeyView(key, now)
    },

    checkWithoutLookup,

    async authenticate(secret) {
      checkWithoutLookup(secret)
      const now = clock.now()
      const found = await store.findApiKeyBySecretDigest(db.orm, digest(secret), now)
      if (found === undefined || apiKeyStatus(found.key, now) !== 'active') throw new AppError('auth_invalid_key')
      if (found.tenant.status === 'suspended') throw new AppError('tenant_suspended')

      // Usage tracking must not fail or slow the request it describes, and a busy key must not send a
      // write per request: this process remembers when it last recorded each key (the UPDATE's own
      // condition covers other processes).
      const lastRecorded = recordedUse.get(found.key.id)
      if (lastRecorded === undefined || now.getTime() - lastRecorded >= lastUsedWriteIntervalSeconds * 1000) {
        if (recordedUse.size >= recordedUseKeysMax) recordedUse.clear()
        recordedUse.set(found.key.id, now.getTime())
        store
          .touchApiKey(db.orm, found.key.tenantId, found.key.id, now, lastUsedWriteIntervalSeconds)
          .catch((error: unknown) => deps.log.warn({ err: error, api_key_id: found.key.id }, 'could not record api key use'))
      }

      return {
        id: found.key.id,
        type: 'api_key',
        tenantId: found.key.tenantId,
        scopes: intersectScopes(found.key.scopes, apiKeyScopes),
        credentialId: found.key.id,
        rateLimit: resolveRateLimitRule(found.tenant.rateLimitTier as RateLimitTier, {
          perMinute: found.tenant.rateLimitPerMinute,
          burst: found.tenant.rateLimitBurst,
        }),
      }
    },
  }
}
