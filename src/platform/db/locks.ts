/**
 * Transaction-scoped advisory locks shared by several modules. A module's own locks keep their class
 * beside its store (policy 7_264_120, ledger 7_264_110, wiki 7_264_190, memory 7_264_200); the classes
 * here serialize writes that two modules make about one key.
 */
import { sql } from 'drizzle-orm'
import type { Tx } from './database.ts'

/** Claims on a wallet address: the policy module's wallet links and the agents module's registrations. */
const walletAddressLockClass = 7_264_130

/**
 * Holds the wallet address (lower-cased) until the transaction ends, so that a link and an agent
 * registration naming one address, in any tenants, check each other's claims one after the other.
 */
export async function lockWalletAddress(tx: Tx, address: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${walletAddressLockClass}, hashtext(${address.toLowerCase()}))`)
}
