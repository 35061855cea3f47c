/**
 * Password hashing with scrypt (node:crypto). Stored as `scrypt$<log2 N>$<r>$<p>$<salt b64>$<hash b64>`
 * so parameters can be raised later without invalidating existing hashes.
 */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto'

export const passwordBytesMin = 12
export const passwordBytesMax = 4096

export interface ScryptParameters {
  readonly log2N: number
  readonly r: number
  readonly p: number
}

/** N = 2^16, r = 8, p = 1: about 190 ms on the reference machine; OWASP's scrypt floor is N = 2^17 at p = 1 for 64 MiB. */
export const defaultScryptParameters: ScryptParameters = { log2N: 16, r: 8, p: 1 }

const saltBytes = 16
const keyBytes = 32

function scrypt(password: string, salt: Buffer, parameters: ScryptParameters): Promise<Buffer> {
  const N = 2 ** parameters.log2N
  const options: ScryptOptions = {
    N,
    r: parameters.r,
    p: parameters.p,
    // scrypt needs 128 * N * r bytes; the 32 MiB default is too small for N = 2^16.
    maxmem: 128 * N * parameters.r * 2,
  }
  return new Promise((resolve, reject) => {
    scryptCallback(password.normalize('NFC'), salt, keyBytes, options, (error, key) => (error ? reject(error) : resolve(key)))
  })
}

export async function hashPassword(password: string, parameters: ScryptParameters = defaultScryptParameters): Promise<string> {
  const salt = randomBytes(saltBytes)
  const key = await scrypt(password, salt, parameters)
  return ['scrypt', parameters.log2N, parameters.r, parameters.p, salt.toString('base64'), key.toString('base64')].join('$')
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$')
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false
  const [, log2N, r, p, salt, expected] = parts as [string, string, string, string, string, string]
  const expectedKey = Buffer.from(expected, 'base64')
  const key = await scrypt(password, Buffer.from(salt, 'base64'), { log2N: Number(log2N), r: Number(r), p: Number(p) })
  return key.length === expectedKey.length && timingSafeEqual(key, expectedKey)
}

/**
 * A hash of a random password, verified against when the email is unknown, so that an unknown email
 * and a wrong password cost the same scrypt work and answer in comparable time.
 */
export function createDummyPasswordHash(parameters: ScryptParameters = defaultScryptParameters): Promise<string> {
  return hashPassword(randomBytes(32).toString('base64'), parameters)
}

export function passwordByteLength(password: string): number {
  return Buffer.byteLength(password.normalize('NFC'), 'utf8')
}

export interface PasswordHasher {
  hash(password: string): Promise<string>
  /** Verifies against `stored`, or against a dummy hash of equal cost when there is nothing stored. */
  verify(password: string, stored: string | null | undefined): Promise<boolean>
}

export async function createPasswordHasher(parameters: ScryptParameters = defaultScryptParameters): Promise<PasswordHasher> {
  const dummyHash = await createDummyPasswordHash(parameters)
  return {
    hash: (password) => hashPassword(password, parameters),
    async verify(password, stored) {
      if (stored === null || stored === undefined) {
        await verifyPassword(password, dummyHash)
        return false
      }
      return verifyPassword(password, stored)
    },
  }
}
