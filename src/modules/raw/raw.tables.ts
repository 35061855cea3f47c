/**
 * The Raw module's tables: artifacts, parsed rows and provider connections.
 *
 * Part of the one schema of both engines (drizzle.config.ts collects every `*.tables.ts`): a change here
 * becomes the next forward-only migration under src/platform/db/migrations/ (`npm run db:generate`).
 */
import { sql } from 'drizzle-orm'
import { bigint, doublePrecision, check, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { timestamptz, createdAt, updatedAt } from '../../platform/db/columns.ts'
import { sourceTypes } from './domain/source-types.ts'
import type { TenantDataPlan } from '../../platform/db/tenant-data.ts'

// ————————————————————————————————————————————————————————————————————————————————————————————————
// Raw: lossless copies of what tenants and providers send, and what parsers read from them.
// ————————————————————————————————————————————————————————————————————————————————————————————————

/** The spec's source_type values (one list, src/modules/raw/domain/source-types.ts). */
export const rawSourceTypes = sourceTypes

/**
 * One stored artifact: bytes in the blob store (content-addressed), identified per tenant by their
 * SHA-256 (ingest is idempotent on it). Tombstoning keeps the row and refuses reads (410); the bytes are
 * purged after the retention period or with the tenant.
 */
export const rawArtifacts = pgTable(
  'raw_artifacts',
  {
    id: text('id').notNull(),
    tenantId: uuid('tenant_id').notNull(),
    sha256: text('sha256').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    mimeType: text('mime_type').notNull(),
    sourceType: text('source_type', { enum: rawSourceTypes }).notNull(),
    sourceRef: jsonb('source_ref').notNull(),
    filename: text('filename'),
    /** The artifact this one was found in (an e-mail's attachment). */
    parentArtifactId: text('parent_artifact_id'),
    status: text('status', { enum: ['stored', 'tombstoned'] }).notNull(),
    extractionStatus: text('extraction_status', { enum: ['pending', 'running', 'succeeded', 'failed', 'skipped'] }).notNull(),
    extractionError: text('extraction_error'),
    /** The parsed rows extraction wrote (its parser version): 0 when it failed or was skipped, null before it ends. */
    parsedRows: integer('parsed_rows'),
    /**
     * The data row (1 = the first after the header) a parser refused, when extraction failed at one: a
     * statement is read whole or not at all, so that row stops it; `extraction_error` says why.
     */
    extractionFailedRow: integer('extraction_failed_row'),
    parser: text('parser'),
    parserVersion: text('parser_version'),
    extractedAt: timestamptz('extracted_at'),
    createdBy: text('created_by').notNull(),
    /**
     * The agent whose contribution hold kept this extracted artifact from the Ledger (docs/agents.md): set
     * instead of requesting normalization, cleared when the hold is released and normalization requested.
     */
    heldForAgentId: text('held_for_agent_id'),
    ingestedAt: timestamptz('ingested_at').notNull(),
    tombstonedAt: timestamptz('tombstoned_at'),
    bytesPurgedAt: timestamptz('bytes_purged_at'),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.id] }),
    uniqueIndex('raw_artifacts_tenant_sha256_unique').on(table.tenantId, table.sha256),
    index('raw_artifacts_parent_idx').on(table.tenantId, table.parentArtifactId),
    index('raw_artifacts_held_idx').on(table.tenantId, table.heldForAgentId).where(sql`${table.heldForAgentId} is not null`),
    // GET /v1/raw: newest first, with the id as tie-breaker.
    index('raw_artifacts_ingested_idx').on(table.tenantId, table.ingestedAt, table.id),
    // The retention sweep: tombstoned artifacts whose bytes are still stored, oldest first.
    index('raw_artifacts_retention_idx').on(table.tombstonedAt).where(sql`${table.status} = 'tombstoned' and ${table.bytesPurgedAt} is null`),
  ],
)

/**
 * What a parser read from an artifact: one row per record, append-only (a new parser version adds rows,
 * never edits). Unique per (artifact, parser, version, row) so re-running an extraction adds nothing.
 */
export const rawParsedRows = pgTable(
  'raw_parsed_rows',
  {
    id: text('id').notNull(),
    tenantId: uuid('tenant_id').notNull(),
    rawArtifactId: text('raw_artifact_id').notNull(),
    parser: text('parser').notNull(),
    parserVersion: text('parser_version').notNull(),
    rowIndex: integer('row_index').notNull(),
    extracted: jsonb('extracted').notNull(),
    confidence: doublePrecision('confidence').notNull(),
    extractedAt: timestamptz('extracted_at').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.id] }),
    check('raw_parsed_rows_confidence_check', sql`${table.confidence} >= 0 and ${table.confidence} <= 1`),
    // One index serves both uniqueness and reads (by tenant, artifact, parser version, in row order).
    uniqueIndex('raw_parsed_rows_unique').on(table.tenantId, table.rawArtifactId, table.parser, table.parserVersion, table.rowIndex),
  ],
)

export const providerNames = ['bank_provider', 'card_processor', 'chain_indexer', 'erp_provider', 'generic_hmac'] as const

/**
 * A provider account bound to a tenant, configured out of band (`npm run connectors`): provider webhooks
 * name the account, and their HMAC is checked with its secret (kept in clear: verifying needs it). The
 * account is bound to one tenant in the whole service through `provider_accounts`.
 */
export const providerConnections = pgTable(
  'provider_connections',
  {
    id: text('id').notNull(),
    tenantId: uuid('tenant_id').notNull(),
    provider: text('provider', { enum: providerNames }).notNull(),
    accountRef: text('account_ref').notNull(),
    secret: text('secret').notNull(),
    status: text('status', { enum: ['active', 'paused', 'revoked'] }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.id] }),
    uniqueIndex('provider_connections_account_unique').on(table.tenantId, table.provider, table.accountRef),
  ],
)

/**
 * A reference table (docs/scaling.md): a provider webhook names its account and no tenant, so this binds
 * each (provider, account) to the one tenant that connected it; its key keeps that binding unique across
 * the service (a revoked connection keeps it, as before). Written with the connection; `owner_tenant_id`,
 * not `tenant_id`, because the table is not split by tenant.
 */
export const providerAccounts = pgTable(
  'provider_accounts',
  {
    provider: text('provider', { enum: providerNames }).notNull(),
    accountRef: text('account_ref').notNull(),
    ownerTenantId: uuid('owner_tenant_id').notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.provider, table.accountRef] }), index('provider_accounts_owner_idx').on(table.ownerTenantId)],
)

/** This module's part of tenant deletion (platform/db/tenant-data.ts): emptied in this order. */
export const rawTenantData: TenantDataPlan = {
  deleted: [
    { table: rawParsedRows, tenantColumn: rawParsedRows.tenantId },
    { table: rawArtifacts, tenantColumn: rawArtifacts.tenantId },
    { table: providerConnections, tenantColumn: providerConnections.tenantId },
    { table: providerAccounts, tenantColumn: providerAccounts.ownerTenantId },
  ],
}
