/**
 * Hashing primitives shared by every layer. Canonical JSON is RFC 8785 (JCS), so a third party can
 * recompute any hash we publish from the same fields with an off-the-shelf JCS library.
 */
import { createHash, createHmac, hash, timingSafeEqual } from 'node:crypto'
import canonicalize from 'canonicalize'

/** RFC 8785 canonical JSON. Throws on values JSON cannot represent (undefined at the top, NaN, Infinity). */
export function canonicalJson(value: unknown): string {
  const flat = typeof value === 'object' && value !== null && !Array.isArray(value) ? flatCanonicalJson(value) : undefined
  if (flat !== undefined) return flat
  const text = canonicalize(value)
  if (text === undefined) throw new TypeError('value has no canonical JSON form')
  return text
}

const surrogate = /[\uD800-\uDFFF]/

/**
 * The canonical JSON of a plain object whose values are all strings, finite numbers, booleans or null
 * (most metadata, hashed for every Ledger version), written directly: keys sorted by UTF-16 code units
 * and both keys and values as JSON.stringify writes them, which is what RFC 8785 and the library do for
 * these values. Undefined for anything else (nested values, a surrogate, a number JSON cannot hold,
 * another prototype), which the library then handles, or refuses, as before.
 */
function flatCanonicalJson(object: object): string | undefined {
  if (Object.getPrototypeOf(object) !== Object.prototype) return undefined
  const record = object as Record<string, unknown>
  let text = '{'
  for (const key of Object.keys(record).sort()) {
    const value = record[key]
    if (value === undefined) continue
    let encoded: string
    if (typeof value === 'string') {
      if (surrogate.test(value)) return undefined
      encoded = JSON.stringify(value)
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) return undefined
      encoded = JSON.stringify(value)
    } else if (value === null || typeof value === 'boolean') encoded = String(value)
    else return undefined
    if (surrogate.test(key)) return undefined
    text += `${text.length === 1 ? '' : ','}${JSON.stringify(key)}:${encoded}`
  }
  return `${text}}`
}

export function sha256Hex(data: string | Uint8Array): string {
  return hash('sha256', data, 'hex')
}

/** SHA-256 in base64url without padding (43 characters). */
export function sha256Base64Url(data: string | Uint8Array): string {
  return hash('sha256', data, 'base64url')
}

export function hmacSha256Hex(key: string | Uint8Array, data: string | Uint8Array): string {
  return createHmac('sha256', key).update(data).digest('hex')
}

export function hmacSha256(key: string | Uint8Array, data: string | Uint8Array): Buffer {
  return createHmac('sha256', key).update(data).digest()
}

/** Constant-time comparison that does not leak the expected length through an early return. */
export function constantTimeEqual(actual: string, expected: string): boolean {
  const actualDigest = createHash('sha256').update(actual).digest()
  const expectedDigest = createHash('sha256').update(expected).digest()
  return timingSafeEqual(actualDigest, expectedDigest) && actual.length === expected.length
}
