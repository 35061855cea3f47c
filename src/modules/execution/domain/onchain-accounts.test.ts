import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  deriveSessionKey,
  firstValidPrivateKey,
  onchainDirectoryCodes,
  resolveOnchainPayment,
  secp256k1Order,
  sessionKeyCandidatesMax,
  sessionKeyMismatch,
  usdcBaseUnitsOf,
} from './onchain-accounts.ts'

const seed = 'a-session-key-seed-of-at-least-32-bytes!'
const tenantId = '6b0f7a52-2f34-4bb6-9c43-0b4cb3c8a001'

const bytesOf = (value: bigint) => Uint8Array.from(Buffer.from(value.toString(16).padStart(64, '0'), 'hex'))

describe('firstValidPrivateKey', () => {
  it.each([
    ['the first candidate when it is in range', [5n], 5n, 1],
    ['n − 1, the largest key', [secp256k1Order - 1n], secp256k1Order - 1n, 1],
    ['the next counter after zero', [0n, 7n], 7n, 2],
    ['the next counter after n', [secp256k1Order, 9n], 9n, 2],
    ['the next counters after 2^256 − 1 and zero', [2n ** 256n - 1n, 0n, 1n], 1n, 3],
  ] as const)('%s', (_name, candidates, expected, asked) => {
    const counters: number[] = []
    const key = firstValidPrivateKey((counter) => (counters.push(counter), bytesOf(candidates[counter]!)))
    expect(key).toBe(`0x${expected.toString(16).padStart(64, '0')}`)
    expect(counters).toEqual([...Array(asked).keys()])
  })

  it('gives up after the bounded number of candidates, and refuses a candidate that is not 32 bytes', () => {
    expect(() => firstValidPrivateKey(() => bytesOf(0n))).toThrow(`among ${sessionKeyCandidatesMax} candidates`)
    expect(() => firstValidPrivateKey(() => new Uint8Array(31))).toThrow('32 bytes')
  })
})

describe('deriveSessionKey', () => {
  it('is HMAC-SHA-256(seed, label, tenant, account, counter 0): deterministic, and another tenant, account or seed gives another key', () => {
    const key = deriveSessionKey(seed, { tenantId, accountId: 'acc_1' })
    const expected = createHmac('sha256', seed).update(`steward:onchain-session-key:v1\n${tenantId}\nacc_1\n0`).digest('hex')
    expect(key).toBe(`0x${expected}`)
    expect(deriveSessionKey(seed, { tenantId, accountId: 'acc_1' })).toBe(key)
    const others = [
      deriveSessionKey(seed, { tenantId, accountId: 'acc_2' }),
      deriveSessionKey(seed, { tenantId: '6b0f7a52-2f34-4bb6-9c43-0b4cb3c8a002', accountId: 'acc_1' }),
      deriveSessionKey(`${seed}x`, { tenantId, accountId: 'acc_1' }),
    ]
    expect(new Set([key, ...others]).size).toBe(4)
    for (const other of others) expect(other).toMatch(/^0x[0-9a-f]{64}$/)
  })

  it('refuses a seed shorter than 32 bytes and ids with a newline', () => {
    expect(() => deriveSessionKey('x'.repeat(31), { tenantId, accountId: 'acc_1' })).toThrow('at least 32 bytes')
    expect(deriveSessionKey('x'.repeat(32), { tenantId, accountId: 'acc_1' })).toMatch(/^0x[0-9a-f]{64}$/)
    expect(() => deriveSessionKey(seed, { tenantId, accountId: 'acc\n1' })).toThrow('newline')
  })
})

describe('usdcBaseUnitsOf', () => {
  it.each([
    ['25.00', 'USD', 25_000_000n],
    ['0.01', 'USD', 10_000n],
    ['1', 'USD', 1_000_000n],
    ['123456789.99', 'USD', 123_456_789_990_000n],
    ['25.00', 'EUR', undefined],
    ['25.00', 'USDC', undefined],
    ['0.001', 'USD', undefined],
    ['0.00', 'USD', undefined],
    ['-1.00', 'USD', undefined],
    ['abc', 'USD', undefined],
  ] as const)('%s %s → %s', (amount, currency, expected) => {
    expect(usdcBaseUnitsOf(amount, currency)).toBe(expected)
  })
})

describe('resolveOnchainPayment', () => {
  const registration = { smartAccount: '0x' + 'A'.repeat(40), token: '0x' + 'b'.repeat(40), sessionKeyAddress: '0x' + 'c'.repeat(40), chainId: 8453 }
  const wallet = '0x' + 'd'.repeat(40)
  const good = {
    registration,
    chainId: 8453,
    derivedSessionKeyAddress: '0x' + 'C'.repeat(40),
    amount: '12.50',
    currency: 'USD',
    sourceAccountId: 'acc_1',
    counterparty: { id: 'cp_1', walletAddresses: [wallet.toUpperCase().replace('0X', '0x')] },
  }

  it('resolves a registered account, a USD amount and a counterparty with one wallet (lower-cased)', () => {
    expect(resolveOnchainPayment(good)).toEqual({ payment: { smartAccount: '0x' + 'a'.repeat(40), token: registration.token, to: wallet, amountBaseUnits: 12_500_000n } })
    // The same wallet twice (in two cases) is one wallet.
    expect(resolveOnchainPayment({ ...good, counterparty: { id: 'cp_1', walletAddresses: [wallet, wallet.toUpperCase().replace('0X', '0x')] } })).toHaveProperty('payment')
  })

  it.each([
    ['no registration', { registration: undefined }, onchainDirectoryCodes.accountUnregistered],
    ['a registration on another chain', { chainId: 1 }, onchainDirectoryCodes.chainMismatch],
    ['a session key Steward no longer derives', { derivedSessionKeyAddress: '0x' + 'e'.repeat(40) }, onchainDirectoryCodes.sessionKeyMismatch],
    ['a EUR amount', { currency: 'EUR' }, onchainDirectoryCodes.currencyUnsupported],
    ['an amount beyond USD precision', { amount: '1.001' }, onchainDirectoryCodes.currencyUnsupported],
    ['an unknown counterparty', { counterparty: undefined }, onchainDirectoryCodes.counterpartyUnknown],
    ['a counterparty without a wallet', { counterparty: { id: 'cp_1', walletAddresses: [] } }, onchainDirectoryCodes.counterpartyNoWallet],
    ['a counterparty with two wallets', { counterparty: { id: 'cp_1', walletAddresses: [wallet, '0x' + 'f'.repeat(40)] } }, onchainDirectoryCodes.counterpartyWalletAmbiguous],
    ['a wallet that is not an address', { counterparty: { id: 'cp_1', walletAddresses: ['0x1234'] } }, 'onchain_recipient_invalid'],
  ] as const)('refuses %s', (_name, change, code) => {
    const outcome = resolveOnchainPayment({ ...good, ...change })
    expect(outcome).toEqual({ refused: { code, reason: expect.any(String) } })
  })

  it('sessionKeyMismatch compares addresses in any case', () => {
    expect(sessionKeyMismatch(registration, registration.sessionKeyAddress.toUpperCase().replace('0X', '0x'))).toBeUndefined()
    expect(sessionKeyMismatch(registration, '0x' + '1'.repeat(40))?.code).toBe(onchainDirectoryCodes.sessionKeyMismatch)
  })
})
