import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { opsFixtures } from './ledger-fixtures.testing.ts'
import { reconciliationDefaultConfig as config, reconciliationProgram } from './reconciliation.ts'

const { counterparty, invoice, obligation, shuffledSnapshot, snapshot, txn } = opsFixtures

const run = (ledger: Parameters<typeof reconciliationProgram.run>[0]) => reconciliationProgram.run(ledger, config)

describe('reconciliation', () => {
  it('proposes the one candidate that is clearly best: amount, date, counterparty and invoice number', () => {
    const ledger = snapshot({
      today: '2026-03-10',
      counterparties: [counterparty('cpy_acme')],
      invoices: [invoice('inv_1', { invoice_number: 'A-1001', total: '1200.00', amount_due: '1200.00', due_date: '2026-03-01', counterparty_id: 'cpy_acme' })],
      obligations: [obligation('obl_1', { reference: 'A-1001', amount: '1200.00', due_date: '2026-03-01', invoice_id: 'inv_1', counterparty_id: 'cpy_acme' })],
      transactions: [txn('txn_1', '2026-03-02', '-1200.00', { description: 'ACME wire A 1001', counterparty_id: 'cpy_acme' })],
    })
    expect(run(ledger)).toEqual([
      {
        proposal_type: 'reconciliation',
        action_type: 'propose_match',
        key: 'reconciliation:txn_1',
        // 0.4·(1 − 1/60) + 0.3 + 0.3
        confidence: 0.99,
        evidence_score: 1,
        narrative:
          'The unmatched outflow of 1200.00 USD on 2026-03-02 is most likely payable invoice A-1001 (due 2026-03-01): same amount, date, counterparty, reference (score 0.9933).',
        evidence: [
          { kind: 'transaction', ref: 'txn_1' },
          { kind: 'obligation', ref: 'obl_1' },
          { kind: 'invoice', ref: 'inv_1' },
          { kind: 'parsed_row', ref: 'row_inv_1' },
          { kind: 'parsed_row', ref: 'row_obl_1' },
          { kind: 'parsed_row', ref: 'row_txn_1' },
        ],
        details: {
          transaction_id: 'txn_1',
          amount: '1200.00',
          currency: 'USD',
          transaction_date: '2026-03-02',
          candidate_kind: 'obligation',
          candidate_id: 'obl_1',
          obligation_id: 'obl_1',
          invoice_id: 'inv_1',
          due_date: '2026-03-01',
          score: 0.9933,
          runner_up_score: 0,
          signals: ['date', 'counterparty', 'reference'],
        },
      },
    ])
  })

  it('leaves matched, duplicate-possible, pending, failed and transfer transactions alone', () => {
    const ledger = snapshot({
      today: '2026-03-10',
      invoices: [invoice('inv_1', { amount_due: '50.00', total: '50.00', invoice_number: 'X-77' })],
      transactions: [
        txn('txn_matched', '2026-03-01', '-50.00', { reconciliation_status: 'matched', description: 'X-77' }),
        txn('txn_partial', '2026-03-01', '-50.00', { reconciliation_status: 'partially_matched', description: 'X-77' }),
        txn('txn_dup', '2026-03-01', '-50.00', { reconciliation_status: 'duplicate_possible', description: 'X-77' }),
        txn('txn_pending', '2026-03-01', '-50.00', { status: 'pending', description: 'X-77' }),
        txn('txn_failed', '2026-03-01', '-50.00', { status: 'failed', description: 'X-77' }),
        txn('txn_transfer', '2026-03-01', '-50.00', { direction: 'transfer', description: 'X-77' }),
      ],
    })
    expect(run(ledger)).toEqual([])
  })

  it('needs the exact amount, the currency and a consistent direction', () => {
    const ledger = snapshot({
      today: '2026-03-10',
      invoices: [
        invoice('inv_cent', { amount_due: '50.01', total: '50.01' }),
        invoice('inv_eur', { amount_due: '50.00', total: '50.00', currency: 'EUR' }),
        invoice('inv_recv', { amount_due: '50.00', total: '50.00', direction: 'receivable' }),
        invoice('inv_paid', { amount_due: '0.00', total: '50.00', amount_paid: '50.00', status: 'paid' }),
        invoice('inv_draft', { amount_due: '50.00', total: '50.00', status: 'draft' }),
      ],
      obligations: [obligation('obl_settled', { amount: '50.00', status: 'settled' }), obligation('obl_zero', { amount: '50.00', outstanding: '0' })],
      transactions: [txn('txn_1', '2026-03-01', '-50.00'), txn('txn_2', '2026-03-01', '50.00')],
    })
    const proposals = run(ledger)
    // The outflow has no payable candidate; the inflow settles the receivable (amount and date only: 0.4).
    expect(proposals.map((proposal) => [proposal.key, proposal.action_type, proposal.details.candidate_id, proposal.details.score])).toEqual([
      ['reconciliation:txn_2', 'propose_match', 'inv_recv', 0.4],
    ])
  })

  it('uses the outstanding amount of a part-paid obligation, compared exactly at any scale', () => {
    const ledger = snapshot({
      today: '2026-03-10',
      obligations: [obligation('obl_1', { amount: '1000.00', outstanding: '400.5', reference: 'B-99', due_date: '2026-03-01' })],
      transactions: [txn('txn_1', '2026-03-01', '-400.50', { description: 'paying B 99 rest' })],
    })
    const [proposal] = run(ledger)
    expect(proposal!.action_type).toBe('propose_match')
    expect(proposal!.details).toMatchObject({ candidate_id: 'obl_1', amount: '400.50', score: 0.7, signals: ['date', 'reference'] })
  })

  it('lists the candidates for review when none is clearly best', () => {
    const ledger = snapshot({
      today: '2026-03-10',
      invoices: [
        invoice('inv_a', { amount_due: '80.00', total: '80.00', due_date: '2026-03-05' }),
        invoice('inv_b', { amount_due: '80.00', total: '80.00', due_date: '2026-03-04' }),
        invoice('inv_c', { amount_due: '80.00', total: '80.00', due_date: '2026-02-01' }),
        invoice('inv_d', { amount_due: '80.00', total: '80.00', due_date: '2025-01-01' }),
      ],
      transactions: [txn('txn_1', '2026-03-04', '-80.00', { evidence_ids: [] })],
    })
    const [proposal] = run(ledger)
    expect(proposal).toMatchObject({
      action_type: 'review_match',
      key: 'reconciliation:txn_1',
      confidence: 0.2,
      details: {
        transaction_id: 'txn_1',
        candidates: ['invoice:inv_b', 'invoice:inv_a', 'invoice:inv_c'],
        candidate_scores: ['0.4', '0.3933', '0.1933'],
        best_score: 0.4,
        runner_up_score: 0.3933,
      },
    })
    // Transaction without a parsed row, three invoices with one: 3 of 4 records supported.
    expect(proposal!.evidence_score).toBe(0.75)
    expect(proposal!.evidence.filter((ref) => ref.kind !== 'parsed_row')).toEqual([
      { kind: 'transaction', ref: 'txn_1' },
      { kind: 'invoice', ref: 'inv_b' },
      { kind: 'invoice', ref: 'inv_a' },
      { kind: 'invoice', ref: 'inv_c' },
    ])
  })

  it('does not propose a lone weak candidate (amount only, far from its due date) as the match', () => {
    const ledger = snapshot({
      today: '2026-06-10',
      invoices: [invoice('inv_1', { amount_due: '80.00', total: '80.00', due_date: '2026-03-01' })],
      transactions: [txn('txn_1', '2026-06-01', '-80.00')],
    })
    expect(run(ledger).map((proposal) => [proposal.action_type, proposal.details.best_score])).toEqual([['review_match', 0]])
  })

  it('gives a one-off invoice to one transaction only: the clear winner, else a person decides', () => {
    const base = {
      today: '2026-03-10',
      counterparties: [counterparty('cpy_1')],
      invoices: [invoice('inv_1', { amount_due: '99.00', total: '99.00', invoice_number: 'Q-555', counterparty_id: 'cpy_1', due_date: '2026-03-01' })],
    }
    const winner = run(
      snapshot({
        ...base,
        transactions: [txn('txn_1', '2026-03-01', '-99.00', { description: 'Q-555', counterparty_id: 'cpy_1' }), txn('txn_2', '2026-03-01', '-99.00', { counterparty_id: 'cpy_1' })],
      }),
    )
    expect(winner.map((proposal) => [proposal.key, proposal.action_type])).toEqual([
      ['reconciliation:txn_1', 'propose_match'],
      ['reconciliation:txn_2', 'review_match'],
    ])
    const tie = run(
      snapshot({
        ...base,
        transactions: [txn('txn_1', '2026-03-01', '-99.00', { counterparty_id: 'cpy_1' }), txn('txn_2', '2026-03-01', '-99.00', { counterparty_id: 'cpy_1' })],
      }),
    )
    expect(tie.map((proposal) => [proposal.key, proposal.action_type])).toEqual([
      ['reconciliation:txn_1', 'review_match'],
      ['reconciliation:txn_2', 'review_match'],
    ])
  })

  it('lets a recurring obligation take several charges', () => {
    const ledger = snapshot({
      today: '2026-03-10',
      counterparties: [counterparty('cpy_1')],
      obligations: [obligation('obl_sub', { type: 'subscription', recurrence: 'monthly', amount: '15.00', due_date: '2026-03-05', counterparty_id: 'cpy_1' })],
      transactions: [txn('txn_1', '2026-02-05', '-15.00', { counterparty_id: 'cpy_1' }), txn('txn_2', '2026-03-05', '-15.00', { counterparty_id: 'cpy_1' })],
    })
    expect(run(ledger).map((proposal) => [proposal.key, proposal.action_type, proposal.details.candidate_id])).toEqual([
      ['reconciliation:txn_1', 'propose_match', 'obl_sub'],
      ['reconciliation:txn_2', 'propose_match', 'obl_sub'],
    ])
  })

  it('is exact for money with many digits and currencies of other scales', () => {
    const ledger = snapshot({
      today: '2026-03-10',
      invoices: [
        invoice('inv_jpy', { currency: 'JPY', amount_due: '1500', total: '1500', direction: 'receivable', invoice_number: 'J-100' }),
        invoice('inv_big', { currency: 'USDC', amount_due: '9007199254740993.000001', total: '9007199254740993.000001', invoice_number: 'BIG-1' }),
      ],
      transactions: [
        txn('txn_jpy', '2026-03-01', '1500', { currency: 'JPY', description: 'J-100' }),
        txn('txn_big', '2026-03-01', '-9007199254740993.000001', { currency: 'USDC', description: 'BIG-1' }),
        txn('txn_near', '2026-03-01', '-9007199254740993.000002', { currency: 'USDC', description: 'BIG-1' }),
      ],
    })
    expect(run(ledger).map((proposal) => [proposal.key, proposal.details.amount, proposal.details.candidate_id])).toEqual([
      ['reconciliation:txn_big', '9007199254740993.000001', 'inv_big'],
      ['reconciliation:txn_jpy', '1500', 'inv_jpy'],
    ])
  })

  it('is deterministic: the order of the Ledger lists changes nothing', () => {
    const ledger = snapshot({
      today: '2026-03-10',
      counterparties: [counterparty('cpy_1'), counterparty('cpy_2')],
      invoices: [
        invoice('inv_1', { amount_due: '99.00', total: '99.00', counterparty_id: 'cpy_1' }),
        invoice('inv_2', { amount_due: '99.00', total: '99.00', counterparty_id: 'cpy_2', due_date: '2026-03-03' }),
        invoice('inv_3', { amount_due: '10.00', total: '10.00', invoice_number: 'ZZ-3' }),
      ],
      obligations: [obligation('obl_1', { amount: '10.00', due_date: '2026-03-02' })],
      transactions: [
        txn('txn_1', '2026-03-01', '-99.00', { counterparty_id: 'cpy_1' }),
        txn('txn_2', '2026-03-02', '-99.00'),
        txn('txn_3', '2026-03-02', '-10.00', { description: 'ZZ-3' }),
        txn('txn_4', '2026-03-02', '-10.00'),
      ],
    })
    const expected = run(ledger)
    expect(expected.length).toBe(4)
    fc.assert(
      fc.property(shuffledSnapshot(ledger), (shuffled) => {
        expect(run(shuffled)).toEqual(expected)
      }),
    )
  })

  it('declares its catalog entry', () => {
    expect(reconciliationProgram).toMatchObject({ agentKey: 'reconciliation', version: '1', category: 'business' })
  })
})
