/**
 * The approvals inbox's second source (issue 21 item 5): agent proposals (GET /v1/proposals) in Debian's
 * Chromium, headless, on this run's engine. An agent records a finding (POST /v1/agents/actions); the inbox
 * shows it with its presentation (headline, recommendation, key facts, confidence band, policy decision
 * and trace, consequences) and evidence, with exactly its available decisions as buttons; an approver
 * whose approval domains do not cover it is refused in plain words; the owner acknowledges it from the
 * inbox and undoes that from the inbox it left; the finding then awaits a decision again. The bill payment
 * agent's payment of a bill above 500 EUR (a policy asking two approvals) is shown once, as the proposal;
 * approved by an approver, it shows it awaits a second approval and offers that approver no more decisions on it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, testPassword } from '../support/harness.ts'
import { chromiumPath, developerPlan, open, signIn, startConsole, type ConsoleHarness } from '../support/browser.ts'
import { business, type Business } from '../support/payments.ts'
import { compose, sign, signatureOf } from '../support/policy.ts'
import { normalize, seedArtifact } from '../support/ledger.ts'

describe.skipIf(chromiumPath === undefined)('the approvals inbox shows agent proposals', () => {
  let harness: ConsoleHarness
  let b: Business

  beforeAll(async () => {
    harness = await startConsole({ workers: true })
    b = await business(harness.test, '100000.00')
    await developerPlan(harness.test, b.owner.tenantId)
  })
  afterAll(async () => harness?.close())

  const proposal = async (id: string) => (await harness.test.request({ method: 'GET', url: `/v1/proposals/${id}`, token: b.owner.token })).json() as Record<string, any>

  it('shows a finding with its presentation and evidence; refuses an approver outside its domain in plain words; the owner acknowledges it and undoes that', async () => {
    const proposed = await harness.test.request({
      method: 'POST',
      url: '/v1/agents/actions',
      token: b.agent,
      headers: { 'idempotency-key': 'inbox-finding-1' },
      payload: { action_type: 'flag_transaction', narrative: 'Two identical card payments on one day. Check for a double charge.', confidence: 0.72, evidence: [{ kind: 'counterparty', ref: b.supplier }, { kind: 'document', ref: 'receipt-17' }], details: { reason: 'duplicate', amount: '23.80' } },
    })
    expect(proposed.statusCode, proposed.body).toBe(201)
    const id = proposed.json().id as string
    const read = await proposal(id)
    expect(read.status).toBe('proposed')
    expect(read.available_decisions.map((decision: { id: string }) => decision.id).sort()).toEqual(['acknowledge', 'reject'])

    // An approver whose approval domains cover payments only: the buttons are there, the API refuses, the card says why.
    const approver = await addMember(harness.test, b.owner, 'approver', { approval_domains: ['payment'] })
    const { context, page, errors } = await harness.newPage()
    await signIn(page, harness.baseUrl, approver.email, testPassword)
    await open(page, '#/approvals')
    const card = page.locator(`[data-testid="inbox-item"][data-id="${id}"]`)
    expect(await card.getByRole('heading', { level: 2 }).textContent()).toBe(`Finding ${read.presentation.headline}`)
    const text = (await card.textContent())!
    expect(text).toContain(read.presentation.recommendation)
    for (const fact of read.presentation.key_facts as Array<{ label: string; value: string }>) expect(text).toContain(`${fact.label}${fact.value}`)
    expect(text).toContain(`Confidence band${read.presentation.confidence_band}`)
    expect(await card.getByTestId('recommendation').textContent()).toBe(read.presentation.recommendation)
    expect(text).toContain('Awaiting a decision')
    expect(await card.getByTestId('proposal-policy').locator('summary').textContent()).toContain(read.policy.explanation)
    expect(text).toContain(`If you acknowledge: ${read.presentation.consequences.acknowledge}`)
    expect(text).toContain(`If you reject: ${read.presentation.consequences.reject}`)
    expect(await card.getByTestId('proposal-evidence').textContent()).toBe(`Evidence (2)counterparty: ${b.supplier}document: receipt-17`)
    expect(await card.getByTestId('proposal-evidence').getByRole('link', { name: b.supplier }).getAttribute('href')).toBe(`#/ledger/counterparties/${b.supplier}`)
    // Exactly the proposal's available decisions.
    expect(await card.getByRole('button').allTextContents()).toEqual(read.available_decisions.map((decision: { label: string }) => decision.label))
    await card.getByRole('button', { name: read.available_decisions.find((decision: { id: string }) => decision.id === 'acknowledge').label }).click()
    await expect.poll(() => card.getByTestId('item-error').textContent()).toBe('Your approval domains do not cover this kind of proposal: an admin can add it to your membership.')
    expect((await proposal(id)).status).toBe('proposed')

    // The owner acknowledges it from the inbox; it leaves the list and stays under "Just decided" with its undo.
    await signIn(page, harness.baseUrl, b.owner.email, testPassword)
    await open(page, '#/approvals')
    await card.getByRole('button', { name: read.available_decisions.find((decision: { id: string }) => decision.id === 'acknowledge').label }).click()
    const decided = page.getByTestId('just-decided').locator(`[data-testid="inbox-item"][data-id="${id}"]`)
    await decided.locator('.badge').getByText('acknowledged', { exact: true }).waitFor()
    expect(await page.locator('section[aria-label="Agent proposals"]').locator(`[data-id="${id}"]`).count()).toBe(0)
    const acknowledged = await proposal(id)
    expect(acknowledged.status).toBe('acknowledged')
    expect(await decided.getByRole('button').allTextContents()).toEqual(acknowledged.available_decisions.map((decision: { label: string }) => decision.label))
    await decided.getByRole('button', { name: acknowledged.available_decisions[0].label }).click()
    await page.locator('section[aria-label="Agent proposals"]').locator(`[data-id="${id}"]`).getByText('Undone: awaiting a decision again').waitFor()
    expect(await page.getByTestId('just-decided').count()).toBe(0)
    expect((await proposal(id)).status).toBe('undone')

    // Its own page, reached from the card.
    await page.locator(`[data-testid="inbox-item"][data-id="${id}"]`).getByRole('link', { name: 'Details' }).click()
    await page.getByRole('heading', { level: 1, name: read.presentation.headline }).waitFor()
    expect(await page.locator('main').textContent()).toContain('Two identical card payments on one day. Check for a double charge.')
    expect(errors).toEqual([])
    await context.close()
  }, 180_000)

  it('shows the bill payment agent\'s payment once, as its proposal; approved by an approver, it awaits a second approval', async () => {
    const policy = {
      version: 3,
      rules: [
        { id: 'dual', applies_to: ['outbound_payment'], when: { 'amount.gt': { currency: 'EUR', value: '500' } }, execute: 'confirm', approvals: 2 },
        { id: 'other', applies_to: ['outbound_payment', 'onchain_tx'], when: {}, execute: 'confirm' },
        { id: 'non-money', applies_to: ['inbound_payment', 'ledger_write', 'agent_action'], when: {}, execute: 'auto' },
      ],
    }
    const composed = await compose(harness.test, b.owner, policy)
    expect((await sign(harness.test, b.owner, b.signer.member.token, composed.policy_id, [await signatureOf(b.signer, composed)])).statusCode).toBe(200)
    const bill = await seedArtifact(harness.test, b.owner.tenantId, [
      { kind: 'invoice', direction: 'payable', invoice_number: 'PS-2026-41', issue_date: '2026-04-01', due_date: '2026-04-12', currency: 'EUR', total: '900.00', counterparty: { name: 'Paper Supply Co', iban: 'DE02120300000000202051' } },
    ])
    await normalize(harness.test, b.owner.tenantId, bill.artifactId)
    const run = await harness.test.request({ method: 'POST', url: '/v1/agents/run', token: b.owner.token, payload: { intent: 'pay the bills that are due', context: { as_of: '2026-04-10' } } })
    expect(run.statusCode, run.body).toBe(200)
    expect(run.json().selected_agent_id).toBe('bill_payment')
    const made = (run.json().proposals as Array<{ id: string; payment_intent_id: string | null }>).filter((candidate) => candidate.payment_intent_id !== null)
    expect(made).toHaveLength(1)
    const payment = await proposal(made[0]!.id)
    expect(payment).toMatchObject({ status: 'pending_approval', payment_intent_id: made[0]!.payment_intent_id })
    const intent = (await (await harness.test.request({ method: 'GET', url: `/v1/payment-intents/${payment!.payment_intent_id}`, token: b.owner.token })).json()) as Record<string, any>
    expect(intent).toMatchObject({ status: 'pending_approval', approvals_required: 2, amount: '900.00' })

    const approver = await addMember(harness.test, b.owner, 'approver', { approval_domains: ['payment'] })
    const { context, page, errors } = await harness.newPage()
    await signIn(page, harness.baseUrl, approver.email, testPassword)
    // Home counts what the inbox offers the member, the payment once (as its proposal).
    await open(page, '#/home')
    const needs = (await page.getByTestId('needs-approvals').textContent())!
    expect(needs).toMatch(/^\d+ proposal\(s\) and payment\(s\) awaiting your decision$/)
    await open(page, '#/approvals')
    expect(await page.locator('main p').first().textContent()).toBe(`${Number.parseInt(needs, 10)} item(s) await a decision.`)
    expect(Number.parseInt(needs, 10)).toBe(await page.locator('[data-testid="inbox-item"]').count())
    const card = page.locator(`[data-testid="inbox-item"][data-id="${payment!.id}"]`)
    expect(await card.getByRole('heading', { level: 2 }).textContent()).toBe(`Payment ${payment!.presentation.headline}`)
    expect(await card.textContent()).toContain('Awaiting approval')
    expect(await card.textContent()).toContain(`If you approve: ${payment!.presentation.consequences.approve}`)
    // The intent is not shown a second time by the payments source.
    expect(await page.locator(`[data-testid="inbox-item"][data-id="${payment!.payment_intent_id}"]`).count()).toBe(0)
    expect(await card.getByRole('button').allTextContents()).toEqual(['Approve', 'Reject'])
    await card.getByRole('button', { name: 'Approve' }).click()
    await card.getByText('Awaiting a second approval: a different member has to approve it too').waitFor()
    expect((await proposal(payment!.id)).status).toBe('awaiting_second_approval')
    // The same member is not offered the second approval (the API would refuse it): the card says why.
    await card.getByText('You gave the first approval: a second, different member has to approve or reject it.').waitFor()
    expect(await card.getByRole('button').count()).toBe(0)
    expect(errors).toEqual([])
    await context.close()
  }, 240_000)
})
