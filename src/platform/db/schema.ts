/**
 * The one schema, for both engines. `drizzle-kit generate` turns changes here into the next forward-only
 * SQL migration under `src/platform/db/migrations/`; statements Drizzle cannot express (triggers) live in custom
 * migrations beside them.
 *
 * Conventions: snake_case in SQL as on the wire; every tenant-scoped table has `tenant_id` and every
 * query on it filters by it; time is `timestamptz`; money is `numeric` (read back as a decimal string).
 */
import { sql } from 'drizzle-orm'
import {
  bigint,
  customType,
  date,
  doublePrecision,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  pgView,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { sourceTypes } from '../../modules/raw/domain/source-types.ts'

/** `bytea` as a Node Buffer on both drivers. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
})

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })
const createdAt = () => timestamptz('created_at').notNull()
const updatedAt = () => timestamptz('updated_at').notNull()

export const tenants = pgTable(
  'tenants',
  {
    id: uuid('id').primaryKey(),
    name: text('name').notNull(),
    status: text('status', { enum: ['active', 'suspended'] }).notNull(),
    environment: text('environment', { enum: ['sandbox', 'production'] }).notNull(),
    orgId: text('org_id'),
    identityIssuer: text('identity_issuer'),
    identitySubject: text('identity_subject'),
    rateLimitTier: text('rate_limit_tier', { enum: ['free', 'developer', 'production', 'enterprise'] }).notNull(),
    rateLimitPerMinute: integer('rate_limit_per_minute'),
    rateLimitBurst: integer('rate_limit_burst'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    check('tenants_status_check', sql`${table.status} in ('active', 'suspended')`),
    check('tenants_environment_check', sql`${table.environment} in ('sandbox', 'production')`),
    check('tenants_rate_limit_tier_check', sql`${table.rateLimitTier} in ('free', 'developer', 'production', 'enterprise')`),
    check(
      'tenants_rate_limit_custom_check',
      sql`(${table.rateLimitPerMinute} is null or ${table.rateLimitPerMinute} > 0) and (${table.rateLimitBurst} is null or ${table.rateLimitBurst} > 0)`,
    ),
    check(
      'tenants_identity_pair_check',
      sql`(${table.identityIssuer} is null) = (${table.identitySubject} is null)`,
    ),
    uniqueIndex('tenants_identity_unique').on(table.identityIssuer, table.identitySubject),
    index('tenants_org_idx').on(table.orgId),
  ],
)

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    /** Lower-cased and trimmed; unique across the service because login names no tenant. */
    email: text('email').notNull(),
    /** `scrypt$N$r$p$salt$hash`; null until an invited user sets a password. */
    passwordHash: text('password_hash'),
    status: text('status', { enum: ['pending', 'active'] }).notNull(),
    emailVerifiedAt: timestamptz('email_verified_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    check('users_status_check', sql`${table.status} in ('pending', 'active')`),
    uniqueIndex('users_email_unique').on(table.email),
    index('users_tenant_idx').on(table.tenantId),
  ],
)

export const members = pgTable(
  'members',
  {
    id: text('id').primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    role: text('role', { enum: ['owner', 'admin', 'approver', 'viewer'] }).notNull(),
    status: text('status', { enum: ['invited', 'active', 'deactivated'] }).notNull(),
    approvalDomains: text('approval_domains').array().notNull(),
    approvalLimitValue: numeric('approval_limit_value'),
    approvalLimitCurrency: text('approval_limit_currency'),
    invitedBy: text('invited_by'),
    deactivatedAt: timestamptz('deactivated_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    check('members_role_check', sql`${table.role} in ('owner', 'admin', 'approver', 'viewer')`),
    check('members_status_check', sql`${table.status} in ('invited', 'active', 'deactivated')`),
    check(
      'members_approval_limit_pair_check',
      sql`(${table.approvalLimitValue} is null) = (${table.approvalLimitCurrency} is null)`,
    ),
    uniqueIndex('members_user_unique').on(table.userId),
    index('members_tenant_idx').on(table.tenantId, table.id),
  ],
)

export const verificationTokens = pgTable(
  'verification_tokens',
  {
    id: text('id').primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    purpose: text('purpose', { enum: ['email_verification', 'invitation'] }).notNull(),
    /** SHA-256 of the token; the token itself is never stored. */
    tokenDigest: text('token_digest').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    consumedAt: timestamptz('consumed_at'),
    createdAt: createdAt(),
  },
  (table) => [
    check('verification_tokens_purpose_check', sql`${table.purpose} in ('email_verification', 'invitation')`),
    uniqueIndex('verification_tokens_digest_unique').on(table.tokenDigest),
    index('verification_tokens_tenant_idx').on(table.tenantId),
  ],
)

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    name: text('name').notNull(),
    /** `test` (svc_sk_test_) or `live` (svc_sk_live_). */
    environment: text('environment', { enum: ['test', 'live'] }).notNull(),
    scopes: text('scopes').array().notNull(),
    /** HMAC-SHA-256 of the secret keyed by API_KEY_PEPPER; the secret itself is never stored. */
    secretDigest: text('secret_digest').notNull(),
    secretLastFour: text('secret_last_four').notNull(),
    /** The secret replaced by the last rotation, accepted until `previous_secret_expires_at`. */
    previousSecretDigest: text('previous_secret_digest'),
    previousSecretExpiresAt: timestamptz('previous_secret_expires_at'),
    expiresAt: timestamptz('expires_at'),
    lastUsedAt: timestamptz('last_used_at'),
    rotatedAt: timestamptz('rotated_at'),
    revokedAt: timestamptz('revoked_at'),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    check('api_keys_environment_check', sql`${table.environment} in ('test', 'live')`),
    uniqueIndex('api_keys_secret_digest_unique').on(table.secretDigest),
    uniqueIndex('api_keys_previous_secret_digest_unique').on(table.previousSecretDigest),
    index('api_keys_tenant_idx').on(table.tenantId, table.id),
  ],
)

export const serviceTokens = pgTable(
  'service_tokens',
  {
    id: text('id').primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    subject: text('subject').notNull(),
    scopes: text('scopes').array().notNull(),
    reason: text('reason').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('service_tokens_tenant_idx').on(table.tenantId)],
)

/**
 * Business events (the outbound webhook vocabulary), written in the transaction of the change they
 * describe. Delivery to registered endpoints reads from here.
 */
export const events = pgTable(
  'events',
  {
    id: text('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull(),
    eventType: text('event_type').notNull(),
    payload: jsonb('payload').notNull(),
    auditEventId: text('audit_event_id'),
    createdAt: createdAt(),
  },
  (table) => [index('events_tenant_idx').on(table.tenantId, table.id)],
)

/** The content columns every audit event has, in the inbox and in the chain alike. */
const auditEventContent = () => ({
  id: text('id').primaryKey(),
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
    id: text('id').primaryKey(),
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
    anchorId: text('anchor_id').primaryKey(),
    tenantId: uuid('tenant_id').notNull(),
    chainId: integer('chain_id').notNull(),
    contractAddress: text('contract_address').notNull(),
    txHash: text('tx_hash').notNull(),
    blockNumber: bigint('block_number', { mode: 'number' }).notNull(),
    publishedAt: timestamptz('published_at').notNull(),
  },
  (table) => [index('audit_anchor_publications_tenant_idx').on(table.tenantId)],
)

/** Audit exports: a durable job writes the file into the blob store; the status route reports progress. */
export const auditExports = pgTable(
  'audit_exports',
  {
    id: text('id').primaryKey(),
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
  (table) => [index('audit_exports_tenant_idx').on(table.tenantId, table.id)],
)

/** A tenant's outbound webhook endpoints. The signing secret is kept in clear: delivery must sign with it. */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull(),
    url: text('url').notNull(),
    description: text('description'),
    /** Event types delivered; empty means every type of the allowlist. */
    eventTypes: text('event_types').array().notNull(),
    status: text('status', { enum: ['enabled', 'disabled'] }).notNull(),
    secret: text('secret').notNull(),
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: timestamptz('previous_secret_expires_at'),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index('webhook_endpoints_tenant_idx').on(table.tenantId, table.id)],
)

/** One delivery of one event to one endpoint, with its attempts. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull(),
    endpointId: text('endpoint_id').notNull(),
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    status: text('status', { enum: ['pending', 'succeeded', 'dead_lettered'] }).notNull(),
    attemptCount: integer('attempt_count').notNull().default(0),
    nextAttemptAt: timestamptz('next_attempt_at'),
    lastAttemptAt: timestamptz('last_attempt_at'),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('webhook_deliveries_endpoint_event_unique').on(table.endpointId, table.eventId),
    index('webhook_deliveries_tenant_idx').on(table.tenantId, table.endpointId, table.id),
  ],
)

/** Deliveries that exhausted their automatic attempts (spec, "Webhook dead letter"). */
export const webhookDeadLetters = pgTable(
  'webhook_dead_letters',
  {
    id: text('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull(),
    endpointId: text('endpoint_id').notNull(),
    deliveryId: text('delivery_id').notNull(),
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    lastError: text('last_error').notNull(),
    attemptCount: integer('attempt_count').notNull(),
    createdAt: createdAt(),
    lastAttemptAt: timestamptz('last_attempt_at').notNull(),
    /**
     * The manual replay attempt holding this dead letter, until `claimed_until`: other replays skip it
     * meanwhile. Cleared with the attempt's outcome; a token left behind an expired claim means the
     * replay stopped before recording its outcome.
     */
    claimToken: text('claim_token'),
    claimedUntil: timestamptz('claimed_until'),
  },
  (table) => [
    uniqueIndex('webhook_dead_letters_delivery_unique').on(table.deliveryId),
    index('webhook_dead_letters_tenant_idx').on(table.tenantId, table.endpointId, table.id),
  ],
)

/** Idempotency keys: the stored response replays for the same key and request; another request is 409. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    tenantId: uuid('tenant_id').notNull(),
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    responseStatus: integer('response_status').notNull(),
    responseBody: jsonb('response_body').notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.scope, table.key] })],
)

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
    id: text('id').primaryKey(),
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
    parser: text('parser'),
    parserVersion: text('parser_version'),
    extractedAt: timestamptz('extracted_at'),
    createdBy: text('created_by').notNull(),
    ingestedAt: timestamptz('ingested_at').notNull(),
    tombstonedAt: timestamptz('tombstoned_at'),
    bytesPurgedAt: timestamptz('bytes_purged_at'),
  },
  (table) => [
    uniqueIndex('raw_artifacts_tenant_sha256_unique').on(table.tenantId, table.sha256),
    index('raw_artifacts_tenant_idx').on(table.tenantId, table.id),
    index('raw_artifacts_parent_idx').on(table.tenantId, table.parentArtifactId),
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
    id: text('id').primaryKey(),
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
    check('raw_parsed_rows_confidence_check', sql`${table.confidence} >= 0 and ${table.confidence} <= 1`),
    // One index serves both uniqueness and reads (by tenant, artifact, parser version, in row order).
    uniqueIndex('raw_parsed_rows_unique').on(table.tenantId, table.rawArtifactId, table.parser, table.parserVersion, table.rowIndex),
  ],
)

export const providerNames = ['bank_provider', 'card_processor', 'chain_indexer', 'erp_provider', 'generic_hmac'] as const

/**
 * A provider account bound to a tenant, configured out of band (`npm run connectors`): provider webhooks
 * name the account, and their HMAC is checked with its secret (kept in clear: verifying needs it).
 */
export const providerConnections = pgTable(
  'provider_connections',
  {
    id: text('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull(),
    provider: text('provider', { enum: providerNames }).notNull(),
    accountRef: text('account_ref').notNull(),
    secret: text('secret').notNull(),
    status: text('status', { enum: ['active', 'paused', 'revoked'] }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('provider_connections_account_unique').on(table.provider, table.accountRef),
    index('provider_connections_tenant_idx').on(table.tenantId),
  ],
)

// ————————————————————————————————————————————————————————————————————————————————————————————————
// Ledger: immutable, bitemporal, typed records normalized from parsed rows.
//
// Each table holds versions. `id` is the entity's stable id (what references and reads use);
// `version_id` identifies one version; a correction is a new version whose `supersedes` names the one
// it replaces. `updated_at` is when a version was recorded and `superseded_at` when the next one was
// (written once, by a trigger-guarded UPDATE: nothing else ever changes), so "current" and "as of T"
// are both index lookups. `created_at` is when the entity was first recorded.
// ————————————————————————————————————————————————————————————————————————————————————————————————

const ledgerProvenance = ['extracted', 'inferred', 'ambiguous', 'human_confirmed', 'agent_contributed'] as const

const ledgerVersion = () => ({
  versionId: text('version_id').primaryKey(),
  id: text('id').notNull(),
  tenantId: uuid('tenant_id').notNull(),
  version: integer('version').notNull(),
  supersedes: text('supersedes'),
  sourceIds: text('source_ids').array().notNull(),
  evidenceIds: text('evidence_ids').array().notNull(),
  provenance: text('provenance', { enum: ledgerProvenance }).notNull(),
  confidence: doublePrecision('confidence').notNull(),
  metadata: jsonb('metadata').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  supersededAt: timestamptz('superseded_at'),
})

const dateString = (name: string) => date(name, { mode: 'string' })

export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    ...ledgerVersion(),
    accountType: text('account_type', { enum: ['bank_checking', 'bank_savings', 'card', 'loan', 'line_of_credit', 'onchain', 'payment_processor'] }).notNull(),
    status: text('status', { enum: ['active', 'closed', 'frozen', 'pending'] }).notNull(),
    name: text('name').notNull(),
    institution: text('institution'),
    currency: text('currency').notNull(),
    externalAccountId: text('external_account_id'),
    iban: text('iban'),
    accountNumberMasked: text('account_number_masked'),
    walletAddress: text('wallet_address'),
    chainId: integer('chain_id'),
  },
  (table) => [
    uniqueIndex('ledger_accounts_version_unique').on(table.tenantId, table.id, table.version),
    uniqueIndex('ledger_accounts_current_unique').on(table.tenantId, table.id).where(sql`${table.supersededAt} is null`),
    index('ledger_accounts_list_idx').on(table.tenantId, table.id).where(sql`${table.supersededAt} is null`),
  ],
)

export const ledgerBalances = pgTable(
  'ledger_balances',
  {
    ...ledgerVersion(),
    accountId: text('account_id').notNull(),
    balanceType: text('balance_type', { enum: ['opening', 'closing', 'available', 'current'] }).notNull(),
    asOf: dateString('as_of').notNull(),
    amount: numeric('amount').notNull(),
    currency: text('currency').notNull(),
  },
  (table) => [
    uniqueIndex('ledger_balances_version_unique').on(table.tenantId, table.id, table.version),
    uniqueIndex('ledger_balances_current_unique').on(table.tenantId, table.id).where(sql`${table.supersededAt} is null`),
    index('ledger_balances_account_idx').on(table.tenantId, table.accountId, table.asOf).where(sql`${table.supersededAt} is null`),
  ],
)

export const ledgerCounterparties = pgTable(
  'ledger_counterparties',
  {
    ...ledgerVersion(),
    name: text('name').notNull(),
    type: text('type', { enum: ['merchant', 'vendor', 'customer', 'employer', 'employee', 'bank', 'wallet', 'exchange', 'tax_authority', 'agent', 'other'] }).notNull(),
    verifiedStatus: text('verified_status', { enum: ['unverified', 'self_attested', 'document_verified', 'sanctions_cleared'] }).notNull(),
    riskLevel: text('risk_level', { enum: ['low', 'medium', 'high', 'sanctioned'] }).notNull(),
    trustState: text('trust_state', { enum: ['unreviewed', 'trusted', 'paused', 'acknowledged'] }).notNull(),
    aliases: text('aliases').array().notNull(),
    linkedAccounts: text('linked_accounts').array().notNull(),
  },
  (table) => [
    uniqueIndex('ledger_counterparties_version_unique').on(table.tenantId, table.id, table.version),
    uniqueIndex('ledger_counterparties_current_unique').on(table.tenantId, table.id).where(sql`${table.supersededAt} is null`),
  ],
)

export const ledgerTransactions = pgTable(
  'ledger_transactions',
  {
    ...ledgerVersion(),
    accountId: text('account_id').notNull(),
    externalTransactionId: text('external_transaction_id'),
    amount: numeric('amount').notNull(),
    currency: text('currency').notNull(),
    direction: text('direction', { enum: ['inflow', 'outflow', 'transfer', 'adjustment'] }).notNull(),
    transactionDate: dateString('transaction_date').notNull(),
    postedDate: dateString('posted_date'),
    counterpartyId: text('counterparty_id'),
    categoryId: text('category_id'),
    status: text('status', { enum: ['pending', 'posted', 'cleared', 'failed', 'reversed', 'disputed'] }).notNull(),
    description: text('description').notNull(),
    descriptionNormalized: text('description_normalized').notNull(),
    reconciliationStatus: text('reconciliation_status', {
      enum: ['unmatched', 'matched', 'partially_matched', 'duplicate_possible', 'disputed', 'cleared', 'failed', 'reversed'],
    }).notNull(),
  },
  (table) => [
    uniqueIndex('ledger_transactions_version_unique').on(table.tenantId, table.id, table.version),
    uniqueIndex('ledger_transactions_current_unique').on(table.tenantId, table.id).where(sql`${table.supersededAt} is null`),
    index('ledger_transactions_date_idx').on(table.tenantId, table.transactionDate, table.id).where(sql`${table.supersededAt} is null`),
    index('ledger_transactions_account_idx').on(table.tenantId, table.accountId, table.transactionDate, table.id).where(sql`${table.supersededAt} is null`),
    index('ledger_transactions_counterparty_idx').on(table.tenantId, table.counterpartyId, table.transactionDate, table.id).where(sql`${table.supersededAt} is null`),
    // Reconciliation looks payments up by amount.
    index('ledger_transactions_amount_idx').on(table.tenantId, table.amount, table.transactionDate).where(sql`${table.supersededAt} is null`),
  ],
)

export const ledgerInvoices = pgTable(
  'ledger_invoices',
  {
    ...ledgerVersion(),
    direction: text('direction', { enum: ['payable', 'receivable'] }).notNull(),
    invoiceNumber: text('invoice_number').notNull(),
    issueDate: dateString('issue_date'),
    dueDate: dateString('due_date'),
    currency: text('currency').notNull(),
    total: numeric('total').notNull(),
    subtotal: numeric('subtotal'),
    tax: numeric('tax'),
    amountPaid: numeric('amount_paid').notNull(),
    status: text('status', { enum: ['draft', 'sent', 'partial', 'paid', 'overdue', 'cancelled', 'disputed'] }).notNull(),
    counterpartyId: text('counterparty_id'),
  },
  (table) => [
    uniqueIndex('ledger_invoices_version_unique').on(table.tenantId, table.id, table.version),
    uniqueIndex('ledger_invoices_current_unique').on(table.tenantId, table.id).where(sql`${table.supersededAt} is null`),
  ],
)

export const ledgerObligations = pgTable(
  'ledger_obligations',
  {
    ...ledgerVersion(),
    obligationType: text('obligation_type', { enum: ['bill', 'invoice', 'subscription', 'loan', 'rent', 'payroll', 'tax', 'card_statement', 'other'] }).notNull(),
    direction: text('direction', { enum: ['payable', 'receivable'] }),
    reference: text('reference').notNull(),
    description: text('description'),
    amount: numeric('amount').notNull(),
    currency: text('currency').notNull(),
    dueDate: dateString('due_date'),
    recurrence: text('recurrence', { enum: ['weekly', 'monthly', 'quarterly', 'yearly'] }),
    status: text('status', { enum: ['open', 'settled', 'cancelled'] }).notNull(),
    counterpartyId: text('counterparty_id'),
    invoiceId: text('invoice_id'),
  },
  (table) => [
    uniqueIndex('ledger_obligations_version_unique').on(table.tenantId, table.id, table.version),
    uniqueIndex('ledger_obligations_current_unique').on(table.tenantId, table.id).where(sql`${table.supersededAt} is null`),
  ],
)

export const reconciliationMatchTypes = [
  'transaction_receipt',
  'invoice_payment',
  'statement_balance',
  'wallet_transfer',
  'payroll_bank_debit',
  'subscription_charge',
  'card_charge',
  'onchain_settlement',
  'obligation_duplicate',
] as const

export const reconciliationStatuses = ['unmatched', 'matched', 'partially_matched', 'duplicate_possible', 'disputed', 'cleared', 'failed', 'reversed'] as const

export const ledgerReconciliationMatches = pgTable(
  'ledger_reconciliation_matches',
  {
    ...ledgerVersion(),
    matchType: text('match_type', { enum: reconciliationMatchTypes }).notNull(),
    status: text('status', { enum: reconciliationStatuses }).notNull(),
    /** What was matched: typed references such as transaction:txn_…, invoice:inv_…, account:acc_… */
    subjectRefs: text('subject_refs').array().notNull(),
    amount: numeric('amount'),
    currency: text('currency'),
    difference: numeric('difference'),
    explanation: text('explanation').notNull(),
  },
  (table) => [
    uniqueIndex('ledger_reconciliation_matches_version_unique').on(table.tenantId, table.id, table.version),
    uniqueIndex('ledger_reconciliation_matches_current_unique').on(table.tenantId, table.id).where(sql`${table.supersededAt} is null`),
  ],
)

/**
 * Natural keys of Ledger entities, so the same thing seen twice — an overlapping statement, the same
 * transaction from a file and a provider, a counterparty under another alias — resolves to one entity.
 */
export const ledgerEntityKeys = pgTable(
  'ledger_entity_keys',
  {
    tenantId: uuid('tenant_id').notNull(),
    kind: text('kind', { enum: ['account', 'counterparty', 'transaction', 'invoice', 'obligation', 'balance'] }).notNull(),
    key: text('key').notNull(),
    entityId: text('entity_id').notNull(),
    createdAt: createdAt(),
  },
  // Looked up by key only: one index, written for every key of every transaction.
  (table) => [primaryKey({ columns: [table.tenantId, table.kind, table.key] })],
)

/** Normalization and reconciliation runs, with their status and outcome (the job status route). */
export const ledgerJobs = pgTable(
  'ledger_jobs',
  {
    id: text('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull(),
    kind: text('kind', { enum: ['normalize', 'reconcile'] }).notNull(),
    status: text('status', { enum: ['queued', 'running', 'succeeded', 'failed'] }).notNull(),
    input: jsonb('input').notNull(),
    result: jsonb('result'),
    error: text('error'),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    startedAt: timestamptz('started_at'),
    finishedAt: timestamptz('finished_at'),
  },
  (table) => [index('ledger_jobs_tenant_idx').on(table.tenantId, table.id)],
)

// ————————————————————————————————————————————————————————————————————————————————————————————————
// Policy: signed, versioned rule documents, the wallets that sign them, and single-use verdicts.
// ————————————————————————————————————————————————————————————————————————————————————————————————

export const policyStates = ['pending_signatures', 'active', 'superseded'] as const

/**
 * A tenant's policy versions (1, 2, 3 … per tenant). A version is composed `pending_signatures`, becomes
 * `active` when its signatures reach `quorum_required`, and `superseded` when a later version is
 * activated (the active one gets `deactivated_at`; older pending ones can no longer be signed). Content
 * never changes after compose: the signatures cover its hash. At most one version per tenant is active.
 */
export const policies = pgTable(
  'policies',
  {
    id: text('id').primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    version: integer('version').notNull(),
    state: text('state', { enum: policyStates }).notNull(),
    content: jsonb('content').notNull(),
    /** 0x-prefixed keccak256 of the RFC 8785 canonical JSON of `content`. */
    contentHash: text('content_hash').notNull(),
    quorumRequired: integer('quorum_required').notNull(),
    /** Lower-cased addresses whose verified signatures are recorded, in signing order. */
    signers: text('signers').array().notNull(),
    activatedAt: timestamptz('activated_at'),
    deactivatedAt: timestamptz('deactivated_at'),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    check('policies_state_check', sql`${table.state} in ('pending_signatures', 'active', 'superseded')`),
    check('policies_version_check', sql`${table.version} >= 1`),
    check('policies_quorum_check', sql`${table.quorumRequired} >= 1`),
    // Pending: never activated. Active: activated, not deactivated. Superseded: both (it was active) or neither (it never was).
    check(
      'policies_activation_check',
      sql`(${table.state} = 'pending_signatures' and ${table.activatedAt} is null and ${table.deactivatedAt} is null)
        or (${table.state} = 'active' and ${table.activatedAt} is not null and ${table.deactivatedAt} is null)
        or (${table.state} = 'superseded' and (${table.activatedAt} is null) = (${table.deactivatedAt} is null))`,
    ),
    uniqueIndex('policies_tenant_version_unique').on(table.tenantId, table.version),
    // The database, not the service, guarantees one active policy per tenant.
    uniqueIndex('policies_tenant_active_unique').on(table.tenantId).where(sql`${table.state} = 'active'`),
  ],
)

/** Verified signatures of a policy version, one per signer address. */
export const policySignatures = pgTable(
  'policy_signatures',
  {
    policyId: text('policy_id')
      .notNull()
      .references(() => policies.id),
    tenantId: uuid('tenant_id').notNull(),
    /** Lower-cased. */
    address: text('address').notNull(),
    signature: text('signature').notNull(),
    /** The principal that submitted the signature (who called sign), for attribution. */
    submittedBy: text('submitted_by').notNull(),
    signedAt: timestamptz('signed_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.policyId, table.address] }), index('policy_signatures_tenant_idx').on(table.tenantId, table.policyId)],
)

/**
 * Wallets linked to a tenant. An address is linked to at most one tenant in the whole service (a wallet
 * login must resolve to one tenant). A `human` wallet of an active member is an authorized policy signer.
 */
export const tenantWallets = pgTable(
  'tenant_wallets',
  {
    id: text('id').primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    /** 0x + 40 hex digits, lower-cased. */
    address: text('address').notNull(),
    principalType: text('principal_type', { enum: ['human', 'agent'] }).notNull(),
    /** A user id (human) or an agent id (agent). */
    principalId: text('principal_id').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    check('tenant_wallets_principal_type_check', sql`${table.principalType} in ('human', 'agent')`),
    check('tenant_wallets_address_check', sql`${table.address} ~ '^0x[0-9a-f]{40}$'`),
    uniqueIndex('tenant_wallets_address_unique').on(table.address),
    index('tenant_wallets_tenant_idx').on(table.tenantId, table.id),
  ],
)

/**
 * Policy verdicts: single-use tokens (stored only as a SHA-256 digest) binding one decision to one action
 * (the hash of its canonical JSON) under one policy version, valid for 60 seconds.
 */
export const policyVerdicts = pgTable(
  'policy_verdicts',
  {
    id: text('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull(),
    tokenDigest: text('token_digest').notNull(),
    decision: jsonb('decision').notNull(),
    actionHash: text('action_hash').notNull(),
    policyId: text('policy_id')
      .notNull()
      .references(() => policies.id),
    policyVersion: integer('policy_version').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    consumedAt: timestamptz('consumed_at'),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('policy_verdicts_token_digest_unique').on(table.tokenDigest), index('policy_verdicts_tenant_idx').on(table.tenantId, table.id)],
)
