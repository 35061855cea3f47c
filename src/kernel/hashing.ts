/**
 * Hashing primitives shared by every layer. Canonical JSON is RFC 8785 (JCS), so a third party can
 * recompute any hash we publish from the same fields with an off-the-shelf JCS library.
 */
import { createHash, createHmac, hash, timingSafeEqual } from 'node:crypto'
import canonicalize from 'canonicalize'

/** RFC 8785 canonical JSON. Throws on values JSON cannot represent (undefined at the top, NaN, Infinity). */
export function canonicalJson(value: unknown): string {
  const plain = plainCanonicalJson(value, 0)
  if (plain !== undefined) return plain
  const text = canonicalize(value)
  if (text === undefined) throw new TypeError('value has no canonical JSON form')
  return text
}

const surrogate = /[\uD800-\uDFFF]/

/** Nesting beyond this goes to the library (which also finds cycles). */
const plainDepthMax = 16

/**
 * The canonical JSON of plain data (most version metadata, hashed for every Ledger version), written
 * directly: plain objects with keys sorted by UTF-16 code units, arrays, strings, finite numbers,
 * booleans and null, each written as JSON.stringify writes it, which is what RFC 8785 and the library do
 * for these values. Undefined for anything else (a surrogate, a number JSON cannot hold, undefined in an
 * array, toJSON, another prototype, deep nesting), which the library then handles, or refuses, as before.
 */
function plainCanonicalJson(value: unknown, depth: number): string | undefined {
  if (value === null) return 'null'
  switch (typeof value) {
    case 'string':
      return surrogate.test(value) ? undefined : JSON.stringify(value)
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : undefined
    case 'boolean':
      return value ? 'true' : 'false'
    case 'object':
      break
    default:
      return undefined
  }
  if (depth >= plainDepthMax || typeof (value as { toJSON?: unknown }).toJSON === 'function') return undefined
  if (Array.isArray(value)) {
    let text = '['
    for (let index = 0; index < value.length; index += 1) {
      const element = plainCanonicalJson(value[index], depth + 1)
      if (element === undefined) return undefined
      text += index === 0 ? element : `,${element}`
    }
    return `${text}]`
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return undefined
  const record = value as Record<string, unknown>
  let text = '{'
  for (const key of Object.keys(record).sort()) {
    const field = record[key]
    if (field === undefined) continue
    const encoded = plainCanonicalJson(field, depth + 1)
    if (encoded === undefined || surrogate.test(key)) return undefined
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
