/**
 * Who may sign a tenant's policy: a wallet a member linked to the tenant as `human` for themselves, while
 * that member (its principal_id, a user id) is active and an owner, admin or approver. The wallets are
 * ours; whether their member may sign is the tenants module's answer.
 */
import type { Executor } from '../../platform/db/database.ts'
import type { PolicyStore } from './policy.store.ts'
import type { PolicyTenants } from './ports.ts'

/**
 * Of `addresses` (every linked address when omitted), those of authorized signers, each with the member
 * (user id) it signs for. Quorum counts members, not addresses (`membersSigning`): one person with two
 * wallets is one signer. A wallet someone else linked for a member (an earlier version allowed it) signs
 * for nobody: its maker, not the member, may hold its key.
 */
export async function authorizedSigners(
  deps: { store: Pick<PolicyStore, 'humanWallets'>; tenants: Pick<PolicyTenants, 'signingMemberUserIds'> },
  executor: Executor,
  tenantId: string,
  addresses?: readonly string[],
): Promise<Map<string, string>> {
  const wallets = (await deps.store.humanWallets(executor, tenantId, addresses)).filter((wallet) => wallet.selfLinked)
  const active = await deps.tenants.signingMemberUserIds(executor, tenantId, [...new Set(wallets.map((wallet) => wallet.principalId))])
  return new Map(wallets.filter((wallet) => active.has(wallet.principalId)).map((wallet) => [wallet.address, wallet.principalId]))
}

/** How many distinct members these addresses sign for, of the authorized signers `authorized` maps. */
export function membersSigning(authorized: ReadonlyMap<string, string>, addresses: Iterable<string>): number {
  const members = new Set<string>()
  for (const address of addresses) {
    const member = authorized.get(address)
    if (member !== undefined) members.add(member)
  }
  return members.size
}
