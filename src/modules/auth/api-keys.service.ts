/**
 * Tenant API keys: read-only credentials for API partners (spec, "Tenant API key").
 *
 * The secret (`svc_sk_test_…` in the sandbox, `svc_sk_live_…` in production) is returned only when a key
 * is issued or rotated; only an HMAC-SHA-256 of it keyed by API_KEY_PEPPER is stored, so a database leak
 * does not leak usable keys, and a pepper leak alone does not either. Live keys fail closed as
 * `auth_invalid_key` until key auth is enabled for production.
 */
import { assert } from '../../kernel/assert.ts'
import { digestOf } from '../../kernel/audit-record.ts'
import type { Clock } from '../../kernel/clock.ts'
import { type CommandContext, auditedBy, requirePrincipal, type StewardEnvironment } from '../../kernel/context.ts'
import type { CursorCodec } from '../../kernel/cursor.ts'
import { AppError } from '../../kernel/errors.ts'
import { hmacSha256Hex } from '../../kernel/hashing.ts'
import type { IdSource } from '../../kernel/ids.ts'
import { intersectScopes, type Principal } from '../../kernel/principal.ts'
import { isSecretShaped, type ReplayableSecrets } from '../../kernel/secrets.ts'
import type { CommandResult, CommandRunner } from '../../platform/commands/command.ts'
import type { Database, Tx } from '../../platform/db/database.ts'
import type { ApiKeyRow, ApiKeyStatus, CredentialsStore } from './credentials.store.ts'
import { apiKeyScopes, resolveRateLimitRule, type ApiKeyScope, type RateLimitTier } from './scopes.ts'

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
  /** The plaintext secret: shown in this response (and its replays), never again. */
  secret: string
}

/**
 * What an issue or rotation's idempotency record keeps: the secret's seed (ReplayableSecrets), never the
 * secret, so the database holds no usable key and a replay hands out the same secret.
 */
type IssuedKeyOutcome = { api_key: ApiKeyView; secret_seed: string }

/** The key a change names (its path parameters). */
export interface ApiKeyRef {
  readonly tenant_id: string
  readonly key_id: string
}

/**
 * The key commands take an Idempotency-Key (scoped to the tenant): a repeat with the same key and input
 * replays the first outcome (`replayed: true`), secret included, and changes nothing.
 */
export interface ApiKeysService {
  issue(context: CommandContext, input: { tenant_id: string; name: string; scopes?: ApiKeyScope[] | undefined; expires_at?: string | undefined }): Promise<CommandResult<IssuedKey>>
  list(tenantId: string, query: { status?: ApiKeyStatus | undefined; limit?: number | undefined; cursor?: string | undefined }): Promise<{ api_keys: ApiKeyView[]; next_cursor: string | null }>
  get(tenantId: string, keyId: string): Promise<ApiKeyView>
  rotate(context: CommandContext, input: ApiKeyRef & { previous_secret_expires_in_seconds?: number | undefined }): Promise<CommandResult<IssuedKey>>
  revoke(context: CommandContext, input: ApiKeyRef): Promise<CommandResult<ApiKeyView>>
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

export function createApiKeysService(deps: {
  db: Database
  commands: CommandRunner
  store: CredentialsStore
  cursors: CursorCodec
  /** Secrets derived from seeds, so that a replayed issue or rotation returns its secret without storing it. */
  secrets: ReplayableSecrets
  ids: IdSource
  clock: Clock
  environment: StewardEnvironment
  /** API_KEY_AUTH_PRODUCTION_ENABLED and API_KEY_PEPPER (the HMAC key of stored key digests). */
  config: { readonly apiKeyAuthProductionEnabled: boolean; readonly apiKeyPepper: string }
  log: { warn(object: object, message: string): void }
}): ApiKeysService {
  const { db, commands, store, ids, clock, cursors } = deps
  const environment: 'test' | 'live' = deps.environment === 'production' ? 'live' : 'test'
  // Keys are issued only where they can authenticate (spec: "when API-key auth is enabled for the environment").
  const keyAuthEnabled = environment === 'test' || deps.config.apiKeyAuthProductionEnabled
  const assertKeyAuthEnabled = () => {
    if (!keyAuthEnabled) throw new AppError('api_key_auth_disabled')
  }
  const digest = (secret: string) => hmacSha256Hex(deps.config.apiKeyPepper, secret)
  const recordedUse = new Map<string, number>()
  const secretOf = (seed: string) => deps.secrets.secretOf(seed, apiKeyPrefixes[environment])
  const revealed = (result: CommandResult<IssuedKeyOutcome>): CommandResult<IssuedKey> => ({
    ...result,
    outcome: { api_key: result.outcome.api_key, secret: secretOf(result.outcome.secret_seed) },
  })

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
    assert(key !== undefined, `api key ${keyId} is readable inside the transaction that wrote it`)
    return key
  }

  return {
    /** Issues a key; the secret is in the response only (and its replays). Audits api_key.issued. */
    async issue(context, input) {
      const principal = requirePrincipal(context)
      assertKeyAuthEnabled()
      const { tenant_id: tenantId, ...request } = input
      const now = clock.now()
      const expiresAt = input.expires_at === undefined ? null : new Date(input.expires_at)
      if (expiresAt !== null && expiresAt.getTime() <= now.getTime()) {
        throw new AppError('validation_failed', 'expires_at must be in the future.', { field: 'expires_at' })
      }
      const seed = deps.secrets.newSeed()
      const secret = secretOf(seed)
      const keyId = ids.newId('apiKey')
      const result = await commands.run(context, { name: 'api_keys.issue', tenantId, input }, async (tx) => {
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
        return {
          outcome: { api_key: toApiKeyView(row, now), secret_seed: seed },
          audit: [
            auditedBy(context, {
              action: 'api_key.issued',
              entity: { type: 'api_key', id: keyId },
              inputs: { request: digestOf(request) },
              outputs: { environment, scopes: row.scopes, expires_at: row.expiresAt?.toISOString() ?? null },
            }),
          ],
        }
      })
      return revealed(result)
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
    async rotate(context, input) {
      requirePrincipal(context)
      assertKeyAuthEnabled()
      const { tenant_id: tenantId, key_id: keyId } = input
      const now = clock.now()
      const overlapSeconds = input.previous_secret_expires_in_seconds ?? 0
      const seed = deps.secrets.newSeed()
      const secret = secretOf(seed)
      const result = await commands.run(context, { name: 'api_keys.rotate', tenantId, input }, async (tx) => {
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
        return {
          outcome: { api_key: toApiKeyView(await reload(tx, tenantId, keyId), now), secret_seed: seed },
          audit: [
            auditedBy(context, {
              action: 'api_key.rotated',
              entity: { type: 'api_key', id: keyId },
              outputs: { previous_secret_overlap_seconds: overlapSeconds },
            }),
          ],
        }
      })
      return revealed(result)
    },

    /** Revokes the key (and any overlapping previous secret) at once. Idempotent. Audits api_key.revoked. */
    async revoke(context, input) {
      requirePrincipal(context)
      const { tenant_id: tenantId, key_id: keyId } = input
      const now = clock.now()
      return commands.run(context, { name: 'api_keys.revoke', tenantId, input }, async (tx) => {
        const current = await loadForChange(tx, tenantId, keyId)
        if (current.revokedAt !== null) return { outcome: toApiKeyView(current, now) }
        await store.updateApiKey(tx, tenantId, keyId, { revokedAt: now, previousSecretDigest: null, previousSecretExpiresAt: null, updatedAt: now })
        return {
          outcome: toApiKeyView(await reload(tx, tenantId, keyId), now),
          audit: [auditedBy(context, { action: 'api_key.revoked', entity: { type: 'api_key', id: keyId } })],
        }
      })
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
