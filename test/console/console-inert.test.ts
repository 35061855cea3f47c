/**
 * The console renders every value as text: markup planted through the public API in every text field a
 * member can reach (counterparty names and transaction descriptions from a statement, a file name, a
 * rejection reason, an API key's name, a webhook endpoint's description, an agent proposal's narrative —
 * hence its headline — and details) shows literally, runs no
 * script, opens no dialog and creates no element, on every page that shows it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { issueApiKey, testPassword } from '../support/harness.ts'
import { chromiumPath, developerPlan, open, signIn, startConsole, type ConsoleHarness, type PageGlobals } from '../support/browser.ts'
import { business, type Business } from '../support/payments.ts'
import { settledPipeline } from '../support/ledger.ts'
import { multipartBody } from '../fixtures/raw/ingest/raw-test-kit.ts'

const script = '<script>window.__xss=(window.__xss||0)+1;alert(1)</script>'
const image = '<img src=x onerror=window.__xss=1;alert(2)>'

describe.skipIf(chromiumPath === undefined)('markup from the API is inert in the console', () => {
  let harness: ConsoleHarness
  let b: Business
  let rawId: string
  let transactionId: string
  let intentId: string
  let proposalId: string

  beforeAll(async () => {
    harness = await startConsole({ workers: true })
    const test = harness.test
    b = await business(test, '100000.00')
    await developerPlan(test, b.owner.tenantId)
    const csv = ['Date,Payee,Description,Amount,Currency', `2026-03-05,"${script}","${image}",-12.50,EUR`, `2026-03-06,"${image}","${script}",-13.50,EUR`].join('\n')
    const ingested = await test.request({ method: 'POST', url: '/v1/raw/ingest', token: b.owner.token, ...multipartBody([['source_type', 'csv_upload']], { filename: `${image}.csv`, contentType: 'text/csv', content: csv }) })
    expect(ingested.statusCode, ingested.body).toBe(201)
    rawId = ingested.json().raw_id
    await settledPipeline(test, b.owner.tenantId)
    const transactions = (await test.request({ method: 'GET', url: '/v1/ledger/transactions?limit=100', token: b.owner.token })).json().transactions as Array<{ id: string; description: string }>
    transactionId = transactions.find((row) => row.description === image)!.id
    const proposed = await test.request({ method: 'POST', url: '/v1/payment-intents', token: b.agent, payload: { action_type: 'ach_outbound', source_account_id: b.account, destination_counterparty_id: b.supplier, amount: '70.00', currency: 'EUR' } })
    expect(proposed.statusCode, proposed.body).toBe(201)
    intentId = proposed.json().id
    const rejected = await test.request({ method: 'POST', url: `/v1/payment-intents/${intentId}/reject`, token: b.owner.token, payload: { reason: `${script} ${image}` } })
    expect(rejected.statusCode, rejected.body).toBe(200)
    await issueApiKey(test, b.owner, { name: script })
    const endpoint = await test.request({ method: 'POST', url: '/v1/webhooks', token: b.owner.token, payload: { url: 'http://127.0.0.1:9/hook', description: image } })
    expect(endpoint.statusCode, endpoint.body).toBe(201)
    const finding = await test.request({
      method: 'POST',
      url: '/v1/agents/actions',
      token: b.agent,
      payload: { action_type: 'flag_transaction', narrative: `${script} ${image}`, confidence: 0.6, evidence: [{ kind: 'transaction', ref: transactionId }], details: { note: script, seen_as: image } },
    })
    expect(finding.statusCode, finding.body).toBe(201)
    proposalId = finding.json().id
    const read = (await test.request({ method: 'GET', url: `/v1/proposals/${proposalId}`, token: b.owner.token })).json() as { presentation: { headline: string } }
    expect(read.presentation.headline).toContain(script)
  })
  afterAll(async () => harness?.close())

  it('shows the planted markup as text on every page, and nothing runs', async () => {
    const { context, page, dialogs, errors } = await harness.newPage()
    await signIn(page, harness.baseUrl, b.owner.email, testPassword)
    const pages: Array<[string, string[]]> = [
      ['#/ledger/transactions', [script, image]],
      [`#/ledger/transactions/${transactionId}`, [image]],
      ['#/ledger/counterparties', [script, image]],
      ['#/imports', [`${image}.csv`]],
      [`#/raw/${rawId}`, [`${image}.csv`, script]],
      [`#/payment-intents/${intentId}`, [`${script} ${image}`]],
      [`#/proofs/${intentId}`, []],
      ['#/members', [script]],
      ['#/webhooks', [image]],
      ['#/home', []],
      ['#/audit', []],
      ['#/approvals', [script, image, `Note${script}`, `Seen as${image}`]],
      [`#/proposals/${proposalId}`, [`${script} ${image}`, `Note${script}`]],
    ]
    for (const [fragment, expected] of pages) {
      await open(page, fragment)
      const text = (await page.locator('main').textContent()) ?? ''
      for (const literal of expected) expect(text, fragment).toContain(literal)
      expect(await page.locator('main script, main img, main iframe, main object').count(), fragment).toBe(0)
    }
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).window.__xss as number | undefined)).toBeUndefined()
    expect(dialogs).toEqual([])
    expect(errors).toEqual([])
    await context.close()
  }, 180_000)
})
