/** The agents module's store over its own tables (agents.runs.tables.ts); never another module's. */
import { and, desc, eq, gte, inArray, lt, or } from 'drizzle-orm'
import type { Executor } from '../../platform/db/database.ts'
import { agentProposals, agentRoutingDecisions, agentRuns } from './agents.runs.tables.ts'
import { inserter } from '../../platform/db/statements.ts'

export type RoutingDecisionRow = typeof agentRoutingDecisions.$inferSelect
export type RunRow = typeof agentRuns.$inferSelect
export type ProposalRow = typeof agentProposals.$inferSelect

export interface Position {
  readonly createdAt: Date
  readonly id: string
}

const before = (table: typeof agentRuns | typeof agentProposals, position: Position | undefined) =>
  position === undefined ? undefined : or(lt(table.createdAt, position.createdAt), and(eq(table.createdAt, position.createdAt), lt(table.id, position.id)))

const insertProposalRow = inserter(agentProposals)

export function createRunsStore() {
  return {
    async insertRoutingDecision(executor: Executor, row: RoutingDecisionRow) {
      await executor.insert(agentRoutingDecisions).values(row)
    },
    async insertRun(executor: Executor, row: RunRow) {
      await executor.insert(agentRuns).values(row)
    },
    async insertProposals(executor: Executor, rows: ProposalRow[]) {
      // One row (an agent's proposed payment, on the money path) through the prepared INSERT; several in one statement.
      if (rows.length === 1) await insertProposalRow(executor, rows[0]!)
      else if (rows.length > 1) await executor.insert(agentProposals).values(rows)
    },
    async routingDecision(executor: Executor, tenantId: string, id: string) {
      const [row] = await executor.select().from(agentRoutingDecisions).where(and(eq(agentRoutingDecisions.tenantId, tenantId), eq(agentRoutingDecisions.id, id))).limit(1)
      return row
    },
    async run(executor: Executor, tenantId: string, id: string) {
      const [row] = await executor.select().from(agentRuns).where(and(eq(agentRuns.tenantId, tenantId), eq(agentRuns.id, id))).limit(1)
      return row
    },
    async runs(executor: Executor, tenantId: string, filter: { agentId?: string | undefined; status?: string | undefined; category?: string | undefined; before?: Position | undefined; limit: number }) {
      const r = agentRuns
      return executor
        .select()
        .from(r)
        .where(
          and(
            eq(r.tenantId, tenantId),
            filter.agentId === undefined ? undefined : eq(r.agentId, filter.agentId),
            filter.status === undefined ? undefined : eq(r.status, filter.status as RunRow['status']),
            filter.category === undefined ? undefined : eq(r.category, filter.category as NonNullable<RunRow['category']>),
            before(r, filter.before),
          ),
        )
        .orderBy(desc(r.createdAt), desc(r.id))
        .limit(filter.limit)
    },
    async proposalsOfRun(executor: Executor, tenantId: string, runId: string) {
      const p = agentProposals
      return executor.select().from(p).where(and(eq(p.tenantId, tenantId), eq(p.runId, runId))).orderBy(p.proposalKey)
    },
    /** The proposals of several runs, by run id then key (one query for a page of runs). */
    async proposalsOfRuns(executor: Executor, tenantId: string, runIds: readonly string[]) {
      if (runIds.length === 0) return []
      const p = agentProposals
      return executor.select().from(p).where(and(eq(p.tenantId, tenantId), inArray(p.runId, [...runIds]))).orderBy(p.runId, p.proposalKey)
    },
    async proposalsOfAgent(executor: Executor, tenantId: string, agentId: string, page: { before?: Position | undefined; limit: number }) {
      const p = agentProposals
      return executor
        .select()
        .from(p)
        .where(and(eq(p.tenantId, tenantId), eq(p.agentId, agentId), before(p, page.before)))
        .orderBy(desc(p.createdAt), desc(p.id))
        .limit(page.limit)
    },
    /** Every agent's proposals, newest first (created_at, id), older than `before`, with confidence ≥ `minConfidence`. */
    async proposalPage(executor: Executor, tenantId: string, page: { before?: Position | undefined; minConfidence?: number | undefined; limit: number }) {
      const p = agentProposals
      return executor
        .select()
        .from(p)
        .where(and(eq(p.tenantId, tenantId), page.minConfidence === undefined ? undefined : gte(p.confidence, page.minConfidence), before(p, page.before)))
        .orderBy(desc(p.createdAt), desc(p.id))
        .limit(page.limit)
    },
    async proposal(executor: Executor, tenantId: string, id: string) {
      const [row] = await executor.select().from(agentProposals).where(and(eq(agentProposals.tenantId, tenantId), eq(agentProposals.id, id))).limit(1)
      return row
    },
    /** The proposals of the agent with these keys made since `since`, newest first. */
    async recentProposals(executor: Executor, tenantId: string, agentId: string, keys: readonly string[], since: Date) {
      if (keys.length === 0) return []
      const p = agentProposals
      return executor
        .select({ id: p.id, runId: p.runId, proposalKey: p.proposalKey, paymentIntentId: p.paymentIntentId, status: p.status })
        .from(p)
        .where(and(eq(p.tenantId, tenantId), eq(p.agentId, agentId), inArray(p.proposalKey, [...keys]), gte(p.createdAt, since)))
        .orderBy(desc(p.createdAt))
    },
  }
}

export type RunsStore = ReturnType<typeof createRunsStore>
