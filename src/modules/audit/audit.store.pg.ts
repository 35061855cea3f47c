/** The Drizzle implementation of AuditStore (both engines). */
import { and, asc, desc, eq, getViewSelectedFields, gt, gte, inArray, isNull, lte, sql } from 'drizzle-orm'
import { queryRows } from '../../platform/db/database.ts'
import { auditAnchorPublications, auditAnchors, auditChainHeads, auditEventLog, auditEvents, auditExports, auditInbox } from './audit.tables.ts'
import { genesisHash } from './domain/chain.ts'
import { nodeByteOffset, treeNodeBytes } from './domain/merkle.ts'
import type { AuditStore, EventFilter } from './audit.store.ts'
import { assert } from '../../kernel/assert.ts'

const anchorSummaryColumns = {
  id: auditAnchors.id,
  tenantId: auditAnchors.tenantId,
  seqFrom: auditAnchors.seqFrom,
  seqTo: auditAnchors.seqTo,
  eventCount: auditAnchors.eventCount,
  merkleRoot: auditAnchors.merkleRoot,
  periodStart: auditAnchors.periodStart,
  periodEnd: auditAnchors.periodEnd,
  anchoringMode: auditAnchors.anchoringMode,
  createdAt: auditAnchors.createdAt,
}

/** An anchor's publication: the same tenant's row (a join between tenant-scoped tables names the tenant). */
const publicationOfAnchor = and(eq(auditAnchorPublications.tenantId, auditAnchors.tenantId), eq(auditAnchorPublications.anchorId, auditAnchors.id))

export function createAuditStore(): AuditStore {
  return {
    async lockHeads(tx, tenantIds) {
      if (tenantIds.length === 0) return new Map()
      // One statement creates the heads on first use and takes their row locks in every case, in tenant order.
      const rows = await queryRows<{ tenant_id: string; seq: string | number; hash: string; batched_seq: string | number }>(
        tx,
        sql`insert into audit_chain_heads (tenant_id, seq, hash, batched_seq, updated_at)
            select tenant_id, 0, ${genesisHash}, 0, now() from unnest(${sql.param([...tenantIds])}::uuid[]) as tenant(tenant_id) order by tenant_id
            on conflict (tenant_id) do update set tenant_id = excluded.tenant_id
            returning tenant_id, seq, hash, batched_seq`,
      )
      assert(rows.length === new Set(tenantIds).size, 'audit chain head upsert returned fewer rows than tenants')
      return new Map(rows.map((row) => [row.tenant_id, { seq: Number(row.seq), hash: row.hash, batchedSeq: Number(row.batched_seq) }]))
    },
    async updateHeads(tx, heads) {
      if (heads.size === 0) return
      const entries = [...heads]
      await tx.execute(sql`
        update audit_chain_heads head
           set seq = next.seq, hash = next.hash, batched_seq = next.batched_seq, updated_at = now()
          from unnest(${sql.param(entries.map(([tenantId]) => tenantId))}::uuid[], ${sql.param(entries.map(([, head]) => head.seq))}::bigint[],
                      ${sql.param(entries.map(([, head]) => head.hash))}::text[], ${sql.param(entries.map(([, head]) => head.batchedSeq))}::bigint[])
               as next(tenant_id, seq, hash, batched_seq)
         where head.tenant_id = next.tenant_id`)
    },
    async unsequenced(tx, tenantIds, limit) {
      if (tenantIds.length === 0) return []
      return tx.select().from(auditInbox).where(inArray(auditInbox.tenantId, [...tenantIds])).orderBy(asc(auditInbox.recordedOrder)).limit(limit)
    },
    async seal(tx, seals, at) {
      if (seals.length === 0) return
      const tenants = sql.param(seals.map((seal) => seal.tenantId))
      const ids = sql.param(seals.map((seal) => seal.id))
      // Two statements, in this order: the inbox guard lets a row go only once its sealed copy exists.
      await tx.execute(sql`
        insert into audit_events (id, tenant_id, layer, actor_type, actor_id, action, entity_type, entity_id, inputs, outputs,
                                  evidence_ids, request_id, created_at, recorded_order, seq, prev_hash, hash, sequenced_at)
        select inbox.id, inbox.tenant_id, inbox.layer, inbox.actor_type, inbox.actor_id, inbox.action, inbox.entity_type, inbox.entity_id,
               inbox.inputs, inbox.outputs, inbox.evidence_ids, inbox.request_id, inbox.created_at, inbox.recorded_order,
               sealed.seq, sealed.prev_hash, sealed.hash, ${at.toISOString()}
        from unnest(${tenants}::uuid[], ${ids}::text[], ${sql.param(seals.map((seal) => seal.seq))}::bigint[],
                    ${sql.param(seals.map((seal) => seal.prevHash))}::text[], ${sql.param(seals.map((seal) => seal.hash))}::text[])
             as sealed(tenant_id, id, seq, prev_hash, hash)
        join audit_inbox inbox on inbox.tenant_id = sealed.tenant_id and inbox.id = sealed.id`)
      await tx.execute(sql`delete from audit_inbox where (tenant_id, id) in (select * from unnest(${tenants}::uuid[], ${ids}::text[]))`)
    },
    async eventTimes(executor, events) {
      if (events.length === 0) return []
      const rows = await queryRows<{ tenant_id: string; seq: string | number; created_ms: string | number }>(
        executor,
        sql`select tenant_id, seq, extract(epoch from created_at) * 1000 as created_ms from audit_events
             where (tenant_id, seq) in (select * from unnest(${sql.param(events.map((event) => event.tenantId))}::uuid[], ${sql.param(events.map((event) => event.seq))}::bigint[]))`,
      )
      return rows.map((row) => ({ tenantId: row.tenant_id, seq: Number(row.seq), createdAt: new Date(Math.round(Number(row.created_ms))) }))
    },
    async chainSlice(executor, tenantId, seqFrom, seqTo) {
      const rows = await executor
        .select({ seq: auditEvents.seq, hash: auditEvents.hash, createdAt: auditEvents.createdAt })
        .from(auditEvents)
        .where(and(eq(auditEvents.tenantId, tenantId), gte(auditEvents.seq, seqFrom), lte(auditEvents.seq, seqTo)))
        .orderBy(asc(auditEvents.seq))
      return rows.map((row) => ({ seq: Number(row.seq), hash: row.hash!, createdAt: row.createdAt }))
    },
    async chainPage(executor, tenantId, seqFrom, limit) {
      return executor
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.tenantId, tenantId), gte(auditEvents.seq, seqFrom)))
        .orderBy(asc(auditEvents.seq))
        .limit(limit)
    },
    async countUnsequenced(executor, tenantId) {
      const [row] = await queryRows<{ count: number }>(
        executor,
        sql`select count(*)::int as count from audit_inbox where tenant_id = ${tenantId}`,
      )
      return row?.count ?? 0
    },

    async tenantsWithUnsequenced(executor, limit) {
      const rows = await queryRows<{ tenant_id: string }>(
        executor,
        sql`select distinct tenant_id from audit_inbox limit ${limit}`,
      )
      return rows.map((row) => row.tenant_id)
    },
    async tenantsWithDueBatches(executor, eventsMax, cutoff, limit) {
      const rows = await queryRows<{ tenant_id: string }>(
        executor,
        sql`select head.tenant_id
            from audit_chain_heads head
            join audit_events first on first.tenant_id = head.tenant_id and first.seq = head.batched_seq + 1
            where head.seq > head.batched_seq
              and (head.seq - head.batched_seq >= ${eventsMax} or first.created_at <= ${cutoff.toISOString()})
            limit ${limit}`,
      )
      return rows.map((row) => row.tenant_id)
    },

    async insertAnchor(tx, anchor) {
      await tx.insert(auditAnchors).values(anchor)
    },
    async latestAnchor(executor, tenantId) {
      const [row] = await executor
        .select({ anchor: anchorSummaryColumns, publication: auditAnchorPublications })
        .from(auditAnchors)
        .leftJoin(auditAnchorPublications, publicationOfAnchor)
        .where(eq(auditAnchors.tenantId, tenantId))
        .orderBy(desc(auditAnchors.seqTo))
        .limit(1)
      return row === undefined ? undefined : { ...row.anchor, publication: row.publication }
    },
    async anchorContaining(executor, tenantId, seq) {
      const [row] = await executor
        .select({ anchor: auditAnchors, publication: auditAnchorPublications })
        .from(auditAnchors)
        .leftJoin(auditAnchorPublications, publicationOfAnchor)
        .where(and(eq(auditAnchors.tenantId, tenantId), lte(auditAnchors.seqFrom, seq), gte(auditAnchors.seqTo, seq)))
        .limit(1)
      return row === undefined ? undefined : { ...row.anchor, publication: row.publication }
    },
    async anchorsWithRoot(executor, merkleRoot) {
      const rows = await executor
        .select({ anchor: anchorSummaryColumns, publication: auditAnchorPublications })
        .from(auditAnchors)
        .leftJoin(auditAnchorPublications, publicationOfAnchor)
        .where(eq(auditAnchors.merkleRoot, merkleRoot))
        .limit(10)
      return rows.map((row) => ({ ...row.anchor, publication: row.publication }))
    },
    async unpublishedAnchors(executor, limit) {
      return executor
        .select({ id: auditAnchors.id, tenantId: auditAnchors.tenantId, merkleRoot: auditAnchors.merkleRoot })
        .from(auditAnchors)
        .leftJoin(auditAnchorPublications, publicationOfAnchor)
        .where(and(eq(auditAnchors.anchoringMode, 'onchain_merkle_root'), isNull(auditAnchorPublications.anchorId)))
        .orderBy(asc(auditAnchors.createdAt), asc(auditAnchors.id))
        .limit(limit)
    },
    async insertPublications(tx, publications) {
      if (publications.length === 0) return
      await tx.insert(auditAnchorPublications).values([...publications]).onConflictDoNothing()
    },

    async findEvent(executor, tenantId, eventId) {
      const [row] = await executor
        .select()
        .from(auditEventLog)
        .where(and(eq(auditEventLog.tenantId, tenantId), eq(auditEventLog.id, eventId)))
        .limit(1)
      return row
    },
    async findEventWithAnchor(executor, tenantId, eventId) {
      const [row] = await executor
        .select({ event: getViewSelectedFields(auditEventLog), anchor: anchorSummaryColumns, publication: auditAnchorPublications })
        .from(auditEventLog)
        .leftJoin(
          auditAnchors,
          and(eq(auditAnchors.tenantId, auditEventLog.tenantId), lte(auditAnchors.seqFrom, auditEventLog.seq), gte(auditAnchors.seqTo, auditEventLog.seq)),
        )
        .leftJoin(auditAnchorPublications, publicationOfAnchor)
        .where(and(eq(auditEventLog.tenantId, tenantId), eq(auditEventLog.id, eventId)))
        .limit(1)
      if (row === undefined) return undefined
      return { event: row.event, anchor: row.anchor === null ? null : { ...row.anchor, publication: row.publication } }
    },
    async treeNodes(executor, tenantId, anchorId, indices) {
      if (indices.length === 0) return []
      const [row] = await queryRows<{ nodes: Array<Buffer | Uint8Array | string> }>(
        executor,
        sql`select array[${sql.join(
          indices.map((index) => sql`substring(tree from ${nodeByteOffset(index)}::int for ${treeNodeBytes}::int)`),
          sql`, `,
        )}] as nodes
            from audit_anchors where tenant_id = ${tenantId} and id = ${anchorId}`,
      )
      assert(row !== undefined, `anchor ${anchorId} vanished`)
      return row.nodes.map(toBuffer)
    },
    async listEvents(executor, tenantId, filter) {
      return executor
        .select()
        .from(auditEventLog)
        .where(and(eventConditions(tenantId, filter), filter.afterOrder === undefined ? undefined : gt(auditEventLog.recordedOrder, filter.afterOrder)))
        .orderBy(asc(auditEventLog.recordedOrder))
        .limit(filter.limit)
    },
    async countEvents(executor, tenantId, filter) {
      const [row] = await executor.select({ count: sql<number>`count(*)::int` }).from(auditEventLog).where(eventConditions(tenantId, filter))
      return Number(row?.count ?? 0)
    },

    async insertExport(tx, row) {
      await tx.insert(auditExports).values(row)
    },
    async findExport(executor, tenantId, exportId) {
      const [row] = await executor
        .select()
        .from(auditExports)
        .where(and(eq(auditExports.tenantId, tenantId), eq(auditExports.id, exportId)))
        .limit(1)
      return row
    },
    async updateExport(executor, tenantId, exportId, values) {
      await executor.update(auditExports).set(values).where(and(eq(auditExports.tenantId, tenantId), eq(auditExports.id, exportId)))
    },
  }
}

function eventConditions(tenantId: string, filter: Omit<EventFilter, 'afterOrder' | 'limit'>) {
  const actor = filter.actor === undefined ? undefined : parseActor(filter.actor)
  return and(
    eq(auditEventLog.tenantId, tenantId),
    filter.layer === undefined ? undefined : eq(auditEventLog.layer, filter.layer),
    actor === undefined ? undefined : eq(auditEventLog.actorId, actor.id),
    actor?.type === undefined ? undefined : eq(auditEventLog.actorType, actor.type),
    filter.since === undefined ? undefined : gte(auditEventLog.createdAt, filter.since),
    filter.until === undefined ? undefined : lte(auditEventLog.createdAt, filter.until),
    filter.entity === undefined ? undefined : and(eq(auditEventLog.entityType, filter.entity.type), eq(auditEventLog.entityId, filter.entity.id)),
  )
}

/** `user:usr_…` filters by type and id; a bare `usr_…` by id alone. */
function parseActor(actor: string): { type?: string; id: string } {
  const separator = actor.indexOf(':')
  return separator > 0 ? { type: actor.slice(0, separator), id: actor.slice(separator + 1) } : { id: actor }
}

/** A bytea from either driver: a Buffer (pg), a Uint8Array (PGlite), or `\\x…` text in an array on some paths. */
function toBuffer(value: Buffer | Uint8Array | string): Buffer {
  if (typeof value === 'string') return Buffer.from(value.startsWith('\\x') ? value.slice(2) : value, 'hex')
  return Buffer.from(value)
}
