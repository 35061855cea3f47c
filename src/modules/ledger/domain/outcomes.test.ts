import { describe, expect, it } from 'vitest'
import { addCounts, flatCounts, outcomeTotals, type OutcomeCounts } from './outcomes.ts'

describe('flatCounts', () => {
  it.each<{ counts: OutcomeCounts; flat: Record<string, number> }>([
    { counts: {}, flat: {} },
    { counts: { transaction: { created: 3, updated: 0, unchanged: 1 } }, flat: { transaction_created: 3, transaction_unchanged: 1 } },
    { counts: { account: { created: 0, updated: 0, unchanged: 0 }, counterparty: { created: 0, updated: 2, unchanged: 0 } }, flat: { counterparty_updated: 2 } },
  ])('$counts', ({ counts, flat }) => {
    expect(flatCounts(counts)).toEqual(flat)
  })
})

describe('addCounts', () => {
  it("adds a batch's counts to a run's, kind by kind", () => {
    const total: OutcomeCounts = { account: { created: 1, updated: 0, unchanged: 0 } }
    addCounts(total, { account: { created: 0, updated: 1, unchanged: 2 }, balance: { created: 1, updated: 0, unchanged: 0 } })
    addCounts(total, {})
    expect(total).toEqual({ account: { created: 1, updated: 1, unchanged: 2 }, balance: { created: 1, updated: 0, unchanged: 0 } })
  })
})

describe('outcomeTotals', () => {
  it.each<{ counts: OutcomeCounts; totals: { created: number; unchanged: number; superseded: number } }>([
    { counts: {}, totals: { created: 0, unchanged: 0, superseded: 0 } },
    { counts: { transaction: { created: 3, updated: 0, unchanged: 1 } }, totals: { created: 3, unchanged: 1, superseded: 0 } },
    {
      counts: { account: { created: 1, updated: 2, unchanged: 0 }, counterparty: { created: 0, updated: 1, unchanged: 4 }, balance: { created: 2, updated: 0, unchanged: 0 } },
      totals: { created: 3, unchanged: 4, superseded: 3 },
    },
  ])('sums every kind, a new version counting as superseded: $totals', ({ counts, totals }) => {
    expect(outcomeTotals(counts)).toEqual(totals)
  })
})
