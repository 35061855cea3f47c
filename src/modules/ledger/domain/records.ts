/**
 * What an extracted record says, in the terms normalization resolves (docs/raw-and-ledger.md): the
 * transaction facts of a bank transaction or wallet transfer, the account a record names and the
 * counterparty it names or suggests, each with its natural keys. They depend on the record alone, so a
 * run works them out for a page of rows while the previous batch writes.
 */
import { decimalSign } from '../../../kernel/money.ts'
import type { AccountRef, CounterpartyRef, ExtractedRecord, TransactionRecord, WalletTransferRecord } from '../../../kernel/extracted-record.ts'
import type { CounterpartyType, TransactionStatus } from './entities.ts'
import { accountKeys, counterpartyFromDescription, counterpartyKeys, ledgerAmount, normalizeDescription, normalizeIban, normalizeWallet, type NormalizedTexts } from './keys.ts'

/** A transaction-like record in the common shape (bank transactions and wallet transfers). */
export interface TransactionFacts {
  readonly account: AccountRef
  readonly externalId: string | undefined
  readonly pendingExternalId: string | undefined
  /** As the Ledger stores it (ledgerAmount). */
  readonly amount: string
  readonly currency: string
  readonly transactionDate: string
  readonly postedDate: string | undefined
  readonly status: TransactionStatus
  readonly description: string
  readonly descriptionNormalized: string
  readonly counterparty: CounterpartyRef | undefined
  readonly category: string | undefined
  readonly details: Record<string, unknown> | undefined
  /** On-chain: the chain to look the counterparty's wallet up on as one of the tenant's accounts. */
  readonly chainId: number | undefined
}

/**
 * A transaction record's or wallet transfer's facts. A transfer is described from the wallet's side
 * (`USDC sent to 0x…`), identified by its transaction hash and log index, and dated by its block's day.
 * `recent`: the caller's recent text normalizations.
 */
export function transactionFacts(record: TransactionRecord | WalletTransferRecord, recent?: NormalizedTexts): TransactionFacts {
  if (record.kind === 'transaction') {
    return {
      account: record.account,
      externalId: record.external_transaction_id,
      pendingExternalId: record.pending_transaction_id,
      amount: ledgerAmount(record.amount, record.currency),
      currency: record.currency,
      transactionDate: record.transaction_date,
      postedDate: record.posted_date,
      status: record.status,
      description: record.description,
      descriptionNormalized: normalizeDescription(record.description, recent),
      counterparty: record.counterparty,
      category: record.category,
      details: record.details,
      chainId: undefined,
    }
  }
  const outgoing = decimalSign(record.amount) < 0
  const other = outgoing ? record.to : record.from
  const description = `${record.token} ${outgoing ? 'sent to' : 'received from'} ${normalizeWallet(other)}`
  return {
    account: { ...record.account, chain_id: record.account.chain_id ?? record.chain_id },
    externalId: `${record.tx_hash.toLowerCase()}:${record.log_index}`,
    pendingExternalId: undefined,
    amount: ledgerAmount(record.amount, record.token),
    currency: record.token,
    transactionDate: record.timestamp.slice(0, 10),
    postedDate: record.timestamp.slice(0, 10),
    status: 'posted',
    description,
    descriptionNormalized: normalizeDescription(description, recent),
    counterparty: { wallet_address: other },
    category: undefined,
    details: {
      chain_id: record.chain_id,
      tx_hash: record.tx_hash.toLowerCase(),
      log_index: record.log_index,
      block_number: record.block_number,
      timestamp: record.timestamp,
      from: normalizeWallet(record.from),
      to: normalizeWallet(record.to),
      token: record.token,
      ...(record.token_address === undefined ? {} : { token_address: normalizeWallet(record.token_address) }),
    },
    chainId: record.chain_id,
  }
}

/** The account a record is about, with its keys. */
export interface AccountReference {
  readonly ref: AccountRef
  readonly currency: string | undefined
  /** Strongest first (accountKeys); never empty. */
  readonly keys: readonly string[]
}

/** The account a record names, and its keys; undefined for records without one (invoices, obligations). */
export function accountReferenceOf(record: ExtractedRecord, recent?: NormalizedTexts): AccountReference | undefined {
  let ref: AccountRef
  let currency: string | undefined
  switch (record.kind) {
    case 'account':
      ref = record.account
      currency = record.account.currency
      break
    case 'transaction':
    case 'balance':
      ref = record.account
      currency = record.currency
      break
    case 'wallet_transfer':
      // A wallet account carries the asset it moves (USDC), so an account first named without a currency
      // (a chain indexer's wallet record) is not left at XXX; its keys do not change (a name key already
      // fell back to the token).
      ref = { ...record.account, chain_id: record.account.chain_id ?? record.chain_id, currency: record.account.currency ?? record.token }
      currency = record.token
      break
    default:
      return undefined
  }
  return { ref, currency, keys: accountKeys(ref, currency ?? 'XXX', recent) }
}

/** What a record says about its counterparty. */
export interface CounterpartyMention {
  readonly ref: CounterpartyRef
  /** Strongest first (counterpartyKeys); never empty. */
  readonly keys: readonly string[]
  /** The type the record suggests (an invoice's direction, a card purchase's sign). */
  readonly type: CounterpartyType
  /** Guessed from a bank description rather than named by the source. */
  readonly inferred: boolean
}

/**
 * The counterparty a record names (or, for a bank transaction that names none, the merchant guessed from
 * its description), its keys and the type the record suggests; undefined when it names nothing usable.
 */
export function counterpartyMentionOf(record: ExtractedRecord, recent?: NormalizedTexts): CounterpartyMention | undefined {
  const mention = (ref: CounterpartyRef, type: CounterpartyType, inferred: boolean) => {
    const keys = counterpartyKeys(ref, recent)
    return keys.length > 0 ? { ref, keys, type, inferred } : undefined
  }
  switch (record.kind) {
    case 'transaction': {
      const outflow = decimalSign(record.amount) < 0
      if (record.counterparty !== undefined) return mention(record.counterparty, outflow ? 'merchant' : 'other', false)
      const guessed = counterpartyFromDescription(record.description, recent)
      return guessed === undefined ? undefined : mention({ name: guessed }, outflow ? 'merchant' : 'other', true)
    }
    case 'wallet_transfer':
      return mention({ wallet_address: decimalSign(record.amount) < 0 ? record.to : record.from }, 'wallet', false)
    case 'invoice':
      return mention(record.counterparty, record.direction === 'payable' ? 'vendor' : 'customer', false)
    case 'obligation': {
      if (record.counterparty === undefined) return undefined
      const type =
        record.obligation_type === 'payroll'
          ? 'employee'
          : record.obligation_type === 'tax'
            ? 'tax_authority'
            : record.direction === 'receivable'
              ? 'customer'
              : 'vendor'
      return mention(record.counterparty, type, false)
    }
    default:
      return undefined
  }
}

/**
 * The account keys under which a transaction's counterparty could be one of the tenant's own accounts (a
 * transfer between them): its IBAN, or on-chain its wallet on the transfer's chain.
 */
export function ownAccountKeysOf(ref: CounterpartyRef | undefined, chainId: number | undefined): string[] {
  if (ref === undefined) return []
  const keys: string[] = []
  if (ref.iban !== undefined) keys.push(`iban:${normalizeIban(ref.iban)}`)
  if (ref.wallet_address !== undefined && chainId !== undefined) keys.push(`wallet:${chainId}:${normalizeWallet(ref.wallet_address)}`)
  return keys
}

/** ownAccountKeysOf for a record: a bank transaction's counterparty, a wallet transfer's other side; none for other records. */
export function ownAccountKeysOfRecord(record: ExtractedRecord): string[] {
  if (record.kind === 'transaction') return ownAccountKeysOf(record.counterparty, undefined)
  if (record.kind === 'wallet_transfer') return ownAccountKeysOf({ wallet_address: decimalSign(record.amount) < 0 ? record.to : record.from }, record.chain_id)
  return []
}
