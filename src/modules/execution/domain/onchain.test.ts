import { describe, expect, it } from 'vitest'
import {
  expiryMarginRefusal,
  findPaymentTransfer,
  isAlreadyKnownBroadcastError,
  nextNonce,
  onchainFailureCodes,
  onchainReceipt,
  paymentRefusal,
  refusalOfRevert,
  type PaymentTerms,
  type TransferLog,
} from './onchain.ts'

const key = '0x1111111111111111111111111111111111111111'
const account = '0x2222222222222222222222222222222222222222'
const token = '0x3333333333333333333333333333333333333333'
const recipient = '0x4444444444444444444444444444444444444444'
const zero = `0x${'0'.repeat(40)}`

describe('refusalOfRevert', () => {
  it.each([
    ['SessionKeyUnknown', [key], onchainFailureCodes.sessionKeyUnknown, /never added/],
    ['SessionKeyIsRevoked', [key], onchainFailureCodes.sessionKeyRevoked, /revoked/],
    ['SessionKeyExpired', [key, 1_700_000_000n], onchainFailureCodes.sessionKeyExpired, /expired at 1700000000/],
    ['TokenNotAllowed', [key, token], onchainFailureCodes.tokenNotAllowed, new RegExp(`may not move token ${token}`)],
    ['SpendCapExceeded', [key, 300n, 200n, 101n], onchainFailureCodes.spendCapExceeded, /300 base units in total and has moved 200; 101 more/],
    ['ZeroAmount', [], onchainFailureCodes.amountInvalid, /zero amount/],
    ['ZeroAddress', [], onchainFailureCodes.recipientInvalid, /zero address/],
    ['ERC20InsufficientBalance', [account, 5n, 6n], onchainFailureCodes.insufficientBalance, /holds 5 base units and needs 6/],
    ['SafeERC20FailedOperation', [token], onchainFailureCodes.transferReverted, new RegExp(`SafeERC20FailedOperation\\(${token}\\)`)],
    ['Panic', [17n], onchainFailureCodes.transferReverted, /Panic\(17\)/],
  ] as const)('%s becomes its deterministic code', (errorName, args, code, reason) => {
    const refusal = refusalOfRevert({ errorName, args })
    expect(refusal.code).toBe(code)
    expect(refusal.reason).toMatch(reason)
  })

  it('names the raw data of a revert no ABI decodes, and says when there was none', () => {
    expect(refusalOfRevert({ errorName: undefined, args: [], data: '0xdeadbeef' })).toEqual({ code: onchainFailureCodes.transferReverted, reason: 'the transfer reverts with undecoded data 0xdeadbeef' })
    expect(refusalOfRevert({ errorName: undefined, args: [] }).reason).toBe('the transfer reverts with undecoded data (none)')
  })

  it('writes addresses in lowercase, as the Ledger does', () => {
    expect(refusalOfRevert({ errorName: 'SessionKeyUnknown', args: ['0xABCDEF0000000000000000000000000000000001'] }).reason).toContain('0xabcdef0000000000000000000000000000000001')
  })
})

describe('expiryMarginRefusal', () => {
  const at = (expirySeconds: bigint, latestBlockTimestampSeconds: bigint, marginSeconds: number) =>
    expiryMarginRefusal({ sessionKey: key, expirySeconds, latestBlockTimestampSeconds, marginSeconds })

  it.each([
    // expiry, latest block timestamp, margin, refused
    [1_000n, 900n, 60, false], // 100 s left, more than the margin
    [1_000n, 939n, 60, false], // 61 s left: usable until 940, one second after the block
    [1_000n, 940n, 60, true], // exactly the margin left: refused (the transfer may land at 1000)
    [1_000n, 999n, 60, true],
    [1_000n, 1_000n, 60, true], // already expired on chain
    [1_000n, 999n, 0, false], // no margin: usable while the block is before the expiry
    [1_000n, 1_000n, 0, true],
  ] as const)('expiry %s at block time %s with a %s s margin: refused %s', (expiry, latest, margin, refused) => {
    const refusal = at(expiry, latest, margin)
    expect(refusal !== undefined).toBe(refused)
    if (refusal !== undefined) {
      expect(refusal.code).toBe(onchainFailureCodes.sessionKeyExpiring)
      expect(refusal.reason).toContain(`expires at ${expiry}`)
    }
  })

  it('refuses an address with no expiry (the owner, or no key): the rail never signs as the owner', () => {
    expect(at(0n, 1n, 0)?.code).toBe(onchainFailureCodes.sessionKeyUnknown)
  })

  it.each([-1, 1.5, Number.NaN])('refuses a margin of %s as a programmer error', (margin) => {
    expect(() => at(1_000n, 1n, margin)).toThrow(RangeError)
  })
})

describe('paymentRefusal', () => {
  const valid: PaymentTerms = { smartAccount: account, token, to: recipient, amountBaseUnits: 1n, sessionKey: `0x${'ab'.repeat(32)}` }

  it('accepts a well-formed payment, the largest uint256 amount included', () => {
    expect(paymentRefusal(valid)).toBeUndefined()
    expect(paymentRefusal({ ...valid, amountBaseUnits: 2n ** 256n - 1n })).toBeUndefined()
  })

  it.each([
    ['a short account', { smartAccount: '0x1234' }, onchainFailureCodes.paymentInvalid],
    ['a token without 0x', { token: '3333333333333333333333333333333333333333' }, onchainFailureCodes.paymentInvalid],
    ['a non-hex recipient', { to: `0x${'g'.repeat(40)}` }, onchainFailureCodes.paymentInvalid],
    ['a short session key', { sessionKey: '0xabcd' }, onchainFailureCodes.paymentInvalid],
    ['a zero account', { smartAccount: zero }, onchainFailureCodes.paymentInvalid],
    ['a zero token', { token: zero }, onchainFailureCodes.paymentInvalid],
    ['a zero recipient', { to: zero }, onchainFailureCodes.recipientInvalid],
    ['a zero amount', { amountBaseUnits: 0n }, onchainFailureCodes.amountInvalid],
    ['a negative amount', { amountBaseUnits: -1n }, onchainFailureCodes.amountInvalid],
    ['an amount past uint256', { amountBaseUnits: 2n ** 256n }, onchainFailureCodes.amountInvalid],
  ] as const)('refuses %s', (_name, change, code) => {
    expect(paymentRefusal({ ...valid, ...change })?.code).toBe(code)
  })

  it('never puts the private key in a reason', () => {
    const secret = `0x${'cd'.repeat(31)}`
    expect(JSON.stringify(paymentRefusal({ ...valid, sessionKey: secret }))).not.toContain('cdcd')
  })
})

describe('nextNonce', () => {
  it.each([
    [0, undefined, 0],
    [5, undefined, 5],
    [5, 3, 5], // the node is ahead of this process (another sender, or a restart)
    [5, 7, 7], // this process stored transactions the node has not seen
  ] as const)('pending %s, next assigned %s: %s', (pending, assigned, expected) => {
    expect(nextNonce(pending, assigned)).toBe(expected)
  })

  it('refuses a count that is not one', () => {
    expect(() => nextNonce(-1, undefined)).toThrow(RangeError)
    expect(() => nextNonce(0.5, undefined)).toThrow(RangeError)
  })
})

describe('isAlreadyKnownBroadcastError', () => {
  it.each([
    ['already known', true],
    ['transaction already imported', true],
    ['known transaction: 0xabc', true],
    ['nonce too low: next nonce 3, tx nonce 2', true],
    ['insufficient funds for gas * price + value', false],
    ['replacement transaction underpriced', false],
    ['invalid chain id', false],
  ] as const)('%s: %s', (message, known) => {
    expect(isAlreadyKnownBroadcastError(message)).toBe(known)
  })
})

describe('findPaymentTransfer', () => {
  const payment = { smartAccount: account, token, to: recipient, amountBaseUnits: 10n }
  const transfer: TransferLog = { address: token, from: account, to: recipient, value: 10n, logIndex: 7 }

  it('finds the transfer of exactly the payment, whatever the letter case', () => {
    const upper: TransferLog = { ...transfer, address: token.toUpperCase().replace('0X', '0x'), logIndex: 8 }
    expect(findPaymentTransfer([upper], payment)?.logIndex).toBe(8)
    expect(findPaymentTransfer([{ ...transfer, value: 9n }, transfer], payment)?.logIndex).toBe(7)
  })

  it.each([
    ['another token', { address: recipient }],
    ['another sender', { from: recipient }],
    ['another recipient', { to: account }],
    ['another amount', { value: 11n }],
  ] as const)('ignores a transfer from %s', (_name, change) => {
    expect(findPaymentTransfer([{ ...transfer, ...change }], payment)).toBeUndefined()
  })
})

describe('onchainReceipt', () => {
  it('is JSON-safe and lowercase: amount as a decimal string, block and log index as numbers', () => {
    const receipt = onchainReceipt({
      chainId: 8453,
      txHash: `0x${'AB'.repeat(32)}`,
      blockNumber: 123n,
      blockHash: `0x${'CD'.repeat(32)}`,
      logIndex: 4,
      from: key.toUpperCase().replace('0X', '0x'),
      smartAccount: account,
      token,
      to: recipient,
      amountBaseUnits: 2n ** 70n,
    })
    expect(receipt).toEqual({
      type: 'onchain',
      chain_id: 8453,
      tx_hash: `0x${'ab'.repeat(32)}`,
      block_number: 123,
      block_hash: `0x${'cd'.repeat(32)}`,
      log_index: 4,
      from: key,
      smart_account: account,
      token,
      to: recipient,
      amount_base_units: '1180591620717411303424',
    })
    expect(JSON.parse(JSON.stringify(receipt))).toEqual(receipt)
  })

  it('refuses a block number past a safe integer rather than round it', () => {
    const input = { chainId: 1, txHash: '0x', blockHash: '0x', logIndex: 0, from: key, smartAccount: account, token, to: recipient, amountBaseUnits: 1n }
    expect(() => onchainReceipt({ ...input, blockNumber: 2n ** 53n })).toThrow(RangeError)
  })
})
