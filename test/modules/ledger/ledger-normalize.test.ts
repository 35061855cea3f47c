/**
 * Normalization: parsed rows → Ledger, field by field; idempotence; the three no-double-counting rules
 * (overlapping statements, the same transaction from a file and a provider, pending re-issued as
 * posted); versions, as-of reads, events and audit. Parsed rows are seeded directly (support/ledger.ts);
 * raw-ledger-pipeline.test.ts runs the same through ingest and the real parsers.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../../../src/platform/db/database.ts'
import { auditEvents } from '../../support/audit-log.ts'
import { createTestApp, signupOwner, type TenantOwner, type TestApp } from '../../support/harness.ts'
import { bankTransaction, getOk, normalize, seedArtifact } from '../../support/ledger.ts'

let test: TestApp
beforeAll(async () => {
  test = await createTestApp()
})
afterAll(async () => test?.close())

const get = (owner: TenantOwner, url: string) => getOk(test, owner.token, url)
const transactionsOf = async (owner: TenantOwner, query = '') => (await get(owner, `/v1/ledger/transactions?limit=1000${query}`)).transactions as Array<Record<string, any>>

const versionsOf = (table: string, tenantId: string) =>
  queryRows<{ id: string; version: number; superseded_at: Date | null }>(test.runtime.db.orm, sql`select id, version, superseded_at from ${sql.raw(table)} where tenant_id = ${tenantId} order by id, version`)

describe('a bank statement', () => {
  it('becomes an account, transactions, counterparties and balances, every field as the spec lists it', async () => {
    const owner = await signupOwner(test)
    const account = { iban: 'DE89 3704 0044 0532 0130 00', name: 'Operating account', currency: 'EUR' }
    const { artifactId, rowIds } = await seedArtifact(test, owner.tenantId, [
      { kind: 'account', account, account_type: 'bank_checking', institution: 'Commerzbank' },
      { kind: 'balance', account, balance_type: 'opening', as_of: '2026-03-01', amount: '1000.00', currency: 'EUR' },
      bankTransaction({ account, amount: '-12.5', transaction_date: '2026-03-02', description: 'CARD PURCHASE SQ *BLUE BOTTLE #123 BERLIN', category: 'Meals & Coffee' }),
      bankTransaction({
        account,
        amount: '2500',
        transaction_date: '2026-03-03',
        posted_date: '2026-03-04',
        description: 'SEPA CREDIT ACME GMBH INV-2026-001',
        external_transaction_id: 'BANKREF-1',
        counterparty: { name: 'ACME GmbH', iban: 'DE02120300000000202051' },
      }),
      { kind: 'balance', account, balance_type: 'closing', as_of: '2026-03-31', amount: '3487.50', currency: 'EUR' },
    ])
    const summary = await normalize(test, owner.tenantId, artifactId)
    expect(summary).toMatchObject({ parsed_rows: 5, rejected_rows: 0, batches: 1, counts: { account: { created: 1 }, transaction: { created: 2 }, balance: { created: 2 }, counterparty: { created: 2 } } })

    const [accountRow] = (await get(owner, '/v1/ledger/accounts')).accounts
    expect(accountRow).toEqual({
      id: expect.stringMatching(/^acc_/),
      account_type: 'bank_checking',
      status: 'active',
      name: 'Operating account',
      institution: 'Commerzbank',
      currency: 'EUR',
      external_account_id: null,
      iban: 'DE89370400440532013000',
      account_number_masked: null,
      wallet_address: null,
      chain_id: null,
      version_id: expect.stringMatching(/^ver_/),
      version: 1,
      supersedes: null,
      source_ids: [artifactId],
      evidence_ids: [rowIds[0]],
      provenance: 'extracted',
      confidence: 0.95,
      metadata: {},
      created_at: expect.any(String),
      updated_at: expect.any(String),
      superseded_at: null,
    })

    const transactions = await transactionsOf(owner)
    expect(transactions.map((row) => row.transaction_date)).toEqual(['2026-03-03', '2026-03-02']) // newest first
    const [credit, coffee] = transactions as [Record<string, any>, Record<string, any>]
    expect(coffee).toEqual({
      id: expect.stringMatching(/^txn_/),
      account_id: accountRow.id,
      external_transaction_id: null,
      amount: '-12.50',
      currency: 'EUR',
      direction: 'outflow',
      transaction_date: '2026-03-02',
      posted_date: '2026-03-02',
      counterparty_id: expect.stringMatching(/^cpy_/),
      category_id: 'meals_coffee',
      status: 'posted',
      description: 'CARD PURCHASE SQ *BLUE BOTTLE #123 BERLIN',
      description_normalized: 'CARD PURCHASE SQ BLUE BOTTLE 123 BERLIN',
      reconciliation_status: 'unmatched',
      version_id: expect.stringMatching(/^ver_/),
      version: 1,
      supersedes: null,
      source_ids: [artifactId],
      evidence_ids: [rowIds[2]],
      provenance: 'extracted',
      confidence: 0.95,
      metadata: { category: 'Meals & Coffee', counterparty_inferred: true },
      created_at: expect.any(String),
      updated_at: expect.any(String),
      superseded_at: null,
    })
    expect(credit).toMatchObject({ amount: '2500.00', direction: 'inflow', posted_date: '2026-03-04', external_transaction_id: 'BANKREF-1', evidence_ids: [rowIds[3]] })

    const counterparties = (await get(owner, '/v1/ledger/counterparties')).counterparties as Array<Record<string, any>>
    const acme = counterparties.find((row) => row.id === credit.counterparty_id)
    expect(acme).toMatchObject({
      name: 'ACME GmbH',
      type: 'other',
      verified_status: 'unverified',
      risk_level: 'medium',
      trust_state: 'unreviewed',
      aliases: ['ACME GmbH'],
      linked_accounts: ['iban:DE02120300000000202051'],
      provenance: 'extracted',
    })
    const blueBottle = counterparties.find((row) => row.id === coffee.counterparty_id)
    expect(blueBottle).toMatchObject({ name: 'BLUE BOTTLE BERLIN', type: 'merchant', provenance: 'inferred', confidence: 0.6 })

    const balances = await get(owner, '/v1/ledger/balances')
    expect(balances.balances).toEqual([expect.objectContaining({ account_id: accountRow.id, balance_type: 'closing', as_of: '2026-03-31', amount: '3487.50', currency: 'EUR' })])
    expect((await get(owner, '/v1/ledger/balances?as_of=2026-03-15')).balances).toEqual([expect.objectContaining({ balance_type: 'opening', amount: '1000.00' })])
    expect((await get(owner, `/v1/ledger/accounts/${accountRow.id}`)).latest_balance).toMatchObject({ balance_type: 'closing', amount: '3487.50' })
  })

  it('normalizes idempotently: running again writes nothing and keeps every id', async () => {
    const owner = await signupOwner(test)
    const { artifactId } = await seedArtifact(test, owner.tenantId, [
      bankTransaction({ amount: '-4.20', transaction_date: '2026-03-02', description: 'COFFEE CORNER' }),
      bankTransaction({ amount: '-4.20', transaction_date: '2026-03-02', description: 'COFFEE CORNER' }),
      bankTransaction({ amount: '-99.00', transaction_date: '2026-03-05', description: 'FIGMA INC' }),
    ])
    await normalize(test, owner.tenantId, artifactId)
    const before = await transactionsOf(owner)
    const eventsBefore = await queryRows<{ n: number }>(test.runtime.db.orm, sql`select count(*)::int as n from events where tenant_id = ${owner.tenantId}`)
    const again = await normalize(test, owner.tenantId, artifactId)
    expect(again.counts).toEqual({ account: { created: 0, updated: 0, unchanged: 1 }, counterparty: { created: 0, updated: 0, unchanged: 2 }, transaction: { created: 0, updated: 0, unchanged: 3 } })
    expect(await transactionsOf(owner)).toEqual(before)
    const eventsAfter = await queryRows<{ n: number }>(test.runtime.db.orm, sql`select count(*)::int as n from events where tenant_id = ${owner.tenantId}`)
    expect(eventsAfter).toEqual(eventsBefore)
    // Two identical coffees on one day are two transactions.
    expect(before.filter((row) => row.description === 'COFFEE CORNER')).toHaveLength(2)
  })
})

describe('no double counting', () => {
  it('overlapping statements: the shared rows are found again, identical rows included', async () => {
    const owner = await signupOwner(test)
    const coffee = bankTransaction({ amount: '-3.80', transaction_date: '2026-03-10', description: 'CAFE LUMEN' })
    const first = await seedArtifact(test, owner.tenantId, [
      bankTransaction({ amount: '-50.00', transaction_date: '2026-03-01', description: 'RENT GARAGE' }),
      coffee,
      coffee,
      bankTransaction({ amount: '1200.00', transaction_date: '2026-03-12', description: 'CUSTOMER PAYMENT NORTHWIND' }),
    ])
    const second = await seedArtifact(test, owner.tenantId, [
      coffee,
      coffee,
      bankTransaction({ amount: '1200.00', transaction_date: '2026-03-12', description: 'CUSTOMER PAYMENT NORTHWIND' }),
      bankTransaction({ amount: '-19.99', transaction_date: '2026-03-20', description: 'NETFLIX.COM' }),
    ])
    await normalize(test, owner.tenantId, first.artifactId)
    const summary = await normalize(test, owner.tenantId, second.artifactId)
    expect(summary.counts.transaction).toEqual({ created: 1, updated: 3, unchanged: 0 })
    const transactions = await transactionsOf(owner)
    expect(transactions).toHaveLength(5)
    const coffees = transactions.filter((row) => row.description === 'CAFE LUMEN')
    expect(coffees).toHaveLength(2)
    for (const row of coffees) expect(row).toMatchObject({ version: 2, source_ids: [first.artifactId, second.artifactId] })
    expect(coffees[0]!.evidence_ids).not.toEqual(coffees[1]!.evidence_ids)
  })

  it('the same transaction from a file and a provider: one transaction, the provider id added', async () => {
    const owner = await signupOwner(test)
    const file = await seedArtifact(test, owner.tenantId, [bankTransaction({ amount: '-240.00', transaction_date: '2026-04-02', description: 'AWS EMEA' })])
    const provider = await seedArtifact(
      test,
      owner.tenantId,
      [
        bankTransaction({ amount: '-240.00', transaction_date: '2026-04-02', description: 'AWS EMEA', external_transaction_id: 'prov_tx_1' }),
        // Described differently by the provider: found by (account, date, amount), merged as inferred.
        bankTransaction({ amount: '-15.00', transaction_date: '2026-04-03', description: 'Parking garage downtown', external_transaction_id: 'prov_tx_2' }),
      ],
      { sourceType: 'bank_provider' },
    )
    const file2 = await seedArtifact(test, owner.tenantId, [bankTransaction({ amount: '-15.00', transaction_date: '2026-04-03', description: 'PARKHAUS MITTE 0042' })])
    await normalize(test, owner.tenantId, file.artifactId)
    await normalize(test, owner.tenantId, file2.artifactId)
    await normalize(test, owner.tenantId, provider.artifactId)
    const transactions = await transactionsOf(owner)
    expect(transactions).toHaveLength(2)
    expect(transactions.find((row) => row.amount === '-240.00')).toMatchObject({ external_transaction_id: 'prov_tx_1', provenance: 'extracted', source_ids: [file.artifactId, provider.artifactId] })
    expect(transactions.find((row) => row.amount === '-15.00')).toMatchObject({
      external_transaction_id: 'prov_tx_2',
      provenance: 'inferred',
      confidence: 0.9,
      metadata: expect.objectContaining({ merged_by: ['cross_source_match'] }),
    })
  })

  it('two candidates from another source are not merged: the record is kept apart as ambiguous', async () => {
    const owner = await signupOwner(test)
    const file = await seedArtifact(test, owner.tenantId, [
      bankTransaction({ amount: '-9.00', transaction_date: '2026-04-05', description: 'KIOSK A' }),
      bankTransaction({ amount: '-9.00', transaction_date: '2026-04-05', description: 'KIOSK B' }),
    ])
    const provider = await seedArtifact(test, owner.tenantId, [bankTransaction({ amount: '-9.00', transaction_date: '2026-04-05', description: 'Newsstand', external_transaction_id: 'p9' })], {
      sourceType: 'bank_provider',
    })
    await normalize(test, owner.tenantId, file.artifactId)
    await normalize(test, owner.tenantId, provider.artifactId)
    const transactions = await transactionsOf(owner)
    expect(transactions).toHaveLength(3)
    const ambiguous = transactions.find((row) => row.provenance === 'ambiguous')
    expect(ambiguous?.metadata.possible_duplicate_of).toEqual(transactions.filter((row) => row.provenance !== 'ambiguous').map((row) => row.id).sort())
  })

  it('an external id a bank reuses does not merge two transactions of another amount or month', async () => {
    const owner = await signupOwner(test)
    const january = await seedArtifact(test, owner.tenantId, [
      bankTransaction({ amount: '-1500.00', transaction_date: '2026-01-01', description: 'RENT JANUARY', external_transaction_id: '1' }),
      bankTransaction({ amount: '-80.00', transaction_date: '2026-01-03', description: 'INTERNET', external_transaction_id: '2' }),
    ])
    const february = await seedArtifact(test, owner.tenantId, [
      // Entry numbers restart with every statement: the same ids, other transactions.
      bankTransaction({ amount: '-1500.00', transaction_date: '2026-02-01', description: 'RENT FEBRUARY', external_transaction_id: '1' }),
      bankTransaction({ amount: '-95.00', transaction_date: '2026-02-03', description: 'ELECTRICITY', external_transaction_id: '2' }),
    ])
    await normalize(test, owner.tenantId, january.artifactId)
    await normalize(test, owner.tenantId, february.artifactId)
    const transactions = await transactionsOf(owner)
    expect(transactions.map((row) => [row.transaction_date, row.amount, row.external_transaction_id, row.version])).toEqual([
      ['2026-02-03', '-95.00', '2', 1],
      ['2026-02-01', '-1500.00', '1', 1],
      ['2026-01-03', '-80.00', '2', 1],
      ['2026-01-01', '-1500.00', '1', 1],
    ])
    expect(new Set(transactions.map((row) => row.id)).size).toBe(4)
  })

  it('a pending transaction re-issued as posted becomes a new version of the same transaction', async () => {
    const owner = await signupOwner(test)
    const pending = await seedArtifact(
      test,
      owner.tenantId,
      [
        bankTransaction({ amount: '-64.10', transaction_date: '2026-05-01', description: 'PENDING UBER TRIP', status: 'pending', external_transaction_id: 'pend_1' }),
        bankTransaction({ amount: '-18.00', transaction_date: '2026-05-02', description: 'PENDING DELI', status: 'pending' }),
      ],
      { sourceType: 'bank_provider' },
    )
    const posted = await seedArtifact(
      test,
      owner.tenantId,
      [
        // Linked by the source.
        bankTransaction({ amount: '-64.10', transaction_date: '2026-05-03', description: 'UBER *TRIP HELP.UBER.COM', external_transaction_id: 'post_1', pending_transaction_id: 'pend_1' }),
        // Not linked: the same account and amount within 7 days.
        bankTransaction({ amount: '-18.00', transaction_date: '2026-05-04', description: 'DELI ON 5TH', external_transaction_id: 'post_2' }),
      ],
      { sourceType: 'bank_provider' },
    )
    await normalize(test, owner.tenantId, pending.artifactId)
    const [pendingUber] = (await transactionsOf(owner)).filter((row) => row.amount === '-64.10')
    await normalize(test, owner.tenantId, posted.artifactId)
    const transactions = await transactionsOf(owner)
    expect(transactions).toHaveLength(2)
    const uber = transactions.find((row) => row.amount === '-64.10')!
    expect(uber).toMatchObject({
      id: pendingUber!.id,
      status: 'posted',
      version: 2,
      supersedes: pendingUber!.version_id,
      posted_date: '2026-05-03',
      transaction_date: '2026-05-01',
      description: 'UBER *TRIP HELP.UBER.COM',
      external_transaction_id: 'post_1',
      provenance: 'inferred',
    })
    expect(transactions.find((row) => row.amount === '-18.00')).toMatchObject({ status: 'posted', version: 2, metadata: expect.objectContaining({ merged_by: ['pending_to_posted'] }) })

    // The history is kept: as of before the posting, the pending version is what the Ledger said.
    const beforePosting = new Date(new Date(uber.updated_at).getTime() - 1).toISOString()
    const then = await get(owner, `/v1/ledger/transactions/${uber.id}?as_of=${beforePosting}`)
    expect(then).toMatchObject({ status: 'pending', version: 1, superseded_at: uber.updated_at })
    expect(await versionsOf('ledger_transactions', owner.tenantId)).toHaveLength(4)

    // Either statement normalized again changes nothing: the merge holds whatever order sources come in.
    for (const artifactId of [pending.artifactId, posted.artifactId]) {
      expect((await normalize(test, owner.tenantId, artifactId)).counts.transaction).toEqual({ created: 0, updated: 0, unchanged: 2 })
    }
    expect(await versionsOf('ledger_transactions', owner.tenantId)).toHaveLength(4)
  })
})

describe('invoices, obligations and wallets', () => {
  it('a receivable invoice is an invoice and an obligation with metadata.scenario ar; a bill is ap', async () => {
    const owner = await signupOwner(test)
    const { artifactId } = await seedArtifact(
      test,
      owner.tenantId,
      [
        {
          kind: 'invoice',
          direction: 'receivable',
          invoice_number: 'INV-2026-014',
          issue_date: '2026-03-01',
          due_date: '2026-03-31',
          currency: 'USD',
          total: '1200',
          subtotal: '1000',
          tax: '200',
          counterparty: { name: 'Northwind Traders', email: 'ap@northwind.example' },
        },
        { kind: 'invoice', direction: 'payable', invoice_number: 'B-77', issue_date: '2026-03-02', due_date: '2026-03-16', currency: 'USD', total: '80.5', amount_paid: '20', counterparty: { name: 'Paper Supply Co' } },
        { kind: 'obligation', obligation_type: 'subscription', direction: 'payable', reference: 'sub_figma', amount: '45', currency: 'USD', due_date: '2026-03-05', recurrence: 'monthly', counterparty: { name: 'Figma, Inc.' } },
      ],
      { sourceType: 'pdf_upload' },
    )
    await normalize(test, owner.tenantId, artifactId)
    const receivables = await get(owner, '/v1/ledger/invoices')
    expect(receivables.direction).toBe('receivable')
    expect(receivables.invoices).toEqual([
      expect.objectContaining({
        invoice_number: 'INV-2026-014',
        direction: 'receivable',
        total: '1200.00',
        subtotal: '1000.00',
        tax: '200.00',
        amount_paid: '0.00',
        amount_due: '1200.00',
        status: 'sent',
        issue_date: '2026-03-01',
        due_date: '2026-03-31',
        metadata: { scenario: 'ar' },
      }),
    ])
    const bills = (await get(owner, '/v1/ledger/invoices?direction=payable')).invoices
    expect(bills).toEqual([expect.objectContaining({ invoice_number: 'B-77', status: 'partial', amount_paid: '20.00', amount_due: '60.50', metadata: { scenario: 'ap' } })])

    const ar = (await get(owner, '/v1/ledger/obligations?scenario=ar')).obligations
    expect(ar).toEqual([
      expect.objectContaining({ type: 'invoice', direction: 'receivable', reference: 'INV-2026-014', amount: '1200.00', invoice_id: receivables.invoices[0].id, status: 'open', metadata: { scenario: 'ar', outstanding: '1200.00' } }),
    ])
    const ap = (await get(owner, '/v1/ledger/obligations?scenario=ap')).obligations as Array<Record<string, unknown>>
    expect(ap.map((row) => row.type).sort()).toEqual(['bill', 'subscription'])
    expect(ap.find((row) => row.type === 'subscription')).toMatchObject({ recurrence: 'monthly', amount: '45.00', metadata: { scenario: 'ap' } })
    // direction given outright wins over scenario.
    expect((await get(owner, '/v1/ledger/obligations?scenario=ap&direction=receivable')).obligations).toHaveLength(1)
    const counterparties = (await get(owner, '/v1/ledger/counterparties')).counterparties as Array<Record<string, unknown>>
    expect(counterparties.map((row) => [row.name, row.type]).sort()).toEqual([
      ['Figma, Inc.', 'vendor'],
      ['Northwind Traders', 'customer'],
      ['Paper Supply Co', 'vendor'],
    ])
  })


  it('shows a cancelled invoice with nothing due, whatever its total', async () => {
    const owner = await signupOwner(test)
    const { artifactId } = await seedArtifact(
      test,
      owner.tenantId,
      [{ kind: 'invoice', direction: 'receivable', invoice_number: 'INV-VOID-1', issue_date: '2026-03-01', due_date: '2026-03-31', currency: 'EUR', total: '1000', status: 'cancelled', counterparty: { name: 'Voided Customer' } }],
      { sourceType: 'pdf_upload' },
    )
    await normalize(test, owner.tenantId, artifactId)
    expect((await get(owner, '/v1/ledger/invoices')).invoices).toEqual([expect.objectContaining({ invoice_number: 'INV-VOID-1', status: 'cancelled', total: '1000.00', amount_paid: '0.00', amount_due: '0.00' })])
    // Its obligation is cancelled and owes nothing either.
    const [obligation] = (await get(owner, '/v1/ledger/obligations')).obligations
    expect(obligation).toMatchObject({ reference: 'INV-VOID-1', status: 'cancelled', metadata: expect.objectContaining({ outstanding: '0' }) })
  })
  it('wallet transfers become transactions of an on-chain account, with the other wallet as counterparty', async () => {
    const owner = await signupOwner(test)
    const wallet = '0x1111111111111111111111111111111111111111'
    const other = '0x2222222222222222222222222222222222222222'
    const { artifactId } = await seedArtifact(
      test,
      owner.tenantId,
      [
        {
          kind: 'wallet_transfer',
          account: { wallet_address: wallet, name: 'Treasury wallet' },
          chain_id: 8453,
          tx_hash: `0x${'ab'.repeat(32)}`,
          log_index: 3,
          block_number: 123,
          timestamp: '2026-06-01T10:00:00Z',
          from: wallet,
          to: other,
          token: 'USDC',
          token_address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
          amount: '-250.5',
        },
      ],
      { sourceType: 'chain_indexer_wallet' },
    )
    await normalize(test, owner.tenantId, artifactId)
    const [account] = (await get(owner, '/v1/ledger/accounts?account_type=onchain')).accounts
    expect(account).toMatchObject({ account_type: 'onchain', wallet_address: wallet, chain_id: 8453, currency: 'USDC', name: 'Treasury wallet' })
    const [transfer] = (await transactionsOf(owner)) as [Record<string, any>]
    expect(transfer).toMatchObject({
      account_id: account.id,
      amount: '-250.500000',
      currency: 'USDC',
      direction: 'outflow',
      external_transaction_id: `0x${'ab'.repeat(32)}:3`,
      transaction_date: '2026-06-01',
      description: `USDC sent to ${other}`,
      metadata: { details: expect.objectContaining({ chain_id: 8453, block_number: 123, tx_hash: `0x${'ab'.repeat(32)}` }) },
    })
    const counterparty = await get(owner, `/v1/ledger/counterparties/${transfer.counterparty_id}`)
    expect(counterparty).toMatchObject({ type: 'wallet', linked_accounts: [`wallet:${other}`] })
  })
})

describe('events and audit', () => {
  it('records one ledger.normalized audit event per batch and the spec events for new entities', async () => {
    const owner = await signupOwner(test)
    const { artifactId } = await seedArtifact(test, owner.tenantId, [
      bankTransaction({ amount: '-10.00', transaction_date: '2026-03-02', description: 'STATIONERY SHOP' }),
      { kind: 'obligation', obligation_type: 'rent', direction: 'payable', reference: 'lease-1', amount: '1500', currency: 'EUR', due_date: '2026-04-01' },
    ])
    await normalize(test, owner.tenantId, artifactId)
    const audit = await auditEvents(test, owner.tenantId, { action: 'ledger.normalized' })
    expect(audit).toEqual([expect.objectContaining({ layer: 'ledger', outputs: expect.objectContaining({ transaction_created: 1, obligation_created: 1, account_created: 1 }) })])
    const events = await queryRows<{ event_type: string; audit_event_id: string; payload: Record<string, unknown> }>(
      test.runtime.db.orm,
      sql`select event_type, audit_event_id, payload from events where tenant_id = ${owner.tenantId} and event_type like 'ledger.%' order by event_type`,
    )
    expect(events.map((event) => event.event_type)).toEqual(['ledger.counterparty.created', 'ledger.obligation.created', 'ledger.transaction.created'])
    for (const event of events) expect(event.audit_event_id).toBe(audit[0]!.id)
    expect(events[2]!.payload).toMatchObject({ amount: '-10.00', currency: 'EUR', direction: 'outflow', transaction_date: '2026-03-02' })
  })
})
