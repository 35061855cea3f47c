import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { canonicalJson, sha256Hex } from '../../../kernel/hashing.ts'
import { contentHash, nextVersion, withAdded } from './versions.ts'

const bookkeeping = new Set(['versionId', 'id', 'tenantId', 'version', 'supersedes', 'createdAt', 'updatedAt', 'supersededAt'])
/** The definition: SHA-256 of the RFC 8785 canonical JSON of the content fields. */
const reference = (row: Record<string, unknown>) => sha256Hex(canonicalJson(Object.fromEntries(Object.entries(row).filter(([field]) => !bookkeeping.has(field)))))

const row = {
  versionId: '',
  id: 'txn_1',
  tenantId: 't',
  version: 0,
  supersedes: null,
  sourceIds: ['raw_1', 'raw"2'],
  evidenceIds: [] as string[],
  provenance: 'extracted',
  confidence: 0.95,
  metadata: { z: 1, a: { y: [1, 'é'], b: null } } as Record<string, unknown>,
  createdAt: new Date(0),
  updatedAt: new Date(0),
  supersededAt: null,
  amount: '-12.50',
  description: 'Ünïcode "quoted" \\ back',
  categoryId: null,
  chainId: 8453,
}

describe('contentHash', () => {
  it('is the hash of the canonical JSON of the content fields, whatever the key order', () => {
    expect(contentHash(row)).toBe(reference(row))
    expect(contentHash({ ...row, metadata: { a: { b: null, y: [1, 'é'] }, z: 1 } })).toBe(contentHash(row))
    expect(contentHash({ ...row, confidence: 1, amount: '1' })).toBe(reference({ ...row, confidence: 1, amount: '1' }))
  })

  it('follows each row\'s own fields when rows of different shapes come one after another', () => {
    const { chainId: _chainId, ...withoutChain } = row
    const { amount, ...beforeAmount } = row
    const reordered = { ...beforeAmount, amount }
    const shapes: Array<Record<string, unknown>> = [row, withoutChain, { ...row, extra: 'x' }, reordered, { ...withoutChain, chainId: 1 }]
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: shapes.length - 1 }), { minLength: 1, maxLength: 20 }), (sequence) => {
        for (const index of sequence) expect(contentHash(shapes[index]!)).toBe(reference(shapes[index]!))
      }),
    )
  })

  it('ignores bookkeeping and sees every content change', () => {
    expect(contentHash({ ...row, version: 7, updatedAt: new Date(), versionId: 'x' })).toBe(contentHash(row))
    expect(contentHash({ ...row, sourceIds: ['raw_1'] })).not.toBe(contentHash(row))
    expect(contentHash({ ...row, metadata: { ...row.metadata, z: 2 } })).not.toBe(contentHash(row))
  })
})

describe('nextVersion', () => {
  it('writes a first version, nothing for the same content, and a superseding version for a change', () => {
    const at = new Date('2026-01-01T00:00:00Z')
    const first = nextVersion(undefined, row, at)!
    expect(first).toMatchObject({ version: 1, supersedes: null, createdAt: at, updatedAt: at, versionId: expect.stringMatching(/^ver_/) })
    expect(nextVersion(first, { ...first }, new Date())).toBeUndefined()
    const later = new Date('2026-02-01T00:00:00Z')
    const second = nextVersion(first, { ...first, amount: '-13.00' }, later)!
    expect(second).toMatchObject({ version: 2, supersedes: first.versionId, createdAt: at, updatedAt: later })
    // The same change made again gives the same version id.
    expect(nextVersion(first, { ...first, amount: '-13.00' }, new Date())!.versionId).toBe(second.versionId)
  })
})

describe('withAdded', () => {
  it('keeps first-seen order, skips duplicates and blanks, and caps the list', () => {
    expect(withAdded(['a'], ['b', 'a', undefined, '', 'c'])).toEqual(['a', 'b', 'c'])
    expect(withAdded(['a', 'b'], ['c', 'd'], 3)).toEqual(['a', 'b', 'c'])
  })
})
