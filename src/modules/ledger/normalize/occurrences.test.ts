import { describe, expect, it } from 'vitest'
import type { ExtractedRecord } from '../../raw/domain/extracted.ts'
import { activeDaysMax, occurrenceAmongEarlier, OccurrenceCounter } from './occurrences.ts'

const row = (day: string, description: string, amount = '-4.20'): ExtractedRecord => ({
  kind: 'transaction',
  account: { iban: 'DE89370400440532013000' },
  amount,
  currency: 'EUR',
  transaction_date: day,
  status: 'posted',
  description,
})

/** Feeds records in order; the counter's fallback reads the same list, as the database would. */
async function occurrencesOf(records: readonly ExtractedRecord[]) {
  let reads = 0
  const counter = new OccurrenceCounter(async (day, before) => {
    reads += 1
    return records.slice(0, before).filter((record) => record.kind === 'transaction' && record.transaction_date === day)
  })
  const result: number[] = []
  for (const [index, record] of records.entries()) result.push(await counter.next(record, index))
  return { result, reads }
}

const dayOf = (offset: number) => new Date(Date.UTC(2026, 0, 1) + offset * 86_400_000).toISOString().slice(0, 10)

describe('OccurrenceCounter', () => {
  it('numbers identical rows 1, 2, … and leaves different ones at 1', async () => {
    const { result, reads } = await occurrencesOf([
      row(dayOf(0), 'COFFEE'),
      row(dayOf(0), 'COFFEE'),
      row(dayOf(0), 'Coffee!'), // the same normalized description
      row(dayOf(0), 'TEA'),
      row(dayOf(0), 'COFFEE', '-5.00'),
      row(dayOf(1), 'COFFEE'),
      { kind: 'balance', account: { iban: 'x' }, balance_type: 'closing', as_of: dayOf(1), amount: '1', currency: 'EUR' },
    ])
    expect(result).toEqual([1, 2, 3, 1, 1, 1, 1])
    expect(reads).toBe(0)
  })

  it('keeps counting exactly when an unsorted file comes back to a day it let go, by reading that day again', async () => {
    const records = [row(dayOf(0), 'COFFEE'), ...Array.from({ length: activeDaysMax + 5 }, (_, index) => row(dayOf(index + 1), 'RENT')), row(dayOf(0), 'COFFEE'), row(dayOf(0), 'COFFEE')]
    const { result, reads } = await occurrencesOf(records)
    expect(result.slice(-2)).toEqual([2, 3])
    expect(reads).toBe(1)
  })

  it('keeps a day that rows keep coming back to, however many other days pass', async () => {
    const records = [row(dayOf(0), 'COFFEE'), ...Array.from({ length: activeDaysMax + 5 }, (_, index) => [row(dayOf(index + 1), 'RENT'), row(dayOf(0), 'COFFEE')]).flat()]
    const { result, reads } = await occurrencesOf(records)
    expect(result.filter((_, index) => index % 2 === 0)).toEqual(Array.from({ length: activeDaysMax + 6 }, (_, index) => index + 1))
    expect(reads).toBe(0)
  })

  it('gives a single row the same occurrence as the whole run does', async () => {
    const records = [row(dayOf(0), 'COFFEE'), row(dayOf(1), 'COFFEE'), row(dayOf(0), 'COFFEE')]
    const earlier = async (day: string, before: number) => records.slice(0, before).filter((record) => record.kind === 'transaction' && record.transaction_date === day)
    expect(await occurrenceAmongEarlier(records[2]!, 2, earlier)).toBe(2)
    expect(await occurrenceAmongEarlier(records[1]!, 1, earlier)).toBe(1)
  })
})
