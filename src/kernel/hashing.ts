/**
 * Hashing primitives shared by every layer. Canonical JSON is RFC 8785 (JCS), so a third party can
 * recompute any hash we publish from the same fields with an off-the-shelf JCS library.
 */
import { createHash, createHmac, hash, timingSafeEqual } from 'node:crypto'
import canonicalize from 'canonicalize'

/** RFC 8785 canonical JSON. Throws on values JSON cannot represent (undefined at the top, NaN, Infinity). */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value)
  if (text === undefined) throw new TypeError('value has no canonical JSON form')
  return text
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
