import { describe, expect, it } from 'vitest'
import { createCursorCodec } from './cursor.ts'
import { AppError } from './errors.ts'
import { canonicalJson, constantTimeEqual } from './hashing.ts'
import { createHash } from 'node:crypto'
import { createIdSource, deterministicId, prefixedIdPattern, ulid, uuidPattern, uuidV7 } from './ids.ts'

describe('ids', () => {
  it('makes prefixed ids that sort by creation time', () => {
    let now = 1_700_000_000_000
    const ids = createIdSource(() => now)
    const first = ids.newId('member')
    now += 1
    const second = ids.newId('member')
    expect(first).toMatch(new RegExp(prefixedIdPattern('member')))
    expect([second, first].sort()).toEqual([first, second])
  })

  it('encodes the ULID time exactly and the UUIDv7 version and variant bits', () => {
    expect(ulid(0, new Uint8Array(10))).toBe('0'.repeat(26))
    expect(ulid(1_469_918_176_385, new Uint8Array(10)).slice(0, 10)).toBe('01ARYZ6S41') // the ULID spec's example time
    const uuid = uuidV7(1_700_000_000_000, new Uint8Array(10).fill(255))
    expect(uuid).toMatch(new RegExp(uuidPattern))
    expect(uuid[14]).toBe('7')
    expect(['8', '9', 'a', 'b']).toContain(uuid[19])
    expect(uuid.replaceAll('-', '').slice(0, 12)).toBe((1_700_000_000_000).toString(16).padStart(12, '0'))
  })
})

describe('deterministicId', () => {
  /** The definition, written plainly: the low 130 bits of the digest's first 17 bytes, in base32. */
  function reference(parts: string[]): string {
    const digest = createHash('sha256').update(parts.map((part) => `${part.length}:${part}`).join('|')).digest()
    let bits = 0n
    for (const byte of digest.subarray(0, 17)) bits = (bits << 8n) | BigInt(byte)
    let body = ''
    for (let index = 0; index < 26; index += 1) {
      body = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'[Number(bits & 31n)] + body
      bits >>= 5n
    }
    return `txn_${body}`
  }

  it('is stable: the same parts always give the same id (a golden value pins it)', () => {
    expect(deterministicId('transaction', 'tenant', 'key')).toBe('txn_WG63TQPPXKMHXZTMTD9HTVXNJ1')
    expect(deterministicId('transaction', 'ab', 'c')).not.toBe(deterministicId('transaction', 'a', 'bc'))
  })

  it('matches the definition for many inputs', () => {
    for (let index = 0; index < 2_000; index += 1) {
      const parts = [`tenant-${index}`, `key:${index * 7919}:${'x'.repeat(index % 40)}`]
      expect(deterministicId('transaction', ...parts)).toBe(reference(parts))
      expect(deterministicId('transaction', ...parts)).toMatch(new RegExp(prefixedIdPattern('transaction')))
    }
  })
})

describe('cursors', () => {
  const codec = createCursorCodec('k'.repeat(64))

  it('round-trips a position for the same listing', () => {
    const cursor = codec.encode('members:t1', { after_id: 'mem_1' })
    expect(codec.decode('members:t1', cursor)).toEqual({ after_id: 'mem_1' })
  })

  it.each([
    ['another listing', (cursor: string) => ['members:t2', cursor]],
    ['a changed body', (cursor: string) => ['members:t1', `${Buffer.from('{"after_id":"mem_0"}').toString('base64url')}.${cursor.split('.')[1]}`]],
    ['a changed signature', (cursor: string) => ['members:t1', `${cursor.slice(0, -2)}AA`]],
    ['no signature', (cursor: string) => ['members:t1', cursor.split('.')[0]!]],
    ['extra parts', (cursor: string) => ['members:t1', `${cursor}.x`]],
    ['garbage', () => ['members:t1', '%%%']],
  ])('refuses %s with invalid_cursor', (_label, forge) => {
    const [listing, forged] = forge(codec.encode('members:t1', { after_id: 'mem_1' })) as [string, string]
    expect(() => codec.decode(listing, forged)).toThrow(AppError)
    try {
      codec.decode(listing, forged)
    } catch (error) {
      expect((error as AppError).code).toBe('invalid_cursor')
    }
  })

  it('refuses a cursor signed with another key', () => {
    const other = createCursorCodec('z'.repeat(64)).encode('members:t1', { after_id: 'mem_1' })
    expect(() => codec.decode('members:t1', other)).toThrow(/cursor/)
  })
})

describe('hashing', () => {
  it('canonicalizes JSON per RFC 8785 (sorted keys, no whitespace, ES number form)', () => {
    expect(canonicalJson({ b: 1, a: [true, null, 'x'], c: { z: 1e21, y: 0.5 } })).toBe('{"a":[true,null,"x"],"b":1,"c":{"y":0.5,"z":1e+21}}')
  })

  it('compares secrets in constant time and exactly', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true)
    expect(constantTimeEqual('abc', 'abd')).toBe(false)
    expect(constantTimeEqual('abc', 'abcd')).toBe(false)
    expect(constantTimeEqual('', '')).toBe(true)
  })
})
