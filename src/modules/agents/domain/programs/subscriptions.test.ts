import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { opsFixtures } from './ledger-fixtures.testing.ts'
import { subscriptionsDefaultConfig as config, subscriptionsProgram } from './subscriptions.ts'

const { counterparty, monthlyDates, obligation, shuffledSnapshot, snapshot, txn } = opsFixtures

const run = (ledger: Parameters<typeof subscriptionsProgram.run>[0]) => subscriptionsProgram.run(ledger, config)

/** Monthly charges to a counterparty: one per amount, ending on `last`. */
function series(prefix: string, last: string, amounts: readonly string[], fields: Parameters<typeof txn>[3] = {}) {
  return monthlyDates(last, amounts.length).map((date, index) => txn(`${prefix}_${index + 1}`, date, `-${amounts[index]}`, fields))
}

describe('subscriptions', () => {
  it('finds a monthly charge that is not a known subscription', () => {
    const ledger = snapshot({
      today: '2026-04-10',
      counterparties: [counterparty('cpy_stream', { name: 'StreamCo' })],
      transactions: series('txn', '2026-04-03', ['15.99', '15.99', '15.99'], { counterparty_id: 'cpy_stream', description: 'STREAMCO.COM' }),
    })
    expect(run(ledger)).toEqual([
      {
        proposal_type: 'subscription',
        action_type: 'subscription_found',
        key: 'subscriptions:cpy_stream:found',
        // 0.55 + 0.1·0 + 0.1 (same amounts) + 0.05 (counterparty id)
        confidence: 0.7,
        evidence_score: 1,
        narrative: 'StreamCo charges 15.99 USD monthly (3 charges from 2026-02-03 to 2026-04-03; next expected 2026-05-03). It is not recorded as a subscription.',
        evidence: [
          { kind: 'transaction', ref: 'txn_1' },
          { kind: 'transaction', ref: 'txn_2' },
          { kind: 'transaction', ref: 'txn_3' },
          { kind: 'counterparty', ref: 'cpy_stream' },
          { kind: 'parsed_row', ref: 'row_cpy_stream' },
          { kind: 'parsed_row', ref: 'row_txn_1' },
          { kind: 'parsed_row', ref: 'row_txn_2' },
          { kind: 'parsed_row', ref: 'row_txn_3' },
        ],
        details: {
          counterparty_id: 'cpy_stream',
          description: 'STREAMCO COM',
          cadence: 'monthly',
          last_amount: '15.99',
          previous_amount: '15.99',
          currency: 'USD',
          occurrences: 3,
          first_date: '2026-02-03',
          last_date: '2026-04-03',
          next_expected_date: '2026-05-03',
          transaction_ids: ['txn_1', 'txn_2', 'txn_3'],
        },
      },
    ])
  })

  it('needs three monthly charges, within three days of a month apart', () => {
    const two = snapshot({ today: '2026-04-10', transactions: series('txn', '2026-04-03', ['9.00', '9.00'], { counterparty_id: 'cpy_1' }) })
    expect(run(two)).toEqual([])
    const drifting = snapshot({
      today: '2026-04-10',
      transactions: [txn('t1', '2026-01-28', '-9.00', { counterparty_id: 'cpy_1' }), txn('t2', '2026-03-03', '-9.00', { counterparty_id: 'cpy_1' }), txn('t3', '2026-04-03', '-9.00', { counterparty_id: 'cpy_1' })],
    })
    // 2026-02-03 expected before 2026-03-03; 2026-01-28 is six days off.
    expect(run(drifting)).toEqual([])
    const within = snapshot({
      today: '2026-04-10',
      transactions: [txn('t1', '2026-01-31', '-9.00', { counterparty_id: 'cpy_1' }), txn('t2', '2026-03-02', '-9.00', { counterparty_id: 'cpy_1' }), txn('t3', '2026-04-03', '-9.00', { counterparty_id: 'cpy_1' })],
    })
    expect(run(within).map((proposal) => [proposal.key, proposal.details.occurrences])).toEqual([['subscriptions:cpy_1:found', 3]])
  })

  it('does not report a known subscription as found, nor a lapsed series', () => {
    const charges = series('txn', '2026-04-03', ['20.00', '20.00', '20.00'], { counterparty_id: 'cpy_1' })
    const known = snapshot({
      today: '2026-04-10',
      obligations: [obligation('obl_sub', { type: 'subscription', recurrence: 'monthly', amount: '20.00', counterparty_id: 'cpy_1' })],
      transactions: charges,
    })
    expect(run(known)).toEqual([])
    // Next expected 2026-05-03; lapsed after 2026-05-03 + 3 + 7 days.
    expect(run(snapshot({ today: '2026-05-13', transactions: charges })).length).toBe(1)
    expect(run(snapshot({ today: '2026-05-14', transactions: charges }))).toEqual([])
  })

  it('reports a price change with the amount and percentage, also for a known subscription', () => {
    const ledger = snapshot({
      today: '2026-04-10',
      counterparties: [counterparty('cpy_saas', { name: 'SaaSly' })],
      obligations: [obligation('obl_sub', { type: 'subscription', recurrence: 'monthly', amount: '49.00', counterparty_id: 'cpy_saas' })],
      transactions: series('txn', '2026-04-03', ['49.00', '49.00', '49.00', '59.00'], { counterparty_id: 'cpy_saas' }),
    })
    const proposals = run(ledger)
    expect(proposals.map((proposal) => proposal.key)).toEqual(['subscriptions:cpy_saas:price_change'])
    expect(proposals[0]).toMatchObject({
      action_type: 'subscription_price_change',
      // 0.7 + 0.05·(3 − 2) + 0.05
      confidence: 0.8,
      narrative: "SaaSly's monthly charge changed from 49.00 to 59.00 USD on 2026-04-03 (+20.41%) after 3 charges of 49.00.",
      details: { last_amount: '59.00', previous_amount: '49.00', amount_change: '10.00', percent_change: '20.41', occurrences: 4, obligation_id: 'obl_sub' },
    })
    expect(proposals[0]!.evidence.filter((ref) => ref.kind === 'obligation')).toEqual([{ kind: 'obligation', ref: 'obl_sub' }])
  })

  it('reports a price decrease, and no price change for a usage-billed amount that varies', () => {
    const down = run(snapshot({ today: '2026-04-10', transactions: series('txn', '2026-04-03', ['10.00', '10.00', '7.50'], { counterparty_id: 'cpy_1' }) }))
    expect(down.map((proposal) => [proposal.key, proposal.details.amount_change, proposal.details.percent_change])).toEqual([
      ['subscriptions:cpy_1:found', undefined, undefined],
      ['subscriptions:cpy_1:price_change', '-2.50', '-25.00'],
    ])
    const varying = run(snapshot({ today: '2026-04-10', transactions: series('txn', '2026-04-03', ['81.20', '64.35', '90.10'], { counterparty_id: 'cpy_1' }) }))
    expect(varying.map((proposal) => proposal.key)).toEqual(['subscriptions:cpy_1:found'])
    expect(varying[0]!.confidence).toBe(0.6)
  })

  it('groups by description when there is no counterparty, and finds weekly and yearly cadences', () => {
    const weekly = ['2026-03-13', '2026-03-20', '2026-03-27', '2026-04-03'].map((date, index) => txn(`w${index}`, date, '-5.00', { description: 'GYM CLASS PASS' }))
    const yearly = [txn('y1', '2025-04-01', '-120.00', { counterparty_id: 'cpy_dom' }), txn('y2', '2026-03-29', '-120.00', { counterparty_id: 'cpy_dom' })]
    const proposals = run(snapshot({ today: '2026-04-05', transactions: [...weekly, ...yearly] }))
    expect(proposals.map((proposal) => [proposal.key, proposal.details.cadence, proposal.details.counterparty_id, proposal.details.next_expected_date])).toEqual([
      ['subscriptions:GYM CLASS PASS:found', 'weekly', null, '2026-04-10'],
      ['subscriptions:cpy_dom:found', 'yearly', 'cpy_dom', '2027-03-29'],
    ])
    const knownByReference = run(
      snapshot({
        today: '2026-04-05',
        obligations: [obligation('obl_gym', { type: 'other', recurrence: 'weekly', reference: 'Class Pass', amount: '5.00' })],
        transactions: weekly,
      }),
    )
    expect(knownByReference).toEqual([])
  })

  it('ignores inflows, transfers, failed charges, and other currencies than the latest charge', () => {
    const ledger = snapshot({
      today: '2026-04-10',
      transactions: [
        ...series('in', '2026-04-03', ['9.00', '9.00', '9.00'], { counterparty_id: 'cpy_in', direction: 'inflow' }).map((charge) => ({ ...charge, amount: '9.00' })),
        ...series('tr', '2026-04-03', ['9.00', '9.00', '9.00'], { counterparty_id: 'cpy_tr', direction: 'transfer' }),
        ...series('fa', '2026-04-03', ['9.00', '9.00', '9.00'], { counterparty_id: 'cpy_fa', status: 'failed' }),
        txn('mx1', '2026-02-03', '-9.00', { counterparty_id: 'cpy_mx' }),
        txn('mx2', '2026-03-03', '-9.00', { counterparty_id: 'cpy_mx', currency: 'EUR' }),
        txn('mx3', '2026-04-03', '-9.00', { counterparty_id: 'cpy_mx', currency: 'EUR' }),
      ],
    })
    expect(run(ledger)).toEqual([])
  })

  it('is exact for money: JPY without fraction digits, USDC at six', () => {
    const jpy = run(snapshot({ today: '2026-04-10', transactions: series('j', '2026-04-03', ['1000', '1000', '1100'], { counterparty_id: 'cpy_j', currency: 'JPY' }) }))
    expect(jpy.find((proposal) => proposal.action_type === 'subscription_price_change')!.details).toMatchObject({
      last_amount: '1100',
      previous_amount: '1000',
      amount_change: '100',
      percent_change: '10.00',
    })
    const usdc = run(
      snapshot({ today: '2026-04-10', transactions: series('u', '2026-04-03', ['0.1', '0.1', '0.300001'], { counterparty_id: 'cpy_u', currency: 'USDC' }) }),
    )
    expect(usdc.find((proposal) => proposal.action_type === 'subscription_price_change')!.details).toMatchObject({
      last_amount: '0.300001',
      previous_amount: '0.100000',
      amount_change: '0.200001',
      percent_change: '200.00',
    })
  })

  it('is deterministic: the order of the Ledger lists changes nothing', () => {
    const ledger = snapshot({
      today: '2026-04-10',
      counterparties: [counterparty('cpy_1'), counterparty('cpy_2')],
      transactions: [
        ...series('a', '2026-04-03', ['10.00', '10.00', '12.00'], { counterparty_id: 'cpy_1' }),
        // Two charges equally close to the expected date: the one of the same amount is taken.
        ...series('b', '2026-04-05', ['30.00', '30.00', '30.00'], { counterparty_id: 'cpy_2' }),
        txn('b_x', '2026-03-05', '-31.00', { counterparty_id: 'cpy_2' }),
        ...['2026-03-13', '2026-03-20', '2026-03-27', '2026-04-03'].map((date, index) => txn(`w${index}`, date, '-5.00', { description: 'GYM' })),
      ],
    })
    const expected = run(ledger)
    expect(expected.map((proposal) => proposal.key)).toEqual(['subscriptions:GYM:found', 'subscriptions:cpy_1:found', 'subscriptions:cpy_1:price_change', 'subscriptions:cpy_2:found'])
    expect(expected[3]!.details.transaction_ids).toEqual(['b_1', 'b_2', 'b_3'])
    fc.assert(
      fc.property(shuffledSnapshot(ledger), (shuffled) => {
        expect(run(shuffled)).toEqual(expected)
      }),
    )
  })

  it('declares its catalog entry', () => {
    expect(subscriptionsProgram).toMatchObject({ agentKey: 'subscriptions', version: '1', category: 'agnostic' })
  })
})
