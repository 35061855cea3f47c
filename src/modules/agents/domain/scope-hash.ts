/**
 * The scope hash of an agent (docs/agents.md): what the AgentRegistry contract records for it, and what
 * its agent token's `scope_hash` claim must equal before every agent-protocol dispatch.
 *
 * Definition (the spec's, made exact): take the agent's scope strings, sort them lexicographically by
 * UTF-16 code units (JavaScript's default `sort()`), join them with `|`, and hash the UTF-8 bytes of the
 * result with keccak256. For ASCII scopes, which every Steward scope is (`ledger:read`), that order is
 * also the order of bytes and of code points, so any language's plain string sort gives the same hash.
 *
 * A list is refused, instead of hashed, when two different readings of the definition could give two
 * hashes, or two different lists one hash:
 * - a duplicate scope: hashing it as written and hashing the set would disagree, and a scope list is a
 *   set, so the caller must say which it meant;
 * - a scope containing `|`: `['a|b']` and `['a', 'b']` would join to the same string;
 * - an empty scope: `['']` and `[]` would both join to the empty string;
 * - a string with a lone UTF-16 surrogate: it has no UTF-8 encoding, and encoders replace it with U+FFFD,
 *   so two different strings would hash alike.
 * The empty list is allowed: it joins to the empty string, whose keccak256 is
 * 0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470.
 */
import { keccak256, stringToBytes, type Hex } from 'viem'

export const scopeSeparator = '|'

/** Why `scopes` has no scope hash, or null when it has one. */
export function scopeListProblem(scopes: readonly unknown[]): string | null {
  const seen = new Set<string>()
  for (const [index, scope] of scopes.entries()) {
    if (typeof scope !== 'string') return `scope ${index} is not a string`
    if (scope.length === 0) return `scope ${index} is empty`
    if (scope.includes(scopeSeparator)) return `scope ${JSON.stringify(scope)} contains the separator "${scopeSeparator}"`
    if (!scope.isWellFormed()) return `scope ${index} contains a lone UTF-16 surrogate`
    if (seen.has(scope)) return `scope ${JSON.stringify(scope)} appears twice`
    seen.add(scope)
  }
  return null
}

/** The scope hash of `scopes`, in any order; throws a TypeError naming the problem when the list has none. */
export function scopeHashOf(scopes: readonly string[]): Hex {
  const problem = scopeListProblem(scopes)
  if (problem !== null) throw new TypeError(`no scope hash: ${problem}`)
  return keccak256(stringToBytes([...scopes].sort().join(scopeSeparator)))
}
