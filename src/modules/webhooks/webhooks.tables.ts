/**
 * The webhooks module's tables: endpoints, deliveries and dead letters.
 *
 * Part of the one schema of both engines (drizzle.config.ts collects every `*.tables.ts`): a change here
 * becomes the next forward-only migration under src/platform/db/migrations/ (`npm run db:generate`).
 */
import { sql } from 'drizzle-orm'
import { index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { timestamptz, createdAt, updatedAt } from '../../platform/db/columns.ts'
import type { TenantDataPlan } from '../../platform/db/tenant-data.ts'

/** A tenant's outbound webhook endpoints. The signing secret is kept in clear: delivery must sign with it. */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text('id').notNull(),
    tenantId: uuid('tenant_id').notNull(),
    url: text('url').notNull(),
    description: text('description'),
    /** Event types delivered; empty means every type of the allowlist. */
    eventTypes: text('event_types').array().notNull(),
    status: text('status', { enum: ['enabled', 'disabled'] }).notNull(),
    /**
     * When the endpoint was disabled (the start of its current disabled spell); null while it is enabled.
     * The fan-out parks, as dead letters, the events recorded before this instant that reach it only once
     * it is disabled.
     */
    disabledAt: timestamptz('disabled_at'),
    secret: text('secret').notNull(),
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: timestamptz('previous_secret_expires_at'),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
)

/** One delivery of one event to one endpoint, with its attempts. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').notNull(),
    tenantId: uuid('tenant_id').notNull(),
    endpointId: text('endpoint_id').notNull(),
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    status: text('status', { enum: ['pending', 'succeeded', 'dead_lettered'] }).notNull(),
    attemptCount: integer('attempt_count').notNull().default(0),
    /**
     * While pending: when the next attempt is due, or, while an attempt is out, when its outcome is taken
     * to be lost. The delivery sweep takes up a pending delivery well past this (its job was lost).
     * Null once finished (and on rows an attempt of an earlier release counted: see the sweep).
     */
    nextAttemptAt: timestamptz('next_attempt_at'),
    lastAttemptAt: timestamptz('last_attempt_at'),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.id] }),
    uniqueIndex('webhook_deliveries_endpoint_event_unique').on(table.tenantId, table.endpointId, table.eventId),
    index('webhook_deliveries_tenant_idx').on(table.tenantId, table.endpointId, table.id),
    // The delivery sweep: pending deliveries by when their next attempt is due (few: finished rows leave it).
    index('webhook_deliveries_pending_due_idx').on(table.nextAttemptAt).where(sql`${table.status} = 'pending'`),
  ],
)

/** Deliveries that exhausted their automatic attempts (spec, "Webhook dead letter"). */
export const webhookDeadLetters = pgTable(
  'webhook_dead_letters',
  {
    id: text('id').notNull(),
    tenantId: uuid('tenant_id').notNull(),
    endpointId: text('endpoint_id').notNull(),
    deliveryId: text('delivery_id').notNull(),
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    lastError: text('last_error').notNull(),
    attemptCount: integer('attempt_count').notNull(),
    createdAt: createdAt(),
    lastAttemptAt: timestamptz('last_attempt_at').notNull(),
    /**
     * The manual replay attempt holding this dead letter, until `claimed_until`: other replays skip it
     * meanwhile. Cleared with the attempt's outcome; a token left behind an expired claim means the
     * replay stopped before recording its outcome.
     */
    claimToken: text('claim_token'),
    claimedUntil: timestamptz('claimed_until'),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.id] }),
    uniqueIndex('webhook_dead_letters_delivery_unique').on(table.tenantId, table.deliveryId),
    index('webhook_dead_letters_tenant_idx').on(table.tenantId, table.endpointId, table.id),
  ],
)

/** This module's part of tenant deletion (platform/db/tenant-data.ts): emptied in this order. */
export const webhooksTenantData: TenantDataPlan = {
  deleted: [
    { table: webhookDeadLetters, tenantColumn: webhookDeadLetters.tenantId },
    { table: webhookDeliveries, tenantColumn: webhookDeliveries.tenantId },
    { table: webhookEndpoints, tenantColumn: webhookEndpoints.tenantId },
  ],
}
