/**
 * Transfers between the tenant's own accounts, decided the same way whatever order the Ledger learnt
 * things in (issue 15, item 4).
 *
 * A transaction is a `transfer` when a record it came from names, as its counterparty, another of the
 * tenant's accounts (an IBAN, or on-chain a wallet on the transfer's chain: `ownAccountKeysOfRecord`).
 * Normalization decides this when it first records the transaction, from the accounts it knows then; a
 * statement normalized before the account its transfers go to (January's checking file before the
 * savings file, a processor's payouts before the checking account) would keep `outflow` for good. So
 * every reconciliation run decides it again, from the transaction's evidence and the accounts that exist
 * now: accounts are never removed, so the answer only ever moves from inflow/outflow to transfer, and
 * once every file is in, every order gives the same one.
 *
 * Ties: a record naming several accounts (or several records naming different ones) is a transfer as
 * soon as any of them is another account of the tenant; which one does not matter, since the direction
 * is all that is decided. A counterparty that is the transaction's own account (a statement naming its
 * own IBAN) is not a transfer.
 */
import { decimalSign } from '../../../kernel/money.ts'
import type { TransactionDirection } from './entities.ts'

/**
 * A transaction's direction, given the accounts its records name as counterparty (`namedAccountIds`,
 * each the account an own-account key resolves to, or undefined when it names none): a transfer when
 * any is another of the tenant's accounts, otherwise by the amount's sign.
 */
export function directionFor(amount: string, accountId: string, namedAccountIds: Iterable<string | undefined>): TransactionDirection {
  for (const named of namedAccountIds) if (named !== undefined && named !== accountId) return 'transfer'
  const sign = decimalSign(amount)
  return sign > 0 ? 'inflow' : sign < 0 ? 'outflow' : 'adjustment'
}

/**
 * The direction a recorded transaction should have now: `transfer` when its records name another of the
 * tenant's accounts; otherwise the direction it has. Never the other way: a transfer stays one (the
 * account it went to still exists), and a sign-based direction is not recomputed.
 */
export function directionNow(current: { readonly accountId: string; readonly direction: TransactionDirection }, namedAccountIds: Iterable<string | undefined>): TransactionDirection {
  if (current.direction === 'transfer') return 'transfer'
  for (const named of namedAccountIds) if (named !== undefined && named !== current.accountId) return 'transfer'
  return current.direction
}
