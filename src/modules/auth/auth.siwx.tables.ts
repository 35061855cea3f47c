/**
 * SIWX challenges (POST /v1/auth/siwx/challenge): a server nonce bound to the address it was issued to,
 * held 5 minutes and consumed once by POST /v1/auth/siwx.
 *
 * A reference table (docs/scaling.md): a challenge is asked for before any tenant is known (the address
 * may belong to any tenant, or to none), so it is not split by tenant.
 */
import { sql } from 'drizzle-orm'
import { check, index, pgTable, text } from 'drizzle-orm/pg-core'
import { createdAt, timestamptz } from '../../platform/db/columns.ts'

export const siwxChallenges = pgTable(
  'siwx_challenges',
  {
    /** 32 hex digits from 16 random bytes: an EIP-4361 nonce (alphanumeric, at least 8). */
    nonce: text('nonce').primaryKey(),
    /** 0x + 40 hex digits, lower-cased. */
    address: text('address').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    /** Set once, by the one sign-in that consumes the nonce; a conditional update makes that single. */
    consumedAt: timestamptz('consumed_at'),
    createdAt: createdAt(),
  },
  (table) => [
    check('siwx_challenges_address_check', sql`${table.address} ~ '^0x[0-9a-f]{40}$'`),
    index('siwx_challenges_expires_idx').on(table.expiresAt),
  ],
)
