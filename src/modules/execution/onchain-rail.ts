/**
 * The onchain_base rail (docs/execution.md): pays from a tenant's SmartAccount (contracts/SmartAccount.sol)
 * with a session key, one `execute(token, to, amount)` transaction per outbox row, and the session-key check
 * gate check 12 ("session key valid") reads.
 *
 * At most one transaction per idempotency key. The transaction is signed here with an explicit nonce and
 * gas, and stored (`OnchainSubmissions.insert`, first writer wins) BEFORE it is broadcast; from then on the
 * key is answered only from that stored transaction: its receipt, or a rebroadcast of the very same bytes.
 * A second signature for the key is never made, so a crash anywhere (before the broadcast, after it, while
 * waiting for the receipt) can at worst delay the payment, never repeat it.
 *
 * Once a transaction is stored the adapter never answers `failed` unless the chain proves it can no longer
 * move money: it was mined and reverted, or its nonce was taken by another transaction in a finalized block
 * (`onchain_nonce_superseded`). Anything else (no receipt in time, a broadcast the node refused, an RPC
 * error) is `transient`: the worker retries through `status`, then parks the intent `reconciling`. A
 * transaction that stays unmined for good (fees far below the market, say) is therefore parked for a
 * person, not replaced: replacing it would mean a second signature for the key.
 *
 * Nonces. Submits are serialized per session key inside this process, and the process remembers the next
 * nonce it assigned, so two payments signed here never share a nonce even when a broadcast failed. Across
 * processes nothing serializes them: two workers paying with the same session key at the same moment can
 * sign the same nonce. Only one of the two transactions can then be mined; the other is answered
 * `transient` until the nonce is finalized, then `failed` with `onchain_nonce_superseded`, and its money
 * never moves. That is safe but fails a payment, so a deployment runs one worker per session key (or
 * accepts the rare superseded failure) until nonces are allocated in the database.
 */
import {
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  createPublicClient,
  decodeFunctionData,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  http,
  keccak256,
  parseAbi,
  parseEventLogs,
  parseTransaction,
  type Abi,
  type Address,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
} from 'viem'
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import artifact from '../../../contracts/artifacts/SmartAccount.json' with { type: 'json' }
import { assert } from '../../kernel/assert.ts'
import { systemClock, type Clock } from '../../kernel/clock.ts'
import type { RailAnswer } from './domain/executions.ts'
import {
  expiryMarginRefusal,
  findPaymentTransfer,
  isAlreadyKnownBroadcastError,
  nextNonce,
  onchainFailureCodes,
  onchainReceipt,
  paymentRefusal,
  refusalOfRevert,
  type OnchainRefusal,
  type TransferLog,
} from './domain/onchain.ts'
import type { RailAdapter, RailRequest } from './rails.ts'

export interface OnchainPayment {
  readonly smartAccount: Address
  readonly token: Address
  readonly to: Address
  readonly amountBaseUnits: bigint
  /** The session key's private key: the rail signs with it, and it never leaves this module. */
  readonly sessionKey: Hex
}

/** Resolves an outbox row's payment to chain terms, or refuses it deterministically (unknown account, counterparty without wallet, ...). */
export interface OnchainDirectory {
  paymentOf(request: RailRequest): Promise<OnchainPayment | { readonly refused: { readonly code: string; readonly reason: string } }>
}

/**
 * What the adapter remembers per idempotency key of a tenant: the signed transaction, stored BEFORE it is
 * broadcast. On PostgreSQL (onchain.store.pg.ts: the key unique within the tenant, `insert … on conflict
 * do nothing` then a read); tests and single-process tools use `createMemoryOnchainSubmissions()`.
 */
export interface OnchainSubmissions {
  find(tenantId: string, idempotencyKey: string): Promise<OnchainSubmission | undefined>
  /** Stores the record unless one exists for its tenant and key; returns the one that is stored (first writer wins). */
  insert(record: OnchainSubmission): Promise<OnchainSubmission>
}

export interface OnchainSubmission {
  readonly tenantId: string
  readonly idempotencyKey: string
  /** The session key that signed. */
  readonly from: Address
  readonly nonce: number
  /** keccak256 of `rawTransaction`: the transaction hash. */
  readonly hash: Hex
  /** The signed transaction, broadcast as it is (again, if need be). Holds every term of the payment. */
  readonly rawTransaction: Hex
  readonly createdAt: Date
}

export interface OnchainRailOptions {
  readonly rpcUrl: string
  /** The chain the rail signs for (EIP-155); the RPC must serve it, or every answer is transient. */
  readonly chainId: number
  readonly directory: OnchainDirectory
  readonly submissions: OnchainSubmissions
  /** How long `submit` waits for the receipt of a broadcast transaction before answering transient. */
  readonly receiptTimeoutMs: number
  /** A session key expiring within this many seconds of the latest block's timestamp is refused. */
  readonly expiryMarginSeconds: number
  /** Where a submission's `createdAt` comes from; the system clock when not given. */
  readonly clock?: Clock
}

/** One RPC request; the worker owns retries, so none are made here (`retryCount: 0`). */
const rpcRequestTimeoutMs = 10_000
/** Base makes a block every 2 s; polling four times as often finds a receipt within a quarter block. */
const receiptPollIntervalMs = 500
/**
 * Gas limit = estimate + 50 %. `execute`'s cost depends on storage the transaction finds: a recipient
 * whose token balance went back to zero between the estimate and the block costs about 17,000 gas more
 * (a zero-to-non-zero write) on an estimate of about 60,000. Unused gas is not charged, so the margin
 * costs nothing but the ether the key must hold to cover it.
 */
const gasLimitMarginPercent = 50n
/** Max fee = 2 × the latest base fee + the priority fee: the base fee can rise 12.5 % per full block, so this survives six full blocks in a row. */
const baseFeeMultiplier = 2n

/**
 * SmartAccount's ABI from the committed build artifact (so it cannot differ from the deployed code), plus
 * OpenZeppelin's ERC-20 errors, which a token raises through `execute` (an uncovered transfer).
 */
const smartAccountAbi: Abi = [
  ...(artifact.abi as Abi),
  ...parseAbi([
    'error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)',
    'error ERC20InvalidReceiver(address receiver)',
    'error ERC20InvalidSender(address sender)',
  ]),
]

type Client = PublicClient

function publicClientFor(rpcUrl: string): Client {
  return createPublicClient({ transport: http(rpcUrl, { retryCount: 0, timeout: rpcRequestTimeoutMs }) })
}

export function createOnchainRail(options: OnchainRailOptions): RailAdapter {
  if (!Number.isSafeInteger(options.chainId) || options.chainId <= 0) throw new RangeError(`chainId must be a positive integer, got ${options.chainId}`)
  if (!Number.isSafeInteger(options.receiptTimeoutMs) || options.receiptTimeoutMs < 0) throw new RangeError(`receiptTimeoutMs must be a non-negative integer, got ${options.receiptTimeoutMs}`)
  if (!Number.isSafeInteger(options.expiryMarginSeconds) || options.expiryMarginSeconds < 0) {
    throw new RangeError(`expiryMarginSeconds must be a non-negative integer, got ${options.expiryMarginSeconds}`)
  }
  const { directory, submissions, chainId } = options
  const clock = options.clock ?? systemClock
  const client = publicClientFor(options.rpcUrl)
  const chainChecked = chainCheck(client, chainId)
  const serialized = serializer()
  /** Per session key (lowercase address): the nonce after the last one this process stored a transaction with. */
  const nextAssignedNonce = new Map<string, number>()

  /** The receipt of `hash`, or undefined while it is not mined. */
  async function receiptOf(hash: Hex): Promise<TransactionReceipt | undefined> {
    try {
      return await client.getTransactionReceipt({ hash })
    } catch (error) {
      if (error instanceof TransactionReceiptNotFoundError) return undefined
      throw error
    }
  }

  /** Polls for the receipt until it is there or `waitMs` has passed (one look when `waitMs` is 0). */
  async function waitForReceipt(hash: Hex, waitMs: number): Promise<TransactionReceipt | undefined> {
    // Polled by hash rather than viem's waitForTransactionReceipt, which on a replaced transaction (same
    // nonce, another hash) answers with the replacement's receipt: that would report a transfer the rail never signed.
    const deadline = Date.now() + waitMs
    for (;;) {
      const receipt = await receiptOf(hash)
      if (receipt !== undefined) return receipt
      const remainingMs = deadline - Date.now()
      if (remainingMs <= 0) return undefined
      await new Promise((resolve) => setTimeout(resolve, Math.min(receiptPollIntervalMs, remainingMs)))
    }
  }

  /** Sends the stored bytes; undefined when the node took them or already has them, else why it refused. */
  async function broadcast(submission: OnchainSubmission): Promise<string | undefined> {
    try {
      await client.request({ method: 'eth_sendRawTransaction', params: [submission.rawTransaction] })
      return undefined
    } catch (error) {
      if (!(error instanceof BaseError)) throw error
      const message = describeError(error)
      if (isAlreadyKnownBroadcastError(message)) return undefined
      // Whatever the message, a node that can show the transaction has it (pending or mined).
      if (await nodeKnows(submission.hash)) return undefined
      return message
    }
  }

  async function nodeKnows(hash: Hex): Promise<boolean> {
    try {
      await client.getTransaction({ hash })
      return true
    } catch (error) {
      if (error instanceof TransactionNotFoundError) return false
      throw error
    }
  }

  /**
   * The stored transaction can never be mined when its nonce is used in a finalized block and it is not
   * the transaction that used it. The receipt is looked up again after the nonce, so a transaction mined
   * between the first look and the nonce read is not mistaken for a superseded one.
   */
  async function supersededRefusal(submission: OnchainSubmission): Promise<OnchainRefusal | undefined> {
    const finalizedCount = await client.getTransactionCount({ address: submission.from, blockTag: 'finalized' })
    if (finalizedCount <= submission.nonce) return undefined
    if ((await receiptOf(submission.hash)) !== undefined) return undefined
    return {
      code: onchainFailureCodes.nonceSuperseded,
      reason: `nonce ${submission.nonce} of session key ${submission.from.toLowerCase()} was used by another transaction in a finalized block: transaction ${submission.hash} can never be mined, nothing moved`,
    }
  }

  /** The answer a mined transaction gives: completed with its Transfer, or failed when it reverted. */
  function outcomeOf(submission: OnchainSubmission, receipt: TransactionReceipt): RailAnswer {
    assert(receipt.transactionHash.toLowerCase() === submission.hash.toLowerCase(), 'a receipt answers the stored transaction hash')
    if (receipt.status !== 'success') {
      return {
        kind: 'failed',
        code: onchainFailureCodes.transferReverted,
        reason: `transaction ${submission.hash} (nonce ${submission.nonce} of session key ${submission.from.toLowerCase()}) was mined in block ${receipt.blockNumber} and reverted: nothing moved`,
      }
    }
    const payment = paymentOfSubmission(submission, chainId)
    const transfers: TransferLog[] = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs, strict: true }).map((log) => ({
      address: log.address,
      from: log.args.from,
      to: log.args.to,
      value: log.args.value,
      logIndex: log.logIndex,
    }))
    const transfer = findPaymentTransfer(transfers, payment)
    if (transfer === undefined) {
      // The account's `execute` succeeded, yet its token logged no such transfer: not a shape the rail
      // understands, so the worker parks the intent for a person rather than guess.
      return { kind: 'transient', reason: `transaction ${submission.hash} succeeded in block ${receipt.blockNumber} but logged no Transfer of ${payment.amountBaseUnits} from the smart account to the recipient: reconcile by hand` }
    }
    return {
      kind: 'completed',
      receipt: onchainReceipt({
        chainId,
        txHash: receipt.transactionHash,
        blockNumber: receipt.blockNumber,
        blockHash: receipt.blockHash,
        logIndex: transfer.logIndex,
        from: submission.from,
        smartAccount: payment.smartAccount,
        token: payment.token,
        to: payment.to,
        amountBaseUnits: payment.amountBaseUnits,
      }),
    }
  }

  /**
   * Answers a key from its stored transaction: the receipt when it is mined; otherwise failed when its
   * nonce was superseded, else the same bytes are broadcast again (a node that has them says so, which is
   * fine) and the receipt awaited for up to `receiptWaitMs`.
   */
  async function answerFromSubmission(submission: OnchainSubmission, receiptWaitMs: number): Promise<RailAnswer> {
    try {
      const chainProblem = await chainChecked()
      if (chainProblem !== undefined) return { kind: 'transient', reason: chainProblem }
      const mined = await receiptOf(submission.hash)
      if (mined !== undefined) return outcomeOf(submission, mined)
      const superseded = await supersededRefusal(submission)
      if (superseded !== undefined) return { kind: 'failed', ...superseded }
      const refusedBecause = await broadcast(submission)
      if (refusedBecause !== undefined) return { kind: 'transient', reason: `the node refused transaction ${submission.hash}: ${refusedBecause}` }
      return await awaitOutcome(submission, receiptWaitMs)
    } catch (error) {
      return transientOrThrow(error)
    }
  }

  async function awaitOutcome(submission: OnchainSubmission, receiptWaitMs: number): Promise<RailAnswer> {
    const receipt = await waitForReceipt(submission.hash, receiptWaitMs)
    if (receipt !== undefined) return outcomeOf(submission, receipt)
    return { kind: 'transient', reason: `transaction ${submission.hash} was broadcast and is not mined yet (waited ${receiptWaitMs} ms)` }
  }

  /**
   * Under the session key's lock: the key is looked up again (a concurrent submit may have stored it), the
   * session key and the call are checked, the transaction signed, stored and broadcast. Returns the answer
   * when nothing was signed, or the stored transaction (ours, or the one another writer stored first).
   */
  async function signStoreAndBroadcast(
    request: RailRequest,
    payment: OnchainPayment,
    account: PrivateKeyAccount,
  ): Promise<{ readonly answer: RailAnswer } | { readonly existing: OnchainSubmission } | { readonly signed: OnchainSubmission; readonly broadcastRefusal: string | undefined }> {
    const existing = await submissions.find(request.tenantId, request.idempotencyKey)
    if (existing !== undefined) return { existing }
    const chainProblem = await chainChecked()
    if (chainProblem !== undefined) return { answer: { kind: 'transient', reason: chainProblem } }

    const block = await client.getBlock({ blockTag: 'latest' })
    const refusal = await sessionKeyRefusal(client, { smartAccount: payment.smartAccount, sessionKey: account.address, token: payment.token, to: payment.to, amountBaseUnits: payment.amountBaseUnits, expiryMarginSeconds: options.expiryMarginSeconds }, block)
    if (refusal !== undefined) return { answer: refusal }

    const args = [payment.token, payment.to, payment.amountBaseUnits] as const
    const callRefusal = await simulationRefusal(client, { from: account.address, smartAccount: payment.smartAccount, args, blockNumber: block.number })
    if (callRefusal !== undefined) return { answer: callRefusal }
    let gasEstimate: bigint
    try {
      gasEstimate = await client.estimateContractGas({ account: account.address, address: payment.smartAccount, abi: smartAccountAbi, functionName: 'execute', args })
    } catch (error) {
      // The state moved since the simulation and the call reverts now: still a refusal before anything is signed.
      const revert = deterministicRevert(error)
      if (revert === undefined) throw error
      return { answer: { kind: 'failed', ...revert } }
    }
    const gas = gasEstimate + (gasEstimate * gasLimitMarginPercent) / 100n
    if (block.baseFeePerGas === null) return { answer: { kind: 'transient', reason: `the chain's latest block ${block.number} has no base fee: the rail signs EIP-1559 transactions only` } }
    const maxPriorityFeePerGas = await client.estimateMaxPriorityFeePerGas()
    const maxFeePerGas = block.baseFeePerGas * baseFeeMultiplier + maxPriorityFeePerGas
    const gasFunds = await client.getBalance({ address: account.address })
    if (gasFunds < gas * maxFeePerGas) {
      return {
        answer: {
          kind: 'failed',
          code: onchainFailureCodes.gasFundsInsufficient,
          reason: `session key ${account.address.toLowerCase()} holds ${gasFunds} wei and the transaction may cost up to ${gas * maxFeePerGas} wei of gas`,
        },
      }
    }

    const sessionKeyId = account.address.toLowerCase()
    const nonce = nextNonce(await client.getTransactionCount({ address: account.address, blockTag: 'pending' }), nextAssignedNonce.get(sessionKeyId))
    const data = encodeFunctionData({ abi: smartAccountAbi, functionName: 'execute', args })
    const rawTransaction = await account.signTransaction({ type: 'eip1559', chainId, nonce, gas, maxFeePerGas, maxPriorityFeePerGas, to: payment.smartAccount, data, value: 0n })
    const ours: OnchainSubmission = { tenantId: request.tenantId, idempotencyKey: request.idempotencyKey, from: account.address, nonce, hash: keccak256(rawTransaction), rawTransaction, createdAt: clock.now() }
    // Stored before it is broadcast: from here on, this transaction is the key's only possible effect.
    const stored = await submissions.insert(ours)
    if (stored.from.toLowerCase() === sessionKeyId) {
      // Remembered only once a stored transaction holds the nonce, so a failed insert leaves no gap. When
      // another writer won, its transaction (same key, usually the same nonce) is the one that holds it.
      nextAssignedNonce.set(sessionKeyId, Math.max(nextAssignedNonce.get(sessionKeyId) ?? 0, stored.nonce + 1))
    }
    if (stored.hash !== ours.hash) return { existing: stored }
    return { signed: stored, broadcastRefusal: await broadcast(stored) }
  }

  return {
    rail: 'onchain_base',

    async submit(request) {
      // The stored transaction answers first: once money may have moved, the directory's view (an account
      // closed since, a counterparty's new wallet) must not turn the answer into a refusal or a second payment.
      const stored = await submissions.find(request.tenantId, request.idempotencyKey)
      if (stored !== undefined) return answerFromSubmission(stored, options.receiptTimeoutMs)

      const payment = await directory.paymentOf(request)
      if ('refused' in payment) return { kind: 'failed', code: payment.refused.code, reason: payment.refused.reason }
      const invalid = paymentRefusal(payment)
      if (invalid !== undefined) return { kind: 'failed', ...invalid }
      let account: PrivateKeyAccount
      try {
        account = privateKeyToAccount(payment.sessionKey)
      } catch {
        return { kind: 'failed', code: onchainFailureCodes.paymentInvalid, reason: 'the session key is not a valid secp256k1 private key' }
      }

      try {
        const result = await serialized(account.address.toLowerCase(), () => signStoreAndBroadcast(request, payment, account))
        if ('answer' in result) return result.answer
        // Another submit of the key stored its transaction first: answered from it, as a second submit is.
        if ('existing' in result) return await answerFromSubmission(result.existing, options.receiptTimeoutMs)
        if (result.broadcastRefusal !== undefined) return { kind: 'transient', reason: `the node refused transaction ${result.signed.hash}: ${result.broadcastRefusal}` }
        return await awaitOutcome(result.signed, options.receiptTimeoutMs)
      } catch (error) {
        return transientOrThrow(error)
      }
    },

    async status(request) {
      const stored = await submissions.find(request.tenantId, request.idempotencyKey)
      if (stored === undefined) return undefined
      // No waiting: one look after the rebroadcast. An unmined transaction is `transient` rather than
      // `pending`, because nothing (no webhook) would wake a pending execution; the worker's retries ask again.
      return answerFromSubmission(stored, 0)
    },
  }
}

export interface SessionKeyValidityOptions {
  readonly rpcUrl: string
  readonly chainId: number
  readonly smartAccount: Address
  readonly sessionKeyAddress: Address
  readonly token: Address
  readonly amountBaseUnits: bigint
  readonly expiryMarginSeconds: number
}

export type SessionKeyValidity = { readonly valid: true; readonly reason: string } | { readonly valid: false; readonly code: string; readonly reason: string }

/**
 * Gate check 12 ("session key valid"): whether the rail would sign this payment now, by the same rules it
 * signs with: the account's `isSessionKeyValid` in the latest block, named by the refusal `execute` would
 * revert with, then the expiry margin. An invalid key is an answer (`valid: false` with the rail's failure
 * code); an RPC that cannot be reached, or serves another chain, is thrown, so the gate does not record a
 * refusal it never observed.
 */
export async function sessionKeyValidity(options: SessionKeyValidityOptions): Promise<SessionKeyValidity> {
  if (!Number.isSafeInteger(options.expiryMarginSeconds) || options.expiryMarginSeconds < 0) {
    throw new RangeError(`expiryMarginSeconds must be a non-negative integer, got ${options.expiryMarginSeconds}`)
  }
  const client = publicClientFor(options.rpcUrl)
  const chainProblem = await chainCheck(client, options.chainId)()
  if (chainProblem !== undefined) throw new Error(chainProblem)
  const block = await client.getBlock({ blockTag: 'latest' })
  const refusal = await sessionKeyRefusal(
    client,
    {
      smartAccount: getAddress(options.smartAccount),
      sessionKey: getAddress(options.sessionKeyAddress),
      token: getAddress(options.token),
      // isSessionKeyValid ignores the recipient; a refusal is named by simulating to the account itself.
      to: getAddress(options.smartAccount),
      amountBaseUnits: options.amountBaseUnits,
      expiryMarginSeconds: options.expiryMarginSeconds,
    },
    block,
  )
  if (refusal !== undefined) return { valid: false, code: refusal.code, reason: refusal.reason }
  return {
    valid: true,
    reason: `session key ${options.sessionKeyAddress.toLowerCase()} may move ${options.amountBaseUnits} base units of ${options.token.toLowerCase()} from ${options.smartAccount.toLowerCase()} (block ${block.number}, margin ${options.expiryMarginSeconds} s)`,
  }
}

/**
 * The decimals of the ERC-20 at `token` on the chain the rail serves (a registration refuses a token
 * without USDC's 6, since amounts are converted at 6), or undefined when nothing there answers
 * `decimals()` (no code, or a revert). An RPC that cannot be reached, or serves another chain, is thrown.
 */
export async function tokenDecimals(options: { readonly rpcUrl: string; readonly chainId: number; readonly token: Address }): Promise<number | undefined> {
  const client = publicClientFor(options.rpcUrl)
  const chainProblem = await chainCheck(client, options.chainId)()
  if (chainProblem !== undefined) throw new Error(chainProblem)
  try {
    return await client.readContract({ address: getAddress(options.token), abi: erc20Abi, functionName: 'decimals' })
  } catch (error) {
    const refused = (cause: unknown) => cause instanceof ContractFunctionZeroDataError || cause instanceof ContractFunctionRevertedError
    if (error instanceof BaseError && refused(error.walk(refused))) return undefined
    throw error
  }
}

/**
 * The failed answer for a session key the rail must not use for this payment, evaluated in `block`:
 * `isSessionKeyValid` false (named by the revert `execute` gives in the same block), or an expiry within
 * the margin. Undefined when the key may be used.
 */
async function sessionKeyRefusal(
  client: Client,
  check: { readonly smartAccount: Address; readonly sessionKey: Address; readonly token: Address; readonly to: Address; readonly amountBaseUnits: bigint; readonly expiryMarginSeconds: number },
  block: { readonly number: bigint; readonly timestamp: bigint },
): Promise<(OnchainRefusal & { readonly kind: 'failed' }) | undefined> {
  const blockNumber = block.number
  let valid: unknown
  try {
    valid = await client.readContract({ address: check.smartAccount, abi: smartAccountAbi, functionName: 'isSessionKeyValid', args: [check.sessionKey, check.token, check.amountBaseUnits], blockNumber })
  } catch (error) {
    if (error instanceof BaseError && error.walk((cause) => cause instanceof ContractFunctionZeroDataError) instanceof ContractFunctionZeroDataError) {
      return { kind: 'failed', code: onchainFailureCodes.paymentInvalid, reason: `${check.smartAccount.toLowerCase()} holds no smart account at block ${blockNumber}` }
    }
    throw error
  }
  if (typeof valid !== 'boolean') throw new Error(`isSessionKeyValid returned ${typeof valid}, expected a boolean`)
  if (!valid) {
    const refusal = await simulationRefusal(client, { from: check.sessionKey, smartAccount: check.smartAccount, args: [check.token, check.to, check.amountBaseUnits], blockNumber })
    if (refusal !== undefined) return refusal
    // isSessionKeyValid and execute share one check in the contract; should they disagree, the key is still refused.
    return { kind: 'failed', code: onchainFailureCodes.sessionKeyInvalid, reason: `isSessionKeyValid refused session key ${check.sessionKey.toLowerCase()} at block ${blockNumber}, yet execute would not revert` }
  }
  const settings = await client.readContract({ address: check.smartAccount, abi: smartAccountAbi, functionName: 'sessionKey', args: [check.sessionKey], blockNumber })
  const expiry = Array.isArray(settings) ? (settings as unknown[])[3] : undefined
  if (typeof expiry !== 'bigint') throw new Error('sessionKey returned an unexpected shape')
  const expiring = expiryMarginRefusal({ sessionKey: check.sessionKey, expirySeconds: expiry, latestBlockTimestampSeconds: block.timestamp, marginSeconds: check.expiryMarginSeconds })
  return expiring === undefined ? undefined : { kind: 'failed', ...expiring }
}

/** The failed answer when `execute(token, to, amount)` sent by `from` reverts in `blockNumber`; undefined when it passes. */
async function simulationRefusal(
  client: Client,
  call: { readonly from: Address; readonly smartAccount: Address; readonly args: readonly [Address, Address, bigint]; readonly blockNumber: bigint },
): Promise<(OnchainRefusal & { readonly kind: 'failed' }) | undefined> {
  try {
    await client.simulateContract({ account: call.from, address: call.smartAccount, abi: smartAccountAbi, functionName: 'execute', args: call.args, blockNumber: call.blockNumber })
    return undefined
  } catch (error) {
    const revert = deterministicRevert(error)
    if (revert === undefined) throw error
    return { kind: 'failed', ...revert }
  }
}

/**
 * The refusal a revert names, when the node returned revert data. An error without revert data is not
 * taken for a refusal: viem also reports a node's internal error (-32603) as a revert, and a payment must
 * not fail for good because a node was unwell; it stays transient and ends with a person.
 */
function deterministicRevert(error: unknown): OnchainRefusal | undefined {
  if (!(error instanceof BaseError)) return undefined
  const revert = error.walk((cause) => cause instanceof ContractFunctionRevertedError)
  if (!(revert instanceof ContractFunctionRevertedError)) return undefined
  const raw = revert.raw ?? revert.signature
  if (revert.data === undefined && (raw === undefined || raw.length < 10)) return undefined
  return refusalOfRevert({ errorName: revert.data?.errorName, args: revert.data?.args ?? [], data: raw })
}

/** The payment a stored transaction makes, read back from its signed bytes (the only record of what was signed). */
function paymentOfSubmission(submission: OnchainSubmission, chainId: number): { smartAccount: Address; token: Address; to: Address; amountBaseUnits: bigint } {
  assert(keccak256(submission.rawTransaction) === submission.hash.toLowerCase(), `stored transaction ${submission.hash} hashes to its hash`)
  const transaction = parseTransaction(submission.rawTransaction)
  assert(transaction.chainId === chainId, `stored transaction ${submission.hash} is for chain ${chainId}`)
  assert(transaction.to !== undefined && transaction.to !== null && transaction.data !== undefined, `stored transaction ${submission.hash} is a contract call`)
  const call = decodeFunctionData({ abi: smartAccountAbi, data: transaction.data })
  assert(call.functionName === 'execute', `stored transaction ${submission.hash} calls execute`)
  const [token, to, amount] = (call.args ?? []) as readonly unknown[]
  assert(typeof token === 'string' && typeof to === 'string' && typeof amount === 'bigint', `stored transaction ${submission.hash} carries execute's arguments`)
  return { smartAccount: getAddress(transaction.to), token: getAddress(token), to: getAddress(to), amountBaseUnits: amount }
}

/** An RPC failure is transient; anything else (a store error, a broken invariant) is thrown to the worker. */
function transientOrThrow(error: unknown): RailAnswer {
  if (error instanceof BaseError) return { kind: 'transient', reason: describeError(error) }
  throw error
}

function describeError(error: BaseError): string {
  return [error.shortMessage, error.details].filter((part) => typeof part === 'string' && part !== '').join(': ')
}

/**
 * Whether the RPC serves `chainId`, asked once and remembered when it does: signing for one chain and
 * broadcasting to another would only fail, but it would fail as a refusal the worker cannot explain.
 * Answers the problem as a sentence, or undefined.
 */
function chainCheck(client: Client, chainId: number): () => Promise<string | undefined> {
  let confirmed = false
  return async () => {
    if (confirmed) return undefined
    const served = await client.getChainId()
    if (served !== chainId) return `the RPC serves chain ${served}, the rail is configured for chain ${chainId}`
    confirmed = true
    return undefined
  }
}

/**
 * Runs work one at a time per key, in call order. The tail of each key's queue is dropped when it
 * settles, so the map holds only keys with work in progress.
 */
function serializer(): <T>(key: string, work: () => Promise<T>) => Promise<T> {
  const tails = new Map<string, Promise<void>>()
  return async (key, work) => {
    const previous = tails.get(key) ?? Promise.resolve()
    let release = () => {}
    const mine = new Promise<void>((resolve) => (release = resolve))
    const tail = previous.then(() => mine)
    tails.set(key, tail)
    await previous
    try {
      return await work()
    } finally {
      release()
      if (tails.get(key) === tail) tails.delete(key)
    }
  }
}

/** The in-memory `OnchainSubmissions` for tests (and a single-process sandbox): first writer wins per key. */
export function createMemoryOnchainSubmissions(): OnchainSubmissions & { readonly all: () => readonly OnchainSubmission[] } {
  const byKey = new Map<string, OnchainSubmission>()
  // A tenant id is a UUID: no newline, so tenant and key cannot run into each other.
  const keyOf = (tenantId: string, idempotencyKey: string) => `${tenantId}\n${idempotencyKey}`
  return {
    find: async (tenantId, idempotencyKey) => byKey.get(keyOf(tenantId, idempotencyKey)),
    insert: async (record) => {
      const existing = byKey.get(keyOf(record.tenantId, record.idempotencyKey))
      if (existing !== undefined) return existing
      byKey.set(keyOf(record.tenantId, record.idempotencyKey), record)
      return record
    },
    all: () => [...byKey.values()],
  }
}
