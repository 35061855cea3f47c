/**
 * Governing rule 7 through a run (issue 18, item 4): on a business whose policy lets payments up to 50 EUR
 * through on their own, bill payment's proposal of a 30 EUR bill is approved by the policy and, the agent
 * being un-promoted, the run takes it through the gate at once: shadow_completed, nothing sent. Once an
 * admin promotes bill_payment, its next run is not shadowed and its approved payment waits for a
 * deliberate execute. Runs on both engines.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../../../src/platform/db/database.ts'
import { createTestApp, type TestApp } from '../../support/harness.ts'
import { normalize, seedArtifact } from '../../support/ledger.ts'
import { business, promotionRequest, type Business } from '../../support/payments.ts'

let test: TestApp
let b: Business

const supplier = { name: 'Paper Supply Co', iban: 'DE02120300000000202051' }
const bill = (number: string, total: string, due: string) =>
  ({ kind: 'invoice', direction: 'payable', invoice_number: number, issue_date: '2026-03-20', due_date: due, currency: 'EUR', total, status: 'sent', counterparty: supplier }) as const

async function runBillPayment() {
  const response = await test.request({ method: 'POST', url: '/v1/agents/run', token: b.owner.token, payload: { event: 'ledger.obligation.created', context: { as_of: '2026-04-01' } } })
  expect(response.statusCode, response.body).toBe(200)
  return response.json()
}

const outboxRows = async (paymentIntentId: string) =>
  (await queryRows<{ n: number }>(test.runtime.db.orm, sql`select count(*)::int as n from payment_outbox where tenant_id = ${b.owner.tenantId} and payment_intent_id = ${paymentIntentId}`))[0]!.n

beforeAll(async () => {
  test = await createTestApp()
  b = await business(test, '1000.00', { promoted: false })
  await normalize(test, b.owner.tenantId, (await seedArtifact(test, b.owner.tenantId, [bill('PS-1', '30.00', '2026-04-03')], { sourceType: 'erp_provider' })).artifactId)
}, 120_000)
afterAll(async () => test?.close())

describe('a run of an un-promoted agent', () => {
  it('takes a payment the policy approves through the gate at once, ending shadow_completed with nothing sent', async () => {
    const body = await runBillPayment()
    expect(body).toMatchObject({ status: 'proposal_created', selected_agent_id: 'bill_payment', shadow_mode: true, action: 'pay_invoice' })
    expect(body.proposals).toHaveLength(1)
    const [proposal] = body.proposals
    expect(proposal).toMatchObject({ status: 'shadow_completed', payment_intent_id: expect.stringMatching(/^pi_/) })
    expect(body.proposed).toEqual({ id: proposal.payment_intent_id, status: 'shadow_completed', policy_decision_id: proposal.policy_decision_id })
    const intent = (await test.request({ method: 'GET', url: `/v1/payment-intents/${proposal.payment_intent_id}`, token: b.owner.token })).json()
    expect(intent).toMatchObject({ status: 'shadow_completed', created_by_agent_id: 'bill_payment', amount: '30.00', destination_counterparty_id: b.supplier, source_account_id: b.account })
    expect(intent.policy_decision).toMatchObject({ outcome: 'allow', matched_rule_id: 'small' })
    expect(await outboxRows(proposal.payment_intent_id)).toBe(0)
    const trace = (await test.request({ method: 'GET', url: `/v1/agents/runs/${body.run_id}/gate-trace`, token: b.owner.token })).json()
    expect(trace.payment_intents[0]).toMatchObject({ status: 'shadow_completed', dry_run: { outcome: 'allow', matched_rule_id: 'small', required_approvers: [] } })
    expect(trace.payment_intents[0].gate_runs[0].checks).toHaveLength(23)
  })
})

describe('a run of a promoted agent', () => {
  it('is not shadowed: the approved payment waits for a deliberate execute', async () => {
    const promoted = await test.request({
      method: 'POST',
      url: '/v1/execution/agents/bill_payment/promote',
      token: b.admin.token,
      payload: promotionRequest({ per_payment_cap: '100', per_day_cap: '100', reason: 'bill payment goes live' }),
    })
    expect(promoted.statusCode, promoted.body).toBe(201)
    await normalize(test, b.owner.tenantId, (await seedArtifact(test, b.owner.tenantId, [bill('PS-2', '40.00', '2026-04-02')], { sourceType: 'erp_provider' })).artifactId)
    const body = await runBillPayment()
    expect(body).toMatchObject({ status: 'proposal_created', shadow_mode: false })
    // PS-1's payment ended shadow_completed within the day: not proposed again.
    expect(body.proposals).toHaveLength(1)
    expect(body.duplicates).toHaveLength(1)
    const [proposal] = body.proposals
    expect(proposal).toMatchObject({ status: 'approved', narrative: expect.stringContaining('PS-2') })
    expect(await outboxRows(proposal.payment_intent_id)).toBe(0)
    expect((await test.request({ method: 'GET', url: '/v1/agents/bill_payment', token: b.owner.token })).json().definition.shadow_mode).toBe(false)
    // Executed deliberately, it passes every gate check, the agent's behaviour hash pinned at proposal (1.5) included, and is dispatched.
    const executed = await test.request({ method: 'POST', url: `/v1/payment-intents/${proposal.payment_intent_id}/execute`, token: b.agent })
    expect(executed.statusCode, executed.body).toBe(202)
    expect(executed.json()).toMatchObject({ status: 'dispatching', rail: 'bank_ach' })
    expect(await outboxRows(proposal.payment_intent_id)).toBe(1)
  })
})
