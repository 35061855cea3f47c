/**
 * Who may sign a tenant's policy: a wallet linked to the tenant as `human` whose member (its
 * principal_id, a user id) is active. The wallets are ours; whether their member is active is the
 * tenants module's answer.
 */
import type { Executor } from '../../platform/db/database.ts'
import type { PolicyStore } from './policy.store.ts'
import type { PolicyTenants } from './ports.ts'

/** Of `addresses` (every linked address when omitted), those of authorized signers. */
export async function authorizedSigners(
  deps: { store: Pick<PolicyStore, 'humanWallets'>; tenants: Pick<PolicyTenants, 'activeMemberUserIds'> },
  executor: Executor,
  tenantId: string,
  addresses?: readonly string[],
): Promise<Set<string>> {
  const wallets = await deps.store.humanWallets(executor, tenantId, addresses)
  const active = await deps.tenants.activeMemberUserIds(executor, tenantId, [...new Set(wallets.map((wallet) => wallet.principalId))])
  return new Set(wallets.filter((wallet) => active.has(wallet.principalId)).map((wallet) => wallet.address))
}
