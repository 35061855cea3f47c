/**
 * The business-event outbox: one row per event, written in the transaction of the change it describes.
 *
 * Part of the one schema of both engines (drizzle.config.ts collects every `*.tables.ts`): a change here
 * becomes the next forward-only migration under src/platform/db/migrations/ (`npm run db:generate`).
 */
import { sql } from 'drizzle-orm'
import { boolean, index, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core'
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
    /**
     * True while a subscriber takes the event and it has not been handed over yet: set by the insert of a
     * command's events (the subscriber check is part of the insert), cleared by the relay that hands the
     * event over after the commit, or by the sweep after a crash between the two.
     */
    fanoutPending: boolean('fanout_pending').notNull().default(false),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.id] }),
    index('events_fanout_pending_idx').on(table.createdAt).where(sql`${table.fanoutPending}`),
  ],
)

/** This module's part of tenant deletion (platform/db/tenant-data.ts): emptied in this order. */
export const outboxTenantData: TenantDataPlan = {
  deleted: [
    { table: events, tenantColumn: events.tenantId },
  ],
}
