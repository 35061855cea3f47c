/**
 * The AuditAnchor contract (contracts/AuditAnchor.sol) seen from TypeScript: the tenant key encoding, a
 * client that publishes batches of (tenant, Merkle root) pairs and answers the on-chain checks, and the
 * deployment used by tests and operators (docs/anchoring.md).
 *
 * RPC requests are never retried here (`retryCount: 0`): the anchoring job owns retries and backoff, and
 * resending a batch is safe because `anchorBatch` skips pairs that already landed.
 */
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  getAddress,
  http,
  isAddress,
  parseEventLogs,
  type Abi,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
  type Transport,
} from 'viem'
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import artifact from '../../../../contracts/artifacts/AuditAnchor.json' with { type: 'json' }
import { tenantKey } from '../../../kernel/chain-keys.ts'

/**
 * The contract's ABI, read from the committed build artifact so it cannot differ from the deployed code.
 * A JSON import cannot carry literal types, so it is a plain `Abi` and this module checks the shape of
 * every value it reads back.
 */
export const anchorAbi: Abi = artifact.abi as Abi
export const anchorBytecode: Hex = assertHex(artifact.bytecode, 'artifact bytecode')

/** The most pairs one publication carries: the contract's BATCH_PAIRS_MAX, which bounds a transaction's gas. */
export const anchorBatchPairsMax = 50

const requestTimeoutMsDefault = 10_000
/** L2 blocks come every few seconds; past this a publication is left to the job's retry, which is safe. */
const receiptWaitMsMax = 120_000
const receiptPollingIntervalMs = 500

const bytes32Expression = /^0x[0-9a-fA-F]{64}$/
const zeroBytes32 = `0x${'0'.repeat(64)}`

/** The tenant's on-chain key (kernel/chain-keys.ts), shared by every Steward contract. */
export { tenantKey }

export interface AnchorChainOptions {
  readonly rpcUrl: string
  readonly contractAddress: Address
  /** Only publishing needs it; a verifier reads without one. */
  readonly privateKey?: Hex
  readonly requestTimeoutMs?: number
}

export interface AnchorPair {
  readonly tenantId: string
  readonly root: Hex
}

export interface Publication {
  readonly txHash: Hex
  readonly blockNumber: bigint
  /** How many pairs were new; pairs published before are skipped by the contract. */
  readonly published: number
}

export interface LatestAnchor {
  readonly root: Hex
  readonly blockNumber: bigint
  readonly timestamp: bigint
  readonly sequence: bigint
}

export interface AnchorChain {
  /** The RPC's chain id, fetched once. */
  chainId(): Promise<number>
  readonly contractAddress: Address
  /** Sends one `anchorBatch` transaction for 1..anchorBatchPairsMax pairs and waits for its receipt. */
  publish(pairs: readonly AnchorPair[]): Promise<Publication>
  isPublished(tenantId: string, root: Hex): Promise<boolean>
  /** The block the pair was published in, or null when it was not. */
  publishedBlock(tenantId: string, root: Hex): Promise<bigint | null>
  /** The transaction and block that published the pair (from its Anchored log), or null when it was not. */
  findPublication(tenantId: string, root: Hex): Promise<{ txHash: Hex; blockNumber: bigint } | null>
  /** The tenant's most recent anchor, or null when it has none. */
  latestAnchor(tenantId: string): Promise<LatestAnchor | null>
  /** The contract's pure sorted-pair keccak256 proof check; says nothing about publication. */
  verifyInclusion(root: Hex, leaf: Hex, proof: readonly Hex[]): Promise<boolean>
}

export function createAnchorChain(options: AnchorChainOptions): AnchorChain {
  if (!isAddress(options.contractAddress, { strict: false })) throw new TypeError(`contract address ${options.contractAddress} is not an address`)
  const contractAddress = getAddress(options.contractAddress)
  const transport = rpcTransport(options.rpcUrl, options.requestTimeoutMs)
  const publicClient = createPublicClient({ transport, pollingInterval: receiptPollingIntervalMs })
  const account = options.privateKey === undefined ? undefined : privateKeyToAccount(options.privateKey)
  const chain = memoizeChain(publicClient, options.rpcUrl)

  const read = (functionName: string, args: readonly unknown[]) => publicClient.readContract({ address: contractAddress, abi: anchorAbi, functionName, args })

  return {
    contractAddress,
    chainId: async () => (await chain()).id,

    async publish(pairs) {
      if (pairs.length === 0) throw new RangeError('publish needs at least one (tenant, root) pair')
      if (pairs.length > anchorBatchPairsMax) throw new RangeError(`publish takes at most ${anchorBatchPairsMax} pairs, got ${pairs.length}`)
      if (account === undefined) throw new Error('publishing needs the anchor private key; this client was created read-only')
      const tenantIds = pairs.map((pair) => tenantKey(pair.tenantId))
      const roots = pairs.map((pair) => assertRoot(pair.root))
      const walletClient = createWalletClient({ account, chain: await chain(), transport })
      // Simulating first turns a revert into a decoded custom error before anything is signed, and an
      // address without the contract into an error instead of a successful transfer to nowhere.
      const { request } = await publicClient.simulateContract({
        account,
        address: contractAddress,
        abi: anchorAbi,
        functionName: 'anchorBatch',
        args: [tenantIds, roots],
      })
      const txHash = await walletClient.writeContract(request)
      const receipt = await publicClient.waitForTransactionReceipt({ hash: txHash, timeout: receiptWaitMsMax, pollingInterval: receiptPollingIntervalMs })
      if (receipt.status !== 'success') throw new Error(`anchorBatch transaction ${txHash} reverted in block ${receipt.blockNumber}`)
      const anchored = parseEventLogs({ abi: anchorAbi, eventName: 'Anchored', logs: receipt.logs }).filter(
        (log) => log.address.toLowerCase() === contractAddress.toLowerCase(),
      )
      return { txHash, blockNumber: receipt.blockNumber, published: anchored.length }
    },

    async isPublished(tenantId, root) {
      return assertBoolean(await read('isPublished', [tenantKey(tenantId), assertBytes32(root, 'root')]), 'isPublished')
    },

    async publishedBlock(tenantId, root) {
      const blockNumber = assertBigint(await read('publishedBlock', [tenantKey(tenantId), assertBytes32(root, 'root')]), 'publishedBlock')
      return blockNumber === 0n ? null : blockNumber
    },

    async findPublication(tenantId, root) {
      const blockNumber = assertBigint(await read('publishedBlock', [tenantKey(tenantId), assertBytes32(root, 'root')]), 'publishedBlock')
      if (blockNumber === 0n) return null
      const logs = await publicClient.getContractEvents({
        address: contractAddress,
        abi: anchorAbi,
        eventName: 'Anchored',
        args: { tenantId: tenantKey(tenantId), root: assertBytes32(root, 'root') },
        fromBlock: blockNumber,
        toBlock: blockNumber,
      })
      const log = logs[0]
      if (log === undefined || log.transactionHash === null) throw new Error(`no Anchored log in block ${blockNumber} for a published pair`)
      return { txHash: log.transactionHash, blockNumber }
    },

    async latestAnchor(tenantId) {
      const result = await read('latestAnchor', [tenantKey(tenantId)])
      if (!Array.isArray(result) || result.length !== 4) throw new Error('latestAnchor returned an unexpected shape')
      const [root, blockNumber, timestamp, sequence] = result as unknown[]
      const latest = {
        root: assertBytes32(root, 'latestAnchor root'),
        blockNumber: assertBigint(blockNumber, 'latestAnchor blockNumber'),
        timestamp: assertBigint(timestamp, 'latestAnchor timestamp'),
        sequence: assertBigint(sequence, 'latestAnchor sequence'),
      }
      return latest.sequence === 0n ? null : latest
    },

    async verifyInclusion(root, leaf, proof) {
      const proofElements = proof.map((element, index) => assertBytes32(element, `proof[${index}]`))
      return assertBoolean(await read('verifyInclusion', [assertBytes32(root, 'root'), assertBytes32(leaf, 'leaf'), proofElements]), 'verifyInclusion')
    },
  }
}

export interface DeployAnchorOptions {
  readonly rpcUrl: string
  /** The deployer, which becomes the contract's publisher. */
  readonly privateKey: Hex
  readonly requestTimeoutMs?: number
}

/** Deploys AuditAnchor with the deploying account as publisher and waits until it is mined. */
export async function deployAnchorContract(options: DeployAnchorOptions): Promise<{ address: Address; txHash: Hex }> {
  const transport = rpcTransport(options.rpcUrl, options.requestTimeoutMs)
  const publicClient = createPublicClient({ transport, pollingInterval: receiptPollingIntervalMs })
  const account: PrivateKeyAccount = privateKeyToAccount(options.privateKey)
  const chain = await memoizeChain(publicClient, options.rpcUrl)()
  const walletClient = createWalletClient({ account, chain, transport })
  const txHash = await walletClient.deployContract({ abi: anchorAbi, bytecode: anchorBytecode, args: [account.address] })
  const receipt = await publicClient.waitForTransactionReceipt({ hash: txHash, timeout: receiptWaitMsMax, pollingInterval: receiptPollingIntervalMs })
  if (receipt.status !== 'success' || receipt.contractAddress === null || receipt.contractAddress === undefined) {
    throw new Error(`AuditAnchor deployment ${txHash} failed in block ${receipt.blockNumber}`)
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
  let pending: Promise<Chain> | undefined
  return () => {
    pending ??= publicClient.getChainId().then(
      (id) =>
        defineChain({
          id,
          name: `chain ${id}`,
          nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
          rpcUrls: { default: { http: [rpcUrl] } },
        }),
      (error: unknown) => {
        pending = undefined
        throw error
      },
    )
    return pending
  }
}

function assertHex(value: unknown, label: string): Hex {
  if (typeof value !== 'string' || !/^0x(?:[0-9a-fA-F]{2})*$/.test(value)) throw new TypeError(`${label} is not hex`)
  return value as Hex
}

function assertBytes32(value: unknown, label: string): Hex {
  if (typeof value !== 'string' || !bytes32Expression.test(value)) throw new TypeError(`${label} must be a 0x-prefixed 32-byte hex string`)
  return value as Hex
}

/** The contract reverts on a zero root; refusing it here names the pair before any RPC call. */
function assertRoot(value: unknown): Hex {
  const root = assertBytes32(value, 'root')
  if (root === zeroBytes32) throw new TypeError('root must not be zero')
  return root
}

function assertBoolean(value: unknown, label: string): boolean {
  if (typeof value !== 'boolean') throw new Error(`${label} returned ${typeof value}, expected a boolean`)
  return value
}

function assertBigint(value: unknown, label: string): bigint {
  if (typeof value !== 'bigint') throw new Error(`${label} returned ${typeof value}, expected a bigint`)
  return value
}
