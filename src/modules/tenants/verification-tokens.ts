/**
 * Issues single-use tokens for email verification (24 h) and invitations (7 days). The caller gets the
 * token once; only its SHA-256 is stored, scoped to the tenant.
 */
import { newSecret, tokenDigest } from '../../kernel/secrets.ts'
import type { Tx } from '../../platform/db/database.ts'
import type { Clock } from '../../kernel/clock.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { TenantsStore, VerificationPurpose } from './tenants.store.ts'

export const tokenLifetimeSeconds: Readonly<Record<VerificationPurpose, number>> = {
  email_verification: 24 * 60 * 60,
  invitation: 7 * 24 * 60 * 60,
}

const tokenPrefixes: Readonly<Record<VerificationPurpose, string>> = { email_verification: 'vt_', invitation: 'inv_' }

export type TokenIssuer = (tx: Tx, token: { tenantId: string; userId: string; purpose: VerificationPurpose }) => Promise<string>

export function createTokenIssuer(deps: { store: TenantsStore; ids: IdSource; clock: Clock }): TokenIssuer {
  return async (tx, { tenantId, userId, purpose }) => {
    const token = newSecret(tokenPrefixes[purpose])
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
    return token
  }
}
