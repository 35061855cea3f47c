/**
 * Reading a tenant's policy: the active version, and every version newest first. Queries: they take the
 * tenant and write nothing.
 */
import type { CursorCodec, PageSizeBounds } from '../../kernel/cursor.ts'
import { AppError } from '../../kernel/errors.ts'
import type { Database } from '../../platform/db/database.ts'
import type { PolicyStore } from './policy.store.ts'
import { toPolicyView, toVersionView, type PolicyView, type VersionView } from './policy.views.ts'

export const versionPageRows = { defaultRows: 100, maxRows: 500 } as const satisfies PageSizeBounds

export interface PolicyReads {
  active(tenantId: string): Promise<PolicyView>
  versions(tenantId: string, query: { limit?: number | undefined; cursor?: string | undefined }): Promise<{ versions: VersionView[]; next_cursor: string | null }>
}

export function createPolicyReads(deps: { db: Database; store: PolicyStore; cursors: CursorCodec }): PolicyReads {
  const { db, store, cursors } = deps
  return {
    /** The tenant's active version; 404 policy_not_found when none is. */
    async active(tenantId) {
      const row = await store.findActivePolicy(db.orm, tenantId)
      if (row === undefined) throw new AppError('policy_not_found', 'The tenant has no active policy.')
      return toPolicyView(row)
    },

    /** Every version, newest first, in pages (the cursor is bound to the tenant's listing). */
    async versions(tenantId, query) {
      const limit = query.limit ?? versionPageRows.defaultRows
      const listing = `policy_versions:${tenantId}`
      const beforeVersion = query.cursor === undefined ? undefined : Number(cursors.decode(listing, query.cursor).before_version)
      if (beforeVersion !== undefined && !Number.isInteger(beforeVersion)) throw new AppError('invalid_cursor')
      const rows = await store.listPolicies(db.orm, tenantId, { beforeVersion, limit: limit + 1 })
      const page = rows.slice(0, limit)
      const last = page.at(-1)
      return {
        versions: page.map(toVersionView),
        next_cursor: rows.length > limit && last !== undefined ? cursors.encode(listing, { before_version: last.version }) : null,
      }
    },
  }
}
