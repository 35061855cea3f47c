/**
 * The policy module's tables: versions, signatures, linked wallets and single-use verdicts.
 *
 * Part of the one schema of both engines (drizzle.config.ts collects every `*.tables.ts`): a change here
 * becomes the next forward-only migration under src/platform/db/migrations/ (`npm run db:generate`).
 */
import { sql } from 'drizzle-orm'
import { check, foreignKey, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { timestamptz, createdAt } from '../../platform/db/columns.ts'
import { tenants } from '../tenants/tenants.tables.ts'
import type { TenantDataPlan } from '../../platform/db/tenant-data.ts'

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
    id: text('id').notNull(),
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
    primaryKey({ columns: [table.tenantId, table.id] }),
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
    policyId: text('policy_id').notNull(),
    tenantId: uuid('tenant_id').notNull(),
    /** Lower-cased. */
    address: text('address').notNull(),
    signature: text('signature').notNull(),
    /** The principal that submitted the signature (who called sign), for attribution. */
    submittedBy: text('submitted_by').notNull(),
    signedAt: timestamptz('signed_at').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.policyId, table.address] }),
    foreignKey({ name: 'policy_signatures_policy_fk', columns: [table.tenantId, table.policyId], foreignColumns: [policies.tenantId, policies.id] }),
  ],
)

/**
 * Wallets linked to a tenant. An address is linked to at most one tenant in the whole service (a wallet
 * login must resolve to one tenant): `wallet_addresses` holds that. A `human` wallet of an active member
 * is an authorized policy signer.
 */
export const tenantWallets = pgTable(
  'tenant_wallets',
  {
    id: text('id').notNull(),
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
    primaryKey({ columns: [table.tenantId, table.id] }),
    check('tenant_wallets_principal_type_check', sql`${table.principalType} in ('human', 'agent')`),
    check('tenant_wallets_address_check', sql`${table.address} ~ '^0x[0-9a-f]{40}$'`),
    uniqueIndex('tenant_wallets_address_unique').on(table.tenantId, table.address),
  ],
)

/**
 * A reference table (docs/scaling.md): an address is linked to at most one tenant in the whole service,
 * and a wallet login names an address, not a tenant. Its key keeps the address unique across the
 * service; written with the wallet. `owner_tenant_id`, not `tenant_id`, because the table is not split
 * by tenant.
 */
export const walletAddresses = pgTable(
  'wallet_addresses',
  {
    /** 0x + 40 hex digits, lower-cased, as in `tenant_wallets`. */
    address: text('address').primaryKey(),
    ownerTenantId: uuid('owner_tenant_id')
      .notNull()
      .references(() => tenants.id),
    createdAt: createdAt(),
  },
  (table) => [index('wallet_addresses_owner_idx').on(table.ownerTenantId)],
)

/**
 * Policy verdicts: single-use tokens (stored only as a SHA-256 digest) binding one decision to one action
 * (the hash of its canonical JSON) under one policy version, valid for 60 seconds.
 */
export const policyVerdicts = pgTable(
  'policy_verdicts',
  {
    id: text('id').notNull(),
    tenantId: uuid('tenant_id').notNull(),
    tokenDigest: text('token_digest').notNull(),
    decision: jsonb('decision').notNull(),
    actionHash: text('action_hash').notNull(),
    policyId: text('policy_id').notNull(),
    policyVersion: integer('policy_version').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    consumedAt: timestamptz('consumed_at'),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.id] }),
    foreignKey({ name: 'policy_verdicts_policy_fk', columns: [table.tenantId, table.policyId], foreignColumns: [policies.tenantId, policies.id] }),
    // A verdict is presented by a principal of its tenant (the gate and the consume path name it).
    uniqueIndex('policy_verdicts_token_digest_unique').on(table.tenantId, table.tokenDigest),
  ],
)

/** This module's part of tenant deletion (platform/db/tenant-data.ts): emptied in this order. */
export const policyTenantData: TenantDataPlan = {
  deleted: [
    { table: policyVerdicts, tenantColumn: policyVerdicts.tenantId },
    { table: policySignatures, tenantColumn: policySignatures.tenantId },
    { table: policies, tenantColumn: policies.tenantId },
    { table: tenantWallets, tenantColumn: tenantWallets.tenantId },
    { table: walletAddresses, tenantColumn: walletAddresses.ownerTenantId },
  ],
}
