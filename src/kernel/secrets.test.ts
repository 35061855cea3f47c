import { describe, expect, it } from 'vitest'
import { isSecretShaped, newSecret } from './secrets.ts'

describe('isSecretShaped', () => {
  const prefix = 'svc_sk_test_'
  const secret = newSecret(prefix)

  it('accepts what newSecret makes, whatever its random bytes', () => {
    for (let round = 0; round < 200; round++) expect(isSecretShaped(newSecret(prefix), prefix)).toBe(true)
  })

  it.each([
    ['another prefix', secret.replace(prefix, 'svc_sk_live_')],
    ['no prefix', secret.slice(prefix.length)],
    ['one character short', secret.slice(0, -1)],
    ['one character more', `${secret}A`],
    ['a character outside base64url', `${secret.slice(0, -1)}+`],
    ['padding', `${secret.slice(0, -1)}=`],
    ['a uuid body', `${prefix}5d0c8a0e-3c1f-4b7e-9d55-0f4a3f8e2b11`],
    ['empty', ''],
  ])('refuses %s', (_, value) => {
    expect(isSecretShaped(value, prefix)).toBe(false)
  })
})
