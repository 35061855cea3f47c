/**
 * The wiki module's question records (POST /v1/wiki/question): each question asked, the structured query
 * it ran, the answer as it was given and the language-model calls it made (token usage), written once.
 * GET /v1/assistant/questions lists them; suggested questions rank templates by how often they were asked.
 *
 * Part of the one schema of both engines (drizzle.config.ts collects every `*.tables.ts`).
 */
import { boolean, index, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core'
import { createdAt, timestamptz } from '../../platform/db/columns.ts'
import type { TenantDataPlan } from '../../platform/db/tenant-data.ts'
import { tenants } from '../tenants/tenants.tables.ts'

export const wikiQuestions = pgTable(
  'wiki_questions',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    /** `wqn_…` */
    id: text('id').notNull(),
    question: text('question').notNull(),
    /** The question template it instantiated (domain/question-parser.ts), null when unanswered. */
    template: text('template'),
    answered: boolean('answered').notNull(),
    /** The instant the Ledger was read as of (the request's as_of, or when it was asked). */
    asOf: timestamptz('as_of').notNull(),
    /** The answer as it was returned (the response body without the record fields). */
    answer: jsonb('answer').notNull(),
    /** The language-model calls made for it: purpose, model, prompt and completion tokens. */
    usage: jsonb('usage').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.id] }),
    index('wiki_questions_created_idx').on(table.tenantId, table.createdAt, table.id),
    index('wiki_questions_template_idx').on(table.tenantId, table.template),
  ],
)

export type WikiQuestionRow = typeof wikiQuestions.$inferSelect

/** Deleted with the tenant. */
export const wikiTenantData: TenantDataPlan = {
  deleted: [{ table: wikiQuestions, tenantColumn: wikiQuestions.tenantId }],
}
