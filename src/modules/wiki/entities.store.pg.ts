/** The wiki entities' storage (both engines): annotations and the search's embedding cache. Every query takes the tenant id. */
import { and, asc, eq, inArray, lte, max, sql } from 'drizzle-orm'
import type { Executor, Tx } from '../../platform/db/database.ts'
import { wikiAnnotations, wikiSearchEmbeddings, type WikiAnnotationRow } from './entities.tables.ts'

/** The advisory lock class of a subject's annotations (its versions are numbered under it). */
const annotationLockClass = 7_264_190

export interface WikiEntitiesStore {
  /** Serializes annotations of one subject until the transaction ends. */
  lockSubject(tx: Tx, tenantId: string, subjectId: string): Promise<void>
  /** The subject's highest annotation version (0 when none). */
  latestVersion(executor: Executor, tenantId: string, subjectId: string): Promise<number>
  insertAnnotation(tx: Tx, row: WikiAnnotationRow): Promise<void>
  /** The subject's annotations recorded at or before `asOf` (all when undefined), oldest first, `offset` skipped, at most `limit`. */
  annotations(executor: Executor, tenantId: string, subjectId: string, options: { asOf?: Date | undefined; offset?: number; limit?: number }): Promise<WikiAnnotationRow[]>
  /** Cached vectors of these documents for `model`, by document key (`kind:id`), where the text hash still matches. */
  embeddings(executor: Executor, tenantId: string, model: string, documents: ReadonlyArray<{ kind: 'policy' | 'agent'; id: string; sha256: string }>): Promise<Map<string, number[]>>
  saveEmbeddings(executor: Executor, tenantId: string, model: string, rows: ReadonlyArray<{ kind: 'policy' | 'agent'; id: string; sha256: string; vector: number[] }>, at: Date): Promise<void>
}

export function createWikiEntitiesStore(): WikiEntitiesStore {
  const a = wikiAnnotations
  const e = wikiSearchEmbeddings
  return {
    async lockSubject(tx, tenantId, subjectId) {
      await tx.execute(sql`select pg_advisory_xact_lock(${annotationLockClass}, hashtext(${`${tenantId}|${subjectId}`}))`)
    },
    async latestVersion(executor, tenantId, subjectId) {
      const [row] = await executor.select({ version: max(a.version) }).from(a).where(and(eq(a.tenantId, tenantId), eq(a.subjectId, subjectId)))
      return row?.version ?? 0
    },
    async insertAnnotation(tx, row) {
      await tx.insert(a).values(row)
    },
    async annotations(executor, tenantId, subjectId, options) {
      // Served by wiki_annotations_subject_version_unique (tenant_id, subject_id, version): versions are recorded in time order.
      const query = executor
        .select()
        .from(a)
        .where(and(eq(a.tenantId, tenantId), eq(a.subjectId, subjectId), options.asOf === undefined ? undefined : lte(a.createdAt, options.asOf)))
        .orderBy(asc(a.version))
        .offset(options.offset ?? 0)
      return options.limit === undefined ? query : query.limit(options.limit)
    },
    async embeddings(executor, tenantId, model, documents) {
      const found = new Map<string, number[]>()
      for (const kind of ['policy', 'agent'] as const) {
        const ofKind = documents.filter((document) => document.kind === kind)
        if (ofKind.length === 0) continue
        const rows = await executor
          .select({ id: e.documentId, sha256: e.contentSha256, vector: e.vector })
          .from(e)
          .where(and(eq(e.tenantId, tenantId), eq(e.documentKind, kind), eq(e.model, model), inArray(e.documentId, ofKind.map((document) => document.id))))
        const wanted = new Map(ofKind.map((document) => [document.id, document.sha256]))
        for (const row of rows) if (wanted.get(row.id) === row.sha256) found.set(`${kind}:${row.id}`, row.vector)
      }
      return found
    },
    async saveEmbeddings(executor, tenantId, model, rows, at) {
      if (rows.length === 0) return
      await executor
        .insert(e)
        .values(rows.map((row) => ({ tenantId, documentKind: row.kind, documentId: row.id, model, contentSha256: row.sha256, vector: row.vector, createdAt: at })))
        .onConflictDoUpdate({
          target: [e.tenantId, e.documentKind, e.documentId, e.model],
          set: { contentSha256: sql`excluded.content_sha256`, vector: sql`excluded.vector`, createdAt: sql`excluded.created_at` },
        })
    },
  }
}
