/**
 * The wiki module's entity tables: Wiki annotations (the Wiki's own versions of a Ledger record or
 * relation, human_confirmed) and the search's embedding cache.
 *
 * Part of the one schema of both engines (drizzle.config.ts collects every `*.tables.ts`): a change here
 * becomes the next forward-only migration under src/platform/db/migrations/ (`npm run db:generate`).
 */
import { sql } from 'drizzle-orm'
import { check, index, integer, jsonb, pgTable, primaryKey, real, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { createdAt } from '../../platform/db/columns.ts'
import type { TenantDataPlan } from '../../platform/db/tenant-data.ts'

/**
 * One annotation of a Ledger record (`target` entity) or of a reconciliation match (`target` relation):
 * a Wiki version of its subject, appended, never changed. `version` counts the subject's annotations
 * (1, 2, 3 …); `created_at` is when it was recorded (system time). The note is kept verbatim here; the
 * audit event holds only its hash. `basis_version_id` is the Ledger version the annotator saw.
 */
export const wikiAnnotations = pgTable(
  'wiki_annotations',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: text('id').notNull(),
    subjectId: text('subject_id').notNull(),
    subjectKind: text('subject_kind').notNull(),
    target: text('target', { enum: ['entity', 'relation'] }).notNull(),
    version: integer('version').notNull(),
    basisVersionId: text('basis_version_id').notNull(),
    note: text('note'),
    /** Replaces the subject's labels when given; null leaves them. */
    labels: text('labels').array(),
    /** `{ field: value }` Wiki-level assertions of a field's value (null withdraws an earlier one); null when none. */
    corrections: jsonb('corrections'),
    /** A relation's verdict: confirmed or disputed. */
    relationStatus: text('relation_status', { enum: ['confirmed', 'disputed'] }),
    provenance: text('provenance', { enum: ['human_confirmed'] }).notNull(),
    actorType: text('actor_type').notNull(),
    actorId: text('actor_id').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.id] }),
    uniqueIndex('wiki_annotations_subject_version_unique').on(table.tenantId, table.subjectId, table.version),
    index('wiki_annotations_subject_time_idx').on(table.tenantId, table.subjectId, table.createdAt),
    check('wiki_annotations_target_check', sql`${table.target} in ('entity', 'relation')`),
    check('wiki_annotations_version_check', sql`${table.version} >= 1`),
  ],
)

/**
 * Embeddings of search documents, a cache keyed by the document, the model and the SHA-256 of the text
 * embedded: a changed text or another model is embedded again. `real[]` (not pgvector, which the
 * PostgreSQL Steward runs on may lack): cosine similarity is computed in SQL over a bounded candidate set.
 */
export const wikiSearchEmbeddings = pgTable(
  'wiki_search_embeddings',
  {
    tenantId: uuid('tenant_id').notNull(),
    documentKind: text('document_kind', { enum: ['policy', 'agent'] }).notNull(),
    documentId: text('document_id').notNull(),
    model: text('model').notNull(),
    contentSha256: text('content_sha256').notNull(),
    vector: real('vector').array().notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.documentKind, table.documentId, table.model] })],
)

export type WikiAnnotationRow = typeof wikiAnnotations.$inferSelect

/** This part of the module's tenant data (tenant deletion): emptied in this order. */
export const wikiEntitiesTenantData: TenantDataPlan = {
  deleted: [
    { table: wikiAnnotations, tenantColumn: wikiAnnotations.tenantId },
    { table: wikiSearchEmbeddings, tenantColumn: wikiSearchEmbeddings.tenantId },
  ],
}
