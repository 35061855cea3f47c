import { describe, expect, it } from 'vitest'
import { chainIndexerParser } from './chain-indexer.parser.ts'
import { ParseError } from '../parser.ts'
import { collect, contractProblems, fixtureInput, fixtureJson, jsonInput, parseFailure } from '../../../../../test/fixtures/raw/documents/fixture-input.ts'

const wallet = '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed'
const account = { wallet_address: wallet, chain_id: 8453, name: 'Treasury (Base)' }
const usdc = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913'
const weth = '0x4200000000000000000000000000000000000006'

describe('chain_indexer_wallet', () => {
  it('is named and versioned', () => {
    expect([chainIndexerParser.name, chainIndexerParser.version]).toEqual(['chain_indexer_wallet', '1.0.0'])
  })

  it('yields the wallet account first, then each transfer signed from the wallet, with exact decimals', async () => {
    const outputs = await collect(chainIndexerParser, fixtureInput('chain-indexer.json', { sourceType: 'chain_indexer_wallet', mimeType: 'application/json' }))
    expect(contractProblems(outputs)).toEqual([])
    expect(outputs.every((output) => output.type === 'record' && output.confidence === 1)).toBe(true)
    expect(outputs.map((output) => (output.type === 'record' ? output.record : output))).toEqual([
      { kind: 'account', account, account_type: 'onchain' },
      {
        kind: 'wallet_transfer',
        account,
        chain_id: 8453,
        tx_hash: '0x3f1c9e7a2b5d4c6e8f0a1b2c3d4e5f60718293a4b5c6d7e8f9012a3b4c5d6e7f',
        log_index: 12,
        block_number: 26511234,
        timestamp: '2026-03-03T14:02:11Z',
        from: '0x8ba1f109551bd432803012645ac136ddd64dba72',
        to: wallet,
        token: 'USDC',
        token_address: usdc,
        amount: '2500',
      },
      {
        kind: 'wallet_transfer',
        account,
        chain_id: 8453,
        tx_hash: '0xa7e2d1c0b9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a3928170615e',
        log_index: 3,
        block_number: 26513390,
        timestamp: '2026-03-03T15:14:03Z',
        from: wallet,
        to: '0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae',
        token: 'USDC',
        token_address: usdc,
        amount: '-1356.250001',
      },
      {
        kind: 'wallet_transfer',
        account,
        chain_id: 8453,
        tx_hash: '0x0b5c9d1e2f3a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9012a3b4c5',
        log_index: 0,
        block_number: 26520001,
        timestamp: '2026-03-04T08:00:00.250Z',
        from: '0x8ba1f109551bd432803012645ac136ddd64dba72',
        to: wallet,
        token: 'WETH',
        token_address: weth,
        amount: '1.234567890123456789',
      },
      {
        kind: 'wallet_transfer',
        account,
        chain_id: 8453,
        tx_hash: '0x0b5c9d1e2f3a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9012a3b4c5',
        log_index: 1,
        block_number: 26520001,
        timestamp: '2026-03-04T08:00:00.250Z',
        from: wallet,
        to: '0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae',
        token: 'WETH',
        token_address: weth,
        amount: '-100.000000000000000001',
      },
    ])
  })

  it('keeps the digits a float would lose', async () => {
    const outputs = await collect(chainIndexerParser, fixtureInput('chain-indexer.json', { sourceType: 'chain_indexer_wallet', mimeType: 'application/json' }))
    const amounts = outputs.flatMap((output) => (output.type === 'record' && output.record.kind === 'wallet_transfer' ? [output.record.amount] : []))
    expect(Number('100000000000000000001') / 1e18).toBe(100)
    expect(amounts).toContain('-100.000000000000000001')
  })

  it('records a transfer to itself as zero', async () => {
    const payload = fixtureJson('chain-indexer.json')
    payload.transfers = [{ ...payload.transfers[0], from: payload.wallet.address }]
    const outputs = await collect(chainIndexerParser, jsonInput('chain_indexer_wallet', payload))
    expect(outputs[1]).toMatchObject({ record: { kind: 'wallet_transfer', amount: '0' } })
  })

  it('refuses the invalid fixture (a JSON number for the value), naming the first problem', async () => {
    const error = await parseFailure(chainIndexerParser, fixtureInput('chain-indexer-invalid.json', { sourceType: 'chain_indexer_wallet', mimeType: 'application/json' }))
    expect(error).toBeInstanceOf(ParseError)
    expect((error as Error).message).toBe('invalid steward.chain_indexer.v1 payload: /transfers/0/value: must be string')
  })

  it.each([
    ['an unknown schema', (p: any) => void (p.schema = 'steward.chain_indexer.v2'), /unknown payload schema "steward.chain_indexer.v2"/],
    ['a transfer not involving the wallet', (p: any) => void (p.transfers[0].to = '0x0000000000000000000000000000000000000001'), /\/transfers\/0: the transfer neither comes from nor goes to wallet/],
    ['the same log twice', (p: any) => void (p.transfers[1] = { ...p.transfers[0] }), /\/transfers\/1: duplicate transfer/],
    ['a value above uint256', (p: any) => void (p.transfers[0].value = (2n ** 256n).toString()), /\/transfers\/0\/value: larger than a uint256/],
    ['a decimal value', (p: any) => void (p.transfers[0].value = '2500.5'), /\/transfers\/0\/value: must match pattern/],
    ['a negative value', (p: any) => void (p.transfers[0].value = '-1'), /\/transfers\/0\/value/],
    ['a short tx hash', (p: any) => void (p.transfers[0].tx_hash = '0x1234'), /\/transfers\/0\/tx_hash/],
    ['a bad address', (p: any) => void (p.wallet.address = '0xZZ'), /\/wallet\/address/],
    ['a local timestamp', (p: any) => void (p.transfers[0].timestamp = '2026-03-03T14:02:11+01:00'), /\/transfers\/0\/timestamp/],
    ['an impossible time', (p: any) => void (p.transfers[0].timestamp = '2026-03-03T25:02:11Z'), /\/transfers\/0\/timestamp: "2026-03-03T25:02:11Z" is not a valid time/],
    ['too many decimals', (p: any) => void (p.transfers[0].token.decimals = 78), /\/transfers\/0\/token\/decimals/],
    ['a native transfer without a token address', (p: any) => void delete p.transfers[0].token.address, /missing required field "address"/],
  ])('refuses %s', async (_case, mutate, message) => {
    const payload = fixtureJson('chain-indexer.json')
    mutate(payload)
    const error = await parseFailure(chainIndexerParser, jsonInput('chain_indexer_wallet', payload))
    expect(error).toBeInstanceOf(ParseError)
    expect((error as Error).message).toMatch(message)
  })

  it('accepts only JSON from the chain indexer', () => {
    const accepts = (sourceType: string, mimeType: string) => chainIndexerParser.accepts({ sourceType, mimeType, filename: null, head: Buffer.from('{') })
    expect([accepts('chain_indexer_wallet', 'application/json'), accepts('eth_address', 'application/json'), accepts('chain_indexer_wallet', 'text/plain')]).toEqual([true, false, false])
  })
})
