/** Whether a member is the payee of a payment: the destination counterparty carries their login email or one of their human wallets as a key. */
import type { Executor } from '../../platform/db/database.ts'
import type { MemberIdentity, PaymentsLedger, PaymentsMembers } from './ports.ts'

/** The identity keys a member is known by to the Ledger: their login email, and each human wallet. */
export function payeeKeysOf(email: string, wallets: readonly string[]): string[] {
  return [`email:${email.trim().toLowerCase()}`, ...wallets.map((address) => `wallet:${address.toLowerCase()}`)]
}

export async function memberIsPayee(
  deps: { ledger: Pick<PaymentsLedger, 'counterpartyNamedBy'>; members: Pick<PaymentsMembers, 'humanWalletsOf'> },
  executor: Executor,
  tenantId: string,
  member: Pick<MemberIdentity, 'userId' | 'email'>,
  counterpartyId: string,
): Promise<boolean> {
  const wallets = await deps.members.humanWalletsOf(executor, tenantId, member.userId)
  return deps.ledger.counterpartyNamedBy(executor, tenantId, counterpartyId, payeeKeysOf(member.email, wallets))
}
