/**
 * The console (issue 21) in Debian's Chromium, headless, against a listening app on this run's engine:
 * sign in by keyboard, upload a statement by drag and drop and watch it normalize, find a transaction
 * and walk its evidence to the raw file, approve a payment intent as an approver and see that a second
 * approval is required (and why the same member cannot give it), open its proof and verify it in the
 * browser, halt an agent. The page is served with a strict CSP and is not an API operation.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, testPassword } from '../support/harness.ts'
import { chromiumPath, developerPlan, open, signIn, startConsole, type ConsoleHarness, type PageGlobals } from '../support/browser.ts'
import { compose, sign, signatureOf } from '../support/policy.ts'
import { business, type Business } from '../support/payments.ts'
import { settledPipeline } from '../support/ledger.ts'
import { multipartBody } from '../fixtures/raw/ingest/raw-test-kit.ts'

if (chromiumPath === undefined) console.log('Chromium is not installed at /usr/bin/chromium: the console browser tests are SKIPPED (apt-get install -y chromium).')

/** The business's policy plus a rule asking two approvals above 500 EUR. */
function dualApprovalPolicy(version: number) {
  return {
    version,
    rules: [
      { id: 'small', applies_to: ['outbound_payment'], when: { 'amount.lte': { currency: 'EUR', value: '50' } }, execute: 'auto', autonomous_cap: { currency: 'EUR', value: '50' } },
      { id: 'dual', applies_to: ['outbound_payment'], when: { 'amount.gt': { currency: 'EUR', value: '500' } }, execute: 'confirm', approvals: 2 },
      { id: 'other', applies_to: ['outbound_payment', 'onchain_tx'], when: {}, execute: 'confirm' },
      { id: 'non-money', applies_to: ['inbound_payment', 'ledger_write', 'agent_action'], when: {}, execute: 'auto' },
    ],
  }
}

export const statementCsv = ['Date,Payee,Description,Amount,Currency', '2026-03-05,Harbor Freight Lines,Freight invoice 4411,-1250.00,EUR', '2026-03-09,Acme Customer GmbH,Payment invoice 2026-17,4800.00,EUR', '2026-03-12,Office Depot,Paper and toner,-86.40,EUR'].join('\n')

describe.skipIf(chromiumPath === undefined)('the console in Chromium', () => {
  let harness: ConsoleHarness
  let b: Business

  beforeAll(async () => {
    harness = await startConsole({ workers: true })
    b = await business(harness.test, '100000.00')
    await developerPlan(harness.test, b.owner.tenantId)
    const composed = await compose(harness.test, b.owner, dualApprovalPolicy(3))
    const signed = await sign(harness.test, b.owner, b.signer.member.token, composed.policy_id, [await signatureOf(b.signer, composed)])
    expect(signed.statusCode, signed.body).toBe(200)
  })
  afterAll(async () => harness?.close())

  it('is served at /console with a strict Content-Security-Policy, public, and is not an API operation', async () => {
    const response = await fetch(`${harness.baseUrl}/console`)
    expect(response.status).toBe(200)
    const csp = response.headers.get('content-security-policy')!
    expect(csp).toContain("default-src 'self'")
    expect(csp).toContain("script-src 'self'")
    expect(csp).not.toContain('unsafe-inline')
    expect(csp).not.toContain('unsafe-eval')
    const html = await response.text()
    // No inline script: the one script is a file of this origin.
    expect(html).toMatch(/<script type="module" src="\/console\/app-[A-Z0-9]+\.js"><\/script>/)
    expect(html.replace(/<script type="module" src="[^"]+"><\/script>/, '')).not.toContain('<script')
    const script = /src="(\/console\/app-[A-Z0-9]+\.js)"/.exec(html)![1]!
    const asset = await fetch(`${harness.baseUrl}${script}`)
    expect(asset.status).toBe(200)
    expect(asset.headers.get('content-type')).toContain('javascript')
    expect(asset.headers.get('content-security-policy')).toBe(csp)
    const missing = await fetch(`${harness.baseUrl}/console/nothing-here.js`)
    expect(missing.status).toBe(404)
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('route_not_found')
    expect((await fetch(`${harness.baseUrl}/console/..%2Fpackage.json`)).status).toBe(404)
    const routes = harness.test.app.registeredRoutes.filter((route) => route.url.startsWith('/console'))
    expect(routes.length).toBeGreaterThan(0)
    expect(routes.every((route) => route.auth.kind === 'public' && !route.documented)).toBe(true)
    const document = (await (await fetch(`${harness.baseUrl}/v1/openapi.json`)).json()) as { paths: Record<string, unknown> }
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/console'))).toEqual([])
  }, 180_000)

  it('signs in by keyboard, labels every control, and signs out (the token lived in memory only)', async () => {
    const { context, page } = await harness.newPage()
    await page.goto(`${harness.baseUrl}/console`)
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).document.activeElement?.id as string | undefined)).toBe('signin-email')
    await page.keyboard.type(b.owner.email)
    await page.keyboard.press('Tab')
    await page.keyboard.type('wrong password')
    await page.keyboard.press('Enter')
    await expect.poll(() => page.getByRole('alert').textContent()).not.toBe('')
    await page.getByLabel('Password').fill(testPassword)
    await page.getByLabel('Password').press('Enter')
    await page.getByTestId('who').waitFor()
    expect(await page.getByTestId('who').textContent()).toBe(b.owner.email)
    await page.locator('main[data-ready="true"]').waitFor()
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Home')
    for (const fragment of ['#/home', '#/ledger/transactions', '#/imports', '#/approvals', '#/audit', '#/agents', '#/policy', '#/members', '#/webhooks']) {
      await open(page, fragment)
      const unlabelled = await page.evaluate(() => {
        const { document } = globalThis as unknown as PageGlobals
        const controls = [...document.querySelectorAll('input, select, textarea')] as Array<{ labels: { length: number } | null; getAttribute(name: string): string | null; outerHTML: string }>
        return controls.filter((control) => control.labels?.length === 0 && !control.getAttribute('aria-label')).map((control) => control.outerHTML)
      })
      expect(unlabelled, fragment).toEqual([])
    }
    expect(
      await page.evaluate(() => {
        const { localStorage, sessionStorage, document } = globalThis as unknown as PageGlobals
        return JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + String(document.cookie)
      }),
    ).toBe('{}{}')
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByLabel('Email').waitFor()
    await context.close()
  }, 180_000)

  it('signs in with a browser wallet (SIWX) where one is present: the wallet linked to a member signs the API\'s challenge', async () => {
    const { context, page } = await harness.newPage()
    // A stand-in for a wallet extension: window.ethereum whose personal_sign the signer's key answers.
    await page.exposeFunction('__testWalletSign', (hex: string) => b.signer.account.signMessage({ message: { raw: hex as `0x${string}` } }))
    await page.addInitScript((address) => {
      const { window } = globalThis as unknown as PageGlobals
      window.ethereum = {
        request: async ({ method, params }: { method: string; params?: unknown[] }) => {
          if (method === 'eth_requestAccounts') return [address]
          if (method === 'personal_sign') return window.__testWalletSign(params![0]) as Promise<string>
          throw new Error(`unsupported ${method}`)
        },
      }
    }, b.signer.account.address)
    await page.goto(`${harness.baseUrl}/console`)
    await page.getByRole('button', { name: 'Sign in with a browser wallet' }).click()
    await page.getByTestId('who').waitFor()
    expect((await page.getByTestId('who').textContent())!.toLowerCase()).toBe(b.signer.address)
    await page.locator('main[data-ready="true"]').waitFor()
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Home')
    await context.close()
  }, 180_000)

  it('uploads a statement by drag and drop and watches it normalize', async () => {
    const { context, page } = await harness.newPage()
    await signIn(page, harness.baseUrl, b.owner.email, testPassword)
    await open(page, '#/imports')
    await page.evaluate((csv) => {
      const { window, document, DataTransfer, File, DragEvent } = globalThis as unknown as PageGlobals
      // Every percentage the upload's status shows (the page re-renders once the upload is done).
      window.__uploadPercents = []
      new window.MutationObserver((records: Array<{ target: { dataset: { uploadPercent?: string } } }>) => {
        for (const record of records) if (record.target.dataset.uploadPercent !== undefined) window.__uploadPercents.push(record.target.dataset.uploadPercent)
      }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-upload-percent'] })
      const transfer = new DataTransfer()
      transfer.items.add(new File([csv], 'march-statement.csv', { type: 'text/csv' }))
      document.querySelector('[data-testid="dropzone"]').dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }))
    }, statementCsv)
    const row = page.getByRole('row').filter({ hasText: 'march-statement.csv' })
    await row.waitFor()
    // The bar showed the bytes sent (XMLHttpRequest's upload progress), up to all of them.
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).window.__uploadPercents as string[])).toContain('100')
    await row.getByTestId('normalization').getByText('succeeded').waitFor({ timeout: 60_000 })
    expect(await row.textContent()).toContain('normalization succeeded: 4 of 4 rows')
    expect(await row.textContent()).toContain('0 refused')
    await context.close()
  }, 180_000)

  it('shows an import\'s refused rows with their reasons, and tombstones it after confirmation', async () => {
    const csv = readFileSync(join(process.cwd(), 'test/fixtures/raw/bank/csv/malformed-non-numeric-amount-row7.csv'))
    const ingested = await harness.test.request({ method: 'POST', url: '/v1/raw/ingest', token: b.owner.token, ...multipartBody([['source_type', 'csv_upload']], { filename: 'tbd-amount.csv', contentType: 'text/csv', content: csv }) })
    expect(ingested.statusCode, ingested.body).toBe(201)
    const rawId = ingested.json().raw_id as string
    await settledPipeline(harness.test, b.owner.tenantId)
    const artifact = (await harness.test.request({ method: 'GET', url: `/v1/raw/${rawId}`, token: b.owner.token })).json() as { refused_rows: Array<{ reason: string }>; extraction_error: string | null }
    const reasons = [...artifact.refused_rows.map((row) => row.reason), ...(artifact.extraction_error === null ? [] : [artifact.extraction_error])]
    expect(reasons.length).toBeGreaterThan(0)
    const { context, page, dialogs } = await harness.newPage({ acceptDialogs: true })
    await signIn(page, harness.baseUrl, b.owner.email, testPassword)
    await open(page, `#/raw/${rawId}`)
    const text = (await page.locator('main').textContent())!
    for (const reason of reasons) expect(text).toContain(reason)
    await page.getByRole('button', { name: 'Tombstone this file' }).click()
    await page.getByRole('heading', { name: 'Imports' }).waitFor()
    expect(dialogs).toEqual(['Tombstone tbd-amount.csv? Its bytes are erased; the record of it stays.'])
    expect((await harness.test.request({ method: 'GET', url: `/v1/raw/${rawId}/parsed`, token: b.owner.token })).statusCode).toBe(410)
    await context.close()
  }, 180_000)

  it('finds a transaction with filters and walks its evidence down to the raw file', async () => {
    const ingested = await harness.test.request({ method: 'POST', url: '/v1/raw/ingest', token: b.owner.token, ...multipartBody([['source_type', 'csv_upload']], { filename: 'april.csv', contentType: 'text/csv', content: statementCsv.replaceAll('2026-03-', '2026-04-') }) })
    expect(ingested.statusCode, ingested.body).toBe(201)
    await settledPipeline(harness.test, b.owner.tenantId)
    const { context, page } = await harness.newPage()
    await signIn(page, harness.baseUrl, b.owner.email, testPassword)
    await open(page, '#/ledger/transactions')
    await page.getByLabel('Direction').selectOption('outflow')
    await page.getByLabel('From date').fill('2026-04-01')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    // The filtered page replaces the unfiltered one when its data has come (which showed March's freight
    // payment beside April's, and the inflows): one freight payment, April's, and no inflow.
    const shown = async () => ({
      freight: await page.getByRole('link', { name: 'Freight invoice 4411' }).count(),
      inflow: await page.getByRole('link', { name: 'Payment invoice 2026-17' }).count(),
    })
    await expect.poll(shown).toEqual({ freight: 1, inflow: 0 })
    await page.getByRole('link', { name: 'Freight invoice 4411' }).click()
    await page.getByTestId('entity-title').getByText('Freight invoice 4411').waitFor()
    const transactionId = decodeURIComponent(/#\/ledger\/transactions\/([^?]+)/.exec(page.url())![1]!)
    const transaction = (await (await harness.test.request({ method: 'GET', url: `/v1/ledger/transactions/${transactionId}`, token: b.owner.token })).json()) as { source_ids: string[]; evidence_ids: string[] }
    await page.getByTestId('evidence-raw').first().click()
    await page.getByTestId('raw-sha256').waitFor()
    expect(page.url()).toContain(`#/raw/${transaction.source_ids[0]}`)
    // The parsed row the transaction came from is marked among the file's rows.
    expect(await page.getByTestId('evidence-row').count()).toBe(transaction.evidence_ids.length)
    // The download link is the raw file itself: its bytes hash to the SHA-256 the page shows.
    const href = await page.getByTestId('raw-download').getAttribute('href')
    const bytes = Buffer.from(await (await page.request.get(`${harness.baseUrl}${href}`)).body())
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(await page.getByTestId('raw-sha256').textContent())
    await context.close()
  }, 180_000)

  it('approves a payment intent as an approver, shows that a second approval is required and why the same member cannot give it; its proof verifies in the browser', async () => {
    const approver = await addMember(harness.test, b.owner, 'approver', { approval_domains: ['payment'] })
    const proposed = await harness.test.request({ method: 'POST', url: '/v1/payment-intents', token: b.agent, payload: { action_type: 'ach_outbound', source_account_id: b.account, destination_counterparty_id: b.supplier, amount: '700.00', currency: 'EUR' } })
    expect(proposed.statusCode, proposed.body).toBe(201)
    const intentId = proposed.json().id as string
    expect(proposed.json()).toMatchObject({ status: 'pending_approval', approvals_required: 2 })

    // An agent's payment is a proposal too (GET /v1/proposals): the inbox shows it once, as the proposal.
    const listed = (await (await harness.test.request({ method: 'GET', url: '/v1/proposals?status=pending_approval&limit=100', token: b.owner.token })).json()) as {
      proposals: Array<{ id: string; payment_intent_id: string | null; presentation: { headline: string } }>
    }
    const proposal = listed.proposals.find((candidate) => candidate.payment_intent_id === intentId)!
    expect(proposal).toBeDefined()

    const { context, page } = await harness.newPage()
    await signIn(page, harness.baseUrl, approver.email, testPassword)
    await open(page, '#/approvals')
    expect(await page.locator(`[data-testid="inbox-item"][data-id="${intentId}"]`).count()).toBe(0)
    const card = page.locator(`[data-testid="inbox-item"][data-id="${proposal.id}"]`)
    expect(await card.getByRole('heading').textContent()).toBe(`Payment ${proposal.presentation.headline}`)
    expect(await card.textContent()).toContain('Awaiting approval')
    expect(await card.getByTestId('proposal-policy').textContent()).toContain('Policy v3: confirm by rule dual')
    await card.getByRole('button', { name: 'Approve' }).click()
    await card.getByText('Awaiting a second approval: a different member has to approve it too').waitFor()
    // The same member is not offered the second approval (the API would refuse it): the card says why.
    await card.getByText('You gave the first approval: a second, different member has to approve or reject it.').waitFor()
    expect(await card.getByRole('button').count()).toBe(0)
    const stored = (await (await harness.test.request({ method: 'GET', url: `/v1/payment-intents/${intentId}`, token: b.owner.token })).json()) as { status: string; approvals: unknown[] }
    expect(stored).toMatchObject({ status: 'awaiting_second_approval' })
    expect(stored.approvals).toHaveLength(1)

    // The second approval, by the owner in the console; then the proof, sealed under a Merkle root.
    await signIn(page, harness.baseUrl, b.owner.email, testPassword)
    await open(page, `#/payment-intents/${intentId}`)
    expect(await page.locator('main').textContent()).toContain('Awaiting a second approval (1 of 2)')
    await page.getByRole('button', { name: 'Approve' }).click()
    await page.locator('.badge').getByText('approved', { exact: true }).waitFor()
    await harness.test.runtime.settleAudit({ closeOpenBatch: true })
    await open(page, `#/payment-intents/${intentId}`)
    await page.getByTestId('open-proof').click()
    await page.getByRole('button', { name: 'Verify in this browser' }).waitFor()
    await page.getByRole('button', { name: 'Verify in this browser' }).click()
    expect(await page.getByTestId('verify-verdict').textContent()).toMatch(/^Verified in this browser: every event hash and Merkle path recomputes/)
    expect(await page.getByTestId('anchor-verdict').textContent()).toMatch(/is not anchored on chain yet/)
    // A proof altered in transit does not verify: the browser recomputes, it does not trust the page.
    await page.route(`**/v1/proof/${intentId}`, async (route) => {
      const response = await route.fetch()
      const proof = await response.json()
      proof.events[0].event.outputs = { ...proof.events[0].event.outputs, amount: '7.00' }
      await route.fulfill({ response, json: proof })
    })
    await open(page, `#/proofs/${intentId}?again=1`)
    await page.getByRole('button', { name: 'Verify in this browser' }).click()
    expect(await page.getByTestId('verify-verdict').textContent()).toBe('Does NOT verify: see the failing check below.')
    await context.close()
  }, 180_000)

  it('does not offer a payment, nor count it, to the member who gave its first approval; a second member is offered it and approves it', async () => {
    const first = await addMember(harness.test, b.owner, 'approver', { approval_domains: ['payment'] })
    const second = await addMember(harness.test, b.owner, 'approver', { approval_domains: ['payment'] })
    const proposed = await harness.test.request({ method: 'POST', url: '/v1/payment-intents', token: b.agent, payload: { action_type: 'ach_outbound', source_account_id: b.account, destination_counterparty_id: b.supplier, amount: '800.00', currency: 'EUR' } })
    expect(proposed.statusCode, proposed.body).toBe(201)
    const intentId = proposed.json().id as string
    expect(proposed.json()).toMatchObject({ status: 'pending_approval', approvals_required: 2 })
    const listed = (await (await harness.test.request({ method: 'GET', url: '/v1/proposals?status=pending_approval&limit=100', token: b.owner.token })).json()) as { proposals: Array<{ id: string; payment_intent_id: string | null }> }
    const proposalId = listed.proposals.find((candidate) => candidate.payment_intent_id === intentId)!.id

    const { context, page, errors } = await harness.newPage()
    const needs = async () => {
      await open(page, '#/home')
      const text = (await page.getByTestId('needs-approvals').textContent())!
      expect(text).toMatch(/^\d+ proposal\(s\) and payment\(s\) awaiting your decision$/)
      return Number.parseInt(text, 10)
    }
    // Before any approval, both members are offered the payment, and it counts for both.
    await signIn(page, harness.baseUrl, first.email, testPassword)
    const firstBefore = await needs()
    await signIn(page, harness.baseUrl, second.email, testPassword)
    expect(await needs()).toBe(firstBefore)

    // The first member approves it (through the API); the payment now awaits a second, different member.
    const approved = await harness.test.request({ method: 'POST', url: `/v1/payment-intents/${intentId}/approve`, token: first.token, headers: { 'idempotency-key': `first-${intentId}` } })
    expect(approved.statusCode, approved.body).toBe(200)
    expect(approved.json()).toMatchObject({ status: 'awaiting_second_approval', approvals: [{ decision: 'approve', member_id: first.memberId }] })

    // The first member: not counted, and the card (the proposal, and the payment's own page) offers no decision and says why.
    await signIn(page, harness.baseUrl, first.email, testPassword)
    expect(await needs()).toBe(firstBefore - 1)
    await open(page, '#/approvals')
    const card = page.locator(`[data-testid="inbox-item"][data-id="${proposalId}"]`)
    expect(await card.locator('.badge').textContent()).toBe('Awaiting a second approval: a different member has to approve it too')
    expect(await card.textContent()).toContain('You gave the first approval: a second, different member has to approve or reject it.')
    expect(await card.getByRole('button').count()).toBe(0)
    expect(await page.locator('[data-testid="inbox-item"]').count()).toBe(firstBefore)
    await open(page, `#/payment-intents/${intentId}`)
    expect(await page.locator('main').textContent()).toContain('You gave the first approval: a second, different member has to approve or reject it.')
    expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0)

    // The second member: still counted and offered; their approval from the payment's page is the last one needed.
    await signIn(page, harness.baseUrl, second.email, testPassword)
    expect(await needs()).toBe(firstBefore)
    await open(page, '#/approvals')
    expect(await card.getByRole('button').allTextContents()).toEqual(['Approve', 'Reject'])
    await open(page, `#/payment-intents/${intentId}`)
    expect(await page.locator('main').textContent()).toContain('Your approval is the last one needed')
    await page.getByRole('button', { name: 'Approve' }).click()
    await page.locator('.badge').getByText('approved', { exact: true }).waitFor()
    const stored = (await (await harness.test.request({ method: 'GET', url: `/v1/payment-intents/${intentId}`, token: b.owner.token })).json()) as { status: string; approvals: Array<{ member_id: string }> }
    expect(stored.status).toBe('approved')
    expect(stored.approvals.map((approval) => approval.member_id)).toEqual([first.memberId, second.memberId])
    expect(errors).toEqual([])
    await context.close()
  }, 180_000)

  it('halts an agent and restores it', async () => {
    const { context, page, errors } = await harness.newPage()
    await signIn(page, harness.baseUrl, b.owner.email, testPassword)
    await open(page, '#/agents')
    expect(errors).toEqual([])
    await page.getByRole('button', { name: 'Halt vendor_risk' }).click()
    await page.getByTestId('agent-state-vendor_risk').getByText('quarantined').waitFor()
    const agent = (await (await harness.test.request({ method: 'GET', url: '/v1/agents/vendor_risk', token: b.owner.token })).json()) as { state: string }
    expect(agent.state).toBe('quarantined')
    await page.getByRole('button', { name: 'Restore vendor_risk' }).click()
    await page.getByTestId('agent-state-vendor_risk').getByText('active').waitFor()
    await context.close()
  }, 180_000)

  it('shows the active policy in words and simulates an action against it before anyone signs', async () => {
    const { context, page } = await harness.newPage()
    await signIn(page, harness.baseUrl, b.owner.email, testPassword)
    await open(page, '#/policy')
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Policy v3')
    expect(await page.locator('ol.rules').textContent()).toContain('dual: for outbound_payment')
    await page.getByLabel('Amount').fill('700.00')
    await page.getByRole('button', { name: 'Simulate the action' }).click()
    await page.getByText('Policy v3 would confirm by rule dual, needing 2 approval(s).').waitFor()
    await page.getByLabel('Amount').fill('20.00')
    await page.getByRole('button', { name: 'Simulate the action' }).click()
    await page.getByText('Policy v3 would allow by rule small.').waitFor()
    await context.close()
  }, 180_000)

  // `CONSOLE_SCREENSHOTS=1 npx vitest run test/console/console.test.ts` writes docs/console/*.png (docs/console.md).
  it.runIf(process.env.CONSOLE_SCREENSHOTS === '1')('writes a screenshot of each page into docs/console', async () => {
    const folder = join(process.cwd(), 'docs', 'console')
    mkdirSync(folder, { recursive: true })
    const pending = await harness.test.request({ method: 'POST', url: '/v1/payment-intents', token: b.agent, payload: { action_type: 'ach_outbound', source_account_id: b.account, destination_counterparty_id: b.supplier, amount: '820.00', currency: 'EUR' } })
    expect(pending.statusCode, pending.body).toBe(201)
    const finding = await harness.test.request({
      method: 'POST',
      url: '/v1/agents/actions',
      token: b.agent,
      payload: { action_type: 'flag_transaction', narrative: 'Two card payments of 86.40 EUR to Office Depot on one day. Check for a double charge.', confidence: 0.82, evidence: [{ kind: 'counterparty', ref: b.supplier }], details: { reason: 'duplicate', amount: '86.40' } },
    })
    expect(finding.statusCode, finding.body).toBe(201)
    await harness.test.runtime.settleAudit({ closeOpenBatch: true })
    const { context, page } = await harness.newPage()
    await page.setViewportSize({ width: 1200, height: 760 })
    const shoot = (name: string) => page.screenshot({ path: join(folder, `${name}.png`) })
    await page.goto(`${harness.baseUrl}/console`)
    await page.getByLabel('Email').waitFor()
    await shoot('sign-in')
    await signIn(page, harness.baseUrl, b.owner.email, testPassword)
    const transactions = (await (await harness.test.request({ method: 'GET', url: '/v1/ledger/transactions?limit=1000', token: b.owner.token })).json()).transactions as Array<{ id: string; source_ids: string[]; evidence_ids: string[] }>
    const transaction = transactions.find((row) => row.source_ids.length > 0)!
    const shots: Array<[string, string]> = [
      ['home', '#/home'],
      ['transactions', '#/ledger/transactions'],
      ['transaction', `#/ledger/transactions/${transaction.id}`],
      ['record-history', `#/ledger/transactions/${transaction.id}?version=1`],
      ['raw-file', `#/raw/${transaction.source_ids[0]}?rows=${transaction.evidence_ids.join(',')}`],
      ['accounts', '#/ledger/accounts'],
      ['counterparties', '#/ledger/counterparties'],
      ['invoices', '#/ledger/invoices'],
      ['imports', '#/imports'],
      ['approvals', '#/approvals'],
      ['proposal', `#/proposals/${finding.json().id}`],
      ['audit', '#/audit'],
      ['policy', '#/policy'],
      ['agents', '#/agents'],
      ['webhooks', '#/webhooks'],
      ['members', '#/members'],
    ]
    for (const [name, fragment] of shots) {
      await open(page, fragment)
      if (name === 'record-history') await page.getByTestId('entity-history').scrollIntoViewIfNeeded()
      await shoot(name)
    }
    await open(page, `#/proofs/${pending.json().id}`)
    await page.getByRole('button', { name: 'Verify in this browser' }).click()
    await page.getByTestId('verify-verdict').waitFor()
    await shoot('proof')
    await context.close()
  }, 180_000)
})
