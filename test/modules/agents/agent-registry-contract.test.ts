/**
 * AgentRegistry against a real local chain (anvil): every check below is a real transaction or eth_call
 * on the compiled artifact, deployed from it. No database is involved.
 *
 * A refused call is proved two ways: the eth_call decodes the custom error and its arguments, and the
 * same call sent as a real transaction (gas fixed, so no estimate refuses it before mining) is mined as
 * reverted with no logs. Every test uses fresh tenants, agent ids and wallets, so no test depends on
 * another's state.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import solc from 'solc'
import {
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  decodeErrorResult,
  defineChain,
  encodeDeployData,
  http,
  parseEventLogs,
  stringToBytes,
  toHex,
  zeroAddress,
  type Address,
  type Chain,
  type Hex,
  type TransactionReceipt,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { artifactPathOf, compileContract, compilerSettings, renderArtifact, type ContractArtifact } from '../../../scripts/compile-contracts.ts'
import {
  agentKey,
  createAgentRegistryChain,
  deployAgentRegistry,
  registryAbi,
  tenantIdOfKey,
  tenantKey,
  type AgentRegistryChain,
} from '../../../src/modules/agents/chain/agent-registry.ts'
import { scopeHashOf } from '../../../src/modules/agents/domain/scope-hash.ts'
import { tenantKey as auditTenantKey } from '../../../src/modules/audit/chain/anchor-contract.ts'
import { startAnvil, type Anvil } from '../../support/anvil.ts'

/** Enough for any call here, so a transaction that must revert is sent without a gas estimate refusing it first. */
const revertingTransactionGas = 1_000_000n
const zeroBytes32: Hex = `0x${'0'.repeat(64)}`

interface ExpectedError {
  errorName: string
  args: readonly unknown[]
}

let anvil: Anvil
let chainDefinition: Chain
let publicClient: ReturnType<typeof createPublicClient>
let registrarKey: Hex
let outsiderKey: Hex
let registrar: Address
let outsider: Address
let contractAddress: Address
let registry: AgentRegistryChain

const randomBytes32 = (): Hex => `0x${randomBytes(32).toString('hex')}`
const newWallet = (): Address => privateKeyToAccount(generatePrivateKey()).address
const newAgentId = (): string => `agt_${randomBytes(8).toString('hex')}`

beforeAll(async () => {
  anvil = await startAnvil()
  const [first, second] = anvil.privateKeys
  if (first === undefined || second === undefined) throw new Error('anvil gave fewer than two dev keys')
  registrarKey = first
  outsiderKey = second
  registrar = privateKeyToAccount(registrarKey).address
  outsider = privateKeyToAccount(outsiderKey).address
  chainDefinition = defineChain({
    id: anvil.chainId,
    name: 'anvil',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [anvil.rpcUrl] } },
  })
  publicClient = createPublicClient({ chain: chainDefinition, transport: http(anvil.rpcUrl, { retryCount: 0 }) })
  contractAddress = (await deployAgentRegistry({ rpcUrl: anvil.rpcUrl, privateKey: registrarKey })).address
  registry = createAgentRegistryChain({ rpcUrl: anvil.rpcUrl, contractAddress, privateKey: registrarKey })
})

afterAll(async () => {
  await anvil?.stop()
})

function walletFor(privateKey: Hex) {
  return createWalletClient({ account: privateKeyToAccount(privateKey), chain: chainDefinition, transport: http(anvil.rpcUrl, { retryCount: 0 }) })
}

/** Sends a transaction to the contract (estimating gas unless `gas` is given) and waits for its receipt. */
async function send(privateKey: Hex, functionName: string, args: readonly unknown[], options: { address?: Address; gas?: bigint } = {}): Promise<TransactionReceipt> {
  const wallet = walletFor(privateKey)
  const hash = await wallet.writeContract({
    address: options.address ?? contractAddress,
    abi: registryAbi,
    functionName,
    args,
    chain: chainDefinition,
    account: wallet.account,
    ...(options.gas === undefined ? {} : { gas: options.gas }),
  })
  return publicClient.waitForTransactionReceipt({ hash })
}

async function read(functionName: string, args: readonly unknown[] = [], address: Address = contractAddress): Promise<unknown> {
  return publicClient.readContract({ address, abi: registryAbi, functionName, args })
}

/** Proves a revert: the eth_call decodes `expected`, and the same call mined as a transaction reverts with no logs. */
async function expectRevert(privateKey: Hex, functionName: string, args: readonly unknown[], expected: ExpectedError, address: Address = contractAddress): Promise<void> {
  let decoded: ExpectedError | undefined
  try {
    await publicClient.simulateContract({ account: privateKeyToAccount(privateKey), address, abi: registryAbi, functionName, args })
  } catch (error) {
    const revert = error instanceof BaseError ? error.walk((cause) => cause instanceof ContractFunctionRevertedError) : null
    if (!(revert instanceof ContractFunctionRevertedError)) throw error
    decoded = { errorName: revert.data?.errorName ?? `undecoded ${revert.raw ?? ''}`, args: revert.data?.args ?? [] }
  }
  expect(decoded).toEqual(expected)
  const receipt = await send(privateKey, functionName, args, { address, gas: revertingTransactionGas })
  expect(receipt.status).toBe('reverted')
  expect(receipt.logs).toEqual([])
}

/** The receipt's events from `address`, by name, with their arguments. */
function eventsOf(receipt: TransactionReceipt, address: Address = contractAddress) {
  return parseEventLogs({ abi: registryAbi, logs: receipt.logs }).map((log) => {
    expect(log.address.toLowerCase()).toBe(address.toLowerCase())
    return { eventName: log.eventName, args: log.args as unknown }
  })
}

async function blockTimestamp(blockNumber: bigint): Promise<bigint> {
  return (await publicClient.getBlock({ blockNumber })).timestamp
}

/** A fresh registration's raw arguments and the strings they came from. */
function newRegistration(scopes: readonly string[] = ['ledger:read', 'payment_intent:propose']) {
  const tenantId = randomUUID()
  const agentId = newAgentId()
  const wallet = newWallet()
  const scopeHash = scopeHashOf(scopes)
  return { tenantId, agentId, wallet, scopeHash, args: [tenantKey(tenantId), agentKey(agentId), wallet, scopeHash] as const }
}

async function agentOf(tenantId: Hex, agentId: Hex, address: Address = contractAddress) {
  const [wallet, scopeHash, registeredBlock, registeredAt, revoked] = (await read('agentOf', [tenantId, agentId], address)) as [Address, Hex, bigint, bigint, boolean]
  return { wallet, scopeHash, registeredBlock, registeredAt, revoked }
}

async function agentOfWallet(wallet: Address) {
  const [tenantId, agentId] = (await read('agentOfWallet', [wallet])) as [Hex, Hex]
  return { tenantId, agentId }
}

describe('keys', () => {
  it("encodes a tenant exactly as AuditAnchor does, and reads the tenant back from the key", () => {
    expect(tenantKey('0190a5c4-7b2e-7c3d-8e4f-123456789abc')).toBe('0x000000000000000000000000000000000190a5c47b2e7c3d8e4f123456789abc')
    for (const tenantId of [randomUUID(), randomUUID(), 'ffffffff-ffff-ffff-ffff-ffffffffffff', '00000000-0000-0000-0000-000000000001']) {
      expect(tenantKey(tenantId)).toBe(auditTenantKey(tenantId))
      expect(tenantIdOfKey(tenantKey(tenantId))).toBe(tenantId)
    }
    expect(tenantIdOfKey(randomBytes32())).toBeNull()
    expect(tenantIdOfKey(`0x${'0'.repeat(31)}1${'a'.repeat(32)}`)).toBeNull()
    expect(tenantIdOfKey(`0x${'0'.repeat(32)}${'A'.repeat(32)}`)).toBeNull()
  })

  it.each(['tenant-1', '0190A5C4-7B2E-7C3D-8E4F-123456789ABC', '0190a5c47b2e7c3d8e4f123456789abc', ''])('refuses the tenant id %j', (tenantId) => {
    expect(() => tenantKey(tenantId)).toThrow(TypeError)
  })

  it('keys an agent by keccak256 of its id (worked example: "agt_1", hashed by anvil\'s web3_sha3)', async () => {
    expect(agentKey('agt_1')).toBe('0x2aaaad222419fb4d27f81fd45bae9af8fa749d7ab5b5dd87a007afdcc93c7397')
    const id = 'agent für Zahlungen ✓'
    expect(agentKey(id)).toBe(await web3Sha3(toHex(stringToBytes(id))))
  })

  it('refuses an empty agent id and one with a lone surrogate', () => {
    expect(() => agentKey('')).toThrow(TypeError)
    expect(() => agentKey('agt_\uD800')).toThrow(/surrogate/)
  })

  it('computes the scope hash as the chain does: keccak256 of the sorted scopes joined with "|"', async () => {
    const scopes = ['payment_intent:propose', 'audit:read', 'ledger:read']
    expect(scopeHashOf(scopes)).toBe(await web3Sha3(toHex(stringToBytes('audit:read|ledger:read|payment_intent:propose'))))
  })
})

describe('artifact', () => {
  it('equals a fresh compile of the source, byte for byte', () => {
    expect(renderArtifact(compileContract('AgentRegistry'))).toBe(readFileSync(artifactPathOf('AgentRegistry'), 'utf8'))
  })

  it('records the compiler, the shared settings and its source hash', () => {
    const artifact = JSON.parse(readFileSync(artifactPathOf('AgentRegistry'), 'utf8')) as ContractArtifact
    expect(artifact.contractName).toBe('AgentRegistry')
    expect(artifact.compiler).toEqual({ version: solc.version(), settings: compilerSettings })
    expect(artifact.compiler.settings).toEqual({ optimizer: { enabled: true, runs: 10_000 }, evmVersion: 'paris' })
    const source = readFileSync(new URL('../../../contracts/AgentRegistry.sol', import.meta.url), 'utf8')
    expect(artifact.sourceSha256).toBe(createHash('sha256').update(source, 'utf8').digest('hex'))
  })

  it('is the code running at the deployed address', async () => {
    const artifact = JSON.parse(readFileSync(artifactPathOf('AgentRegistry'), 'utf8')) as ContractArtifact
    expect(await publicClient.getCode({ address: contractAddress })).toBe(artifact.deployedBytecode)
  })
})

describe('deployment and the registrar', () => {
  it('makes the deployer the registrar, with RegistrarChanged from zero, or the account it is given', async () => {
    const deployed = await deployAgentRegistry({ rpcUrl: anvil.rpcUrl, privateKey: registrarKey })
    const receipt = await publicClient.getTransactionReceipt({ hash: deployed.txHash })
    expect(eventsOf(receipt, deployed.address)).toEqual([{ eventName: 'RegistrarChanged', args: { previousRegistrar: zeroAddress, newRegistrar: registrar } }])
    expect(await read('registrar', [], deployed.address)).toBe(registrar)

    const forOutsider = await deployAgentRegistry({ rpcUrl: anvil.rpcUrl, privateKey: registrarKey, registrar: outsider })
    expect(await read('registrar', [], forOutsider.address)).toBe(outsider)
  })

  it('refuses a zero registrar at deployment with ZeroRegistrar', async () => {
    const data = encodeDeployData({ abi: registryAbi, bytecode: (JSON.parse(readFileSync(artifactPathOf('AgentRegistry'), 'utf8')) as ContractArtifact).bytecode, args: [zeroAddress] })
    let revertData: Hex | undefined
    try {
      await publicClient.call({ account: registrar, data })
    } catch (error) {
      const raw = error instanceof BaseError ? error.walk((cause) => typeof (cause as { data?: unknown }).data === 'string') : null
      revertData = (raw as { data?: Hex } | null)?.data
    }
    expect(revertData).toBeDefined()
    const decoded = decodeErrorResult({ abi: registryAbi, data: revertData! })
    expect({ errorName: decoded.errorName, args: decoded.args ?? [] }).toEqual({ errorName: 'ZeroRegistrar', args: [] })

    const wallet = walletFor(registrarKey)
    const hash = await wallet.sendTransaction({ data, gas: revertingTransactionGas, chain: chainDefinition, account: wallet.account })
    expect((await publicClient.waitForTransactionReceipt({ hash })).status).toBe('reverted')
  })

  it('hands the role over with an event; only the current registrar can, and never to zero', async () => {
    const { address } = await deployAgentRegistry({ rpcUrl: anvil.rpcUrl, privateKey: registrarKey })
    await expectRevert(outsiderKey, 'setRegistrar', [outsider], { errorName: 'NotRegistrar', args: [outsider] }, address)
    await expectRevert(registrarKey, 'setRegistrar', [zeroAddress], { errorName: 'ZeroRegistrar', args: [] }, address)

    const handover = await send(registrarKey, 'setRegistrar', [outsider], { address })
    expect(eventsOf(handover, address)).toEqual([{ eventName: 'RegistrarChanged', args: { previousRegistrar: registrar, newRegistrar: outsider } }])
    expect(await read('registrar', [], address)).toBe(outsider)

    const { args } = newRegistration()
    await expectRevert(registrarKey, 'register', args, { errorName: 'NotRegistrar', args: [registrar] }, address)
    expect((await send(outsiderKey, 'register', args, { address })).status).toBe('success')
  })
})

describe('register', () => {
  it('records the agent, binds its wallet and emits AgentRegistered', async () => {
    const { args, wallet, scopeHash } = newRegistration()
    const [tenant, agent] = args
    expect(await agentOf(tenant, agent)).toEqual({ wallet: zeroAddress, scopeHash: zeroBytes32, registeredBlock: 0n, registeredAt: 0n, revoked: false })
    expect(await agentOfWallet(wallet)).toEqual({ tenantId: zeroBytes32, agentId: zeroBytes32 })

    const receipt = await send(registrarKey, 'register', args)
    expect(receipt.status).toBe('success')
    expect(eventsOf(receipt)).toEqual([{ eventName: 'AgentRegistered', args: { tenantId: tenant, agentId: agent, wallet, scopeHash } }])
    expect(await agentOf(tenant, agent)).toEqual({
      wallet,
      scopeHash,
      registeredBlock: receipt.blockNumber,
      registeredAt: await blockTimestamp(receipt.blockNumber),
      revoked: false,
    })
    expect(await agentOfWallet(wallet)).toEqual({ tenantId: tenant, agentId: agent })
  })

  it('keeps tenants apart: the same agent id registers in two tenants, as two agents', async () => {
    const agentId = newAgentId()
    const [tenantA, tenantB] = [randomUUID(), randomUUID()]
    const [walletA, walletB] = [newWallet(), newWallet()]
    const [hashA, hashB] = [scopeHashOf(['ledger:read']), scopeHashOf(['audit:read'])]
    await send(registrarKey, 'register', [tenantKey(tenantA), agentKey(agentId), walletA, hashA])
    expect(await agentOf(tenantKey(tenantB), agentKey(agentId))).toMatchObject({ registeredBlock: 0n })
    await send(registrarKey, 'register', [tenantKey(tenantB), agentKey(agentId), walletB, hashB])
    expect(await agentOf(tenantKey(tenantA), agentKey(agentId))).toMatchObject({ wallet: walletA, scopeHash: hashA })
    expect(await agentOf(tenantKey(tenantB), agentKey(agentId))).toMatchObject({ wallet: walletB, scopeHash: hashB })
  })

  it.each([
    ['tenant', 0, 'ZeroTenantId'],
    ['agent', 1, 'ZeroAgentId'],
    ['wallet', 2, 'ZeroWallet'],
    ['scope hash', 3, 'ZeroScopeHash'],
  ] as const)('refuses a zero %s with %s', async (_label, position, errorName) => {
    const registration = newRegistration()
    const args: unknown[] = [...registration.args]
    args[position] = position === 2 ? zeroAddress : zeroBytes32
    await expectRevert(registrarKey, 'register', args, { errorName, args: [] })
    expect(await agentOfWallet(registration.wallet)).toEqual({ tenantId: zeroBytes32, agentId: zeroBytes32 })
  })

  it('refuses any account but the registrar with NotRegistrar', async () => {
    const { args } = newRegistration()
    await expectRevert(outsiderKey, 'register', args, { errorName: 'NotRegistrar', args: [outsider] })
    expect(await agentOf(args[0], args[1])).toMatchObject({ registeredBlock: 0n })
  })

  it('refuses a registered pair with AgentExists, whatever the wallet and hash, and leaves the record alone', async () => {
    const { args } = newRegistration()
    const [tenant, agent] = args
    await send(registrarKey, 'register', args)
    const before = await agentOf(tenant, agent)
    const otherWallet = newWallet()
    await expectRevert(registrarKey, 'register', args, { errorName: 'AgentExists', args: [tenant, agent] })
    await expectRevert(registrarKey, 'register', [tenant, agent, otherWallet, randomBytes32()], { errorName: 'AgentExists', args: [tenant, agent] })
    expect(await agentOf(tenant, agent)).toEqual(before)
    expect(await agentOfWallet(otherWallet)).toEqual({ tenantId: zeroBytes32, agentId: zeroBytes32 })
  })

  it('refuses a wallet already registered, in any tenant, with WalletTaken naming its agent', async () => {
    const first = newRegistration()
    await send(registrarKey, 'register', first.args)
    const second = newRegistration()
    const args = [second.args[0], second.args[1], first.wallet, second.scopeHash]
    await expectRevert(registrarKey, 'register', args, { errorName: 'WalletTaken', args: [first.wallet, first.args[0], first.args[1]] })
    expect(await agentOf(second.args[0], second.args[1])).toMatchObject({ registeredBlock: 0n })
  })

  it('keeps a revoked agent\'s pair and wallet: both are refused for a new registration', async () => {
    const { args, wallet } = newRegistration()
    const [tenant, agent] = args
    await send(registrarKey, 'register', args)
    await send(registrarKey, 'revoke', [tenant, agent])
    await expectRevert(registrarKey, 'register', [tenant, agent, newWallet(), randomBytes32()], { errorName: 'AgentExists', args: [tenant, agent] })
    const other = newRegistration()
    await expectRevert(registrarKey, 'register', [other.args[0], other.args[1], wallet, other.scopeHash], { errorName: 'WalletTaken', args: [wallet, tenant, agent] })
    expect(await agentOfWallet(wallet)).toEqual({ tenantId: tenant, agentId: agent })
  })
})

describe('updateScopeHash', () => {
  it('replaces the hash and emits ScopeHashUpdated with the previous and the new hash; a hash may come back', async () => {
    const { args, wallet, scopeHash } = newRegistration()
    const [tenant, agent] = args
    const registered = await send(registrarKey, 'register', args)
    const wider = scopeHashOf(['ledger:read', 'payment_intent:propose', 'audit:read'])

    const update = await send(registrarKey, 'updateScopeHash', [tenant, agent, wider])
    expect(eventsOf(update)).toEqual([{ eventName: 'ScopeHashUpdated', args: { tenantId: tenant, agentId: agent, previousScopeHash: scopeHash, newScopeHash: wider } }])
    // Only the hash changes: the registration's block and time stay those of the registration.
    expect(await agentOf(tenant, agent)).toEqual({
      wallet,
      scopeHash: wider,
      registeredBlock: registered.blockNumber,
      registeredAt: await blockTimestamp(registered.blockNumber),
      revoked: false,
    })

    const back = await send(registrarKey, 'updateScopeHash', [tenant, agent, scopeHash])
    expect(eventsOf(back)).toEqual([{ eventName: 'ScopeHashUpdated', args: { tenantId: tenant, agentId: agent, previousScopeHash: wider, newScopeHash: scopeHash } }])
    expect((await agentOf(tenant, agent)).scopeHash).toBe(scopeHash)
  })

  it('refuses the hash the agent already has with ScopeHashUnchanged', async () => {
    const { args, scopeHash } = newRegistration()
    const [tenant, agent] = args
    await send(registrarKey, 'register', args)
    await expectRevert(registrarKey, 'updateScopeHash', [tenant, agent, scopeHash], { errorName: 'ScopeHashUnchanged', args: [tenant, agent, scopeHash] })
  })

  it('refuses a zero hash with ZeroScopeHash', async () => {
    const { args, scopeHash } = newRegistration()
    const [tenant, agent] = args
    await send(registrarKey, 'register', args)
    await expectRevert(registrarKey, 'updateScopeHash', [tenant, agent, zeroBytes32], { errorName: 'ZeroScopeHash', args: [] })
    expect((await agentOf(tenant, agent)).scopeHash).toBe(scopeHash)
  })

  it('refuses an agent never registered with AgentUnknown, and a revoked one with AgentIsRevoked', async () => {
    const unknown = newRegistration()
    await expectRevert(registrarKey, 'updateScopeHash', [unknown.args[0], unknown.args[1], randomBytes32()], { errorName: 'AgentUnknown', args: [unknown.args[0], unknown.args[1]] })

    const { args, scopeHash } = newRegistration()
    const [tenant, agent] = args
    await send(registrarKey, 'register', args)
    await send(registrarKey, 'revoke', [tenant, agent])
    await expectRevert(registrarKey, 'updateScopeHash', [tenant, agent, randomBytes32()], { errorName: 'AgentIsRevoked', args: [tenant, agent] })
    expect((await agentOf(tenant, agent)).scopeHash).toBe(scopeHash)
  })

  it('refuses any account but the registrar with NotRegistrar', async () => {
    const { args } = newRegistration()
    await send(registrarKey, 'register', args)
    await expectRevert(outsiderKey, 'updateScopeHash', [args[0], args[1], randomBytes32()], { errorName: 'NotRegistrar', args: [outsider] })
  })
})

describe('revoke', () => {
  it('marks the agent revoked for good and emits AgentRevoked with its wallet; the record stays readable', async () => {
    const { args, wallet, scopeHash } = newRegistration()
    const [tenant, agent] = args
    const registered = await send(registrarKey, 'register', args)
    const revocation = await send(registrarKey, 'revoke', [tenant, agent])
    expect(eventsOf(revocation)).toEqual([{ eventName: 'AgentRevoked', args: { tenantId: tenant, agentId: agent, wallet } }])
    expect(await agentOf(tenant, agent)).toEqual({
      wallet,
      scopeHash,
      registeredBlock: registered.blockNumber,
      registeredAt: await blockTimestamp(registered.blockNumber),
      revoked: true,
    })
    expect(await agentOfWallet(wallet)).toEqual({ tenantId: tenant, agentId: agent })
  })

  it('refuses a second revocation with AgentIsRevoked and an agent never registered with AgentUnknown', async () => {
    const { args } = newRegistration()
    const [tenant, agent] = args
    await send(registrarKey, 'register', args)
    await send(registrarKey, 'revoke', [tenant, agent])
    await expectRevert(registrarKey, 'revoke', [tenant, agent], { errorName: 'AgentIsRevoked', args: [tenant, agent] })
    const unknown = newRegistration()
    await expectRevert(registrarKey, 'revoke', [unknown.args[0], unknown.args[1]], { errorName: 'AgentUnknown', args: [unknown.args[0], unknown.args[1]] })
  })

  it('refuses any account but the registrar with NotRegistrar', async () => {
    const { args } = newRegistration()
    await send(registrarKey, 'register', args)
    await expectRevert(outsiderKey, 'revoke', [args[0], args[1]], { errorName: 'NotRegistrar', args: [outsider] })
    expect((await agentOf(args[0], args[1])).revoked).toBe(false)
  })
})

describe('createAgentRegistryChain', () => {
  it('reports the RPC chain id and the contract address', async () => {
    expect(await registry.chainId()).toBe(anvil.chainId)
    expect(registry.contractAddress).toBe(contractAddress)
  })

  it('registers, updates and revokes, each a mined transaction, and reads the record back', async () => {
    const tenantId = randomUUID()
    const agentId = newAgentId()
    const wallet = newWallet()
    const scopeHash = scopeHashOf(['payment_intent:propose', 'ledger:read'])
    expect(await registry.agent(tenantId, agentId)).toBeNull()
    expect(await registry.agentOfWallet(wallet)).toBeNull()

    const registered = await registry.register({ tenantId, agentId, wallet, scopeHash })
    const receipt = await publicClient.getTransactionReceipt({ hash: registered.txHash })
    expect(receipt.status).toBe('success')
    expect(receipt.blockNumber).toBe(registered.blockNumber)
    expect(eventsOf(receipt)).toEqual([{ eventName: 'AgentRegistered', args: { tenantId: tenantKey(tenantId), agentId: agentKey(agentId), wallet, scopeHash } }])
    const registeredAt = await blockTimestamp(registered.blockNumber)
    expect(await registry.agent(tenantId, agentId)).toEqual({ wallet, scopeHash, registeredBlock: registered.blockNumber, registeredAt, revoked: false })
    expect(await registry.agentOfWallet(wallet)).toEqual({ tenantKey: tenantKey(tenantId), tenantId, agentKey: agentKey(agentId) })

    const wider = scopeHashOf(['payment_intent:propose', 'ledger:read', 'audit:read'])
    const updated = await registry.updateScopeHash(tenantId, agentId, wider)
    expect(updated.blockNumber).toBeGreaterThan(registered.blockNumber)
    expect(await registry.agent(tenantId, agentId)).toEqual({ wallet, scopeHash: wider, registeredBlock: registered.blockNumber, registeredAt, revoked: false })

    const revoked = await registry.revoke(tenantId, agentId)
    expect(eventsOf(await publicClient.getTransactionReceipt({ hash: revoked.txHash }))).toEqual([
      { eventName: 'AgentRevoked', args: { tenantId: tenantKey(tenantId), agentId: agentKey(agentId), wallet } },
    ])
    expect(await registry.agent(tenantId, agentId)).toEqual({ wallet, scopeHash: wider, registeredBlock: registered.blockNumber, registeredAt, revoked: true })
    expect(await registry.agentOfWallet(wallet)).toEqual({ tenantKey: tenantKey(tenantId), tenantId, agentKey: agentKey(agentId) })
  })

  it('accepts a wallet in any case and returns it checksummed', async () => {
    const tenantId = randomUUID()
    const agentId = newAgentId()
    const wallet = newWallet()
    await registry.register({ tenantId, agentId, wallet: wallet.toLowerCase() as Address, scopeHash: scopeHashOf(['ledger:read']) })
    expect((await registry.agent(tenantId, agentId))?.wallet).toBe(wallet)
    expect(await registry.agentOfWallet(wallet.toLowerCase() as Address)).not.toBeNull()
  })

  it('surfaces the contract error by name when a write would revert, without sending it', async () => {
    const registration = { tenantId: randomUUID(), agentId: newAgentId(), wallet: newWallet(), scopeHash: scopeHashOf(['ledger:read']) }
    await registry.register(registration)
    const nonce = await publicClient.getTransactionCount({ address: registrar })
    await expect(registry.register(registration)).rejects.toThrow(/AgentExists/)
    await expect(registry.register({ ...registration, agentId: newAgentId() })).rejects.toThrow(/WalletTaken/)
    await expect(registry.updateScopeHash(registration.tenantId, registration.agentId, registration.scopeHash)).rejects.toThrow(/ScopeHashUnchanged/)
    await expect(registry.revoke(randomUUID(), newAgentId())).rejects.toThrow(/AgentUnknown/)
    const outsiderRegistry = createAgentRegistryChain({ rpcUrl: anvil.rpcUrl, contractAddress, privateKey: outsiderKey })
    await expect(outsiderRegistry.revoke(registration.tenantId, registration.agentId)).rejects.toThrow(/NotRegistrar/)
    expect(await publicClient.getTransactionCount({ address: registrar })).toBe(nonce)
  })

  it('refuses bad arguments without any RPC request', async () => {
    const server = await countingRpcServer()
    try {
      const offline = createAgentRegistryChain({ rpcUrl: server.url, contractAddress, privateKey: registrarKey })
      const good = { tenantId: randomUUID(), agentId: newAgentId(), wallet: newWallet(), scopeHash: randomBytes32() }
      await expect(offline.register({ ...good, tenantId: 'tenant-1' })).rejects.toThrow(/lowercase UUID/)
      await expect(offline.register({ ...good, agentId: '' })).rejects.toThrow(/agent id/)
      await expect(offline.register({ ...good, wallet: zeroAddress })).rejects.toThrow(/zero address/)
      await expect(offline.register({ ...good, wallet: '0x1234' as Address })).rejects.toThrow(/not an address/)
      await expect(offline.register({ ...good, scopeHash: zeroBytes32 })).rejects.toThrow(/must not be zero/)
      await expect(offline.register({ ...good, scopeHash: '0x1234' as Hex })).rejects.toThrow(/32-byte/)
      await expect(offline.updateScopeHash(good.tenantId, good.agentId, zeroBytes32)).rejects.toThrow(/must not be zero/)
      await expect(offline.revoke(good.tenantId, '')).rejects.toThrow(/agent id/)
      await expect(offline.agent('tenant-1', good.agentId)).rejects.toThrow(TypeError)
      await expect(offline.agentOfWallet(zeroAddress)).rejects.toThrow(/zero address/)
      await expect(offline.registrationInTransaction('0x12' as Hex, good.tenantId, good.agentId)).rejects.toThrow(/transaction hash/)
      expect(server.requests()).toBe(0)
      // The server is reachable: a call that passes the checks does reach it.
      await expect(offline.register(good)).rejects.toThrow()
      expect(server.requests()).toBeGreaterThan(0)
    } finally {
      await server.close()
    }
    expect(() => createAgentRegistryChain({ rpcUrl: anvil.rpcUrl, contractAddress: '0x1234' as Address })).toThrow(/not an address/)
  })

  it('refuses to write without a private key, and still reads', async () => {
    const readOnly = createAgentRegistryChain({ rpcUrl: anvil.rpcUrl, contractAddress })
    const registration = { tenantId: randomUUID(), agentId: newAgentId(), wallet: newWallet(), scopeHash: randomBytes32() }
    await expect(readOnly.register(registration)).rejects.toThrow(/registrar private key/)
    await expect(readOnly.revoke(registration.tenantId, registration.agentId)).rejects.toThrow(/registrar private key/)
    await registry.register(registration)
    expect(await readOnly.agent(registration.tenantId, registration.agentId)).toMatchObject({ wallet: registration.wallet, revoked: false })
  })

  it('fails, without sending anything, when the address holds no contract', async () => {
    const nowhere = createAgentRegistryChain({ rpcUrl: anvil.rpcUrl, contractAddress: newWallet(), privateKey: registrarKey })
    const nonce = await publicClient.getTransactionCount({ address: registrar })
    await expect(nowhere.register({ tenantId: randomUUID(), agentId: newAgentId(), wallet: newWallet(), scopeHash: randomBytes32() })).rejects.toThrow(/no contract/)
    await expect(nowhere.revoke(randomUUID(), newAgentId())).rejects.toThrow(/no contract/)
    expect(await publicClient.getTransactionCount({ address: registrar })).toBe(nonce)
  })
})

describe('confirming a registration', () => {
  it('finds the registration from the chain alone, with the hash it was registered with, after an update', async () => {
    const tenantId = randomUUID()
    const agentId = newAgentId()
    const wallet = newWallet()
    const scopeHash = scopeHashOf(['ledger:read'])
    expect(await registry.registrationOf(tenantId, agentId)).toBeNull()
    const registered = await registry.register({ tenantId, agentId, wallet, scopeHash })
    await registry.updateScopeHash(tenantId, agentId, scopeHashOf(['ledger:read', 'audit:read']))
    expect(await registry.registrationOf(tenantId, agentId)).toEqual({ txHash: registered.txHash, blockNumber: registered.blockNumber, wallet, scopeHash })
  })

  it('confirms that a given transaction registered this agent, with its wallet and scope hash', async () => {
    const tenantId = randomUUID()
    const agentId = newAgentId()
    const wallet = newWallet()
    const scopeHash = scopeHashOf(['ledger:read', 'payment_intent:propose'])
    const registered = await registry.register({ tenantId, agentId, wallet, scopeHash })
    expect(await registry.registrationInTransaction(registered.txHash, tenantId, agentId)).toEqual({
      found: true,
      registration: { txHash: registered.txHash, blockNumber: registered.blockNumber, wallet, scopeHash },
    })
    // The same transaction registered no other agent, in this tenant or another.
    expect(await registry.registrationInTransaction(registered.txHash, tenantId, newAgentId())).toEqual({ found: false, reason: 'no_registration' })
    expect(await registry.registrationInTransaction(registered.txHash, randomUUID(), agentId)).toEqual({ found: false, reason: 'no_registration' })
  })

  it('says transaction_not_found for a hash the chain does not know', async () => {
    expect(await registry.registrationInTransaction(randomBytes32(), randomUUID(), newAgentId())).toEqual({ found: false, reason: 'transaction_not_found' })
  })

  it('says transaction_reverted for a registration that was mined as reverted', async () => {
    const registration = newRegistration()
    const receipt = await send(outsiderKey, 'register', registration.args, { gas: revertingTransactionGas })
    expect(receipt.status).toBe('reverted')
    expect(await registry.registrationInTransaction(receipt.transactionHash, registration.tenantId, registration.agentId)).toEqual({ found: false, reason: 'transaction_reverted' })
  })

  it('says no_registration for a transaction that only updated the agent, and for one that did nothing with the registry', async () => {
    const tenantId = randomUUID()
    const agentId = newAgentId()
    await registry.register({ tenantId, agentId, wallet: newWallet(), scopeHash: scopeHashOf(['ledger:read']) })
    const update = await registry.updateScopeHash(tenantId, agentId, scopeHashOf(['audit:read']))
    expect(await registry.registrationInTransaction(update.txHash, tenantId, agentId)).toEqual({ found: false, reason: 'no_registration' })
    const wallet = walletFor(outsiderKey)
    const transfer = await wallet.sendTransaction({ to: newWallet(), value: 1n, chain: chainDefinition, account: wallet.account })
    await publicClient.waitForTransactionReceipt({ hash: transfer })
    expect(await registry.registrationInTransaction(transfer, tenantId, agentId)).toEqual({ found: false, reason: 'no_registration' })
  })

  it('ignores a registration logged by another registry contract, even one with the same code', async () => {
    const other = await deployAgentRegistry({ rpcUrl: anvil.rpcUrl, privateKey: outsiderKey })
    const impostor = createAgentRegistryChain({ rpcUrl: anvil.rpcUrl, contractAddress: other.address, privateKey: outsiderKey })
    const tenantId = randomUUID()
    const agentId = newAgentId()
    const elsewhere = await impostor.register({ tenantId, agentId, wallet: newWallet(), scopeHash: scopeHashOf(['ledger:read']) })
    expect(await impostor.registrationInTransaction(elsewhere.txHash, tenantId, agentId)).toMatchObject({ found: true })
    expect(await registry.registrationInTransaction(elsewhere.txHash, tenantId, agentId)).toEqual({ found: false, reason: 'no_registration' })
    expect(await registry.agent(tenantId, agentId)).toBeNull()
  })
})

describe('gas', () => {
  it('costs about one storage slot per word written', async () => {
    const { address } = await deployAgentRegistry({ rpcUrl: anvil.rpcUrl, privateKey: registrarKey })
    const gasOf = async (functionName: string, args: readonly unknown[]) => {
      const receipt = await send(registrarKey, functionName, args, { address })
      expect(receipt.status).toBe('success')
      return receipt.gasUsed
    }
    const { args } = newRegistration()
    const figures = {
      register: await gasOf('register', args),
      updateScopeHash: await gasOf('updateScopeHash', [args[0], args[1], randomBytes32()]),
      revoke: await gasOf('revoke', [args[0], args[1]]),
    }
    console.info(`AgentRegistry gas used: ${JSON.stringify(figures, (_key, value: unknown) => (typeof value === 'bigint' ? Number(value) : value))}`)
    // Four new slots (the agent's two, the wallet's two) at 22,100 each, plus the transaction's 21,000.
    expect(figures.register).toBeLessThan(125_000n)
    expect(figures.updateScopeHash).toBeLessThan(40_000n)
    expect(figures.revoke).toBeLessThan(40_000n)
  })
})

/** keccak256 as anvil computes it (the `web3_sha3` RPC method), independent of viem's. */
async function web3Sha3(data: Hex): Promise<Hex> {
  const response = await fetch(anvil.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'web3_sha3', params: [data] }),
  })
  const body = (await response.json()) as { result?: Hex }
  if (body.result === undefined) throw new Error('web3_sha3 gave no result')
  return body.result
}

/** An HTTP endpoint that answers every request with 500 and counts them. */
async function countingRpcServer(): Promise<{ url: string; requests(): number; close(): Promise<void> }> {
  let count = 0
  const server: Server = createServer((request, response) => {
    count += 1
    request.resume()
    response.statusCode = 500
    response.end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => count,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
