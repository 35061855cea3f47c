/** The Drizzle implementation of CredentialsStore (both engines). */
import { and, asc, eq, gt, isNotNull, isNull, lte, notInArray, or, sql, type SQL } from 'drizzle-orm'
import { apiKeyDigests, apiKeys, serviceTokens } from './auth.tables.ts'
import type { AuthTenants } from './ports.ts'
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

export function createCredentialsStore(tenants: Pick<AuthTenants, 'standingOf'>): CredentialsStore {
  return {
    async insertServiceToken(tx, token) {
      await tx.insert(serviceTokens).values(token)
    },
    async findServiceToken(executor, tenantId, tokenId) {
      const [row] = await executor
        .select({ token: serviceTokens, tenant: tenants.standingOf(serviceTokens.tenantId) })
        .from(serviceTokens)
        .where(and(eq(serviceTokens.tenantId, tenantId), eq(serviceTokens.id, tokenId)))
        .limit(1)
      return row
    },

    async insertApiKey(tx, key) {
      // The directory row first: its key is what keeps the digest unique across the service.
      await tx.insert(apiKeyDigests).values({ secretDigest: key.secretDigest, ownerTenantId: key.tenantId, apiKeyId: key.id, createdAt: key.createdAt })
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
      const [row] = await tx
        .update(apiKeys)
        .set(values)
        .where(and(eq(apiKeys.tenantId, tenantId), eq(apiKeys.id, keyId)))
        .returning({ secretDigest: apiKeys.secretDigest, previousSecretDigest: apiKeys.previousSecretDigest, updatedAt: apiKeys.updatedAt })
      if (row === undefined) return
      // The directory keeps exactly the digests the key still answers to: a new secret's is added, one
      // neither current nor previous any more leaves (at most two rows per key).
      if (values.secretDigest !== undefined) {
        await tx.insert(apiKeyDigests).values({ secretDigest: values.secretDigest, ownerTenantId: tenantId, apiKeyId: keyId, createdAt: row.updatedAt })
      }
      const answered = [row.secretDigest, ...(row.previousSecretDigest === null ? [] : [row.previousSecretDigest])]
      await tx
        .delete(apiKeyDigests)
        .where(and(eq(apiKeyDigests.ownerTenantId, tenantId), eq(apiKeyDigests.apiKeyId, keyId), notInArray(apiKeyDigests.secretDigest, answered)))
    },
    async findApiKeyBySecretDigest(executor, digest, now) {
      // The caller names no tenant: the api_key_digests directory names the key's tenant, then the key
      // is read from that tenant's rows (two statements, so each reads one place when tables are split).
      const [entry] = await executor
        .select({ tenantId: apiKeyDigests.ownerTenantId, keyId: apiKeyDigests.apiKeyId })
        .from(apiKeyDigests)
        .where(eq(apiKeyDigests.secretDigest, digest))
        .limit(1)
      if (entry === undefined) return undefined
      const [row] = await executor
        .select({ key: apiKeys, tenant: tenants.standingOf(apiKeys.tenantId) })
        .from(apiKeys)
        .where(
          and(
            eq(apiKeys.tenantId, entry.tenantId),
            eq(apiKeys.id, entry.keyId),
            or(
              eq(apiKeys.secretDigest, digest),
              and(eq(apiKeys.previousSecretDigest, digest), gt(apiKeys.previousSecretExpiresAt, now)),
            ),
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
