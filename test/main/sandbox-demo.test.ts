/**
 * The sandbox demo business (issue 4, "a sandbox with data"): loaded through the real pipeline — uploads,
 * signed provider webhooks, extraction, normalization, reconciliation — it gives the figures
 * sandbox/demo/README.md promises, and the owner can log in and query at once. Runs once per data
 * directory.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../../src/platform/db/database.ts'
import { demoCredentialsFile, loadDemoBusiness, type DemoLoad } from '../../src/main/sandbox/demo-business.ts'
import { createTestApp, login, type TestApp } from '../support/harness.ts'
import { getOk, settledPipeline } from '../support/ledger.ts'

let test: TestApp
let load: DemoLoad
let token: string

const settled = (tenantId: string) => settledPipeline(test, tenantId, 120_000)

beforeAll(async () => {
  test = await createTestApp({ workers: true })
  const loaded = await loadDemoBusiness(test.runtime, test.app, pino({ level: 'silent' }))
  expect(loaded).toBeDefined()
  load = loaded!
  await settled(load.credentials.tenant_id)
  token = await login(test, load.credentials.email, load.credentials.password)
}, 180_000)
afterAll(async () => test?.close())

const countOf = async (query: string) => {
  const [row] = await queryRows<{ n: number }>(test.runtime.db.orm, sql.raw(query.replace('$tenant', `'${load.credentials.tenant_id}'`)))
  return row!.n
}

describe('the sandbox demo business', () => {
  it('is created once per data directory, with its login saved there', async () => {
    const saved = JSON.parse(readFileSync(join(test.config.dataDir, demoCredentialsFile), 'utf8'))
    expect(saved).toEqual(load.credentials)
    expect(await loadDemoBusiness(test.runtime, test.app, pino({ level: 'silent' }))).toBeUndefined()
    expect(await getOk(test, token, `/v1/tenants/${load.credentials.tenant_id}`)).toMatchObject({ name: 'Juniper & Finch Coffee Roasters GmbH' })
  })

  it('is created again for another data directory on the same database, as a tenant of its own', async () => {
    // Two sandboxes a moment apart (their tenant ids share a time prefix): the second's connectors must not collide.
    const elsewhere = { ...test.runtime, config: { ...test.runtime.config, dataDir: mkdtempSync(join(tmpdir(), 'steward-demo-')) } }
    try {
      const second = await loadDemoBusiness(elsewhere, test.app, pino({ level: 'silent' }))
      expect(second?.credentials.tenant_id).toBeDefined()
      expect(second!.credentials.tenant_id).not.toBe(load.credentials.tenant_id)
      await settled(second!.credentials.tenant_id)
      const connections = await queryRows<{ tenant_id: string }>(test.runtime.db.orm, sql`select tenant_id from provider_connections where account_ref like 'juniper-finch-%'`)
      const perTenant = (tenantId: string) => connections.filter((row) => row.tenant_id === tenantId).length
      expect(perTenant(second!.credentials.tenant_id)).toBe(perTenant(load.credentials.tenant_id))
      expect(perTenant(load.credentials.tenant_id)).toBeGreaterThan(0)
    } finally {
      rmSync(elsewhere.config.dataDir, { recursive: true, force: true })
    }
  }, 120_000)

  it('extracts every file without a failure', async () => {
    const artifacts = await queryRows<{ filename: string | null; source_type: string; extraction_status: string; extraction_error: string | null }>(
      test.runtime.db.orm,
      sql`select filename, source_type, extraction_status, extraction_error from raw_artifacts where tenant_id = ${load.credentials.tenant_id} order by ingested_at, id`,
    )
    expect(artifacts.filter((artifact) => artifact.extraction_status !== 'succeeded')).toEqual([])
    // The e-mail's PDF receipt is an artifact of its own; payroll arrived by generic_hmac as payroll_provider.
    expect(artifacts.map((artifact) => artifact.source_type).sort()).toEqual(
      ['card_processor', 'chain_indexer_wallet', 'csv_upload', 'csv_upload', 'email_inbound', 'email_inbound', 'erp_provider', 'other', 'other', 'other', 'payroll_provider', 'pdf_upload'].sort(),
    )
  })

  it('has the accounts, transactions, invoices and obligations of the README, counted once', async () => {
    const accounts = (await getOk(test, token, '/v1/ledger/accounts')).accounts as Array<{ id: string; account_type: string; iban: string | null; name: string }>
    expect(accounts.map((account) => account.account_type).sort()).toEqual(['bank_checking', 'bank_savings', 'onchain', 'payment_processor'])
    const checking = accounts.find((account) => account.account_type === 'bank_checking')!
    expect(checking.iban).toBe('DE84100900002847563019')
    // 96 bookings on checking: the overlapping export's 17 March rows are found again, not added.
    expect(await countOf(`select count(*)::int as n from ledger_transactions where tenant_id = $tenant and superseded_at is null and account_id = '${checking.id}'`)).toBe(96)
    expect(await countOf('select count(*)::int as n from ledger_transactions where tenant_id = $tenant and superseded_at is null')).toBe(791)
    // The two identical 23.80 filter-paper payments of 19 March stay two.
    const filters = (await getOk(test, token, `/v1/ledger/transactions?account_id=${checking.id}&since=2026-03-19&until=2026-03-19`)).transactions as Array<{ amount: string }>
    expect(filters.filter((row) => row.amount === '-23.80')).toHaveLength(2)
    // The treasury wallet carries its asset, and its amounts are written at USDC's scale.
    const wallet = accounts.find((account) => account.account_type === 'onchain') as unknown as { id: string; currency: string }
    expect(wallet.currency).toBe('USDC')
    const transfers = (await getOk(test, token, `/v1/ledger/transactions?account_id=${wallet.id}`)).transactions as Array<{ amount: string; currency: string }>
    expect(transfers.map((row) => `${row.amount} ${row.currency}`).sort()).toEqual(['-3000.000000 USDC', '1250.000000 USDC', '1410.000000 USDC', '980.500000 USDC'])

    const receivables = (await getOk(test, token, '/v1/ledger/invoices?limit=500')).invoices as Array<{ invoice_number: string; status: string; amount_due: string }>
    const bills = (await getOk(test, token, '/v1/ledger/invoices?direction=payable&limit=500')).invoices as unknown[]
    expect([receivables.length, bills.length]).toEqual([10, 6])
    expect(receivables.find((invoice) => invoice.invoice_number === 'JF-2026-007')).toMatchObject({ status: 'overdue' })
    expect(receivables.find((invoice) => invoice.invoice_number === 'JF-2026-004')).toMatchObject({ status: 'paid', amount_due: '0.00' })
    const obligations = (await getOk(test, token, '/v1/ledger/obligations?limit=500')).obligations as Array<{ status: string; type: string }>
    expect(obligations).toHaveLength(26)
    expect(obligations.filter((obligation) => obligation.status === 'settled')).toHaveLength(18)
    expect((await getOk(test, token, '/v1/ledger/obligations?scenario=ar&limit=500')).obligations).toHaveLength(10)
  })

  it('reconciles: every statement balance agrees, payments find their invoices, charges their subscription', async () => {
    const matches = (await getOk(test, token, '/v1/ledger/reconciliation-matches?limit=500')).matches as Array<{ match_type: string; status: string }>
    const tally: Record<string, number> = {}
    for (const match of matches) tally[`${match.match_type}:${match.status}`] = (tally[`${match.match_type}:${match.status}`] ?? 0) + 1
    expect(tally).toMatchObject({
      'statement_balance:matched': 5,
      'invoice_payment:matched': 14,
      'invoice_payment:partially_matched': 1,
      'subscription_charge:matched': 3,
      'payroll_bank_debit:matched': 3,
      'transaction_receipt:matched': 1,
      'card_charge:matched': 13,
    })
    expect(tally['statement_balance:unmatched']).toBeUndefined()
    expect(Object.keys(tally).filter((key) => key.endsWith(':duplicate_possible'))).toEqual([])
  })
})
