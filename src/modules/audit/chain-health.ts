/**
 * The health of a tenant's audit chain, for the pre-execution gate (check 13, audit_chain_healthy): how
 * long the oldest event recorded but not yet linked into the chain has waited. The sequencer links events
 * within moments; an event waiting long means the chain is not keeping up, and nothing should move money
 * whose record cannot be chained.
 */
import { and, eq, sql } from 'drizzle-orm'
import type { Executor } from '../../platform/db/database.ts'
import { auditInbox } from './audit.tables.ts'

export async function oldestUnlinkedSeconds(executor: Executor, tenantId: string, now: Date): Promise<number | null> {
  const [row] = await executor
    .select({ oldest: sql<Date | string | null>`min(${auditInbox.createdAt})` })
    .from(auditInbox)
    .where(and(eq(auditInbox.tenantId, tenantId)))
  const oldest = row?.oldest ?? null
  if (oldest === null) return null
  return Math.max(0, (now.getTime() - new Date(oldest).getTime()) / 1000)
}
