/**
 * Whether a service token still stands, for the pre-execution gate (check 9.5, agent_active_and_scoped):
 * the break-glass token stands for Steward's internal agents, and the agent that proposed a payment with
 * it is active while the token has not expired and still carries payment_intent:propose.
 */
import type { Executor } from '../../platform/db/database.ts'
import { selector } from '../../platform/db/statements.ts'
import { serviceTokens } from './auth.tables.ts'

/** The token's row by key, read without building the query (every gate run of a token's proposal reads it). */
const tokenByKey = selector(serviceTokens, ['tenantId', 'id'])

export interface ServiceTokenStanding {
  readonly active: boolean
  readonly scopes: readonly string[]
}

export async function serviceTokenStanding(executor: Executor, tenantId: string, tokenId: string, now: Date): Promise<ServiceTokenStanding | undefined> {
  const [row] = await tokenByKey(executor, [tenantId, tokenId])
  return row === undefined ? undefined : { active: row.expiresAt.getTime() > now.getTime(), scopes: row.scopes }
}
