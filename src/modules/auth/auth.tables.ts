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
    id: text('id').primaryKey(),
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
    check('api_keys_environment_check', sql`${table.environment} in ('test', 'live')`),
    uniqueIndex('api_keys_secret_digest_unique').on(table.secretDigest),
    uniqueIndex('api_keys_previous_secret_digest_unique').on(table.previousSecretDigest),
    index('api_keys_tenant_idx').on(table.tenantId, table.id),
  ],
)

export const serviceTokens = pgTable(
  'service_tokens',
  {
    id: text('id').primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    subject: text('subject').notNull(),
    scopes: text('scopes').array().notNull(),
    reason: text('reason').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('service_tokens_tenant_idx').on(table.tenantId)],
)

/** This module's part of tenant deletion (platform/db/tenant-data.ts): emptied in this order. */
export const authTenantData: TenantDataPlan = {
  deleted: [
    { table: apiKeys, tenantColumn: apiKeys.tenantId },
    { table: serviceTokens, tenantColumn: serviceTokens.tenantId },
  ],
}
