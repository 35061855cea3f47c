import canonicalize from 'canonicalize'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { canonicalJson } from './hashing.ts'

/** The library's answer, or the fact that it refuses. */
function reference(value: unknown): string | 'throws' {
  try {
    return canonicalize(value) ?? 'throws'
  } catch {
    return 'throws'
  }
}

function ours(value: unknown): string | 'throws' {
  try {
    return canonicalJson(value)
  } catch {
    return 'throws'
  }
}

describe('canonicalJson', () => {
  it('writes plain data as RFC 8785 does: keys sorted by code unit, JSON escapes', () => {
    expect(canonicalJson({ b: [1, { d: 'x', c: null }], a: {} })).toBe('{"a":{},"b":[1,{"c":null,"d":"x"}]}')
    expect(canonicalJson({ b: 1, a: 'x', é: null, A: true, z: undefined, n: -0, e: 1e21 })).toBe('{"A":true,"a":"x","b":1,"e":1e+21,"n":0,"é":null}')
    expect(canonicalJson({ '\u{1F600}': 1, '\uFFFF': 2 })).toBe('{"\u{1F600}":1,"\uFFFF":2}')
    expect(() => canonicalJson({ a: Number.NaN })).toThrow()
    expect(() => canonicalJson({ a: 'lone \uD800' })).toThrow()
    // What the library does with toJSON and cycles, it still does.
    expect(canonicalJson({ list: Object.assign([1, 2], { toJSON: () => 'two' }) })).toBe('{"list":"two"}')
    const cyclic: Record<string, unknown> = { a: 1 }
    cyclic.self = { back: cyclic }
    expect(() => canonicalJson(cyclic)).toThrow(/Circular/)
  })

  it('gives the library\'s text, or refuses where it does, for any value', () => {
    const key = fc.string({ unit: fc.constantFrom('a', 'B', 'é', '"', '\\', '\uD83D', '\uDE00', '\u{1F600}', 'toJSON') })
    const anything = fc.anything({ maxDepth: 4, key, withNullPrototype: true, withBoxedValues: true, withSparseArray: true, withDate: true, withBigInt: true })
    fc.assert(
      fc.property(anything, (value) => {
        expect(ours(value)).toBe(reference(value))
      }),
      { numRuns: 3000 },
    )
  })

  it('gives the library\'s text, or refuses where it does, for any object', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'B', 'é', '"', '\\', '\n', '\u0001', '\u2028', '\uD83D', '\uDE00', '\u{1F600}', ' ') })
    const primitive = fc.oneof(text, fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined))
    const value = fc.oneof(primitive, fc.array(primitive, { maxLength: 3 }), fc.dictionary(text, primitive, { maxKeys: 3 }), fc.date({ noInvalidDate: true }))
    fc.assert(
      fc.property(fc.dictionary(text, fc.oneof({ weight: 4, arbitrary: primitive }, { weight: 1, arbitrary: value }), { maxKeys: 8 }), (object) => {
        expect(ours(object)).toBe(reference(object))
      }),
      { numRuns: 3000 },
    )
  })
})
