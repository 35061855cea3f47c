/** Whether a member is the payee of a payment: the destination counterparty carries their login email or one of their human wallets as a key. */
import type { Executor } from '../../platform/db/database.ts'
import type { MemberIdentity, PaymentsLedger, PaymentsMembers } from './ports.ts'

export async function memberIsPayee(
  deps: { ledger: Pick<PaymentsLedger, 'counterpartiesNamedBy'>; members: Pick<PaymentsMembers, 'humanWalletsOf'> },
  executor: Executor,
  tenantId: string,
  member: Pick<MemberIdentity, 'userId' | 'email'>,
  counterpartyId: string,
): Promise<boolean> {
  const wallets = await deps.members.humanWalletsOf(executor, tenantId, member.userId)
  const keys = [`email:${member.email.trim().toLowerCase()}`, ...wallets.map((address) => `wallet:${address.toLowerCase()}`)]
  return (await deps.ledger.counterpartiesNamedBy(executor, tenantId, keys)).has(counterpartyId)
}
