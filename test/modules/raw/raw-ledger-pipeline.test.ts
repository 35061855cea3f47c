/**
 * Issue 4 end to end: real fixture files of every format go through ingest (upload or signed provider
 * webhook), extraction by the real parsers and normalization by the job workers, and the resulting
 * Ledger rows are asserted field by field. Overlapping statements, the same bookings in three formats,
 * and a re-ingest do not double count; malformed files fail extraction and write nothing to the Ledger.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../../../src/platform/db/database.ts'
import { providerSignatureHeader } from '../../../src/modules/raw/domain/provider-signature.ts'
import type { Provider } from '../../../src/modules/raw/domain/source-types.ts'
import { addMember, createTestApp, signupOwner, type TenantOwner, type TestApp } from '../../support/harness.ts'
import { getOk, settledPipeline } from '../../support/ledger.ts'
import { ingestFile } from '../../fixtures/raw/ingest/raw-test-kit.ts'

const fixtures = fileURLToPath(new URL('../../fixtures/raw/', import.meta.url))
const fixture = (path: string) => readFileSync(join(fixtures, path))

let test: TestApp
beforeAll(async () => {
  test = await createTestApp({ workers: true })
})
afterAll(async () => test?.close())

type Row = Record<string, any>

const settled = (tenantId: string) => settledPipeline(test, tenantId)

async function upload(owner: TenantOwner, path: string, options: { sourceType?: string; mimeType?: string; sourceRef?: Record<string, unknown> } = {}) {
  const response = await ingestFile(test, owner.token, {
    sourceType: options.sourceType ?? 'other',
    file: { filename: path.split('/').pop()!, content: fixture(path), ...(options.mimeType === undefined ? {} : { contentType: options.mimeType }) },
    ...(options.mimeType === undefined ? {} : { mimeType: options.mimeType }),
    ...(options.sourceRef === undefined ? {} : { sourceRef: JSON.stringify(options.sourceRef) }),
  })
  expect([200, 201], response.body).toContain(response.statusCode)
  return response.json() as { raw_id: string; deduplicated: boolean }
}

/** The connectors CLI's context: no request, no Idempotency-Key. */
const cliContext = { requestId: 'connectors-cli-test' }

async function deliver(owner: TenantOwner, provider: Provider, path: string) {
  const account = `pipeline-${provider}-${owner.tenantId.slice(0, 8)}`
  const existing = (await test.runtime.services.connectors.list(owner.tenantId)).find((connection) => connection.account_ref === account)
  const connection = { tenantId: owner.tenantId, provider, accountRef: account }
  const { connectors } = test.runtime.services
  const secret = (existing === undefined ? await connectors.add(cliContext, connection) : await connectors.rotateSecret(cliContext, connection)).outcome.secret
  const body = fixture(path)
  const response = await test.request({
    method: 'POST',
    url: `/v1/raw/webhooks/${provider}`,
    headers: { 'content-type': 'application/json', 'x-provider-account': account, 'x-provider-signature': providerSignatureHeader(secret, Math.floor(Date.now() / 1000), body) },
    payload: body,
  })
  expect(response.statusCode, response.body).toBe(202)
}

const transactions = async (owner: TenantOwner, query = ''): Promise<Row[]> => (await getOk(test, owner.token, `/v1/ledger/transactions?limit=1000${query}`)).transactions
const accounts = async (owner: TenantOwner): Promise<Row[]> => (await getOk(test, owner.token, '/v1/ledger/accounts?limit=500')).accounts
const artifactState = async (rawId: string) =>
  (await queryRows<{ extraction_status: string; extraction_error: string | null; parser: string | null }>(test.runtime.db.orm, sql`select extraction_status, extraction_error, parser from raw_artifacts where id = ${rawId}`))[0]!

describe('bank statements, every format', () => {
  it('CAMT.053: the account, balances and transactions, field by field', async () => {
    const owner = await signupOwner(test)
    const { raw_id: rawId } = await upload(owner, 'bank/camt053/lindenhof-2024-03-04.camt053-v08.xml', { mimeType: 'application/xml' })
    await settled(owner.tenantId)
    expect(await artifactState(rawId)).toMatchObject({ extraction_status: 'succeeded', parser: 'camt053_statement' })
    const [account] = await accounts(owner)
    expect(account).toMatchObject({
      account_type: 'bank_checking',
      name: 'Geschäftskonto',
      institution: 'Commerzbank AG',
      iban: 'DE89370400440532013000',
      currency: 'EUR',
      source_ids: [rawId],
      provenance: 'extracted',
      confidence: 1,
    })
    const rows = await transactions(owner)
    expect(rows).toHaveLength(31)
    const receipt = rows.find((row) => row.external_transaction_id === '202403040001')!
    expect(receipt).toEqual({
      id: expect.stringMatching(/^txn_/),
      account_id: account!.id,
      external_transaction_id: '202403040001',
      amount: '4760.00',
      currency: 'EUR',
      direction: 'inflow',
      transaction_date: '2024-03-04',
      posted_date: '2024-03-04',
      counterparty_id: expect.stringMatching(/^cpy_/),
      category_id: null,
      status: 'posted',
      description: 'Rechnung 2024-017',
      description_normalized: 'RECHNUNG 2024 017',
      reconciliation_status: 'unmatched',
      version_id: expect.stringMatching(/^ver_/),
      version: 1,
      supersedes: null,
      source_ids: [rawId],
      evidence_ids: [expect.stringMatching(/^rpr_/)],
      provenance: 'extracted',
      confidence: 1,
      metadata: { details: { bank_transaction_code: 'PMNT/RCDT/ESCT', end_to_end_id: 'RE2024017', additional_entry_information: 'SEPA-Gutschrift', entry_status: 'BOOK' } },
      created_at: expect.any(String),
      updated_at: expect.any(String),
      superseded_at: null,
    })
    expect(await getOk(test, owner.token, `/v1/ledger/counterparties/${receipt.counterparty_id}`)).toMatchObject({
      name: 'Müller & Söhne GmbH',
      linked_accounts: ['iban:DE12500105170648489890'],
      type: 'other',
    })
    // The statement balances agree with the movements, as reconciliation checks.
    const balances = await getOk(test, owner.token, `/v1/ledger/balances?account_id=${account!.id}`)
    expect(balances.balances).toEqual([expect.objectContaining({ balance_type: 'closing', as_of: '2024-04-30', amount: '28441.10' })])
    const matches = (await getOk(test, owner.token, '/v1/ledger/reconciliation-matches?match_type=statement_balance')).matches as Row[]
    expect(matches).toEqual([expect.objectContaining({ status: 'matched', difference: '0.00' })])
  })

  it('the same bookings as CAMT.053, MT940 and CSV: one set of transactions, not three', async () => {
    const owner = await signupOwner(test)
    const camt = await upload(owner, 'bank/camt053/lindenhof-2024-03-04.camt053-v08.xml', { mimeType: 'application/xml' })
    const mt940 = await upload(owner, 'bank/mt940/lindenhof-2024-03-04.sta')
    const csv = await upload(owner, 'bank/csv/lindenhof-2024-03-04.de-windows-1252.csv', { sourceType: 'csv_upload', sourceRef: { iban: 'DE89370400440532013000' } })
    await settled(owner.tenantId)
    for (const artifact of [camt, mt940, csv]) expect(await artifactState(artifact.raw_id)).toMatchObject({ extraction_status: 'succeeded' })
    expect((await accounts(owner)).map((account) => account.iban)).toEqual(['DE89370400440532013000'])
    const rows = await transactions(owner)
    expect(rows).toHaveLength(31)
    // Each transaction cites all three files.
    for (const row of rows) expect([...row.source_ids].sort()).toEqual([camt.raw_id, mt940.raw_id, csv.raw_id].sort())
    const statements = (await getOk(test, owner.token, '/v1/ledger/reconciliation-matches?match_type=statement_balance')).matches as Row[]
    expect(statements.length).toBeGreaterThan(0)
    expect(statements.every((match) => match.status === 'matched')).toBe(true)
  })

  const dupont = { iban: 'FR7630006000011234567890189', currency: 'EUR' }
  it.each([
    ['CSV', 'bank/csv/dupont-overlap-1.fr.csv', 'bank/csv/dupont-overlap-2.fr.csv', 'csv_upload', 7, dupont],
    ['OFX', 'bank/ofx/bluebird-checking-overlap-1.ofx', 'bank/ofx/bluebird-checking-overlap-2.ofx', 'other', 8, undefined],
    ['CAMT.053', 'bank/camt053/lindenhof-overlap-1.camt053-v02.xml', 'bank/camt053/lindenhof-overlap-2.camt053-v02.xml', 'other', 10, undefined],
    ['MT940', 'bank/mt940/lindenhof-overlap-1.sta', 'bank/mt940/lindenhof-overlap-2.sta', 'other', undefined, undefined],
  ])('overlapping %s statements: the shared rows are counted once', async (_format, first, second, sourceType, shared, sourceRef) => {
    const owner = await signupOwner(test)
    const one = await upload(owner, first, { sourceType, sourceRef })
    await settled(owner.tenantId)
    const alone = (await transactions(owner)).length
    const two = await upload(owner, second, { sourceType, sourceRef })
    await settled(owner.tenantId)
    const secondAlone = (await queryRows<{ n: number }>(test.runtime.db.orm, sql`select count(*)::int as n from raw_parsed_rows where raw_artifact_id = ${two.raw_id} and extracted->>'kind' = 'transaction'`))[0]!.n
    const rows = await transactions(owner)
    const both = rows.filter((row) => row.source_ids.includes(one.raw_id) && row.source_ids.includes(two.raw_id))
    if (shared !== undefined) expect(both).toHaveLength(shared)
    expect(both.length).toBeGreaterThan(0)
    expect(rows).toHaveLength(alone + secondAlone - both.length)
    // Re-ingesting the same bytes is idempotent: 200 deduplicated, nothing new anywhere.
    const again = await upload(owner, second, { sourceType, sourceRef })
    expect(again).toMatchObject({ raw_id: two.raw_id, deduplicated: true })
    await settled(owner.tenantId)
    expect(await transactions(owner)).toEqual(rows)
  })

  it.each([
    ['bank/csv/malformed-non-numeric-amount-row7.csv', 'csv_upload', /TBD.*line 8/],
    ['bank/csv/malformed-unclosed-quote.csv', 'csv_upload', /quote/i],
    ['bank/ofx/malformed-truncated.ofx', 'other', /./],
    ['bank/camt053/malformed-truncated.xml', 'other', /./],
    ['bank/mt940/malformed-broken-61.sta', 'other', /line 14/],
    ['documents/truncated.pdf', 'pdf_upload', /./],
  ])('a malformed file (%s) fails extraction with its reason and writes nothing to the Ledger', async (path, sourceType, reason) => {
    const owner = await signupOwner(test)
    const { raw_id: rawId } = await upload(owner, path, { sourceType, sourceRef: { currency: 'EUR' } })
    await settled(owner.tenantId)
    const state = await artifactState(rawId)
    expect(state.extraction_status).toBe('failed')
    expect(state.extraction_error).toMatch(reason)
    expect(await queryRows(test.runtime.db.orm, sql`select 1 from raw_parsed_rows where raw_artifact_id = ${rawId}`)).toEqual([])
    expect(await transactions(owner)).toEqual([])
    expect(await accounts(owner)).toEqual([])
  })
})

describe('documents and provider payloads', () => {
  it('a PDF vendor invoice becomes a payable invoice and bill obligation (scenario ap)', async () => {
    const owner = await signupOwner(test)
    const { raw_id: rawId } = await upload(owner, 'documents/invoice-en-vendor.pdf', { sourceType: 'pdf_upload', mimeType: 'application/pdf' })
    await settled(owner.tenantId)
    expect(await artifactState(rawId)).toMatchObject({ extraction_status: 'succeeded', parser: 'pdf_invoice' })
    const [bill] = (await getOk(test, owner.token, '/v1/ledger/invoices?direction=payable')).invoices as Row[]
    expect(bill).toMatchObject({ direction: 'payable', status: 'sent', source_ids: [rawId], provenance: 'extracted', metadata: expect.objectContaining({ scenario: 'ap' }) })
    expect(Number(bill!.confidence)).toBeLessThan(1)
    const [obligation] = (await getOk(test, owner.token, '/v1/ledger/obligations?scenario=ap')).obligations as Row[]
    expect(obligation).toMatchObject({ type: 'bill', invoice_id: bill!.id, amount: bill!.total, reference: bill!.invoice_number, status: 'open' })
  })

  it('a receivable PDF (source_ref direction) is in the receivables inventory with metadata.scenario ar', async () => {
    const owner = await signupOwner(test)
    await upload(owner, 'documents/facture-fr-receivable.pdf', { sourceType: 'pdf_upload', mimeType: 'application/pdf', sourceRef: { direction: 'receivable' } })
    await settled(owner.tenantId)
    const [invoice] = (await getOk(test, owner.token, '/v1/ledger/invoices')).invoices as Row[]
    expect(invoice).toMatchObject({ direction: 'receivable', metadata: expect.objectContaining({ scenario: 'ar' }) })
    expect((await getOk(test, owner.token, '/v1/ledger/obligations?scenario=ar')).obligations).toEqual([expect.objectContaining({ type: 'invoice', invoice_id: invoice!.id, metadata: expect.objectContaining({ scenario: 'ar' }) })])
  })

  it('an e-mail: its attachment becomes an artifact of its own, read as an invoice', async () => {
    const owner = await signupOwner(test)
    const { raw_id: rawId } = await upload(owner, 'documents/invoice-with-attachments.eml', { sourceType: 'email_inbound', mimeType: 'message/rfc822' })
    await settled(owner.tenantId)
    const children = await queryRows<{ id: string; extraction_status: string }>(test.runtime.db.orm, sql`select id, extraction_status from raw_artifacts where parent_artifact_id = ${rawId}`)
    expect(children.length).toBeGreaterThan(0)
    const invoices = [...(await getOk(test, owner.token, '/v1/ledger/invoices?direction=payable')).invoices, ...(await getOk(test, owner.token, '/v1/ledger/invoices')).invoices] as Row[]
    expect(invoices.length).toBeGreaterThan(0)
    expect(invoices.every((invoice) => invoice.source_ids.some((id: string) => children.some((child) => child.id === id) || id === rawId))).toBe(true)
  })

  it('provider webhooks: bank, card processor, ERP, payroll (generic_hmac) and chain indexer payloads reach the Ledger', async () => {
    const owner = await signupOwner(test)
    await deliver(owner, 'bank_provider', 'documents/bank-provider.json')
    await deliver(owner, 'card_processor', 'documents/card-processor.json')
    await deliver(owner, 'erp_provider', 'documents/erp-provider.json')
    await deliver(owner, 'generic_hmac', 'documents/payroll-provider.json')
    await deliver(owner, 'chain_indexer', 'documents/chain-indexer.json')
    await settled(owner.tenantId)
    const failed = await queryRows(test.runtime.db.orm, sql`select source_type, extraction_error from raw_artifacts where tenant_id = ${owner.tenantId} and extraction_status <> 'succeeded'`)
    expect(failed).toEqual([])
    const types = (await accounts(owner)).map((account) => account.account_type).sort()
    expect(types).toEqual(expect.arrayContaining(['onchain', 'payment_processor']))
    const obligations = (await getOk(test, owner.token, '/v1/ledger/obligations?limit=500')).obligations as Row[]
    expect(obligations.some((obligation) => obligation.type === 'payroll')).toBe(true)
    // The provider's pending transaction and the posted one naming it are one transaction.
    const rows = await transactions(owner)
    const posted = rows.find((row) => row.metadata?.merged_by?.includes('pending_to_posted'))
    expect(posted).toMatchObject({ status: 'posted', version: 2 })
    expect(rows.filter((row) => row.amount === posted!.amount && row.account_id === posted!.account_id && row.transaction_date === posted!.transaction_date)).toHaveLength(1)
  })
})

describe('re-normalizing', () => {
  it('POST /v1/ledger/normalize on every parsed row of a statement changes nothing', async () => {
    const owner = await signupOwner(test)
    const admin = await addMember(test, owner, 'admin')
    const { raw_id: rawId } = await upload(owner, 'bank/ofx/bluebird-checking-2024-01-02.ofx')
    await settled(owner.tenantId)
    const before = await transactions(owner)
    const parsed = (await getOk(test, owner.token, `/v1/raw/${rawId}/parsed?limit=1000`)).parsed as Row[]
    expect(parsed.length).toBeGreaterThan(0)
    for (const row of parsed) {
      const response = await test.request({ method: 'POST', url: '/v1/ledger/normalize', token: admin.token, payload: { raw_parsed_id: row.id } })
      expect(response.statusCode, response.body).toBe(200)
      expect(response.json().entities.every((entity: Row) => entity.outcome === 'unchanged')).toBe(true)
    }
    expect(await transactions(owner)).toEqual(before)
  })
})
