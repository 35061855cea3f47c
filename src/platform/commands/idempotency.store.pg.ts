/** The Drizzle implementation of IdempotencyStore (both engines), over `idempotency_keys`. */
import { and, eq, lt } from 'drizzle-orm'
import { idempotencyKeys } from './idempotency.tables.ts'
import { completedStatus, pendingStatus, type IdempotencyKeyRef, type IdempotencyStore } from './idempotency.ts'
import { assert } from '../../kernel/assert.ts'

export function createIdempotencyStore(): IdempotencyStore {
  const keyOf = (ref: IdempotencyKeyRef) =>
    and(eq(idempotencyKeys.tenantId, ref.tenantId), eq(idempotencyKeys.scope, ref.scope), eq(idempotencyKeys.key, ref.key))

  const reserve: IdempotencyStore['reserve'] = async (executor, ref, requestHash, at) => {
    // ON CONFLICT waits for a concurrent insert of the same key to commit or roll back before deciding.
    const inserted = await executor
      .insert(idempotencyKeys)
      .values({ ...ref, requestHash, responseStatus: pendingStatus, responseBody: {}, createdAt: at })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key })
    return inserted.length > 0
  }

  return {
    reserve,
    async claim(tx, ref, requestHash, at) {
      if (await reserve(tx, ref, requestHash, at)) return { kind: 'claimed' }
      const [row] = await tx.select().from(idempotencyKeys).where(keyOf(ref)).limit(1)
      assert(row !== undefined, 'idempotency key neither inserted nor found')
      // A pending row seen here is another runReserved command's reservation under the same scope: a
      // command is either transactional or reserved, never both, so this is a programming error.
      assert(row.responseStatus !== pendingStatus, `idempotency key of ${ref.scope} is reserved, not claimed`)
      return { kind: 'stored', requestHash: row.requestHash, outcome: row.responseBody }
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
    async complete(executor, ref, outcome) {
      await executor
        .update(idempotencyKeys)
        .set({ responseStatus: completedStatus, responseBody: outcome as object })
        .where(keyOf(ref))
    },
    async release(executor, ref) {
      await executor.delete(idempotencyKeys).where(and(keyOf(ref), eq(idempotencyKeys.responseStatus, pendingStatus)))
    },
  }
}
