/** The Drizzle implementation of IdempotencyStore (both engines), over `idempotency_keys`. */
import { and, eq, lt } from 'drizzle-orm'
import { idempotencyKeys } from './idempotency.tables.ts'
import { pendingStatus, type IdempotencyKeyRef, type IdempotencyStore } from './idempotency.ts'

export function createIdempotencyStore(): IdempotencyStore {
  const keyOf = (ref: IdempotencyKeyRef) =>
    and(eq(idempotencyKeys.tenantId, ref.tenantId), eq(idempotencyKeys.scope, ref.scope), eq(idempotencyKeys.key, ref.key))

  return {
    async reserve(executor, ref, requestHash, at) {
      const inserted = await executor
        .insert(idempotencyKeys)
        .values({ ...ref, requestHash, responseStatus: pendingStatus, responseBody: {}, createdAt: at })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key })
      return inserted.length > 0
    },
    async find(executor, ref) {
      const [row] = await executor.select().from(idempotencyKeys).where(keyOf(ref)).limit(1)
      return row
    },
    async takeOver(executor, ref, staleBefore, at) {
      const updated = await executor
        .update(idempotencyKeys)
        .set({ createdAt: at })
        .where(and(keyOf(ref), eq(idempotencyKeys.responseStatus, pendingStatus), lt(idempotencyKeys.createdAt, staleBefore)))
        .returning({ key: idempotencyKeys.key })
      return updated.length > 0
    },
    async complete(executor, ref, response) {
      await executor
        .update(idempotencyKeys)
        .set({ responseStatus: response.status, responseBody: response.body as object })
        .where(keyOf(ref))
    },
    async release(executor, ref) {
      await executor.delete(idempotencyKeys).where(and(keyOf(ref), eq(idempotencyKeys.responseStatus, pendingStatus)))
    },
  }
}
