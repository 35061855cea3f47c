import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { InvoiceRecord, ObligationRecord } from '../../../kernel/extracted-record.ts'
import type { Account, Counterparty, Evidence, Transaction, TransactionStatus } from './entities.ts'
import {
  accountDisplayName,
  aliasesMax,
  applyBalance,
  applyInvoice,
  applyObligation,
  categoryId,
  counterpartyDisplayName,
  invoicePayment,
  linkedAccountsOf,
  maskAccountNumber,
  mergeAccount,
  mergeCounterparty,
  mergeTransaction,
  newAccount,
  newCounterparty,
  newTransaction,
  ruleMergeConfidence,
  transactionDirection,
  sourcePaidOf,
} from './merge.ts'
import type { CounterpartyMention, TransactionFacts } from './records.ts'
import { contentHash } from './versions.ts'

const context = { tenantId: '00000000-0000-4000-8000-000000000001', at: new Date('2026-03-01T00:00:00Z') }
const row = (id: string, confidence = 0.95, rawArtifactId = 'raw_1'): Evidence => ({ id, rawArtifactId, confidence })

function facts(overrides: Partial<TransactionFacts> = {}): TransactionFacts {
  return {
    account: { iban: 'DE89370400440532013000' },
    externalId: undefined,
    pendingExternalId: undefined,
    amount: '-12.50',
    currency: 'EUR',
    transactionDate: '2026-03-10',
    postedDate: undefined,
    status: 'posted',
    description: 'COFFEE',
    descriptionNormalized: 'COFFEE',
    counterparty: undefined,
    category: undefined,
    details: undefined,
    chainId: undefined,
    ...overrides,
  }
}

const transaction = (overrides: Partial<TransactionFacts> = {}, counterpartyId?: string, evidence = row('prw_1')): Transaction =>
  newTransaction(context, 'txn_1', evidence, facts(overrides), 'acc_1', counterpartyId, 'outflow', { match: 'new', candidates: [] })

describe('display rules', () => {
  it.each([
    ['1234', '1234'],
    ['12-3456 789', '••••6789'],
    ['', ''],
  ])('masks account number %j as %j', (number, masked) => {
    expect(maskAccountNumber(number)).toBe(masked)
  })

  it.each([
    { ref: { name: '  Main  ' }, institution: undefined, name: 'Main' },
    { ref: { name: '   ', wallet_address: '0xABCDEF0123456789' }, institution: undefined, name: 'Wallet 0xabcdef01…' },
    { ref: { iban: 'DE89 3704 0044 0532 0130 00' }, institution: 'Bank', name: 'Bank account 3000' },
    { ref: { external_account_id: 'x' }, institution: '', name: 'account x' },
  ])('names account $ref as $name', ({ ref, institution, name }) => {
    expect(accountDisplayName(ref, institution)).toBe(name)
  })

  it.each([
    { ref: { name: ' Blue   Bottle ' }, name: 'Blue Bottle' },
    { ref: { wallet_address: ' 0xABC ' }, name: '0xabc' },
    { ref: { iban: 'gb29 nwbk' }, name: 'GB29NWBK' },
    { ref: { tax_id: 'T-1', account_number: '9' }, name: 'T-1' },
    { ref: {}, name: 'Unknown' },
  ])('names counterparty $ref as $name', ({ ref, name }) => {
    expect(counterpartyDisplayName(ref)).toBe(name)
  })

  it('lists the accounts a counterparty reference names', () => {
    expect(linkedAccountsOf({ iban: 'gb29 nwbk', wallet_address: '0xABC', account_number: '12 34-5', name: 'x' })).toEqual(['iban:GB29NWBK', 'wallet:0xabc', 'account:12345'])
    expect(linkedAccountsOf({ name: 'x' })).toEqual([])
  })

  it.each([
    ['Software & SaaS', 'software_saas'],
    ['  Café—Bar ', 'cafe_bar'],
    ['&&&', null],
    ['', null],
    [undefined, null],
  ])('slugs category %j as %j', (category, slug) => {
    expect(categoryId(category)).toBe(slug)
  })
})

describe('accounts', () => {
  const reference = { ref: { iban: 'DE89 3704 0044 0532 0130 00' }, currency: 'EUR', keys: ['iban:DE89370400440532013000'] }

  it('fills only what the account does not know, and cites the row only then', () => {
    const account = newAccount(context, 'acc_1', row('prw_1'), reference, undefined)
    expect(account).toMatchObject({ accountType: 'bank_checking', status: 'active', currency: 'EUR', iban: null, sourceIds: ['raw_1'], evidenceIds: ['prw_1'] })
    mergeAccount(account, reference.ref, undefined, row('prw_1'))
    expect(account.iban).toBe('DE89370400440532013000')
    // Named again by a transaction that adds nothing: no new evidence.
    mergeAccount(account, { iban: 'DE89370400440532013000', account_number: '1' }, undefined, row('prw_2', 0.9, 'raw_2'))
    expect(account).toMatchObject({ accountNumberMasked: '1', evidenceIds: ['prw_1', 'prw_2'] })
    const before = contentHash(account)
    mergeAccount(account, { iban: 'DE00 0000', account_number: '2', currency: 'USD' }, undefined, row('prw_3', 0.9, 'raw_3'))
    expect(contentHash(account)).toBe(before)
  })

  it('takes type, status, institution and name from an account record', () => {
    const account = newAccount(context, 'acc_1', row('prw_1'), { ref: { wallet_address: '0xAB', chain_id: 1 }, currency: undefined, keys: ['wallet:1:0xab'] }, undefined)
    expect(account).toMatchObject({ accountType: 'onchain', currency: 'XXX', name: 'Wallet 0xab…' })
    const record = { kind: 'account' as const, account: { wallet_address: '0xAB', name: ' Treasury ', currency: 'USDC' }, account_type: 'payment_processor' as const, status: 'frozen' as const, institution: 'Base' }
    mergeAccount(account, record.account, record, row('prw_2'))
    expect(account).toMatchObject({ accountType: 'payment_processor', status: 'frozen', institution: 'Base', name: 'Treasury', currency: 'USDC', chainId: null, walletAddress: '0xab', evidenceIds: ['prw_1', 'prw_2'] })
  })
})

describe('counterparties', () => {
  const mention = (overrides: Partial<CounterpartyMention> = {}): CounterpartyMention => ({ ref: { name: 'STARBUCKS' }, keys: ['name:STARBUCKS'], type: 'merchant', inferred: true, ...overrides })

  it('starts a guessed counterparty as inferred, with low confidence, unreviewed and of medium risk', () => {
    expect(newCounterparty(context, 'cpy_1', row('prw_1'), mention())).toMatchObject({
      provenance: 'inferred',
      confidence: 0.6,
      name: 'STARBUCKS',
      type: 'merchant',
      verifiedStatus: 'unverified',
      riskLevel: 'medium',
      trustState: 'unreviewed',
    })
    expect(newCounterparty(context, 'cpy_1', row('prw_1', 0.8), mention({ inferred: false }))).toMatchObject({ provenance: 'extracted', confidence: 0.8 })
  })

  it.each<{ name: string; again: Partial<CounterpartyMention>; changed: boolean; expected: Partial<Counterparty> }>([
    { name: 'seen again as known', again: {}, changed: false, expected: { aliases: ['STARBUCKS'] } },
    { name: 'a weaker type', again: { type: 'other' }, changed: false, expected: { type: 'merchant' } },
    { name: 'a new alias', again: { ref: { name: 'Starbucks Coffee' } }, changed: true, expected: { aliases: ['STARBUCKS', 'Starbucks Coffee'], provenance: 'inferred' } },
    { name: 'a linked account', again: { ref: { name: 'STARBUCKS', iban: 'gb29' } }, changed: true, expected: { linkedAccounts: ['iban:GB29'] } },
    { name: 'a stronger type', again: { type: 'vendor' }, changed: true, expected: { type: 'vendor' } },
    { name: 'named by a source', again: { inferred: false, ref: { name: 'Starbucks Corp' } }, changed: true, expected: { provenance: 'extracted', name: 'Starbucks Corp', confidence: 0.95 } },
  ])('$name', ({ again, changed, expected }) => {
    const draft = newCounterparty(context, 'cpy_1', row('prw_1'), mention())
    mergeCounterparty(draft, mention(), row('prw_1'))
    const before = contentHash(draft)
    mergeCounterparty(draft, mention(again), row('prw_2'))
    expect(contentHash(draft) !== before).toBe(changed)
    expect(draft.evidenceIds.includes('prw_2')).toBe(changed)
    expect(draft).toMatchObject(expected)
  })

  it(`keeps at most ${aliasesMax} aliases`, () => {
    const draft = newCounterparty(context, 'cpy_1', row('prw_1'), mention())
    for (let index = 0; index < aliasesMax + 5; index += 1) mergeCounterparty(draft, mention({ ref: { name: `Alias ${index}` } }), row(`prw_${index}`))
    expect(draft.aliases).toHaveLength(aliasesMax)
    expect(draft.aliases[0]).toBe('Alias 0')
  })
})

describe('transactions', () => {
  it.each([
    { amount: '5', own: undefined, direction: 'inflow' },
    { amount: '-5', own: undefined, direction: 'outflow' },
    { amount: '0', own: undefined, direction: 'adjustment' },
    { amount: '-5', own: 'acc_2', direction: 'transfer' },
    { amount: '-5', own: 'acc_1', direction: 'outflow' },
  ])('$amount with own account $own: $direction', ({ amount, own, direction }) => {
    expect(transactionDirection(amount, 'acc_1', own)).toBe(direction)
  })

  it('starts a transaction from its record', () => {
    expect(transaction({ status: 'pending', category: 'Food & Drink', details: { mcc: '5814' } }, 'cpy_1')).toMatchObject({
      provenance: 'extracted',
      postedDate: null,
      categoryId: 'food_drink',
      counterpartyId: 'cpy_1',
      metadata: { details: { mcc: '5814' }, category: 'Food & Drink', counterparty_inferred: true },
      reconciliationStatus: 'unmatched',
    })
    expect(transaction().postedDate).toBe('2026-03-10')
    expect(transaction({ postedDate: '2026-03-12' }).postedDate).toBe('2026-03-12')
    const ambiguous = newTransaction(context, 'txn_1', row('prw_1'), facts(), 'acc_1', undefined, 'outflow', { match: 'ambiguous', candidates: ['txn_a', 'txn_b'] })
    expect(ambiguous).toMatchObject({ provenance: 'ambiguous', metadata: { possible_duplicate_of: ['txn_a', 'txn_b'] } })
  })

  it.each<{ name: string; from: TransactionStatus; to: TransactionStatus; status: TransactionStatus; description: string }>([
    { name: 'pending → posted settles it with the posted description', from: 'pending', to: 'posted', status: 'posted', description: 'COFFEE POSTED' },
    { name: 'posted → cleared keeps the description', from: 'posted', to: 'cleared', status: 'cleared', description: 'COFFEE' },
    { name: 'posted → pending changes nothing', from: 'posted', to: 'pending', status: 'posted', description: 'COFFEE' },
    { name: 'reversed → disputed (same rank) changes nothing', from: 'reversed', to: 'disputed', status: 'reversed', description: 'COFFEE' },
  ])('status: $name', ({ from, to, status, description }) => {
    const draft = transaction({ status: from })
    mergeTransaction(draft, facts({ status: to, description: 'COFFEE POSTED', descriptionNormalized: 'COFFEE POSTED', externalId: 'FIT-1', postedDate: '2026-03-11' }), row('prw_2'), undefined, 'key')
    expect(draft).toMatchObject({ status, description, externalTransactionId: 'FIT-1' })
    if (from === 'pending') expect(draft.postedDate).toBe('2026-03-11')
  })

  it('caps a merge by rule at 0.9, and keeps it capped however its sources are found again', () => {
    const draft = transaction({ status: 'pending' })
    mergeTransaction(draft, facts(), row('prw_2', 0.99, 'raw_2'), undefined, 'pending')
    expect(draft).toMatchObject({ provenance: 'inferred', confidence: ruleMergeConfidence, metadata: { merged_by: ['pending_to_posted'] }, sourceIds: ['raw_1', 'raw_2'] })
    mergeTransaction(draft, facts(), row('prw_3', 1, 'raw_3'), undefined, 'key')
    expect(draft.confidence).toBe(ruleMergeConfidence)
    mergeTransaction(draft, facts(), row('prw_4', 1, 'raw_4'), undefined, 'fuzzy')
    expect(draft.metadata).toMatchObject({ merged_by: ['pending_to_posted', 'cross_source_match'] })
  })

  it('keeps a member-confirmed provenance through a merge by rule', () => {
    const draft = transaction()
    draft.provenance = 'human_confirmed'
    mergeTransaction(draft, facts(), row('prw_2'), undefined, 'fuzzy')
    expect(draft.provenance).toBe('human_confirmed')
  })

  it.each<{ name: string; first: string | undefined; named: boolean; again: string | undefined; expected: string | null; inferredMark: boolean }>([
    { name: 'a guess replaced by a named counterparty', first: 'cpy_guess', named: false, again: 'cpy_named', expected: 'cpy_named', inferredMark: false },
    { name: 'a named counterparty kept over a later guess', first: 'cpy_named', named: true, again: 'cpy_guess', expected: 'cpy_named', inferredMark: false },
    { name: 'a guess kept over another guess', first: 'cpy_guess', named: false, again: 'cpy_other', expected: 'cpy_guess', inferredMark: true },
    { name: 'none, then a guess', first: undefined, named: false, again: 'cpy_guess', expected: 'cpy_guess', inferredMark: false },
  ])('counterparty: $name', ({ first, named, again, expected, inferredMark }) => {
    const draft = transaction(named ? { counterparty: { name: 'Named' } } : {}, first)
    const namesAgain = again === 'cpy_named'
    mergeTransaction(draft, facts(namesAgain ? { counterparty: { name: 'Named' } } : {}), row('prw_2'), again, 'key')
    expect(draft.counterpartyId).toBe(expected)
    expect((draft.metadata as Record<string, unknown>).counterparty_inferred === true).toBe(inferredMark)
  })

  it('changes nothing when the same record is applied again (normalizing twice writes nothing)', () => {
    const statuses: TransactionStatus[] = ['pending', 'posted', 'cleared', 'reversed']
    const record = fc.record({
      status: fc.constantFrom(...statuses),
      externalId: fc.constantFrom(undefined, 'FIT-1', 'FIT-2'),
      category: fc.constantFrom(undefined, 'Food'),
      counterpartyId: fc.constantFrom(undefined, 'cpy_1', 'cpy_2'),
      named: fc.boolean(),
      match: fc.constantFrom('key' as const, 'pending' as const, 'fuzzy' as const),
      confidence: fc.double({ min: 0, max: 1, noNaN: true }),
      artifact: fc.constantFrom('raw_1', 'raw_2'),
    })
    fc.assert(
      fc.property(fc.array(record, { minLength: 1, maxLength: 8 }), (records) => {
        const draft = transaction({ status: 'pending' })
        records.forEach((item, index) => {
          const itemFacts = facts({ status: item.status, externalId: item.externalId, category: item.category, ...(item.named ? { counterparty: { name: 'N' } } : {}) })
          const evidence = row(`prw_${index}`, item.confidence, item.artifact)
          mergeTransaction(draft, itemFacts, evidence, item.counterpartyId, item.match)
          const once = contentHash(draft)
          mergeTransaction(draft, itemFacts, evidence, item.counterpartyId, item.match)
          expect(contentHash(draft)).toBe(once)
        })
      }),
      { numRuns: 300 },
    )
  })
})

describe('balances', () => {
  const record = { kind: 'balance' as const, account: { iban: 'x' }, balance_type: 'closing' as const, as_of: '2026-03-31', amount: '100.5', currency: 'EUR' }

  it('records a stated balance, and a later statement with another figure corrects it', () => {
    const balance = applyBalance(undefined, context, 'bal_1', row('prw_1', 0.9), record, 'acc_1')
    expect(balance).toMatchObject({ id: 'bal_1', accountId: 'acc_1', amount: '100.50', currency: 'EUR', confidence: 0.9, evidenceIds: ['prw_1'] })
    expect(applyBalance(balance, context, 'bal_1', row('prw_2', 0.7), record, 'acc_1')).toBe(balance)
    expect(balance).toMatchObject({ amount: '100.50', confidence: 0.9, evidenceIds: ['prw_1', 'prw_2'] })
    applyBalance(balance, context, 'bal_1', row('prw_3', 0.8), { ...record, amount: '99' }, 'acc_1')
    expect(balance).toMatchObject({ amount: '99.00', confidence: 0.8, provenance: 'extracted' })
  })
})

describe('invoices', () => {
  const invoice = (overrides: Partial<InvoiceRecord> = {}): InvoiceRecord => ({
    kind: 'invoice',
    direction: 'payable',
    invoice_number: ' INV-7 ',
    currency: 'EUR',
    total: '100',
    counterparty: { name: 'Acme' },
    ...overrides,
  })

  it.each<{ name: string; record: Partial<InvoiceRecord>; known: string | undefined; amountPaid: string; status: string; outstanding: string }>([
    { name: 'sent, nothing paid', record: { status: 'sent' }, known: undefined, amountPaid: '0.00', status: 'sent', outstanding: '100' },
    { name: 'no status', record: {}, known: undefined, amountPaid: '0.00', status: 'sent', outstanding: '100' },
    { name: 'marked paid without an amount: paid in full', record: { status: 'paid' }, known: undefined, amountPaid: '100.00', status: 'paid', outstanding: '0' },
    { name: 'partly paid', record: { amount_paid: '40' }, known: undefined, amountPaid: '40.00', status: 'partial', outstanding: '60' },
    { name: "marked partial but nothing paid: the source's word does not make it partial", record: { status: 'partial' }, known: undefined, amountPaid: '0.00', status: 'sent', outstanding: '100' },
    { name: 'an older copy does not undo a payment', record: { amount_paid: '10', status: 'sent' }, known: '40.00', amountPaid: '40.00', status: 'partial', outstanding: '60' },
    { name: 'overpaid', record: { amount_paid: '120' }, known: undefined, amountPaid: '120.00', status: 'paid', outstanding: '-20' },
    { name: 'cancelled stays cancelled, paid or not', record: { status: 'cancelled', amount_paid: '100' }, known: undefined, amountPaid: '100.00', status: 'cancelled', outstanding: '0' },
    { name: 'disputed stays disputed', record: { status: 'disputed' }, known: undefined, amountPaid: '0.00', status: 'disputed', outstanding: '100' },
    { name: 'overdue stands while unpaid', record: { status: 'overdue' }, known: undefined, amountPaid: '0.00', status: 'overdue', outstanding: '100' },
  ])('payment: $name', ({ record, known, amountPaid, status, outstanding }) => {
    expect(invoicePayment(invoice(record), known)).toEqual({ total: '100.00', amountPaid, status, outstanding })
  })

  it('refuses a total that is not a decimal (a record that skipped validation)', () => {
    expect(() => invoicePayment(invoice({ total: 'a lot' }), undefined)).toThrow(TypeError)
  })

  it('never lowers the paid amount, whatever copies come in whatever order', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ paid: fc.option(fc.integer({ min: 0, max: 150 }), { nil: undefined }), status: fc.constantFrom(undefined, 'sent' as const, 'paid' as const) }), { minLength: 1, maxLength: 10 }), (copies) => {
        let known: string | undefined
        for (const copy of copies) {
          const { amountPaid } = invoicePayment(invoice({ amount_paid: copy.paid === undefined ? undefined : String(copy.paid), status: copy.status }), known)
          if (known !== undefined) expect(Number(amountPaid)).toBeGreaterThanOrEqual(Number(known))
          known = amountPaid
        }
      }),
    )
  })

  it("records on the obligation what the sources said was paid, the most any copy said, for reconciliation's base (payments.ts)", () => {
    const ids = { invoiceId: 'inv_1', obligationId: 'obl_1' }
    const unpaid = applyInvoice(undefined, undefined, context, ids, row('prw_1'), invoice({}), undefined)
    expect(unpaid.obligation.metadata).not.toHaveProperty('source_paid')
    expect(sourcePaidOf(unpaid.obligation)).toBe('0')
    const part = applyInvoice(undefined, undefined, context, ids, row('prw_1'), invoice({ amount_paid: '40' }), undefined)
    expect(part.obligation.metadata).toMatchObject({ source_paid: '40.00', outstanding: '60.00' })
    const older = applyInvoice(part.invoice, part.obligation, context, ids, row('prw_2'), invoice({ amount_paid: '10' }), undefined)
    expect(sourcePaidOf(older.obligation)).toBe('40.00')
    const newer = applyInvoice(older.invoice, older.obligation, context, ids, row('prw_3'), invoice({ amount_paid: '55' }), undefined)
    expect(sourcePaidOf(newer.obligation)).toBe('55.00')
  })

  it('makes every invoice an obligation that follows it', () => {
    const ids = { invoiceId: 'inv_1', obligationId: 'obl_1' }
    const first = applyInvoice(undefined, undefined, context, ids, row('prw_1'), invoice({ amount_paid: '40', due_date: '2026-04-01', line_items: [{ description: 'x' }] }), 'cpy_1')
    expect(first.invoice).toMatchObject({ id: 'inv_1', invoiceNumber: 'INV-7', status: 'partial', amountPaid: '40.00', counterpartyId: 'cpy_1', metadata: { scenario: 'ap', line_items: [{ description: 'x' }] } })
    expect(first.obligation).toMatchObject({ id: 'obl_1', obligationType: 'bill', reference: 'INV-7', description: 'Bill INV-7', status: 'open', invoiceId: 'inv_1', metadata: { scenario: 'ap', outstanding: '60.00' } })
    const paid = applyInvoice(first.invoice, first.obligation, context, ids, row('prw_2', 0.7), invoice({ status: 'paid', direction: 'payable' }), undefined)
    expect(paid.invoice).toBe(first.invoice)
    expect(paid.invoice).toMatchObject({ status: 'paid', amountPaid: '100.00', confidence: 0.7, counterpartyId: null, evidenceIds: ['prw_1', 'prw_2'] })
    expect(paid.obligation).toMatchObject({ status: 'settled', metadata: { outstanding: '0' }, evidenceIds: ['prw_1', 'prw_2'] })
    const overpaid = applyInvoice(undefined, undefined, context, ids, row('prw_4'), invoice({ amount_paid: '120' }), undefined)
    expect(overpaid.obligation).toMatchObject({ status: 'settled', metadata: { outstanding: '0' } })
    const receivable = applyInvoice(undefined, undefined, context, ids, row('prw_3'), invoice({ direction: 'receivable', status: 'cancelled' }), undefined)
    expect(receivable.obligation).toMatchObject({ obligationType: 'invoice', description: 'Invoice INV-7', status: 'cancelled', metadata: { scenario: 'ar' } })
  })
})

describe('obligations', () => {
  const record = (overrides: Partial<ObligationRecord> = {}): ObligationRecord => ({
    kind: 'obligation',
    obligation_type: 'subscription',
    direction: 'payable',
    reference: 'SUB-1',
    amount: '9.9',
    currency: 'EUR',
    recurrence: 'monthly',
    ...overrides,
  })

  it('takes a later source\'s terms but keeps its status and its invoice', () => {
    const obligation = applyObligation(undefined, context, 'obl_1', row('prw_1'), record(), 'cpy_1', 'inv_1')
    expect(obligation).toMatchObject({ status: 'open', amount: '9.90', recurrence: 'monthly', invoiceId: 'inv_1', metadata: { scenario: 'ap' } })
    obligation.status = 'settled'
    expect(applyObligation(obligation, context, 'obl_1', row('prw_2', 0.5), record({ amount: '12', recurrence: undefined }), undefined, null)).toBe(obligation)
    expect(obligation).toMatchObject({ status: 'settled', amount: '12.00', recurrence: null, invoiceId: 'inv_1', counterpartyId: null, confidence: 0.5 })
    expect(applyObligation(undefined, context, 'obl_2', row('prw_3'), record({ direction: null }), undefined, null).metadata).toEqual({})
  })
})

describe('first drafts', () => {
  it('carry the bookkeeping of a version not yet written', () => {
    const account: Account = newAccount(context, 'acc_1', row('prw_1', 0.7), { ref: { name: 'Main' }, currency: 'EUR', keys: ['name:MAIN:EUR'] }, undefined)
    expect(account).toMatchObject({ versionId: '', version: 0, supersedes: null, tenantId: context.tenantId, createdAt: context.at, updatedAt: context.at, supersededAt: null, confidence: 0.7, provenance: 'extracted' })
  })
})
