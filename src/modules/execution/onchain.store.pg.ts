/** The onchain store and the rail's submissions on Drizzle: this module's onchain tables only. */
import { and, eq } from 'drizzle-orm'
import type { Address, Hex } from 'viem'
import { assert } from '../../kernel/assert.ts'
import type { Database } from '../../platform/db/database.ts'
import type { OnchainSubmission, OnchainSubmissions } from './onchain-rail.ts'
import type { OnchainStore } from './onchain.store.ts'
import { onchainAccounts, onchainSubmissions } from './onchain.tables.ts'

export function createOnchainStore(): OnchainStore {
  const a = onchainAccounts
  return {
    async findAccount(executor, tenantId, accountId) {
      const [row] = await executor.select().from(a).where(and(eq(a.tenantId, tenantId), eq(a.accountId, accountId))).limit(1)
      return row
    },

    async insertAccount(tx, row) {
      const [created] = await tx.insert(a).values(row).onConflictDoNothing({ target: [a.tenantId, a.accountId] }).returning()
      if (created !== undefined) return { stored: created, created: true }
      const [stored] = await tx.select().from(a).where(and(eq(a.tenantId, row.tenantId), eq(a.accountId, row.accountId))).limit(1)
      assert(stored !== undefined, 'a registration that conflicted on insert can be read')
      return { stored, created: false }
    },
  }
}

/**
 * The rail's `OnchainSubmissions` on PostgreSQL (or PGlite), outside any transaction of the worker's: the
 * insert commits on its own before the transaction is broadcast. First writer wins: `insert … on conflict
 * do nothing`, then whatever is stored for the key is read back and answered.
 */
export function createPgOnchainSubmissions(db: Database): OnchainSubmissions {
  const s = onchainSubmissions
  const find = async (tenantId: string, idempotencyKey: string): Promise<OnchainSubmission | undefined> => {
    const [row] = await db.orm.select().from(s).where(and(eq(s.tenantId, tenantId), eq(s.idempotencyKey, idempotencyKey))).limit(1)
    if (row === undefined) return undefined
    return { tenantId: row.tenantId, idempotencyKey: row.idempotencyKey, from: row.fromAddress as Address, nonce: row.nonce, hash: row.hash as Hex, rawTransaction: row.rawTransaction as Hex, createdAt: row.createdAt }
  }
  return {
    find,
    async insert(record) {
      await db.orm
        .insert(s)
        .values({
          tenantId: record.tenantId,
          idempotencyKey: record.idempotencyKey,
          fromAddress: record.from.toLowerCase(),
          nonce: record.nonce,
          hash: record.hash.toLowerCase(),
          rawTransaction: record.rawTransaction.toLowerCase(),
          createdAt: record.createdAt,
        })
        .onConflictDoNothing({ target: [s.tenantId, s.idempotencyKey] })
      const stored = await find(record.tenantId, record.idempotencyKey)
      assert(stored !== undefined, 'a submission just inserted (or found conflicting) can be read')
      return stored
    },
  }
}
