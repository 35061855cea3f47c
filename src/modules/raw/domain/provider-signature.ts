/**
 * The provider webhook signature (docs/raw.md has a worked example):
 *
 *   X-Provider-Signature: t=<unix seconds>,v1=<hex HMAC-SHA-256(secret, "<t>." + raw body bytes)>
 *
 * The HMAC key is the connection's secret as UTF-8 bytes. Several `v1=` entries may be sent (a provider
 * migrating secrets); one match is enough. The timestamp must be within the tolerance of our clock in
 * either direction, so a captured request cannot be replayed later (and a replay within the window adds
 * nothing: ingest is idempotent by SHA-256). Pure.
 */
import { constantTimeEqual, hmacSha256 } from '../../../kernel/hashing.ts'

export const signatureToleranceSeconds = 5 * 60
/** A header longer than this is not a signature (bounds the work of parsing it). */
export const signatureHeaderCharsMax = 1024

export function providerSignature(secret: string, timestampSeconds: number, body: Buffer): string {
  return hmacSha256(secret, Buffer.concat([Buffer.from(`${timestampSeconds}.`), body])).toString('hex')
}

/** The header value a provider sends. */
export function providerSignatureHeader(secret: string, timestampSeconds: number, body: Buffer): string {
  return `t=${timestampSeconds},v1=${providerSignature(secret, timestampSeconds, body)}`
}

export function parseSignatureHeader(header: string | undefined): { timestampSeconds: number; signatures: string[] } | undefined {
  if (header === undefined || header.length > signatureHeaderCharsMax) return undefined
  let timestampSeconds: number | undefined
  const signatures: string[] = []
  for (const element of header.split(',')) {
    const [key, value] = element.trim().split('=', 2) as [string, string | undefined]
    if (key === 't' && value !== undefined && /^\d{1,12}$/.test(value)) timestampSeconds = Number(value)
    else if (key === 'v1' && value !== undefined && /^[0-9a-fA-F]{64}$/.test(value)) signatures.push(value.toLowerCase())
  }
  return timestampSeconds === undefined || signatures.length === 0 ? undefined : { timestampSeconds, signatures }
}

/**
 * Whether `header` signs `body` with `secret` at a time within the tolerance of `nowSeconds`. Every
 * candidate signature is compared in constant time, and the HMAC is computed even for a stale
 * timestamp, so the time taken says nothing about which check failed.
 */
export function verifyProviderSignature(header: string | undefined, secret: string, body: Buffer, nowSeconds: number): boolean {
  const parsed = parseSignatureHeader(header)
  const timestampSeconds = parsed?.timestampSeconds ?? 0
  const expected = providerSignature(secret, timestampSeconds, body)
  let matched = false
  for (const candidate of parsed?.signatures ?? ['']) matched = constantTimeEqual(candidate, expected) || matched
  const fresh = Math.abs(nowSeconds - timestampSeconds) <= signatureToleranceSeconds
  return parsed !== undefined && matched && fresh
}
