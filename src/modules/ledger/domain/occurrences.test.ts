import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ExtractedRecord } from '../../../kernel/extracted-record.ts'
import { NormalizedTexts } from './keys.ts'
import { occurrenceAmong, occurrenceCounts, occurrenceIdentity } from './occurrences.ts'

const purchase = (description: string, overrides: Partial<Extract<ExtractedRecord, { kind: 'transaction' }>> = {}): ExtractedRecord => ({
  kind: 'transaction',
  account: { iban: 'DE89370400440532013000' },
  amount: '-4.2',
  currency: 'EUR',
  transaction_date: '2026-01-05',
  status: 'posted',
  description,
  ...overrides,
})

const transfer = (logIndex: number): ExtractedRecord => ({
  kind: 'wallet_transfer',
  account: { wallet_address: '0xabc' },
  chain_id: 1,
  tx_hash: `0x${'a'.repeat(64)}`,
  log_index: logIndex,
  block_number: 1,
  timestamp: '2026-01-05T10:00:00Z',
  from: '0xabc',
  to: '0xdef',
  token: 'USDC',
  amount: '-1',
})

describe('occurrenceIdentity', () => {
  it.each<{ name: string; a: ExtractedRecord; b: ExtractedRecord; same: boolean }>([
    { name: 'the same purchase', a: purchase('COFFEE'), b: purchase('COFFEE'), same: true },
    { name: 'descriptions that normalize alike', a: purchase('Coffee! 1234567'), b: purchase('COFFEE'), same: true },
    { name: 'amounts written differently', a: purchase('COFFEE', { amount: '-4.20' }), b: purchase('COFFEE'), same: true },
    { name: 'another amount', a: purchase('COFFEE', { amount: '-4.21' }), b: purchase('COFFEE'), same: false },
    { name: 'another account', a: purchase('COFFEE', { account: { iban: 'GB29NWBK60161331926819' } }), b: purchase('COFFEE'), same: false },
    { name: 'another description', a: purchase('TEA'), b: purchase('COFFEE'), same: false },
    { name: 'the same transfer', a: transfer(1), b: transfer(1), same: true },
    { name: 'another log index', a: transfer(1), b: transfer(2), same: false },
  ])('$name: $same', ({ a, b, same }) => {
    expect(occurrenceIdentity(a)!.key === occurrenceIdentity(b)!.key).toBe(same)
  })

  it('counts transactions by their day and transfers by their block day, and nothing else', () => {
    expect(occurrenceIdentity(purchase('x', { transaction_date: '2026-02-01' }))!.day).toBe('2026-02-01')
    expect(occurrenceIdentity(transfer(0))!.day).toBe('2026-01-05')
    expect(occurrenceIdentity({ kind: 'balance', account: { iban: 'x' }, balance_type: 'closing', as_of: '2026-01-05', amount: '1', currency: 'EUR' })).toBeUndefined()
  })
})

describe('occurrenceAmong', () => {
  it('numbers the k-th identical row k, whatever else the day holds, and counts only that day', () => {
    const descriptions = ['COFFEE', 'Coffee', 'TEA']
    fc.assert(
      fc.property(fc.array(fc.record({ description: fc.constantFrom(...descriptions), day: fc.constantFrom('2026-01-05', '2026-01-06') }), { maxLength: 20 }), (rows) => {
        const records = rows.map((item) => purchase(item.description, { transaction_date: item.day }))
        const recent = new NormalizedTexts()
        records.forEach((record, index) => {
          const identity = occurrenceIdentity(record)!
          const expected = records.slice(0, index + 1).filter((other) => occurrenceIdentity(other)!.key === identity.key && occurrenceIdentity(other)!.day === identity.day).length
          expect(occurrenceAmong(record, records.slice(0, index))).toBe(expected)
          expect(occurrenceAmong(record, records.slice(0, index), recent)).toBe(expected)
        })
      }),
    )
  })

  it('gives 1 to records that are not counted', () => {
    const balance: ExtractedRecord = { kind: 'balance', account: { iban: 'x' }, balance_type: 'closing', as_of: '2026-01-05', amount: '1', currency: 'EUR' }
    expect(occurrenceAmong(balance, [balance, balance])).toBe(1)
    expect(occurrenceCounts([balance, purchase('A'), purchase('A', { transaction_date: '2026-01-06' })], '2026-01-05').size).toBe(1)
  })
})
