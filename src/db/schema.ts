/**
 * The one schema, for both engines. `drizzle-kit generate` turns changes here into the next forward-only
 * SQL migration under `src/db/migrations/`; statements Drizzle cannot express (triggers) live in custom
 * migrations beside them.
 *
 * Conventions: snake_case in SQL as on the wire; every tenant-scoped table has `tenant_id` and every
 * query on it filters by it; time is `timestamptz`; money is `numeric` (read back as a decimal string).
 */
import { sql } from 'drizzle-orm'
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'

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

/**
 * The per-tenant audit hash chain. Append-only: a trigger refuses UPDATE and DELETE on both engines, and
 * tenant deletion keeps it. `seq` is dense per tenant (1, 2, 3 …) and `prev_hash` is the previous row's
 * `hash`, so a gap or a fork is detectable by a walk.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: text('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
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
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    check(
      'audit_events_layer_check',
      sql`${table.layer} in ('raw', 'ledger', 'wiki', 'policy', 'agent', 'execution', 'audit')`,
    ),
    uniqueIndex('audit_events_tenant_seq_unique').on(table.tenantId, table.seq),
    index('audit_events_entity_idx').on(table.tenantId, table.entityType, table.entityId, table.seq),
  ],
)

/** The head of each tenant's chain; its row lock serializes appends so the chain never forks. */
export const auditChainHeads = pgTable('audit_chain_heads', {
  tenantId: uuid('tenant_id').primaryKey(),
  seq: bigint('seq', { mode: 'number' }).notNull(),
  hash: text('hash').notNull(),
  updatedAt: updatedAt(),
})
