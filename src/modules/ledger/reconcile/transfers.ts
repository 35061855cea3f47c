/**
 * Transfers between the tenant's own accounts, found again by every reconciliation run (issue 15, item
 * 4; the rule is domain/transfers.ts): a transaction recorded as an inflow or outflow before the account
 * its counterparty names existed becomes a `transfer` once it does, whatever order the files were
 * normalized in.
 *
 * Set-wise, in the run's transaction: the counterparties that carry one of the tenant's accounts'
 * identifiers (their IBAN, their wallet address) as a key; their transactions that are not transfers;
 * those transactions' evidence (the parsed rows they came from), whose records name the own-account keys
 * normalization would have looked up; and those keys' accounts. Reads are bounded by the transactions of
 * counterparties that share an identifier with one of the tenant's accounts, which are few.
 */
import type { Tx } from '../../../platform/db/database.ts'
import { entityIdOf } from '../domain/keys.ts'
import { ownAccountKeysOfRecord } from '../domain/records.ts'
import { directionNow } from '../domain/transfers.ts'
import type { KeyKind } from '../domain/entities.ts'
import { extractedRecordOf } from '../normalize/normalizer.ts'
import type { LedgerStore, TransactionRow } from '../ledger.store.ts'
import type { Snapshot } from './matchers.ts'

/** The transactions to record as transfers now, each its current version. */
export async function ownAccountTransfers(tx: Tx, store: LedgerStore, tenantId: string, snapshot: Snapshot): Promise<TransactionRow[]> {
  // A counterparty's keys name accounts as `iban:<IBAN>` and `wallet:<address>` (records.ts, keys.ts).
  const identifiers = new Set<string>()
  for (const account of snapshot.accounts.values()) {
    if (account.iban !== null) identifiers.add(`iban:${account.iban}`)
    if (account.walletAddress !== null) identifiers.add(`wallet:${account.walletAddress}`)
  }
  const counterparties = await entitiesOf(tx, store, tenantId, 'counterparty', [...identifiers], new Set(snapshot.counterparties.keys()))
  const candidates = await store.nonTransfersWith(tx, tenantId, [...new Set(counterparties.values())].sort())
  if (candidates.length === 0) return []

  const evidence = await store.parsedRecords(tx, tenantId, [...new Set(candidates.flatMap((transaction) => transaction.evidenceIds))].sort())
  const recordOf = new Map(evidence.map((row) => [row.id, extractedRecordOf(row.extracted)]))
  const keysOf = new Map<string, string[]>()
  for (const transaction of candidates) {
    keysOf.set(
      transaction.id,
      transaction.evidenceIds.flatMap((id) => {
        const record = recordOf.get(id)
        return record === undefined ? [] : ownAccountKeysOfRecord(record)
      }),
    )
  }
  const accounts = await entitiesOf(tx, store, tenantId, 'account', [...new Set([...keysOf.values()].flat())], new Set(snapshot.accounts.keys()))
  return candidates
    .filter((transaction) => directionNow(transaction, keysOf.get(transaction.id)!.map((key) => accounts.get(key))) === 'transfer')
    .sort((left, right) => (left.id < right.id ? -1 : left.id > right.id ? 1 : 0))
}

/**
 * The entity each key names, as normalization resolves it: a stored key, or the entity whose id derives
 * from the key (an entity's first key needs no row) when that entity exists.
 */
async function entitiesOf(tx: Tx, store: LedgerStore, tenantId: string, kind: Extract<KeyKind, 'account' | 'counterparty'>, keys: readonly string[], existing: ReadonlySet<string>) {
  const found = await store.findEntityIds(tx, tenantId, kind, keys)
  for (const key of keys) {
    if (found.has(key)) continue
    const derived = entityIdOf(kind, tenantId, key)
    if (existing.has(derived)) found.set(key, derived)
  }
  return found
}
