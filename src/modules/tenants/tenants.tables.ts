/**
 * The tenants module's tables: tenants, their users and members, email-verification and invitation tokens.
 *
 * Part of the one schema of both engines (drizzle.config.ts collects every `*.tables.ts`): a change here
 * becomes the next forward-only migration under src/platform/db/migrations/ (`npm run db:generate`).
 */
import { sql } from 'drizzle-orm'
import { check, foreignKey, index, integer, numeric, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { timestamptz, createdAt, updatedAt } from '../../platform/db/columns.ts'
import type { TenantDataPlan } from '../../platform/db/tenant-data.ts'

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
    id: text('id').notNull(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    /** Lower-cased and trimmed; unique across the service because login names no tenant (see login_emails). */
    email: text('email').notNull(),
    /** `scrypt$N$r$p$salt$hash`; null until an invited user sets a password. */
    passwordHash: text('password_hash'),
    status: text('status', { enum: ['pending', 'active'] }).notNull(),
    emailVerifiedAt: timestamptz('email_verified_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.id] }),
    check('users_status_check', sql`${table.status} in ('pending', 'active')`),
    uniqueIndex('users_email_unique').on(table.tenantId, table.email),
  ],
)

export const members = pgTable(
  'members',
  {
    id: text('id').notNull(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    userId: text('user_id').notNull(),
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
    primaryKey({ columns: [table.tenantId, table.id] }),
    foreignKey({ name: 'members_user_fk', columns: [table.tenantId, table.userId], foreignColumns: [users.tenantId, users.id] }),
    check('members_role_check', sql`${table.role} in ('owner', 'admin', 'approver', 'viewer')`),
    check('members_status_check', sql`${table.status} in ('invited', 'active', 'deactivated')`),
    check(
      'members_approval_limit_pair_check',
      sql`(${table.approvalLimitValue} is null) = (${table.approvalLimitCurrency} is null)`,
    ),
    // One member record per user: a user belongs to one tenant (the key above), and has one record in it.
    uniqueIndex('members_user_unique').on(table.tenantId, table.userId),
  ],
)

export const verificationTokens = pgTable(
  'verification_tokens',
  {
    id: text('id').notNull(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    userId: text('user_id').notNull(),
    purpose: text('purpose', { enum: ['email_verification', 'invitation'] }).notNull(),
    /** SHA-256 of the token; the token itself is never stored. */
    tokenDigest: text('token_digest').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    consumedAt: timestamptz('consumed_at'),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.id] }),
    foreignKey({ name: 'verification_tokens_user_fk', columns: [table.tenantId, table.userId], foreignColumns: [users.tenantId, users.id] }),
    check('verification_tokens_purpose_check', sql`${table.purpose} in ('email_verification', 'invitation')`),
    // Verify-email and accept-invitation name the tenant with the token, so the digest is unique per tenant.
    uniqueIndex('verification_tokens_digest_unique').on(table.tenantId, table.tokenDigest),
  ],
)

/**
 * A reference table (docs/scaling.md): login names an email and no tenant, so this maps every user's
 * email to the user's tenant. Its key keeps an email unique across the service, which `users` (split by
 * tenant) cannot. Written with the user; the column is `owner_tenant_id`, not `tenant_id`, because the
 * table is not split by tenant.
 */
export const loginEmails = pgTable(
  'login_emails',
  {
    /** Lower-cased and trimmed, as in `users`. */
    email: text('email').primaryKey(),
    ownerTenantId: uuid('owner_tenant_id')
      .notNull()
      .references(() => tenants.id),
    createdAt: createdAt(),
  },
  (table) => [index('login_emails_owner_tenant_idx').on(table.ownerTenantId)],
)

/** This module's part of tenant deletion (platform/db/tenant-data.ts): emptied in this order. */
export const tenantsTenantData: TenantDataPlan = {
  deleted: [
    { table: verificationTokens, tenantColumn: verificationTokens.tenantId },
    { table: members, tenantColumn: members.tenantId },
    { table: users, tenantColumn: users.tenantId },
    { table: loginEmails, tenantColumn: loginEmails.ownerTenantId },
    { table: tenants, tenantColumn: tenants.id },
  ],
}
