/**
 * Whether the audit module still needs stored bytes: an audit export's file lives in the same
 * content-addressed blob store as Raw's artifacts, so Raw asks before it purges bytes it no longer needs.
 */
import { and, eq } from 'drizzle-orm'
import type { Executor } from '../../platform/db/database.ts'
import { auditExports } from './audit.tables.ts'

export interface AuditBlobReferences {
  /** Whether an audit export of the tenant is stored under this content hash. */
  isReferenced(executor: Executor, tenantId: string, sha256: string): Promise<boolean>
}

export function createAuditBlobReferences(): AuditBlobReferences {
  return {
    async isReferenced(executor, tenantId, sha256) {
      const [row] = await executor
        .select({ id: auditExports.id })
        .from(auditExports)
        .where(and(eq(auditExports.tenantId, tenantId), eq(auditExports.blobSha256, sha256)))
        .limit(1)
      return row !== undefined
    },
  }
}
