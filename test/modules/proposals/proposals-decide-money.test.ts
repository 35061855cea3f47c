/**
 * Deciding on money proposals (issue 20, item 5): the bill-payment agent proposes three payable invoices
 * under a policy that asks two distinct approvals for every outbound payment; POST /v1/proposals/{id}/decide
 * then applies the member rules in the spec's order through the payments module (active member, role,
 * domain, per-item limit, not the payee, a distinct second approver, a repeated approval is
 * second_approval_required), emits proposal.awaiting_second_approval and proposal.decided, audits the
 * decision, approves without dispatching a rail, and refuses what money proposals do not take. Both engines.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Principal } from '../../../src/kernel/principal.ts'
import { roleScopes } from '../../../src/modules/auth/scopes.ts'
import { addMember, createTestApp, expectError, issueApiKey, mintServiceToken, signupOwner, type JoinedMember, type TenantOwner, type TestApp } from '../../support/harness.ts'
import { auditEvents } from '../../support/audit-log.ts'
import { getOk, normalize, seedArtifact } from '../../support/ledger.ts'
import { addSigner, compose, sign, signatureOf } from '../../support/policy.ts'

let test: TestApp
let owner: TenantOwner
let second: JoinedMember
let payee: JoinedMember
let viewer: JoinedMember
let outOfDomain: JoinedMember
let lowLimit: JoinedMember
let deactivated: JoinedMember
const byInvoice = new Map<string, Record<string, any>>()

const decide = (token: string, id: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
  test.request({ method: 'POST', url: `/v1/proposals/${id}/decide`, token, payload, headers })

beforeAll(async () => {
  test = await createTestApp()
  owner = await signupOwner(test)
  second = await addMember(test, owner, 'approver', { approval_domains: ['payment'] })
  payee = await addMember(test, owner, 'approver', { approval_domains: ['*'] })
  viewer = await addMember(test, owner, 'viewer')
  outOfDomain = await addMember(test, owner, 'approver', { approval_domains: ['wire'] })
  lowLimit = await addMember(test, owner, 'approver', { approval_domains: ['ach_outbound'], approval_limit: { currency: 'EUR', value: '1.00' } })
  deactivated = await addMember(test, owner, 'approver', { approval_domains: ['*'] })
  const account = { iban: 'DE89370400440532013000', name: 'Operating account', currency: 'EUR' }
  const seeded = await seedArtifact(test, owner.tenantId, [
    { kind: 'balance', account, balance_type: 'closing', as_of: '2026-04-09', amount: '9000.00', currency: 'EUR' },
    { kind: 'invoice', direction: 'payable', invoice_number: 'MONEY-1', issue_date: '2026-04-01', due_date: '2026-04-12', currency: 'EUR', total: '120.00', counterparty: { name: 'Paper Supply Co', iban: 'DE02120300000000202051' } },
    { kind: 'invoice', direction: 'payable', invoice_number: 'MONEY-2', issue_date: '2026-04-01', due_date: '2026-04-13', currency: 'EUR', total: '80.00', counterparty: { name: 'Ink Works', iban: 'DE02100500000054540402' } },
    { kind: 'invoice', direction: 'payable', invoice_number: 'MONEY-3', issue_date: '2026-04-01', due_date: '2026-04-11', currency: 'EUR', total: '15.00', counterparty: { name: 'A Member', email: payee.email } },
  ])
  await normalize(test, owner.tenantId, seeded.artifactId)
  const signer = await addSigner(test, owner)
  const composed = await compose(test, owner, {
    version: 2,
    rules: [
      { id: 'dual', applies_to: ['outbound_payment'], when: {}, execute: 'confirm', approvals: 2 },
      { id: 'non-money', applies_to: ['inbound_payment', 'ledger_write', 'agent_action'], when: {}, execute: 'auto' },
    ],
  })
  expect((await sign(test, owner, signer.member.token, composed.policy_id, [await signatureOf(signer, composed)])).statusCode).toBe(200)
  const patched = await test.request({ method: 'POST', url: `/v1/tenants/${owner.tenantId}/members/${deactivated.memberId}/deactivate`, token: owner.token })
  expect(patched.statusCode, patched.body).toBe(200)
  const run = await test.request({ method: 'POST', url: '/v1/agents/run', token: owner.token, payload: { intent: 'pay the bills that are due', context: { as_of: '2026-04-10' } } })
  expect(run.statusCode, run.body).toBe(200)
  const listed = (await getOk(test, owner.token, '/v1/proposals?type=bill_management')).proposals as Array<Record<string, any>>
  for (const proposal of listed) byInvoice.set(String(proposal.narrative.match(/MONEY-\d/)?.[0] ?? proposal.id), proposal)
}, 120_000)
afterAll(async () => test?.close())

describe('money proposals of the bill-payment agent', () => {
  it('read as bill_management proposals waiting for approval, with the intent\'s policy decision and approve/reject available', () => {
    expect([...byInvoice.keys()].sort()).toEqual(['MONEY-1', 'MONEY-2', 'MONEY-3'])
    const proposal = byInvoice.get('MONEY-1')!
    expect(proposal).toMatchObject({
      type: 'bill_management',
      status: 'pending_approval',
      risk_band: 'elevated',
      mode: 'propose',
      agent: { id: 'bill_payment', kind: 'internal', display_name: 'Bill payment' },
      payment_intent_id: expect.stringMatching(/^pi_/),
      action_type: 'ach_outbound',
      policy: { decision: 'confirm', matched_rule_id: 'dual', required_approvers: ['signer', 'signer'], policy_version: 2 },
      available_decisions: [{ id: 'approve' }, { id: 'reject' }],
    })
    expect(proposal.presentation.key_facts).toContainEqual({ label: 'Amount', value: '120.00 EUR' })
    expect(proposal.presentation.consequences.approve).toMatch(/distinct second member/)
    expect(Object.keys(proposal.presentation.technical_detail)).toEqual(['1_ingest', '2_extract', '3_classify', '4_score', '5_policy', '6_propose'])
  })
})

describe('POST /v1/proposals/{id}/decide on money, the member rules in the spec order', () => {
  it('refuses callers who are not people with actor_unresolved', async () => {
    const id = byInvoice.get('MONEY-1')!.id
    const service = await mintServiceToken(test, owner.tenantId)
    expect(expectError(await decide(service, id, { decision: 'approve' }), 'actor_unresolved').details).toMatchObject({ reason: 'actor_unresolved', principal_type: 'service' })
    const key = await issueApiKey(test, owner)
    expect(expectError(await decide(key.secret, id, { decision: 'approve' }), 'actor_unresolved').details).toMatchObject({ principal_type: 'api_key' })
  })

  it('refuses an inactive member, a viewer, a member out of domain, over the limit, and the payee', async () => {
    const id = byInvoice.get('MONEY-1')!.id
    const refusal = async (token: string) => expectError(await decide(token, id, { decision: 'approve' }), 'payment_intent_approval_invalid').details
    // A deactivated member's token no longer authenticates: the guard refuses it before any decision.
    expect([401, 403]).toContain((await decide(deactivated.token, id, { decision: 'approve' })).statusCode)
    expect(await refusal(viewer.token)).toEqual({ reason: 'domain_not_authorized' })
    expect(await refusal(outOfDomain.token)).toEqual({ reason: 'domain_not_authorized' })
    expect(await refusal(lowLimit.token)).toEqual({ reason: 'actor_limit_exceeded' })
    expect(expectError(await decide(payee.token, byInvoice.get('MONEY-3')!.id, { decision: 'approve' }), 'payment_intent_approval_invalid').details).toEqual({ reason: 'self_approval_blocked' })
    // The same member's principal, were it still presented (the service's own check): actor_inactive.
    const stale: Principal = { id: deactivated.userId, type: 'user', tenantId: owner.tenantId, scopes: roleScopes.approver, role: 'approver', credentialId: deactivated.userId, rateLimit: { perMinute: 60, burst: 100 } }
    await expect(test.runtime.proposals.decide.decide({ requestId: 'req_test', principal: stale }, { id, decision: 'approve' })).rejects.toMatchObject({ code: 'payment_intent_approval_invalid', details: { reason: 'actor_inactive' } })
    expect((await getOk(test, owner.token, `/v1/proposals/${id}`)).status).toBe('pending_approval')
    // Each refusal is audited on the payment intent (the decision's own transaction rolled back).
    const intentId = byInvoice.get('MONEY-1')!.payment_intent_id as string
    const refused = await auditEvents(test, owner.tenantId, { action: 'payment_intent.approval_refused', entityId: intentId })
    expect(refused.map((event) => [event.actor_id, event.outputs.reason])).toEqual([
      [viewer.userId, 'domain_not_authorized'],
      [outOfDomain.userId, 'domain_not_authorized'],
      [lowLimit.userId, 'actor_limit_exceeded'],
      [deactivated.userId, 'actor_inactive'],
    ])
    expect(refused.every((event) => event.inputs.move === 'approve')).toBe(true)
  })

  it('needs a distinct second approver: the same member again is second_approval_required; events, audit, no rail', async () => {
    const proposal = byInvoice.get('MONEY-1')!
    const first = await decide(owner.token, proposal.id, { decision: 'approve' })
    expect(first.statusCode, first.body).toBe(200)
    expect(first.json()).toMatchObject({ decision: { decision: 'approve', status_before: 'pending_approval', status: 'awaiting_second_approval' }, proposal: { status: 'awaiting_second_approval' } })
    expect(expectError(await decide(owner.token, proposal.id, { decision: 'approve' }), 'payment_intent_approval_invalid').details).toEqual({ reason: 'second_approval_required' })
    const approved = await decide(second.token, proposal.id, { decision: 'approve' })
    expect(approved.statusCode, approved.body).toBe(200)
    expect(approved.json()).toMatchObject({ decision: { status_before: 'awaiting_second_approval', status: 'approved' }, proposal: { status: 'approved', available_decisions: [] } })
    const intent = await getOk(test, owner.token, `/v1/payment-intents/${proposal.payment_intent_id}`)
    expect(intent).toMatchObject({ status: 'approved', execution_receipt_ids: [] })
    expect(intent.approval_ids).toHaveLength(2)
    const events = ((await getOk(test, owner.token, '/v1/events?limit=500')).events as Array<{ type: string; data: Record<string, unknown> }>).filter((event) => event.data['proposal_id'] === proposal.id)
    expect(events.map((event) => event.type).sort()).toEqual(['agent.action.proposed', 'proposal.awaiting_second_approval', 'proposal.decided'])
    expect(events.find((event) => event.type === 'proposal.decided')!.data).toMatchObject({ decision: 'approve', status: 'approved', payment_intent_id: proposal.payment_intent_id })
    const audit = await auditEvents(test, owner.tenantId, { entityType: 'proposal', entityId: proposal.id })
    expect(audit.map((event) => event.action)).toEqual(['proposal.decision_recorded', 'proposal.decision_recorded'])
    expect((await getOk(test, owner.token, '/v1/ledger/transactions')).transactions).toHaveLength(0)
  })

  it('rejects a money proposal; acknowledge and undo do not apply to money', async () => {
    const proposal = byInvoice.get('MONEY-2')!
    expect(expectError(await decide(owner.token, proposal.id, { decision: 'acknowledge' }), 'proposal_decision_unavailable').details).toMatchObject({ decision: 'acknowledge' })
    expectError(await decide(owner.token, proposal.id, { decision: 'undo' }), 'proposal_decision_unavailable')
    const rejected = await decide(owner.token, proposal.id, { decision: 'reject', reason: 'paid by card' })
    expect(rejected.statusCode, rejected.body).toBe(200)
    expect(rejected.json()).toMatchObject({ decision: { decision: 'reject', status: 'rejected' }, proposal: { status: 'rejected', risk_band: 'elevated' } })
    expect((await getOk(test, owner.token, `/v1/payment-intents/${proposal.payment_intent_id}`)).rejection_reason).toBe('paid by card')
    expectError(await decide(owner.token, proposal.id, { decision: 'approve' }), 'payment_intent_invalid_state')
    expectError(await decide(owner.token, proposal.id, { decision: 'undo' }), 'proposal_decision_unavailable')
  })

  it('a payment the payments module refused at proposal is rejected with no decision open: every decision is 409, never a 500', async () => {
    // As a run records one (agents run.service.ts: refused, no PaymentIntent); written here directly.
    const id = `prp_refused_${Date.now().toString(36)}`
    await test.runtime.db.orm.execute(sql`
      insert into agent_proposals (id, tenant_id, run_id, agent_id, proposal_type, action_type, proposal_key, status, confidence, evidence_score, narrative, evidence, details, payment_intent_id, policy_decision_id, created_at)
      values (${id}, ${owner.tenantId}, null, 'bill_payment', 'bill_management', 'pay_invoice', ${`refused:${id}`}, 'refused', 0.9, 0.9, 'Pay invoice X-1.', '[]'::jsonb,
              ${JSON.stringify({ refused: { code: 'invoice_already_paid', message: 'The invoice is already paid.' } })}::jsonb, null, null, now())`)
    const read = await getOk(test, owner.token, `/v1/proposals/${id}`)
    expect(read).toMatchObject({ status: 'rejected', available_decisions: [], payment_intent_id: null })
    for (const decision of ['approve', 'reject', 'acknowledge', 'undo']) {
      const response = await decide(owner.token, id, { decision })
      expect(response.statusCode, `${decision}: ${response.body}`).toBe(409)
      expect(expectError(response, 'proposal_decision_unavailable').details).toMatchObject({ decision, available_decisions: [] })
    }
  })

  it('replays a decision for the same Idempotency-Key', async () => {
    const proposal = byInvoice.get('MONEY-3')!
    const first = await decide(owner.token, proposal.id, { decision: 'reject' }, { 'idempotency-key': 'decide-money-3' })
    expect(first.statusCode, first.body).toBe(200)
    const again = await decide(owner.token, proposal.id, { decision: 'reject' }, { 'idempotency-key': 'decide-money-3' })
    expect(again.statusCode).toBe(200)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.json().decision).toEqual(first.json().decision)
    expectError(await decide(owner.token, proposal.id, { decision: 'approve' }, { 'idempotency-key': 'decide-money-3' }), 'idempotency_key_reused')
  })
})
