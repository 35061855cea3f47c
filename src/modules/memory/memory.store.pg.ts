/**
 * The memory store on PostgreSQL (both engines): touches only `memory_pages`; every query names the tenant.
 */
import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm'
import type { Executor } from '../../platform/db/database.ts'
import type { MemoryStore, PageListing } from './memory.store.ts'
import { memoryPages } from './memory.tables.ts'

/** The advisory-lock class of memory regenerations (beside the Ledger's 7_264_110 and Policy's 7_264_120). */
const memoryLockClass = 7_264_200
/** Rows per insert statement (13 parameters a row, far below PostgreSQL's 65,535). */
const insertRowsMax = 500

const p = memoryPages
const listingFilter = (tenantId: string, listing: PageListing) =>
  and(eq(p.tenantId, tenantId), listing.pageType === undefined ? undefined : eq(p.pageType, listing.pageType), listing.afterSlug === undefined ? undefined : gt(p.slug, listing.afterSlug))

export function createMemoryStore(): MemoryStore {
  return {
    async lockTenant(tx, tenantId) {
      await tx.execute(sql`select pg_advisory_xact_lock(${memoryLockClass}, hashtext(${tenantId}))`)
    },

    async pageHashes(executor, tenantId, pageTypes) {
      return executor
        .select({ id: p.id, slug: p.slug, pageType: p.pageType, contentSha256: p.contentSha256, version: p.version })
        .from(p)
        .where(and(eq(p.tenantId, tenantId), pageTypes === undefined ? undefined : inArray(p.pageType, [...pageTypes])))
    },

    async insertPages(tx, rows) {
      for (let start = 0; start < rows.length; start += insertRowsMax) await tx.insert(p).values(rows.slice(start, start + insertRowsMax))
    },

    async updatePage(tx, tenantId, id, change) {
      await tx.update(p).set(change).where(and(eq(p.tenantId, tenantId), eq(p.id, id)))
    },

    async deletePages(tx, tenantId, ids) {
      if (ids.length === 0) return
      await tx.delete(p).where(and(eq(p.tenantId, tenantId), inArray(p.id, [...ids])))
    },

    async findPage(executor: Executor, tenantId, by) {
      const [row] = await executor
        .select()
        .from(p)
        .where(and(eq(p.tenantId, tenantId), 'id' in by ? eq(p.id, by.id) : eq(p.slug, by.slug)))
        .limit(1)
      return row
    },

    async listPages(executor, tenantId, listing) {
      // Served by memory_pages_type_idx (tenant_id, page_type, slug) or memory_pages_slug_idx (tenant_id, slug).
      return executor.select().from(p).where(listingFilter(tenantId, listing)).orderBy(asc(p.slug)).limit(listing.limit)
    },

    async searchPages(executor, tenantId, query, listing) {
      return executor
        .select()
        .from(p)
        .where(and(listingFilter(tenantId, listing), sql`to_tsvector('simple', ${p.title} || ' ' || ${p.content}) @@ websearch_to_tsquery('simple', ${query})`))
        .orderBy(asc(p.slug))
        .limit(listing.limit)
    },
  }
}

export type { MemoryStore } from './memory.store.ts'
