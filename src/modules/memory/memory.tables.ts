/**
 * The memory module's table: one row per memory page, its current version. A regeneration that renders
 * the same content (same SHA-256) leaves the row as it is; different content replaces it and increments
 * `version`, so `version` counts content changes and `generated_at` is when the current content was made.
 *
 * Full-text search (GET /v1/memory/search) reads `to_tsvector('simple', title || ' ' || content)`, the
 * expression the GIN index below is built on ('simple': the pages mix German names, English text and
 * ids, so no language's stemming; the same on both engines).
 *
 * Part of the one schema of both engines (drizzle.config.ts collects every `*.tables.ts`).
 */
import { sql } from 'drizzle-orm'
import { check, index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { timestamptz } from '../../platform/db/columns.ts'
import type { TenantDataPlan } from '../../platform/db/tenant-data.ts'
import { tenants } from '../tenants/tenants.tables.ts'
import { pageTypes } from './domain/page-types.ts'

export const memoryPages = pgTable(
  'memory_pages',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    /** `mpg_…` */
    id: text('id').notNull(),
    /** `counterparty/cpy_…`, `monthly-summary/2026-03`: stable for the subject. */
    slug: text('slug').notNull(),
    pageType: text('page_type', { enum: pageTypes }).notNull(),
    title: text('title').notNull(),
    /** Markdown. */
    content: text('content').notNull(),
    contentSha256: text('content_sha256').notNull(),
    subjectIds: text('subject_ids').array().notNull(),
    /** When the newest source record the content was rendered from was recorded; null when none says. */
    sourceVersion: timestamptz('source_version'),
    /** 1 for the first content, +1 for each change of content. */
    version: integer('version').notNull(),
    generatedAt: timestamptz('generated_at').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.id] }),
    uniqueIndex('memory_pages_slug_idx').on(table.tenantId, table.slug),
    index('memory_pages_type_idx').on(table.tenantId, table.pageType, table.slug),
    index('memory_pages_search_idx').using('gin', sql`to_tsvector('simple', ${table.title} || ' ' || ${table.content})`),
    check('memory_pages_version_check', sql`${table.version} >= 1`),
  ],
)

export type MemoryPageRow = typeof memoryPages.$inferSelect

/** Deleted with the tenant. */
export const memoryTenantData: TenantDataPlan = {
  deleted: [{ table: memoryPages, tenantColumn: memoryPages.tenantId }],
}
