/**
 * Reconciliation: invoice ↔ payment (full and partial), receipt ↔ charge, statement balances, wallet
 * transfers between own wallets, subscription charges, possible duplicates; determinism (a second run
 * writes nothing); the job route; consequences on transactions, invoices and obligations.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../../../src/platform/db/database.ts'
import { auditEvents } from '../../support/audit-log.ts'
import { addMember, createTestApp, expectError, signupOwner, type TenantOwner, type TestApp } from '../../support/harness.ts'
import { bankTransaction, getOk, normalize, normalizerActor, seedArtifact } from '../../support/ledger.ts'

let test: TestApp
beforeAll(async () => {
  test = await createTestApp()
})
afterAll(async () => test?.close())

const get = (owner: TenantOwner, url: string) => getOk(test, owner.token, url)
const reconcile = (tenantId: string) => test.runtime.ledger.reconcile(tenantId, { actor: normalizerActor })

async function seedAndNormalize(owner: TenantOwner, records: Parameters<typeof seedArtifact>[2], sourceType?: 'pdf_upload' | 'chain_indexer_wallet') {
  const seeded = await seedArtifact(test, owner.tenantId, records, sourceType === undefined ? {} : { sourceType })
  await normalize(test, owner.tenantId, seeded.artifactId)
  return seeded
}

const matchesOf = async (owner: TenantOwner, query = '') => (await get(owner, `/v1/ledger/reconciliation-matches?limit=500${query}`)).matches as Array<Record<string, any>>


describe('invoices and their payments', () => {
  it('matches a receivable paid in full and a bill paid in two parts, and updates them', async () => {
    const owner = await signupOwner(test)
    await seedAndNormalize(
      owner,
      [
        { kind: 'invoice', direction: 'receivable', invoice_number: 'INV-1001', issue_date: '2026-03-01', due_date: '2026-03-31', currency: 'EUR', total: '1200', counterparty: { name: 'Northwind Traders' } },
        { kind: 'invoice', direction: 'payable', invoice_number: 'BILL-88', issue_date: '2026-03-02', due_date: '2026-03-20', currency: 'EUR', total: '300', counterparty: { name: 'Paper Supply Co' } },
      ],
      'pdf_upload',
    )
    await seedAndNormalize(owner, [
      bankTransaction({ amount: '1200.00', transaction_date: '2026-03-25', description: 'SEPA CREDIT NORTHWIND TRADERS', counterparty: { name: 'Northwind Traders Ltd' } }),
      bankTransaction({ amount: '-100.00', transaction_date: '2026-03-10', description: 'TRANSFER PAPER SUPPLY BILL-88 PART 1' }),
      bankTransaction({ amount: '-200.00', transaction_date: '2026-03-18', description: 'TRANSFER PAPER SUPPLY BILL 88 REST' }),
      bankTransaction({ amount: '-300.00', transaction_date: '2026-03-19', description: 'UNRELATED SUPPLIER' }),
    ])
    const response = await test.request({ method: 'POST', url: '/v1/ledger/reconcile', token: owner.token })
    expectError(response, 'auth_scope_insufficient') // owners hold no ledger:write (spec owner list)
    const admin = await addMember(test, owner, 'admin')
    const queued = await test.request({ method: 'POST', url: '/v1/ledger/reconcile', token: admin.token })
    expect(queued.statusCode, queued.body).toBe(202)
    expect(queued.json()).toMatchObject({ job_id: expect.stringMatching(/^ljb_/), kind: 'reconcile', status: 'queued' })

    const summary = await reconcile(owner.tenantId)
    expect(summary.matches).toMatchObject({ 'invoice_payment:matched': 2, 'invoice_payment:partially_matched': 1 })

    const payments = await matchesOf(owner, '&match_type=invoice_payment')
    expect(payments).toHaveLength(3)
    const invoices = [...(await get(owner, '/v1/ledger/invoices')).invoices, ...(await get(owner, '/v1/ledger/invoices?direction=payable')).invoices]
    expect(invoices.find((row: any) => row.invoice_number === 'INV-1001')).toMatchObject({ status: 'paid', amount_paid: '1200.00', amount_due: '0.00', version: 2 })
    expect(invoices.find((row: any) => row.invoice_number === 'BILL-88')).toMatchObject({ status: 'paid', amount_paid: '300.00' })
    const obligations = (await get(owner, '/v1/ledger/obligations')).obligations as Array<Record<string, any>>
    expect(obligations.every((row) => row.status === 'settled')).toBe(true)
    const transactions = (await get(owner, '/v1/ledger/transactions')).transactions as Array<Record<string, any>>
    expect(transactions.find((row) => row.description === 'UNRELATED SUPPLIER')).toMatchObject({ reconciliation_status: 'unmatched' })
    expect(transactions.filter((row) => row.reconciliation_status === 'matched')).toHaveLength(2)
    expect(transactions.find((row) => row.amount === '-100.00')).toMatchObject({ reconciliation_status: 'partially_matched' })

    // Deterministic: a second run finds the same matches and writes nothing.
    const again = await reconcile(owner.tenantId)
    expect(Object.values(again.counts).every((tally) => tally.created === 0 && tally.updated === 0)).toBe(true)
    expect(await matchesOf(owner, '&match_type=invoice_payment')).toEqual(payments)

    // Filter by subject.
    const paid = transactions.find((row) => row.amount === '1200.00')!
    expect((await matchesOf(owner, `&subject=transaction:${paid.id}`)).map((row) => row.match_type)).toEqual(['invoice_payment'])
  })
})

describe("an obligation's payments, decided as one set (issue 15, item 4)", () => {
  const bill = { kind: 'invoice', direction: 'payable', invoice_number: 'JF-2026-004', issue_date: '2026-02-01', due_date: '2026-03-01', currency: 'EUR', total: '3413.30', counterparty: { name: 'Jansen Fabriek' } } as const
  const parts = [
    bankTransaction({ amount: '-1500.00', transaction_date: '2026-02-10', description: 'JANSEN FABRIEK JF-2026-004 DEEL 1' }),
    bankTransaction({ amount: '-1913.30', transaction_date: '2026-03-03', description: 'JANSEN FABRIEK JF-2026-004 REST' }),
  ]

  /** The tenant's Ledger as far as payments go, named by description rather than by id. */
  async function paymentsView(owner: TenantOwner) {
    const transactions = (await get(owner, '/v1/ledger/transactions?limit=500')).transactions as Array<Record<string, any>>
    const described = new Map(transactions.map((row) => [`transaction:${row.id}`, row.description as string]))
    const matches = (await matchesOf(owner, '&match_type=invoice_payment')).map((match) => ({
      status: match.status,
      amount: match.amount,
      difference: match.difference,
      explanation: match.explanation,
      paid_by: match.subject_refs.filter((subject: string) => subject.startsWith('transaction:')).map((subject: string) => described.get(subject)),
    }))
    const invoice = ((await get(owner, '/v1/ledger/invoices?direction=payable')).invoices as Array<Record<string, any>>).map((row) => ({ status: row.status, amount_paid: row.amount_paid }))
    const obligations = ((await get(owner, '/v1/ledger/obligations')).obligations as Array<Record<string, any>>).map((row) => ({ status: row.status, outstanding: row.metadata.outstanding }))
    return {
      matches: matches.sort((left, right) => String(left.paid_by).localeCompare(String(right.paid_by))),
      transactions: transactions.map((row) => ({ description: row.description, reconciliation_status: row.reconciliation_status })).sort((left, right) => left.description.localeCompare(right.description)),
      invoice,
      obligations,
    }
  }

  it('gives the same matches, statuses and amounts whichever part payment is normalized and reconciled first', async () => {
    const views = []
    for (const order of [[0, 1], [1, 0]]) {
      const owner = await signupOwner(test)
      await seedAndNormalize(owner, [bill], 'pdf_upload')
      for (const index of order) {
        await seedAndNormalize(owner, [parts[index]!])
        await reconcile(owner.tenantId)
      }
      views.push(await paymentsView(owner))
    }
    expect(views[1]).toEqual(views[0])
    expect(views[0]).toMatchObject({
      matches: [
        { status: 'partially_matched', amount: '1500.00', difference: '1913.30', paid_by: ['JANSEN FABRIEK JF-2026-004 DEEL 1'] },
        { status: 'matched', amount: '1913.30', difference: '0.00', paid_by: ['JANSEN FABRIEK JF-2026-004 REST'] },
      ],
      transactions: [
        { description: 'JANSEN FABRIEK JF-2026-004 DEEL 1', reconciliation_status: 'partially_matched' },
        { description: 'JANSEN FABRIEK JF-2026-004 REST', reconciliation_status: 'matched' },
      ],
      invoice: [{ status: 'paid', amount_paid: '3413.30' }],
      obligations: [{ status: 'settled', outstanding: '0' }],
    })
  })

  it('retires a part payment when a payment of the whole amount arrives, and the part payment is unmatched again', async () => {
    const owner = await signupOwner(test)
    await seedAndNormalize(owner, [bill], 'pdf_upload')
    await seedAndNormalize(owner, [parts[0]!])
    await reconcile(owner.tenantId)
    expect(await paymentsView(owner)).toMatchObject({ matches: [{ status: 'partially_matched' }], obligations: [{ status: 'open', outstanding: '1913.30' }], invoice: [{ status: 'partial', amount_paid: '1500.00' }] })

    await seedAndNormalize(owner, [bankTransaction({ amount: '-3413.30', transaction_date: '2026-02-28', description: 'JANSEN FABRIEK SEPA' })])
    const summary = await reconcile(owner.tenantId)
    expect(summary.retired).toBe(1)
    const view = await paymentsView(owner)
    expect(view.matches).toEqual([{ status: 'matched', amount: '3413.30', difference: '0.00', explanation: expect.stringContaining('in full'), paid_by: ['JANSEN FABRIEK SEPA'] }])
    expect(view.transactions).toEqual([
      { description: 'JANSEN FABRIEK JF-2026-004 DEEL 1', reconciliation_status: 'unmatched' },
      { description: 'JANSEN FABRIEK SEPA', reconciliation_status: 'matched' },
    ])
    expect(view.obligations).toEqual([{ status: 'settled', outstanding: '0' }])
    // The retired match is history: its versions stay, superseded.
    const [retired] = await queryRows<{ status: string; superseded: boolean }>(
      test.runtime.db.orm,
      sql`select status, superseded_at is not null as superseded from ledger_reconciliation_matches where tenant_id = ${owner.tenantId} and amount = 1500 order by version desc limit 1`,
    )
    expect(retired).toEqual({ status: 'partially_matched', superseded: true })
  })

  it('decides payments against what the source did not already record as paid', async () => {
    const owner = await signupOwner(test)
    await seedAndNormalize(owner, [{ ...bill, amount_paid: '1500.00' }], 'pdf_upload')
    await seedAndNormalize(owner, [parts[1]!])
    await reconcile(owner.tenantId)
    expect(await paymentsView(owner)).toMatchObject({
      matches: [{ status: 'matched', amount: '1913.30', difference: '0.00', explanation: expect.stringContaining('in full') }],
      invoice: [{ status: 'paid', amount_paid: '3413.30' }],
      obligations: [{ status: 'settled', outstanding: '0' }],
    })
  })
})

describe('transfers between own accounts (issue 15, item 4)', () => {
  const checking = { iban: 'DE84100900002847563019', name: 'Checking', currency: 'EUR' }
  const savings = { iban: 'DE62100900002847563027', name: 'Savings', currency: 'EUR' }

  it('records a transaction as a transfer once the account it names exists, as a new audited version, whichever file came first', async () => {
    const owner = await signupOwner(test)
    // Checking first: its reserve transfer names a savings IBAN no account has yet.
    await seedAndNormalize(owner, [
      bankTransaction({ account: checking, amount: '-1000.00', transaction_date: '2026-01-15', description: 'RESERVE JANUARY', counterparty: { name: 'Juniper Finch', iban: savings.iban } }),
      bankTransaction({ account: checking, amount: '-20.00', transaction_date: '2026-01-16', description: 'VENDOR', counterparty: { name: 'Vendor GmbH', iban: 'DE02120300000000202051' } }),
      bankTransaction({ account: checking, amount: '-5.00', transaction_date: '2026-01-17', description: 'OWN IBAN', counterparty: { name: 'Checking', iban: checking.iban } }),
    ])
    const before = (await get(owner, '/v1/ledger/transactions')).transactions as Array<Record<string, any>>
    const reserve = before.find((row) => row.description === 'RESERVE JANUARY')!
    expect(reserve).toMatchObject({ direction: 'outflow', version: 1 })
    // Then savings: its own row names checking (a transfer at once), and its account now exists.
    await seedAndNormalize(owner, [
      bankTransaction({ account: savings, amount: '1000.00', transaction_date: '2026-01-15', description: 'FROM CHECKING', counterparty: { name: 'Juniper Finch' } }),
      bankTransaction({ account: savings, amount: '-50.00', transaction_date: '2026-01-20', description: 'TO CHECKING', counterparty: { name: 'Juniper Finch', iban: checking.iban } }),
    ])
    expect((await get(owner, `/v1/ledger/transactions/${reserve.id}`)).direction).toBe('outflow')

    const summary = await reconcile(owner.tenantId)
    expect(summary.transfers).toBe(1)
    const after = (await get(owner, '/v1/ledger/transactions')).transactions as Array<Record<string, any>>
    const directions = Object.fromEntries(after.map((row) => [row.description, row.direction]))
    expect(directions).toEqual({ 'RESERVE JANUARY': 'transfer', VENDOR: 'outflow', 'OWN IBAN': 'outflow', 'FROM CHECKING': 'inflow', 'TO CHECKING': 'transfer' })
    // A new version of an immutable Ledger: the old one is still what was known before.
    const reclassified = await get(owner, `/v1/ledger/transactions/${reserve.id}`)
    expect(reclassified).toMatchObject({ direction: 'transfer', version: 2, supersedes: reserve.version_id })
    expect((await get(owner, `/v1/ledger/transactions/${reserve.id}?as_of=${encodeURIComponent(reserve.updated_at)}`)).direction).toBe('outflow')
    const [reconciled] = await auditEvents(test, owner.tenantId, { action: 'ledger.reconciled' })
    expect(reconciled?.outputs).toMatchObject({ transfers_recognized: 1, transaction_updated: 1 })

    // Settled: a second run finds nothing more and writes nothing.
    const again = await reconcile(owner.tenantId)
    expect(again.transfers).toBe(0)
    expect(Object.values(again.counts).every((tally) => tally.created === 0 && tally.updated === 0)).toBe(true)
  })

  it('gives the same directions when the savings file comes first', async () => {
    const owner = await signupOwner(test)
    await seedAndNormalize(owner, [bankTransaction({ account: savings, amount: '1000.00', transaction_date: '2026-01-15', description: 'FROM CHECKING', counterparty: { name: 'Juniper Finch' } })])
    await seedAndNormalize(owner, [
      bankTransaction({ account: checking, amount: '-1000.00', transaction_date: '2026-01-15', description: 'RESERVE JANUARY', counterparty: { name: 'Juniper Finch', iban: savings.iban } }),
    ])
    expect((await reconcile(owner.tenantId)).transfers).toBe(0)
    const rows = (await get(owner, '/v1/ledger/transactions')).transactions as Array<Record<string, any>>
    expect(Object.fromEntries(rows.map((row) => [row.description, `${row.direction} v${row.version}`]))).toEqual({ 'RESERVE JANUARY': 'transfer v1', 'FROM CHECKING': 'inflow v1' })
  })

  it('finds a transfer to an own wallet on the transfer\'s chain once that wallet is an account', async () => {
    const owner = await signupOwner(test)
    const treasury = '0xaaaa000000000000000000000000000000000001'
    const reserve = '0xbbbb000000000000000000000000000000000002'
    const transfer = (wallet: string, amount: string, logIndex: number) => ({
      kind: 'wallet_transfer' as const,
      account: { wallet_address: wallet },
      chain_id: 8453,
      tx_hash: `0x${String(logIndex).repeat(64)}`,
      log_index: logIndex,
      block_number: 10,
      timestamp: '2026-06-02T00:00:00Z',
      from: treasury,
      to: reserve,
      token: 'USDC',
      amount,
    })
    await seedAndNormalize(owner, [transfer(treasury, '-500', 1)], 'chain_indexer_wallet')
    expect(((await get(owner, '/v1/ledger/transactions')).transactions as Array<Record<string, any>>)[0]).toMatchObject({ direction: 'outflow' })
    await seedAndNormalize(owner, [{ kind: 'account', account: { wallet_address: reserve, chain_id: 8453, name: 'Reserve' }, account_type: 'onchain' }], 'chain_indexer_wallet')
    expect((await reconcile(owner.tenantId)).transfers).toBe(1)
    expect(((await get(owner, '/v1/ledger/transactions')).transactions as Array<Record<string, any>>)[0]).toMatchObject({ direction: 'transfer', version: 2 })
  })
})

describe('statement balances', () => {
  it('agrees when opening + movements = closing, and reports the difference when not', async () => {
    const owner = await signupOwner(test)
    const account = { iban: 'GB33BUKB20201555555555', name: 'Main', currency: 'GBP' }
    await seedAndNormalize(owner, [
      { kind: 'balance', account, balance_type: 'opening', as_of: '2026-01-01', amount: '100.00', currency: 'GBP' },
      bankTransaction({ account, currency: 'GBP', amount: '-30.00', transaction_date: '2026-01-01', description: 'A' }),
      bankTransaction({ account, currency: 'GBP', amount: '50.00', transaction_date: '2026-01-15', description: 'B' }),
      bankTransaction({ account, currency: 'GBP', amount: '-5.00', transaction_date: '2026-01-20', description: 'C PENDING', status: 'pending' }),
      { kind: 'balance', account, balance_type: 'closing', as_of: '2026-01-31', amount: '120.00', currency: 'GBP' },
      bankTransaction({ account, currency: 'GBP', amount: '-20.00', transaction_date: '2026-02-03', description: 'D' }),
      // February's closing balance misses a 1.00 fee nobody has imported.
      { kind: 'balance', account, balance_type: 'closing', as_of: '2026-02-28', amount: '99.00', currency: 'GBP' },
    ])
    await reconcile(owner.tenantId)
    const matches = await matchesOf(owner, '&match_type=statement_balance')
    expect(matches.map((row) => [row.status, row.difference, row.metadata.period_from, row.metadata.period_to])).toEqual(
      expect.arrayContaining([
        ['matched', '0.00', '2026-01-01', '2026-01-31'],
        ['unmatched', '-1.00', '2026-02-01', '2026-02-28'],
      ]),
    )
    expect(matches.find((row) => row.status === 'unmatched')!.explanation).toContain('-1.00 unexplained')
  })

  it('checks the same periods whichever statement was normalized first, retiring a check whose period a later statement split', async () => {
    const account = { iban: 'GB94BARC10201530093459', name: 'Ops', currency: 'GBP' }
    const row = (amount: string, day: string, description: string) => bankTransaction({ account, currency: 'GBP', amount, transaction_date: day, description })
    const balance = (balanceType: 'opening' | 'closing', day: string, amount: string) => ({ kind: 'balance' as const, account, balance_type: balanceType, as_of: day, amount, currency: 'GBP' })
    // March, and an export from 16 March to 10 April that repeats March's second half (the sandbox's layout).
    const march = [balance('opening', '2026-03-02', '1000.00'), row('-100.00', '2026-03-05', 'RENT'), row('50.00', '2026-03-20', 'SALE 1'), balance('closing', '2026-03-31', '950.00')]
    const overlap = [balance('opening', '2026-03-16', '900.00'), row('50.00', '2026-03-20', 'SALE 1'), row('-30.00', '2026-04-07', 'FEES'), balance('closing', '2026-04-10', '920.00')]
    const periodsOf = async (owner: TenantOwner, asOf?: string) =>
      ((await matchesOf(owner, `&match_type=statement_balance${asOf === undefined ? '' : `&as_of=${encodeURIComponent(asOf)}`}`)) as Array<Record<string, any>>)
        .map((match) => `${match.metadata.period_from}..${match.metadata.period_to} ${match.status}`)
        .sort()

    const inOrder = await signupOwner(test)
    await seedAndNormalize(inOrder, march)
    await reconcile(inOrder.tenantId)
    await seedAndNormalize(inOrder, overlap)
    await reconcile(inOrder.tenantId)

    const reversed = await signupOwner(test)
    await seedAndNormalize(reversed, overlap)
    await reconcile(reversed.tenantId)
    // Alone, the export's opening reaches its own closing of 10 April.
    expect(await periodsOf(reversed)).toEqual(['2026-03-16..2026-04-10 matched'])
    const beforeMarch = new Date().toISOString()
    await seedAndNormalize(reversed, march)
    const summary = await reconcile(reversed.tenantId)
    // With March, 16 March reaches 31 March, and 10 April is checked against 31 March: that period is gone.
    expect(summary.retired).toBe(1)
    // Audited with the run's other writes.
    const audited = (await auditEvents(test, reversed.tenantId, { action: 'ledger.reconciled' })).at(-1)
    expect(audited!.outputs).toMatchObject({ reconciliation_match_retired: 1, reconciliation_match_created: 3 })

    const expected = ['2026-03-02..2026-03-31 matched', '2026-03-16..2026-03-31 matched', '2026-04-01..2026-04-10 matched']
    expect(await periodsOf(inOrder)).toEqual(expected)
    expect(await periodsOf(reversed)).toEqual(expected)
    // The retired check is history, not erased: a read as of before the second run still shows it.
    expect(await periodsOf(reversed, beforeMarch)).toEqual(['2026-03-16..2026-04-10 matched'])
    // And a further run changes nothing.
    const again = await reconcile(reversed.tenantId)
    expect([again.retired, again.counts.reconciliation_match?.created ?? 0, again.counts.reconciliation_match?.updated ?? 0]).toEqual([0, 0, 0])
  })
})

describe('wallets, subscriptions, receipts and duplicates', () => {
  it('pairs transfers between own wallets, charges of a subscription, a receipt with its charge, and flags possible duplicates', async () => {
    const owner = await signupOwner(test)
    const a = '0xaaaa000000000000000000000000000000000001'
    const b = '0xbbbb000000000000000000000000000000000002'
    const hash = `0x${'cd'.repeat(32)}`
    const transfer = (wallet: string, amount: string) => ({
      kind: 'wallet_transfer' as const,
      account: { wallet_address: wallet },
      chain_id: 8453,
      tx_hash: hash,
      log_index: 0,
      block_number: 10,
      timestamp: '2026-06-02T00:00:00Z',
      from: a,
      to: b,
      token: 'USDC',
      amount,
    })
    await seedAndNormalize(owner, [transfer(a, '-500'), transfer(b, '500')], 'chain_indexer_wallet')
    await seedAndNormalize(
      owner,
      [
        { kind: 'obligation', obligation_type: 'subscription', direction: 'payable', reference: 'sub-notion', amount: '16', currency: 'EUR', due_date: '2026-03-05', recurrence: 'monthly', counterparty: { name: 'Notion Labs Inc' } },
        { kind: 'invoice', direction: 'payable', invoice_number: 'R-5521', issue_date: '2026-04-10', currency: 'EUR', total: '42.90', status: 'paid', counterparty: { name: 'Office Depot' } },
      ],
      'pdf_upload',
    )
    await seedAndNormalize(owner, [
      bankTransaction({ amount: '-16.00', transaction_date: '2026-03-05', description: 'NOTION LABS INC SUBSCRIPTION' }),
      bankTransaction({ amount: '-16.00', transaction_date: '2026-04-05', description: 'NOTION LABS INC SUBSCRIPTION' }),
      bankTransaction({ amount: '-42.90', transaction_date: '2026-04-11', description: 'OFFICE DEPOT #1182' }),
      bankTransaction({ amount: '-7.00', transaction_date: '2026-04-12', description: 'KIOSK A' }),
      bankTransaction({ amount: '-7.00', transaction_date: '2026-04-12', description: 'KIOSK B' }),
    ])
    const provider = await seedArtifact(test, owner.tenantId, [bankTransaction({ amount: '-7.00', transaction_date: '2026-04-12', description: 'Newsstand', external_transaction_id: 'x1' })], {
      sourceType: 'bank_provider',
    })
    await normalize(test, owner.tenantId, provider.artifactId)
    await reconcile(owner.tenantId)

    const byType = (type: string) => matchesOf(owner, `&match_type=${type}`)
    expect(await byType('wallet_transfer')).toEqual([expect.objectContaining({ status: 'matched', amount: '500.000000', currency: 'USDC', metadata: { tx_hash: hash } })])
    expect(await byType('subscription_charge')).toHaveLength(2)
    expect(await byType('transaction_receipt')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ status: 'matched', amount: '42.90' }),
        expect.objectContaining({ status: 'duplicate_possible' }),
      ]),
    )
    const duplicates = (await byType('transaction_receipt')).filter((row) => row.status === 'duplicate_possible')
    expect(duplicates).toHaveLength(2)
    const transactions = (await get(owner, '/v1/ledger/transactions')).transactions as Array<Record<string, any>>
    expect(transactions.filter((row) => row.reconciliation_status === 'duplicate_possible')).toHaveLength(3)
    // A subscription stays open: it is charged again next month.
    expect((await get(owner, '/v1/ledger/obligations?type=subscription')).obligations[0]).toMatchObject({ status: 'open' })
  })

  it('pairs a card processor payout with the bank credit it becomes (card_charge)', async () => {
    const owner = await signupOwner(test)
    const processor = { external_account_id: 'acct_stripe_1', name: 'Stripe balance', currency: 'EUR' }
    await seedAndNormalize(owner, [
      { kind: 'account', account: processor, account_type: 'payment_processor' },
      bankTransaction({ account: processor, amount: '120.00', transaction_date: '2026-03-02', description: 'Charge ch_1' }),
      bankTransaction({ account: processor, amount: '-500.00', transaction_date: '2026-03-06', description: 'Payout po_1' }),
      bankTransaction({ account: processor, amount: '-75.00', transaction_date: '2026-03-13', description: 'Payout po_2' }),
    ])
    await seedAndNormalize(owner, [
      bankTransaction({ amount: '500.00', transaction_date: '2026-03-09', description: 'STRIPE PAYMENTS EUROPE PAYOUT' }),
      bankTransaction({ amount: '75.00', transaction_date: '2026-03-25', description: 'STRIPE PAYMENTS EUROPE PAYOUT (too late)' }),
    ])
    await reconcile(owner.tenantId)
    const payouts = await matchesOf(owner, '&match_type=card_charge')
    expect(payouts).toEqual([expect.objectContaining({ status: 'matched', amount: '500.00', currency: 'EUR', difference: '0.00' })])
  })

  it('flags two open obligations that look like one recorded twice', async () => {
    const owner = await signupOwner(test)
    await seedAndNormalize(
      owner,
      [
        { kind: 'obligation', obligation_type: 'bill', direction: 'payable', reference: 'EMAIL-INV-7', amount: '880', currency: 'EUR', due_date: '2026-05-10', counterparty: { name: 'Stark Logistics' } },
        { kind: 'obligation', obligation_type: 'bill', direction: 'payable', reference: 'ERP-0007', amount: '880', currency: 'EUR', due_date: '2026-05-12', counterparty: { name: 'Stark Logistics GmbH' } },
      ],
      'pdf_upload',
    )
    await reconcile(owner.tenantId)
    expect(await matchesOf(owner, '&match_type=obligation_duplicate')).toEqual([expect.objectContaining({ status: 'duplicate_possible', amount: '880.00' })])
  })
})
