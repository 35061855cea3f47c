/**
 * Issues single-use tokens for email verification (24 h) and invitations (7 days). The caller gets the
 * token once; only its SHA-256 is stored, scoped to the tenant.
 *
 * A token is derived from a random seed (kernel/secrets.ts, ReplayableSecrets): a command that may be
 * replayed keeps the seed in its stored outcome, never the token, and its replay derives the same token.
 */
import { tokenDigest, type ReplayableSecrets } from '../../kernel/secrets.ts'
import type { Tx } from '../../platform/db/database.ts'
import type { Clock } from '../../kernel/clock.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { TenantsStore, VerificationPurpose } from './tenants.store.ts'

export const tokenLifetimeSeconds: Readonly<Record<VerificationPurpose, number>> = {
  email_verification: 24 * 60 * 60,
  invitation: 7 * 24 * 60 * 60,
}

const tokenPrefixes: Readonly<Record<VerificationPurpose, string>> = { email_verification: 'vt_', invitation: 'inv_' }

export interface IssuedToken {
  readonly token: string
  /** What a stored outcome keeps in place of the token (`tokenOf` derives the token again). */
  readonly seed: string
}

export interface TokenIssuer {
  issue(tx: Tx, token: { tenantId: string; userId: string; purpose: VerificationPurpose }): Promise<IssuedToken>
  /** The token a seed stands for. */
  tokenOf(purpose: VerificationPurpose, seed: string): string
}

export function createTokenIssuer(deps: { store: TenantsStore; ids: IdSource; clock: Clock; secrets: ReplayableSecrets }): TokenIssuer {
  const tokenOf = (purpose: VerificationPurpose, seed: string) => deps.secrets.secretOf(seed, tokenPrefixes[purpose])
  return {
    tokenOf,
    async issue(tx, { tenantId, userId, purpose }) {
      const seed = deps.secrets.newSeed()
      const token = tokenOf(purpose, seed)
      const now = deps.clock.now()
      await deps.store.insertVerificationToken(tx, {
        id: deps.ids.newId('verificationToken'),
        tenantId,
        userId,
        purpose,
        tokenDigest: tokenDigest(token),
        expiresAt: new Date(now.getTime() + tokenLifetimeSeconds[purpose] * 1000),
        consumedAt: null,
        createdAt: now,
      })
      return { token, seed }
    },
  }
}
