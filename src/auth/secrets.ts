/** Secrets handed to callers once (verification tokens, API keys): random, and stored only as digests. */
import { randomBytes } from 'node:crypto'
import { sha256Hex } from '../kernel/hashing.ts'

const secretBytes = 32

export function newSecret(prefix = ''): string {
  return `${prefix}${randomBytes(secretBytes).toString('base64url')}`
}

/** Verification and invitation tokens are stored as a plain SHA-256: they are random, single use and short-lived. */
export function tokenDigest(token: string): string {
  return sha256Hex(token)
}
