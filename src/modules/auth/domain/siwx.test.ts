import fc from 'fast-check'
import { privateKeyToAccount } from 'viem/accounts'
import { parseSiweMessage } from 'viem/siwe'
import { describe, expect, it } from 'vitest'
import {
  buildSiwxMessage,
  checkSiwxMessage,
  parseSiwxMessage,
  siwxAudienceOf,
  siwxChainId,
  siwxClockSkewSecondsDefault,
  siwxMessageAgeSecondsDefault,
  siwxMessageCharactersMax,
  siwxRefusals,
  type SiwxExpectation,
  type SiwxMessageInput,
  type SiwxRefusal,
} from './siwx.ts'

// Well-known test keys (anvil's first two accounts): never hold value.
const signer = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
const stranger = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')

const now = new Date('2026-03-01T12:00:00.000Z')
const seconds = (count: number) => new Date(now.getTime() + count * 1000)
const nonce = 'q4Z7pX2mT9bK1vRw'
const audience = siwxAudienceOf('https://api.steward.example')

const input: SiwxMessageInput = {
  domain: audience.domain,
  address: signer.address,
  uri: audience.uri,
  chainId: siwxChainId,
  nonce,
  issuedAt: seconds(-10),
  expirationTime: seconds(290),
}

const expectation: SiwxExpectation = { ...audience, address: signer.address, chainId: siwxChainId, nonce, now }

const validText = [
  'api.steward.example wants you to sign in with your Ethereum account:',
  signer.address,
  '',
  '',
  'URI: https://api.steward.example',
  'Version: 1',
  'Chain ID: 8453',
  `Nonce: ${nonce}`,
  'Issued At: 2026-03-01T11:59:50.000Z',
  'Expiration Time: 2026-03-01T12:04:50.000Z',
].join('\n')

/** The message signed by `account` (the signer by default), so that only what a case changes is wrong. */
async function signed(message: string, account = signer) {
  return { message, signature: await account.signMessage({ message }) }
}

async function check(message: string, signature: string, overrides: Partial<SiwxExpectation> = {}) {
  return checkSiwxMessage(message, signature, { ...expectation, ...overrides })
}

async function refusalOf(message: string, overrides: Partial<SiwxExpectation> = {}, account = signer): Promise<SiwxRefusal | 'ok'> {
  const pair = await signed(message, account)
  const outcome = await check(pair.message, pair.signature, overrides)
  return outcome.ok ? 'ok' : outcome.reason
}

/** The valid message with one line replaced (`undefined` removes it). */
function withLine(prefix: string, replacement: string | undefined, text = validText): string {
  const lines = text.split('\n')
  const index = lines.findIndex((line) => line.startsWith(prefix))
  expect(index, `the message has a line starting with ${prefix}`).toBeGreaterThanOrEqual(0)
  if (replacement === undefined) lines.splice(index, 1)
  else lines[index] = replacement
  return lines.join('\n')
}

describe('buildSiwxMessage', () => {
  it("writes the spec's lines in the spec's order", () => {
    expect(buildSiwxMessage(input)).toBe(validText)
  })

  it('adds a statement after the address and Not Before after Expiration Time, as EIP-4361 orders them', () => {
    const message = buildSiwxMessage({ ...input, statement: 'Sign in to Steward.', notBefore: seconds(-5) })
    expect(message.split('\n').slice(1, 5)).toEqual([signer.address, '', 'Sign in to Steward.', ''])
    expect(message.split('\n').at(-1)).toBe('Not Before: 2026-03-01T11:59:55.000Z')
  })
})

describe('siwxAudienceOf', () => {
  it.each([
    ['https://api.steward.example', 'api.steward.example', 'https://api.steward.example'],
    ['https://api.steward.example/', 'api.steward.example', 'https://api.steward.example'],
    ['https://API.Steward.example:443', 'api.steward.example', 'https://api.steward.example'],
    ['http://localhost:8080', 'localhost:8080', 'http://localhost:8080'],
    ['https://example.com/steward/', 'example.com', 'https://example.com/steward'],
  ])('%s → domain %s, URI %s', (base, domain, uri) => {
    expect(siwxAudienceOf(base)).toEqual({ domain, uri })
  })

  it('refuses a base URL with a query, a fragment or credentials, or not http(s)', () => {
    for (const base of ['https://api.steward.example/?a=1', 'https://api.steward.example/#x', 'https://user:pw@api.steward.example', 'ftp://api.steward.example']) {
      expect(() => siwxAudienceOf(base), base).toThrow(/assertion failed/)
    }
  })
})

describe('checkSiwxMessage', () => {
  it('accepts a message signed by the address it names, and answers that address checksummed', async () => {
    const { message, signature } = await signed(validText)
    expect(await check(message, signature)).toEqual({ ok: true, address: signer.address })
    // The challenge's address may be given in any letter case.
    expect(await check(message, signature, { address: signer.address.toLowerCase() })).toEqual({ ok: true, address: signer.address })
  })

  it('accepts a statement, Not Before, timestamps with an offset or without fractions, and v as 0 or 1', async () => {
    expect(await refusalOf(buildSiwxMessage({ ...input, statement: 'Sign in to Steward: read the terms at https://steward.example/terms.', notBefore: seconds(-5) }))).toBe('ok')
    expect(await refusalOf(withLine('Issued At:', 'Issued At: 2026-03-01T13:59:50+02:00'))).toBe('ok')
    expect(await refusalOf(withLine('Expiration Time:', 'Expiration Time: 2026-03-01T12:04:50Z'))).toBe('ok')
    const { message, signature } = await signed(validText)
    const v = Number.parseInt(signature.slice(-2), 16)
    expect(await check(message, `${signature.slice(0, -2)}0${v - 27}`)).toEqual({ ok: true, address: signer.address })
  })

  it('accepts a message whose times sit exactly on the edges of the windows', async () => {
    const skew = siwxClockSkewSecondsDefault
    expect(await refusalOf(buildSiwxMessage({ ...input, issuedAt: seconds(skew), expirationTime: seconds(skew + 60) }))).toBe('ok')
    expect(await refusalOf(buildSiwxMessage({ ...input, issuedAt: seconds(-siwxMessageAgeSecondsDefault - skew), expirationTime: seconds(-skew + 1) }))).toBe('ok')
    expect(await refusalOf(buildSiwxMessage({ ...input, notBefore: seconds(skew) }))).toBe('ok')
  })

  const malformed: ReadonlyArray<[string, string]> = [
    ['an empty message', ''],
    ['text that is no message', 'hello'],
    ['a trailing newline', `${validText}\n`],
    ['a leading line', `Welcome\n${validText}`],
    ['CRLF line ends', validText.replaceAll('\n', '\r\n')],
    ['Request ID', `${validText}\nRequest ID: 42`],
    ['Resources', `${validText}\nResources:\n- https://api.steward.example/v1/payments`],
    ['an unknown line at the end', `${validText}\nNote: hi`],
    ['Version before URI', validText.replace('URI: https://api.steward.example\nVersion: 1', 'Version: 1\nURI: https://api.steward.example')],
    ['Expiration Time before Issued At', validText.replace(/(Issued At: .*)\n(Expiration Time: .*)$/, '$2\n$1')],
    ['one blank line only', validText.replace('\n\n\n', '\n\n')],
    ['three blank lines', validText.replace('\n\n\n', '\n\n\n\n')],
    ['a statement with no blank line after it', validText.replace('\n\n\n', '\n\nHello\n')],
    ['a statement with a character EIP-4361 excludes', validText.replace('\n\n\n', '\n\nSay "hi"\n\n')],
    ['a lower-case address', withLine('0x', signer.address.toLowerCase())],
    ['an address with a wrong checksum', withLine('0x', signer.address.replace(/[a-f]/, (letter) => letter.toUpperCase()))],
    ['a short address', withLine('0x', signer.address.slice(0, -2))],
    ['a short nonce', withLine('Nonce:', 'Nonce: abc123')],
    ['a nonce with a dash', withLine('Nonce:', 'Nonce: q4Z7pX2m-T9bK1vRw')],
    ['a chain id in hex', withLine('Chain ID:', 'Chain ID: 0x2105')],
    ['a day that does not exist', withLine('Issued At:', 'Issued At: 2026-02-30T11:59:50.000Z')],
    ['a timestamp with a space', withLine('Expiration Time:', 'Expiration Time: 2026-03-01 12:04:50Z')],
    ['a timestamp without a zone', withLine('Issued At:', 'Issued At: 2026-03-01T11:59:50')],
    ['a leap second', withLine('Expiration Time:', 'Expiration Time: 2026-03-01T23:59:60Z')],
    ['a date only', withLine('Not', 'Not Before: 2026-03-01', `${validText}\nNot Before: x`)],
    ['a missing Issued At', withLine('Issued At:', undefined)],
    ['a missing nonce', withLine('Nonce:', undefined)],
    ['a trailing space', withLine('Version:', 'Version: 1 ')],
    ['more characters than the limit', validText.replace('\n\n\n', `\n\n${'a'.repeat(siwxMessageCharactersMax)}\n\n`)],
  ]

  it.each(malformed)('refuses %s as message_malformed', async (_case, message) => {
    expect(await refusalOf(message)).toBe('message_malformed')
  })

  const refusals: ReadonlyArray<[SiwxRefusal, string, () => string, Partial<SiwxExpectation>?]> = [
    ['domain_mismatch', 'another domain', () => buildSiwxMessage({ ...input, domain: 'evil.example' })],
    ['domain_mismatch', 'a scheme before the domain', () => validText.replace('api.steward.example wants', 'https://api.steward.example wants')],
    ['domain_mismatch', 'an explicit default port', () => buildSiwxMessage({ ...input, domain: 'api.steward.example:443' })],
    ['domain_mismatch', 'another letter case', () => buildSiwxMessage({ ...input, domain: 'API.steward.example' })],
    ['address_mismatch', "the challenge was another address's", () => validText, { address: stranger.address }],
    ['uri_mismatch', 'a trailing slash', () => buildSiwxMessage({ ...input, uri: 'https://api.steward.example/' })],
    ['uri_mismatch', 'http for https', () => buildSiwxMessage({ ...input, uri: 'http://api.steward.example' })],
    ['uri_mismatch', 'a path below the base URL', () => buildSiwxMessage({ ...input, uri: 'https://api.steward.example/v1/auth/siwx' })],
    ['version_unsupported', 'Version 2', () => withLine('Version:', 'Version: 2')],
    ['chain_id_mismatch', 'Ethereum mainnet (1)', () => buildSiwxMessage({ ...input, chainId: 1 })],
    ['chain_id_mismatch', 'a leading zero', () => withLine('Chain ID:', 'Chain ID: 08453')],
    ['nonce_mismatch', 'another nonce', () => buildSiwxMessage({ ...input, nonce: 'q4Z7pX2mT9bK1vRx' })],
    ['nonce_mismatch', 'another letter case', () => buildSiwxMessage({ ...input, nonce: nonce.toLowerCase() })],
    ['expiration_missing', 'no Expiration Time', () => withLine('Expiration Time:', undefined)],
    ['issued_at_in_future', 'issued beyond the skew', () => buildSiwxMessage({ ...input, issuedAt: seconds(siwxClockSkewSecondsDefault + 1), expirationTime: seconds(600) })],
    ['issued_at_too_old', 'issued before the age and the skew', () => buildSiwxMessage({ ...input, issuedAt: seconds(-siwxMessageAgeSecondsDefault - siwxClockSkewSecondsDefault - 1) })],
    ['issued_at_too_old', 'too old for a shorter maximum age', () => buildSiwxMessage({ ...input, issuedAt: seconds(-71) }), { maxAgeSeconds: 10 }],
    ['expired', 'expired beyond the skew', () => buildSiwxMessage({ ...input, issuedAt: seconds(-200), expirationTime: seconds(-siwxClockSkewSecondsDefault) })],
    ['expired', 'expired with no skew allowed', () => buildSiwxMessage({ ...input, expirationTime: seconds(0) }), { clockSkewSeconds: 0 }],
    ['expired', 'expiring before it was issued', () => buildSiwxMessage({ ...input, issuedAt: seconds(30), expirationTime: seconds(20) })],
    ['not_before_in_future', 'not before a moment beyond the skew', () => buildSiwxMessage({ ...input, notBefore: seconds(siwxClockSkewSecondsDefault + 1) })],
  ]

  it.each(refusals)('refuses as %s: %s', async (reason, _case, message, overrides = {}) => {
    expect(await refusalOf(message(), overrides)).toBe(reason)
  })

  it.each([
    ['empty', '0x'],
    ['not hex', `0x${'zz'.repeat(65)}`],
    ['without 0x', '1b'.repeat(65)],
    ['64 bytes (EIP-2098 compact)', `0x${'11'.repeat(64)}`],
    ['66 bytes', `0x${'11'.repeat(66)}`],
    ['v = 5', 'v'],
    ['r = 0', 'r'],
    ['s = 0xff…ff, above the curve order', 's'],
  ])('refuses a signature that is %s as signature_invalid', async (_case, shape) => {
    const { message, signature } = await signed(validText)
    const bad =
      shape === 'v' ? `${signature.slice(0, -2)}05` : shape === 'r' ? `0x${'00'.repeat(32)}${signature.slice(66)}` : shape === 's' ? `${signature.slice(0, 66)}${'ff'.repeat(32)}${signature.slice(-2)}` : shape
    expect(await check(message, bad)).toEqual({ ok: false, reason: 'signature_invalid' })
  })

  it('refuses as signer_mismatch a message naming the signer but signed by another key', async () => {
    expect(await refusalOf(validText, {}, stranger)).toBe('signer_mismatch')
  })

  it('refuses as signer_mismatch a signature of another message', async () => {
    const other = await signed(buildSiwxMessage({ ...input, expirationTime: seconds(291) }))
    expect(await check(validText, other.signature)).toEqual({ ok: false, reason: 'signer_mismatch' })
  })

  it('names the first failing check, in the documented order', async () => {
    // Wrong in every respect; fixing the faults one at a time brings out each reason in order.
    const faults: ReadonlyArray<[SiwxRefusal, (text: string) => string, (text: string) => string]> = [
      ['message_malformed', (text) => `${text}\nRequest ID: 1`, (text) => text.replace('\nRequest ID: 1', '')],
      ['domain_mismatch', (text) => text.replace('api.steward.example wants', 'evil.example wants'), (text) => text.replace('evil.example wants', 'api.steward.example wants')],
      ['address_mismatch', (text) => text.replace(signer.address, stranger.address), (text) => text.replace(stranger.address, signer.address)],
      ['uri_mismatch', (text) => text.replace('URI: https://api.steward.example', 'URI: https://evil.example'), (text) => text.replace('URI: https://evil.example', 'URI: https://api.steward.example')],
      ['version_unsupported', (text) => text.replace('Version: 1', 'Version: 2'), (text) => text.replace('Version: 2', 'Version: 1')],
      ['chain_id_mismatch', (text) => text.replace('Chain ID: 8453', 'Chain ID: 1'), (text) => text.replace('Chain ID: 1\n', 'Chain ID: 8453\n')],
      ['nonce_mismatch', (text) => text.replace(nonce, 'wrongNonce1'), (text) => text.replace('wrongNonce1', nonce)],
      ['expiration_missing', (text) => text.replace(/\nExpiration Time: .*/, ''), (text) => text.replace(/(Issued At: .*)/, '$1\nExpiration Time: 2026-03-01T11:00:00.000Z')],
      ['issued_at_in_future', (text) => text.replace(/Issued At: .*/, 'Issued At: 2026-03-01T13:00:00.000Z'), (text) => text.replace(/Issued At: .*/, 'Issued At: 2026-03-01T10:00:00.000Z')],
      ['issued_at_too_old', (text) => text, (text) => text.replace(/Issued At: .*/, 'Issued At: 2026-03-01T11:59:50.000Z')],
      ['expired', (text) => text, (text) => text.replace(/Expiration Time: .*/, 'Expiration Time: 2026-03-01T12:04:50.000Z')],
      ['not_before_in_future', (text) => `${text}\nNot Before: 2026-03-02T00:00:00.000Z`, (text) => text.replace(/\nNot Before: .*/, '')],
    ]
    let text = validText
    for (const [, breakIt] of faults) text = breakIt(text)
    const seen: SiwxRefusal[] = []
    for (const [reason, , fixIt] of faults) {
      const pair = await signed(text, stranger)
      const outcome = await check(pair.message, `${pair.signature.slice(0, -2)}05`)
      expect(outcome, `before fixing ${reason}`).toEqual({ ok: false, reason })
      seen.push(reason)
      text = fixIt(text)
    }
    expect(text).toBe(validText)
    const bySigner = await signed(text, stranger)
    expect(await check(bySigner.message, `${bySigner.signature.slice(0, -2)}05`)).toEqual({ ok: false, reason: 'signature_invalid' })
    expect(await check(bySigner.message, bySigner.signature)).toEqual({ ok: false, reason: 'signer_mismatch' })
    seen.push('signature_invalid', 'signer_mismatch')
    expect(seen).toEqual([...siwxRefusals])
  })

  it('asserts its own inputs: a bad expectation is a bug, not a refusal', async () => {
    const { message, signature } = await signed(validText)
    for (const overrides of [{ nonce: 'short' }, { address: 'nobody' }, { maxAgeSeconds: -1 }, { clockSkewSeconds: 1.5 }, { now: new Date(Number.NaN) }, { domain: '' }] as Partial<SiwxExpectation>[]) {
      await expect(check(message, signature, overrides), JSON.stringify(overrides)).rejects.toThrow(/assertion failed/)
    }
  })
})

describe('properties', () => {
  const alphabet = [...'0123456789abcdefABCDEFxyzXYZ :.-/\n\r\t ']
  const edits = fc.oneof(
    fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), character: fc.constantFrom(...alphabet) }),
    fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), character: fc.constantFrom(...alphabet, 'é', '\u200b') }),
    fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), character: fc.constant('') }),
  )

  it('refuses every message that differs from the signed one by a single character', async () => {
    const { signature } = await signed(validText)
    await fc.assert(
      fc.asyncProperty(edits, async ({ kind, at, character }) => {
        const index = at % (validText.length + (kind === 'insert' ? 1 : 0))
        const edited =
          kind === 'delete' ? validText.slice(0, index) + validText.slice(index + 1) : kind === 'insert' ? validText.slice(0, index) + character + validText.slice(index) : validText.slice(0, index) + character + validText.slice(index + 1)
        fc.pre(edited !== validText)
        const outcome = await check(edited, signature)
        expect(outcome.ok).toBe(false)
      }),
      { numRuns: 300 },
    )
  })

  const messageInputs = fc.record({
    nonce: fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'), minLength: 8, maxLength: 40 }),
    issuedAtOffsetSeconds: fc.integer({ min: -siwxMessageAgeSecondsDefault, max: siwxClockSkewSecondsDefault }),
    lifetimeSeconds: fc.integer({ min: 1, max: 86_400 }),
    statement: fc.option(fc.string({ unit: fc.constantFrom(...'abc XYZ019.,:/?!-'), minLength: 1, maxLength: 80 }).filter((text) => text.trim() === text && text.length > 0), { nil: undefined }),
    notBeforeOffsetSeconds: fc.option(fc.integer({ min: -600, max: siwxClockSkewSecondsDefault }), { nil: undefined }),
  })

  it('accepts every message buildSiwxMessage writes within the windows, and viem reads it as we do', async () => {
    await fc.assert(
      fc.asyncProperty(messageInputs, async ({ nonce: challenge, issuedAtOffsetSeconds, lifetimeSeconds, statement, notBeforeOffsetSeconds }) => {
        const issuedAt = seconds(issuedAtOffsetSeconds)
        const expirationTime = new Date(Math.max(issuedAt.getTime(), now.getTime() - siwxClockSkewSecondsDefault * 1000) + lifetimeSeconds * 1000)
        const notBefore = notBeforeOffsetSeconds === undefined ? undefined : seconds(notBeforeOffsetSeconds)
        const message = buildSiwxMessage({ ...input, nonce: challenge, issuedAt, expirationTime, statement, notBefore })
        const pair = await signed(message)
        expect(await check(pair.message, pair.signature, { nonce: challenge })).toEqual({ ok: true, address: signer.address })

        const ours = parseSiwxMessage(message)
        const viems = parseSiweMessage(message)
        expect(ours).toBeDefined()
        // toEqual passes over our fields that are undefined, which viem leaves out.
        expect({ ...viems, chainId: String(viems.chainId) }).toEqual(ours)
        expect(ours).toMatchObject({ issuedAt, expirationTime })
      }),
      { numRuns: 100 },
    )
  })
})
