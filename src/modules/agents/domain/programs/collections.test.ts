import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { collectionsProgram, collectionsStage } from './collections.ts'
import { financeFixtures } from './ledger-fixtures.testing.ts'
import type { LedgerSnapshot } from './program.ts'

const { counterparty, invoice, invoiceObligation, obligation, shuffledSnapshot, snapshot } = financeFixtures

const today = '2026-03-11'
const run = (ledger: LedgerSnapshot) => collectionsProgram.run(ledger, collectionsProgram.defaultConfig)
const beta = counterparty('cpy_beta', 'Beta Corp', { type: 'customer' })
const receivable = (id: string, fields: Parameters<typeof invoice>[1] = {}) => invoice(id, { direction: 'receivable', status: 'sent', ...fields })

function book(): LedgerSnapshot {
  const a = receivable('inv_a', { invoice_number: 'AR-1042', total: '1200.00', amount_due: '1200.00', status: 'overdue', due_date: '2026-02-19', counterparty_id: 'cpy_beta' })
  const b = receivable('inv_b', { invoice_number: 'AR-1050', total: '500.00', amount_paid: '249.5', amount_due: '250.5', status: 'partial', due_date: '2026-03-10', counterparty_id: 'cpy_beta' })
  const c = receivable('inv_c', { invoice_number: 'AR-0999', total: '80.00', amount_due: '80.00', due_date: '2026-01-20', counterparty_id: null })
  const dueToday = receivable('inv_d', { due_date: '2026-03-11', counterparty_id: 'cpy_beta' })
  const paid = receivable('inv_paid', { status: 'paid', amount_paid: '100.00', amount_due: '0.00', due_date: '2026-02-01', counterparty_id: 'cpy_beta' })
  const cancelled = receivable('inv_cancelled', { status: 'cancelled', due_date: '2026-02-01', counterparty_id: 'cpy_beta' })
  const disputed = receivable('inv_disputed', { status: 'disputed', due_date: '2026-02-01', counterparty_id: 'cpy_beta' })
  const draft = receivable('inv_draft', { status: 'draft', due_date: '2026-02-01', counterparty_id: 'cpy_beta' })
  const payable = invoice('inv_e', { due_date: '2026-02-01', counterparty_id: 'cpy_beta' })
  const settled = receivable('inv_f', { due_date: '2026-02-01', counterparty_id: 'cpy_beta' })
  const undated = receivable('inv_nodue', { due_date: null, counterparty_id: 'cpy_beta' })
  return snapshot(today, {
    counterparties: [beta],
    invoices: [a, b, c, dueToday, paid, cancelled, disputed, draft, payable, settled, undated],
    obligations: [
      invoiceObligation('obl_a', a),
      invoiceObligation('obl_b', b),
      invoiceObligation('obl_c', c),
      invoiceObligation('obl_paid', paid),
      // Reconciliation found the payment: the obligation is settled though the invoice was not updated.
      invoiceObligation('obl_f', settled, { status: 'settled', outstanding: '0' }),
      obligation('obl_g', { type: 'loan', direction: 'receivable', reference: 'LOAN-7', amount: '5000.00', outstanding: '3000.00', due_date: '2026-01-25', counterparty_id: 'cpy_beta' }),
      obligation('obl_h', { type: 'other', direction: 'receivable', due_date: '2026-01-01', recurrence: 'monthly', counterparty_id: 'cpy_beta' }),
      obligation('obl_i', { type: 'other', direction: 'receivable', due_date: '2026-01-01', invoice_id: 'inv_paid', counterparty_id: 'cpy_beta' }),
      obligation('obl_j', { type: 'other', direction: 'receivable', due_date: '2026-01-01', status: 'settled', counterparty_id: 'cpy_beta' }),
      obligation('obl_k', { type: 'bill', direction: null, due_date: '2026-01-01', counterparty_id: 'cpy_beta' }),
    ],
  })
}

describe('collections', () => {
  it('finds every overdue receivable, with the reminder its age calls for', () => {
    expect(run(book())).toEqual([
      {
        proposal_type: 'collections',
        action_type: 'remind',
        key: 'collections:inv_a',
        confidence: 0.95,
        evidence_score: 1,
        narrative: 'Invoice AR-1042 to Beta Corp is 20 days overdue: 1,200.00 EUR was due 2026-02-19. Send a firm reminder.',
        evidence: [
          { kind: 'invoice', ref: 'inv_a' },
          { kind: 'obligation', ref: 'obl_a' },
          { kind: 'counterparty', ref: 'cpy_beta' },
          { kind: 'parsed_row', ref: 'rpr_cpy_beta' },
          { kind: 'parsed_row', ref: 'rpr_inv_a' },
        ],
        details: { invoice_id: 'inv_a', obligation_id: 'obl_a', days_overdue: 20, amount_due: '1200.00', currency: 'EUR', counterparty_id: 'cpy_beta', due_date: '2026-02-19', stage: 'firm' },
      },
      {
        proposal_type: 'collections',
        action_type: 'remind',
        key: 'collections:inv_b',
        confidence: 0.95,
        evidence_score: 1,
        narrative: 'Invoice AR-1050 to Beta Corp is 1 day overdue: 250.50 EUR was due 2026-03-10. Send a friendly reminder.',
        evidence: [
          { kind: 'invoice', ref: 'inv_b' },
          { kind: 'obligation', ref: 'obl_b' },
          { kind: 'counterparty', ref: 'cpy_beta' },
          { kind: 'parsed_row', ref: 'rpr_cpy_beta' },
          { kind: 'parsed_row', ref: 'rpr_inv_b' },
        ],
        details: { invoice_id: 'inv_b', obligation_id: 'obl_b', days_overdue: 1, amount_due: '250.50', currency: 'EUR', counterparty_id: 'cpy_beta', due_date: '2026-03-10', stage: 'friendly' },
      },
      {
        proposal_type: 'collections',
        action_type: 'remind',
        key: 'collections:inv_c',
        confidence: 0.85,
        evidence_score: 1,
        narrative: 'Invoice AR-0999 is 50 days overdue: 80.00 EUR was due 2026-01-20. Send a final notice.',
        evidence: [
          { kind: 'invoice', ref: 'inv_c' },
          { kind: 'obligation', ref: 'obl_c' },
          { kind: 'parsed_row', ref: 'rpr_inv_c' },
        ],
        details: { invoice_id: 'inv_c', obligation_id: 'obl_c', days_overdue: 50, amount_due: '80.00', currency: 'EUR', counterparty_id: null, due_date: '2026-01-20', stage: 'final' },
      },
      {
        proposal_type: 'collections',
        action_type: 'remind',
        key: 'collections:obl_g',
        confidence: 0.75,
        evidence_score: 1,
        narrative: 'Receivable LOAN-7 to Beta Corp is 45 days overdue: 3,000.00 EUR was due 2026-01-25. Send a final notice.',
        evidence: [
          { kind: 'obligation', ref: 'obl_g' },
          { kind: 'counterparty', ref: 'cpy_beta' },
          { kind: 'parsed_row', ref: 'rpr_cpy_beta' },
          { kind: 'parsed_row', ref: 'rpr_obl_g' },
        ],
        details: { invoice_id: null, obligation_id: 'obl_g', days_overdue: 45, amount_due: '3000.00', currency: 'EUR', counterparty_id: 'cpy_beta', due_date: '2026-01-25', stage: 'final' },
      },
    ])
  })

  it('finds nothing when nothing is overdue', () => {
    expect(run(snapshot(today))).toEqual([])
    expect(run(snapshot(today, { counterparties: [beta], invoices: [receivable('inv_1', { due_date: '2026-03-11', counterparty_id: 'cpy_beta' })] }))).toEqual([])
  })

  it('stages by days overdue at the configured thresholds', () => {
    const config = collectionsProgram.defaultConfig
    expect([1, 14, 15, 44, 45, 400].map((days) => collectionsStage(days, config))).toEqual(['friendly', 'friendly', 'firm', 'firm', 'final', 'final'])
    expect(collectionsStage(10, { ...config, firmAfterDays: 7, finalAfterDays: 30 })).toBe('firm')
    const stagesAt = (due: string) => run(snapshot(today, { invoices: [receivable('inv_1', { due_date: due })] })).map((proposal) => [proposal.details.days_overdue, proposal.details.stage])
    expect(stagesAt('2026-02-25')).toEqual([[14, 'friendly']])
    expect(stagesAt('2026-02-24')).toEqual([[15, 'firm']])
    expect(stagesAt('2026-01-26')).toEqual([[44, 'firm']])
    expect(stagesAt('2026-01-25')).toEqual([[45, 'final']])
  })

  it('waits the configured grace days before the first reminder', () => {
    const ledger = snapshot(today, { invoices: [receivable('inv_1', { due_date: '2026-03-08' })] })
    expect(collectionsProgram.run(ledger, { ...collectionsProgram.defaultConfig, minimumDaysOverdue: 4 })).toEqual([])
    expect(collectionsProgram.run(ledger, { ...collectionsProgram.defaultConfig, minimumDaysOverdue: 3 })).toHaveLength(1)
  })

  it('keeps amounts exact and at the currency scale', () => {
    const ledger = snapshot(today, {
      invoices: [
        receivable('inv_1', { currency: 'EUR', amount_due: '9007199254740993.07', due_date: '2026-03-01' }),
        receivable('inv_2', { currency: 'JPY', amount_due: '150000', due_date: '2026-03-01' }),
        receivable('inv_3', { currency: 'KWD', amount_due: '12.5', due_date: '2026-03-01' }),
      ],
    })
    const proposals = run(ledger)
    expect(proposals.map((proposal) => proposal.details.amount_due)).toEqual(['9007199254740993.07', '150000', '12.500'])
    expect(proposals[1]?.narrative).toBe('Invoice N-inv_2 is 10 days overdue: 150,000 JPY was due 2026-03-01. Send a friendly reminder.')
  })

  it('scores evidence as the share of cited records that name a parsed row', () => {
    const ledger = snapshot(today, { counterparties: [{ ...beta, evidence_ids: [] }], invoices: [receivable('inv_1', { due_date: '2026-03-01', counterparty_id: 'cpy_beta' })] })
    expect(run(ledger)).toMatchObject([{ evidence_score: 0.5, confidence: 0.85 }])
  })

  it('is deterministic, whatever order the Ledger lists come in', () => {
    const ledger = book()
    const expected = run(ledger)
    fc.assert(
      fc.property(shuffledSnapshot(ledger), (shuffled) => {
        expect(run(shuffled)).toEqual(expected)
      }),
      { numRuns: 100 },
    )
  })

  it('declares itself', () => {
    expect(collectionsProgram).toMatchObject({ agentKey: 'collections', version: '1', category: 'business', capabilities: ['remind'] })
  })
})
