/**
 * Merkle batches of the audit chain, exactly as OpenZeppelin builds and checks them, so a proof made
 * here passes `MerkleProof.verify` on chain and `processProof` in any client.
 *
 * Leaves are the events' chain hashes (32 bytes), in seq order, not sorted; inner nodes are
 * keccak256 of the sorted pair (OpenZeppelin's commutative hash). The tree is the flat array of
 * @openzeppelin/merkle-tree's core: root at index 0, the leaf at position i at `length - 1 - i`.
 * Pure: no I/O.
 */
import { getProof, makeMerkleTree, processProof } from '@openzeppelin/merkle-tree/dist/core.js'

export type Hex32 = `0x${string}`

const nodeBytes = 32

/** An event hash (64 hex digits, as stored) as a bytes32 leaf. */
export function leafOf(eventHash: string): Hex32 {
  if (!/^[0-9a-f]{64}$/.test(eventHash)) throw new TypeError(`not an event hash: ${eventHash}`)
  return `0x${eventHash}`
}

export function buildTree(leaves: readonly Hex32[]): Hex32[] {
  if (leaves.length === 0) throw new RangeError('a Merkle batch needs at least one leaf')
  return makeMerkleTree([...leaves]) as Hex32[]
}

export function rootOf(tree: readonly Hex32[]): Hex32 {
  const root = tree[0]
  if (root === undefined) throw new RangeError('empty tree')
  return root
}

/** The proof for the leaf at `position` (0-based, in seq order) of a tree with `leafCount` leaves. */
export function proofFor(tree: readonly Hex32[], position: number): Hex32[] {
  const leafCount = (tree.length + 1) / 2
  if (!Number.isInteger(position) || position < 0 || position >= leafCount) throw new RangeError(`leaf position ${position} outside 0..${leafCount - 1}`)
  return getProof([...tree], tree.length - 1 - position) as Hex32[]
}

/** The root a proof leads to from a leaf; a proof is valid when this equals the claimed root. */
export function rootFromProof(leaf: Hex32, proof: readonly Hex32[]): Hex32 {
  return processProof(leaf, [...proof]) as Hex32
}

/** Every node, 32 bytes each, in tree order: how a batch's tree is stored (bytea). */
export function packTree(tree: readonly Hex32[]): Buffer {
  return Buffer.concat(tree.map((node) => Buffer.from(node.slice(2), 'hex')))
}

export function unpackTree(packed: Uint8Array): Hex32[] {
  if (packed.length === 0 || packed.length % nodeBytes !== 0 || (packed.length / nodeBytes) % 2 === 0) {
    throw new RangeError(`a packed tree is an odd number of 32-byte nodes; got ${packed.length} bytes`)
  }
  const nodes: Hex32[] = []
  for (let offset = 0; offset < packed.length; offset += nodeBytes) {
    nodes.push(`0x${Buffer.from(packed.subarray(offset, offset + nodeBytes)).toString('hex')}`)
  }
  return nodes
}

/**
 * Which nodes make up the proof of the leaf at `position` in a tree of `nodeCount` nodes, in proof
 * order: the leaf's sibling, then its parent's sibling, up to the root. OpenZeppelin's layout:
 * parent(i) = (i - 1) / 2, sibling(i) = i + 1 for odd i, i - 1 for even i.
 */
export function proofNodeIndices(nodeCount: number, position: number): number[] {
  const leafCount = (nodeCount + 1) / 2
  if (!Number.isInteger(leafCount) || !Number.isInteger(position) || position < 0 || position >= leafCount) {
    throw new RangeError(`leaf position ${position} outside a tree of ${nodeCount} nodes`)
  }
  const indices: number[] = []
  for (let index = nodeCount - 1 - position; index > 0; index = Math.floor((index - 1) / 2)) {
    indices.push(index % 2 === 1 ? index + 1 : index - 1)
  }
  return indices
}

/**
 * The proof for one leaf read straight from the packed bytes, without unpacking the whole tree: a
 * batch of 100k leaves is 6.4 MB packed, and a proof needs only its ~17 siblings.
 */
export function proofFromPacked(packed: Uint8Array, position: number): Hex32[] {
  return proofNodeIndices(packed.length / nodeBytes, position).map(
    (index): Hex32 => `0x${Buffer.from(packed.subarray(index * nodeBytes, (index + 1) * nodeBytes)).toString('hex')}`,
  )
}

/** Node `index` of a packed tree as a 1-based byte offset, for SQL `substring(tree from … for 32)`. */
export function nodeByteOffset(index: number): number {
  return index * nodeBytes + 1
}

export const treeNodeBytes = nodeBytes
