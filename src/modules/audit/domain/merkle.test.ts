import { randomBytes } from 'node:crypto'
import { SimpleMerkleTree } from '@openzeppelin/merkle-tree'
import { describe, expect, it } from 'vitest'
import { buildTree, leafOf, packTree, proofFor, proofFromPacked, proofNodeIndices, rootFromProof, rootOf, unpackTree, type Hex32 } from './merkle.ts'

const leaves = (count: number) => Array.from({ length: count }, () => `0x${randomBytes(32).toString('hex')}` as Hex32)

describe('Merkle batches', () => {
  it.each([1, 2, 3, 5, 8, 37, 1024])('match OpenZeppelin SimpleMerkleTree (unsorted leaves) for %i leaves, every proof verifying', (count) => {
    const batch = leaves(count)
    const tree = buildTree(batch)
    const reference = SimpleMerkleTree.of(batch, { sortLeaves: false })
    expect(rootOf(tree)).toBe(reference.root)
    const packed = packTree(tree)
    expect(unpackTree(packed)).toEqual(tree)
    batch.forEach((leaf, position) => {
      const proof = proofFor(tree, position)
      expect(proof).toEqual(reference.getProof(position))
      expect(proofFromPacked(packed, position)).toEqual(proof)
      expect(proofNodeIndices(tree.length, position).map((index) => tree[index])).toEqual(proof)
      expect(rootFromProof(leaf, proof)).toBe(rootOf(tree))
    })
  })

  it('rejects a wrong leaf, a changed proof node and out-of-range positions', () => {
    const batch = leaves(9)
    const tree = buildTree(batch)
    const proof = proofFor(tree, 4)
    expect(rootFromProof(batch[3]!, proof)).not.toBe(rootOf(tree))
    expect(rootFromProof(batch[4]!, [`0x${'00'.repeat(32)}`, ...proof.slice(1)])).not.toBe(rootOf(tree))
    expect(() => proofFor(tree, 9)).toThrow(RangeError)
    expect(() => proofNodeIndices(tree.length, -1)).toThrow(RangeError)
    expect(() => buildTree([])).toThrow(RangeError)
    expect(() => unpackTree(Buffer.alloc(64))).toThrow(RangeError)
  })

  it('turns a stored event hash into a bytes32 leaf and refuses anything else', () => {
    expect(leafOf('ab'.repeat(32))).toBe(`0x${'ab'.repeat(32)}`)
    expect(() => leafOf('0xab')).toThrow(TypeError)
  })
})
