/**
 * The agents module's registry tables: external agents registered by an operator (their on-chain
 * registration as declared and as confirmed), and every agent's per-tenant standing (its state and its
 * contribution hold), first-party catalog agents included.
 *
 * Part of the one schema of both engines (drizzle.config.ts collects every `*.tables.ts`).
 */
import { sql } from 'drizzle-orm'
import { boolean, check, index, primaryKey, text, pgTable, uuid } from 'drizzle-orm/pg-core'
import { createdAt, timestamptz, updatedAt } from '../../platform/db/columns.ts'
import type { TenantDataPlan } from '../../platform/db/tenant-data.ts'
import { tenants } from '../tenants/tenants.tables.ts'

/** An external agent of a tenant (POST /v1/execution/agents/register). Its state is in `agent_states`. */
export const agentRegistrations = pgTable(
  'agent_registrations',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    agentId: text('agent_id').notNull(),
    role: text('role').notNull(),
    displayName: text('display_name').notNull(),
    /** keccak256 of the role's sorted plain scopes (0x + 64 lower-case hex): what the chain must hold. */
    scopeHash: text('scope_hash').notNull(),
    /** The agent's wallet (0x + 40 hex, lower-cased); null until an operator names it. */
    onchainAddress: text('onchain_address'),
    /** The registering transaction: as given at registration, then as confirmed on chain. */
    registeredTx: text('registered_tx'),
    /** When the chain registration was confirmed (its block's time), or when a sandbox resume activated it. */
    registeredAt: timestamptz('registered_at'),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.agentId] }),
    check('agent_registrations_scope_hash_check', sql`${table.scopeHash} ~ '^0x[0-9a-f]{64}$'`),
    check('agent_registrations_onchain_address_check', sql`${table.onchainAddress} is null or ${table.onchainAddress} ~ '^0x[0-9a-f]{40}$'`),
    // Across tenants: sign-in and a wallet link ask which registration, anywhere, claims an address.
    index('agent_registrations_onchain_address_idx').on(table.onchainAddress).where(sql`${table.onchainAddress} is not null`),
  ],
)

/**
 * An agent's standing in a tenant. A registered agent has a row from its registration on; a catalog agent
 * has one only once it was halted (no row: active, no hold).
 */
export const agentStates = pgTable(
  'agent_states',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    agentId: text('agent_id').notNull(),
    state: text('state', { enum: ['pending_onchain', 'active', 'quarantined', 'revoked'] }).notNull(),
    /** While true, the agent's Raw contributions wait for a release before they reach the Ledger. */
    contributionHeld: boolean('contribution_held').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.agentId] }),
    check('agent_states_state_check', sql`${table.state} in ('pending_onchain', 'active', 'quarantined', 'revoked')`),
  ],
)

export type AgentRegistrationRow = typeof agentRegistrations.$inferSelect
export type AgentStateRow = typeof agentStates.$inferSelect

/** This module's part of tenant deletion (platform/db/tenant-data.ts). */
export const agentsRegistryTenantData: TenantDataPlan = {
  deleted: [
    { table: agentStates, tenantColumn: agentStates.tenantId },
    { table: agentRegistrations, tenantColumn: agentRegistrations.tenantId },
  ],
}
