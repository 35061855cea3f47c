/**
 * The SIWX challenges' store (auth.siwx.tables.ts): issue, read and consume a nonce. Not tenant-scoped:
 * a challenge precedes any tenant (a reference table, docs/scaling.md).
 */
import { and, eq, gt, inArray, isNull, lt } from 'drizzle-orm'
import type { Database } from '../../platform/db/database.ts'
import { siwxChallenges } from './auth.siwx.tables.ts'

export type SiwxChallengeRow = typeof siwxChallenges.$inferSelect

export function createSiwxStore(db: Database) {
  return {
    /** Inserts a challenge, and deletes at most `expiredDeletedMax` expired ones in the same transaction. */
    async insertChallenge(row: SiwxChallengeRow, expiredDeletedMax: number): Promise<void> {
      await db.orm.transaction(async (tx) => {
        const expired = tx.select({ nonce: siwxChallenges.nonce }).from(siwxChallenges).where(lt(siwxChallenges.expiresAt, row.createdAt)).limit(expiredDeletedMax)
        await tx.delete(siwxChallenges).where(inArray(siwxChallenges.nonce, expired))
        await tx.insert(siwxChallenges).values(row)
      })
    },

    async findChallenge(nonce: string): Promise<SiwxChallengeRow | undefined> {
      const [row] = await db.orm.select().from(siwxChallenges).where(eq(siwxChallenges.nonce, nonce)).limit(1)
      return row
    },

    /**
     * Consumes the nonce if it is unconsumed and unexpired at `now`: one conditional update, so of any
     * number of concurrent calls exactly one answers true.
     */
    async consumeChallenge(nonce: string, now: Date): Promise<boolean> {
      const consumed = await db.orm
        .update(siwxChallenges)
        .set({ consumedAt: now })
        .where(and(eq(siwxChallenges.nonce, nonce), isNull(siwxChallenges.consumedAt), gt(siwxChallenges.expiresAt, now)))
        .returning({ nonce: siwxChallenges.nonce })
      return consumed.length === 1
    },
  }
}

export type SiwxStore = ReturnType<typeof createSiwxStore>
