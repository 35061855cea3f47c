/** Secrets handed to callers once (verification tokens, API keys): random, and stored only as digests. */
import { createHmac, randomBytes } from 'node:crypto'
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

/**
 * Secrets a command can hand out again when it is replayed (Idempotency-Key). A replay returns the
 * command's stored outcome, and a secret must not be stored: so the outcome keeps a random seed, and the
 * secret is derived from the seed with a server key (HMAC-SHA-256, the same shape as `newSecret`). The
 * database, where stored outcomes live, yields no usable secret without the key; a replay derives the
 * same secret the first response carried.
 */
export interface ReplayableSecrets {
  /** A fresh random seed (32 bytes, base64url): what a stored outcome keeps in place of the secret. */
  newSeed(): string
  /** The secret `seed` stands for, after `prefix`. */
  secretOf(seed: string, prefix: string): string
}

export function createReplayableSecrets(key: string): ReplayableSecrets {
  return {
    newSeed: () => randomBytes(secretBytes).toString('base64url'),
    secretOf: (seed, prefix) => `${prefix}${createHmac('sha256', key).update(seed).digest('base64url')}`,
  }
}
