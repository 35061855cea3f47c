import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { opsFixtures } from './ledger-fixtures.testing.ts'
import { vendorRiskDefaultConfig as config, vendorRiskProgram } from './vendor-risk.ts'

const { counterparty, invoice, obligation, shuffledSnapshot, snapshot, txn } = opsFixtures

const run = (ledger: Parameters<typeof vendorRiskProgram.run>[0]) => vendorRiskProgram.run(ledger, config)
const reasons = (ledger: Parameters<typeof vendorRiskProgram.run>[0]) => run(ledger).map((proposal) => [proposal.key, proposal.details.reasons])

/** An old, trusted, verified vendor: nothing to say about it unless told. */
const vendor = (id: string, fields: Parameters<typeof counterparty>[1] = {}) =>
  counterparty(id, { name: `Vendor ${id}`, verified_status: 'document_verified', trust_state: 'trusted', created_at: '2024-01-01T00:00:00Z', ...fields })

describe('vendor_risk', () => {
  it('blocks payments to a sanctioned payee with open bills, whatever its trust', () => {
    const ledger = snapshot({
      today: '2026-03-10',
      counterparties: [vendor('cpy_bad', { name: 'Bad Co', risk_level: 'sanctioned' })],
      invoices: [invoice('inv_1', { counterparty_id: 'cpy_bad', amount_due: '700.50', total: '700.50' }), invoice('inv_2', { counterparty_id: 'cpy_bad', amount_due: '300', total: '300' })],
      obligations: [obligation('obl_1', { counterparty_id: 'cpy_bad', invoice_id: 'inv_2', amount: '300.00' }), obligation('obl_eur', { counterparty_id: 'cpy_bad', amount: '10.00', currency: 'EUR', evidence_ids: [] })],
      transactions: [txn('txn_1', '2026-02-15', '-99.99', { counterparty_id: 'cpy_bad' })],
    })
    expect(run(ledger)).toEqual([
      {
        proposal_type: 'vendor_risk',
        action_type: 'block_payment',
        key: 'vendor_risk:cpy_bad',
        confidence: 0.95,
        // counterparty, obl_1, obl_eur (no parsed row), inv_1, txn_1
        evidence_score: 0.8,
        narrative: 'Bad Co is sanctioned. At stake: 10.00 EUR, 1000.50 USD open; 99.99 USD paid since 2026-02-15. Block payments to it until a person reviews it.',
        evidence: [
          { kind: 'counterparty', ref: 'cpy_bad' },
          { kind: 'obligation', ref: 'obl_1' },
          { kind: 'obligation', ref: 'obl_eur' },
          { kind: 'invoice', ref: 'inv_1' },
          { kind: 'transaction', ref: 'txn_1' },
          { kind: 'parsed_row', ref: 'row_cpy_bad' },
          { kind: 'parsed_row', ref: 'row_inv_1' },
          { kind: 'parsed_row', ref: 'row_obl_1' },
          { kind: 'parsed_row', ref: 'row_txn_1' },
        ],
        details: {
          counterparty_id: 'cpy_bad',
          reason: 'sanctioned',
          reasons: ['sanctioned'],
          open_amounts: ['10.00 EUR', '1000.50 USD'],
          paid_amounts: ['99.99 USD'],
          open_invoice_ids: ['inv_1'],
          open_obligation_ids: ['obl_1', 'obl_eur'],
          last_paid_date: '2026-02-15',
          shared_with: [],
        },
      },
    ])
  })

  it('says nothing of a risky counterparty that is neither paid nor about to be', () => {
    const ledger = snapshot({
      today: '2026-03-10',
      counterparties: [vendor('cpy_bad', { risk_level: 'sanctioned' })],
      invoices: [invoice('inv_paid', { counterparty_id: 'cpy_bad', status: 'paid', amount_due: '0.00' }), invoice('inv_recv', { counterparty_id: 'cpy_bad', direction: 'receivable' })],
      obligations: [obligation('obl_settled', { counterparty_id: 'cpy_bad', status: 'settled' })],
      transactions: [txn('txn_old', '2025-10-01', '-50.00', { counterparty_id: 'cpy_bad' }), txn('txn_in', '2026-03-01', '50.00', { counterparty_id: 'cpy_bad' }), txn('txn_failed', '2026-03-01', '-50.00', { counterparty_id: 'cpy_bad', status: 'failed' })],
    })
    expect(run(ledger)).toEqual([])
  })

  it('flags high risk unless a person accepted it', () => {
    const make = (trust: 'unreviewed' | 'trusted' | 'acknowledged' | 'paused') =>
      reasons(snapshot({ today: '2026-03-10', counterparties: [vendor('cpy_1', { risk_level: 'high', trust_state: trust })], obligations: [obligation('obl_1', { counterparty_id: 'cpy_1' })] }))
    expect(make('paused')).toEqual([['vendor_risk:cpy_1', ['high_risk']]])
    expect(make('unreviewed')).toEqual([['vendor_risk:cpy_1', ['high_risk']]])
    expect(make('acknowledged')).toEqual([])
    expect(make('trusted')).toEqual([])
  })

  it('flags unverified unreviewed payees only when a payment is still to come', () => {
    const payee = counterparty('cpy_1', { created_at: '2024-01-01T00:00:00Z' })
    expect(reasons(snapshot({ today: '2026-03-10', counterparties: [payee], transactions: [txn('txn_1', '2026-03-01', '-20.00', { counterparty_id: 'cpy_1' })] }))).toEqual([])
    const open = run(snapshot({ today: '2026-03-10', counterparties: [payee], obligations: [obligation('obl_1', { counterparty_id: 'cpy_1', amount: '250.00', outstanding: '125.5' })] }))
    expect(open.map((proposal) => [proposal.details.reason, proposal.confidence, proposal.details.open_amounts])).toEqual([['unverified_unreviewed', 0.5, ['125.50 USD']]])
    expect(reasons(snapshot({ today: '2026-03-10', counterparties: [{ ...payee, verified_status: 'self_attested' }], obligations: [obligation('obl_1', { counterparty_id: 'cpy_1' })] }))).toEqual([])
  })

  it('flags payment details shared with another counterparty, citing both', () => {
    const ledger = snapshot({
      today: '2026-03-10',
      counterparties: [
        vendor('cpy_real', { name: 'Real Supplies', linked_accounts: ['iban:DE001'] }),
        vendor('cpy_fake', { name: 'Real Supplies GmbH', trust_state: 'unreviewed', verified_status: 'self_attested', linked_accounts: ['iban:DE001', 'iban:XX9'] }),
      ],
      invoices: [invoice('inv_1', { counterparty_id: 'cpy_fake', amount_due: '9800.00', total: '9800.00' }), invoice('inv_2', { counterparty_id: 'cpy_real', amount_due: '50.00', total: '50.00' })],
    })
    const proposals = run(ledger)
    expect(proposals.map((proposal) => [proposal.key, proposal.details.reasons, proposal.details.shared_with, proposal.confidence])).toEqual([
      ['vendor_risk:cpy_fake', ['shared_payment_details'], ['cpy_real'], 0.75],
    ])
    expect(proposals[0]!.evidence.filter((ref) => ref.kind === 'counterparty')).toEqual([
      { kind: 'counterparty', ref: 'cpy_fake' },
      { kind: 'counterparty', ref: 'cpy_real' },
    ])
    expect(proposals[0]!.narrative).toBe('Real Supplies GmbH shares payment details with Real Supplies. At stake: 9800.00 USD open. Block payments to it until a person reviews it.')
  })

  it('flags the payment details of a payee recorded within the last thirty days, and adds up several reasons', () => {
    const fresh = (created: string, fields: Parameters<typeof counterparty>[1] = {}) =>
      run(
        snapshot({
          today: '2026-03-10',
          counterparties: [counterparty('cpy_new', { created_at: created, linked_accounts: ['iban:NL02'], ...fields })],
          transactions: [txn('txn_1', '2026-03-05', '-1200.00', { counterparty_id: 'cpy_new' })],
        }),
      ).map((proposal) => [proposal.details.reasons, proposal.confidence])
    expect(fresh('2026-02-08T12:00:00Z')).toEqual([[['new_payment_details'], 0.6]])
    expect(fresh('2026-02-07T12:00:00Z')).toEqual([])
    expect(fresh('2026-02-08T12:00:00Z', { linked_accounts: [] })).toEqual([])
    expect(fresh('2026-02-08T12:00:00Z', { verified_status: 'document_verified' })).toEqual([])
    expect(fresh('2026-02-08T12:00:00Z', { risk_level: 'high' })).toEqual([[['high_risk', 'new_payment_details'], 0.85]])
  })

  it('sums open and paid amounts exactly, per currency at its scale', () => {
    const ledger = snapshot({
      today: '2026-03-10',
      counterparties: [vendor('cpy_1', { risk_level: 'sanctioned' })],
      obligations: [
        obligation('o1', { counterparty_id: 'cpy_1', amount: '0.1', currency: 'USD' }),
        obligation('o2', { counterparty_id: 'cpy_1', amount: '0.2', currency: 'USD' }),
        obligation('o3', { counterparty_id: 'cpy_1', amount: '1500', currency: 'JPY' }),
        obligation('o4', { counterparty_id: 'cpy_1', amount: '0.000001', currency: 'USDC' }),
      ],
      transactions: [txn('t1', '2026-03-01', '-1000000000000000.01', { counterparty_id: 'cpy_1' }), txn('t2', '2026-03-02', '-0.02', { counterparty_id: 'cpy_1' })],
    })
    expect(run(ledger)[0]!.details).toMatchObject({ open_amounts: ['1500 JPY', '0.30 USD', '0.000001 USDC'], paid_amounts: ['1000000000000000.03 USD'], last_paid_date: '2026-03-02' })
  })

  it('is deterministic: the order of the Ledger lists changes nothing', () => {
    const ledger = snapshot({
      today: '2026-03-10',
      counterparties: [
        vendor('cpy_a', { risk_level: 'sanctioned', linked_accounts: ['iban:1'] }),
        counterparty('cpy_b', { linked_accounts: ['iban:1', 'iban:2'], created_at: '2026-03-01T00:00:00Z' }),
        counterparty('cpy_c', { linked_accounts: ['iban:2'] }),
        vendor('cpy_d'),
      ],
      invoices: [invoice('inv_1', { counterparty_id: 'cpy_b' }), invoice('inv_2', { counterparty_id: 'cpy_c' }), invoice('inv_3', { counterparty_id: 'cpy_d' })],
      obligations: [obligation('obl_1', { counterparty_id: 'cpy_a' }), obligation('obl_2', { counterparty_id: 'cpy_b', invoice_id: 'inv_1' })],
      transactions: [txn('t1', '2026-03-01', '-5.00', { counterparty_id: 'cpy_a' }), txn('t2', '2026-03-01', '-7.00', { counterparty_id: 'cpy_a' }), txn('t3', '2026-03-02', '-5.00', { counterparty_id: 'cpy_c' })],
    })
    const expected = run(ledger)
    expect(expected.map((proposal) => [proposal.key, proposal.details.reasons])).toEqual([
      ['vendor_risk:cpy_a', ['sanctioned']],
      ['vendor_risk:cpy_b', ['shared_payment_details', 'new_payment_details', 'unverified_unreviewed']],
      ['vendor_risk:cpy_c', ['shared_payment_details', 'unverified_unreviewed']],
    ])
    fc.assert(
      fc.property(shuffledSnapshot(ledger), (shuffled) => {
        expect(run(shuffled)).toEqual(expected)
      }),
    )
  })

  it('declares its catalog entry', () => {
    expect(vendorRiskProgram).toMatchObject({ agentKey: 'vendor_risk', version: '1', category: 'business', capabilities: ['block_payment'] })
  })
})
