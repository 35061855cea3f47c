/**
 * AuditAnchor against a real local chain (anvil): every check below is a real transaction or eth_call on
 * the compiled artifact, deployed the way operators deploy it. No database is involved.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { SimpleMerkleTree } from '@openzeppelin/merkle-tree'
import { getProof, makeMerkleTree, processProof } from '@openzeppelin/merkle-tree/dist/core.js'
import {
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  parseEventLogs,
  type Address,
  type Hex,
  type TransactionReceipt,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { artifactPath, compileAuditAnchor, renderArtifact } from '../../../scripts/compile-contracts.ts'
import {
  anchorAbi,
  anchorBatchPairsMax,
  createAnchorChain,
  deployAnchorContract,
  tenantKey,
  type AnchorChain,
} from '../../../src/modules/audit/chain/anchor-contract.ts'
import { startAnvil, type Anvil } from '../../support/anvil.ts'

/** Enough for any call here, so a transaction that must revert is sent without a gas estimate refusing it first. */
const revertingTransactionGas = 1_000_000n
const zeroRoot: Hex = `0x${'0'.repeat(64)}`

let anvil: Anvil
let publicClient: ReturnType<typeof createPublicClient>
let publisherKey: Hex
let outsiderKey: Hex
let contractAddress: Address
let chain: AnchorChain

const randomBytes32 = (): Hex => `0x${randomBytes(32).toString('hex')}`

beforeAll(async () => {
  anvil = await startAnvil()
  const [first, second] = anvil.privateKeys
  if (first === undefined || second === undefined) throw new Error('anvil gave fewer than two dev keys')
  publisherKey = first
  outsiderKey = second
  publicClient = createPublicClient({ transport: http(anvil.rpcUrl, { retryCount: 0 }) })
  contractAddress = (await deployAnchorContract({ rpcUrl: anvil.rpcUrl, privateKey: publisherKey })).address
  chain = createAnchorChain({ rpcUrl: anvil.rpcUrl, contractAddress, privateKey: publisherKey })
})

afterAll(async () => {
  await anvil?.stop()
})

function walletFor(privateKey: Hex) {
  return createWalletClient({
    account: privateKeyToAccount(privateKey),
    chain: defineChain({
      id: anvil.chainId,
      name: 'anvil',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [anvil.rpcUrl] } },
    }),
    transport: http(anvil.rpcUrl, { retryCount: 0 }),
  })
}

/** Sends a transaction to the contract (estimating gas unless `gas` is given) and waits for its receipt. */
async function send(privateKey: Hex, functionName: string, args: readonly unknown[], options: { address?: Address; gas?: bigint } = {}) {
  const wallet = walletFor(privateKey)
  const hash = await wallet.writeContract({
    address: options.address ?? contractAddress,
    abi: anchorAbi,
    functionName,
    args,
    chain: wallet.chain,
    account: wallet.account,
    ...(options.gas === undefined ? {} : { gas: options.gas }),
  })
  return publicClient.waitForTransactionReceipt({ hash })
}

/** What the call would return, by eth_call from `privateKey`'s account. */
async function simulate(privateKey: Hex, functionName: string, args: readonly unknown[], address: Address = contractAddress) {
  const { result } = await publicClient.simulateContract({ account: privateKeyToAccount(privateKey), address, abi: anchorAbi, functionName, args })
  return result
}

/**
 * Proves a revert two ways: the eth_call decodes the custom error and its arguments, and the same call
 * sent as a real transaction (gas fixed, so nothing refuses it before mining) is mined as reverted.
 */
async function expectRevert(
  privateKey: Hex,
  functionName: string,
  args: readonly unknown[],
  expected: { errorName: string; args: readonly unknown[] },
  address: Address = contractAddress,
) {
  let decoded: { errorName: string | undefined; args: readonly unknown[] | undefined } | undefined
  try {
    await simulate(privateKey, functionName, args, address)
  } catch (error) {
    const revert = error instanceof BaseError ? error.walk((cause) => cause instanceof ContractFunctionRevertedError) : null
    if (!(revert instanceof ContractFunctionRevertedError)) throw error
    decoded = { errorName: revert.data?.errorName, args: revert.data?.args ?? [] }
  }
  expect(decoded).toEqual(expected)
  const receipt = await send(privateKey, functionName, args, { address, gas: revertingTransactionGas })
  expect(receipt.status).toBe('reverted')
  expect(receipt.logs).toEqual([])
}

function anchoredEvents(receipt: TransactionReceipt) {
  return parseEventLogs({ abi: anchorAbi, eventName: 'Anchored', logs: receipt.logs }).map((log) => {
    expect(log.address.toLowerCase()).toBe(contractAddress.toLowerCase())
    return log.args as unknown as { tenantId: Hex; root: Hex; sequence: bigint }
  })
}

async function blockTimestamp(blockNumber: bigint): Promise<bigint> {
  return (await publicClient.getBlock({ blockNumber })).timestamp
}

describe('tenantKey', () => {
  it('is 16 zero bytes followed by the UUID bytes', () => {
    expect(tenantKey('0190a5c4-7b2e-7c3d-8e4f-123456789abc')).toBe('0x000000000000000000000000000000000190a5c47b2e7c3d8e4f123456789abc')
    expect(tenantKey('ffffffff-ffff-ffff-ffff-ffffffffffff')).toBe(`0x${'0'.repeat(32)}${'f'.repeat(32)}`)
  })

  it.each([
    ['not a uuid', 'tenant-1'],
    ['no dashes', '0190a5c47b2e7c3d8e4f123456789abc'],
    ['uppercase (not the canonical form, so not reversible to the same id)', '0190A5C4-7B2E-7C3D-8E4F-123456789ABC'],
    ['too short', '0190a5c4-7b2e-7c3d-8e4f-123456789ab'],
    ['a non-hex digit', '0190a5c4-7b2e-7c3d-8e4f-123456789abg'],
    ['surrounding space', ' 0190a5c4-7b2e-7c3d-8e4f-123456789abc'],
    ['empty', ''],
  ])('rejects %s', (_label, tenantId) => {
    expect(() => tenantKey(tenantId)).toThrow(TypeError)
  })
})

describe('artifact', () => {
  it('equals a fresh compile of the source, byte for byte', () => {
    expect(renderArtifact(compileAuditAnchor())).toBe(readFileSync(artifactPath, 'utf8'))
  })

  it('is the code running at the deployed address', async () => {
    const artifact = JSON.parse(readFileSync(artifactPath, 'utf8')) as { deployedBytecode: Hex }
    expect(await publicClient.getCode({ address: contractAddress })).toBe(artifact.deployedBytecode)
  })
})

describe('anchor', () => {
  it('publishes a pair, emits Anchored and counts the tenant sequence up', async () => {
    const tenantId = randomUUID()
    const key = tenantKey(tenantId)
    expect(await chain.latestAnchor(tenantId)).toBeNull()

    const firstRoot = randomBytes32()
    const first = await send(publisherKey, 'anchor', [key, firstRoot])
    expect(first.status).toBe('success')
    expect(anchoredEvents(first)).toEqual([{ tenantId: key, root: firstRoot, sequence: 1n }])
    expect(await chain.isPublished(tenantId, firstRoot)).toBe(true)
    expect(await chain.publishedBlock(tenantId, firstRoot)).toBe(first.blockNumber)
    expect(await chain.latestAnchor(tenantId)).toEqual({
      root: firstRoot,
      blockNumber: first.blockNumber,
      timestamp: await blockTimestamp(first.blockNumber),
      sequence: 1n,
    })

    const secondRoot = randomBytes32()
    const second = await send(publisherKey, 'anchor', [key, secondRoot])
    expect(anchoredEvents(second)).toEqual([{ tenantId: key, root: secondRoot, sequence: 2n }])
    expect(second.blockNumber).toBeGreaterThan(first.blockNumber)
    expect(await chain.latestAnchor(tenantId)).toEqual({
      root: secondRoot,
      blockNumber: second.blockNumber,
      timestamp: await blockTimestamp(second.blockNumber),
      sequence: 2n,
    })
    // The earlier root stays published, in its own block.
    expect(await chain.isPublished(tenantId, firstRoot)).toBe(true)
    expect(await chain.publishedBlock(tenantId, firstRoot)).toBe(first.blockNumber)
  })

  it('keeps tenants apart: a root published for one tenant is not published for another', async () => {
    const [tenantA, tenantB] = [randomUUID(), randomUUID()]
    const root = randomBytes32()
    await send(publisherKey, 'anchor', [tenantKey(tenantA), root])
    expect(await chain.isPublished(tenantA, root)).toBe(true)
    expect(await chain.isPublished(tenantB, root)).toBe(false)
    expect(await chain.publishedBlock(tenantB, root)).toBeNull()
    expect(await chain.latestAnchor(tenantB)).toBeNull()
    // The same root can then be published for the other tenant, starting its own sequence.
    const receipt = await send(publisherKey, 'anchor', [tenantKey(tenantB), root])
    expect(anchoredEvents(receipt)).toEqual([{ tenantId: tenantKey(tenantB), root, sequence: 1n }])
  })

  it('rejects a duplicate pair with AlreadyPublished and leaves the tenant head alone', async () => {
    const tenantId = randomUUID()
    const key = tenantKey(tenantId)
    const root = randomBytes32()
    const first = await send(publisherKey, 'anchor', [key, root])
    await send(publisherKey, 'anchor', [key, randomBytes32()])
    const before = await chain.latestAnchor(tenantId)
    await expectRevert(publisherKey, 'anchor', [key, root], { errorName: 'AlreadyPublished', args: [key, root] })
    expect(await chain.latestAnchor(tenantId)).toEqual(before)
    expect(await chain.publishedBlock(tenantId, root)).toBe(first.blockNumber)
  })

  it('rejects a zero root with ZeroRoot', async () => {
    const tenantId = randomUUID()
    const key = tenantKey(tenantId)
    await expectRevert(publisherKey, 'anchor', [key, zeroRoot], { errorName: 'ZeroRoot', args: [key] })
    expect(await chain.latestAnchor(tenantId)).toBeNull()
    expect(await chain.isPublished(tenantId, zeroRoot)).toBe(false)
  })

  it('rejects any account but the publisher with NotPublisher, for anchor and anchorBatch', async () => {
    const tenantId = randomUUID()
    const key = tenantKey(tenantId)
    const root = randomBytes32()
    const outsider = privateKeyToAccount(outsiderKey).address
    await expectRevert(outsiderKey, 'anchor', [key, root], { errorName: 'NotPublisher', args: [outsider] })
    await expectRevert(outsiderKey, 'anchorBatch', [[key], [root]], { errorName: 'NotPublisher', args: [outsider] })
    expect(await chain.isPublished(tenantId, root)).toBe(false)
  })
})

describe('setPublisher', () => {
  it('hands the role over with an event; only the current publisher can, and never to zero', async () => {
    const { address } = await deployAnchorContract({ rpcUrl: anvil.rpcUrl, privateKey: publisherKey })
    const original = privateKeyToAccount(publisherKey).address
    const successor = privateKeyToAccount(outsiderKey).address
    const publisherOf = () => publicClient.readContract({ address, abi: anchorAbi, functionName: 'publisher' })
    expect(await publisherOf()).toBe(original)

    await expectRevert(outsiderKey, 'setPublisher', [successor], { errorName: 'NotPublisher', args: [successor] }, address)
    await expectRevert(publisherKey, 'setPublisher', ['0x0000000000000000000000000000000000000000'], { errorName: 'ZeroPublisher', args: [] }, address)

    const handover = await send(publisherKey, 'setPublisher', [successor], { address })
    const events = parseEventLogs({ abi: anchorAbi, eventName: 'PublisherChanged', logs: handover.logs })
    expect(events.map((event) => event.args)).toEqual([{ previousPublisher: original, newPublisher: successor }])
    expect(await publisherOf()).toBe(successor)

    const key = tenantKey(randomUUID())
    await expectRevert(publisherKey, 'anchor', [key, randomBytes32()], { errorName: 'NotPublisher', args: [original] }, address)
    expect((await send(outsiderKey, 'anchor', [key, randomBytes32()], { address })).status).toBe('success')
  })
})

describe('anchorBatch', () => {
  it(`publishes ${anchorBatchPairsMax} pairs in one transaction`, async () => {
    const tenantIds = Array.from({ length: anchorBatchPairsMax }, () => randomUUID())
    const keys = tenantIds.map(tenantKey)
    const roots = tenantIds.map(() => randomBytes32())
    expect(await simulate(publisherKey, 'anchorBatch', [keys, roots])).toBe(BigInt(anchorBatchPairsMax))
    const receipt = await send(publisherKey, 'anchorBatch', [keys, roots])
    expect(anchoredEvents(receipt)).toEqual(keys.map((key, index) => ({ tenantId: key, root: roots[index], sequence: 1n })))
    for (const [index, tenantId] of tenantIds.entries()) {
      expect(await chain.publishedBlock(tenantId, roots[index]!)).toBe(receipt.blockNumber)
    }
  })

  it(`rejects ${anchorBatchPairsMax + 1} pairs with BatchTooLarge`, async () => {
    const keys = Array.from({ length: anchorBatchPairsMax + 1 }, () => tenantKey(randomUUID()))
    const roots = keys.map(() => randomBytes32())
    await expectRevert(publisherKey, 'anchorBatch', [keys, roots], { errorName: 'BatchTooLarge', args: [BigInt(anchorBatchPairsMax + 1), BigInt(anchorBatchPairsMax)] })
  })

  it('rejects lists of different lengths with LengthMismatch', async () => {
    await expectRevert(publisherKey, 'anchorBatch', [[tenantKey(randomUUID())], []], { errorName: 'LengthMismatch', args: [1n, 0n] })
  })

  it('rejects the whole batch when one root is zero', async () => {
    const tenantId = randomUUID()
    const key = tenantKey(tenantId)
    const good = randomBytes32()
    await expectRevert(publisherKey, 'anchorBatch', [[key, key], [good, zeroRoot]], { errorName: 'ZeroRoot', args: [key] })
    expect(await chain.isPublished(tenantId, good)).toBe(false)
  })

  it('skips 3 already-published pairs and publishes only the 2 new ones', async () => {
    const tenantId = randomUUID()
    const key = tenantKey(tenantId)
    const oldRoots = [randomBytes32(), randomBytes32(), randomBytes32()]
    const earlier = await send(publisherKey, 'anchorBatch', [[key, key, key], oldRoots])
    expect(anchoredEvents(earlier).map((event) => event.sequence)).toEqual([1n, 2n, 3n])

    const newRoots = [randomBytes32(), randomBytes32()]
    const mixed = [oldRoots[0]!, newRoots[0]!, oldRoots[1]!, oldRoots[2]!, newRoots[1]!]
    const args = [mixed.map(() => key), mixed] as const
    expect(await simulate(publisherKey, 'anchorBatch', args)).toBe(2n)
    const receipt = await send(publisherKey, 'anchorBatch', args)
    expect(anchoredEvents(receipt)).toEqual([
      { tenantId: key, root: newRoots[0], sequence: 4n },
      { tenantId: key, root: newRoots[1], sequence: 5n },
    ])
    for (const root of oldRoots) expect(await chain.publishedBlock(tenantId, root)).toBe(earlier.blockNumber)
    for (const root of newRoots) expect(await chain.publishedBlock(tenantId, root)).toBe(receipt.blockNumber)
    expect((await chain.latestAnchor(tenantId))?.root).toBe(newRoots[1])
  })

  it('publishes a pair repeated within one call once', async () => {
    const key = tenantKey(randomUUID())
    const [rootA, rootB] = [randomBytes32(), randomBytes32()]
    const args = [[key, key, key], [rootA, rootA, rootB]] as const
    expect(await simulate(publisherKey, 'anchorBatch', args)).toBe(2n)
    const receipt = await send(publisherKey, 'anchorBatch', args)
    expect(anchoredEvents(receipt)).toEqual([
      { tenantId: key, root: rootA, sequence: 1n },
      { tenantId: key, root: rootB, sequence: 2n },
    ])
  })
})

describe('verifyInclusion', () => {
  // A batch as Steward builds it: leaves are event hashes in chain order, not sorted.
  const leaves = Array.from({ length: 37 }, randomBytes32)
  const tree = makeMerkleTree(leaves)
  const root = tree[0] as Hex
  const proofOf = (position: number) => getProof(tree, tree.length - 1 - position) as Hex[]

  it('matches SimpleMerkleTree with unsorted leaves', () => {
    const simple = SimpleMerkleTree.of(leaves, { sortLeaves: false })
    expect(simple.root).toBe(root)
    for (const position of leaves.keys()) expect(simple.getProof(position)).toEqual(proofOf(position))
  })

  it('accepts every leaf of a 37-leaf tree on chain, and off chain processProof agrees', async () => {
    for (const [position, leaf] of leaves.entries()) {
      const proof = proofOf(position)
      expect(processProof(leaf, proof)).toBe(root)
      expect(await chain.verifyInclusion(root, leaf, proof)).toBe(true)
    }
  })

  it('rejects a wrong leaf, a wrong proof element and a wrong root', async () => {
    for (const position of [0, 17, 36]) {
      const leaf = leaves[position]!
      const proof = proofOf(position)
      const wrongLeaf = randomBytes32()
      expect(processProof(wrongLeaf, proof)).not.toBe(root)
      expect(await chain.verifyInclusion(root, wrongLeaf, proof)).toBe(false)
      // A leaf's proof does not prove its neighbour.
      expect(await chain.verifyInclusion(root, leaves[(position + 1) % leaves.length]!, proof)).toBe(false)
      for (const element of proof.keys()) {
        const tampered = proof.map((value, index) => (index === element ? flipLastBit(value) : value))
        expect(processProof(leaf, tampered)).not.toBe(root)
        expect(await chain.verifyInclusion(root, leaf, tampered)).toBe(false)
      }
      expect(await chain.verifyInclusion(root, leaf, proof.slice(0, -1))).toBe(false)
      expect(await chain.verifyInclusion(flipLastBit(root), leaf, proof)).toBe(false)
    }
  })

  it('verifies an event end to end: publish the root, then isPublished and verifyInclusion', async () => {
    const tenantId = randomUUID()
    const publication = await chain.publish([{ tenantId, root }])
    expect(publication.published).toBe(1)
    expect(await chain.isPublished(tenantId, root)).toBe(true)
    expect(await chain.verifyInclusion(root, leaves[5]!, proofOf(5))).toBe(true)
  })
})

describe('createAnchorChain', () => {
  it('reports the RPC chain id', async () => {
    expect(await chain.chainId()).toBe(anvil.chainId)
    expect(chain.contractAddress).toBe(contractAddress)
  })

  it('publishes a batch, reports the new pairs, and reports 0 when it is sent again', async () => {
    const pairs = Array.from({ length: 3 }, () => ({ tenantId: randomUUID(), root: randomBytes32() }))
    const publication = await chain.publish(pairs)
    expect(publication.published).toBe(3)
    const receipt = await publicClient.getTransactionReceipt({ hash: publication.txHash })
    expect(receipt.status).toBe('success')
    expect(receipt.blockNumber).toBe(publication.blockNumber)
    expect(anchoredEvents(receipt)).toEqual(pairs.map((pair) => ({ tenantId: tenantKey(pair.tenantId), root: pair.root, sequence: 1n })))
    for (const pair of pairs) {
      expect(await chain.publishedBlock(pair.tenantId, pair.root)).toBe(publication.blockNumber)
      expect((await chain.latestAnchor(pair.tenantId))?.root).toBe(pair.root)
    }

    const again = await chain.publish(pairs)
    expect(again.published).toBe(0)
    expect(again.blockNumber).toBeGreaterThan(publication.blockNumber)
    for (const pair of pairs) expect(await chain.publishedBlock(pair.tenantId, pair.root)).toBe(publication.blockNumber)
  })

  it(`refuses 0 and ${anchorBatchPairsMax + 1} pairs, a zero root and a bad tenant id without any RPC request`, async () => {
    const server = await countingRpcServer()
    try {
      const offline = createAnchorChain({ rpcUrl: server.url, contractAddress, privateKey: publisherKey })
      const tooMany = Array.from({ length: anchorBatchPairsMax + 1 }, () => ({ tenantId: randomUUID(), root: randomBytes32() }))
      await expect(offline.publish([])).rejects.toThrow(RangeError)
      await expect(offline.publish(tooMany)).rejects.toThrow(/at most 50 pairs, got 51/)
      await expect(offline.publish([{ tenantId: randomUUID(), root: zeroRoot }])).rejects.toThrow(/root must not be zero/)
      await expect(offline.publish([{ tenantId: 'tenant-1', root: randomBytes32() }])).rejects.toThrow(TypeError)
      expect(server.requests()).toBe(0)
      // The server is reachable: a publication that passes the checks does reach it.
      await expect(offline.publish([{ tenantId: randomUUID(), root: randomBytes32() }])).rejects.toThrow()
      expect(server.requests()).toBeGreaterThan(0)
    } finally {
      await server.close()
    }
  })

  it('refuses to publish without a private key', async () => {
    const readOnly = createAnchorChain({ rpcUrl: anvil.rpcUrl, contractAddress })
    await expect(readOnly.publish([{ tenantId: randomUUID(), root: randomBytes32() }])).rejects.toThrow(/private key/)
  })

  it('fails, instead of reporting 0 published, when the address holds no contract', async () => {
    const nowhere = createAnchorChain({ rpcUrl: anvil.rpcUrl, contractAddress: privateKeyToAccount(outsiderKey).address, privateKey: publisherKey })
    const nonceBefore = await publicClient.getTransactionCount({ address: privateKeyToAccount(publisherKey).address })
    await expect(nowhere.publish([{ tenantId: randomUUID(), root: randomBytes32() }])).rejects.toThrow()
    expect(await publicClient.getTransactionCount({ address: privateKeyToAccount(publisherKey).address })).toBe(nonceBefore)
  })

  it('surfaces the contract error when a publication would revert', async () => {
    const tenantId = randomUUID()
    const root = randomBytes32()
    await send(publisherKey, 'anchor', [tenantKey(tenantId), root])
    const outsiderChain = createAnchorChain({ rpcUrl: anvil.rpcUrl, contractAddress, privateKey: outsiderKey })
    await expect(outsiderChain.publish([{ tenantId, root }])).rejects.toThrow(/NotPublisher/)
  })
})

describe('gas', () => {
  it('amortizes a batch: per pair, anchorBatch of 50 costs less than a single anchor', async () => {
    const { address } = await deployAnchorContract({ rpcUrl: anvil.rpcUrl, privateKey: publisherKey })
    const gasOf = async (functionName: string, args: readonly unknown[]) => {
      const receipt = await send(publisherKey, functionName, args, { address })
      expect(receipt.status).toBe('success')
      return receipt.gasUsed
    }
    const newPairs = (count: number) => {
      const keys = Array.from({ length: count }, () => tenantKey(randomUUID()))
      return { keys, roots: keys.map(() => randomBytes32()) }
    }
    const known = newPairs(anchorBatchPairsMax)
    const figures = {
      anchorNewTenant: await gasOf('anchor', [known.keys[0], known.roots[0]]),
      anchorKnownTenant: await gasOf('anchor', [known.keys[0], randomBytes32()]),
      batch1: await gasOf('anchorBatch', Object.values(newPairs(1))),
      batch10: await gasOf('anchorBatch', Object.values(newPairs(10))),
      batch50: await gasOf('anchorBatch', Object.values(newPairs(50))),
      batch50AllPublishedBefore: 0n,
      batch50KnownTenants: 0n,
    }
    await gasOf('anchorBatch', [known.keys, known.roots])
    figures.batch50KnownTenants = await gasOf('anchorBatch', [known.keys, known.keys.map(() => randomBytes32())])
    figures.batch50AllPublishedBefore = await gasOf('anchorBatch', [known.keys, known.roots])
    console.info(`AuditAnchor gas used: ${JSON.stringify(figures, (_key, value: unknown) => (typeof value === 'bigint' ? Number(value) : value))}`)

    expect(figures.batch50 / 50n).toBeLessThan(figures.anchorNewTenant)
    expect(figures.batch50KnownTenants).toBeLessThan(figures.batch50)
    expect(figures.batch50AllPublishedBefore).toBeLessThan(figures.batch50KnownTenants / 4n)
  })
})

function flipLastBit(value: Hex): Hex {
  const last = parseInt(value.slice(-1), 16) ^ 1
  return `${value.slice(0, -1)}${last.toString(16)}` as Hex
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
