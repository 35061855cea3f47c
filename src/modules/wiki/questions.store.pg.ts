/**
 * The question records' store. Touches only wiki_questions; every query names the tenant.
 */
import { and, desc, eq, isNotNull, lt, or, sql } from 'drizzle-orm'
import type { Executor, Tx } from '../../platform/db/database.ts'
import { wikiQuestions, type WikiQuestionRow } from './wiki.tables.ts'

export function createQuestionsStore() {
  return {
    async insert(tx: Tx, row: WikiQuestionRow): Promise<void> {
      await tx.insert(wikiQuestions).values(row)
    },

    /** Newest first (created_at, id), before `before`, at most `limit` (wiki_questions_created_idx). */
    async list(executor: Executor, tenantId: string, options: { before?: { createdAt: Date; id: string } | undefined; limit: number }): Promise<WikiQuestionRow[]> {
      const q = wikiQuestions
      const before = options.before
      return executor
        .select()
        .from(q)
        .where(and(eq(q.tenantId, tenantId), before === undefined ? undefined : or(lt(q.createdAt, before.createdAt), and(eq(q.createdAt, before.createdAt), lt(q.id, before.id)))))
        .orderBy(desc(q.createdAt), desc(q.id))
        .limit(options.limit)
    },

    /** How many times each template was asked in the tenant, all time (wiki_questions_template_idx). */
    async templateCounts(executor: Executor, tenantId: string): Promise<Map<string, number>> {
      const q = wikiQuestions
      const rows = await executor
        .select({ template: q.template, count: sql<number>`count(*)::int` })
        .from(q)
        .where(and(eq(q.tenantId, tenantId), isNotNull(q.template)))
        .groupBy(q.template)
      return new Map(rows.map((row) => [row.template!, Number(row.count)]))
    },
  }
}

export type QuestionsStore = ReturnType<typeof createQuestionsStore>
