/** The store the memory use cases need (memory.store.pg.ts implements it on the module's one table). */
import type { Executor, Tx } from '../../platform/db/database.ts'
import type { PageType } from './domain/page-types.ts'
import type { MemoryPageRow } from './memory.tables.ts'

export interface PageListing {
  readonly pageType?: PageType | undefined
  /** Slugs strictly after this one. */
  readonly afterSlug?: string | undefined
  readonly limit: number
}

export interface MemoryStore {
  /** Serializes regenerations of one tenant (a transaction-scoped advisory lock). */
  lockTenant(tx: Tx, tenantId: string): Promise<void>
  /** The tenant's pages of these types (all types when undefined), every column but content. */
  pageHashes(executor: Executor, tenantId: string, pageTypes: readonly PageType[] | undefined): Promise<Array<Pick<MemoryPageRow, 'id' | 'slug' | 'pageType' | 'contentSha256' | 'version'>>>
  insertPages(tx: Tx, rows: readonly MemoryPageRow[]): Promise<void>
  updatePage(tx: Tx, tenantId: string, id: string, change: Pick<MemoryPageRow, 'title' | 'content' | 'contentSha256' | 'subjectIds' | 'sourceVersion' | 'version' | 'generatedAt'>): Promise<void>
  deletePages(tx: Tx, tenantId: string, ids: readonly string[]): Promise<void>
  findPage(executor: Executor, tenantId: string, by: { id: string } | { slug: string }): Promise<MemoryPageRow | undefined>
  listPages(executor: Executor, tenantId: string, listing: PageListing): Promise<MemoryPageRow[]>
  /** Pages whose title and content match the websearch query, in slug order. */
  searchPages(executor: Executor, tenantId: string, query: string, listing: PageListing): Promise<MemoryPageRow[]>
}
