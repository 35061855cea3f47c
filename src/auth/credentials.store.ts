/**
 * What credential checks and the API-key and service-token services need from storage.
 * Every lookup by id also takes the tenant id. Two lookups are global by design: an API key by the
 * digest of its secret, and a user by the email given at login, because the caller names no tenant.
 */
import { and, asc, eq, gt, isNotNull, isNull, lte, or, sql, type SQL } from 'drizzle-orm'
import type { Executor, Tx } from '../db/database.ts'
import { apiKeys, members, serviceTokens, tenants, users } from '../db/schema.ts'
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

export function apiKeyStatusCondition(status: ApiKeyStatus, now: Date): SQL | undefined {
  switch (status) {
    case 'revoked':
      return isNotNull(apiKeys.revokedAt)
    case 'expired':
      return and(isNull(apiKeys.revokedAt), isNotNull(apiKeys.expiresAt), lte(apiKeys.expiresAt, now))
    case 'active':
      return and(isNull(apiKeys.revokedAt), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now)))
  }
}

export function createCredentialsStore(): CredentialsStore {
  const principalQuery = (executor: Executor) =>
    executor
      .select({ user: users, member: members, tenant: tenants })
      .from(users)
      .innerJoin(members, and(eq(members.userId, users.id), eq(members.tenantId, users.tenantId)))
      .innerJoin(tenants, eq(tenants.id, users.tenantId))

  return {
    async findUserPrincipal(executor, tenantId, userId) {
      const [row] = await principalQuery(executor)
        .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)))
        .limit(1)
      return row
    },
    async findLoginRecord(executor, email) {
      const [row] = await principalQuery(executor).where(eq(users.email, email)).limit(1)
      return row
    },

    async findTenant(executor, tenantId) {
      const [row] = await executor.select().from(tenants).where(eq(tenants.id, tenantId)).limit(1)
      return row
    },
    async insertServiceToken(tx, token) {
      await tx.insert(serviceTokens).values(token)
    },
    async findServiceToken(executor, tenantId, tokenId) {
      const [row] = await executor
        .select({ token: serviceTokens, tenant: tenants })
        .from(serviceTokens)
        .innerJoin(tenants, eq(tenants.id, serviceTokens.tenantId))
        .where(and(eq(serviceTokens.tenantId, tenantId), eq(serviceTokens.id, tokenId)))
        .limit(1)
      return row
    },

    async insertApiKey(tx, key) {
      await tx.insert(apiKeys).values(key)
    },
    async findApiKey(executor, tenantId, keyId, options = {}) {
      const query = executor
        .select()
        .from(apiKeys)
        .where(and(eq(apiKeys.tenantId, tenantId), eq(apiKeys.id, keyId)))
        .limit(1)
      const [row] = options.forUpdate ? await query.for('update') : await query
      return row
    },
    async listApiKeys(executor, tenantId, filter) {
      return executor
        .select()
        .from(apiKeys)
        .where(
          and(
            eq(apiKeys.tenantId, tenantId),
            filter.status === undefined ? undefined : apiKeyStatusCondition(filter.status, filter.now),
            filter.afterId === undefined ? undefined : gt(apiKeys.id, filter.afterId),
          ),
        )
        .orderBy(asc(apiKeys.id))
        .limit(filter.limit)
    },
    async updateApiKey(tx, tenantId, keyId, values) {
      await tx.update(apiKeys).set(values).where(and(eq(apiKeys.tenantId, tenantId), eq(apiKeys.id, keyId)))
    },
    async findApiKeyBySecretDigest(executor, digest, now) {
      const [row] = await executor
        .select({ key: apiKeys, tenant: tenants })
        .from(apiKeys)
        .innerJoin(tenants, eq(tenants.id, apiKeys.tenantId))
        .where(
          or(
            eq(apiKeys.secretDigest, digest),
            and(eq(apiKeys.previousSecretDigest, digest), gt(apiKeys.previousSecretExpiresAt, now)),
          ),
        )
        .limit(1)
      return row
    },
    async touchApiKey(executor, tenantId, keyId, at, intervalSeconds) {
      await executor
        .update(apiKeys)
        .set({ lastUsedAt: at })
        .where(
          and(
            eq(apiKeys.tenantId, tenantId),
            eq(apiKeys.id, keyId),
            or(isNull(apiKeys.lastUsedAt), lte(apiKeys.lastUsedAt, sql`${at.toISOString()}::timestamptz - make_interval(secs => ${intervalSeconds})`)),
          ),
        )
    },
  }
}
