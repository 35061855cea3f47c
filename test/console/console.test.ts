/**
 * The console (issue 21) in Debian's Chromium, headless, against a listening app on this run's engine:
 * sign in by keyboard, upload a statement by drag and drop and watch it normalize, find a transaction
 * and walk its evidence to the raw file, approve a payment intent as an approver and see that a second
 * approval is required (and why the same member cannot give it), open its proof and verify it in the
 * browser, halt an agent. The page is served with a strict CSP and is not an API operation.
 */
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, testPassword } from '../support/harness.ts'
import { chromiumPath, open, signIn, startConsole, type ConsoleHarness } from '../support/browser.ts'
import { compose, sign, signatureOf } from '../support/policy.ts'
import { business, type Business } from '../support/payments.ts'

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
    expect((await missing.json()).error.code).toBe('route_not_found')
    expect((await fetch(`${harness.baseUrl}/console/..%2Fpackage.json`)).status).toBe(404)
    const routes = harness.test.app.registeredRoutes.filter((route) => route.url.startsWith('/console'))
    expect(routes.length).toBeGreaterThan(0)
    expect(routes.every((route) => route.auth.kind === 'public' && !route.documented)).toBe(true)
    const document = (await (await fetch(`${harness.baseUrl}/v1/openapi.json`)).json()) as { paths: Record<string, unknown> }
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/console'))).toEqual([])
  })

  it('signs in by keyboard, labels every control, and signs out (the token lived in memory only)', async () => {
    const { context, page } = await harness.newPage()
    await page.goto(`${harness.baseUrl}/console`)
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('signin-email')
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
      const unlabelled = await page.evaluate(() =>
        [...document.querySelectorAll('input, select, textarea')].filter((control) => (control as HTMLInputElement).labels?.length === 0 && !control.getAttribute('aria-label')).map((control) => control.outerHTML),
      )
      expect(unlabelled, fragment).toEqual([])
    }
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie)).toBe('{}{}')
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByLabel('Email').waitFor()
    await context.close()
  })

  it('uploads a statement by drag and drop and watches it normalize', async () => {
    const { context, page } = await harness.newPage()
    await signIn(page, harness.baseUrl, b.owner.email, testPassword)
    await open(page, '#/imports')
    await page.evaluate((csv) => {
      const transfer = new DataTransfer()
      transfer.items.add(new File([csv], 'march-statement.csv', { type: 'text/csv' }))
      document.querySelector('[data-testid="dropzone"]')!.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }))
    }, statementCsv)
    const row = page.getByRole('row').filter({ hasText: 'march-statement.csv' })
    await row.waitFor()
    await row.getByTestId('normalization').getByText('succeeded').waitFor({ timeout: 60_000 })
    expect(await row.textContent()).toContain('normalization succeeded: 4 of 4 rows')
    expect(await row.textContent()).toContain('0 refused')
    await context.close()
  })
})
