/**
 * The auth module's tables: tenant API keys and minted service tokens.
 *
 * Part of the one schema of both engines (drizzle.config.ts collects every `*.tables.ts`): a change here
 * becomes the next forward-only migration under src/platform/db/migrations/ (`npm run db:generate`).
 */
import { sql } from 'drizzle-orm'
import { check, index, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { timestamptz, createdAt, updatedAt } from '../../platform/db/columns.ts'
import { tenants } from '../tenants/tenants.tables.ts'
import type { TenantDataPlan } from '../../platform/db/tenant-data.ts'

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').notNull(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    name: text('name').notNull(),
    /** `test` (svc_sk_test_) or `live` (svc_sk_live_). */
    environment: text('environment', { enum: ['test', 'live'] }).notNull(),
    scopes: text('scopes').array().notNull(),
    /** HMAC-SHA-256 of the secret keyed by API_KEY_PEPPER; the secret itself is never stored. */
    secretDigest: text('secret_digest').notNull(),
    secretLastFour: text('secret_last_four').notNull(),
    /** The secret replaced by the last rotation, accepted until `previous_secret_expires_at`. */
    previousSecretDigest: text('previous_secret_digest'),
    previousSecretExpiresAt: timestamptz('previous_secret_expires_at'),
    expiresAt: timestamptz('expires_at'),
    lastUsedAt: timestamptz('last_used_at'),
    rotatedAt: timestamptz('rotated_at'),
    revokedAt: timestamptz('revoked_at'),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.id] }),
    check('api_keys_environment_check', sql`${table.environment} in ('test', 'live')`),
    // Unique across the service through api_key_digests; here, the tenant's part of that.
    uniqueIndex('api_keys_secret_digest_unique').on(table.tenantId, table.secretDigest),
    uniqueIndex('api_keys_previous_secret_digest_unique').on(table.tenantId, table.previousSecretDigest),
  ],
)

/**
 * A reference table (docs/scaling.md): a caller presents an API key's secret and names no tenant, so
 * this maps the digest of every secret a key answers to (its current one and, during a rotation's
 * overlap, its previous one) to the key and its tenant. Its key keeps a digest unique across the
 * service. Kept in step with `api_keys` by the credentials store; `owner_tenant_id`, not `tenant_id`,
 * because the table is not split by tenant.
 */
export const apiKeyDigests = pgTable(
  'api_key_digests',
  {
    /** HMAC-SHA-256 of a secret, as in `api_keys`. */
    secretDigest: text('secret_digest').primaryKey(),
    ownerTenantId: uuid('owner_tenant_id')
      .notNull()
      .references(() => tenants.id),
    apiKeyId: text('api_key_id').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('api_key_digests_owner_idx').on(table.ownerTenantId, table.apiKeyId)],
)

export const serviceTokens = pgTable(
  'service_tokens',
  {
    id: text('id').notNull(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    subject: text('subject').notNull(),
    scopes: text('scopes').array().notNull(),
    reason: text('reason').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
)

/** This module's part of tenant deletion (platform/db/tenant-data.ts): emptied in this order. */
export const authTenantData: TenantDataPlan = {
  deleted: [
    { table: apiKeyDigests, tenantColumn: apiKeyDigests.ownerTenantId },
    { table: apiKeys, tenantColumn: apiKeys.tenantId },
    { table: serviceTokens, tenantColumn: serviceTokens.tenantId },
  ],
}
