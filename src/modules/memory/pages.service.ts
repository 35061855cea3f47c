/**
 * Reading memory pages (GET /v1/memory/pages, …/{slug_or_id}, GET /v1/memory/search): queries, tenant
 * scoped, writing nothing. Lists and search answer page summaries in slug order (content only on the
 * single read), a page at a time with a cursor bound to the listing (tenant, page_type and query).
 */
import type { CursorCodec, PageSizeBounds } from '../../kernel/cursor.ts'
import { AppError } from '../../kernel/errors.ts'
import { idPrefixes } from '../../kernel/ids.ts'
import type { Database } from '../../platform/db/database.ts'
import type { PageType } from './domain/page-types.ts'
import type { MemoryStore } from './memory.store.ts'
import type { MemoryPageRow } from './memory.tables.ts'

/** Spec, "Limits": 50 by default, at most 500 (as the Wiki's search). */
export const memoryPageRows = { defaultRows: 50, maxRows: 500 } as const satisfies PageSizeBounds
/** The longest full-text query. */
export const searchQueryCharactersMax = 500

export function pageSummaryView(row: MemoryPageRow) {
  return {
    id: row.id,
    slug: row.slug,
    page_type: row.pageType,
    title: row.title,
    subject_ids: row.subjectIds,
    content_sha256: row.contentSha256,
    version: row.version,
    source_version: row.sourceVersion?.toISOString() ?? null,
    generated_at: row.generatedAt.toISOString(),
    created_at: row.createdAt.toISOString(),
  }
}

export function pageView(row: MemoryPageRow) {
  return { ...pageSummaryView(row), content: row.content }
}

export type PageSummaryView = ReturnType<typeof pageSummaryView>
export type PageView = ReturnType<typeof pageView>

interface ListQuery {
  readonly page_type?: PageType | undefined
  readonly limit?: number | undefined
  readonly cursor?: string | undefined
}

export function createPagesService(deps: { db: Database; store: MemoryStore; cursors: CursorCodec }) {
  const { db, store, cursors } = deps

  function afterSlugOf(listing: string, cursor: string | undefined): string | undefined {
    if (cursor === undefined) return undefined
    const after = cursors.decode(listing, cursor)['after_slug']
    if (typeof after !== 'string') throw new AppError('invalid_cursor')
    return after
  }

  function paged(listing: string, rows: MemoryPageRow[], limit: number) {
    const shown = rows.slice(0, limit)
    const last = shown.at(-1)
    return { pages: shown.map(pageSummaryView), next_cursor: rows.length > limit && last !== undefined ? cursors.encode(listing, { after_slug: last.slug }) : null }
  }

  return {
    async list(tenantId: string, query: ListQuery): Promise<{ pages: PageSummaryView[]; next_cursor: string | null }> {
      const limit = query.limit ?? memoryPageRows.defaultRows
      const listing = `memory_pages:${tenantId}:${query.page_type ?? ''}`
      const rows = await store.listPages(db.orm, tenantId, { pageType: query.page_type, afterSlug: afterSlugOf(listing, query.cursor), limit: limit + 1 })
      return paged(listing, rows, limit)
    },

    /**
     * One page by its id (`mpg_…`) or its slug (`counterparty/cpy_…`); 404 memory_page_not_found when the
     * tenant has none, whatever the shape.
     */
    async get(tenantId: string, slugOrId: string): Promise<PageView> {
      const byId = slugOrId.startsWith(`${idPrefixes.memoryPage}_`) ? await store.findPage(db.orm, tenantId, { id: slugOrId }) : undefined
      const row = byId ?? (await store.findPage(db.orm, tenantId, { slug: slugOrId }))
      if (row === undefined) throw new AppError('memory_page_not_found', 'No such memory page in this tenant.', { slug_or_id: slugOrId })
      return pageView(row)
    },

    /** Pages whose title or content match `q` (PostgreSQL full text, websearch syntax, the 'simple' configuration). */
    async search(tenantId: string, query: ListQuery & { readonly q: string }): Promise<{ pages: PageSummaryView[]; next_cursor: string | null }> {
      const limit = query.limit ?? memoryPageRows.defaultRows
      const listing = `memory_search:${tenantId}:${query.page_type ?? ''}:${query.q}`
      const rows = await store.searchPages(db.orm, tenantId, query.q, { pageType: query.page_type, afterSlug: afterSlugOf(listing, query.cursor), limit: limit + 1 })
      return paged(listing, rows, limit)
    },
  }
}

export type PagesService = ReturnType<typeof createPagesService>
