/**
 * Hand-built Ledger snapshots for the first-party agent programs' tests: one set of builders, each writing
 * a plausible record and taking the fields a test cares about, and two sets of defaults the tests are
 * written against:
 * - `financeFixtures` (bill payment, collections, cash forecast): EUR, evidence rows `rpr_<id>`, a
 *   document-verified trusted vendor named by the test, `N-`/`R-` numbers, `transaction(id, account,
 *   amount, date)` described `Transaction <id>`;
 * - `opsFixtures` (reconciliation, subscriptions, fraud_anomaly, vendor_risk): USD, evidence rows
 *   `row_<id>`, an unverified unreviewed vendor, `INV-`/`REF-` numbers, `txn(id, date, amount)` described
 *   `Payment <id>` on account acc_1, and a snapshot with one USD checking account unless told otherwise.
 * Both snapshot builders list every record in id order, as the Ledger's read API gives it;
 * `shuffledSnapshot` puts each list in an order fast-check chooses (the programs must not depend on it).
 */
import fc from 'fast-check'
import type {
  LedgerAccountView,
  LedgerBalanceView,
  LedgerCounterpartyView,
  LedgerInvoiceView,
  LedgerObligationView,
  LedgerSnapshot,
  LedgerTransactionView,
} from './program.ts'

/** The defaults that differ between the two sets of tests. */
export interface LedgerFixtureDefaults {
  readonly currency: string
  /** Evidence rows are `<rowPrefix><id>`. */
  readonly rowPrefix: string
  /** Invoice numbers are `<invoiceNumberPrefix><id>`. */
  readonly invoiceNumberPrefix: string
  /** Obligation references are `<referencePrefix><id>`. */
  readonly referencePrefix: string
  readonly counterparty: Pick<LedgerCounterpartyView, 'verified_status' | 'trust_state' | 'created_at'>
  /** A transaction's description when the test gives none. */
  readonly transactionDescription: (id: string) => string
  /** A transaction's description_normalized when the test gives none, from its description. */
  readonly normalizedDescription: (description: string, id: string) => string
}

/** The record builders for one set of defaults. */
export function ledgerBuilders(defaults: LedgerFixtureDefaults) {
  const rows = (id: string): string[] => [`${defaults.rowPrefix}${id}`]

  const account = (id: string, fields: Partial<LedgerAccountView> = {}): LedgerAccountView => ({
    id,
    account_type: 'bank_checking',
    status: 'active',
    name: `Account ${id}`,
    currency: defaults.currency,
    evidence_ids: rows(id),
    ...fields,
  })

  const balance = (id: string, fields: Partial<LedgerBalanceView> = {}): LedgerBalanceView => ({
    id,
    account_id: 'acc_1',
    balance_type: 'closing',
    as_of: '2026-03-01',
    amount: '1000.00',
    currency: defaults.currency,
    evidence_ids: rows(id),
    ...fields,
  })

  /** A posted, unmatched transaction; `amount` is signed (negative leaves the account), direction follows its sign. */
  const transaction = (id: string, date: string, amount: string, fields: Partial<LedgerTransactionView> = {}): LedgerTransactionView => {
    const description = fields.description ?? defaults.transactionDescription(id)
    return {
      id,
      account_id: 'acc_1',
      amount,
      currency: defaults.currency,
      direction: amount.startsWith('-') ? 'outflow' : 'inflow',
      transaction_date: date,
      counterparty_id: null,
      category_id: null,
      status: 'posted',
      description,
      description_normalized: defaults.normalizedDescription(description, id),
      reconciliation_status: 'unmatched',
      evidence_ids: rows(id),
      ...fields,
    }
  }

  const counterparty = (id: string, fields: Partial<LedgerCounterpartyView> = {}): LedgerCounterpartyView => ({
    id,
    name: `Counterparty ${id}`,
    type: 'vendor',
    verified_status: defaults.counterparty.verified_status,
    risk_level: 'low',
    trust_state: defaults.counterparty.trust_state,
    linked_accounts: [],
    created_at: defaults.counterparty.created_at,
    evidence_ids: rows(id),
    ...fields,
  })

  const invoice = (id: string, fields: Partial<LedgerInvoiceView> = {}): LedgerInvoiceView => ({
    id,
    direction: 'payable',
    invoice_number: `${defaults.invoiceNumberPrefix}${id}`,
    issue_date: '2026-02-01',
    due_date: '2026-03-01',
    currency: defaults.currency,
    total: '100.00',
    amount_paid: '0.00',
    amount_due: '100.00',
    status: 'sent',
    counterparty_id: null,
    evidence_ids: rows(id),
    ...fields,
  })

  const obligation = (id: string, fields: Partial<LedgerObligationView> = {}): LedgerObligationView => ({
    id,
    type: 'bill',
    direction: 'payable',
    reference: `${defaults.referencePrefix}${id}`,
    description: null,
    amount: '100.00',
    currency: defaults.currency,
    due_date: '2026-03-01',
    recurrence: null,
    status: 'open',
    counterparty_id: null,
    invoice_id: null,
    outstanding: null,
    evidence_ids: rows(id),
    ...fields,
  })

  /** The obligation the Ledger writes for an invoice (merge.ts applyInvoice): its number, amount, due date and counterparty. */
  const invoiceObligation = (id: string, of: LedgerInvoiceView, fields: Partial<LedgerObligationView> = {}): LedgerObligationView =>
    obligation(id, {
      type: of.direction === 'payable' ? 'bill' : 'invoice',
      direction: of.direction,
      reference: of.invoice_number,
      description: `${of.direction === 'payable' ? 'Bill' : 'Invoice'} ${of.invoice_number}`,
      amount: of.total,
      currency: of.currency,
      due_date: of.due_date,
      status: of.status === 'paid' ? 'settled' : of.status === 'cancelled' ? 'cancelled' : 'open',
      counterparty_id: of.counterparty_id,
      invoice_id: of.id,
      outstanding: of.status === 'paid' ? '0' : of.amount_due,
      evidence_ids: of.evidence_ids,
      ...fields,
    })

  return { account, balance, transaction, counterparty, invoice, obligation, invoiceObligation }
}

function byId<T extends { readonly id: string }>(records: readonly T[] | undefined): T[] {
  return [...(records ?? [])].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}

/** A snapshot with every list in id order, as the Ledger's read API gives it. */
export function ledgerSnapshot(today: string, parts: Partial<Omit<LedgerSnapshot, 'today'>> = {}): LedgerSnapshot {
  return {
    today,
    accounts: byId(parts.accounts),
    balances: byId(parts.balances),
    transactions: byId(parts.transactions),
    counterparties: byId(parts.counterparties),
    invoices: byId(parts.invoices),
    obligations: byId(parts.obligations),
  }
}

/** The same snapshot with each of its lists in an order fast-check chooses (every order can come up). */
export function shuffledSnapshot(ledger: LedgerSnapshot): fc.Arbitrary<LedgerSnapshot> {
  const shuffle = <T>(list: readonly T[]): fc.Arbitrary<T[]> => fc.shuffledSubarray([...list], { minLength: list.length, maxLength: list.length })
  return fc
    .record({
      accounts: shuffle(ledger.accounts),
      balances: shuffle(ledger.balances),
      transactions: shuffle(ledger.transactions),
      counterparties: shuffle(ledger.counterparties),
      invoices: shuffle(ledger.invoices),
      obligations: shuffle(ledger.obligations),
    })
    .map((lists) => ({ today: ledger.today, ...lists }))
}

const finance = ledgerBuilders({
  currency: 'EUR',
  rowPrefix: 'rpr_',
  invoiceNumberPrefix: 'N-',
  referencePrefix: 'R-',
  counterparty: { verified_status: 'document_verified', trust_state: 'trusted', created_at: '2025-01-10T09:00:00Z' },
  transactionDescription: (id) => `Transaction ${id}`,
  normalizedDescription: (_description, id) => `transaction ${id}`,
})

/** Builders for the bill payment, collections and cash forecast tests. */
export const financeFixtures = {
  account: finance.account,
  balance: (id: string, accountId: string, amount: string, asOf: string, fields: Partial<LedgerBalanceView> = {}): LedgerBalanceView =>
    finance.balance(id, { account_id: accountId, as_of: asOf, amount, ...fields }),
  counterparty: (id: string, name: string, fields: Partial<LedgerCounterpartyView> = {}): LedgerCounterpartyView => finance.counterparty(id, { name, ...fields }),
  invoice: finance.invoice,
  obligation: finance.obligation,
  invoiceObligation: finance.invoiceObligation,
  transaction: (id: string, accountId: string, amount: string, date: string, fields: Partial<LedgerTransactionView> = {}): LedgerTransactionView =>
    finance.transaction(id, date, amount, { account_id: accountId, ...fields }),
  snapshot: ledgerSnapshot,
  shuffledSnapshot,
}

const ops = ledgerBuilders({
  currency: 'USD',
  rowPrefix: 'row_',
  invoiceNumberPrefix: 'INV-',
  referencePrefix: 'REF-',
  counterparty: { verified_status: 'unverified', trust_state: 'unreviewed', created_at: '2025-01-01T00:00:00Z' },
  transactionDescription: (id) => `Payment ${id}`,
  normalizedDescription: (description) => description.toUpperCase().replace(/[^A-Z0-9]+/g, ' ').trim(),
})

/** Builders for the reconciliation, subscriptions, fraud_anomaly and vendor_risk tests. */
export const opsFixtures = {
  account: ops.account,
  balance: ops.balance,
  /** A posted, unmatched transaction on acc_1; `amount` is signed (negative leaves the account), direction follows its sign. */
  txn: ops.transaction,
  counterparty: ops.counterparty,
  invoice: ops.invoice,
  obligation: ops.obligation,
  /** A snapshot with one USD checking account (acc_1) unless told otherwise. */
  snapshot: (fields: Partial<LedgerSnapshot> & { today: string }): LedgerSnapshot => ledgerSnapshot(fields.today, { ...fields, accounts: fields.accounts ?? [ops.account('acc_1')] }),
  shuffledSnapshot,
  /** Dates of a monthly series: the same day of month, `count` months ending with `last` (YYYY-MM-DD; day ≤ 28). */
  monthlyDates(last: string, count: number): string[] {
    const [year, month, day] = last.split('-').map(Number) as [number, number, number]
    const dates: string[] = []
    for (let back = count - 1; back >= 0; back -= 1) {
      const index = year * 12 + (month - 1) - back
      dates.push(`${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`)
    }
    return dates
  },
}
