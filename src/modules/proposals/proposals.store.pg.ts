/** The proposals module's store over its own table (proposals.tables.ts); never another module's. */
import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import type { Executor, Tx } from '../../platform/db/database.ts'
import { proposalDecisions, type ProposalDecisionRow } from './proposals.tables.ts'

export function createProposalsStore() {
  return {
    /** Serializes decisions on one proposal (a transaction-scoped advisory lock on tenant and id). */
    async lockProposal(tx: Tx, tenantId: string, proposalId: string): Promise<void> {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`proposal:${tenantId}:${proposalId}`}, 0))`)
    },
    async insertDecision(tx: Tx, row: ProposalDecisionRow): Promise<void> {
      await tx.insert(proposalDecisions).values(row)
    },
    /** The decisions recorded on these proposals, oldest first, by proposal. */
    async decisionsOf(executor: Executor, tenantId: string, proposalIds: readonly string[]): Promise<Map<string, ProposalDecisionRow[]>> {
      const found = new Map<string, ProposalDecisionRow[]>()
      if (proposalIds.length === 0) return found
      const d = proposalDecisions
      const rows = await executor
        .select()
        .from(d)
        .where(and(eq(d.tenantId, tenantId), inArray(d.proposalId, [...proposalIds])))
        .orderBy(asc(d.proposalId), asc(d.sequence))
      for (const row of rows) found.set(row.proposalId, [...(found.get(row.proposalId) ?? []), row])
      return found
    },
  }
}

export type ProposalsStore = ReturnType<typeof createProposalsStore>
