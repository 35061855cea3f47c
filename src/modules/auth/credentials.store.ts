/**
 * What credential checks and the API-key and service-token services need from storage: the auth
 * module's own tables (users, members and tenants are read through the tenants module's directory).
 * Every lookup by id also takes the tenant id. One lookup is global by design: an API key by the digest
 * of its secret, because the caller names no tenant; it goes through the api_key_digests directory (a
 * reference table, docs/scaling.md), which insertApiKey and updateApiKey keep in step with the keys.
 */
import type { Executor, Tx } from '../../platform/db/database.ts'
import type { apiKeys, serviceTokens } from './auth.tables.ts'
import type { TenantStanding } from '../tenants/index.ts'

export type ApiKeyRow = typeof apiKeys.$inferSelect
export type ServiceTokenRow = typeof serviceTokens.$inferSelect
export type ApiKeyStatus = 'active' | 'expired' | 'revoked'

export interface ApiKeyListFilter {
  readonly status?: ApiKeyStatus | undefined
  readonly afterId?: string | undefined
  readonly limit: number
  readonly now: Date
}

export interface CredentialsStore {
  insertServiceToken(tx: Tx, token: ServiceTokenRow): Promise<void>
  findServiceToken(executor: Executor, tenantId: string, tokenId: string): Promise<{ token: ServiceTokenRow; tenant: TenantStanding } | undefined>

  insertApiKey(tx: Tx, key: ApiKeyRow): Promise<void>
  findApiKey(executor: Executor, tenantId: string, keyId: string, options?: { forUpdate?: boolean }): Promise<ApiKeyRow | undefined>
  listApiKeys(executor: Executor, tenantId: string, filter: ApiKeyListFilter): Promise<ApiKeyRow[]>
  updateApiKey(tx: Tx, tenantId: string, keyId: string, values: Partial<Omit<ApiKeyRow, 'id' | 'tenantId' | 'createdAt'>>): Promise<void>
  /** The key whose current secret, or unexpired previous secret, has this digest. */
  findApiKeyBySecretDigest(executor: Executor, digest: string, now: Date): Promise<{ key: ApiKeyRow; tenant: TenantStanding } | undefined>
  /** Records use, at most once per `intervalSeconds`, so hot keys do not write on every request. */
  touchApiKey(executor: Executor, tenantId: string, keyId: string, at: Date, intervalSeconds: number): Promise<void>
}
