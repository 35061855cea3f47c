/**
 * The onchain_base rail's wiring rules (docs/execution.md, "The onchain_base rail in the service"): how
 * Steward derives the session key it signs with for a registered account, how a Ledger USD amount becomes
 * USDC base units, and what an outbox row's payment resolves to (or why it is refused) from the account's
 * registration and the counterparty's wallets. Pure: the HMAC comes from the kernel, addresses are derived
 * by the caller (viem) and handed in.
 */
import { hmacSha256 } from '../../../kernel/hashing.ts'
import { toMinorUnits } from '../../../kernel/money.ts'
import { onchainFailureCodes, type OnchainRefusal } from './onchain.ts'

/** The secp256k1 group order n: a private key is an integer in [1, n − 1]. */
export const secp256k1Order = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

/** The seed's minimum length: a 256-bit key needs at least 256 bits of secret behind it. */
export const sessionKeySeedBytesMin = 32

/**
 * Candidates tried before giving up. A candidate is out of range with probability about 2^-128, so a
 * second one is never needed in practice; the bound only keeps a broken HMAC from looping forever.
 */
export const sessionKeyCandidatesMax = 8

/** The currency onchain_transfer amounts are in: USD, paid one for one in USDC. */
export const onchainAmountCurrency = 'USD'
/** The decimals of the USDC an account pays in: the registration refuses a token with others. */
export const usdcTokenDecimals = 6

/**
 * The first candidate (counter 0, 1, …) that is a valid secp256k1 private key, as 0x-prefixed 64 hex
 * digits: zero and values at or above the group order are skipped (re-hashed with the next counter).
 * `candidate(counter)` must return 32 bytes.
 */
export function firstValidPrivateKey(candidate: (counter: number) => Uint8Array): `0x${string}` {
  for (let counter = 0; counter < sessionKeyCandidatesMax; counter += 1) {
    const bytes = candidate(counter)
    if (bytes.length !== 32) throw new RangeError(`a session key candidate must be 32 bytes, got ${bytes.length}`)
    const hex = Buffer.from(bytes).toString('hex')
    const value = BigInt(`0x${hex}`)
    if (value > 0n && value < secp256k1Order) return `0x${hex}`
  }
  throw new Error(`no valid secp256k1 private key among ${sessionKeyCandidatesMax} candidates`)
}

/**
 * The session key Steward holds for one Ledger account of one tenant: HMAC-SHA-256 keyed by the seed
 * over a versioned label, the tenant, the account and a counter (see `firstValidPrivateKey`). The same
 * seed always gives the same key, so no private key is ever stored; another tenant or account gives an
 * unrelated key. Changing the seed changes every key (the registrations then no longer match: see
 * `sessionKeyMismatch`).
 */
export function deriveSessionKey(seed: string, scope: { readonly tenantId: string; readonly accountId: string }): `0x${string}` {
  if (new TextEncoder().encode(seed).length < sessionKeySeedBytesMin) throw new RangeError(`the session key seed must be at least ${sessionKeySeedBytesMin} bytes`)
  // Newline-separated: a tenant id is a UUID and an account id a registered Ledger id, neither holds one.
  if (/\n/.test(scope.tenantId) || /\n/.test(scope.accountId)) throw new RangeError('a tenant or account id must not contain a newline')
  return firstValidPrivateKey((counter) => hmacSha256(seed, `steward:onchain-session-key:v1\n${scope.tenantId}\n${scope.accountId}\n${counter}`))
}

/**
 * A USD amount in USDC base units (6 decimals), one for one: `"25.00"` → 25000000n. Undefined when the
 * currency is not USD or the amount is not a positive decimal in it.
 */
export function usdcBaseUnitsOf(amount: string, currency: string): bigint | undefined {
  if (currency !== onchainAmountCurrency) return undefined
  let units: bigint
  try {
    // Checked in USD's precision first (a proposal already is), then scaled to USDC's.
    toMinorUnits(amount, onchainAmountCurrency)
    units = toMinorUnits(amount, 'USDC')
  } catch {
    return undefined
  }
  return units > 0n ? units : undefined
}

/** An account's registration, as the rail reads it (onchain_accounts). */
export interface OnchainRegistration {
  readonly smartAccount: string
  readonly token: string
  readonly sessionKeyAddress: string
  readonly chainId: number
}

/** Refusal codes of the wiring, beside the rail's own (domain/onchain.ts). */
export const onchainDirectoryCodes = {
  accountUnregistered: 'onchain_account_unregistered',
  chainMismatch: 'onchain_chain_mismatch',
  currencyUnsupported: 'onchain_currency_unsupported',
  counterpartyUnknown: 'onchain_counterparty_unknown',
  counterpartyNoWallet: 'onchain_counterparty_no_wallet',
  counterpartyWalletAmbiguous: 'onchain_counterparty_wallet_ambiguous',
  sessionKeyMismatch: 'onchain_session_key_mismatch',
} as const

/** Why the registered session key is not the one Steward derives now (the seed changed since), or undefined when it is. */
export function sessionKeyMismatch(registration: Pick<OnchainRegistration, 'sessionKeyAddress'>, derivedAddress: string): OnchainRefusal | undefined {
  if (registration.sessionKeyAddress.toLowerCase() === derivedAddress.toLowerCase()) return undefined
  return {
    code: onchainDirectoryCodes.sessionKeyMismatch,
    reason: `the account was registered with session key ${registration.sessionKeyAddress.toLowerCase()}, but Steward now derives ${derivedAddress.toLowerCase()} for it (ONCHAIN_SESSION_KEY_SEED changed): it cannot sign for the registered key`,
  }
}

/** The chain terms of an outbox row's payment, without the private key (the caller adds it). */
export interface ResolvedPayment {
  readonly smartAccount: string
  readonly token: string
  readonly to: string
  readonly amountBaseUnits: bigint
}

/**
 * What an outbox row pays on chain, or why it cannot be paid (a deterministic refusal: retrying changes
 * nothing): no registration for the source account, one for another chain, an amount not in USD, an
 * unknown counterparty, a counterparty with no wallet or with several (the intent names a counterparty,
 * not a wallet, and guessing among several could pay the wrong one), or a session key Steward no longer
 * holds.
 */
export function resolveOnchainPayment(input: {
  readonly registration: OnchainRegistration | undefined
  readonly chainId: number
  readonly derivedSessionKeyAddress: string | undefined
  readonly amount: string
  readonly currency: string
  readonly sourceAccountId: string
  readonly counterparty: { readonly id: string; readonly walletAddresses: readonly string[] } | undefined
}): { readonly payment: ResolvedPayment } | { readonly refused: OnchainRefusal } {
  const { registration, counterparty } = input
  if (registration === undefined) {
    return { refused: { code: onchainDirectoryCodes.accountUnregistered, reason: `no smart account is registered for Ledger account ${input.sourceAccountId}` } }
  }
  if (registration.chainId !== input.chainId) {
    return { refused: { code: onchainDirectoryCodes.chainMismatch, reason: `Ledger account ${input.sourceAccountId} is registered on chain ${registration.chainId}; the rail serves chain ${input.chainId}` } }
  }
  if (input.derivedSessionKeyAddress !== undefined) {
    const mismatch = sessionKeyMismatch(registration, input.derivedSessionKeyAddress)
    if (mismatch !== undefined) return { refused: mismatch }
  }
  const amountBaseUnits = usdcBaseUnitsOf(input.amount, input.currency)
  if (amountBaseUnits === undefined) {
    return { refused: { code: onchainDirectoryCodes.currencyUnsupported, reason: `onchain_base pays USD amounts in USDC; got ${input.amount} ${input.currency}` } }
  }
  if (counterparty === undefined) return { refused: { code: onchainDirectoryCodes.counterpartyUnknown, reason: 'the destination counterparty is not in the Ledger' } }
  const wallets = [...new Set(counterparty.walletAddresses.map((address) => address.toLowerCase()))]
  if (wallets.length === 0) return { refused: { code: onchainDirectoryCodes.counterpartyNoWallet, reason: `counterparty ${counterparty.id} has no wallet address in the Ledger` } }
  if (wallets.length > 1) {
    return { refused: { code: onchainDirectoryCodes.counterpartyWalletAmbiguous, reason: `counterparty ${counterparty.id} has ${wallets.length} wallet addresses in the Ledger (${wallets.join(', ')}); the rail pays only a counterparty with exactly one` } }
  }
  const to = wallets[0]!
  if (!/^0x[0-9a-f]{40}$/.test(to)) return { refused: { code: onchainFailureCodes.recipientInvalid, reason: `counterparty ${counterparty.id}'s wallet ${JSON.stringify(to)} is not an address` } }
  return { payment: { smartAccount: registration.smartAccount.toLowerCase(), token: registration.token.toLowerCase(), to, amountBaseUnits } }
}
