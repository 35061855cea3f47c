/**
 * The health of a tenant's audit chain, for the pre-execution gate (check 13, audit_chain_healthy): how
 * long the oldest event recorded but not yet linked into the chain has waited. The sequencer links events
 * within moments; an event waiting long means the chain is not keeping up, and nothing should move money
 * whose record cannot be chained.
 */
import type { Executor } from '../../platform/db/database.ts'
import { statement } from '../../platform/db/statements.ts'

/** Fixed text (platform/db/statements.ts): the gate asks it on every execute. */
const oldestUnlinked = statement<{ oldest: Date | null }>(`select min(created_at) as "oldest" from audit_inbox where tenant_id = $1`)

export async function oldestUnlinkedSeconds(executor: Executor, tenantId: string, now: Date): Promise<number | null> {
  const oldest = (await oldestUnlinked.first(executor, [tenantId]))?.oldest ?? null
  if (oldest === null) return null
  return Math.max(0, (now.getTime() - oldest.getTime()) / 1000)
}
