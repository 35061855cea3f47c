/**
 * What the memory module needs from others, implemented by the composition root through their index.ts:
 * the Ledger's current records (its query port, read only), the tenant's policy (its versions and the
 * active one's rules) and its agents (the first-party catalog and registered agents). Pages are rendered
 * from these alone (domain/pages.ts); the module writes nothing but its own table.
 */
import type { Executor } from '../../platform/db/database.ts'
import type { AgentSource, MemorySources } from './domain/pages.ts'

export interface MemoryLedger {
  /** The tenant's current Ledger records (accounts, latest balances, transactions, counterparties, invoices, obligations). */
  /** In the regeneration's transaction (`executor`), so what is read is what the lock holder sees. */
  current(executor: Executor, tenantId: string): Promise<Pick<MemorySources, 'accounts' | 'balances' | 'transactions' | 'counterparties' | 'invoices' | 'obligations'>>
}

export interface MemoryPolicy {
  /** The active version with its rules (null when none is active) and every version. */
  policyOf(executor: Executor, tenantId: string): Promise<MemorySources['policy']>
}

export interface MemoryAgents {
  /** The first-party agents and the tenant's registered agents. */
  agentsOf(tenantId: string): Promise<AgentSource[]>
}

export interface MemoryTenants {
  /** Whether the tenant exists (a regeneration queued before its deletion ends quietly). */
  exists(tenantId: string): Promise<boolean>
}
