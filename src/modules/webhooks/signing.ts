/**
 * Standard Webhooks signing (https://www.standardwebhooks.com), through the `standardwebhooks` package so
 * that receivers can verify with the same library in any language.
 *
 * Secrets are `whsec_` + base64 of 32 random bytes. During a rotation overlap a message carries one
 * signature per secret, space-separated (the specification allows several), so a receiver holding
 * either secret verifies it.
 */
import { randomBytes } from 'node:crypto'
import { Webhook } from 'standardwebhooks'
import { assert } from '../../kernel/assert.ts'

export const signingSecretPrefix = 'whsec_'
const signingSecretBytes = 32

export function newSigningSecret(): string {
  return `${signingSecretPrefix}${randomBytes(signingSecretBytes).toString('base64')}`
}

export interface SignatureHeaders {
  readonly 'webhook-id': string
  readonly 'webhook-timestamp': string
  readonly 'webhook-signature': string
}

/** The three Standard Webhooks headers for `body`, signed with each of `secrets` (current first). */
export function signatureHeaders(secrets: readonly string[], messageId: string, at: Date, body: string): SignatureHeaders {
  assert(secrets.length !== 0, 'at least one signing secret is required')
  // The header carries whole seconds; signing the truncated instant keeps header and signature equal.
  const timestamp = new Date(Math.floor(at.getTime() / 1000) * 1000)
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp.getTime() / 1000),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(messageId, timestamp, body)).join(' '),
  }
}
