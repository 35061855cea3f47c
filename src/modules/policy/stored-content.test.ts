import { describe, expect, it } from 'vitest'
import { defaultPolicyContent } from './domain/index.ts'
import type { PolicyRow } from './policy.store.ts'
import { StoredContents, storedContentsMax } from './stored-content.ts'

const row = (id: string, content: unknown, contentHash = `sha256:${id}`) => ({ id, contentHash, content }) as PolicyRow

describe('StoredContents', () => {
  it('gives the same frozen content for every call on a version, and another object for another version or instance', () => {
    const contents = new StoredContents()
    const first = contents.contentOf(row('pol_1', structuredClone(defaultPolicyContent)))
    expect(Object.isFrozen(first)).toBe(true)
    expect(first).toEqual(defaultPolicyContent)
    expect(contents.contentOf(row('pol_1', structuredClone(defaultPolicyContent)))).toBe(first)
    expect(contents.contentOf(row('pol_2', structuredClone(defaultPolicyContent)))).not.toBe(first)
    expect(contents.contentOf(row('pol_1', structuredClone(defaultPolicyContent), 'sha256:other'))).not.toBe(first)
    expect(new StoredContents().contentOf(row('pol_1', structuredClone(defaultPolicyContent)))).not.toBe(first)
  })

  it('uses the stored JSON as it is when it does not validate (a corrupt row)', () => {
    const corrupt = { rules: 'not a list' }
    expect(new StoredContents().contentOf(row('pol_bad', corrupt))).toBe(corrupt)
  })

  it(`keeps at most ${storedContentsMax} versions, the least recently used leaving first`, () => {
    const contents = new StoredContents()
    const kept = contents.contentOf(row('pol_0', structuredClone(defaultPolicyContent)))
    const dropped = contents.contentOf(row('pol_1', structuredClone(defaultPolicyContent)))
    // pol_0 is used again, so pol_1 is now the least recently used.
    expect(contents.contentOf(row('pol_0', {}))).toBe(kept)
    for (let index = 2; index <= storedContentsMax; index += 1) contents.contentOf(row(`pol_${index}`, {}))
    expect(contents.contentOf(row('pol_0', {}))).toBe(kept)
    expect(contents.contentOf(row('pol_1', structuredClone(defaultPolicyContent)))).not.toBe(dropped)
  })
})
