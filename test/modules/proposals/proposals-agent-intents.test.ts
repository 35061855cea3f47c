/**
 * Every PaymentIntent an agent proposes is a proposal, exactly once (issue 20: "people see every agent output
 * as a proposal"). An external agent proposes by REST and by the agent protocol's payment_intent.propose, a
 * service token (Steward's internal agent) by REST: GET /v1/proposals lists each once as a `payment` with
 * the intent's policy decision and presentation, and deciding it approves or rejects the intent. A
 * first-party run's payment is still listed once (the run writes its own row). Both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../support/harness.ts'
import { getOk, normalize, seedArtifact } from '../../support/ledger.ts'
import { callTool, signInAgent, type SignedInAgent } from '../../support/mcp.ts'
import { business, type Business } from '../../support/payments.ts'

let test: TestApp
let world: Business
let proposer: SignedInAgent

type Listed = Record<string, any>

async function allProposals(): Promise<Listed[]> {
  const proposals: Listed[] = []
  let cursor: string | null = null
  do {
    const page: Record<string, any> = await getOk(test, world.owner.token, `/v1/proposals?limit=100${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`)
    proposals.push(...(page.proposals as Listed[]))
    cursor = (page.next_cursor as string | null | undefined) ?? null
  } while (cursor !== null)
  return proposals
}

/** The proposals of this intent: the test asserts there is exactly one. */
async function proposalsOf(paymentIntentId: string): Promise<Listed[]> {
  return (await allProposals()).filter((proposal) => proposal.payment_intent_id === paymentIntentId)
}

const payment = (amount: string) => ({ action_type: 'ach_outbound', source_account_id: world.account, destination_counterparty_id: world.supplier, amount, currency: 'EUR', confidence: 0.8 })

beforeAll(async () => {
  test = await createTestApp()
  world = await business(test)
  proposer = await signInAgent(test, world.owner, 'proposer', world.admin)
}, 120_000)
afterAll(async () => test?.close())

describe('a payment an external agent proposes directly', () => {
  it('by REST: listed once as a payment, with the policy decision and presentation; deciding it approves the intent', async () => {
    const proposed = await test.request({ method: 'POST', url: '/v1/payment-intents', token: proposer.token, payload: payment('80.00') })
    expect(proposed.statusCode, proposed.body).toBe(201)
    const intent = proposed.json()
    expect(intent).toMatchObject({ status: 'pending_approval', created_by_agent_id: proposer.agentId })

    const listed = await proposalsOf(intent.id)
    expect(listed).toHaveLength(1)
    const proposal = listed[0]!
    expect(proposal).toMatchObject({
      type: 'payment',
      status: 'pending_approval',
      action_type: 'ach_outbound',
      payment_intent_id: intent.id,
      confidence: 0.8,
      agent: { id: proposer.agentId, kind: 'external', display_name: 'MCP proposer' },
      policy: { decision: 'confirm', matched_rule_id: 'other', policy_version: 2 },
      available_decisions: [{ id: 'approve' }, { id: 'reject' }],
    })
    expect(proposal.narrative).toBe(`Pay 80.00 EUR to counterparty ${world.supplier} (ach_outbound).`)
    expect(proposal.presentation.key_facts).toContainEqual({ label: 'Amount', value: '80.00 EUR' })
    expect(await getOk(test, world.owner.token, `/v1/proposals/${proposal.id}`)).toEqual(proposal)
    // Only listed under its resolved type.
    expect(((await getOk(test, world.owner.token, '/v1/proposals?type=payment')).proposals as Listed[]).map((row) => row.id)).toContain(proposal.id)

    const decided = await test.request({ method: 'POST', url: `/v1/proposals/${proposal.id}/decide`, token: world.owner.token, payload: { decision: 'approve' } })
    expect(decided.statusCode, decided.body).toBe(200)
    expect(decided.json()).toMatchObject({ decision: { decision: 'approve', status_before: 'pending_approval', status: 'approved' }, proposal: { id: proposal.id, status: 'approved' } })
    expect(await getOk(test, world.owner.token, `/v1/payment-intents/${intent.id}`)).toMatchObject({ status: 'approved' })
    expect(await proposalsOf(intent.id)).toHaveLength(1)
  })

  it('by the agent protocol (payment_intent.propose): listed once; the agent reads it with proposals.get; rejecting it rejects the intent', async () => {
    const intent = await callTool(test, proposer.token, 'payment_intent.propose', payment('90.00'))
    expect(intent).toMatchObject({ status: 'pending_approval', created_by_agent_id: proposer.agentId })
    const listed = await proposalsOf(intent.id)
    expect(listed).toHaveLength(1)
    expect(listed[0]).toMatchObject({ type: 'payment', status: 'pending_approval', agent: { id: proposer.agentId, kind: 'external' }, policy: { decision: 'confirm' } })
    // The proposing agent reads its own proposal over the protocol, as a member reads it over REST.
    expect(await callTool(test, proposer.token, 'proposals.get', { id: listed[0]!.id })).toEqual(listed[0])

    const decided = await test.request({ method: 'POST', url: `/v1/proposals/${listed[0]!.id}/decide`, token: world.owner.token, payload: { decision: 'reject', reason: 'not this month' } })
    expect(decided.statusCode, decided.body).toBe(200)
    expect(await getOk(test, world.owner.token, `/v1/payment-intents/${intent.id}`)).toMatchObject({ status: 'rejected', rejection_reason: 'not this month' })
  })

  it('approved by the policy alone: listed once as approved with the allow decision, nothing left to decide', async () => {
    const intent = await callTool(test, proposer.token, 'payment_intent.propose', payment('20.00'))
    expect(intent.status).toBe('approved')
    const listed = await proposalsOf(intent.id)
    expect(listed).toHaveLength(1)
    expect(listed[0]).toMatchObject({ type: 'payment', status: 'approved', policy: { decision: 'allow', matched_rule_id: 'small' }, available_decisions: [] })
  })

  it('without a stated confidence: the proposal has none (null, band unknown), not a confidence of 0', async () => {
    const { confidence: _stated, ...unstated } = payment('85.00')
    const proposed = await test.request({ method: 'POST', url: '/v1/payment-intents', token: proposer.token, payload: unstated })
    expect(proposed.statusCode, proposed.body).toBe(201)
    const [proposal] = await proposalsOf(proposed.json().id)
    expect(proposal).toMatchObject({ confidence: null, details: { confidence_stated: false } })
    expect(proposal!.presentation.confidence_band).toBe('unknown')
    expect(proposal!.presentation.key_facts).toContainEqual({ label: 'Confidence', value: 'unknown' })
  })
})

describe('who else proposes', () => {
  it("a service token (Steward's internal agent) is an internal agent's proposal, listed once", async () => {
    const proposed = await test.request({ method: 'POST', url: '/v1/payment-intents', token: world.agent, payload: payment('70.00') })
    expect(proposed.statusCode, proposed.body).toBe(201)
    const intent = proposed.json()
    const listed = await proposalsOf(intent.id)
    expect(listed).toHaveLength(1)
    expect(listed[0]).toMatchObject({ type: 'payment', status: 'pending_approval', agent: { id: intent.created_by_agent_id, kind: 'internal', display_name: 'Steward internal agent (service token)' } })
    expect(intent.created_by_agent_id).toMatch(/^svt_/)
  })

  it("a first-party run's payment is listed once, as the run recorded it", async () => {
    const seeded = await seedArtifact(test, world.owner.tenantId, [
      { kind: 'invoice', direction: 'payable', invoice_number: 'ONCE-1', issue_date: '2026-04-01', due_date: '2026-04-12', currency: 'EUR', total: '45.00', counterparty: { name: 'Once Supplies', iban: 'DE75512108001245126199' } },
    ])
    await normalize(test, world.owner.tenantId, seeded.artifactId)
    const run = await test.request({ method: 'POST', url: '/v1/agents/run', token: world.owner.token, payload: { intent: 'pay the bills that are due', context: { as_of: '2026-04-10' } } })
    expect(run.statusCode, run.body).toBe(200)
    const made = (run.json().proposals as Listed[]).filter((proposal) => proposal.payment_intent_id !== null)
    expect(made).toHaveLength(1)
    const listed = await proposalsOf(made[0]!.payment_intent_id)
    expect(listed.map((proposal) => proposal.id)).toEqual([made[0]!.id])
    expect(listed[0]).toMatchObject({ agent: { id: 'bill_payment', kind: 'internal' } })
  })
})
