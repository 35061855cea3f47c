/** The Drizzle implementation of WebhooksStore (both engines). */
import { and, asc, count, eq, gt, inArray, isNotNull, isNull, lt, lte, notInArray, or, sql } from 'drizzle-orm'
import { webhookDeadLetters, webhookDeliveries, webhookEndpoints } from './webhooks.tables.ts'
import { eventReader, returnToPending } from '../../platform/outbox/events.ts'
import type { OverdueSelection, ReplaySelection, WebhooksStore } from './webhooks.store.ts'
import { assert } from '../../kernel/assert.ts'

export function createWebhooksStore(): WebhooksStore {
  const endpointOf = (tenantId: string, endpointId: string) => and(eq(webhookEndpoints.tenantId, tenantId), eq(webhookEndpoints.id, endpointId))
  const deliveryOf = (tenantId: string, deliveryId: string) => and(eq(webhookDeliveries.tenantId, tenantId), eq(webhookDeliveries.id, deliveryId))
  const deadLetterOf = (tenantId: string, deadLetterId: string) => and(eq(webhookDeadLetters.tenantId, tenantId), eq(webhookDeadLetters.id, deadLetterId))
  // Both branches read the partial index of pending deliveries (webhook_deliveries_pending_due_idx).
  const overdue = (selection: OverdueSelection) =>
    and(
      eq(webhookDeliveries.status, 'pending'),
      or(
        lt(webhookDeliveries.nextAttemptAt, selection.dueBefore),
        and(isNull(webhookDeliveries.nextAttemptAt), lt(webhookDeliveries.updatedAt, selection.unscheduledChangedBefore)),
      ),
    )
  const claimable = (tenantId: string, endpointId: string, selection: ReplaySelection) =>
    and(
      eq(webhookDeadLetters.tenantId, tenantId),
      eq(webhookDeadLetters.endpointId, endpointId),
      lt(webhookDeadLetters.attemptCount, selection.attemptsMax),
      or(isNull(webhookDeadLetters.claimedUntil), lte(webhookDeadLetters.claimedUntil, selection.at)),
      lt(webhookDeadLetters.lastAttemptAt, selection.attemptedBefore),
      selection.excludedIds.length === 0 ? undefined : notInArray(webhookDeadLetters.id, [...selection.excludedIds]),
    )
  const claimedBy = (tenantId: string, deadLetterId: string, token: string) => and(deadLetterOf(tenantId, deadLetterId), eq(webhookDeadLetters.claimToken, token))

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

    // Recorded events are the outbox's: read through its reader.
    findEvent: eventReader.findEvent,
    findEvents: eventReader.findEvents,
    returnEventsToPending: returnToPending,
    async listFanoutEndpoints(executor, tenantId, registeredBy) {
      return executor
        .select()
        .from(webhookEndpoints)
        .where(
          and(
            eq(webhookEndpoints.tenantId, tenantId),
            or(eq(webhookEndpoints.status, 'enabled'), isNotNull(webhookEndpoints.disabledAt)),
            lte(webhookEndpoints.createdAt, registeredBy),
          ),
        )
        .orderBy(asc(webhookEndpoints.id))
    },
    async insertDeliveries(tx, deliveries) {
      const ids: string[] = []
      // 13 columns: 1,000 rows per statement stays far below PostgreSQL's 65,535 bind parameters.
      for (let offset = 0; offset < deliveries.length; offset += 1_000) {
        const inserted = await tx
          .insert(webhookDeliveries)
          .values(deliveries.slice(offset, offset + 1_000))
          .onConflictDoNothing({ target: [webhookDeliveries.tenantId, webhookDeliveries.endpointId, webhookDeliveries.eventId] })
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
    async claimAttempt(executor, tenantId, deliveryId, claim) {
      const [row] = await executor
        .update(webhookDeliveries)
        .set({ attemptCount: sql`${webhookDeliveries.attemptCount} + 1`, lastAttemptAt: claim.at, nextAttemptAt: claim.lostAfter, updatedAt: claim.at })
        .where(
          and(
            deliveryOf(tenantId, deliveryId),
            eq(webhookDeliveries.status, 'pending'),
            eq(webhookDeliveries.attemptCount, claim.attemptCount),
            lt(webhookDeliveries.attemptCount, claim.attemptsMax),
          ),
        )
        .returning()
      return row
    },
    async updateDelivery(tx, tenantId, deliveryId, changes) {
      await tx.update(webhookDeliveries).set(changes).where(deliveryOf(tenantId, deliveryId))
    },
    async listOverdueDeliveries(executor, selection, limit) {
      return executor
        .select({ tenantId: webhookDeliveries.tenantId, id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(overdue(selection))
        .orderBy(sql`${webhookDeliveries.nextAttemptAt} asc nulls first`)
        .limit(limit)
    },
    async lockOverdueDeliveries(tx, tenantId, deliveryIds, selection) {
      if (deliveryIds.length === 0) return []
      return tx
        .select()
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.tenantId, tenantId), inArray(webhookDeliveries.id, [...deliveryIds]), overdue(selection)))
        .orderBy(asc(webhookDeliveries.id))
        .for('update', { skipLocked: true })
    },
    async rescheduleDeliveries(tx, tenantId, deliveryIds, at) {
      if (deliveryIds.length === 0) return
      await tx
        .update(webhookDeliveries)
        .set({ nextAttemptAt: at, updatedAt: at })
        .where(and(eq(webhookDeliveries.tenantId, tenantId), inArray(webhookDeliveries.id, [...deliveryIds]), eq(webhookDeliveries.status, 'pending')))
    },

    async insertDeadLetters(tx, deadLetters) {
      // 10 columns: 1,000 rows per statement stays far below PostgreSQL's 65,535 bind parameters.
      for (let offset = 0; offset < deadLetters.length; offset += 1_000) {
        await tx
          .insert(webhookDeadLetters)
          .values(deadLetters.slice(offset, offset + 1_000))
          .onConflictDoNothing({ target: [webhookDeadLetters.tenantId, webhookDeadLetters.deliveryId] })
      }
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
    async claimDeadLetter(tx, tenantId, endpointId, selection, claim) {
      // The row lock lasts only for this transaction; the claim token keeps other replays off the row
      // while the request is out, without holding a connection.
      const [candidate] = await tx
        .select()
        .from(webhookDeadLetters)
        .where(claimable(tenantId, endpointId, selection))
        .orderBy(asc(webhookDeadLetters.id))
        .limit(1)
        .for('update', { skipLocked: true })
      if (candidate === undefined) return undefined
      const [deadLetter] = await tx
        .update(webhookDeadLetters)
        .set({ claimToken: claim.token, claimedUntil: claim.until, attemptCount: sql`${webhookDeadLetters.attemptCount} + 1`, lastAttemptAt: selection.at })
        .where(and(deadLetterOf(tenantId, candidate.id), lt(webhookDeadLetters.attemptCount, selection.attemptsMax)))
        .returning()
      assert(deadLetter !== undefined, `dead letter ${candidate.id} changed under its row lock`)
      await tx
        .update(webhookDeliveries)
        .set({ attemptCount: sql`${webhookDeliveries.attemptCount} + 1`, lastAttemptAt: selection.at, updatedAt: selection.at })
        .where(deliveryOf(tenantId, candidate.deliveryId))
      return { deadLetter, expiredClaim: candidate.claimToken !== null }
    },
    async countClaimableDeadLetters(executor, tenantId, endpointId, selection) {
      const [row] = await executor.select({ total: count() }).from(webhookDeadLetters).where(claimable(tenantId, endpointId, selection))
      return Number(row?.total ?? 0)
    },
    async deleteClaimedDeadLetter(tx, tenantId, deadLetterId, token) {
      const removed = await tx.delete(webhookDeadLetters).where(claimedBy(tenantId, deadLetterId, token)).returning({ id: webhookDeadLetters.id })
      return removed.length > 0
    },
    async releaseClaimedDeadLetter(tx, tenantId, deadLetterId, token, failure) {
      const released = await tx
        .update(webhookDeadLetters)
        .set({ lastError: failure.lastError, claimToken: null, claimedUntil: null })
        .where(claimedBy(tenantId, deadLetterId, token))
        .returning({ id: webhookDeadLetters.id })
      return released.length > 0
    },
  }
}
