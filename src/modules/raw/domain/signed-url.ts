/**
 * Signed content URLs: `GET /v1/raw/{raw_id}` answers a URL of the service itself that serves the bytes
 * without a bearer for a short time. The signature is an HMAC (key derived from JWT_SECRET) over the
 * tenant, the artifact and the expiry, so it cannot be moved to another artifact or extended. Pure.
 */
import { constantTimeEqual, hmacSha256 } from '../../../kernel/hashing.ts'

/** How long a signed URL works (spec, "Limits": 10 minutes). */
export const signedUrlSeconds = 10 * 60

export interface ContentGrant {
  readonly tenantId: string
  readonly rawId: string
  readonly expiresAtSeconds: number
}

export function contentSignature(key: string, grant: ContentGrant): string {
  return hmacSha256(key, `steward-raw-content:v1\n${grant.tenantId}\n${grant.rawId}\n${grant.expiresAtSeconds}`).toString('base64url')
}

export type ContentSignatureCheck = 'valid' | 'expired' | 'mismatch'

/** The signature is checked first: an expiry is only reported for a URL we really issued. */
export function checkContentSignature(key: string, grant: ContentGrant, signature: string, nowSeconds: number): ContentSignatureCheck {
  if (!constantTimeEqual(signature, contentSignature(key, grant))) return 'mismatch'
  return nowSeconds >= grant.expiresAtSeconds ? 'expired' : 'valid'
}
