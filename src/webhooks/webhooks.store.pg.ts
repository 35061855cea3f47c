/** The Drizzle implementation of WebhooksStore (both engines). */
import { and, asc, count, eq, gt, inArray, lt, lte, sql } from 'drizzle-orm'
import { events, webhookDeadLetters, webhookDeliveries, webhookEndpoints } from '../db/schema.ts'
import type { WebhooksStore } from './webhooks.store.ts'

export function createWebhooksStore(): WebhooksStore {
  const endpointOf = (tenantId: string, endpointId: string) => and(eq(webhookEndpoints.tenantId, tenantId), eq(webhookEndpoints.id, endpointId))
  const deliveryOf = (tenantId: string, deliveryId: string) => and(eq(webhookDeliveries.tenantId, tenantId), eq(webhookDeliveries.id, deliveryId))
  const deadLetterOf = (tenantId: string, deadLetterId: string) => and(eq(webhookDeadLetters.tenantId, tenantId), eq(webhookDeadLetters.id, deadLetterId))
  const replayable = (tenantId: string, endpointId: string, attemptsMax: number) =>
    and(eq(webhookDeadLetters.tenantId, tenantId), eq(webhookDeadLetters.endpointId, endpointId), lt(webhookDeadLetters.attemptCount, attemptsMax))

  return {
    async lockTenantEndpoints(tx, tenantId) {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`webhook_endpoints:${tenantId}`}, 0))`)
    },
    async countEndpoints(executor, tenantId) {
      const [row] = await executor.select({ total: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.tenantId, tenantId))
      return Number(row?.total ?? 0)
    },
    async insertEndpoint(tx, endpoint) {
      await tx.insert(webhookEndpoints).values(endpoint)
    },
    async findEndpoint(executor, tenantId, endpointId, options = {}) {
      const query = executor.select().from(webhookEndpoints).where(endpointOf(tenantId, endpointId)).limit(1)
      const [row] = options.forUpdate ? await query.for('update') : await query
      return row
    },
    async listEndpoints(executor, tenantId, page) {
      return executor
        .select()
        .from(webhookEndpoints)
        .where(and(eq(webhookEndpoints.tenantId, tenantId), page.afterId === undefined ? undefined : gt(webhookEndpoints.id, page.afterId)))
        .orderBy(asc(webhookEndpoints.id))
        .limit(page.limit)
    },
    async updateEndpoint(tx, tenantId, endpointId, changes) {
      await tx.update(webhookEndpoints).set(changes).where(endpointOf(tenantId, endpointId))
    },
    async deleteEndpoint(tx, tenantId, endpointId) {
      const deadLetters = await tx
        .delete(webhookDeadLetters)
        .where(and(eq(webhookDeadLetters.tenantId, tenantId), eq(webhookDeadLetters.endpointId, endpointId)))
        .returning({ id: webhookDeadLetters.id })
      const deliveries = await tx
        .delete(webhookDeliveries)
        .where(and(eq(webhookDeliveries.tenantId, tenantId), eq(webhookDeliveries.endpointId, endpointId)))
        .returning({ id: webhookDeliveries.id })
      await tx.delete(webhookEndpoints).where(endpointOf(tenantId, endpointId))
      return { deliveries: deliveries.length, deadLetters: deadLetters.length }
    },

    async findEvent(executor, tenantId, eventId) {
      const [row] = await executor
        .select()
        .from(events)
        .where(and(eq(events.tenantId, tenantId), eq(events.id, eventId)))
        .limit(1)
      return row
    },
    async findEvents(executor, tenantId, eventIds) {
      if (eventIds.length === 0) return []
      return executor
        .select()
        .from(events)
        .where(and(eq(events.tenantId, tenantId), inArray(events.id, [...eventIds])))
    },
    async listEnabledEndpoints(executor, tenantId, registeredBy) {
      return executor
        .select()
        .from(webhookEndpoints)
        .where(and(eq(webhookEndpoints.tenantId, tenantId), eq(webhookEndpoints.status, 'enabled'), lte(webhookEndpoints.createdAt, registeredBy)))
        .orderBy(asc(webhookEndpoints.id))
    },
    async insertDeliveries(tx, deliveries) {
      const ids: string[] = []
      // 13 columns: 1,000 rows per statement stays far below PostgreSQL's 65,535 bind parameters.
      for (let offset = 0; offset < deliveries.length; offset += 1_000) {
        const inserted = await tx
          .insert(webhookDeliveries)
          .values(deliveries.slice(offset, offset + 1_000))
          .onConflictDoNothing({ target: [webhookDeliveries.endpointId, webhookDeliveries.eventId] })
          .returning({ id: webhookDeliveries.id })
        ids.push(...inserted.map((row) => row.id))
      }
      return ids
    },
    async findDelivery(executor, tenantId, deliveryId, options = {}) {
      const query = executor.select().from(webhookDeliveries).where(deliveryOf(tenantId, deliveryId)).limit(1)
      const [row] = options.forUpdate ? await query.for('update') : await query
      return row
    },
    async claimAttempt(executor, tenantId, deliveryId, at, attemptsMax) {
      const [row] = await executor
        .update(webhookDeliveries)
        .set({ attemptCount: sql`${webhookDeliveries.attemptCount} + 1`, lastAttemptAt: at, nextAttemptAt: null, updatedAt: at })
        .where(and(deliveryOf(tenantId, deliveryId), eq(webhookDeliveries.status, 'pending'), lt(webhookDeliveries.attemptCount, attemptsMax)))
        .returning()
      return row
    },
    async updateDelivery(tx, tenantId, deliveryId, changes, options = {}) {
      await tx
        .update(webhookDeliveries)
        .set(options.incrementAttempts === true ? { ...changes, attemptCount: sql`${webhookDeliveries.attemptCount} + 1` } : changes)
        .where(deliveryOf(tenantId, deliveryId))
    },

    async insertDeadLetter(tx, deadLetter) {
      await tx.insert(webhookDeadLetters).values(deadLetter).onConflictDoNothing({ target: webhookDeadLetters.deliveryId })
    },
    async listDeadLetters(executor, tenantId, endpointId, page) {
      return executor
        .select()
        .from(webhookDeadLetters)
        .where(
          and(
            eq(webhookDeadLetters.tenantId, tenantId),
            eq(webhookDeadLetters.endpointId, endpointId),
            page.afterId === undefined ? undefined : gt(webhookDeadLetters.id, page.afterId),
          ),
        )
        .orderBy(asc(webhookDeadLetters.id))
        .limit(page.limit)
    },
    async listReplayableDeadLetters(executor, tenantId, endpointId, options) {
      return executor
        .select()
        .from(webhookDeadLetters)
        .where(replayable(tenantId, endpointId, options.attemptsMax))
        .orderBy(asc(webhookDeadLetters.id))
        .limit(options.limit)
    },
    async countReplayableDeadLetters(executor, tenantId, endpointId, attemptsMax) {
      const [row] = await executor.select({ total: count() }).from(webhookDeadLetters).where(replayable(tenantId, endpointId, attemptsMax))
      return Number(row?.total ?? 0)
    },
    async deleteDeadLetter(tx, tenantId, deadLetterId) {
      const removed = await tx.delete(webhookDeadLetters).where(deadLetterOf(tenantId, deadLetterId)).returning({ id: webhookDeadLetters.id })
      return removed.length > 0
    },
    async recordDeadLetterFailure(tx, tenantId, deadLetterId, failure) {
      const [row] = await tx
        .update(webhookDeadLetters)
        .set({ attemptCount: sql`${webhookDeadLetters.attemptCount} + 1`, lastError: failure.lastError, lastAttemptAt: failure.lastAttemptAt })
        .where(deadLetterOf(tenantId, deadLetterId))
        .returning({ attemptCount: webhookDeadLetters.attemptCount })
      return row?.attemptCount
    },
  }
}
