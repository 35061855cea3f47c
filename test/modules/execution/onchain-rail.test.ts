/**
 * The onchain_base rail against a real local chain (anvil): every payment below is a real transaction of
 * the committed SmartAccount and TestUSDC artifacts, and every claim is checked on the chain itself
 * (balances, the session key's transaction count, the receipt and logs of the block), not on what the
 * adapter says. No database is involved: submissions live in the in-memory store, and a "process" is an
 * adapter instance (a restart is a new adapter over the same store).
 *
 * Each test deploys its own account and generates its own session key and recipient, so no test depends
 * on another's state; only the chain's clock is shared, and every expiry is read from the latest block.
 */
import { readFileSync } from 'node:fs'
import { createServer as createHttpServer } from 'node:http'
import { createServer } from 'node:net'
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  getAddress,
  http,
  parseAbiItem,
  parseEther,
  toFunctionSelector,
  type Abi,
  type Address,
  type Chain,
  type Hex,
  type TransactionReceipt,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import solc from 'solc'
import { artifactPathOf, compilerSettings, type ContractArtifact } from '../../../scripts/compile-contracts.ts'
import { fromMinorUnits } from '../../../src/kernel/money.ts'
import type { RailAnswer } from '../../../src/modules/execution/domain/executions.ts'
import {
  createMemoryOnchainSubmissions,
  createOnchainRail,
  sessionKeyValidity,
  type OnchainDirectory,
  type OnchainPayment,
  type OnchainSubmissions,
} from '../../../src/modules/execution/onchain-rail.ts'
import type { RailAdapter, RailRequest } from '../../../src/modules/execution/rails.ts'
import { startAnvil, type Anvil } from '../../support/anvil.ts'

const day = 86_400n
/** TestUSDC has 6 decimals. */
const usdc = (dollars: bigint): bigint => dollars * 1_000_000n
const accountFunding = usdc(1_000n)
/** What the rail is configured with unless a test says otherwise. */
const marginSeconds = 60
const receiptTimeoutMs = 10_000
/** anvil's `finalized` block is 64 blocks behind its latest. */
const anvilFinalityBlocks = 64

const readArtifact = (name: 'SmartAccount' | 'TestUSDC') => JSON.parse(readFileSync(artifactPathOf(name), 'utf8')) as ContractArtifact
const accountArtifact = readArtifact('SmartAccount')
const usdcArtifact = readArtifact('TestUSDC')
const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)')
const executeSelector = toFunctionSelector('function execute(address token, address to, uint256 amount)')

let anvil: Anvil
let chain: Chain
let publicClient: ReturnType<typeof createPublicClient>
let testClient: ReturnType<typeof createTestClient>
let ownerKey: Hex
let token: Address

beforeAll(async () => {
  anvil = await startAnvil()
  const [first] = anvil.privateKeys
  if (first === undefined) throw new Error('anvil gave no dev key')
  ownerKey = first
  chain = defineChain({ id: anvil.chainId, name: 'anvil', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [anvil.rpcUrl] } } })
  publicClient = createPublicClient({ chain, transport: http(anvil.rpcUrl, { retryCount: 0 }) })
  testClient = createTestClient({ chain, mode: 'anvil', transport: http(anvil.rpcUrl, { retryCount: 0 }) })
  token = await deploy(usdcArtifact, [])
})

afterAll(async () => {
  await anvil?.stop()
})

const owner = () => createWalletClient({ account: privateKeyToAccount(ownerKey), chain, transport: http(anvil.rpcUrl, { retryCount: 0 }) })

async function deploy(artifact: ContractArtifact, args: readonly unknown[]): Promise<Address> {
  const hash = await owner().deployContract({ abi: artifact.abi as Abi, bytecode: artifact.bytecode, args })
  const receipt = await publicClient.waitForTransactionReceipt({ hash })
  if (receipt.status !== 'success' || receipt.contractAddress === null || receipt.contractAddress === undefined) throw new Error(`deployment ${hash} failed`)
  return getAddress(receipt.contractAddress)
}

async function ownerSends(address: Address, abi: unknown[], functionName: string, args: readonly unknown[]): Promise<TransactionReceipt> {
  const hash = await owner().writeContract({ address, abi: abi as Abi, functionName, args, chain, account: privateKeyToAccount(ownerKey) })
  const receipt = await publicClient.waitForTransactionReceipt({ hash })
  if (receipt.status !== 'success') throw new Error(`${functionName} ${hash} reverted`)
  return receipt
}

const mint = (tokenAddress: Address, to: Address, amount: bigint) => ownerSends(tokenAddress, usdcArtifact.abi, 'mint', [to, amount])

async function balanceOf(tokenAddress: Address, holder: Address): Promise<bigint> {
  return (await publicClient.readContract({ address: tokenAddress, abi: usdcArtifact.abi as Abi, functionName: 'balanceOf', args: [holder] })) as bigint
}

async function latestTimestamp(): Promise<bigint> {
  return (await publicClient.getBlock({ blockTag: 'latest' })).timestamp
}

/** How many transactions the key has had mined: the only way it can move money is by sending one. */
const sentBy = (address: Address) => publicClient.getTransactionCount({ address, blockTag: 'latest' })

let requestCounter = 0

interface Scenario {
  readonly smartAccount: Address
  readonly sessionKey: { readonly privateKey: Hex; readonly address: Address }
  readonly recipient: Address
  readonly payment: OnchainPayment
  readonly request: RailRequest
  /** The account's and the recipient's balances of `token`. */
  balances(): Promise<{ account: bigint; recipient: bigint }>
}

/**
 * A fresh SmartAccount holding `accountFunding`, a fresh session key (with ether for gas unless told
 * otherwise) allowed `cap` of `token` until `expiry`, a fresh recipient, and a request for `amount`.
 */
async function scenario(settings: { cap?: bigint; amount?: bigint; expiresInSeconds?: bigint; keyEther?: bigint; paymentToken?: Address; addKey?: boolean } = {}): Promise<Scenario> {
  const smartAccount = await deploy(accountArtifact, [privateKeyToAccount(ownerKey).address])
  await mint(token, smartAccount, accountFunding)
  const privateKey = generatePrivateKey()
  const sessionKey = { privateKey, address: privateKeyToAccount(privateKey).address }
  await testClient.setBalance({ address: sessionKey.address, value: settings.keyEther ?? parseEther('1') })
  if (settings.addKey ?? true) {
    const expiry = (await latestTimestamp()) + (settings.expiresInSeconds ?? day)
    await ownerSends(smartAccount, accountArtifact.abi, 'addSessionKey', [sessionKey.address, token, settings.cap ?? usdc(500n), expiry])
  }
  const recipient = privateKeyToAccount(generatePrivateKey()).address
  const amount = settings.amount ?? usdc(25n)
  const paymentToken = settings.paymentToken ?? token
  return {
    smartAccount,
    sessionKey,
    recipient,
    payment: { smartAccount, token: paymentToken, to: recipient, amountBaseUnits: amount, sessionKey: privateKey },
    request: newRequest(amount),
    balances: async () => ({ account: await balanceOf(paymentToken, smartAccount), recipient: await balanceOf(paymentToken, recipient) }),
  }
}

function newRequest(amountBaseUnits: bigint): RailRequest {
  requestCounter += 1
  return {
    tenantId: '00000000-0000-4000-8000-000000000001',
    paymentIntentId: `pi_${requestCounter}`,
    outboxId: `obx_${requestCounter}`,
    idempotencyKey: `idem_${requestCounter}_${Date.now()}`,
    actionType: 'onchain_transfer',
    amount: fromMinorUnits(amountBaseUnits, 'USDC'),
    currency: 'USDC',
    sourceAccountId: 'acc_1',
    destinationCounterpartyId: 'cp_1',
  }
}

/** A directory that knows the payments registered with it by payment intent id, and counts its lookups. */
function directoryOf(...scenarios: readonly { request: RailRequest; payment: OnchainPayment }[]): OnchainDirectory & { lookups: number } {
  const byIntent = new Map(scenarios.map((entry) => [entry.request.paymentIntentId, entry.payment]))
  const directory = {
    lookups: 0,
    async paymentOf(request: RailRequest) {
      directory.lookups += 1
      return byIntent.get(request.paymentIntentId) ?? { refused: { code: 'onchain_account_unknown', reason: `no smart account for ${request.sourceAccountId}` } }
    },
  }
  return directory
}

function railWith(settings: { directory: OnchainDirectory; submissions?: OnchainSubmissions; rpcUrl?: string; chainId?: number; receiptTimeoutMs?: number; expiryMarginSeconds?: number }): RailAdapter {
  return createOnchainRail({
    rpcUrl: settings.rpcUrl ?? anvil.rpcUrl,
    chainId: settings.chainId ?? anvil.chainId,
    directory: settings.directory,
    submissions: settings.submissions ?? createMemoryOnchainSubmissions(),
    receiptTimeoutMs: settings.receiptTimeoutMs ?? receiptTimeoutMs,
    expiryMarginSeconds: settings.expiryMarginSeconds ?? marginSeconds,
  })
}

/** A store that keeps the record and then fails, as a process that dies right after the insert commits. */
function crashingAfterInsert(store: OnchainSubmissions): OnchainSubmissions {
  return {
    find: (tenantId, key) => store.find(tenantId, key),
    insert: async (record) => {
      await store.insert(record)
      throw new Error('process died after storing the transaction')
    },
  }
}

function completedReceipt(answer: RailAnswer | undefined): Record<string, unknown> {
  if (answer?.kind !== 'completed') throw new Error(`expected a completed answer, got ${JSON.stringify(answer)}`)
  return answer.receipt as Record<string, unknown>
}

async function nodeKnows(hash: Hex): Promise<boolean> {
  try {
    await publicClient.getTransaction({ hash })
    return true
  } catch {
    return false
  }
}

async function closedPortUrl(): Promise<string> {
  const port = await new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
  return `http://127.0.0.1:${port}`
}

/**
 * A fee-taking token, compiled with the build's settings: `transfer` keeps one base unit of every
 * transfer and logs (truthfully) the Transfer of what the recipient got, which is not what was paid.
 */
function compileFeeToken(): ContractArtifact {
  const source = `// SPDX-License-Identifier: UNLICENSED
pragma solidity ^0.8.24;

contract FeeToken {
    mapping(address => uint256) public balanceOf;

    event Transfer(address indexed from, address indexed to, uint256 value);

    function mint(address to, uint256 amount) external {
        balanceOf[to] += amount;
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        balanceOf[msg.sender] -= amount;
        balanceOf[to] += amount - 1;
        emit Transfer(msg.sender, to, amount - 1);
        return true;
    }
}
`
  const sourceUnitName = 'test/fee-token.sol'
  const input = { language: 'Solidity', sources: { [sourceUnitName]: { content: source } }, settings: { ...compilerSettings, outputSelection: { [sourceUnitName]: { FeeToken: ['abi', 'evm.bytecode.object'] } } } }
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[]
    contracts?: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>
  }
  const errors = (output.errors ?? []).filter((message) => message.severity === 'error')
  const compiled = output.contracts?.[sourceUnitName]?.FeeToken
  if (errors.length > 0 || compiled === undefined) throw new Error(`FeeToken did not compile: ${errors.map((error) => error.formattedMessage).join('\n')}`)
  return { ...usdcArtifact, contractName: 'FeeToken', abi: compiled.abi, bytecode: `0x${compiled.evm.bytecode.object}` }
}

/**
 * An RPC in front of anvil that forwards every request, except what a test tells it to refuse: a broadcast
 * (`eth_sendRawTransaction`), or an `eth_call` of the account's `execute` (the simulation) answered as a
 * node's internal error (-32603), which viem reports as a revert without data.
 */
async function startRpcProxy(): Promise<{ url: string; refuse: { broadcasts: boolean; executeCalls: boolean }; stop(): Promise<void> }> {
  const refuse = { broadcasts: false, executeCalls: false }
  const server = createHttpServer((incoming, outgoing) => {
    let body = ''
    incoming.setEncoding('utf8').on('data', (chunk: string) => (body += chunk))
    incoming.on('end', () => {
      const request = JSON.parse(body) as { id: number; method: string; params: unknown }
      const answer = (payload: unknown) => outgoing.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(payload))
      if (refuse.broadcasts && request.method === 'eth_sendRawTransaction') return answer({ jsonrpc: '2.0', id: request.id, error: { code: -32000, message: 'the proxy refuses broadcasts' } })
      if (refuse.executeCalls && request.method === 'eth_call' && JSON.stringify(request.params).includes(executeSelector.slice(2))) {
        return answer({ jsonrpc: '2.0', id: request.id, error: { code: -32603, message: 'internal error' } })
      }
      fetch(anvil.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        .then(async (response) => outgoing.writeHead(response.status, { 'content-type': 'application/json' }).end(await response.text()))
        .catch((error: unknown) => outgoing.writeHead(502).end(String(error)))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (typeof address !== 'object' || address === null) throw new Error('proxy has no port')
  return { url: `http://127.0.0.1:${address.port}`, refuse, stop: () => new Promise((resolve) => server.close(() => resolve())) }
}

/** Asks `status` as the worker does until it is no longer transient (anvil mines a broadcast a moment later). */
async function settledStatus(rail: RailAdapter, request: RailRequest): Promise<RailAnswer | undefined> {
  for (let attempt = 1; attempt <= 20; attempt += 1) {
    const answer = await rail.status(request)
    if (answer?.kind !== 'transient') return answer
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return rail.status(request)
}

/** Runs `work` with anvil mining only when told to (`evm_mine`), and restores automine afterwards. */
async function withoutAutomine<T>(work: () => Promise<T>): Promise<T> {
  await testClient.setAutomine(false)
  try {
    return await work()
  } finally {
    await testClient.setAutomine(true)
  }
}

async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('onchain_base rail: a payment', () => {
  it('moves exactly the amount, and the receipt is the chain\'s: tx hash, block, and the Transfer log\'s index', async () => {
    const s = await scenario({ amount: usdc(25n) })
    const submissions = createMemoryOnchainSubmissions()
    const rail = railWith({ directory: directoryOf(s), submissions })
    expect(rail.rail).toBe('onchain_base')

    const answer = await rail.submit(s.request)
    const receipt = completedReceipt(answer)
    expect(await s.balances()).toEqual({ account: accountFunding - usdc(25n), recipient: usdc(25n) })
    expect(await sentBy(s.sessionKey.address)).toBe(1)

    const [stored] = submissions.all()
    expect(submissions.all()).toHaveLength(1)
    expect(stored).toMatchObject({ tenantId: s.request.tenantId, idempotencyKey: s.request.idempotencyKey, from: s.sessionKey.address, nonce: 0 })
    const chainReceipt = await publicClient.getTransactionReceipt({ hash: stored!.hash })
    expect(chainReceipt.status).toBe('success')
    expect(chainReceipt.from.toLowerCase()).toBe(s.sessionKey.address.toLowerCase())
    // The Transfer log as the chain indexes it: by token, in the block, for this transaction.
    const transferLogs = await publicClient.getLogs({ address: token, event: transferEvent, blockHash: chainReceipt.blockHash })
    const transfer = transferLogs.filter((log) => log.transactionHash === chainReceipt.transactionHash)
    expect(transfer).toHaveLength(1)
    expect(transfer[0]!.args).toEqual({ from: s.smartAccount, to: s.recipient, value: usdc(25n) })

    expect(receipt).toEqual({
      type: 'onchain',
      chain_id: anvil.chainId,
      tx_hash: chainReceipt.transactionHash.toLowerCase(),
      block_number: Number(chainReceipt.blockNumber),
      block_hash: chainReceipt.blockHash.toLowerCase(),
      log_index: transfer[0]!.logIndex,
      from: s.sessionKey.address.toLowerCase(),
      smart_account: s.smartAccount.toLowerCase(),
      token: token.toLowerCase(),
      to: s.recipient.toLowerCase(),
      amount_base_units: '25000000',
    })
    // The account's Executed log comes first, so the Transfer is not the transaction's first log.
    expect(receipt.log_index).toBe(chainReceipt.logs[1]!.logIndex)
    expect(chainReceipt.logs[0]!.address.toLowerCase()).toBe(s.smartAccount.toLowerCase())
  })

  it('answers a second submit of the key with the same receipt, moving nothing and asking the directory nothing', async () => {
    const s = await scenario()
    const directory = directoryOf(s)
    const rail = railWith({ directory })
    const first = completedReceipt(await rail.submit(s.request))
    const after = await s.balances()
    expect(directory.lookups).toBe(1)

    const second = await rail.submit(s.request)
    expect(second).toEqual({ kind: 'completed', receipt: first })
    expect(await s.balances()).toEqual(after)
    expect(after.recipient).toBe(s.payment.amountBaseUnits)
    expect(await sentBy(s.sessionKey.address)).toBe(1)
    expect(directory.lookups).toBe(1)
  })

  it('knows nothing of a key before its submit (status undefined), and answers completed after', async () => {
    const s = await scenario()
    const rail = railWith({ directory: directoryOf(s) })
    expect(await rail.status(s.request)).toBeUndefined()
    expect(await sentBy(s.sessionKey.address)).toBe(0)
    const submitted = completedReceipt(await rail.submit(s.request))
    expect(await rail.status(s.request)).toEqual({ kind: 'completed', receipt: submitted })
    expect(await sentBy(s.sessionKey.address)).toBe(1)
  })

  it('pays several keys of one session key at once with consecutive nonces (submits are serialized per key)', async () => {
    const s = await scenario({ amount: usdc(10n) })
    const others = [newRequest(usdc(10n)), newRequest(usdc(10n))].map((request) => ({ request, payment: s.payment }))
    const submissions = createMemoryOnchainSubmissions()
    // A store round trip of 200 ms, so three unserialized submits would all read the node's pending nonce before any stored its transaction.
    const slowStore: OnchainSubmissions = {
      find: (tenantId, key) => submissions.find(tenantId, key),
      insert: async (record) => {
        await new Promise((resolve) => setTimeout(resolve, 200))
        return submissions.insert(record)
      },
    }
    const rail = railWith({ directory: directoryOf(s, ...others), submissions: slowStore, receiptTimeoutMs: 2_000 })
    const answers = await Promise.all([s.request, ...others.map((other) => other.request)].map((request) => rail.submit(request)))
    expect(answers.map((answer) => answer.kind)).toEqual(['completed', 'completed', 'completed'])
    expect(submissions.all().map((submission) => submission.nonce).sort()).toEqual([0, 1, 2])
    expect(new Set(answers.map((answer) => completedReceipt(answer).tx_hash)).size).toBe(3)
    expect(await s.balances()).toEqual({ account: accountFunding - usdc(30n), recipient: usdc(30n) })
    expect(await sentBy(s.sessionKey.address)).toBe(3)
  })
})

describe('onchain_base rail: refusals before anything is signed', () => {
  /** Each case sets up a scenario the rail must refuse, and the margin the rail and the check use. */
  const cases: readonly { name: string; code: string; setup: () => Promise<Scenario>; margin?: number }[] = [
    {
      name: 'an expired key',
      code: 'onchain_session_key_expired',
      setup: async () => {
        const s = await scenario({ expiresInSeconds: 120n })
        await testClient.increaseTime({ seconds: 300 })
        await testClient.mine({ blocks: 1 })
        return s
      },
    },
    { name: 'a key expiring within the margin', code: 'onchain_session_key_expiring', setup: () => scenario({ expiresInSeconds: 30n }), margin: 60 },
    { name: 'an amount over the cap', code: 'onchain_spend_cap_exceeded', setup: () => scenario({ cap: usdc(100n), amount: usdc(100n) + 1n }) },
    {
      name: 'another token than the key\'s',
      code: 'onchain_token_not_allowed',
      setup: async () => {
        const otherToken = await deploy(usdcArtifact, [])
        const s = await scenario({ paymentToken: otherToken })
        await mint(otherToken, s.smartAccount, usdc(100n))
        return s
      },
    },
    {
      name: 'a revoked key',
      code: 'onchain_session_key_revoked',
      setup: async () => {
        const s = await scenario()
        await ownerSends(s.smartAccount, accountArtifact.abi, 'revokeSessionKey', [s.sessionKey.address])
        return s
      },
    },
    { name: 'a key never added', code: 'onchain_session_key_unknown', setup: () => scenario({ addKey: false }) },
    { name: 'an uncovered amount (the token refuses)', code: 'onchain_insufficient_balance', setup: () => scenario({ cap: usdc(5_000n), amount: accountFunding + 1n }) },
  ]

  it.each(cases)('refuses $name with $code, moves nothing, stores nothing; sessionKeyValidity agrees', async ({ code, setup, margin }) => {
    const s = await setup()
    const before = await s.balances()
    const rail = railWith({ directory: directoryOf(s), expiryMarginSeconds: margin ?? marginSeconds })
    const answer = await rail.submit(s.request)
    expect(answer).toMatchObject({ kind: 'failed', code })
    // Deterministic: asked again, the same refusal.
    expect(await rail.submit(s.request)).toEqual(answer)
    expect(await s.balances()).toEqual(before)
    expect(await sentBy(s.sessionKey.address)).toBe(0)
    expect(await rail.status(s.request)).toBeUndefined()

    const validity = await sessionKeyValidity({
      rpcUrl: anvil.rpcUrl,
      chainId: anvil.chainId,
      smartAccount: s.smartAccount,
      sessionKeyAddress: s.sessionKey.address,
      token: s.payment.token,
      amountBaseUnits: s.payment.amountBaseUnits,
      expiryMarginSeconds: margin ?? marginSeconds,
    })
    if (code === 'onchain_insufficient_balance') {
      // The balance is the token's business, not the key's: the key itself is valid for this amount.
      expect(validity.valid).toBe(true)
    } else {
      expect(validity).toMatchObject({ valid: false, code })
    }
  })

  it('the margin is what refuses a key close to its expiry: without it the same key is valid', async () => {
    const s = await scenario({ expiresInSeconds: 30n })
    const check = { rpcUrl: anvil.rpcUrl, chainId: anvil.chainId, smartAccount: s.smartAccount, sessionKeyAddress: s.sessionKey.address, token, amountBaseUnits: s.payment.amountBaseUnits }
    expect(await sessionKeyValidity({ ...check, expiryMarginSeconds: 60 })).toMatchObject({ valid: false, code: 'onchain_session_key_expiring' })
    expect(await sessionKeyValidity({ ...check, expiryMarginSeconds: 0 })).toMatchObject({ valid: true })
    expect(await sessionKeyValidity({ ...check, expiryMarginSeconds: 0, amountBaseUnits: usdc(501n) })).toMatchObject({ valid: false, code: 'onchain_spend_cap_exceeded' })
    const rail = railWith({ directory: directoryOf(s), expiryMarginSeconds: 0 })
    completedReceipt(await rail.submit(s.request))
    expect((await s.balances()).recipient).toBe(s.payment.amountBaseUnits)
  })

  it('refuses a key without ether for gas, and a payment the directory refuses, storing nothing', async () => {
    const s = await scenario({ keyEther: 0n })
    const rail = railWith({ directory: directoryOf(s) })
    expect(await rail.submit(s.request)).toMatchObject({ kind: 'failed', code: 'onchain_gas_funds_insufficient' })
    expect(await rail.status(s.request)).toBeUndefined()

    const unknown = newRequest(usdc(1n))
    expect(await rail.submit(unknown)).toEqual({ kind: 'failed', code: 'onchain_account_unknown', reason: 'no smart account for acc_1' })
    expect(await rail.status(unknown)).toBeUndefined()
    expect(await s.balances()).toEqual({ account: accountFunding, recipient: 0n })
  })
})

describe('onchain_base rail: what the chain says after the broadcast', () => {
  it('answers failed when the transaction is mined and reverts (the key expired between the check and the block)', async () => {
    const s = await scenario({ expiresInSeconds: 1_000n })
    const submissions = createMemoryOnchainSubmissions()
    const rail = railWith({ directory: directoryOf(s), submissions, expiryMarginSeconds: 0 })
    const answer = await withoutAutomine(async () => {
      const pending = rail.submit(s.request)
      await until(async () => {
        const stored = await submissions.find(s.request.tenantId, s.request.idempotencyKey)
        return stored !== undefined && (await nodeKnows(stored.hash))
      }, 'the transaction is in the pool')
      // The block that includes it is stamped with the key's expiry, read from the chain.
      const settings = (await publicClient.readContract({ address: s.smartAccount, abi: accountArtifact.abi as Abi, functionName: 'sessionKey', args: [s.sessionKey.address] })) as readonly unknown[]
      await testClient.setNextBlockTimestamp({ timestamp: settings[3] as bigint })
      await testClient.mine({ blocks: 1 })
      return pending
    })
    expect(answer).toMatchObject({ kind: 'failed', code: 'onchain_transfer_reverted' })
    const stored = submissions.all()[0]!
    expect((await publicClient.getTransactionReceipt({ hash: stored.hash })).status).toBe('reverted')
    expect(await sentBy(s.sessionKey.address)).toBe(1)
    expect(await s.balances()).toEqual({ account: accountFunding, recipient: 0n })
    expect(await rail.status(s.request)).toEqual(answer)
  })

  it('answers transient when no receipt comes in time, then completed once mined, having moved the money once', async () => {
    const s = await scenario()
    const submissions = createMemoryOnchainSubmissions()
    const rail = railWith({ directory: directoryOf(s), submissions, receiptTimeoutMs: 300 })
    await withoutAutomine(async () => {
      expect(await rail.submit(s.request)).toMatchObject({ kind: 'transient', reason: expect.stringContaining('not mined yet') })
      // Status rebroadcasts the same bytes: the node already has them, which is not an error.
      expect(await rail.status(s.request)).toMatchObject({ kind: 'transient' })
      expect(await rail.submit(s.request)).toMatchObject({ kind: 'transient' })
      expect(submissions.all()).toHaveLength(1)
      expect(await nodeKnows(submissions.all()[0]!.hash)).toBe(true)
      expect(await s.balances()).toEqual({ account: accountFunding, recipient: 0n })
      await testClient.mine({ blocks: 1 })
    })
    const receipt = completedReceipt(await rail.status(s.request))
    expect(receipt.tx_hash).toBe(submissions.all()[0]!.hash.toLowerCase())
    expect(await rail.submit(s.request)).toEqual({ kind: 'completed', receipt })
    expect(await s.balances()).toEqual({ account: accountFunding - s.payment.amountBaseUnits, recipient: s.payment.amountBaseUnits })
    expect(await sentBy(s.sessionKey.address)).toBe(1)
  })

  it('answers transient, never completed, when the transaction succeeded but logged no Transfer of the payment; and pays once', async () => {
    const feeToken = await deploy(compileFeeToken(), [])
    const s = await scenario({ addKey: false, paymentToken: feeToken })
    await mint(feeToken, s.smartAccount, accountFunding)
    await ownerSends(s.smartAccount, accountArtifact.abi, 'addSessionKey', [s.sessionKey.address, feeToken, usdc(500n), (await latestTimestamp()) + day])
    const rail = railWith({ directory: directoryOf(s) })
    const answer = await rail.submit(s.request)
    expect(answer).toMatchObject({ kind: 'transient', reason: expect.stringContaining('logged no Transfer') })
    // Money did move, though not as paid: the worker parks the intent for a person instead of guessing.
    const moved = { account: accountFunding - s.payment.amountBaseUnits, recipient: s.payment.amountBaseUnits - 1n }
    expect(await s.balances()).toEqual(moved)
    expect(await rail.submit(s.request)).toEqual(answer)
    expect(await rail.status(s.request)).toEqual(answer)
    expect(await s.balances()).toEqual(moved)
    expect(await sentBy(s.sessionKey.address)).toBe(1)
  })

  it('answers transient when the RPC cannot be reached or serves another chain, and stores nothing new', async () => {
    const s = await scenario()
    const submissions = createMemoryOnchainSubmissions()
    const down = railWith({ directory: directoryOf(s), submissions, rpcUrl: await closedPortUrl() })
    expect(await down.submit(s.request)).toMatchObject({ kind: 'transient' })
    const otherChain = railWith({ directory: directoryOf(s), submissions, chainId: anvil.chainId + 1 })
    expect(await otherChain.submit(s.request)).toMatchObject({ kind: 'transient', reason: expect.stringContaining(`configured for chain ${anvil.chainId + 1}`) })
    expect(submissions.all()).toHaveLength(0)

    const receipt = completedReceipt(await railWith({ directory: directoryOf(s), submissions }).submit(s.request))
    // With a stored transaction, an unreachable RPC is still only transient, never a refusal.
    expect(await down.status(s.request)).toMatchObject({ kind: 'transient' })
    expect(await down.submit(s.request)).toMatchObject({ kind: 'transient' })
    expect(await railWith({ directory: directoryOf(), submissions }).status(s.request)).toEqual({ kind: 'completed', receipt })
    await expect(
      sessionKeyValidity({ rpcUrl: await closedPortUrl(), chainId: anvil.chainId, smartAccount: s.smartAccount, sessionKeyAddress: s.sessionKey.address, token, amountBaseUnits: 1n, expiryMarginSeconds: 0 }),
    ).rejects.toThrow()
    expect(await sentBy(s.sessionKey.address)).toBe(1)
  })
})

describe('onchain_base rail: crashes and races', () => {
  it.each(['status', 'submit'] as const)(
    'broadcasts a transaction stored but never broadcast (the process died) exactly once, on the next %s',
    async (next) => {
      const s = await scenario()
      const store = createMemoryOnchainSubmissions()
      const dying = railWith({ directory: directoryOf(s), submissions: crashingAfterInsert(store) })
      await expect(dying.submit(s.request)).rejects.toThrow('process died after storing the transaction')
      const [stored] = store.all()
      expect(store.all()).toHaveLength(1)
      expect(await nodeKnows(stored!.hash)).toBe(false)
      expect(await s.balances()).toEqual({ account: accountFunding, recipient: 0n })

      // The restarted process: a new adapter over the same store.
      const restarted = railWith({ directory: directoryOf(s), submissions: store })
      const receipt = completedReceipt(next === 'status' ? await settledStatus(restarted, s.request) : await restarted.submit(s.request))
      expect(receipt.tx_hash).toBe(stored!.hash.toLowerCase())
      expect(await restarted.submit(s.request)).toEqual({ kind: 'completed', receipt })
      expect(await restarted.status(s.request)).toEqual({ kind: 'completed', receipt })
      expect(store.all()).toEqual([stored])
      expect(await s.balances()).toEqual({ account: accountFunding - s.payment.amountBaseUnits, recipient: s.payment.amountBaseUnits })
      expect(await sentBy(s.sessionKey.address)).toBe(1)
    },
  )

  it('moves the money once when the same key is submitted concurrently, in one process and in two', async () => {
    const s = await scenario()
    const store = createMemoryOnchainSubmissions()
    let inserts = 0
    const counting: OnchainSubmissions = { find: (tenantId, key) => store.find(tenantId, key), insert: (record) => ((inserts += 1), store.insert(record)) }
    const rail = railWith({ directory: directoryOf(s), submissions: counting })
    const answers = await Promise.all([rail.submit(s.request), rail.submit(s.request), rail.submit(s.request)])
    const receipt = completedReceipt(answers[0])
    expect(answers).toEqual(answers.map(() => ({ kind: 'completed', receipt })))
    // In one process the later submits wait for the first and find its transaction: nothing else is even signed.
    expect(inserts).toBe(1)
    expect(store.all()).toHaveLength(1)

    // Two processes (two adapters, each with its own lock and nonce memory) sharing the store.
    const t = await scenario()
    const shared = createMemoryOnchainSubmissions()
    const [one, two] = [railWith({ directory: directoryOf(t), submissions: shared }), railWith({ directory: directoryOf(t), submissions: shared })]
    const [first, second] = await Promise.all([one.submit(t.request), two.submit(t.request)])
    expect(second).toEqual(first)
    completedReceipt(first)
    expect(shared.all()).toHaveLength(1)

    for (const paid of [s, t]) {
      expect(await paid.balances()).toEqual({ account: accountFunding - paid.payment.amountBaseUnits, recipient: paid.payment.amountBaseUnits })
      expect(await sentBy(paid.sessionKey.address)).toBe(1)
    }
  })

  it('keeps the nonces of transactions whose broadcast failed, and sends them when the node takes them again', async () => {
    const s = await scenario({ amount: usdc(3n) })
    const second = { request: newRequest(usdc(4n)), payment: { ...s.payment, amountBaseUnits: usdc(4n) } }
    const proxy = await startRpcProxy()
    try {
      const store = createMemoryOnchainSubmissions()
      const rail = railWith({ directory: directoryOf(s, second), submissions: store, rpcUrl: proxy.url })
      proxy.refuse.broadcasts = true
      expect(await rail.submit(s.request)).toMatchObject({ kind: 'transient', reason: expect.stringContaining('the proxy refuses broadcasts') })
      // The node has nothing, yet this process must not sign nonce 0 again for another row.
      expect(await rail.submit(second.request)).toMatchObject({ kind: 'transient' })
      expect(store.all().map((submission) => submission.nonce)).toEqual([0, 1])
      expect(await rail.status(s.request)).toMatchObject({ kind: 'transient' })
      expect(await sentBy(s.sessionKey.address)).toBe(0)

      proxy.refuse.broadcasts = false
      // Nonce 1 alone waits behind the gap; nonce 0, sent again by the next submit, lets both be mined.
      expect(await rail.status(second.request)).toMatchObject({ kind: 'transient' })
      completedReceipt(await rail.submit(s.request))
      completedReceipt(await settledStatus(rail, second.request))
      expect(await s.balances()).toEqual({ account: accountFunding - usdc(7n), recipient: usdc(7n) })
      expect(await sentBy(s.sessionKey.address)).toBe(2)
    } finally {
      await proxy.stop()
    }
  })

  it('does not take a node\'s internal error for a revert: transient, nothing signed', async () => {
    const s = await scenario()
    const proxy = await startRpcProxy()
    try {
      const rail = railWith({ directory: directoryOf(s), rpcUrl: proxy.url })
      proxy.refuse.executeCalls = true
      expect(await rail.submit(s.request)).toMatchObject({ kind: 'transient', reason: expect.stringContaining('internal error') })
      expect(await rail.status(s.request)).toBeUndefined()
      proxy.refuse.executeCalls = false
      completedReceipt(await rail.submit(s.request))
      expect((await s.balances()).recipient).toBe(s.payment.amountBaseUnits)
    } finally {
      await proxy.stop()
    }
  })

  it('fails a stored transaction whose nonce another transaction took, once that is final, and never moves its money', async () => {
    const s = await scenario()
    const store = createMemoryOnchainSubmissions()
    await expect(railWith({ directory: directoryOf(s), submissions: crashingAfterInsert(store) }).submit(s.request)).rejects.toThrow()
    expect(store.all()[0]!.nonce).toBe(0)

    // Another process that never saw that store pays another row with the same session key: nonce 0 again.
    const other = { request: newRequest(usdc(7n)), payment: { ...s.payment, amountBaseUnits: usdc(7n), to: privateKeyToAccount(generatePrivateKey()).address } }
    completedReceipt(await railWith({ directory: directoryOf(other) }).submit(other.request))

    const restarted = railWith({ directory: directoryOf(s), submissions: store })
    // Not final yet: the worker is told to wait, not that the payment failed.
    expect(await restarted.status(s.request)).toMatchObject({ kind: 'transient' })
    await testClient.mine({ blocks: anvilFinalityBlocks })
    const answer = await restarted.status(s.request)
    expect(answer).toMatchObject({ kind: 'failed', code: 'onchain_nonce_superseded' })
    expect(await restarted.submit(s.request)).toEqual(answer)
    expect(await s.balances()).toEqual({ account: accountFunding - usdc(7n), recipient: 0n })
    expect(await balanceOf(token, other.payment.to)).toBe(usdc(7n))
    expect(await sentBy(s.sessionKey.address)).toBe(1)
  })
})
