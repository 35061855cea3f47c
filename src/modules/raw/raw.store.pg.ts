/** The Drizzle implementation of RawStore (both engines). */
import { and, asc, count, desc, eq, gt, gte, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm'
import { copyMany, insertMany } from '../../platform/db/bulk.ts'
import { providerAccounts, providerConnections, rawArtifacts, rawParsedRows } from './raw.tables.ts'
import type { RawStore } from './raw.store.ts'

export function createRawStore(): RawStore {
  const artifactOf = (tenantId: string, rawId: string) => and(eq(rawArtifacts.tenantId, tenantId), eq(rawArtifacts.id, rawId))

  return {
    async lockContent(tx, tenantId, sha256) {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`raw_content:${tenantId}:${sha256}`}, 0))`)
    },
    async findArtifact(executor, tenantId, rawId, options = {}) {
      const query = executor.select().from(rawArtifacts).where(artifactOf(tenantId, rawId)).limit(1)
      const [row] = options.forUpdate ? await query.for('update') : await query
      return row
    },
    async findArtifactBySha256(executor, tenantId, sha256, options = {}) {
      const query = executor
        .select()
        .from(rawArtifacts)
        .where(and(eq(rawArtifacts.tenantId, tenantId), eq(rawArtifacts.sha256, sha256)))
        .limit(1)
      const [row] = options.forUpdate ? await query.for('update') : await query
      return row
    },
    async insertArtifact(tx, artifact) {
      const inserted = await tx
        .insert(rawArtifacts)
        .values(artifact)
        .onConflictDoNothing({ target: [rawArtifacts.tenantId, rawArtifacts.sha256] })
        .returning({ id: rawArtifacts.id })
      return inserted.length > 0
    },
    async updateArtifact(executor, tenantId, rawId, changes) {
      await executor.update(rawArtifacts).set(changes).where(artifactOf(tenantId, rawId))
    },
    async lockHeldArtifacts(tx, tenantId, agentId, limit) {
      const rows = await tx
        .select({ id: rawArtifacts.id })
        .from(rawArtifacts)
        .where(and(eq(rawArtifacts.tenantId, tenantId), eq(rawArtifacts.heldForAgentId, agentId)))
        .orderBy(asc(rawArtifacts.ingestedAt), asc(rawArtifacts.id))
        .limit(limit)
        .for('update')
      return rows.map((row) => row.id)
    },
    async listArtifacts(executor, tenantId, listing) {
      const { before } = listing
      return executor
        .select()
        .from(rawArtifacts)
        .where(
          and(
            eq(rawArtifacts.tenantId, tenantId),
            eq(rawArtifacts.status, 'stored'),
            listing.sourceType === undefined ? undefined : eq(rawArtifacts.sourceType, listing.sourceType),
            listing.extractionStatus === undefined ? undefined : eq(rawArtifacts.extractionStatus, listing.extractionStatus),
            listing.since === undefined ? undefined : gte(rawArtifacts.ingestedAt, listing.since),
            listing.until === undefined ? undefined : lt(rawArtifacts.ingestedAt, listing.until),
            before === undefined
              ? undefined
              : or(lt(rawArtifacts.ingestedAt, before.ingestedAt), and(eq(rawArtifacts.ingestedAt, before.ingestedAt), lt(rawArtifacts.id, before.id))),
          ),
        )
        // Served by raw_artifacts_ingested_idx (tenant_id, ingested_at, id), read backwards.
        .orderBy(desc(rawArtifacts.ingestedAt), desc(rawArtifacts.id))
        .limit(listing.limit)
    },
    async listPurgeDue(executor, cutoff, limit) {
      return executor
        .select({ id: rawArtifacts.id, tenantId: rawArtifacts.tenantId, sha256: rawArtifacts.sha256 })
        .from(rawArtifacts)
        .where(and(eq(rawArtifacts.status, 'tombstoned'), isNull(rawArtifacts.bytesPurgedAt), isNotNull(rawArtifacts.tombstonedAt), lte(rawArtifacts.tombstonedAt, cutoff)))
        .orderBy(asc(rawArtifacts.tombstonedAt))
        .limit(limit)
    },

    async hasParsedRows(executor, tenantId, rawId, parser, parserVersion) {
      const [row] = await executor
        .select({ id: rawParsedRows.id })
        .from(rawParsedRows)
        .where(and(eq(rawParsedRows.tenantId, tenantId), eq(rawParsedRows.rawArtifactId, rawId), eq(rawParsedRows.parser, parser), eq(rawParsedRows.parserVersion, parserVersion)))
        .limit(1)
      return row !== undefined
    },
    async insertParsedRows(tx, rows, options) {
      if (rows.length === 0) return 0
      // A first run's rows cannot conflict: COPY on a server (db/bulk.ts). A re-run skips the rows it wrote.
      return options.skipExisting ? insertMany(tx, rawParsedRows, rows, { onConflictDoNothing: true }) : copyMany(tx, rawParsedRows, rows)
    },
    async listParsedRows(executor, tenantId, rawId, query) {
      const after = query.after
      return executor
        .select()
        .from(rawParsedRows)
        .where(
          and(
            eq(rawParsedRows.tenantId, tenantId),
            eq(rawParsedRows.rawArtifactId, rawId),
            query.parser === undefined ? undefined : eq(rawParsedRows.parser, query.parser),
            query.parserVersion === undefined ? undefined : eq(rawParsedRows.parserVersion, query.parserVersion),
            after === undefined
              ? undefined
              : or(
                  gt(rawParsedRows.parser, after.parser),
                  and(eq(rawParsedRows.parser, after.parser), gt(rawParsedRows.parserVersion, after.parserVersion)),
                  and(eq(rawParsedRows.parser, after.parser), eq(rawParsedRows.parserVersion, after.parserVersion), gt(rawParsedRows.rowIndex, after.rowIndex)),
                ),
          ),
        )
        .orderBy(asc(rawParsedRows.parser), asc(rawParsedRows.parserVersion), asc(rawParsedRows.rowIndex))
        .limit(query.limit)
    },
    async countParsedRows(executor, tenantId, rawId) {
      const [row] = await executor
        .select({ total: count() })
        .from(rawParsedRows)
        .where(and(eq(rawParsedRows.tenantId, tenantId), eq(rawParsedRows.rawArtifactId, rawId)))
      return Number(row?.total ?? 0)
    },


    async findConnectionByAccount(executor, provider, accountRef, options = {}) {
      // The webhook names no tenant: the provider_accounts directory names the account's tenant, then
      // the connection is read from that tenant's rows.
      const [entry] = await executor
        .select({ tenantId: providerAccounts.ownerTenantId })
        .from(providerAccounts)
        .where(and(eq(providerAccounts.provider, provider), eq(providerAccounts.accountRef, accountRef)))
        .limit(1)
      if (entry === undefined) return undefined
      const query = executor
        .select()
        .from(providerConnections)
        .where(and(eq(providerConnections.tenantId, entry.tenantId), eq(providerConnections.provider, provider), eq(providerConnections.accountRef, accountRef)))
        .limit(1)
      const [row] = options.forUpdate ? await query.for('update') : await query
      return row
    },
    async listConnections(executor, tenantId) {
      return executor.select().from(providerConnections).where(eq(providerConnections.tenantId, tenantId)).orderBy(asc(providerConnections.id))
    },
    async insertConnection(tx, connection) {
      // The directory row first: its key binds the account to this one tenant across the service.
      await tx.insert(providerAccounts).values({ provider: connection.provider, accountRef: connection.accountRef, ownerTenantId: connection.tenantId, createdAt: connection.createdAt })
      await tx.insert(providerConnections).values(connection)
    },
    async updateConnection(tx, tenantId, connectionId, changes) {
      await tx
        .update(providerConnections)
        .set(changes)
        .where(and(eq(providerConnections.tenantId, tenantId), eq(providerConnections.id, connectionId)))
    },
  }
}
