import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { storedKey, storedKeyBytesMax } from './keys.ts'

describe('storedKey', () => {
  it('keeps a key of up to 64 UTF-8 bytes as it is', () => {
    expect(storedKey('iban:DE89370400440532013000')).toBe('iban:DE89370400440532013000')
    const exactly = `name:${'X'.repeat(storedKeyBytesMax - 5)}`
    expect(Buffer.byteLength(exactly)).toBe(64)
    expect(storedKey(exactly)).toBe(exactly)
  })

  it('stores a longer key as # and its base64url SHA-256, counting bytes, not characters', () => {
    const long = `fp:acc_1:2024-03-01:12.5:${'SETTLEMENT DETAIL '.repeat(10)}:1`
    const expected = `#${createHash('sha256').update(long, 'utf8').digest('base64url')}`
    expect(storedKey(long)).toBe(expected)
    expect(storedKey(long)).toHaveLength(44)
    // 60 characters but 66 bytes: hashed.
    const accented = `name:${'É'.repeat(6)}${'X'.repeat(49)}`
    expect(accented).toHaveLength(60)
    expect(storedKey(accented)).toMatch(/^#[A-Za-z0-9_-]{43}$/)
    // Different keys, different stored forms.
    expect(storedKey(`${long}2`)).not.toBe(storedKey(long))
  })
})
