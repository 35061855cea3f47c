/**
 * What credential checks and the API-key and service-token services need from storage.
 * Every lookup by id also takes the tenant id. Two lookups are global by design: an API key by the
 * digest of its secret, and a user by the email given at login, because the caller names no tenant.
 */
import type { Executor, Tx } from '../../platform/db/database.ts'
import type { apiKeys, serviceTokens } from './auth.tables.ts'
import type { MemberRow, TenantRow, UserRow } from '../tenants/tenants.store.ts'

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
  findUserPrincipal(executor: Executor, tenantId: string, userId: string): Promise<{ user: UserRow; member: MemberRow; tenant: TenantRow } | undefined>
  findLoginRecord(executor: Executor, email: string): Promise<{ user: UserRow; member: MemberRow; tenant: TenantRow } | undefined>

  findTenant(executor: Executor, tenantId: string): Promise<TenantRow | undefined>
  insertServiceToken(tx: Tx, token: ServiceTokenRow): Promise<void>
  findServiceToken(executor: Executor, tenantId: string, tokenId: string): Promise<{ token: ServiceTokenRow; tenant: TenantRow } | undefined>

  insertApiKey(tx: Tx, key: ApiKeyRow): Promise<void>
  findApiKey(executor: Executor, tenantId: string, keyId: string, options?: { forUpdate?: boolean }): Promise<ApiKeyRow | undefined>
  listApiKeys(executor: Executor, tenantId: string, filter: ApiKeyListFilter): Promise<ApiKeyRow[]>
  updateApiKey(tx: Tx, tenantId: string, keyId: string, values: Partial<Omit<ApiKeyRow, 'id' | 'tenantId' | 'createdAt'>>): Promise<void>
  /** The key whose current secret, or unexpired previous secret, has this digest. */
  findApiKeyBySecretDigest(executor: Executor, digest: string, now: Date): Promise<{ key: ApiKeyRow; tenant: TenantRow } | undefined>
  /** Records use, at most once per `intervalSeconds`, so hot keys do not write on every request. */
  touchApiKey(executor: Executor, tenantId: string, keyId: string, at: Date, intervalSeconds: number): Promise<void>
}
