import { describe, expect, it } from 'vitest'
import { compareRanked, cosine, flattenText, snippetOf } from './search.ts'

describe('search rules', () => {
  it('flattens a policy\'s content into its words, keys included', () => {
    expect(flattenText({ version: 2, rules: [{ id: 'risky', applies_to: ['outbound_payment'], when: { risk_level: 'high' } }] })).toBe(
      'version 2 rules id risky applies_to outbound_payment when risk_level high',
    )
  })

  it('cuts a snippet on one line', () => {
    expect(snippetOf('a\n  b')).toBe('a b')
    expect(snippetOf('x'.repeat(300))).toHaveLength(280)
  })

  it('computes cosine similarity, 0 for a zero vector', () => {
    expect(cosine([1, 0], [1, 0])).toBe(1)
    expect(cosine([1, 0], [0, 1])).toBe(0)
    expect(cosine([0, 0], [1, 1])).toBe(0)
  })

  it('ranks by score, then by recency without one, then kind and id', () => {
    const at = (day: number) => new Date(Date.UTC(2026, 0, day))
    const rows = [
      { kind: 'policy', id: 'b', score: 0.5, updatedAt: null },
      { kind: 'agent', id: 'z', score: 0.5, updatedAt: null },
      { kind: 'agent', id: 'a', score: 0.9, updatedAt: null },
    ]
    expect([...rows].sort(compareRanked).map((row) => row.id)).toEqual(['a', 'z', 'b'])
    const unscored = [
      { kind: 'agent', id: 'catalog', score: null, updatedAt: null },
      { kind: 'agent', id: 'old', score: null, updatedAt: at(1) },
      { kind: 'policy', id: 'new', score: null, updatedAt: at(2) },
    ]
    expect([...unscored].sort(compareRanked).map((row) => row.id)).toEqual(['new', 'old', 'catalog'])
  })
})
