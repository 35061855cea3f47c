/**
 * The audit module's tables: the inbox, the hash chain, its heads, Merkle anchors and their publications, exports.
 *
 * Part of the one schema of both engines (drizzle.config.ts collects every `*.tables.ts`): a change here
 * becomes the next forward-only migration under src/platform/db/migrations/ (`npm run db:generate`).
 */
import { sql } from 'drizzle-orm'
import { bigint, check, index, integer, jsonb, pgTable, pgView, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { bytea, timestamptz, createdAt, updatedAt } from '../../platform/db/columns.ts'
import type { TenantDataPlan } from '../../platform/db/tenant-data.ts'

/** The content columns every audit event has, in the inbox and in the chain alike. */
const auditEventContent = () => ({
  id: text('id').notNull(),
  tenantId: uuid('tenant_id').notNull(),
  layer: text('layer', { enum: ['raw', 'ledger', 'wiki', 'policy', 'agent', 'execution', 'audit'] }).notNull(),
  actorType: text('actor_type').notNull(),
  actorId: text('actor_id').notNull(),
  action: text('action').notNull(),
  entityType: text('entity_type').notNull(),
  entityId: text('entity_id').notNull(),
  inputs: jsonb('inputs').notNull(),
  outputs: jsonb('outputs').notNull(),
  evidenceIds: text('evidence_ids').array().notNull(),
  requestId: text('request_id'),
  createdAt: createdAt(),
})

/**
 * Where a business transaction records an audit event: one INSERT, two indexes, no lock.
 * `recorded_order` is taken at insert, so an event written after another committed sorts after it.
 * The sequencer moves each event into `audit_events`, sealed into the tenant's chain; a trigger lets a
 * row leave the inbox only once its sealed copy is in `audit_events`, and refuses any change.
 */
export const auditInbox = pgTable(
  'audit_inbox',
  { ...auditEventContent(), recordedOrder: bigint('recorded_order', { mode: 'number' }).generatedAlwaysAsIdentity() },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.id] }),
    check('audit_inbox_layer_check', sql`${table.layer} in ('raw', 'ledger', 'wiki', 'policy', 'agent', 'execution', 'audit')`),
    // Recorded order alone: every insert lands at the index's right edge, whichever tenant writes; the
    // inbox is small (events leave within moments), so the sequencer filters it by tenant cheaply.
    index('audit_inbox_order_idx').on(table.recordedOrder),
  ],
)

/**
 * The per-tenant audit hash chain: events in `seq` order (1, 2, 3 … per tenant, dense), each with the
 * previous event's hash and its own. Rows arrive sealed, from the sequencer, under the tenant's
 * chain-head row lock, so the chain never forks or skips. Insert-only: a trigger refuses UPDATE,
 * DELETE and TRUNCATE on both engines; tenant deletion keeps it.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    ...auditEventContent(),
    recordedOrder: bigint('recorded_order', { mode: 'number' }).notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
    sequencedAt: timestamptz('sequenced_at').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.id] }),
    check('audit_events_layer_check', sql`${table.layer} in ('raw', 'ledger', 'wiki', 'policy', 'agent', 'execution', 'audit')`),
    uniqueIndex('audit_events_tenant_seq_unique').on(table.tenantId, table.seq),
    index('audit_events_tenant_order_idx').on(table.tenantId, table.recordedOrder),
    index('audit_events_entity_idx').on(table.tenantId, table.entityType, table.entityId, table.recordedOrder),
  ],
)

/**
 * Every audit event, linked or not yet: `audit_events` plus the inbox (with null chain columns). The
 * read side (listings, timelines, exports, one event) reads this, so an event is visible the moment its
 * transaction commits. Defined in the custom migration 0001.
 */
export const auditEventLog = pgView('audit_event_log', {
  ...auditEventContent(),
  recordedOrder: bigint('recorded_order', { mode: 'number' }).notNull(),
  seq: bigint('seq', { mode: 'number' }),
  prevHash: text('prev_hash'),
  hash: text('hash'),
  sequencedAt: timestamptz('sequenced_at'),
}).existing()

/**
 * The head of each tenant's chain: the last sequenced event and the last event sealed into a Merkle
 * batch. Its row lock serializes the sequencer and the batcher per tenant.
 */
export const auditChainHeads = pgTable('audit_chain_heads', {
  tenantId: uuid('tenant_id').primaryKey(),
  seq: bigint('seq', { mode: 'number' }).notNull(),
  hash: text('hash').notNull(),
  batchedSeq: bigint('batched_seq', { mode: 'number' }).notNull().default(0),
  updatedAt: updatedAt(),
})

/**
 * Merkle batches of a tenant's chain ("anchors"): events seq_from..seq_to as leaves (their hashes, in
 * seq order), OpenZeppelin's sorted-pair keccak256 tree. `tree` holds every node (32 bytes each, the
 * layout of @openzeppelin/merkle-tree's core), so an inclusion proof is read, not rebuilt. Insert-only.
 */
export const auditAnchors = pgTable(
  'audit_anchors',
  {
    id: text('id').notNull(),
    tenantId: uuid('tenant_id').notNull(),
    seqFrom: bigint('seq_from', { mode: 'number' }).notNull(),
    seqTo: bigint('seq_to', { mode: 'number' }).notNull(),
    eventCount: integer('event_count').notNull(),
    merkleRoot: text('merkle_root').notNull(),
    tree: bytea('tree').notNull(),
    periodStart: timestamptz('period_start').notNull(),
    periodEnd: timestamptz('period_end').notNull(),
    anchoringMode: text('anchoring_mode', { enum: ['database_hash_chain', 'onchain_merkle_root'] }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.id] }),
    check('audit_anchors_range_check', sql`${table.seqFrom} >= 1 and ${table.seqTo} >= ${table.seqFrom} and ${table.eventCount} = ${table.seqTo} - ${table.seqFrom} + 1`),
    uniqueIndex('audit_anchors_tenant_from_unique').on(table.tenantId, table.seqFrom),
    index('audit_anchors_tenant_to_idx').on(table.tenantId, table.seqTo),
    index('audit_anchors_root_idx').on(table.merkleRoot),
  ],
)

/** A Merkle root published on chain: one row per anchor, several anchors per transaction (at most 50). Insert-only. */
export const auditAnchorPublications = pgTable(
  'audit_anchor_publications',
  {
    anchorId: text('anchor_id').notNull(),
    tenantId: uuid('tenant_id').notNull(),
    chainId: integer('chain_id').notNull(),
    contractAddress: text('contract_address').notNull(),
    txHash: text('tx_hash').notNull(),
    blockNumber: bigint('block_number', { mode: 'number' }).notNull(),
    publishedAt: timestamptz('published_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.anchorId] })],
)

/** Audit exports: a durable job writes the file into the blob store; the status route reports progress. */
export const auditExports = pgTable(
  'audit_exports',
  {
    id: text('id').notNull(),
    tenantId: uuid('tenant_id').notNull(),
    format: text('format', { enum: ['jsonl', 'csv'] }).notNull(),
    filters: jsonb('filters').notNull(),
    status: text('status', { enum: ['queued', 'running', 'completed', 'failed'] }).notNull(),
    eventsTotal: integer('events_total'),
    eventsWritten: integer('events_written').notNull().default(0),
    blobSha256: text('blob_sha256'),
    bytes: bigint('bytes', { mode: 'number' }),
    error: text('error'),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    completedAt: timestamptz('completed_at'),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
)

/** This module's part of tenant deletion (platform/db/tenant-data.ts): emptied in this order, the audit chain kept. */
export const auditTenantData: TenantDataPlan = {
  deleted: [
    { table: auditExports, tenantColumn: auditExports.tenantId },
  ],
  preserved: [auditInbox, auditEvents, auditChainHeads, auditAnchors, auditAnchorPublications],
}
