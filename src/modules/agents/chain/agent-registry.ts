/**
 * The AgentRegistry contract (contracts/AgentRegistry.sol) seen from TypeScript: the tenant and agent
 * key encodings, a client that registers, updates and revokes agents and answers the on-chain checks
 * activation and dispatch make, and the deployment used by tests and sandboxes (docs/agents.md).
 *
 * Every write is simulated first (a refusal becomes the contract's decoded custom error before anything
 * is signed), sent, and waited for; its receipt must carry the event the write emits, from this
 * contract. RPC requests are never retried here (`retryCount: 0`): the caller owns retries, and every
 * write is refused rather than repeated when it already landed (AgentExists, ScopeHashUnchanged,
 * AgentIsRevoked), so resending one whose answer was lost cannot change anything twice. Transactions take
 * their nonce from the registrar's pending count: run one registering process per key.
 */
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  getAddress,
  http,
  isAddress,
  keccak256,
  parseEventLogs,
  stringToBytes,
  TransactionReceiptNotFoundError,
  zeroAddress,
  type Abi,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
  type Transport,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import artifact from '../../../../contracts/artifacts/AgentRegistry.json' with { type: 'json' }
import { tenantIdOfKey, tenantKey } from '../../../kernel/chain-keys.ts'

/**
 * The contract's ABI, read from the committed build artifact so it cannot differ from the deployed code.
 * A JSON import cannot carry literal types, so it is a plain `Abi` and this module checks the shape of
 * every value it reads back.
 */
export const registryAbi: Abi = artifact.abi as Abi
export const registryBytecode: Hex = assertHex(artifact.bytecode, 'artifact bytecode')

const requestTimeoutMsDefault = 10_000
/** L2 blocks come every few seconds; past this the caller retries, which is safe (see above). */
const receiptWaitMsMax = 120_000
const receiptPollingIntervalMs = 500

const bytes32Expression = /^0x[0-9a-fA-F]{64}$/
const zeroBytes32: Hex = `0x${'0'.repeat(64)}`

/** The tenant's on-chain key, as in every Steward contract (kernel/chain-keys.ts). */
export { tenantIdOfKey, tenantKey }

/**
 * The bytes32 an agent is known by on chain: keccak256 of its id's UTF-8 bytes. Agent ids are strings of
 * any length chosen per tenant, so a fixed-size hash keeps every record and event the same size; anyone
 * holding the id computes the key, and the id itself is not published. The tenant is a separate key, so
 * the same id in two tenants names two agents. An empty id, or one with a lone UTF-16 surrogate (which
 * has no UTF-8 encoding, so two such ids could hash alike), is refused.
 */
export function agentKey(agentId: string): Hex {
  if (typeof agentId !== 'string' || agentId.length === 0) throw new TypeError('agent id must be a non-empty string')
  if (!agentId.isWellFormed()) throw new TypeError('agent id must not contain a lone UTF-16 surrogate')
  return keccak256(stringToBytes(agentId))
}

export interface AgentRegistryOptions {
  readonly rpcUrl: string
  readonly contractAddress: Address
  /** The registrar's key; only writes need it, the checks read without one. */
  readonly privateKey?: Hex
  readonly requestTimeoutMs?: number
}

export interface AgentRegistration {
  readonly tenantId: string
  readonly agentId: string
  readonly wallet: Address
  readonly scopeHash: Hex
}

/** A mined write. */
export interface RegistryTransaction {
  readonly txHash: Hex
  readonly blockNumber: bigint
}

/** An agent's record as the contract holds it now. */
export interface AgentRecord {
  readonly wallet: Address
  /** The current scope hash: the registered one, or the last update's. */
  readonly scopeHash: Hex
  readonly registeredBlock: bigint
  /** The registration block's timestamp, in seconds. */
  readonly registeredAt: bigint
  readonly revoked: boolean
}

/** The agent a wallet was registered for. */
export interface WalletAgent {
  readonly tenantKey: Hex
  /** The tenant id `tenantKey` encodes; null if the registrar registered a key that is not a tenant key. */
  readonly tenantId: string | null
  /** The agent's key: its id is not on chain, only keccak256 of it (`agentKey`). */
  readonly agentKey: Hex
}

/** An AgentRegistered log: the registration as it was made, before any scope update. */
export interface RegistrationLog {
  readonly txHash: Hex
  readonly blockNumber: bigint
  readonly wallet: Address
  readonly scopeHash: Hex
}

export type RegistrationInTransaction =
  | { readonly found: true; readonly registration: RegistrationLog }
  | {
      readonly found: false
      /**
       * `transaction_not_found`: the chain knows no mined transaction of that hash (unknown, or still
       * pending); `transaction_reverted`: it was mined and reverted; `no_registration`: it succeeded but
       * this contract logged no registration of this agent in it.
       */
      readonly reason: 'transaction_not_found' | 'transaction_reverted' | 'no_registration'
    }

export interface AgentRegistryChain {
  readonly contractAddress: Address
  /** The RPC's chain id, fetched once. */
  chainId(): Promise<number>
  register(registration: AgentRegistration): Promise<RegistryTransaction>
  updateScopeHash(tenantId: string, agentId: string, scopeHash: Hex): Promise<RegistryTransaction>
  revoke(tenantId: string, agentId: string): Promise<RegistryTransaction>
  /** The agent's current record, or null when it was never registered. */
  agent(tenantId: string, agentId: string): Promise<AgentRecord | null>
  /** The agent the wallet was registered for (revoked or not), or null when it never was. */
  agentOfWallet(wallet: Address): Promise<WalletAgent | null>
  /** The agent's registration log (found from the block the contract records), or null when it was never registered. */
  registrationOf(tenantId: string, agentId: string): Promise<RegistrationLog | null>
  /** Whether transaction `txHash` registered this agent in this contract, and how. */
  registrationInTransaction(txHash: Hex, tenantId: string, agentId: string): Promise<RegistrationInTransaction>
}

export function createAgentRegistryChain(options: AgentRegistryOptions): AgentRegistryChain {
  if (!isAddress(options.contractAddress, { strict: false })) throw new TypeError(`contract address ${options.contractAddress} is not an address`)
  const contractAddress = getAddress(options.contractAddress)
  const transport = rpcTransport(options.rpcUrl, options.requestTimeoutMs)
  const publicClient = createPublicClient({ transport, pollingInterval: receiptPollingIntervalMs })
  const account = options.privateKey === undefined ? undefined : privateKeyToAccount(options.privateKey)
  const chain = memoizeChain(publicClient, options.rpcUrl)
  const contractDeployed = memoizeSuccess(async () => {
    // A call to an address without code succeeds and returns nothing, which a function that returns
    // nothing cannot tell from success: without this, a write would be mined as a plain transfer.
    const code = await publicClient.getCode({ address: contractAddress })
    if (code === undefined || code === '0x') throw new Error(`no contract at ${contractAddress}`)
  })
  const isThisContract = (address: Address) => address.toLowerCase() === contractAddress.toLowerCase()

  const read = (functionName: string, args: readonly unknown[]) => publicClient.readContract({ address: contractAddress, abi: registryAbi, functionName, args })

  /** Simulates, sends and waits for one write; its receipt must carry `eventName` from this contract. */
  async function write(functionName: string, args: readonly unknown[], eventName: string): Promise<RegistryTransaction> {
    if (account === undefined) throw new Error(`${functionName} needs the registrar private key; this client was created read-only`)
    await contractDeployed()
    const walletClient = createWalletClient({ account, chain: await chain(), transport })
    const { request } = await publicClient.simulateContract({ account, address: contractAddress, abi: registryAbi, functionName, args })
    const txHash = await walletClient.writeContract(request)
    const receipt = await publicClient.waitForTransactionReceipt({ hash: txHash, timeout: receiptWaitMsMax, pollingInterval: receiptPollingIntervalMs })
    if (receipt.status !== 'success') throw new Error(`${functionName} transaction ${txHash} reverted in block ${receipt.blockNumber}`)
    const logs = parseEventLogs({ abi: registryAbi, eventName, logs: receipt.logs }).filter((log) => isThisContract(log.address))
    if (logs.length !== 1) throw new Error(`${functionName} transaction ${txHash} carries ${logs.length} ${eventName} logs from ${contractAddress}, expected 1`)
    return { txHash, blockNumber: receipt.blockNumber }
  }

  async function agentRecord(tenantId: string, agentId: string): Promise<AgentRecord | null> {
    const result = await read('agentOf', [tenantKey(tenantId), agentKey(agentId)])
    if (!Array.isArray(result) || result.length !== 5) throw new Error('agentOf returned an unexpected shape')
    const [wallet, scopeHash, registeredBlock, registeredAt, revoked] = result as unknown[]
    const record: AgentRecord = {
      wallet: assertAddress(wallet, 'agentOf wallet'),
      scopeHash: assertBytes32(scopeHash, 'agentOf scopeHash'),
      registeredBlock: assertBigint(registeredBlock, 'agentOf registeredBlock'),
      registeredAt: assertBigint(registeredAt, 'agentOf registeredAt'),
      revoked: assertBoolean(revoked, 'agentOf revoked'),
    }
    return record.registeredBlock === 0n ? null : record
  }

  function registrationLogOf(log: { transactionHash: Hex | null; blockNumber: bigint | null; args: unknown }): RegistrationLog {
    if (log.transactionHash === null || log.blockNumber === null) throw new Error('AgentRegistered log of a pending block')
    const args = log.args as { wallet?: unknown; scopeHash?: unknown }
    return {
      txHash: log.transactionHash,
      blockNumber: log.blockNumber,
      wallet: assertAddress(args.wallet, 'AgentRegistered wallet'),
      scopeHash: assertBytes32(args.scopeHash, 'AgentRegistered scopeHash'),
    }
  }

  return {
    contractAddress,
    chainId: async () => (await chain()).id,

    async register(registration) {
      const args = [
        tenantKey(registration.tenantId),
        agentKey(registration.agentId),
        assertWallet(registration.wallet),
        assertScopeHash(registration.scopeHash),
      ]
      return write('register', args, 'AgentRegistered')
    },

    async updateScopeHash(tenantId, agentId, scopeHash) {
      return write('updateScopeHash', [tenantKey(tenantId), agentKey(agentId), assertScopeHash(scopeHash)], 'ScopeHashUpdated')
    },

    async revoke(tenantId, agentId) {
      return write('revoke', [tenantKey(tenantId), agentKey(agentId)], 'AgentRevoked')
    },

    agent: agentRecord,

    async agentOfWallet(wallet) {
      const result = await read('agentOfWallet', [assertWallet(wallet)])
      if (!Array.isArray(result) || result.length !== 2) throw new Error('agentOfWallet returned an unexpected shape')
      const [tenant, agent] = result as unknown[]
      const keys = { tenantKey: assertBytes32(tenant, 'agentOfWallet tenantId'), agentKey: assertBytes32(agent, 'agentOfWallet agentId') }
      if (keys.agentKey === zeroBytes32) return null
      return { ...keys, tenantId: tenantIdOfKey(keys.tenantKey) }
    },

    async registrationOf(tenantId, agentId) {
      const record = await agentRecord(tenantId, agentId)
      if (record === null) return null
      const logs = await publicClient.getContractEvents({
        address: contractAddress,
        abi: registryAbi,
        eventName: 'AgentRegistered',
        args: { tenantId: tenantKey(tenantId), agentId: agentKey(agentId) },
        fromBlock: record.registeredBlock,
        toBlock: record.registeredBlock,
      })
      const log = logs[0]
      if (log === undefined) throw new Error(`no AgentRegistered log in block ${record.registeredBlock} for a registered agent`)
      return registrationLogOf(log)
    },

    async registrationInTransaction(txHash, tenantId, agentId) {
      const hash = assertBytes32(txHash, 'transaction hash')
      const keys = { tenantId: tenantKey(tenantId), agentId: agentKey(agentId) }
      let receipt
      try {
        receipt = await publicClient.getTransactionReceipt({ hash })
      } catch (error) {
        if (error instanceof TransactionReceiptNotFoundError) return { found: false, reason: 'transaction_not_found' }
        throw error
      }
      if (receipt.status !== 'success') return { found: false, reason: 'transaction_reverted' }
      const log = parseEventLogs({ abi: registryAbi, eventName: 'AgentRegistered', logs: receipt.logs }).find((candidate) => {
        const args = candidate.args as { tenantId?: unknown; agentId?: unknown }
        return isThisContract(candidate.address) && args.tenantId === keys.tenantId && args.agentId === keys.agentId
      })
      return log === undefined ? { found: false, reason: 'no_registration' } : { found: true, registration: registrationLogOf(log) }
    },
  }
}

export interface DeployAgentRegistryOptions {
  readonly rpcUrl: string
  /** The deployer; it becomes the registrar unless `registrar` names another account. */
  readonly privateKey: Hex
  readonly registrar?: Address
  readonly requestTimeoutMs?: number
}

/** Deploys AgentRegistry and waits until it is mined. */
export async function deployAgentRegistry(options: DeployAgentRegistryOptions): Promise<{ address: Address; txHash: Hex }> {
  const transport = rpcTransport(options.rpcUrl, options.requestTimeoutMs)
  const publicClient = createPublicClient({ transport, pollingInterval: receiptPollingIntervalMs })
  const account = privateKeyToAccount(options.privateKey)
  const registrar = options.registrar === undefined ? account.address : assertWallet(options.registrar)
  const chain = await memoizeChain(publicClient, options.rpcUrl)()
  const walletClient = createWalletClient({ account, chain, transport })
  const txHash = await walletClient.deployContract({ abi: registryAbi, bytecode: registryBytecode, args: [registrar] })
  const receipt = await publicClient.waitForTransactionReceipt({ hash: txHash, timeout: receiptWaitMsMax, pollingInterval: receiptPollingIntervalMs })
  if (receipt.status !== 'success' || receipt.contractAddress === null || receipt.contractAddress === undefined) {
    throw new Error(`AgentRegistry deployment ${txHash} failed in block ${receipt.blockNumber}`)
  }
  return { address: getAddress(receipt.contractAddress), txHash }
}

function rpcTransport(rpcUrl: string, requestTimeoutMs: number | undefined): Transport {
  return http(rpcUrl, { retryCount: 0, timeout: requestTimeoutMs ?? requestTimeoutMsDefault })
}

/**
 * The chain object is built from the RPC's own chain id rather than a hard-coded one, so the same code
 * signs for anvil, a testnet or mainnet L2. A failed lookup is not cached: the next call tries again.
 */
function memoizeChain(publicClient: PublicClient, rpcUrl: string): () => Promise<Chain> {
  return memoizeSuccess(async () => {
    const id = await publicClient.getChainId()
    return defineChain({
      id,
      name: `chain ${id}`,
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [rpcUrl] } },
    })
  })
}

/** Runs `load` once it has succeeded; a failure is not kept, so the next call tries again. */
function memoizeSuccess<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined
  return () => {
    pending ??= load().catch((error: unknown) => {
      pending = undefined
      throw error
    })
    return pending
  }
}

function assertHex(value: unknown, label: string): Hex {
  if (typeof value !== 'string' || !/^0x(?:[0-9a-fA-F]{2})*$/.test(value)) throw new TypeError(`${label} is not hex`)
  return value as Hex
}

function assertBytes32(value: unknown, label: string): Hex {
  if (typeof value !== 'string' || !bytes32Expression.test(value)) throw new TypeError(`${label} must be a 0x-prefixed 32-byte hex string`)
  return value.toLowerCase() as Hex
}

/** The contract reverts on a zero hash; refusing it here says so before any RPC call. */
function assertScopeHash(value: unknown): Hex {
  const scopeHash = assertBytes32(value, 'scope hash')
  if (scopeHash === zeroBytes32) throw new TypeError('scope hash must not be zero')
  return scopeHash
}

function assertAddress(value: unknown, label: string): Address {
  if (typeof value !== 'string' || !isAddress(value, { strict: false })) throw new TypeError(`${label} is not an address`)
  return getAddress(value)
}

/** A wallet argument: an address, not zero (the contract refuses it), checksummed. */
function assertWallet(value: unknown): Address {
  const wallet = assertAddress(value, 'wallet')
  if (wallet === zeroAddress) throw new TypeError('wallet must not be the zero address')
  return wallet
}

function assertBoolean(value: unknown, label: string): boolean {
  if (typeof value !== 'boolean') throw new Error(`${label} returned ${typeof value}, expected a boolean`)
  return value
}

function assertBigint(value: unknown, label: string): bigint {
  if (typeof value !== 'bigint') throw new Error(`${label} returned ${typeof value}, expected a bigint`)
  return value
}
