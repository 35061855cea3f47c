/**
 * How a tenant is named on chain, in every Steward contract (AuditAnchor, AgentRegistry): the bytes32 of
 * its UUID's 16 bytes left-padded with zeros, i.e. `0x`, 32 zeros, then the UUID's 32 hex digits. It is
 * not hashed, so it is reversible (the last 32 hex digits are the UUID) and anyone holding a tenant id
 * computes the key without Steward's code or a salt. The price is that activity per tenant is public:
 * see docs/anchoring.md.
 */
import { uuidPattern } from './ids.ts'

const uuidExpression = new RegExp(uuidPattern)
const tenantKeyExpression = /^0x0{32}([0-9a-f]{32})$/

export function tenantKey(tenantId: string): `0x${string}` {
  if (!uuidExpression.test(tenantId)) throw new TypeError(`tenant id must be a lowercase UUID, got ${JSON.stringify(tenantId)}`)
  return `0x${'0'.repeat(32)}${tenantId.replaceAll('-', '')}`
}

/** The tenant id a tenant key encodes, or null when `key` is not a tenant key. */
export function tenantIdOfKey(key: string): string | null {
  const digits = tenantKeyExpression.exec(key)?.[1]
  if (digits === undefined) return null
  return `${digits.slice(0, 8)}-${digits.slice(8, 12)}-${digits.slice(12, 16)}-${digits.slice(16, 20)}-${digits.slice(20)}`
}
