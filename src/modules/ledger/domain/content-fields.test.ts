import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ContentFields, contentHash, nextVersion } from './versions.ts'

const row = { versionId: '', id: 'acc_1', tenantId: 't', version: 0, supersedes: null, createdAt: new Date(0), updatedAt: new Date(0), supersededAt: null, name: 'Main', metadata: {}, chainId: null as number | null }

describe("a writer's ContentFields", () => {
  it('gives every row the hash it has without one, whatever shapes come in whatever order', () => {
    const { chainId: _chainId, ...withoutChain } = row
    const { name, ...beforeName } = row
    const shapes: Array<Record<string, unknown>> = [row, withoutChain, { ...beforeName, name }, { ...row, extra: [1, { b: 2, a: 1 }] }, { ...withoutChain, chainId: 5 }]
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: shapes.length - 1 }), { minLength: 1, maxLength: 30 }), (sequence) => {
        const fields = new ContentFields()
        for (const index of sequence) expect(contentHash(shapes[index]!, fields)).toBe(contentHash(shapes[index]!))
      }),
    )
  })

  it('decides the same versions with or without one', () => {
    const fields = new ContentFields()
    const at = new Date('2026-01-01T00:00:00Z')
    const first = nextVersion(undefined, { ...row }, at, fields)!
    expect(first.versionId).toBe(nextVersion(undefined, { ...row }, at)!.versionId)
    expect(nextVersion(first, { ...first }, at, fields)).toBeUndefined()
    expect(nextVersion(first, { ...first, name: 'Other' }, at, fields)!.versionId).toBe(nextVersion(first, { ...first, name: 'Other' }, at)!.versionId)
  })
})
