/**
 * Idempotency keys of commands: the stored outcome replays for the same key and request.
 *
 * Part of the one schema of both engines (drizzle.config.ts collects every `*.tables.ts`): a change here
 * becomes the next forward-only migration under src/platform/db/migrations/ (`npm run db:generate`).
 */
import { integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core'
import { createdAt } from '../db/columns.ts'
import type { TenantDataPlan } from '../db/tenant-data.ts'

/**
 * Idempotency keys of commands: `response_status` is 0 while reserved and 1 once the command committed,
 * with its outcome in `response_body` (rows written before commands stored outcomes hold the HTTP status
 * and body of the response, under scope `http`, which no command reads).
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    tenantId: uuid('tenant_id').notNull(),
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    responseStatus: integer('response_status').notNull(),
    responseBody: jsonb('response_body').notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.scope, table.key] })],
)

/** This module's part of tenant deletion (platform/db/tenant-data.ts): emptied in this order. */
export const idempotencyTenantData: TenantDataPlan = {
  deleted: [
    { table: idempotencyKeys, tenantColumn: idempotencyKeys.tenantId },
  ],
}
