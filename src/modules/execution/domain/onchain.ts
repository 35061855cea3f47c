/**
 * The onchain_base rail's pure rules (docs/execution.md): which SmartAccount refusal becomes which
 * deterministic failure code, when a session key is too close to its expiry to be used, what a payment
 * must look like before anything is asked of the chain, which broadcast errors mean "the node already has
 * this transaction", and the receipt the rail hands to the proof. No I/O and no viem: the adapter
 * (onchain-rail.ts) decodes what the chain says and brings the decoded values here.
 *
 * Every address and hash this module returns is lowercase hex, as the Ledger stores wallet transfers
 * (ledger/domain/records.ts), so a receipt and the chain indexer's record of the same transfer match by
 * `tx_hash` and `log_index` without a second normalization.
 */

/** A refusal the worker records as the execution's failure: retrying cannot change it. */
export interface OnchainRefusal {
  readonly code: string
  readonly reason: string
}

/** The failure codes of the onchain_base rail (the gate and docs/execution.md name them). */
export const onchainFailureCodes = {
  sessionKeyUnknown: 'onchain_session_key_unknown',
  sessionKeyRevoked: 'onchain_session_key_revoked',
  sessionKeyExpired: 'onchain_session_key_expired',
  /** Still valid on chain, but expiring within the margin: the transaction could land after the expiry. */
  sessionKeyExpiring: 'onchain_session_key_expiring',
  /** `isSessionKeyValid` said false and `execute` would not revert: the contract disagrees with itself, so the key is refused. */
  sessionKeyInvalid: 'onchain_session_key_invalid',
  tokenNotAllowed: 'onchain_token_not_allowed',
  spendCapExceeded: 'onchain_spend_cap_exceeded',
  amountInvalid: 'onchain_amount_invalid',
  recipientInvalid: 'onchain_recipient_invalid',
  insufficientBalance: 'onchain_insufficient_balance',
  /** The session key holds too little ether to pay for the transaction's gas. */
  gasFundsInsufficient: 'onchain_gas_funds_insufficient',
  /** The payment the directory resolved is malformed (an address or key that is not one). */
  paymentInvalid: 'onchain_payment_invalid',
  /** Any other revert: in simulation, or a mined transaction whose status is reverted. */
  transferReverted: 'onchain_transfer_reverted',
  /** The stored transaction's nonce was used by another transaction in a finalized block: it can never be mined. */
  nonceSuperseded: 'onchain_nonce_superseded',
} as const

/** A SmartAccount (or token) custom error as the adapter decoded it from revert data. */
export interface DecodedRevert {
  /** undefined when the revert data matched no error of the ABI (or there was none). */
  readonly errorName: string | undefined
  readonly args: readonly unknown[]
  /** The raw revert data, kept for the reason when the error is not decoded. */
  readonly data?: string | undefined
}

/**
 * The deterministic failure for a revert of `execute(token, to, amount)` sent by a session key, in the
 * order the contract checks (docs/execution.md). A revert nobody decodes is still a refusal: the call
 * was evaluated against a block and refused, so nothing was signed and nothing moved.
 */
export function refusalOfRevert(revert: DecodedRevert): OnchainRefusal {
  const args = revert.args.map(describeValue)
  switch (revert.errorName) {
    case 'SessionKeyUnknown':
      return { code: onchainFailureCodes.sessionKeyUnknown, reason: `session key ${args[0]} was never added to the smart account` }
    case 'SessionKeyIsRevoked':
      return { code: onchainFailureCodes.sessionKeyRevoked, reason: `session key ${args[0]} was revoked by the account's owner` }
    case 'SessionKeyExpired':
      return { code: onchainFailureCodes.sessionKeyExpired, reason: `session key ${args[0]} expired at ${args[1]} (unix seconds)` }
    case 'TokenNotAllowed':
      return { code: onchainFailureCodes.tokenNotAllowed, reason: `session key ${args[0]} may not move token ${args[1]}` }
    case 'SpendCapExceeded':
      return {
        code: onchainFailureCodes.spendCapExceeded,
        reason: `session key ${args[0]} may move ${args[1]} base units in total and has moved ${args[2]}; ${args[3]} more would exceed its cap`,
      }
    case 'ZeroAmount':
      return { code: onchainFailureCodes.amountInvalid, reason: 'the smart account refuses a zero amount' }
    case 'ZeroAddress':
      // From a session key, the token is checked against the key's (never zero) first, so a zero address here is the recipient.
      return { code: onchainFailureCodes.recipientInvalid, reason: 'the smart account refuses the zero address as recipient' }
    case 'ERC20InsufficientBalance':
      return { code: onchainFailureCodes.insufficientBalance, reason: `the smart account ${args[0]} holds ${args[1]} base units and needs ${args[2]}` }
    case undefined:
      return { code: onchainFailureCodes.transferReverted, reason: `the transfer reverts with undecoded data ${revert.data === undefined || revert.data === '' ? '(none)' : revert.data}` }
    default:
      return { code: onchainFailureCodes.transferReverted, reason: `the transfer reverts with ${revert.errorName}(${args.join(', ')})` }
  }
}

/**
 * Why a session key that the contract accepts in the latest block must still not be used: its expiry is
 * within `marginSeconds` of that block's timestamp. `eth_call` at `latest` runs with the latest block's
 * timestamp, while the transaction lands in a later block, so a key a few seconds from its expiry passes
 * the check and is refused on chain (docs/execution.md). A key is usable when
 * `expiry - marginSeconds > latestBlockTimestamp`; at equality it is refused. An expiry of 0 is not a
 * session key at all (the account's owner reads as valid with no expiry), and the rail never signs as the owner.
 */
export function expiryMarginRefusal(input: { readonly sessionKey: string; readonly expirySeconds: bigint; readonly latestBlockTimestampSeconds: bigint; readonly marginSeconds: number }): OnchainRefusal | undefined {
  if (!Number.isSafeInteger(input.marginSeconds) || input.marginSeconds < 0) throw new RangeError(`expiry margin must be a non-negative integer of seconds, got ${input.marginSeconds}`)
  const key = input.sessionKey.toLowerCase()
  if (input.expirySeconds === 0n) {
    return { code: onchainFailureCodes.sessionKeyUnknown, reason: `${key} is not a session key of the smart account (the rail never signs as its owner)` }
  }
  const usableUntil = input.expirySeconds - BigInt(input.marginSeconds)
  if (usableUntil > input.latestBlockTimestampSeconds) return undefined
  return {
    code: onchainFailureCodes.sessionKeyExpiring,
    reason:
      `session key ${key} expires at ${input.expirySeconds} (unix seconds), within the ${input.marginSeconds} s margin of the ` +
      `latest block's timestamp ${input.latestBlockTimestampSeconds}: the transfer could land after the expiry`,
  }
}

const addressExpression = /^0x[0-9a-fA-F]{40}$/
const privateKeyExpression = /^0x[0-9a-fA-F]{64}$/
const zeroAddress = `0x${'0'.repeat(40)}`
/** The largest amount a uint256 holds. */
const uint256Max = 2n ** 256n - 1n

/** The chain terms of a payment, as onchain-rail.ts's OnchainPayment (addresses and key as hex text). */
export interface PaymentTerms {
  readonly smartAccount: string
  readonly token: string
  readonly to: string
  readonly amountBaseUnits: bigint
  readonly sessionKey: string
}

/**
 * Refuses a payment that no chain call should be made for: an address or private key that is not one, a
 * zero account, token or recipient, an amount that is not a positive uint256. The contract would refuse
 * most of these too, but only after the rail has spent RPC calls and exposed a malformed key to a library.
 */
export function paymentRefusal(payment: PaymentTerms): OnchainRefusal | undefined {
  for (const [name, value] of [['smart account', payment.smartAccount], ['token', payment.token], ['recipient', payment.to]] as const) {
    if (!addressExpression.test(value)) return { code: onchainFailureCodes.paymentInvalid, reason: `the ${name} ${JSON.stringify(value)} is not an address` }
  }
  if (!privateKeyExpression.test(payment.sessionKey)) return { code: onchainFailureCodes.paymentInvalid, reason: 'the session key is not a 32-byte private key' }
  if (payment.smartAccount === zeroAddress || payment.token === zeroAddress) {
    return { code: onchainFailureCodes.paymentInvalid, reason: 'the smart account and the token must not be the zero address' }
  }
  if (payment.to === zeroAddress) return { code: onchainFailureCodes.recipientInvalid, reason: 'the recipient must not be the zero address' }
  if (payment.amountBaseUnits <= 0n || payment.amountBaseUnits > uint256Max) {
    return { code: onchainFailureCodes.amountInvalid, reason: `the amount must be a positive uint256 of base units, got ${payment.amountBaseUnits}` }
  }
  return undefined
}

/**
 * The nonce for the next transaction of a session key: the node's pending count, unless this process has
 * already signed past it (a stored transaction the node has not seen yet, because its broadcast failed):
 * reusing that nonce would sign a second transaction that can only be mined instead of the first.
 */
export function nextNonce(pendingCount: number, nextAssigned: number | undefined): number {
  if (!Number.isSafeInteger(pendingCount) || pendingCount < 0) throw new RangeError(`pending transaction count must be a non-negative integer, got ${pendingCount}`)
  return nextAssigned === undefined ? pendingCount : Math.max(pendingCount, nextAssigned)
}

/**
 * Whether a node refused a broadcast because it already has the transaction, in its pool (geth "already
 * known", anvil "transaction already imported", others "known transaction") or mined ("nonce too low":
 * also what a node says when another transaction used the nonce, so the adapter goes on to look for its
 * own transaction's receipt rather than concluding anything from the message).
 */
export function isAlreadyKnownBroadcastError(message: string): boolean {
  return /already known|already imported|known transaction|nonce too low/i.test(message)
}

/** A decoded ERC-20 Transfer log of a transaction's receipt. */
export interface TransferLog {
  /** The token contract that emitted it. */
  readonly address: string
  readonly from: string
  readonly to: string
  readonly value: bigint
  /** Its index among all logs of the block. */
  readonly logIndex: number
}

/** The Transfer of exactly this payment among a receipt's logs (there is one per `execute`), or undefined. */
export function findPaymentTransfer(logs: readonly TransferLog[], payment: { readonly smartAccount: string; readonly token: string; readonly to: string; readonly amountBaseUnits: bigint }): TransferLog | undefined {
  const same = (left: string, right: string) => left.toLowerCase() === right.toLowerCase()
  return logs.find((log) => same(log.address, payment.token) && same(log.from, payment.smartAccount) && same(log.to, payment.to) && log.value === payment.amountBaseUnits)
}

/**
 * The rail receipt of a completed onchain payment, as the proof carries it (`rail_receipt`, typed
 * "onchain"). JSON-safe: the amount is a decimal string of base units (it may exceed 2^53), the block
 * number and log index are numbers (they stay far below 2^53, and the audit anchor and the Ledger already
 * write block numbers as numbers).
 */
// A type rather than an interface: an object type alias is assignable to a RailAnswer's
// `Readonly<Record<string, unknown>>` receipt as it is, an interface is not.
export type OnchainReceipt = {
  readonly type: 'onchain'
  readonly chain_id: number
  readonly tx_hash: string
  readonly block_number: number
  readonly block_hash: string
  /** The ERC-20 Transfer log's index in the block: with tx_hash, what identifies the transfer on chain. */
  readonly log_index: number
  /** The session key that signed the transaction. */
  readonly from: string
  readonly smart_account: string
  readonly token: string
  readonly to: string
  readonly amount_base_units: string
}

export function onchainReceipt(input: {
  readonly chainId: number
  readonly txHash: string
  readonly blockNumber: bigint
  readonly blockHash: string
  readonly logIndex: number
  readonly from: string
  readonly smartAccount: string
  readonly token: string
  readonly to: string
  readonly amountBaseUnits: bigint
}): OnchainReceipt {
  if (input.blockNumber > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`block number ${input.blockNumber} is beyond a safe integer`)
  return {
    type: 'onchain',
    chain_id: input.chainId,
    tx_hash: input.txHash.toLowerCase(),
    block_number: Number(input.blockNumber),
    block_hash: input.blockHash.toLowerCase(),
    log_index: input.logIndex,
    from: input.from.toLowerCase(),
    smart_account: input.smartAccount.toLowerCase(),
    token: input.token.toLowerCase(),
    to: input.to.toLowerCase(),
    amount_base_units: input.amountBaseUnits.toString(),
  }
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return value.toLowerCase()
  if (typeof value === 'bigint') return value.toString()
  return String(value)
}
