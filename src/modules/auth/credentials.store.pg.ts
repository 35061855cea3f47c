/** The Drizzle implementation of CredentialsStore (both engines). */
import { and, asc, eq, gt, isNotNull, isNull, lte, or, sql, type SQL } from 'drizzle-orm'
import type { Executor } from '../../platform/db/database.ts'
import { apiKeys, serviceTokens } from './auth.tables.ts'
import { members, tenants, users } from '../tenants/tenants.tables.ts'
import type { ApiKeyStatus, CredentialsStore } from './credentials.store.ts'

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
