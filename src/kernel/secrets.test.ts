import { describe, expect, it } from 'vitest'
import { createReplayableSecrets, isSecretShaped, newSecret } from './secrets.ts'

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

describe('replayable secrets', () => {
  const prefix = 'inv_'
  const secrets = createReplayableSecrets('k'.repeat(64))

  it('derives the same secret from the same seed, shaped like newSecret', () => {
    const seed = secrets.newSeed()
    const secret = secrets.secretOf(seed, prefix)
    expect(secrets.secretOf(seed, prefix)).toBe(secret)
    expect(isSecretShaped(secret, prefix)).toBe(true)
    expect(secret).not.toContain(seed)
  })

  it('derives another secret from another seed or under another key', () => {
    const seed = secrets.newSeed()
    expect(secrets.newSeed()).not.toBe(seed)
    expect(secrets.secretOf(secrets.newSeed(), prefix)).not.toBe(secrets.secretOf(seed, prefix))
    expect(createReplayableSecrets('j'.repeat(64)).secretOf(seed, prefix)).not.toBe(secrets.secretOf(seed, prefix))
  })

  it('changes only the prefix with the prefix', () => {
    const seed = secrets.newSeed()
    expect(secrets.secretOf(seed, 'vt_').slice(3)).toBe(secrets.secretOf(seed, prefix).slice(prefix.length))
  })
})
