/** Secrets handed to callers once (verification tokens, API keys): random, and stored only as digests. */
import { randomBytes } from 'node:crypto'
import { sha256Hex } from './hashing.ts'

const secretBytes = 32
/** A secret after its prefix: `secretBytes` in unpadded base64url, 43 characters. */
const secretBodyPattern = new RegExp(`^[A-Za-z0-9_-]{${Math.ceil((secretBytes * 8) / 6)}}$`)

export function newSecret(prefix = ''): string {
  return `${prefix}${randomBytes(secretBytes).toString('base64url')}`
}

/**
 * Whether `value` is `prefix` followed by a body newSecret could have made (every secret ever issued has
 * this shape). Checked before any lookup, so a made-up or truncated secret costs no database read.
 */
export function isSecretShaped(value: string, prefix: string): boolean {
  return value.startsWith(prefix) && secretBodyPattern.test(value.slice(prefix.length))
}

/** Verification and invitation tokens are stored as a plain SHA-256: they are random, single use and short-lived. */
export function tokenDigest(token: string): string {
  return sha256Hex(token)
}
