/**
 * What the onchain_base wiring needs of storage: the registrations of smart accounts, and the rail's
 * signed transactions per idempotency key. The Drizzle implementation (onchain.store.pg.ts) touches only
 * this module's onchain tables, and every statement names the tenant.
 */
import type { Executor, Tx } from '../../platform/db/database.ts'
import type { onchainAccounts } from './onchain.tables.ts'

export type OnchainAccountRow = typeof onchainAccounts.$inferSelect

export interface OnchainStore {
  /** The account's registration; undefined when the tenant registered none for it. */
  findAccount(executor: Executor, tenantId: string, accountId: string): Promise<OnchainAccountRow | undefined>
  /** Stores the registration unless the account has one; answers the stored one and whether it is this one. */
  insertAccount(tx: Tx, row: OnchainAccountRow): Promise<{ readonly stored: OnchainAccountRow; readonly created: boolean }>
}
