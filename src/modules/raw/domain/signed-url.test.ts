import { describe, expect, it } from 'vitest'
import { checkContentSignature, contentSignature } from './signed-url.ts'

const grant = { tenantId: '01900000-0000-7000-8000-000000000001', rawId: 'raw_01J0000000000000000000000', expiresAtSeconds: 1_000_600 }

describe('content signatures', () => {
  const signature = contentSignature('key', grant)
  it.each([
    ['valid until the expiry', grant, signature, 1_000_599, 'valid'],
    ['expired at the expiry', grant, signature, 1_000_600, 'expired'],
    ['another artifact', { ...grant, rawId: 'raw_01J0000000000000000000001' }, signature, 1_000_000, 'mismatch'],
    ['another tenant', { ...grant, tenantId: '01900000-0000-7000-8000-000000000002' }, signature, 1_000_000, 'mismatch'],
    ['a later expiry', { ...grant, expiresAtSeconds: 2_000_000 }, signature, 1_000_000, 'mismatch'],
    ['a truncated signature', grant, signature.slice(0, -1), 1_000_000, 'mismatch'],
    ['an empty signature', grant, '', 1_000_000, 'mismatch'],
  ] as const)('%s', (_label, checked, presented, now, outcome) => {
    expect(checkContentSignature('key', checked, presented, now)).toBe(outcome)
  })
  it('depends on the key', () => {
    expect(checkContentSignature('other key', grant, signature, 1_000_000)).toBe('mismatch')
  })
})
