/**
 * What the Policy slice needs from storage: policy versions and their signatures, the tenant's linked
 * wallets, policy verdicts, and the recorded actions simulate-historical replays. Every method takes
 * the tenant id and filters by it, so another tenant's row reads as a missing one.
 */
import type { SQL } from 'drizzle-orm'
import type { PgColumn } from 'drizzle-orm/pg-core'
import type { Executor, Tx } from '../../platform/db/database.ts'
import type { policies, policySignatures, policyVerdicts, tenantWallets } from './policy.tables.ts'

export type PolicyRow = typeof policies.$inferSelect
export type PolicySignatureRow = typeof policySignatures.$inferSelect
export type WalletRow = typeof tenantWallets.$inferSelect
export type VerdictRow = typeof policyVerdicts.$inferSelect

export type { OutflowPosition, OutflowRecord } from './ports.ts'

/** A wallet linked as `human`: its address and the user it names. */
export interface HumanWallet {
  readonly address: string
  readonly principalId: string
  /**
   * Whether that user linked it themselves. Only such a wallet signs in as its user and signs policies:
   * links are self-only now, but an earlier version let an owner or admin link a wallet for another member.
   */
  readonly selfLinked: boolean
}

export interface PolicyStore {
  /** Serializes version numbering and activation of one tenant's policies (transaction-scoped). */
  lockTenantPolicies(tx: Tx, tenantId: string): Promise<void>
  insertPolicy(tx: Tx, row: PolicyRow): Promise<void>
  /** Inserts the row unless the tenant already has a policy; true when it was inserted. */
  /** Inserts the row if `tenantExists` holds and the tenant has no policy yet; false if it inserted nothing. */
  insertPolicyIfNone(tx: Tx, row: PolicyRow, tenantExists: SQL<boolean>): Promise<boolean>
  findPolicy(executor: Executor, tenantId: string, policyId: string): Promise<PolicyRow | undefined>
  findActivePolicy(executor: Executor, tenantId: string, options?: { forShare?: boolean }): Promise<PolicyRow | undefined>
  findPolicyByVersion(executor: Executor, tenantId: string, version: number): Promise<PolicyRow | undefined>
  /** The tenant's highest version number, 0 when it has none. */
  latestVersion(executor: Executor, tenantId: string): Promise<number>
  /** Versions newest first, below `beforeVersion` when given. */
  listPolicies(executor: Executor, tenantId: string, options: { beforeVersion?: number | undefined; limit: number }): Promise<PolicyRow[]>
  /** Tenants with no policy at all (the default-policy backfill), at most `limit`. */
  /** SQL: the tenant has no policy version (for the tenants directory's sweep). */
  withoutPolicy(tenantId: PgColumn): SQL

  insertSignatures(tx: Tx, rows: readonly PolicySignatureRow[]): Promise<void>
  /** The signatures recorded on a policy version. */
  /** The signatures recorded on the tenant's active version (none when no version is active). */
  activeSignatures(executor: Executor, tenantId: string): Promise<PolicySignatureRow[]>
  /** Records the signer list, and the state change when there is one. */
  updatePolicy(tx: Tx, tenantId: string, policyId: string, values: Partial<Pick<PolicyRow, 'state' | 'signers' | 'activatedAt' | 'deactivatedAt'>>): Promise<void>
  /** Supersedes the active version (deactivated_at = at); returns it, or undefined when none was active. */
  supersedeActive(tx: Tx, tenantId: string, at: Date): Promise<PolicyRow | undefined>
  /** Supersedes pending versions older than `version`; returns their ids. */
  supersedePendingBefore(tx: Tx, tenantId: string, version: number): Promise<string[]>

  insertWallet(tx: Tx, row: WalletRow): Promise<void>
  /** Across tenants, through the wallet_addresses directory: the one wallet linked to the address. */
  findWalletByAddress(executor: Executor, address: string): Promise<WalletRow | undefined>
  listWallets(executor: Executor, tenantId: string, options: { afterId?: string | undefined; limit: number }): Promise<WalletRow[]>
  /** The tenant's wallet by id, its row locked; undefined when the tenant has none of that id. */
  lockWallet(tx: Tx, tenantId: string, walletId: string): Promise<WalletRow | undefined>
  /** Deletes the tenant's wallet and its address's directory row (the address is free to be linked again). */
  deleteWallet(tx: Tx, row: WalletRow): Promise<void>
  /** The tenant's wallets linked as `human`, with the user each names; only these addresses when given. */
  humanWallets(executor: Executor, tenantId: string, addresses?: readonly string[]): Promise<HumanWallet[]>
  /** True when the user is a member of the tenant (invited or active, not deactivated). */


  insertVerdict(tx: Tx, row: VerdictRow): Promise<void>
  /**
   * Marks the verdict consumed if it is this tenant's, unconsumed, unexpired at `at`, for this action
   * hash, and its policy is still the active one; returns it, or undefined. One UPDATE does all of it,
   * so two concurrent consumptions cannot both succeed.
   */
  consumeVerdict(tx: Tx, tenantId: string, tokenDigest: string, actionHash: string, at: Date): Promise<VerdictRow | undefined>
  findVerdict(executor: Executor, tenantId: string, tokenDigest: string): Promise<VerdictRow | undefined>
}

/** The constraint a second link of a linked address violates: the wallet_addresses directory's key, unique across the service. */
export const walletAddressTakenConstraint = 'wallet_addresses_pkey'
