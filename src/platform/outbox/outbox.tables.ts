/**
 * The business-event outbox: one row per event, written in the transaction of the change it describes.
 *
 * Part of the one schema of both engines (drizzle.config.ts collects every `*.tables.ts`): a change here
 * becomes the next forward-only migration under src/platform/db/migrations/ (`npm run db:generate`).
 */
import { jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core'
import { createdAt } from '../db/columns.ts'
import type { TenantDataPlan } from '../db/tenant-data.ts'

/**
 * Business events (the outbound webhook vocabulary), written in the transaction of the change they
 * describe. Delivery to registered endpoints reads from here.
 */
export const events = pgTable(
  'events',
  {
    id: text('id').notNull(),
    tenantId: uuid('tenant_id').notNull(),
    eventType: text('event_type').notNull(),
    payload: jsonb('payload').notNull(),
    auditEventId: text('audit_event_id'),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
)

/** This module's part of tenant deletion (platform/db/tenant-data.ts): emptied in this order. */
export const outboxTenantData: TenantDataPlan = {
  deleted: [
    { table: events, tenantColumn: events.tenantId },
  ],
}
