/**
 * SmartAccount and TestUSDC against a real local chain (anvil): every check below is a real transaction
 * or eth_call on the compiled artifacts, deployed from them. No database is involved.
 *
 * A refused call is proved two ways: sent as a real transaction (gas fixed, so no estimate refuses it
 * before mining) it is mined as reverted with no logs and moves nothing, and the same call simulated at
 * that transaction's block (same state, same timestamp) decodes the custom error and its arguments. At
 * that block `isSessionKeyValid` must agree with it. Each test deploys its own account and generates its
 * own session keys, so no test depends on another's state; only the chain's clock is shared, and every
 * expiry is read from the chain's latest block rather than the wall clock.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import solc from 'solc'
import {
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createTestClient,
  createWalletClient,
  decodeErrorResult,
  defineChain,
  encodeDeployData,
  getAddress,
  http,
  maxUint256,
  parseEther,
  parseEventLogs,
  zeroAddress,
  type Abi,
  type Address,
  type Chain,
  type Hex,
  type TransactionReceipt,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { artifactPathOf, compileContract, compilerSettings, contractNames, renderArtifact, type ContractArtifact } from '../../../scripts/compile-contracts.ts'
import { startAnvil, type Anvil } from '../../support/anvil.ts'

/** Enough for any call here, so a transaction that must revert is sent without a gas estimate refusing it first. */
const revertingTransactionGas = 1_000_000n
const day = 86_400n
/** TestUSDC has 6 decimals. */
const usdc = (dollars: bigint): bigint => dollars * 1_000_000n
/** What each fresh account is minted. */
const accountFunding = usdc(1_000n)

interface Deployed {
  readonly address: Address
  readonly abi: Abi
}

interface SessionKeyHolder {
  readonly privateKey: Hex
  readonly address: Address
}

interface ExpectedError {
  errorName: string
  args: readonly unknown[]
}

function readArtifact(name: (typeof contractNames)[number]): ContractArtifact {
  return JSON.parse(readFileSync(artifactPathOf(name), 'utf8')) as ContractArtifact
}

const accountArtifact = readArtifact('SmartAccount')
const usdcArtifact = readArtifact('TestUSDC')
const usdcAbi = usdcArtifact.abi as Abi
/** The account's ABI plus TestUSDC's errors, so a refusal the token raises inside `execute` is decoded too. */
const accountAbi: Abi = [...(accountArtifact.abi as Abi), ...usdcAbi.filter((item) => item.type === 'error')]

let anvil: Anvil
let chain: Chain
let publicClient: ReturnType<typeof createPublicClient>
let testClient: ReturnType<typeof createTestClient>
let ownerKey: Hex
let outsiderKey: Hex
let owner: Address
let outsider: Address
/** The TestUSDC every account holds; each account gets its own fresh mint. */
let token: Deployed

beforeAll(async () => {
  anvil = await startAnvil()
  const [first, second] = anvil.privateKeys
  if (first === undefined || second === undefined) throw new Error('anvil gave fewer than two dev keys')
  ownerKey = first
  outsiderKey = second
  owner = privateKeyToAccount(ownerKey).address
  outsider = privateKeyToAccount(outsiderKey).address
  chain = defineChain({
    id: anvil.chainId,
    name: 'anvil',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [anvil.rpcUrl] } },
  })
  publicClient = createPublicClient({ chain, transport: http(anvil.rpcUrl, { retryCount: 0 }) })
  testClient = createTestClient({ chain, mode: 'anvil', transport: http(anvil.rpcUrl, { retryCount: 0 }) })
  token = await deploy(ownerKey, usdcArtifact, [])
})

afterAll(async () => {
  await anvil?.stop()
})

function walletFor(privateKey: Hex) {
  return createWalletClient({ account: privateKeyToAccount(privateKey), chain, transport: http(anvil.rpcUrl, { retryCount: 0 }) })
}

async function deploy(privateKey: Hex, artifact: { abi: unknown[]; bytecode: Hex }, args: readonly unknown[]): Promise<Deployed> {
  const abi = artifact.abi as Abi
  const hash = await walletFor(privateKey).deployContract({ abi, bytecode: artifact.bytecode, args })
  const receipt = await publicClient.waitForTransactionReceipt({ hash })
  if (receipt.status !== 'success' || receipt.contractAddress === null || receipt.contractAddress === undefined) {
    throw new Error(`deployment ${hash} failed`)
  }
  return { address: getAddress(receipt.contractAddress), abi }
}

/** A SmartAccount owned by the first dev account, holding `accountFunding` of `token`. */
async function newAccount(): Promise<Deployed> {
  const account = await deploy(ownerKey, accountArtifact, [owner])
  await send(ownerKey, token, 'mint', [account.address, accountFunding])
  return { address: account.address, abi: accountAbi }
}

/** A fresh EOA with ether for gas, never seen by any account. */
async function newSessionKey(): Promise<SessionKeyHolder> {
  const privateKey = generatePrivateKey()
  const { address } = privateKeyToAccount(privateKey)
  await testClient.setBalance({ address, value: parseEther('1') })
  return { privateKey, address }
}

/** A fresh recipient address (an EOA nobody signs for), so its balance starts at zero. */
function newRecipient(): Address {
  return privateKeyToAccount(generatePrivateKey()).address
}

/** Sends a transaction (estimating gas unless `gas` is given) and waits for its receipt. */
async function send(privateKey: Hex, target: Deployed, functionName: string, args: readonly unknown[], gas?: bigint): Promise<TransactionReceipt> {
  const wallet = walletFor(privateKey)
  const hash = await wallet.writeContract({
    address: target.address,
    abi: target.abi,
    functionName,
    args,
    chain,
    account: wallet.account,
    ...(gas === undefined ? {} : { gas }),
  })
  return publicClient.waitForTransactionReceipt({ hash })
}

/** The custom error an eth_call from `privateKey`'s account reverts with, at `blockNumber`; undefined when it does not revert. */
async function revertOf(privateKey: Hex, target: Deployed, functionName: string, args: readonly unknown[], blockNumber: bigint): Promise<ExpectedError | undefined> {
  try {
    await publicClient.simulateContract({ account: privateKeyToAccount(privateKey), address: target.address, abi: target.abi, functionName, args, blockNumber })
    return undefined
  } catch (error) {
    const revert = error instanceof BaseError ? error.walk((cause) => cause instanceof ContractFunctionRevertedError) : null
    if (!(revert instanceof ContractFunctionRevertedError)) throw error
    return { errorName: revert.data?.errorName ?? `undecoded ${revert.raw ?? revert.signature ?? ''}`, args: revert.data?.args ?? [] }
  }
}

/** Sends the call as a real transaction that must be mined as reverted, and checks the error it reverts with. */
async function expectRevert(privateKey: Hex, target: Deployed, functionName: string, args: readonly unknown[], expected: ExpectedError): Promise<TransactionReceipt> {
  const receipt = await send(privateKey, target, functionName, args, revertingTransactionGas)
  expect(receipt.status).toBe('reverted')
  expect(receipt.logs).toEqual([])
  expect(await revertOf(privateKey, target, functionName, args, receipt.blockNumber)).toEqual(expected)
  return receipt
}

async function latestTimestamp(): Promise<bigint> {
  return (await publicClient.getBlock({ blockTag: 'latest' })).timestamp
}

async function blockTimestamp(blockNumber: bigint): Promise<bigint> {
  return (await publicClient.getBlock({ blockNumber })).timestamp
}

async function balanceOf(tokenAddress: Address, holder: Address): Promise<bigint> {
  return (await publicClient.readContract({ address: tokenAddress, abi: usdcAbi, functionName: 'balanceOf', args: [holder] })) as bigint
}

async function sessionKeyOf(account: Deployed, key: Address) {
  const [allowedToken, cap, spent, expiry, revoked] = (await publicClient.readContract({
    address: account.address,
    abi: account.abi,
    functionName: 'sessionKey',
    args: [key],
  })) as [Address, bigint, bigint, bigint, boolean]
  return { allowedToken, cap, spent, expiry, revoked }
}

async function isValid(account: Deployed, key: Address, tokenAddress: Address, amount: bigint, blockNumber?: bigint): Promise<boolean> {
  return (await publicClient.readContract({
    address: account.address,
    abi: account.abi,
    functionName: 'isSessionKeyValid',
    args: [key, tokenAddress, amount],
    ...(blockNumber === undefined ? {} : { blockNumber }),
  })) as boolean
}

async function ownerOf(account: Deployed): Promise<Address> {
  return (await publicClient.readContract({ address: account.address, abi: account.abi, functionName: 'owner' })) as Address
}

/** Adds `key` from the owner and checks the SessionKeyAdded event and the stored settings. */
async function addKey(account: Deployed, key: Address, settings: { token?: Address; cap: bigint; expiry?: bigint }): Promise<{ expiry: bigint }> {
  const allowedToken = settings.token ?? token.address
  const expiry = settings.expiry ?? (await latestTimestamp()) + day
  const receipt = await send(ownerKey, account, 'addSessionKey', [key, allowedToken, settings.cap, expiry])
  expect(receipt.status).toBe('success')
  const events = parseEventLogs({ abi: account.abi, eventName: 'SessionKeyAdded', logs: receipt.logs })
  expect(events.map((event) => event.args)).toEqual([{ key, token: allowedToken, cap: settings.cap, expiry }])
  expect(await sessionKeyOf(account, key)).toEqual({ allowedToken, cap: settings.cap, spent: 0n, expiry, revoked: false })
  return { expiry }
}

/**
 * `execute` sent by `caller`, which isSessionKeyValid accepts beforehand: the transaction succeeds, the
 * recipient gains exactly `amount`, the account loses it, and the key's spend grows by it.
 */
async function expectExecuted(caller: SessionKeyHolder, account: Deployed, [tokenAddress, to, amount]: readonly [Address, Address, bigint]): Promise<TransactionReceipt> {
  expect(await isValid(account, caller.address, tokenAddress, amount)).toBe(true)
  const before = { account: await balanceOf(tokenAddress, account.address), to: await balanceOf(tokenAddress, to), spent: (await sessionKeyOf(account, caller.address)).spent }
  const receipt = await send(caller.privateKey, account, 'execute', [tokenAddress, to, amount])
  expect(receipt.status).toBe('success')
  expect(await balanceOf(tokenAddress, account.address)).toBe(before.account - amount)
  expect(await balanceOf(tokenAddress, to)).toBe(before.to + amount)
  const isOwner = caller.address === (await ownerOf(account))
  expect((await sessionKeyOf(account, caller.address)).spent).toBe(isOwner ? before.spent : before.spent + amount)
  return receipt
}

/**
 * `execute` sent by `caller` is mined as reverted with `expected`, moves nothing and counts nothing, and
 * isSessionKeyValid at the same block answers `keyValid`: false, except where the refusal is the
 * recipient's (which isSessionKeyValid does not check) or the token's.
 */
async function expectExecuteRefused(
  caller: SessionKeyHolder,
  account: Deployed,
  [tokenAddress, to, amount]: readonly [Address, Address, bigint],
  expected: ExpectedError,
  keyValid = false,
): Promise<TransactionReceipt> {
  const holders = [account.address, to]
  const balances = async () => Promise.all(holders.map((holder) => balanceOf(token.address, holder)))
  const before = { balances: await balances(), key: await sessionKeyOf(account, caller.address) }
  const receipt = await expectRevert(caller.privateKey, account, 'execute', [tokenAddress, to, amount], expected)
  expect(await isValid(account, caller.address, tokenAddress, amount, receipt.blockNumber)).toBe(keyValid)
  expect(await balances()).toEqual(before.balances)
  expect(await sessionKeyOf(account, caller.address)).toEqual(before.key)
  return receipt
}

function executedEvents(account: Deployed, receipt: TransactionReceipt) {
  return parseEventLogs({ abi: account.abi, eventName: 'Executed', logs: receipt.logs }).map((log) => {
    expect(getAddress(log.address)).toBe(account.address)
    return log.args as unknown as { sessionKey: Address; token: Address; to: Address; amount: bigint; spentAfter: bigint }
  })
}

const ownerHolder = (): SessionKeyHolder => ({ privateKey: ownerKey, address: owner })

describe('artifacts', () => {
  it.each(contractNames)('%s equals a fresh compile of its source, byte for byte', (name) => {
    expect(renderArtifact(compileContract(name))).toBe(readFileSync(artifactPathOf(name), 'utf8'))
  })

  it.each(['SmartAccount', 'TestUSDC'] as const)('%s records the compiler, the shared settings and its source hash', (name) => {
    const artifact = readArtifact(name)
    expect(artifact.contractName).toBe(name)
    expect(artifact.compiler).toEqual({ version: solc.version(), settings: compilerSettings })
    expect(artifact.compiler.settings).toEqual({ optimizer: { enabled: true, runs: 10_000 }, evmVersion: 'paris' })
    const source = readFileSync(new URL(`../../../contracts/${name}.sol`, import.meta.url), 'utf8')
    expect(artifact.sourceSha256).toBe(createHash('sha256').update(source, 'utf8').digest('hex'))
  })

  it('SmartAccount and TestUSDC are the code running at their deployed addresses', async () => {
    const account = await newAccount()
    expect(await publicClient.getCode({ address: account.address })).toBe(accountArtifact.deployedBytecode)
    expect(await publicClient.getCode({ address: token.address })).toBe(usdcArtifact.deployedBytecode)
  })
})

describe('TestUSDC', () => {
  it('is "Test USD Coin" (USDC) with 6 decimals, and only its deployer mints', async () => {
    const read = (functionName: string) => publicClient.readContract({ address: token.address, abi: usdcAbi, functionName })
    expect([await read('name'), await read('symbol'), await read('decimals'), await read('minter')]).toEqual(['Test USD Coin', 'USDC', 6, owner])

    const holder = newRecipient()
    const supplyBefore = (await read('totalSupply')) as bigint
    const receipt = await send(ownerKey, token, 'mint', [holder, usdc(5n)])
    const transfers = parseEventLogs({ abi: usdcAbi, eventName: 'Transfer', logs: receipt.logs })
    expect(transfers.map((log) => log.args)).toEqual([{ from: zeroAddress, to: holder, value: usdc(5n) }])
    expect(await balanceOf(token.address, holder)).toBe(usdc(5n))
    expect(await read('totalSupply')).toBe(supplyBefore + usdc(5n))

    await expectRevert(outsiderKey, token, 'mint', [outsider, usdc(5n)], { errorName: 'NotMinter', args: [outsider] })
    await expectRevert(ownerKey, token, 'mint', [zeroAddress, usdc(5n)], { errorName: 'ERC20InvalidReceiver', args: [zeroAddress] })
    expect(await balanceOf(token.address, outsider)).toBe(0n)
    expect(await read('totalSupply')).toBe(supplyBefore + usdc(5n))
  })
})

describe('SmartAccount: owner and session keys', () => {
  it('refuses a zero owner at deployment with ZeroAddress', async () => {
    const data = encodeDeployData({ abi: accountArtifact.abi as Abi, bytecode: accountArtifact.bytecode, args: [zeroAddress] })
    let revertData: Hex | undefined
    try {
      await publicClient.call({ account: owner, data })
    } catch (error) {
      const raw = error instanceof BaseError ? error.walk((cause) => typeof (cause as { data?: unknown }).data === 'string') : null
      revertData = (raw as { data?: Hex } | null)?.data
    }
    expect(revertData).toBeDefined()
    const decoded = decodeErrorResult({ abi: accountAbi, data: revertData! })
    expect({ errorName: decoded.errorName, args: decoded.args ?? [] }).toEqual({ errorName: 'ZeroAddress', args: [] })

    const wallet = walletFor(ownerKey)
    const hash = await wallet.sendTransaction({ data, gas: revertingTransactionGas, chain, account: wallet.account })
    const receipt = await publicClient.waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('reverted')
    if (receipt.contractAddress) expect(await publicClient.getCode({ address: receipt.contractAddress })).toBeUndefined()
  })

  it('starts with its owner; only the owner adds and revokes keys or hands the account over (NotOwner)', async () => {
    const account = await newAccount()
    expect(await ownerOf(account)).toBe(owner)
    const key = await newSessionKey()
    await expectRevert(outsiderKey, account, 'addSessionKey', [key.address, token.address, usdc(10n), (await latestTimestamp()) + day], { errorName: 'NotOwner', args: [outsider] })
    expect(await sessionKeyOf(account, key.address)).toEqual({ allowedToken: zeroAddress, cap: 0n, spent: 0n, expiry: 0n, revoked: false })
    expect(await isValid(account, key.address, token.address, usdc(1n))).toBe(false)

    await addKey(account, key.address, { cap: usdc(10n) })
    // A session key manages nothing either: not even itself.
    await expectRevert(key.privateKey, account, 'addSessionKey', [newRecipient(), token.address, usdc(10n), (await latestTimestamp()) + day], { errorName: 'NotOwner', args: [key.address] })
    await expectRevert(outsiderKey, account, 'revokeSessionKey', [key.address], { errorName: 'NotOwner', args: [outsider] })
    await expectRevert(key.privateKey, account, 'revokeSessionKey', [key.address], { errorName: 'NotOwner', args: [key.address] })
    await expectRevert(outsiderKey, account, 'transferOwnership', [outsider], { errorName: 'NotOwner', args: [outsider] })
    await expectRevert(key.privateKey, account, 'transferOwnership', [key.address], { errorName: 'NotOwner', args: [key.address] })
    expect(await ownerOf(account)).toBe(owner)
    expect((await sessionKeyOf(account, key.address)).revoked).toBe(false)
  })

  it('addSessionKey refuses a zero key or token, a zero cap, an expiry not after the block, and a key added before', async () => {
    const account = await newAccount()
    const key = await newSessionKey()
    const expiry = (await latestTimestamp()) + day
    await expectRevert(ownerKey, account, 'addSessionKey', [zeroAddress, token.address, usdc(10n), expiry], { errorName: 'ZeroAddress', args: [] })
    await expectRevert(ownerKey, account, 'addSessionKey', [key.address, zeroAddress, usdc(10n), expiry], { errorName: 'ZeroAddress', args: [] })
    await expectRevert(ownerKey, account, 'addSessionKey', [key.address, token.address, 0n, expiry], { errorName: 'ZeroAmount', args: [] })

    // The boundary, with the block's timestamp fixed: an expiry equal to it is refused, one second later is accepted.
    const at = (await latestTimestamp()) + 100n
    await testClient.setNextBlockTimestamp({ timestamp: at })
    const refused = await expectRevert(ownerKey, account, 'addSessionKey', [key.address, token.address, usdc(10n), at], { errorName: 'ExpiryNotInFuture', args: [at, at] })
    expect(await blockTimestamp(refused.blockNumber)).toBe(at)
    await testClient.setNextBlockTimestamp({ timestamp: at + 1n })
    await expectRevert(ownerKey, account, 'addSessionKey', [key.address, token.address, usdc(10n), at], { errorName: 'ExpiryNotInFuture', args: [at, at + 1n] })
    expect(await sessionKeyOf(account, key.address)).toEqual({ allowedToken: zeroAddress, cap: 0n, spent: 0n, expiry: 0n, revoked: false })
    await testClient.setNextBlockTimestamp({ timestamp: at + 2n })
    await addKey(account, key.address, { cap: usdc(10n), expiry: at + 3n })

    // Added once: neither a live key nor a revoked one can be added again (its spend is never reset).
    await expectRevert(ownerKey, account, 'addSessionKey', [key.address, token.address, usdc(50n), (await latestTimestamp()) + day], { errorName: 'SessionKeyExists', args: [key.address] })
    await send(ownerKey, account, 'revokeSessionKey', [key.address])
    await expectRevert(ownerKey, account, 'addSessionKey', [key.address, token.address, usdc(50n), (await latestTimestamp()) + day], { errorName: 'SessionKeyExists', args: [key.address] })
    expect(await sessionKeyOf(account, key.address)).toEqual({ allowedToken: token.address, cap: usdc(10n), spent: 0n, expiry: at + 3n, revoked: true })
  })

  it('transferOwnership hands management to the new owner, keeps the session keys, and refuses zero', async () => {
    const account = await newAccount()
    const key = await newSessionKey()
    await addKey(account, key.address, { cap: usdc(100n) })

    await expectRevert(ownerKey, account, 'transferOwnership', [zeroAddress], { errorName: 'ZeroAddress', args: [] })
    const handover = await send(ownerKey, account, 'transferOwnership', [outsider])
    const events = parseEventLogs({ abi: account.abi, eventName: 'OwnershipTransferred', logs: handover.logs })
    expect(events.map((event) => event.args)).toEqual([{ previousOwner: owner, newOwner: outsider }])
    expect(await ownerOf(account)).toBe(outsider)

    // The former owner is now nobody to the account: it manages nothing and is no key.
    await expectRevert(ownerKey, account, 'addSessionKey', [newRecipient(), token.address, usdc(1n), (await latestTimestamp()) + day], { errorName: 'NotOwner', args: [owner] })
    await expectRevert(ownerKey, account, 'revokeSessionKey', [key.address], { errorName: 'NotOwner', args: [owner] })
    await expectExecuteRefused(ownerHolder(), account, [token.address, newRecipient(), usdc(1n)], { errorName: 'SessionKeyUnknown', args: [owner] })

    // The key added by the former owner still works, and the new owner manages keys.
    await expectExecuted(key, account, [token.address, newRecipient(), usdc(40n)])
    const second = await newSessionKey()
    const receipt = await send(outsiderKey, account, 'addSessionKey', [second.address, token.address, usdc(5n), (await latestTimestamp()) + day])
    expect(receipt.status).toBe('success')
    await expectExecuted(second, account, [token.address, newRecipient(), usdc(5n)])
    expect((await send(outsiderKey, account, 'revokeSessionKey', [key.address])).status).toBe('success')
  })
})

describe('SmartAccount: execute', () => {
  it('moves tokens with a valid session key: balances, receipt, and the Executed and Transfer logs', async () => {
    const account = await newAccount()
    const key = await newSessionKey()
    const recipient = newRecipient()
    await addKey(account, key.address, { cap: usdc(300n) })
    expect(await isValid(account, key.address, token.address, usdc(100n))).toBe(true)

    const wallet = walletFor(key.privateKey)
    const hash = await wallet.writeContract({ address: account.address, abi: account.abi, functionName: 'execute', args: [token.address, recipient, usdc(100n)], chain, account: wallet.account })
    const receipt = await publicClient.waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(receipt.transactionHash).toBe(hash)
    expect(receipt.transactionHash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(getAddress(receipt.from)).toBe(key.address)
    expect(getAddress(receipt.to!)).toBe(account.address)
    const transaction = await publicClient.getTransaction({ hash })
    expect(receipt.blockNumber).toBeGreaterThan(0n)
    expect(transaction.blockNumber).toBe(receipt.blockNumber)
    expect(receipt.blockHash).toBe((await publicClient.getBlock({ blockNumber: receipt.blockNumber })).hash)

    // Anvil mines one transaction per block, so the logs are the block's first two: the account's
    // Executed, emitted before the token is called (checks-effects-interactions), then the token's Transfer.
    const logs = parseEventLogs({ abi: [...account.abi, ...usdcAbi], logs: receipt.logs })
    expect(logs.map((log) => ({ eventName: log.eventName, address: getAddress(log.address), logIndex: log.logIndex, transactionHash: log.transactionHash, args: log.args }))).toEqual([
      {
        eventName: 'Executed',
        address: account.address,
        logIndex: 0,
        transactionHash: hash,
        args: { sessionKey: key.address, token: token.address, to: recipient, amount: usdc(100n), spentAfter: usdc(100n) },
      },
      {
        eventName: 'Transfer',
        address: token.address,
        logIndex: 1,
        transactionHash: hash,
        args: { from: account.address, to: recipient, value: usdc(100n) },
      },
    ])
    // The Transfer is found the way a reconciler finds it: by the token's logs in the receipt's block.
    const found = await publicClient.getLogs({ address: token.address, blockHash: receipt.blockHash })
    expect(found.map((log) => ({ transactionHash: log.transactionHash, logIndex: log.logIndex }))).toEqual([{ transactionHash: hash, logIndex: 1 }])

    expect(await balanceOf(token.address, recipient)).toBe(usdc(100n))
    expect(await balanceOf(token.address, account.address)).toBe(accountFunding - usdc(100n))
    expect((await sessionKeyOf(account, key.address)).spent).toBe(usdc(100n))
    expect(await isValid(account, key.address, token.address, usdc(200n))).toBe(true)
    expect(await isValid(account, key.address, token.address, usdc(200n) + 1n)).toBe(false)
  })

  it('counts the cap across transfers: SpendCapExceeded past it, exactly the cap is allowed', async () => {
    const account = await newAccount()
    const key = await newSessionKey()
    const recipient = newRecipient()
    const cap = usdc(300n)
    await addKey(account, key.address, { cap })

    // One transfer over the cap, from a key that spent nothing.
    await expectExecuteRefused(key, account, [token.address, recipient, cap + 1n], { errorName: 'SpendCapExceeded', args: [key.address, cap, 0n, cap + 1n] })

    const first = await expectExecuted(key, account, [token.address, recipient, usdc(200n)])
    expect(executedEvents(account, first).map((event) => event.spentAfter)).toEqual([usdc(200n)])
    // 101 more would be 301 in total: refused although 101 alone is under the cap.
    expect(await isValid(account, key.address, token.address, usdc(100n))).toBe(true)
    await expectExecuteRefused(key, account, [token.address, recipient, usdc(101n)], { errorName: 'SpendCapExceeded', args: [key.address, cap, usdc(200n), usdc(101n)] })
    // The largest amount there is is refused by the cap check, not by an arithmetic overflow.
    await expectExecuteRefused(key, account, [token.address, recipient, maxUint256], { errorName: 'SpendCapExceeded', args: [key.address, cap, usdc(200n), maxUint256] })

    const second = await expectExecuted(key, account, [token.address, recipient, usdc(100n)])
    expect(executedEvents(account, second).map((event) => event.spentAfter)).toEqual([cap])
    await expectExecuteRefused(key, account, [token.address, recipient, 1n], { errorName: 'SpendCapExceeded', args: [key.address, cap, cap, 1n] })
    expect(await balanceOf(token.address, recipient)).toBe(cap)
    expect(await sessionKeyOf(account, key.address)).toMatchObject({ cap, spent: cap })
  })

  it('refuses a key from the first block whose timestamp is its expiry (SessionKeyExpired)', async () => {
    const account = await newAccount()
    const key = await newSessionKey()
    const recipient = newRecipient()
    const { expiry } = await addKey(account, key.address, { cap: usdc(100n) })

    await testClient.setNextBlockTimestamp({ timestamp: expiry - 1n })
    const last = await expectExecuted(key, account, [token.address, recipient, usdc(1n)])
    expect(await blockTimestamp(last.blockNumber)).toBe(expiry - 1n)
    expect(await isValid(account, key.address, token.address, usdc(1n), last.blockNumber)).toBe(true)

    await testClient.setNextBlockTimestamp({ timestamp: expiry })
    const refused = await expectExecuteRefused(key, account, [token.address, recipient, usdc(1n)], { errorName: 'SessionKeyExpired', args: [key.address, expiry] })
    expect(await blockTimestamp(refused.blockNumber)).toBe(expiry)

    // And long after, with evm_increaseTime and a mined block.
    await testClient.increaseTime({ seconds: 3_600 })
    await testClient.mine({ blocks: 1 })
    expect(await latestTimestamp()).toBeGreaterThanOrEqual(expiry + 3_600n)
    expect(await isValid(account, key.address, token.address, usdc(1n))).toBe(false)
    await expectExecuteRefused(key, account, [token.address, recipient, usdc(1n)], { errorName: 'SessionKeyExpired', args: [key.address, expiry] })
    expect(await balanceOf(token.address, recipient)).toBe(usdc(1n))
    expect(await sessionKeyOf(account, key.address)).toMatchObject({ spent: usdc(1n), expiry, revoked: false })
  })

  it('refuses a revoked key (SessionKeyIsRevoked) for good, and a second revocation', async () => {
    const account = await newAccount()
    const key = await newSessionKey()
    const recipient = newRecipient()
    await addKey(account, key.address, { cap: usdc(100n) })
    await expectExecuted(key, account, [token.address, recipient, usdc(10n)])

    const revocation = await send(ownerKey, account, 'revokeSessionKey', [key.address])
    const events = parseEventLogs({ abi: account.abi, eventName: 'SessionKeyRevoked', logs: revocation.logs })
    expect(events.map((event) => event.args)).toEqual([{ key: key.address }])
    expect(await sessionKeyOf(account, key.address)).toMatchObject({ spent: usdc(10n), revoked: true })

    await expectExecuteRefused(key, account, [token.address, recipient, usdc(10n)], { errorName: 'SessionKeyIsRevoked', args: [key.address] })
    await expectRevert(ownerKey, account, 'revokeSessionKey', [key.address], { errorName: 'SessionKeyIsRevoked', args: [key.address] })
    expect(await balanceOf(token.address, recipient)).toBe(usdc(10n))
  })

  it('refuses an unknown key (SessionKeyUnknown), including a key of another account', async () => {
    const account = await newAccount()
    const stranger = await newSessionKey()
    const recipient = newRecipient()
    await expectExecuteRefused(stranger, account, [token.address, recipient, usdc(1n)], { errorName: 'SessionKeyUnknown', args: [stranger.address] })
    await expectRevert(ownerKey, account, 'revokeSessionKey', [stranger.address], { errorName: 'SessionKeyUnknown', args: [stranger.address] })
    // An account that is not the owner and holds no key: the dev account used as an outsider.
    await expectExecuteRefused({ privateKey: outsiderKey, address: outsider }, account, [token.address, recipient, usdc(1n)], { errorName: 'SessionKeyUnknown', args: [outsider] })

    const other = await newAccount()
    await addKey(other, stranger.address, { cap: usdc(100n) })
    expect(await isValid(other, stranger.address, token.address, usdc(1n))).toBe(true)
    await expectExecuteRefused(stranger, account, [token.address, recipient, usdc(1n)], { errorName: 'SessionKeyUnknown', args: [stranger.address] })
  })

  it('refuses another token than the key allows (TokenNotAllowed), and a zero token', async () => {
    const account = await newAccount()
    const otherToken = { address: (await deploy(ownerKey, usdcArtifact, [])).address, abi: usdcAbi }
    await send(ownerKey, otherToken, 'mint', [account.address, usdc(50n)])
    const key = await newSessionKey()
    const recipient = newRecipient()
    await addKey(account, key.address, { cap: usdc(100n) })

    await expectExecuteRefused(key, account, [otherToken.address, recipient, usdc(1n)], { errorName: 'TokenNotAllowed', args: [key.address, otherToken.address] })
    await expectExecuteRefused(key, account, [zeroAddress, recipient, usdc(1n)], { errorName: 'TokenNotAllowed', args: [key.address, zeroAddress] })
    expect(await balanceOf(otherToken.address, account.address)).toBe(usdc(50n))
    expect(await balanceOf(otherToken.address, recipient)).toBe(0n)
  })

  it('refuses a zero amount (ZeroAmount) and a zero recipient (ZeroAddress)', async () => {
    const account = await newAccount()
    const key = await newSessionKey()
    await addKey(account, key.address, { cap: usdc(100n) })
    await expectExecuteRefused(key, account, [token.address, newRecipient(), 0n], { errorName: 'ZeroAmount', args: [] })
    // The recipient is the one thing isSessionKeyValid does not check: the key is valid for this amount.
    await expectExecuteRefused(key, account, [token.address, zeroAddress, usdc(1n)], { errorName: 'ZeroAddress', args: [] }, true)
    expect(await balanceOf(token.address, account.address)).toBe(accountFunding)
  })

  it('reverts with the token\'s error when the account cannot cover a transfer, and counts nothing', async () => {
    const account = await newAccount()
    const key = await newSessionKey()
    await addKey(account, key.address, { cap: usdc(5_000n) })
    const amount = accountFunding + 1n
    // The key may move this much; the balance is the token's business, so isSessionKeyValid says true.
    await expectExecuteRefused(
      key,
      account,
      [token.address, newRecipient(), amount],
      { errorName: 'ERC20InsufficientBalance', args: [account.address, accountFunding, amount] },
      true,
    )
    expect((await sessionKeyOf(account, key.address)).spent).toBe(0n)
  })

  it('lets the owner move any amount of any token, counting against no cap', async () => {
    const account = await newAccount()
    const key = await newSessionKey()
    await addKey(account, key.address, { cap: usdc(10n) })
    const recipient = newRecipient()
    expect(await isValid(account, owner, token.address, maxUint256)).toBe(true)

    const receipt = await expectExecuted(ownerHolder(), account, [token.address, recipient, usdc(600n)])
    expect(executedEvents(account, receipt)).toEqual([{ sessionKey: owner, token: token.address, to: recipient, amount: usdc(600n), spentAfter: 0n }])
    // The owner's transfers do not touch any key's spend.
    expect((await sessionKeyOf(account, key.address)).spent).toBe(0n)
    expect(await sessionKeyOf(account, owner)).toEqual({ allowedToken: zeroAddress, cap: 0n, spent: 0n, expiry: 0n, revoked: false })

    await expectExecuteRefused(ownerHolder(), account, [token.address, recipient, 0n], { errorName: 'ZeroAmount', args: [] })
    await expectExecuteRefused(ownerHolder(), account, [zeroAddress, recipient, usdc(1n)], { errorName: 'ZeroAddress', args: [] })
    await expectExecuteRefused(ownerHolder(), account, [token.address, zeroAddress, usdc(1n)], { errorName: 'ZeroAddress', args: [] }, true)
    expect(await balanceOf(token.address, recipient)).toBe(usdc(600n))
  })
})

/**
 * Tokens that are not OpenZeppelin ERC-20s, compiled here with the build's settings. `NoReturnToken`'s
 * transfer returns nothing (as USDT's does) and records the spend the account reports for the
 * transaction's signer while the transfer runs; `FalseReturnToken`'s returns false and moves nothing.
 */
const mockTokensSource = `// SPDX-License-Identifier: UNLICENSED
pragma solidity ^0.8.24;

interface ISmartAccount {
    function sessionKey(address key) external view returns (address, uint256, uint256, uint256, bool);
}

contract NoReturnToken {
    mapping(address => uint256) public balanceOf;
    uint256 public spentSeenDuringTransfer;

    function mint(address to, uint256 amount) external {
        balanceOf[to] += amount;
    }

    function transfer(address to, uint256 amount) external {
        (, , uint256 spent, , ) = ISmartAccount(msg.sender).sessionKey(tx.origin);
        spentSeenDuringTransfer = spent;
        balanceOf[msg.sender] -= amount;
        balanceOf[to] += amount;
    }
}

contract FalseReturnToken {
    mapping(address => uint256) public balanceOf;

    function mint(address to, uint256 amount) external {
        balanceOf[to] += amount;
    }

    function transfer(address, uint256) external pure returns (bool) {
        return false;
    }
}
`

function compileMockTokens(): Record<'NoReturnToken' | 'FalseReturnToken', { abi: unknown[]; bytecode: Hex }> {
  const sourceUnitName = 'test/mock-tokens.sol'
  const input = {
    language: 'Solidity',
    sources: { [sourceUnitName]: { content: mockTokensSource } },
    settings: { ...compilerSettings, outputSelection: { [sourceUnitName]: { '*': ['abi', 'evm.bytecode.object'] } } },
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[]
    contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>
  }
  const errors = (output.errors ?? []).filter((message) => message.severity === 'error')
  if (errors.length > 0) throw new Error(errors.map((error) => error.formattedMessage).join('\n'))
  const contract = (name: string) => {
    const compiled = output.contracts[sourceUnitName]?.[name]
    if (compiled === undefined) throw new Error(`no output for ${name}`)
    return { abi: compiled.abi, bytecode: `0x${compiled.evm.bytecode.object}` as Hex }
  }
  return { NoReturnToken: contract('NoReturnToken'), FalseReturnToken: contract('FalseReturnToken') }
}

describe('SmartAccount: token handling', () => {
  const mocks = compileMockTokens()

  it('accepts a token whose transfer returns nothing, and the token sees the spend already counted', async () => {
    const mock = await deploy(ownerKey, mocks.NoReturnToken, [])
    const account = await newAccount()
    await send(ownerKey, mock, 'mint', [account.address, usdc(1_000n)])
    const key = await newSessionKey()
    const recipient = newRecipient()
    await addKey(account, key.address, { token: mock.address, cap: usdc(500n) })
    const read = (functionName: string, args: readonly unknown[] = []) => publicClient.readContract({ address: mock.address, abi: mock.abi, functionName, args })

    await expectExecuted(key, account, [mock.address, recipient, usdc(200n)])
    // Checks-effects-interactions: while the token ran, the account already reported the new spend.
    expect(await read('spentSeenDuringTransfer')).toBe(usdc(200n))
    await expectExecuted(key, account, [mock.address, recipient, usdc(300n)])
    expect(await read('spentSeenDuringTransfer')).toBe(usdc(500n))
    expect(await read('balanceOf', [recipient])).toBe(usdc(500n))
    await expectExecuteRefused(key, account, [mock.address, recipient, 1n], { errorName: 'SpendCapExceeded', args: [key.address, usdc(500n), usdc(500n), 1n] })
  })

  it('refuses a token whose transfer returns false, and a token address with no code (SafeERC20FailedOperation)', async () => {
    const falseToken = await deploy(ownerKey, mocks.FalseReturnToken, [])
    const codeless = newRecipient()
    const account = await newAccount()
    await send(ownerKey, falseToken, 'mint', [account.address, usdc(1_000n)])
    for (const tokenAddress of [falseToken.address, codeless]) {
      const key = await newSessionKey()
      await addKey(account, key.address, { token: tokenAddress, cap: usdc(100n) })
      // The key may move it; the token's answer is what refuses it, so isSessionKeyValid says true.
      await expectExecuteRefused(key, account, [tokenAddress, newRecipient(), usdc(10n)], { errorName: 'SafeERC20FailedOperation', args: [tokenAddress] }, true)
      expect((await sessionKeyOf(account, key.address)).spent).toBe(0n)
    }
    expect(await publicClient.readContract({ address: falseToken.address, abi: falseToken.abi, functionName: 'balanceOf', args: [account.address] })).toBe(usdc(1_000n))
  })
})
