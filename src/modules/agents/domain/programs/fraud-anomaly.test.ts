import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { opsFixtures } from './ledger-fixtures.testing.ts'
import { fraudAnomalyDefaultConfig as config, fraudAnomalyProgram } from './fraud-anomaly.ts'

const { counterparty, obligation, shuffledSnapshot, snapshot, txn } = opsFixtures

const run = (ledger: Parameters<typeof fraudAnomalyProgram.run>[0], overrides: Partial<typeof config> = {}) => fraudAnomalyProgram.run(ledger, { ...config, ...overrides })
const summary = (ledger: Parameters<typeof fraudAnomalyProgram.run>[0], overrides: Partial<typeof config> = {}) => run(ledger, overrides).map((proposal) => proposal.key)

/** A long-known, trusted vendor: only duplicates and outliers concern it. */
const known = (id: string) => counterparty(id, { name: `Vendor ${id}`, trust_state: 'trusted', created_at: '2024-01-01T00:00:00Z' })

describe('fraud_anomaly', () => {
  it('flags the second of two equal payments to one counterparty within three days', () => {
    const ledger = snapshot({
      today: '2026-03-10',
      counterparties: [known('cpy_1')],
      transactions: [txn('txn_1', '2026-03-02', '-450.00', { counterparty_id: 'cpy_1' }), txn('txn_2', '2026-03-04', '-450.00', { counterparty_id: 'cpy_1' })],
    })
    expect(run(ledger)).toEqual([
      {
        proposal_type: 'fraud_anomaly',
        action_type: 'flag_transaction',
        key: 'fraud_anomaly:txn_2:duplicate',
        // 0.85 − 0.1·2/3, different descriptions
        confidence: 0.7833,
        evidence_score: 1,
        narrative: '450.00 USD to Vendor cpy_1 on 2026-03-04 repeats the same payment of 2026-03-02 (txn_1), 2 days apart: possibly paid twice.',
        evidence: [
          { kind: 'transaction', ref: 'txn_2' },
          { kind: 'transaction', ref: 'txn_1' },
          { kind: 'counterparty', ref: 'cpy_1' },
          { kind: 'parsed_row', ref: 'row_cpy_1' },
          { kind: 'parsed_row', ref: 'row_txn_1' },
          { kind: 'parsed_row', ref: 'row_txn_2' },
        ],
        details: {
          transaction_id: 'txn_2',
          reason: 'duplicate',
          amount: '450.00',
          currency: 'USD',
          transaction_date: '2026-03-04',
          counterparty_id: 'cpy_1',
          duplicate_of: 'txn_1',
          days_apart: 2,
        },
      },
    ])
  })

  it('does not call it a duplicate: four days apart, another amount by a cent, both matched, a known recurrence, another counterparty', () => {
    const base = { today: '2026-03-10', counterparties: [known('cpy_1'), known('cpy_2')] }
    const pair = (second: Parameters<typeof txn>[3] & { date?: string; amount?: string }, first: Parameters<typeof txn>[3] = {}) =>
      snapshot({
        ...base,
        transactions: [txn('txn_1', '2026-03-02', '-450.00', { counterparty_id: 'cpy_1', ...first }), txn('txn_2', second.date ?? '2026-03-03', second.amount ?? '-450.00', { counterparty_id: 'cpy_1', ...second })],
      })
    expect(summary(pair({ date: '2026-03-06' }))).toEqual([])
    expect(summary(pair({ date: '2026-03-05' }))).toEqual(['fraud_anomaly:txn_2:duplicate'])
    expect(summary(pair({ amount: '-450.01' }))).toEqual([])
    expect(summary(pair({ reconciliation_status: 'matched' }, { reconciliation_status: 'matched' }))).toEqual([])
    expect(summary(pair({ reconciliation_status: 'matched' }))).toEqual(['fraud_anomaly:txn_2:duplicate'])
    expect(summary(pair({ counterparty_id: 'cpy_2' }))).toEqual([])
    expect(summary(pair({ currency: 'EUR' }))).toEqual([])
    const recurring = snapshot({
      ...base,
      obligations: [obligation('obl_1', { type: 'payroll', recurrence: 'weekly', amount: '450.00', counterparty_id: 'cpy_1' })],
      transactions: [txn('txn_1', '2026-03-02', '-450.00', { counterparty_id: 'cpy_1' }), txn('txn_2', '2026-03-03', '-450.00', { counterparty_id: 'cpy_1' })],
    })
    expect(summary(recurring)).toEqual([])
  })

  it('matches duplicates without a counterparty by account and description', () => {
    const ledger = snapshot({
      today: '2026-03-10',
      transactions: [
        txn('txn_1', '2026-03-02', '-80.00', { description: 'POS 4411 CORNER SHOP' }),
        txn('txn_2', '2026-03-02', '-80.00', { description: 'POS 4411 CORNER SHOP' }),
        txn('txn_3', '2026-03-02', '-80.00', { description: 'POS 4411 CORNER SHOP', account_id: 'acc_2' }),
      ],
    })
    expect(run(ledger).map((proposal) => [proposal.key, proposal.confidence, proposal.details.duplicate_of])).toEqual([['fraud_anomaly:txn_2:duplicate', 0.9, 'txn_1']])
  })

  it('flags an outlier against the counterparty median, not the mean', () => {
    const history = ['100.00', '110.00', '90.00', '5000.00'].map((amount, index) => txn(`h${index}`, `2026-02-0${index + 1}`, `-${amount}`, { counterparty_id: 'cpy_1' }))
    const ledger = snapshot({
      today: '2026-03-10',
      counterparties: [known('cpy_1')],
      transactions: [...history, txn('txn_big', '2026-03-05', '-330.01', { counterparty_id: 'cpy_1' }), txn('txn_ok', '2026-03-06', '-315.00', { counterparty_id: 'cpy_1' })],
    })
    // Median of 90, 100, 110, 5000 is 105; × 3 = 315. 330.01 is above, 315.00 is not (the mean, 1325, would hide both).
    const proposals = run(ledger)
    expect(proposals.map((proposal) => proposal.key)).toEqual(['fraud_anomaly:h3:outlier', 'fraud_anomaly:txn_big:outlier'])
    expect(proposals[1]!.details).toEqual({
      transaction_id: 'txn_big',
      reason: 'outlier',
      amount: '330.01',
      currency: 'USD',
      transaction_date: '2026-03-05',
      counterparty_id: 'cpy_1',
      baseline: 'counterparty',
      history_count: 4,
      median: '105.00',
      mad: '10.00',
      factor: '3',
      threshold: '315.00',
    })
    // 0.55 + 0.2·log2(330.01 / 315)
    expect(proposals[1]!.confidence).toBe(0.5634)
  })

  it('needs three earlier payments to the counterparty, else ten of the account, else says nothing', () => {
    const base = [txn('h1', '2026-02-01', '-100.00', { counterparty_id: 'cpy_1' }), txn('h2', '2026-02-02', '-101.00', { counterparty_id: 'cpy_1' })]
    const big = txn('txn_big', '2026-03-05', '-5000.00', { counterparty_id: 'cpy_1' })
    expect(summary(snapshot({ today: '2026-03-10', counterparties: [known('cpy_1')], transactions: [...base, big] }))).toEqual([])
    const account = Array.from({ length: 10 }, (_, index) => txn(`a${index}`, `2026-01-${String(index + 10)}`, `-${40 + index}.00`, { counterparty_id: `cpy_a${index}` }))
    const proposals = run(snapshot({ today: '2026-03-10', counterparties: [known('cpy_1')], transactions: [...base, ...account, big] }))
    expect(proposals.map((proposal) => proposal.key)).toEqual(['fraud_anomaly:txn_big:outlier'])
    // 12 account outflows before: 40…49, 100 and 101: median 45.5, MAD 3 → bounds 455 (×10) and 75.5 (+10·MAD).
    expect(proposals[0]!.details).toMatchObject({ baseline: 'account', history_count: 12, median: '45.50', mad: '3.00', factor: '10', threshold: '455.00' })
    // 0.55 + 0.2·log2(5000 / 455) − 0.1 = 1.14, clamped
    expect(proposals[0]!.confidence).toBe(0.95)
  })

  it('flags a large first payment to a counterparty recorded within fourteen days', () => {
    const fresh = counterparty('cpy_new', { name: 'Fresh LLC', created_at: '2026-03-01T09:30:00Z' })
    const ledger = snapshot({
      today: '2026-03-10',
      counterparties: [fresh],
      transactions: [txn('txn_1', '2026-03-08', '-2500.00', { counterparty_id: 'cpy_new' }), txn('txn_2', '2026-03-09', '-2500.00', { counterparty_id: 'cpy_new' })],
    })
    const proposals = run(ledger)
    expect(proposals.map((proposal) => proposal.key)).toEqual(['fraud_anomaly:txn_1:new_counterparty', 'fraud_anomaly:txn_2:duplicate'])
    expect(proposals[0]).toMatchObject({
      confidence: 0.7,
      narrative: 'The first payment to Fresh LLC, 2500.00 USD on 2026-03-08, goes to a counterparty first recorded 2026-03-01 (unverified, trust unreviewed).',
      details: { reason: 'new_counterparty', counterparty_recorded: '2026-03-01', days_since_recorded: 7, minimum: '1000.00' },
    })
  })

  it('does not flag a new counterparty below the minimum, recorded long before, trusted, or paid before the lookback', () => {
    const make = (fields: Parameters<typeof counterparty>[1], amount = '-2500.00', date = '2026-03-08') =>
      summary(snapshot({ today: '2026-03-10', counterparties: [counterparty('cpy_new', { created_at: '2026-03-01T00:00:00Z', ...fields })], transactions: [txn('txn_1', date, amount, { counterparty_id: 'cpy_new' })] }))
    expect(make({})).toEqual(['fraud_anomaly:txn_1:new_counterparty'])
    expect(make({}, '-1000.00')).toEqual(['fraud_anomaly:txn_1:new_counterparty'])
    expect(make({}, '-999.99')).toEqual([])
    expect(make({ created_at: '2026-02-01T00:00:00Z' })).toEqual([])
    expect(make({ trust_state: 'acknowledged' })).toEqual([])
    expect(make({ created_at: '2025-09-01T00:00:00Z' }, '-2500.00', '2025-09-02')).toEqual([])
    // JPY has its own minimum.
    expect(summary(snapshot({ today: '2026-03-10', counterparties: [counterparty('cpy_new', { created_at: '2026-03-01T00:00:00Z' })], transactions: [txn('txn_1', '2026-03-08', '-2500', { counterparty_id: 'cpy_new', currency: 'JPY' })] }))).toEqual([])
  })

  it('is exact for money: a difference in the last of eighteen places counts', () => {
    const history = ['2026-01-01', '2026-01-15', '2026-02-01'].map((date, index) => txn(`h${index}`, date, '-1', { counterparty_id: 'cpy_1', currency: 'ETH' }))
    const at = (amount: string) => summary(snapshot({ today: '2026-03-10', counterparties: [known('cpy_1')], transactions: [...history, txn('txn_x', '2026-03-05', amount, { counterparty_id: 'cpy_1', currency: 'ETH' })] }))
    expect(at('-3.000000000000000000')).toEqual([])
    expect(at('-3.000000000000000001')).toEqual(['fraud_anomaly:txn_x:outlier'])
    expect(summary(snapshot({ today: '2026-03-10', counterparties: [known('cpy_1')], transactions: [txn('d1', '2026-03-01', '-0.100000000000000001', { counterparty_id: 'cpy_1', currency: 'ETH' }), txn('d2', '2026-03-01', '-0.1', { counterparty_id: 'cpy_1', currency: 'ETH' })] }))).toEqual([])
  })

  it('ignores inflows, failed and reversed outflows, and examines only the lookback', () => {
    const ledger = snapshot({
      today: '2026-03-10',
      counterparties: [known('cpy_1')],
      transactions: [
        txn('txn_1', '2026-03-02', '450.00', { counterparty_id: 'cpy_1' }),
        txn('txn_2', '2026-03-03', '450.00', { counterparty_id: 'cpy_1' }),
        txn('txn_3', '2026-03-02', '-450.00', { counterparty_id: 'cpy_1', status: 'failed' }),
        txn('txn_4', '2026-03-03', '-450.00', { counterparty_id: 'cpy_1' }),
        txn('txn_5', '2025-10-02', '-70.00', { counterparty_id: 'cpy_1' }),
        txn('txn_6', '2025-10-03', '-70.00', { counterparty_id: 'cpy_1' }),
      ],
    })
    expect(summary(ledger)).toEqual([])
  })

  it('is deterministic: the order of the Ledger lists changes nothing', () => {
    const ledger = snapshot({
      today: '2026-03-10',
      counterparties: [known('cpy_1'), counterparty('cpy_new', { created_at: '2026-03-05T00:00:00Z' })],
      transactions: [
        ...['100.00', '100.00', '100.00'].map((amount, index) => txn(`h${index}`, '2026-02-01', `-${amount}`, { counterparty_id: 'cpy_1' })),
        txn('txn_big', '2026-03-05', '-900.00', { counterparty_id: 'cpy_1' }),
        txn('txn_big2', '2026-03-05', '-900.00', { counterparty_id: 'cpy_1' }),
        txn('txn_new', '2026-03-06', '-1500.00', { counterparty_id: 'cpy_new' }),
      ],
    })
    const expected = run(ledger)
    expect(expected.map((proposal) => proposal.key)).toEqual([
      'fraud_anomaly:h1:duplicate',
      'fraud_anomaly:h2:duplicate',
      'fraud_anomaly:txn_big2:duplicate',
      'fraud_anomaly:txn_big2:outlier',
      'fraud_anomaly:txn_big:outlier',
      'fraud_anomaly:txn_new:new_counterparty',
    ])
    fc.assert(
      fc.property(shuffledSnapshot(ledger), (shuffled) => {
        expect(run(shuffled)).toEqual(expected)
      }),
    )
  })

  it('declares its catalog entry', () => {
    expect(fraudAnomalyProgram).toMatchObject({ agentKey: 'fraud_anomaly', version: '1', category: 'business', capabilities: ['flag_transaction'] })
  })
})
