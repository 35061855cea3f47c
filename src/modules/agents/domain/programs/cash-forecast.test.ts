import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { applyRate, cashForecastProgram, dailyAverage, type CashForecastConfig } from './cash-forecast.ts'
import { financeFixtures } from './ledger-fixtures.testing.ts'
import type { LedgerSnapshot } from './program.ts'

const { account, balance, counterparty, invoice, invoiceObligation, obligation, shuffledSnapshot, snapshot, transaction } = financeFixtures

const today = '2026-03-11'
const run = (ledger: LedgerSnapshot, config: Partial<CashForecastConfig> = {}) => cashForecastProgram.run(ledger, { ...cashForecastProgram.defaultConfig, ...config })

/**
 * EUR: 12,500.00 in two accounts; tax 450.50 overdue (day 0), bill 3,939.31 on 03-14, rent 1,200.00 on
 * 03-15 (monthly from 02-15; 04-15 is past the horizon), a 49.99 subscription every week from 03-02
 * (03-16, 03-23, 03-30, 04-06), a customer's 2,000.00 on 03-20 (1,800.00 expected at 0.9), a bill of
 * 100.00 on the horizon's last day 04-10; not counted: a receivable 300.00 overdue, one after the
 * horizon, a bill after it, a paid bill, a card account. USD: 500.00 and a bill of 800.00 on 03-13.
 * GBP: an account with no balance and a bill of 100.00.
 */
function ledger(): LedgerSnapshot {
  const bill = invoice('inv_1', { invoice_number: 'HR-26-0158', total: '3939.31', amount_due: '3939.31', due_date: '2026-03-14', counterparty_id: 'cpy_acme' })
  const customer = invoice('inv_r1', { direction: 'receivable', total: '2000.00', amount_due: '2000.00', due_date: '2026-03-20' })
  const late = invoice('inv_r2', { direction: 'receivable', total: '300.00', amount_due: '300.00', due_date: '2026-03-01' })
  const later = invoice('inv_r3', { direction: 'receivable', total: '700.00', amount_due: '700.00', due_date: '2026-04-20' })
  const paid = invoice('inv_p', { total: '999.00', amount_paid: '999.00', amount_due: '0.00', status: 'paid', due_date: '2026-03-12' })
  return snapshot(today, {
    accounts: [
      account('acc_1', { name: 'Operating EUR' }),
      account('acc_2', { name: 'Reserve EUR', account_type: 'bank_savings' }),
      account('acc_3', { name: 'Operating USD', currency: 'USD' }),
      account('acc_4', { name: 'Operating GBP', currency: 'GBP' }),
      account('acc_card', { name: 'Card', account_type: 'card' }),
    ],
    balances: [
      balance('bal_1', 'acc_1', '10000.00', '2026-03-10'),
      balance('bal_2', 'acc_2', '2500.00', '2026-03-10'),
      balance('bal_3', 'acc_3', '500.00', '2026-03-10', { currency: 'USD' }),
      balance('bal_card', 'acc_card', '-5000.00', '2026-03-10'),
    ],
    counterparties: [counterparty('cpy_acme', 'Acme GmbH')],
    invoices: [bill, customer, late, later, paid],
    obligations: [
      invoiceObligation('obl_1', bill),
      invoiceObligation('obl_r1', customer),
      invoiceObligation('obl_r2', late),
      invoiceObligation('obl_r3', later),
      invoiceObligation('obl_p', paid),
      obligation('obl_tax', { type: 'tax', amount: '450.5', due_date: '2026-03-02' }),
      obligation('obl_rent', { type: 'rent', direction: null, amount: '1200.00', due_date: '2026-02-15', recurrence: 'monthly' }),
      obligation('obl_saas', { type: 'subscription', amount: '49.99', due_date: '2026-03-02', recurrence: 'weekly' }),
      obligation('obl_edge', { amount: '100.00', due_date: '2026-04-10' }),
      obligation('obl_after', { amount: '100.00', due_date: '2026-04-11' }),
      obligation('obl_usd', { amount: '800.00', currency: 'USD', due_date: '2026-03-13' }),
      obligation('obl_gbp', { amount: '100.00', currency: 'GBP', due_date: '2026-03-12' }),
      obligation('obl_chf', { amount: '100.00', currency: 'CHF', due_date: '2026-03-12' }),
    ],
  })
}

describe('cash_forecast', () => {
  it('projects each currency of the bank accounts as a person would, day by day', () => {
    const [eur, gbp, usd, ...rest] = run(ledger())
    expect(rest).toEqual([])
    expect(eur).toEqual({
      proposal_type: 'cash_forecast',
      action_type: 'forecast',
      key: 'cash_forecast:EUR',
      confidence: 0.9,
      evidence_score: 1,
      narrative: 'EUR cash is projected to stay above zero over the next 30 days: from 12,500.00 EUR today, lowest 6,860.20 EUR on 2026-03-16, 8,410.23 EUR by 2026-04-10.',
      evidence: [
        { kind: 'account', ref: 'acc_1' },
        { kind: 'account', ref: 'acc_2' },
        { kind: 'balance', ref: 'bal_1' },
        { kind: 'balance', ref: 'bal_2' },
        { kind: 'invoice', ref: 'inv_1' },
        { kind: 'invoice', ref: 'inv_r1' },
        { kind: 'invoice', ref: 'inv_r2' },
        { kind: 'obligation', ref: 'obl_1' },
        { kind: 'obligation', ref: 'obl_edge' },
        { kind: 'obligation', ref: 'obl_r1' },
        { kind: 'obligation', ref: 'obl_r2' },
        { kind: 'obligation', ref: 'obl_rent' },
        { kind: 'obligation', ref: 'obl_saas' },
        { kind: 'obligation', ref: 'obl_tax' },
        { kind: 'parsed_row', ref: 'rpr_acc_1' },
        { kind: 'parsed_row', ref: 'rpr_acc_2' },
        { kind: 'parsed_row', ref: 'rpr_bal_1' },
        { kind: 'parsed_row', ref: 'rpr_bal_2' },
        { kind: 'parsed_row', ref: 'rpr_inv_1' },
        { kind: 'parsed_row', ref: 'rpr_inv_r1' },
        { kind: 'parsed_row', ref: 'rpr_inv_r2' },
        { kind: 'parsed_row', ref: 'rpr_obl_edge' },
        { kind: 'parsed_row', ref: 'rpr_obl_rent' },
        { kind: 'parsed_row', ref: 'rpr_obl_saas' },
        { kind: 'parsed_row', ref: 'rpr_obl_tax' },
      ],
      details: {
        currency: 'EUR',
        horizon_end: '2026-04-10',
        minimum_balance: '0.00',
        // 450.50 + 3,939.31 + 100.00
        payables_due: '4489.81',
        // 2,000.00 × 0.9
        receivables_expected: '1800.00',
        // −1,200.00 − 4 × 49.99
        recurring_net: '-1399.96',
        baseline_daily_net: null,
        baseline_transactions: 0,
        overdue_receivables: '300.00',
        collection_rate: '0.9',
        net_flow: '-4089.77',
        account_ids: ['acc_1', 'acc_2'],
        accounts_without_balance: [],
        starting_balance: '12500.00',
        // 12,500.00 − 450.50 − 3,939.31 − 1,200.00 − 49.99
        projected_low: '6860.20',
        projected_low_date: '2026-03-16',
        // 6,860.20 + 1,800.00 − 3 × 49.99 − 100.00
        projected_end: '8410.23',
        shortfall: false,
      },
    })
    expect(usd).toMatchObject({
      key: 'cash_forecast:USD',
      confidence: 0.9,
      narrative: 'USD cash is projected to fall to -300.00 USD on 2026-03-13, below zero, within the next 30 days: from 500.00 USD today to -300.00 USD by 2026-04-10.',
      details: { starting_balance: '500.00', projected_low: '-300.00', projected_low_date: '2026-03-13', projected_end: '-300.00', payables_due: '800.00', shortfall: true },
    })
    expect(gbp).toMatchObject({
      key: 'cash_forecast:GBP',
      confidence: 0.1,
      narrative: 'No balance is known for the GBP accounts, so no GBP balance can be projected. The known flows of the next 30 days net to -100.00 GBP.',
      details: { starting_balance: null, projected_low: null, projected_low_date: null, projected_end: null, shortfall: false, net_flow: '-100.00', accounts_without_balance: ['acc_4'] },
    })
  })

  it('flags a shortfall below the configured minimum balance', () => {
    const [eur] = run(ledger(), { minimumBalance: { EUR: '7000' } })
    expect(eur?.details).toMatchObject({ minimum_balance: '7000.00', projected_low: '6860.20', shortfall: true })
    expect(eur?.narrative).toBe(
      'EUR cash is projected to fall to 6,860.20 EUR on 2026-03-16, below the minimum of 7,000.00 EUR, within the next 30 days: from 12,500.00 EUR today to 8,410.23 EUR by 2026-04-10.',
    )
    // Exactly at the minimum is not below it.
    expect(run(ledger(), { minimumBalance: { EUR: '6860.2' } })[0]?.details.shortfall).toBe(false)
    expect(run(ledger(), { minimumBalance: { EUR: '6860.21' } })[0]?.details.shortfall).toBe(true)
  })

  it('counts the horizon boundary day and not the day after', () => {
    const at = (due: string, horizonDays: number) =>
      run(snapshot(today, { accounts: [account('acc_1')], balances: [balance('bal_1', 'acc_1', '100.00', today)], obligations: [obligation('obl_1', { amount: '30.00', due_date: due })] }), { horizonDays })[0]?.details
    expect(at('2026-03-18', 7)).toMatchObject({ horizon_end: '2026-03-18', projected_end: '70.00', payables_due: '30.00' })
    expect(at('2026-03-19', 7)).toMatchObject({ projected_end: '100.00', payables_due: '0.00' })
    expect(at('2026-03-11', 0)).toMatchObject({ horizon_end: '2026-03-11', projected_low: '70.00', projected_low_date: '2026-03-11', projected_end: '70.00' })
  })

  it('discounts receivables by the collection rate, truncated to the currency scale', () => {
    const base = (rate: string) =>
      run(
        snapshot(today, {
          accounts: [account('acc_1')],
          balances: [balance('bal_1', 'acc_1', '0', today)],
          invoices: [invoice('inv_1', { direction: 'receivable', amount_due: '33.33', due_date: '2026-03-20' })],
        }),
        { collectionRate: rate },
      )[0]?.details
    expect(base('0.9')).toMatchObject({ receivables_expected: '29.99', projected_end: '29.99', collection_rate: '0.9' })
    expect(base('1')).toMatchObject({ receivables_expected: '33.33', collection_rate: '1' })
    expect(base('0')).toMatchObject({ receivables_expected: '0.00' })
    // Not a rate from 0 to 1: the default.
    expect(base('1.5')).toMatchObject({ collection_rate: '0.9', receivables_expected: '29.99' })
    expect(base('-0.1')).toMatchObject({ collection_rate: '0.9' })
    expect(applyRate('33.33', '0.9', 'EUR')).toBe('29.99')
    expect(applyRate('-33.33', '0.9', 'EUR')).toBe('-29.99')
    expect(applyRate('1001', '0.333', 'JPY')).toBe('333')
    expect(applyRate('10', '0.5', 'USDC')).toBe('5')
  })

  it('leaves out disputed and draft receivables but counts disputed bills, and counts an undated bill on day 0 with less confidence', () => {
    const details = run(
      snapshot(today, {
        accounts: [account('acc_1')],
        balances: [balance('bal_1', 'acc_1', '1000.00', today)],
        invoices: [
          invoice('inv_1', { direction: 'receivable', status: 'disputed', amount_due: '10.00', due_date: '2026-03-20' }),
          invoice('inv_2', { direction: 'receivable', status: 'draft', amount_due: '20.00', due_date: '2026-03-20' }),
          invoice('inv_3', { status: 'disputed', amount_due: '40.00', due_date: '2026-03-20' }),
          invoice('inv_4', { status: 'cancelled', amount_due: '80.00', due_date: '2026-03-20' }),
        ],
        obligations: [obligation('obl_1', { amount: '5.00', due_date: null })],
      }),
    )[0]
    expect(details).toMatchObject({ confidence: 0.8, details: { payables_due: '45.00', receivables_expected: '0.00', projected_low: '955.00', projected_end: '955.00' } })
  })

  it('is less sure when a balance is stale or missing', () => {
    const stale = run(snapshot(today, { accounts: [account('acc_1')], balances: [balance('bal_1', 'acc_1', '100.00', '2026-03-03')] }))[0]
    expect(stale?.confidence).toBe(0.7)
    const fresh = run(snapshot(today, { accounts: [account('acc_1')], balances: [balance('bal_1', 'acc_1', '100.00', '2026-03-04')] }))[0]
    expect(fresh?.confidence).toBe(0.9)
    const partial = run(snapshot(today, { accounts: [account('acc_1'), account('acc_2')], balances: [balance('bal_1', 'acc_1', '100.00', today)] }))[0]
    expect(partial).toMatchObject({
      confidence: 0.6,
      narrative:
        'EUR cash is projected to stay above zero over the next 30 days: from 100.00 EUR today, lowest 100.00 EUR on 2026-03-11, 100.00 EUR by 2026-04-10. No balance is known for 1 of 2 EUR accounts; they are not counted.',
      details: { starting_balance: '100.00', accounts_without_balance: ['acc_2'] },
    })
  })

  it('adds the baseline daily net flow of unmatched posted transactions when asked', () => {
    const accounts = [account('acc_1'), account('acc_usd', { currency: 'USD' })]
    const transactions = [
      transaction('txn_1', 'acc_1', '900.00', '2026-02-01'),
      transaction('txn_2', 'acc_1', '-450.00', '2026-03-10'),
      transaction('txn_3', 'acc_1', '-1000.00', '2026-03-01', { reconciliation_status: 'matched' }),
      transaction('txn_4', 'acc_1', '-1000.00', '2026-03-01', { direction: 'transfer' }),
      transaction('txn_5', 'acc_1', '-1000.00', '2026-03-01', { status: 'pending' }),
      transaction('txn_6', 'acc_1', '-1000.00', '2026-03-11'),
      transaction('txn_7', 'acc_1', '-1000.00', '2025-12-10'),
      transaction('txn_8', 'acc_1', '-1000.00', '2026-03-01', { counterparty_id: 'cpy_landlord' }),
      transaction('txn_9', 'acc_usd', '-1000.00', '2026-03-01', { currency: 'USD' }),
      transaction('txn_10', 'acc_1', '-1000.00', '2025-12-11', { status: 'cleared' }),
    ]
    const ledgerWithHistory = snapshot(today, {
      accounts,
      balances: [balance('bal_1', 'acc_1', '1000.00', today)],
      transactions,
      obligations: [obligation('obl_rent', { type: 'rent', amount: '0.01', due_date: '2026-06-01', recurrence: 'yearly', counterparty_id: 'cpy_landlord' })],
    })
    // Off by default.
    expect(run(ledgerWithHistory)[0]?.details).toMatchObject({ baseline_daily_net: null, projected_end: '1000.00' })
    // 900.00 − 450.00 − 1,000.00 (txn_10, 90 days back) over 90 days: −6.111… → −6.11 a day, for 30 days after today.
    expect(run(ledgerWithHistory, { baselineDays: 90 })[0]?.details).toMatchObject({
      baseline_daily_net: '-6.11',
      baseline_transactions: 3,
      projected_low: '816.70',
      projected_low_date: '2026-04-10',
      projected_end: '816.70',
      net_flow: '-183.30',
    })
    expect(dailyAverage('450.00', 90, 'EUR')).toBe('5') // canonical; formatted where it is shown
    expect(dailyAverage('100', 90, 'EUR')).toBe('1.11')
    expect(dailyAverage('-100', 90, 'JPY')).toBe('-1')
  })

  it('keeps amounts exact where floats would not', () => {
    const details = run(
      snapshot(today, {
        accounts: [account('acc_1'), account('acc_2')],
        balances: [balance('bal_1', 'acc_1', '9007199254740993.10', today), balance('bal_2', 'acc_2', '0.20', today)],
        obligations: [obligation('obl_1', { amount: '0.30', due_date: '2026-03-12' })],
      }),
    )[0]?.details
    expect(details).toMatchObject({ starting_balance: '9007199254740993.30', projected_end: '9007199254740993.00', projected_low: '9007199254740993.00' })
  })

  it('finds nothing without active bank accounts', () => {
    expect(run(snapshot(today))).toEqual([])
    expect(run(snapshot(today, { accounts: [account('acc_1', { status: 'closed' }), account('acc_2', { account_type: 'loan' })] }))).toEqual([])
  })

  it('is deterministic, whatever order the Ledger lists come in', () => {
    const base = ledger()
    const expected = run(base, { baselineDays: 90 })
    fc.assert(
      fc.property(shuffledSnapshot(base), (shuffled) => {
        expect(run(shuffled, { baselineDays: 90 })).toEqual(expected)
      }),
      { numRuns: 100 },
    )
  })

  it('declares itself', () => {
    expect(cashForecastProgram).toMatchObject({ agentKey: 'cash_forecast', version: '1', category: 'business', capabilities: ['forecast'] })
    expect(cashForecastProgram.defaultConfig).toMatchObject({ horizonDays: 30, collectionRate: '0.9', baselineDays: 0 })
  })
})
