import { describe, expect, it } from 'vitest'
import { createPasswordHasher, defaultScryptParameters, hashPassword, verifyPassword } from './passwords.ts'

describe('passwords', () => {
  it('hashes with the production parameters by default (scrypt N=2^16, r=8, p=1) and verifies', async () => {
    expect(defaultScryptParameters).toEqual({ log2N: 16, r: 8, p: 1 })
    const stored = await hashPassword('correct horse battery staple')
    expect(stored).toMatch(/^scrypt\$16\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/)
    expect(await verifyPassword('correct horse battery staple', stored)).toBe(true)
    expect(await verifyPassword('correct horse battery stapl', stored)).toBe(false)
  })

  it('salts every hash', async () => {
    const parameters = { log2N: 10, r: 8, p: 1 }
    expect(await hashPassword('same password here', parameters)).not.toBe(await hashPassword('same password here', parameters))
  })

  it('normalizes Unicode so one password typed two ways matches', async () => {
    const stored = await hashPassword('caf\u00e9 au lait!!', { log2N: 10, r: 8, p: 1 })
    expect(await verifyPassword('cafe\u0301 au lait!!', stored)).toBe(true)
  })

  it.each(['', 'bcrypt$x', 'scrypt$16$8$1$salt', 'scrypt$16$8$1$c2FsdA==$aGFzaA==$extra'])('never matches a malformed stored hash %j', async (stored) => {
    expect(await verifyPassword('anything at all', stored)).toBe(false)
  })

  it('does equal work for a missing hash and answers false', async () => {
    const hasher = await createPasswordHasher({ log2N: 10, r: 8, p: 1 })
    expect(await hasher.verify('anything at all', null)).toBe(false)
    expect(await hasher.verify('anything at all', await hasher.hash('anything at all'))).toBe(true)
  })
})
