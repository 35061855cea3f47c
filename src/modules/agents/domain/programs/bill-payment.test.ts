import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { billPaymentProgram, relativeDue } from './bill-payment.ts'
import { displayAmount, latestBalances, occurrence, occurrencesBetween } from './shared.ts'
import { financeFixtures } from './ledger-fixtures.testing.ts'
import type { LedgerSnapshot } from './program.ts'

const { account, balance, counterparty, invoice, invoiceObligation, obligation, shuffledSnapshot, snapshot } = financeFixtures

const today = '2026-03-11'
const run = (ledger: LedgerSnapshot, horizonDays = 7) => billPaymentProgram.run(ledger, { horizonDays })

const operating = account('acc_1', { name: 'Operating EUR' })
const reserve = account('acc_2', { name: 'Reserve EUR', account_type: 'bank_savings' })
const operatingUsd = account('acc_3', { name: 'Operating USD', currency: 'USD' })
const balances = [
  balance('bal_1', 'acc_1', '10000.00', '2026-03-10'),
  balance('bal_2', 'acc_2', '2500.00', '2026-03-10'),
  balance('bal_3', 'acc_3', '500.00', '2026-03-10', { currency: 'USD' }),
]
const acme = counterparty('cpy_acme', 'Acme GmbH')
const landlord = counterparty('cpy_landlord', 'Landlord AG', { verified_status: 'self_attested' })
const finanzamt = counterparty('cpy_tax', 'Finanzamt', { type: 'tax_authority', verified_status: 'sanctions_cleared' })

const hr0158 = invoice('inv_1', { invoice_number: 'HR-26-0158', total: '3939.31', amount_due: '3939.31', due_date: '2026-03-14', counterparty_id: 'cpy_acme' })

/** The month's bills: due soon, overdue, recurring, on the horizon, and every kind that must not be paid. */
function month(): LedgerSnapshot {
  const partial = invoice('inv_2', { invoice_number: 'HR-26-0170', total: '1000.00', amount_paid: '400.00', amount_due: '600.00', status: 'partial', due_date: '2026-03-18', counterparty_id: 'cpy_acme' })
  const later = invoice('inv_3', { invoice_number: 'HR-26-0181', due_date: '2026-03-19', counterparty_id: 'cpy_acme' })
  const paid = invoice('inv_4', { invoice_number: 'HR-26-0101', amount_paid: '100.00', amount_due: '0.00', status: 'paid', due_date: '2026-03-12', counterparty_id: 'cpy_acme' })
  const disputed = invoice('inv_5', { invoice_number: 'HR-26-0102', status: 'disputed', due_date: '2026-03-12', counterparty_id: 'cpy_acme' })
  const customerInvoice = invoice('inv_6', { direction: 'receivable', invoice_number: 'AR-1', due_date: '2026-03-12', counterparty_id: 'cpy_acme' })
  return snapshot(today, {
    accounts: [operating, reserve, operatingUsd],
    balances,
    counterparties: [
      acme,
      landlord,
      finanzamt,
      counterparty('cpy_bad', 'Blocked Ltd', { risk_level: 'sanctioned' }),
      counterparty('cpy_high', 'Risky Ltd', { risk_level: 'high' }),
      counterparty('cpy_paused', 'Paused Ltd', { trust_state: 'paused' }),
    ],
    invoices: [hr0158, partial, later, paid, disputed, customerInvoice],
    obligations: [
      invoiceObligation('obl_1', hr0158),
      invoiceObligation('obl_2', partial),
      invoiceObligation('obl_3', later),
      invoiceObligation('obl_4', paid),
      invoiceObligation('obl_5', disputed),
      invoiceObligation('obl_6', customerInvoice),
      obligation('obl_rent', { type: 'rent', direction: null, reference: 'RENT', amount: '1200.00', due_date: '2026-02-15', recurrence: 'monthly', counterparty_id: 'cpy_landlord' }),
      obligation('obl_tax', { type: 'tax', reference: 'VAT-Q4', amount: '450.5', due_date: '2026-03-02', counterparty_id: 'cpy_tax' }),
      obligation('obl_usd', { reference: 'US-77', amount: '800.00', currency: 'USD', due_date: '2026-03-13', counterparty_id: 'cpy_acme' }),
      obligation('obl_cancelled', { status: 'cancelled', due_date: '2026-03-12', counterparty_id: 'cpy_acme' }),
      obligation('obl_settled', { status: 'settled', outstanding: '0', due_date: '2026-03-12', counterparty_id: 'cpy_acme' }),
      obligation('obl_zero', { outstanding: '0', due_date: '2026-03-12', counterparty_id: 'cpy_acme' }),
      obligation('obl_nopayee', { due_date: '2026-03-12', counterparty_id: null }),
      obligation('obl_unknownpayee', { due_date: '2026-03-12', counterparty_id: 'cpy_missing' }),
      obligation('obl_sanctioned', { due_date: '2026-03-12', counterparty_id: 'cpy_bad' }),
      obligation('obl_high', { due_date: '2026-03-12', counterparty_id: 'cpy_high' }),
      obligation('obl_paused', { due_date: '2026-03-12', counterparty_id: 'cpy_paused' }),
      obligation('obl_gbp', { currency: 'GBP', due_date: '2026-03-12', counterparty_id: 'cpy_acme' }),
      obligation('obl_nodate', { due_date: null, counterparty_id: 'cpy_acme' }),
      obligation('obl_receivable', { type: 'other', direction: 'receivable', due_date: '2026-03-12', counterparty_id: 'cpy_acme' }),
      obligation('obl_other', { type: 'other', direction: null, due_date: '2026-03-12', counterparty_id: 'cpy_acme' }),
    ],
  })
}

describe('bill_payment', () => {
  it('proposes what a person would pay this week, and nothing else', () => {
    expect(run(month())).toEqual([
      {
        proposal_type: 'payment',
        action_type: 'pay_invoice',
        key: 'bill_payment:obl_1',
        confidence: 0.95,
        evidence_score: 1,
        narrative: 'Pay bill HR-26-0158 to Acme GmbH: 3,939.31 EUR due 2026-03-14 (in 3 days).',
        evidence: [
          { kind: 'obligation', ref: 'obl_1' },
          { kind: 'invoice', ref: 'inv_1' },
          { kind: 'counterparty', ref: 'cpy_acme' },
          { kind: 'account', ref: 'acc_1' },
          { kind: 'balance', ref: 'bal_1' },
          { kind: 'parsed_row', ref: 'rpr_acc_1' },
          { kind: 'parsed_row', ref: 'rpr_bal_1' },
          { kind: 'parsed_row', ref: 'rpr_cpy_acme' },
          { kind: 'parsed_row', ref: 'rpr_inv_1' },
        ],
        details: {
          invoice_id: 'inv_1',
          obligation_id: 'obl_1',
          amount: '3939.31',
          currency: 'EUR',
          destination_counterparty_id: 'cpy_acme',
          source_account_id: 'acc_1',
          due_date: '2026-03-14',
          days_until_due: 3,
        },
      },
      {
        proposal_type: 'payment',
        action_type: 'pay_invoice',
        key: 'bill_payment:obl_2',
        confidence: 0.95,
        evidence_score: 1,
        narrative: 'Pay bill HR-26-0170 to Acme GmbH: 600.00 EUR due 2026-03-18 (in 7 days).',
        evidence: [
          { kind: 'obligation', ref: 'obl_2' },
          { kind: 'invoice', ref: 'inv_2' },
          { kind: 'counterparty', ref: 'cpy_acme' },
          { kind: 'account', ref: 'acc_1' },
          { kind: 'balance', ref: 'bal_1' },
          { kind: 'parsed_row', ref: 'rpr_acc_1' },
          { kind: 'parsed_row', ref: 'rpr_bal_1' },
          { kind: 'parsed_row', ref: 'rpr_cpy_acme' },
          { kind: 'parsed_row', ref: 'rpr_inv_2' },
        ],
        details: {
          invoice_id: 'inv_2',
          obligation_id: 'obl_2',
          amount: '600.00',
          currency: 'EUR',
          destination_counterparty_id: 'cpy_acme',
          source_account_id: 'acc_1',
          due_date: '2026-03-18',
          days_until_due: 7,
        },
      },
      {
        proposal_type: 'payment',
        action_type: 'ach_outbound',
        key: 'bill_payment:obl_rent:2026-03-15',
        confidence: 0.65,
        evidence_score: 1,
        narrative: 'Pay rent RENT to Landlord AG: 1,200.00 EUR due 2026-03-15 (in 4 days).',
        evidence: [
          { kind: 'obligation', ref: 'obl_rent' },
          { kind: 'counterparty', ref: 'cpy_landlord' },
          { kind: 'account', ref: 'acc_1' },
          { kind: 'balance', ref: 'bal_1' },
          { kind: 'parsed_row', ref: 'rpr_acc_1' },
          { kind: 'parsed_row', ref: 'rpr_bal_1' },
          { kind: 'parsed_row', ref: 'rpr_cpy_landlord' },
          { kind: 'parsed_row', ref: 'rpr_obl_rent' },
        ],
        details: {
          obligation_id: 'obl_rent',
          amount: '1200.00',
          currency: 'EUR',
          destination_counterparty_id: 'cpy_landlord',
          source_account_id: 'acc_1',
          due_date: '2026-03-15',
          days_until_due: 4,
        },
      },
      {
        proposal_type: 'payment',
        action_type: 'ach_outbound',
        key: 'bill_payment:obl_tax',
        confidence: 0.75,
        evidence_score: 1,
        narrative: 'Pay tax VAT-Q4 to Finanzamt: 450.50 EUR due 2026-03-02 (9 days overdue).',
        evidence: [
          { kind: 'obligation', ref: 'obl_tax' },
          { kind: 'counterparty', ref: 'cpy_tax' },
          { kind: 'account', ref: 'acc_1' },
          { kind: 'balance', ref: 'bal_1' },
          { kind: 'parsed_row', ref: 'rpr_acc_1' },
          { kind: 'parsed_row', ref: 'rpr_bal_1' },
          { kind: 'parsed_row', ref: 'rpr_cpy_tax' },
          { kind: 'parsed_row', ref: 'rpr_obl_tax' },
        ],
        details: {
          obligation_id: 'obl_tax',
          amount: '450.50',
          currency: 'EUR',
          destination_counterparty_id: 'cpy_tax',
          source_account_id: 'acc_1',
          due_date: '2026-03-02',
          days_until_due: -9,
        },
      },
      {
        proposal_type: 'payment',
        action_type: 'ach_outbound',
        key: 'bill_payment:obl_usd',
        confidence: 0.55,
        evidence_score: 1,
        narrative: 'Pay bill US-77 to Acme GmbH: 800.00 USD due 2026-03-13 (in 2 days). Operating USD held 500.00 USD on 2026-03-10, less than the bill.',
        evidence: [
          { kind: 'obligation', ref: 'obl_usd' },
          { kind: 'counterparty', ref: 'cpy_acme' },
          { kind: 'account', ref: 'acc_3' },
          { kind: 'balance', ref: 'bal_3' },
          { kind: 'parsed_row', ref: 'rpr_acc_3' },
          { kind: 'parsed_row', ref: 'rpr_bal_3' },
          { kind: 'parsed_row', ref: 'rpr_cpy_acme' },
          { kind: 'parsed_row', ref: 'rpr_obl_usd' },
        ],
        details: {
          obligation_id: 'obl_usd',
          amount: '800.00',
          currency: 'USD',
          destination_counterparty_id: 'cpy_acme',
          source_account_id: 'acc_3',
          due_date: '2026-03-13',
          days_until_due: 2,
        },
      },
    ])
  })

  it('proposes nothing when nothing is due', () => {
    expect(run(snapshot(today, { accounts: [operating], balances, counterparties: [acme] }))).toEqual([])
    const farOff = invoice('inv_9', { due_date: '2026-05-01', counterparty_id: 'cpy_acme' })
    expect(run(snapshot(today, { accounts: [operating], balances, counterparties: [acme], invoices: [farOff], obligations: [invoiceObligation('obl_9', farOff)] }))).toEqual([])
  })

  it('includes the horizon boundary day and excludes the day after', () => {
    const bill = (due: string) =>
      snapshot(today, { accounts: [operating], balances, counterparties: [acme], obligations: [obligation('obl_b', { due_date: due, counterparty_id: 'cpy_acme' })] })
    expect(run(bill('2026-03-18')).map((proposal) => proposal.key)).toEqual(['bill_payment:obl_b'])
    expect(run(bill('2026-03-19'))).toEqual([])
    expect(run(bill('2026-03-19'), 8).map((proposal) => proposal.key)).toEqual(['bill_payment:obl_b'])
    expect(run(bill('2026-03-11'), 0).map((proposal) => proposal.details.days_until_due)).toEqual([0])
    expect(run(bill('2026-03-11'), 0)[0]?.narrative).toBe('Pay bill R-obl_b to Acme GmbH: 100.00 EUR due 2026-03-11 (today).')
  })

  it('skips a paid or cancelled invoice even when its obligation was left open', () => {
    const paid = invoice('inv_p', { status: 'paid', amount_paid: '100.00', amount_due: '0.00', due_date: '2026-03-12', counterparty_id: 'cpy_acme' })
    const cancelled = invoice('inv_c', { status: 'cancelled', due_date: '2026-03-12', counterparty_id: 'cpy_acme' })
    const ledger = snapshot(today, {
      accounts: [operating],
      balances,
      counterparties: [acme],
      invoices: [paid, cancelled],
      obligations: [invoiceObligation('obl_p', paid, { status: 'open', outstanding: null }), invoiceObligation('obl_c', cancelled, { status: 'open' })],
    })
    expect(run(ledger)).toEqual([])
  })

  it('pays a payable invoice no obligation names, keyed by the invoice, and infers "due on receipt" from the issue date', () => {
    const unnamed = invoice('inv_u', { invoice_number: 'Q-1', due_date: null, issue_date: '2026-03-09', total: '75.00', amount_due: '75.00', counterparty_id: 'cpy_acme' })
    const [proposal, ...rest] = run(snapshot(today, { accounts: [operating], balances, counterparties: [acme], invoices: [unnamed] }))
    expect(rest).toEqual([])
    expect(proposal).toMatchObject({
      action_type: 'pay_invoice',
      key: 'bill_payment:inv_u',
      // 0.45 + 0.2 (invoice) + 0.1 (evidence) + 0.1 (verified); no own due date.
      confidence: 0.85,
      narrative: 'Pay bill Q-1 to Acme GmbH: 75.00 EUR due on receipt, issued 2026-03-09 (2 days overdue).',
      details: { invoice_id: 'inv_u', obligation_id: null, amount: '75.00', source_account_id: 'acc_1', due_date: '2026-03-09' },
    })
  })

  it('uses ach_outbound when the invoice an obligation names is not in the snapshot', () => {
    const ledger = snapshot(today, { accounts: [operating], balances, counterparties: [acme], obligations: [obligation('obl_x', { invoice_id: 'inv_gone', outstanding: '40.00', due_date: '2026-03-12', counterparty_id: 'cpy_acme' })] })
    expect(run(ledger)).toMatchObject([{ action_type: 'ach_outbound', details: { obligation_id: 'obl_x', amount: '40.00' } }])
  })

  it('pays from the active bank account in the currency with the highest latest balance', () => {
    const bill = obligation('obl_b', { due_date: '2026-03-12', counterparty_id: 'cpy_acme' })
    const accounts = [
      account('acc_a', { name: 'A' }),
      account('acc_b', { name: 'B' }),
      account('acc_c', { name: 'C', status: 'frozen' }),
      account('acc_d', { name: 'D', account_type: 'card' }),
      account('acc_e', { name: 'E' }),
    ]
    const sourceOf = (ledgerBalances: ReturnType<typeof balance>[]) =>
      run(snapshot(today, { accounts, balances: ledgerBalances, counterparties: [acme], obligations: [bill] }))[0]?.details.source_account_id
    // acc_a's latest balance is the small one of 03-10, not the large one of 03-01; frozen and card accounts never pay.
    expect(
      sourceOf([
        balance('bal_a1', 'acc_a', '90000.00', '2026-03-01'),
        balance('bal_a2', 'acc_a', '100.00', '2026-03-10'),
        balance('bal_b', 'acc_b', '5000.00', '2026-03-09'),
        balance('bal_c', 'acc_c', '99999.00', '2026-03-10'),
        balance('bal_d', 'acc_d', '99999.00', '2026-03-10'),
      ]),
    ).toBe('acc_b')
    // A tie goes to the smaller id; an account with no balance ranks below one with any.
    expect(sourceOf([balance('bal_a', 'acc_a', '5000', '2026-03-10'), balance('bal_b', 'acc_b', '5000.00', '2026-03-10')])).toBe('acc_a')
    expect(sourceOf([balance('bal_e', 'acc_e', '-20.00', '2026-03-10')])).toBe('acc_e')
    // With no balance at all, the smaller id, and a lower confidence that says why.
    const unknown = run(snapshot(today, { accounts, counterparties: [acme], obligations: [bill] }))[0]
    expect(unknown?.details.source_account_id).toBe('acc_a')
    expect(unknown?.confidence).toBe(0.55)
    expect(unknown?.narrative).toBe('Pay bill R-obl_b to Acme GmbH: 100.00 EUR due 2026-03-12 (tomorrow). No balance is known for A, the account it would be paid from.')
  })

  it('reads the latest balance of an account: latest day, then available before current before closing', () => {
    const ledger = snapshot(today, {
      accounts: [operating],
      balances: [
        balance('bal_1', 'acc_1', '10.00', '2026-03-10', { balance_type: 'closing' }),
        balance('bal_2', 'acc_1', '20.00', '2026-03-10', { balance_type: 'available' }),
        balance('bal_3', 'acc_1', '30.00', '2026-03-09', { balance_type: 'available' }),
        balance('bal_4', 'acc_1', '40.00', '2026-03-12', { balance_type: 'available' }),
      ],
    })
    expect(latestBalances(ledger).get('acc_1')?.id).toBe('bal_2')
  })

  it('proposes the next occurrence of a recurring bill only, never a past one', () => {
    const rent = (due: string, recurrence: 'weekly' | 'monthly' | 'quarterly' | 'yearly') =>
      run(snapshot(today, { accounts: [operating], balances, counterparties: [landlord], obligations: [obligation('obl_r', { type: 'rent', due_date: due, recurrence, counterparty_id: 'cpy_landlord' })] })).map((proposal) => proposal.key)
    expect(rent('2026-01-31', 'monthly')).toEqual([]) // next is 2026-03-31, past the horizon; 2026-02-28 is past
    expect(rent('2026-01-18', 'monthly')).toEqual(['bill_payment:obl_r:2026-03-18'])
    expect(rent('2026-02-04', 'weekly')).toEqual(['bill_payment:obl_r:2026-03-11'])
    expect(rent('2025-12-16', 'quarterly')).toEqual(['bill_payment:obl_r:2026-03-16'])
    expect(rent('2020-03-12', 'yearly')).toEqual(['bill_payment:obl_r:2026-03-12'])
    expect(rent('2026-03-20', 'monthly')).toEqual([]) // first occurrence after the horizon
  })

  it('keeps amounts exact, digit for digit', () => {
    const big = obligation('obl_big', { amount: '9007199254740993.01', due_date: '2026-03-12', counterparty_id: 'cpy_acme' })
    const dust = obligation('obl_dust', { amount: '0.1', outstanding: '0.01', due_date: '2026-03-12', counterparty_id: 'cpy_acme' })
    const yen = obligation('obl_yen', { amount: '1500', currency: 'JPY', due_date: '2026-03-12', counterparty_id: 'cpy_acme' })
    const ledger = snapshot(today, {
      accounts: [operating, account('acc_jpy', { name: 'Yen', currency: 'JPY' })],
      balances: [balance('bal_1', 'acc_1', '9007199254740993.02', '2026-03-10'), balance('bal_j', 'acc_jpy', '2000', '2026-03-10', { currency: 'JPY' })],
      counterparties: [acme],
      obligations: [big, dust, yen],
    })
    const proposals = run(ledger)
    expect(proposals.map((proposal) => [proposal.details.amount, proposal.details.currency])).toEqual([
      ['9007199254740993.01', 'EUR'],
      ['0.01', 'EUR'],
      ['1500', 'JPY'],
    ])
    // 9007199254740993.02 covers 9007199254740993.01 (as floats they would be equal or wrong).
    expect(proposals[0]?.confidence).toBe(0.75)
    expect(proposals[0]?.narrative).toBe('Pay bill R-obl_big to Acme GmbH: 9,007,199,254,740,993.01 EUR due 2026-03-12 (tomorrow).')
  })

  it('scores evidence as the share of cited records that name a parsed row', () => {
    const bill = obligation('obl_b', { due_date: '2026-03-12', counterparty_id: 'cpy_acme', evidence_ids: [] })
    const [proposal] = run(snapshot(today, { accounts: [operating], balances, counterparties: [{ ...acme, evidence_ids: [] }], obligations: [bill] }))
    // Cited: obligation (none), counterparty (none), account, balance: 2 of 4.
    expect(proposal?.evidence_score).toBe(0.5)
    expect(proposal?.confidence).toBe(0.65) // 0.45 + 0.1 (due date) + 0.1 (verified); not every record has evidence
  })

  it('is deterministic, whatever order the Ledger lists come in', () => {
    const ledger = month()
    const expected = run(ledger)
    expect(run(ledger)).toEqual(expected)
    fc.assert(
      fc.property(shuffledSnapshot(ledger), (shuffled) => {
        expect(run(shuffled)).toEqual(expected)
      }),
      { numRuns: 100 },
    )
  })

  it('declares itself', () => {
    expect(billPaymentProgram).toMatchObject({ agentKey: 'bill_payment', version: '1', category: 'business', defaultConfig: { horizonDays: 7 } })
    expect(billPaymentProgram.run(month(), billPaymentProgram.defaultConfig)).toEqual(run(month(), 7))
  })
})

describe('helpers', () => {
  it('writes amounts for people', () => {
    expect(displayAmount('3939.31', 'EUR')).toBe('3,939.31')
    expect(displayAmount('-1234567.5', 'EUR')).toBe('-1,234,567.50')
    expect(displayAmount('999', 'EUR')).toBe('999.00')
    expect(displayAmount('1500', 'JPY')).toBe('1,500')
    expect(displayAmount('0.000001', 'USDC')).toBe('0.000001')
  })

  it('says when a bill is due', () => {
    expect([relativeDue(today, '2026-03-11'), relativeDue(today, '2026-03-12'), relativeDue(today, '2026-03-14'), relativeDue(today, '2026-03-10'), relativeDue(today, '2026-03-01')]).toEqual([
      'today',
      'tomorrow',
      'in 3 days',
      '1 day overdue',
      '10 days overdue',
    ])
  })

  it('steps recurrences from the anchor, clamping to the end of the month', () => {
    expect([0, 1, 2, 3, 13].map((n) => occurrence('2024-01-31', 'monthly', n))).toEqual(['2024-01-31', '2024-02-29', '2024-03-31', '2024-04-30', '2025-02-28'])
    expect(occurrence('2025-11-30', 'quarterly', 1)).toBe('2026-02-28')
    expect(occurrence('2024-02-29', 'yearly', 1)).toBe('2025-02-28')
    expect(occurrencesBetween('2026-01-05', 'weekly', '2026-03-01', '2026-03-20')).toEqual(['2026-03-02', '2026-03-09', '2026-03-16'])
    expect(occurrencesBetween('2026-04-01', 'monthly', '2026-03-01', '2026-03-31')).toEqual([])
  })

  it('finds every occurrence in a window, whatever the anchor (checked against stepping one by one)', () => {
    const recurrences = ['weekly', 'monthly', 'quarterly', 'yearly'] as const
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 0, max: 120 }), fc.constantFrom(...recurrences), (anchorOffset, fromOffset, span, recurrence) => {
        const anchorDate = new Date(Date.UTC(2018, 0, 1 + anchorOffset)).toISOString().slice(0, 10)
        const from = new Date(Date.UTC(2018, 0, 1 + fromOffset)).toISOString().slice(0, 10)
        const to = new Date(Date.UTC(2018, 0, 1 + fromOffset + span)).toISOString().slice(0, 10)
        const expected: string[] = []
        for (let n = 0; n < 2000; n += 1) {
          const date = occurrence(anchorDate, recurrence, n)
          if (date > to) break
          if (date >= from) expected.push(date)
        }
        expect(occurrencesBetween(anchorDate, recurrence, from, to)).toEqual(expected)
      }),
    )
  })
})
