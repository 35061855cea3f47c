/**
 * The scope hash against worked examples. Every expected hash below was computed outside this code: the
 * joined string written out by hand, its UTF-8 bytes hashed by anvil's `web3_sha3` RPC method (Rust's
 * keccak256, not viem's), and pasted here as a literal.
 */
import { describe, expect, it } from 'vitest'
import { scopeHashOf, scopeListProblem } from './scope-hash.ts'

describe('scopeHashOf', () => {
  it('hashes "ledger:read|payment_intent:propose" for those two scopes, in either order', () => {
    // keccak256 of the 34 UTF-8 bytes of "ledger:read|payment_intent:propose".
    const expected = '0x0cc9b9af0302c0896516d8d27577c2697a17a7ef80821a25b0a17629b12b65e2'
    expect(scopeHashOf(['ledger:read', 'payment_intent:propose'])).toBe(expected)
    expect(scopeHashOf(['payment_intent:propose', 'ledger:read'])).toBe(expected)
  })

  it('sorts three scopes: "audit:read|ledger:read|payment_intent:propose"', () => {
    const expected = '0x622b498249a583602ae2c7add16ff0d258f7d8375a9d56a96f6ae9cff54235fb'
    expect(scopeHashOf(['payment_intent:propose', 'audit:read', 'ledger:read'])).toBe(expected)
    expect(scopeHashOf(['ledger:read', 'payment_intent:propose', 'audit:read'])).toBe(expected)
  })

  it('hashes one scope as itself, with no separator', () => {
    expect(scopeHashOf(['ledger:read'])).toBe('0x77accb02f7558dc54466e6b2d42a69c7a6acc42d8a8f4cfc51d3f455e08366ee')
  })

  it('hashes the empty list as keccak256 of no bytes', () => {
    expect(scopeHashOf([])).toBe('0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470')
  })

  it('is case-sensitive, and upper case sorts before lower case: "Ledger:Read|ledger:read"', () => {
    const expected = '0x66ee4ca7ee06c442a4ce62ffe84a4622bf1a96c634d2574a8a108b2d6b675383'
    expect(scopeHashOf(['ledger:read', 'Ledger:Read'])).toBe(expected)
  })

  it('orders by UTF-16 code units: U+1F600 (surrogates D83D DE00) before U+FF21, though its code point is higher', () => {
    // "😀|Ａ" is the UTF-8 bytes f09f9880 7c efbca1; code-point order would put "Ａ" first.
    const expected = '0x2afc01c961f7d91b18aaf23b8e94e508fc0d82f5ff2d3be163cc8c2f645d6fb0'
    expect(scopeHashOf(['\uFF21', '\u{1F600}'])).toBe(expected)
    expect(scopeHashOf(['\u{1F600}', '\uFF21'])).toBe(expected)
  })

  it('does not change its argument', () => {
    const scopes = Object.freeze(['payment_intent:propose', 'ledger:read'])
    scopeHashOf(scopes)
    expect(scopes).toEqual(['payment_intent:propose', 'ledger:read'])
  })

  it.each([
    ['a duplicate', ['ledger:read', 'audit:read', 'ledger:read'], 'scope "ledger:read" appears twice'],
    ['a scope containing the separator', ['ledger:read|audit:read'], 'scope "ledger:read|audit:read" contains the separator "|"'],
    ['an empty scope', ['ledger:read', ''], 'scope 1 is empty'],
    ['a lone high surrogate', ['ledger:read\uD83D'], 'scope 0 contains a lone UTF-16 surrogate'],
    ['a lone low surrogate', ['audit:read', '\uDE00'], 'scope 1 contains a lone UTF-16 surrogate'],
  ])('refuses %s, naming it', (_label, scopes, problem) => {
    expect(scopeListProblem(scopes)).toBe(problem)
    expect(() => scopeHashOf(scopes)).toThrow(new TypeError(`no scope hash: ${problem}`))
  })

  it('refuses a value that is not a string', () => {
    expect(scopeListProblem(['ledger:read', 7])).toBe('scope 1 is not a string')
    expect(() => scopeHashOf(['ledger:read', null] as unknown as string[])).toThrow(TypeError)
  })

  it('finds no problem in a list it hashes', () => {
    expect(scopeListProblem([])).toBeNull()
    expect(scopeListProblem(['ledger:read', 'payment_intent:propose'])).toBeNull()
  })
})
