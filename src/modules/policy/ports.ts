/**
 * What the policy module needs from other modules; composition plugs the implementations in (the
 * tenants module's directory, the Ledger's queries). Policy reads no other module's tables.
 */
import type { SQL } from 'drizzle-orm'
import type { PgColumn } from 'drizzle-orm/pg-core'
import type { PendingJob } from '../../platform/commands/command.ts'
import type { Executor, Tx } from '../../platform/db/database.ts'

/** Tenants and members, as the tenants module answers for them. */
export interface PolicyTenants {
  /** Tenant ids after `afterId` for which `where(tenant id)` holds, in id order. */
  listTenantIds(executor: Executor, options: { afterId?: string | undefined; limit: number; where?: (tenantId: PgColumn) => SQL }): Promise<string[]>
  /** SQL: whether the tenant exists, for a statement of ours. */
  existsSql(tenantId: string): SQL<boolean>
  /** Of these user ids, those whose member record in the tenant is active and may sign policies (owner, admin, approver; never a viewer). */
  signingMemberUserIds(executor: Executor, tenantId: string, userIds: readonly string[]): Promise<Set<string>>
}

/** Agents' claims on wallet addresses (the agents module's registry), which a wallet link must not contradict. */
export interface PolicyAgentWallets {
  /** Registrations, in any tenant, whose wallet is the (lower-cased) address; read in the caller's transaction. */
  registrationsClaiming(executor: Executor, address: string): Promise<Array<{ tenantId: string; agentId: string }>>
  /** The tenant whose agent the chain registered the address for; undefined with no chain configured or none. */
  tenantOnchain(address: string): Promise<string | undefined>
}

/** What a policy write was: a new version composed, or a version activated (the previous one superseded). */
export interface PolicyWriteNotice {
  readonly tenantId: string
  readonly kind: 'composed' | 'activated'
  readonly policyId: string
}

/**
 * Who else is told that the tenant's policies changed, in the command's transaction: the jobs it returns
 * commit with the change (the memory module regenerates its policy page). Composition plugs it in.
 */
export type PolicyWriteListener = (tx: Tx, notice: PolicyWriteNotice) => Promise<readonly PendingJob[]>

/** A recorded outflow replayed as a candidate `outbound_payment` (simulate-historical). */
export interface OutflowRecord {
  readonly id: string
  /** Signed, as the Ledger records it (negative for an outflow). */
  readonly amount: string
  readonly currency: string
  readonly counterpartyId: string | null
  readonly transactionDate: string
}

/** Keyset position: rows strictly after this (transaction_date, id), oldest first. */
export interface OutflowPosition {
  readonly transactionDate: string
  readonly id: string
}

/** The Ledger's answer to "what went out in this period". */
export interface LedgerOutflows {
  /** Current Ledger outflows dated from..to inclusive, oldest first, after `after`. */
  outflowsInPeriod(executor: Executor, tenantId: string, options: { from: string; to: string; after?: OutflowPosition | undefined; limit: number }): Promise<OutflowRecord[]>
}
