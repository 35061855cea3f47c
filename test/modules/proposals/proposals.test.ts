/**
 * The proposals read model, finding decisions, agent actions and evidence resolve (issue 20, items 4–6)
 * on the demo business (Juniper & Finch, sandbox/demo/) as of 2026-04-10: every first-party agent runs,
 * and each proposal appears in GET /v1/proposals with its public type, presentation and evidence; the
 * filters, paging and cursor; 404 for another tenant; acknowledge, reject and undo of findings under the
 * member rules; an external agent (SIWX) proposes an action, is refused a decision (actor_unresolved) and,
 * once halted, cannot propose; evidence resolve for every kind and failure; and the agent-protocol tools
 * called with the same arguments as the routes. Both engines.
 */
import pino from 'pino'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CommandContext } from '../../../src/kernel/context.ts'
import type { Principal } from '../../../src/kernel/principal.ts'
import type { RateLimitStore } from '../../../src/platform/http/rate-limit/stores.ts'
import { agentsRpc, catalog } from '../../../src/modules/agents/index.ts'
import { roleScopes } from '../../../src/modules/auth/scopes.ts'
import { buildSiwxMessage } from '../../../src/modules/auth/domain/siwx.ts'
import { proposalStatuses, publicProposalTypes } from '../../../src/modules/proposals/index.ts'
import { loadDemoBusiness } from '../../../src/main/sandbox/demo-business.ts'
import { auditEvents } from '../../support/audit-log.ts'
import { addMember, createTestApp, expectError, login, mintServiceToken, signupOwner, subjectOf, type JoinedMember, type TenantOwner, type TestApp } from '../../support/harness.ts'
import { getOk, settledPipeline } from '../../support/ledger.ts'

type Proposal = Record<string, any>

/** The demo owner reads proposals many times a minute here: budgets are not what this file tests. */
const unlimited: RateLimitStore = {
  async take() {
    return { allowed: true, limit: 1_000_000, remaining: 1_000_000, resetAtMs: Date.now(), retryAfterMs: 0 }
  },
  async peek() {
    return true
  },
  async close() {},
}

const asOf = '2026-04-10'
const agentTypes: Record<string, string> = {
  bill_payment: 'bill_management',
  collections: 'collections',
  reconciliation: 'reconciliation',
  subscriptions: 'subscription',
  fraud_anomaly: 'fraud_anomaly',
  vendor_risk: 'vendor_risk',
  cash_forecast: 'cash_forecast',
}
const intents: Record<string, string> = {
  bill_payment: 'pay the bills that are due',
  collections: 'remind customers about overdue invoices',
  reconciliation: 'reconcile unmatched transactions',
  subscriptions: 'find recurring subscriptions',
  fraud_anomaly: 'flag suspicious duplicate payments',
  vendor_risk: 'screen risky payees',
  cash_forecast: 'forecast our cash balance',
}

let test: TestApp
let demo: { tenantId: string; token: string; userId: string }
let admin: JoinedMember
let viewer: JoinedMember
let collector: JoinedMember
let other: TenantOwner
const proposedIds = new Map<string, string[]>()
let all: Proposal[] = []

const get = (token: string, url: string) => test.request({ method: 'GET', url, token })
const decide = (token: string, id: string, payload: Record<string, unknown>) => test.request({ method: 'POST', url: `/v1/proposals/${id}/decide`, token, payload })
const resolve = (token: string, refs: unknown[]) => test.request({ method: 'POST', url: '/v1/evidence/resolve', token, payload: { refs } })

async function everyProposal(token: string, query = ''): Promise<Proposal[]> {
  const found: Proposal[] = []
  let cursor: string | null = null
  do {
    const response = await get(token, `/v1/proposals?limit=100${query}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`)
    expect(response.statusCode, response.body).toBe(200)
    const body = response.json()
    found.push(...body.proposals)
    cursor = body.next_cursor
  } while (cursor !== null)
  return found
}

/** Registers a proposer agent with a fresh wallet, activates it (sandbox resume) and signs it in. */
async function signedInAgent() {
  const account = privateKeyToAccount(generatePrivateKey())
  const agentId = `agt_proposals_${Date.now()}`
  const registered = await test.request({ method: 'POST', url: '/v1/execution/agents/register', token: admin.token, payload: { agent_id: agentId, role: 'proposer', display_name: 'Ledger scout', onchain_address: account.address } })
  expect(registered.statusCode, registered.body).toBe(201)
  const linked = await test.request({ method: 'POST', url: `/v1/tenants/${demo.tenantId}/wallets`, token: demo.token, payload: { address: account.address, principal_type: 'agent', principal_id: agentId } })
  expect(linked.statusCode, linked.body).toBe(201)
  await test.runtime.agents.registry.resume({ requestId: 'req_test' }, { tenantId: demo.tenantId, agentId, actor: { type: 'platform', id: 'governance' } })
  const challenge = (await test.request({ method: 'POST', url: '/v1/auth/siwx/challenge', payload: { address: account.address } })).json()
  const message = buildSiwxMessage({ domain: challenge.domain, address: account.address, uri: challenge.uri, chainId: 8453, nonce: challenge.nonce, issuedAt: new Date(challenge.issued_at), expirationTime: new Date(challenge.expiration_time) })
  const signedIn = await test.request({ method: 'POST', url: '/v1/auth/siwx', payload: { message, signature: await account.signMessage({ message }), session_id: 'proposals' } })
  expect(signedIn.statusCode, signedIn.body).toBe(200)
  return { agentId, token: signedIn.json().access_token as string }
}

beforeAll(async () => {
  test = await createTestApp({ workers: true, rateLimits: unlimited })
  const loaded = await loadDemoBusiness(test.runtime, test.app, pino({ level: 'silent' }))
  await settledPipeline(test, loaded!.credentials.tenant_id, 120_000)
  const token = await login(test, loaded!.credentials.email, loaded!.credentials.password)
  demo = { tenantId: loaded!.credentials.tenant_id, token, userId: subjectOf(token) }
  const owner: TenantOwner = { tenantId: demo.tenantId, userId: demo.userId, token, email: loaded!.credentials.email }
  admin = await addMember(test, owner, 'admin')
  viewer = await addMember(test, owner, 'viewer')
  collector = await addMember(test, owner, 'approver', { approval_domains: ['collections'] })
  other = await signupOwner(test)
  for (const [agent, intent] of Object.entries(intents)) {
    const response = await test.request({ method: 'POST', url: '/v1/agents/run', token, payload: { intent, context: { as_of: asOf } } })
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json().selected_agent_id).toBe(agent)
    proposedIds.set(agent, (response.json().proposals as Array<{ id: string }>).map((proposal) => proposal.id))
  }
  all = await everyProposal(token)
}, 400_000)
afterAll(async () => test?.close())

describe('GET /v1/proposals: every first-party agent\'s proposals', () => {
  it('lists each proposal of each catalog agent once, with the public type its role resolves to', () => {
    expect([...proposedIds.keys()].sort()).toEqual(catalog.map((entry) => entry.agent_key).sort())
    const expectedIds = [...proposedIds.values()].flat()
    expect(all.map((proposal) => proposal.id).sort()).toEqual([...expectedIds].sort())
    for (const [agent, ids] of proposedIds) {
      expect(ids.length, agent).toBeGreaterThan(0)
      for (const id of ids) {
        const proposal = all.find((candidate) => candidate.id === id)!
        expect(proposal.type, `${agent} ${proposal.stored_action_type}`).toBe(agentTypes[agent])
        expect(proposal.agent).toEqual({ id: agent, kind: 'internal', display_name: catalog.find((entry) => entry.agent_key === agent)!.display_name })
      }
    }
    expect(all.every((proposal) => (publicProposalTypes as readonly string[]).includes(proposal.type) && (proposalStatuses as readonly string[]).includes(proposal.status))).toBe(true)
  })

  it('lists newest first', () => {
    const times = all.map((proposal) => `${proposal.created_at}|${proposal.id}`)
    expect(times).toEqual([...times].sort().reverse())
  })

  it('shows a money proposal with its intent, policy and approve/reject; a finding with acknowledge/reject and the policy on an agent_action', () => {
    const payment = all.find((proposal) => proposal.agent.id === 'bill_payment' && proposal.narrative.includes('Shopify'))!
    expect(payment).toMatchObject({
      type: 'bill_management',
      status: 'pending_approval',
      mode: 'propose',
      payment_intent_id: expect.stringMatching(/^pi_/),
      action_type: 'ach_outbound',
      stored_action_type: expect.stringMatching(/^(pay_invoice|ach_outbound)$/),
      policy: { decision: 'confirm', required_approvers: ['signer'], policy_id: expect.stringMatching(/^pol_/), explanation: expect.stringMatching(/^Needs a person to confirm/) },
      available_decisions: [{ id: 'approve', label: 'Approve' }, { id: 'reject', label: 'Reject' }],
      risk_band: 'elevated',
    })
    expect(payment.presentation.key_facts).toContainEqual({ label: 'Amount', value: '39.00 EUR' })
    expect(payment.presentation.consequences.approve).toMatch(/dispatches no rail/)

    const reminder = all.find((proposal) => proposal.agent.id === 'collections')!
    expect(reminder).toMatchObject({
      type: 'collections',
      status: 'proposed',
      payment_intent_id: null,
      action_type: null,
      stored_action_type: 'remind',
      policy: { decision: 'allow', policy_version: expect.any(Number) },
      available_decisions: [{ id: 'acknowledge' }, { id: 'reject' }],
      presentation: { recommendation: 'Send the customer the reminder.', consequences: { approve: null, acknowledge: expect.any(String), reject: expect.any(String) } },
    })
    expect(reminder.presentation.headline).toMatch(/^Collections: Invoice JF-2026-007 to Hafenblick Café GmbH is 39 days overdue/)
  })

  it('gives every proposal a full presentation with exactly the six technical stages, and evidence marked resolvable by kind', () => {
    for (const proposal of all) {
      expect(Object.keys(proposal.presentation.technical_detail)).toEqual(['1_ingest', '2_extract', '3_classify', '4_score', '5_policy', '6_propose'])
      expect(proposal.presentation.headline.length).toBeGreaterThan(0)
      expect(proposal.presentation.actions).toEqual(proposal.available_decisions)
      expect(['high', 'medium', 'low']).toContain(proposal.presentation.confidence_band)
      expect(proposal.presentation.key_facts.slice(0, 2)).toEqual([
        { label: 'Type', value: expect.any(String) },
        { label: 'Agent', value: proposal.agent.display_name },
      ])
      expect(proposal.evidence.length, proposal.id).toBeGreaterThan(0)
      for (const ref of proposal.evidence) expect(ref.resolvable).toBe(['account', 'counterparty', 'invoice', 'obligation', 'transaction', 'wiki_entity'].includes(ref.kind))
      expect(proposal.presentation.technical_detail['3_classify']).toMatchObject({ stored_action_type: proposal.stored_action_type, type: proposal.type, rule: 'agent_role' })
    }
    const flag = all.find((proposal) => proposal.stored_action_type === 'flag_transaction')!
    expect(flag.evidence.some((ref: { kind: string }) => ref.kind === 'transaction')).toBe(true)
    expect(['high', 'elevated']).toContain(flag.risk_band)
    // No shortfall: a forecast is low or standard by its confidence, never elevated.
    const forecast = all.find((proposal) => proposal.type === 'cash_forecast')!
    expect(forecast.details.shortfall).toBe(false)
    expect(forecast.risk_band).toBe(forecast.confidence >= 0.8 ? 'low' : 'standard')
  })
})

describe('GET /v1/proposals: filters, paging and the cursor', () => {
  it('filters by type, status, risk band and minimum confidence', async () => {
    const collections = await everyProposal(demo.token, '&type=collections')
    expect(collections.map((proposal) => proposal.id)).toEqual(all.filter((proposal) => proposal.type === 'collections').map((proposal) => proposal.id))
    const waiting = await everyProposal(demo.token, '&status=pending_approval')
    expect(waiting.length).toBeGreaterThan(0)
    expect(waiting.every((proposal) => proposal.payment_intent_id !== null)).toBe(true)
    expect(waiting.map((proposal) => proposal.id)).toEqual(all.filter((proposal) => proposal.status === 'pending_approval').map((proposal) => proposal.id))
    const elevated = await everyProposal(demo.token, '&risk_band=elevated')
    expect(elevated.map((proposal) => proposal.id)).toEqual(all.filter((proposal) => proposal.risk_band === 'elevated').map((proposal) => proposal.id))
    const sure = await everyProposal(demo.token, '&min_confidence=0.9')
    expect(sure.map((proposal) => proposal.id)).toEqual(all.filter((proposal) => proposal.confidence >= 0.9).map((proposal) => proposal.id))
    expect(sure.length).toBeLessThan(all.length)
    const none = (await get(demo.token, '/v1/proposals?type=savings')).json()
    expect(none).toEqual({ proposals: [], next_cursor: null })
  })

  it('pages with a cursor bound to the filters; next_cursor is null on the last page', async () => {
    const seen: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const body: { proposals: Proposal[]; next_cursor: string | null } = (await get(demo.token, `/v1/proposals?limit=3${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`)).json()
      expect(body.proposals.length).toBeLessThanOrEqual(3)
      seen.push(...body.proposals.map((proposal) => proposal.id))
      cursor = body.next_cursor
      pages += 1
    } while (cursor !== null)
    expect(seen).toEqual(all.map((proposal) => proposal.id))
    expect(pages).toBe(Math.ceil(all.length / 3))
    const first = (await get(demo.token, '/v1/proposals?limit=2&type=reconciliation')).json()
    expect(first.next_cursor).not.toBeNull()
    expectError(await get(demo.token, `/v1/proposals?limit=2&type=subscription&cursor=${encodeURIComponent(first.next_cursor)}`), 'invalid_cursor')
    expectError(await get(demo.token, '/v1/proposals?cursor=not-a-cursor'), 'invalid_cursor')
    for (const query of ['limit=0', 'limit=101', 'min_confidence=1.5', 'type=payments', 'status=open', 'risk_band=extreme']) expectError(await get(demo.token, `/v1/proposals?${query}`), 'request_params_invalid')
  })
})

describe('GET /v1/proposals/{id}', () => {
  it('reads one proposal as listed; another tenant\'s, or none, is 404 execution_proposal_not_found', async () => {
    const proposal = all.find((candidate) => candidate.agent.id === 'vendor_risk')!
    const read = await get(demo.token, `/v1/proposals/${proposal.id}`)
    expect(read.statusCode, read.body).toBe(200)
    expect(read.json()).toEqual(proposal)
    expectError(await get(other.token, `/v1/proposals/${proposal.id}`), 'execution_proposal_not_found')
    expectError(await get(demo.token, '/v1/proposals/prp_nothing'), 'execution_proposal_not_found')
    expectError(await get(demo.token, '/v1/proposals/anything%20at%20all'), 'execution_proposal_not_found')
    expect((await get(other.token, '/v1/proposals')).json()).toEqual({ proposals: [], next_cursor: null })
  })
})

describe('POST /v1/proposals/{id}/decide on findings', () => {
  it('acknowledges, undoes, rejects and undoes again; undo with nothing in force and approve are unavailable; audited with proposal.decided', async () => {
    const reminder = all.find((proposal) => proposal.agent.id === 'collections')!
    const step = async (decision: string, status: string, before: string) => {
      const response = await decide(demo.token, reminder.id, { decision })
      expect(response.statusCode, response.body).toBe(200)
      expect(response.json()).toMatchObject({ decision: { decision, status, status_before: before, proposal_id: reminder.id }, proposal: { id: reminder.id, status } })
      return response.json()
    }
    expect(expectError(await decide(demo.token, reminder.id, { decision: 'undo' }), 'proposal_decision_unavailable').details).toMatchObject({ status: 'proposed', available_decisions: ['acknowledge', 'reject'] })
    expectError(await decide(demo.token, reminder.id, { decision: 'approve' }), 'proposal_decision_unavailable')
    const acknowledged = await step('acknowledge', 'acknowledged', 'proposed')
    expect(acknowledged.proposal.available_decisions).toEqual([expect.objectContaining({ id: 'undo' })])
    expect(expectError(await decide(demo.token, reminder.id, { decision: 'reject' }), 'proposal_decision_unavailable').details).toMatchObject({ status: 'acknowledged', available_decisions: ['undo'] })
    const undone = await step('undo', 'undone', 'acknowledged')
    expect(undone.decision.undoes_decision_id).toBe(acknowledged.decision.id)
    expect(undone.proposal.available_decisions.map((option: { id: string }) => option.id)).toEqual(['acknowledge', 'reject'])
    const rejected = await step('reject', 'rejected', 'undone')
    expect((await get(demo.token, `/v1/proposals/${reminder.id}`)).json().status).toBe('rejected')
    expect((await everyProposal(demo.token, '&status=rejected&type=collections')).map((proposal) => proposal.id)).toEqual([reminder.id])
    const undoneAgain = await step('undo', 'undone', 'rejected')
    expect(undoneAgain.decision.undoes_decision_id).toBe(rejected.decision.id)
    expectError(await decide(demo.token, reminder.id, { decision: 'undo' }), 'proposal_decision_unavailable')

    const audit = await auditEvents(test, demo.tenantId, { entityType: 'proposal', entityId: reminder.id })
    expect(audit.map((event) => [event.action, event.outputs['status']])).toEqual([
      ['proposal.decision_recorded', 'acknowledged'],
      ['proposal.decision_recorded', 'undone'],
      ['proposal.decision_recorded', 'rejected'],
      ['proposal.decision_recorded', 'undone'],
    ])
    const events = ((await getOk(test, demo.token, '/v1/events?limit=500&types=proposal.decided')).events as Array<{ type: string; data: Record<string, unknown> }>).filter((event) => event.data['proposal_id'] === reminder.id)
    expect(events.map((event) => event.data['status'])).toEqual(['acknowledged', 'undone', 'rejected', 'undone'])
  })

  it('needs an active owner, admin or approver whose domains cover the finding', async () => {
    const fraud = all.find((proposal) => proposal.agent.id === 'fraud_anomaly')!
    const reminder = all.find((proposal) => proposal.agent.id === 'collections')!
    expect(expectError(await decide(viewer.token, fraud.id, { decision: 'acknowledge' }), 'actor_unresolved').details).toEqual({ reason: 'domain_not_authorized' })
    expect(expectError(await decide(collector.token, fraud.id, { decision: 'acknowledge' }), 'actor_unresolved').details).toEqual({ reason: 'domain_not_authorized' })
    const byCollector = await decide(collector.token, reminder.id, { decision: 'acknowledge' })
    expect(byCollector.statusCode, byCollector.body).toBe(200)
    const byAdmin = await decide(admin.token, fraud.id, { decision: 'acknowledge', reason: 'known: a double charge refunded' })
    expect(byAdmin.statusCode, byAdmin.body).toBe(200)
    expect(byAdmin.json().proposal.status).toBe('acknowledged')
    expectError(await decide(other.token, fraud.id, { decision: 'acknowledge' }), 'execution_proposal_not_found')
    expectError(await decide(demo.token, 'prp_nothing', { decision: 'acknowledge' }), 'execution_proposal_not_found')
    expectError(await decide(demo.token, fraud.id, { decision: 'maybe' }), 'request_body_invalid')
    expectError(await decide(demo.token, fraud.id, { decision: 'reject', reason: 'x'.repeat(501) }), 'request_body_invalid')

    // A deactivated member: its token no longer authenticates, and the service's own check says actor_inactive.
    const deactivated = await test.request({ method: 'POST', url: `/v1/tenants/${demo.tenantId}/members/${collector.memberId}/deactivate`, token: demo.token })
    expect(deactivated.statusCode, deactivated.body).toBe(200)
    expect([401, 403]).toContain((await decide(collector.token, reminder.id, { decision: 'undo' })).statusCode)
    const stale: Principal = { id: collector.userId, type: 'user', tenantId: demo.tenantId, scopes: roleScopes.approver, role: 'approver', credentialId: collector.userId, rateLimit: { perMinute: 60, burst: 100 } }
    await expect(test.runtime.proposals.decide.decide({ requestId: 'req_test', principal: stale }, { id: reminder.id, decision: 'undo' })).rejects.toMatchObject({ code: 'actor_unresolved', details: { reason: 'actor_inactive' } })
  })

  it('refuses service tokens with actor_unresolved', async () => {
    const service = await mintServiceToken(test, demo.tenantId)
    const subscription = all.find((proposal) => proposal.agent.id === 'subscriptions')!
    expect(expectError(await decide(service, subscription.id, { decision: 'acknowledge' }), 'actor_unresolved').details).toMatchObject({ reason: 'actor_unresolved', principal_type: 'service' })
  })
})

describe('an external agent proposes an action (POST /v1/agents/actions)', () => {
  it('records a finding that reads as a proposal; refuses money and unresolvable types; its decide is actor_unresolved; halted, it cannot propose', async () => {
    const agent = await signedInAgent()
    const transaction = all.find((proposal) => proposal.stored_action_type === 'flag_transaction')!.evidence.find((ref: { kind: string }) => ref.kind === 'transaction')!.ref
    const body = { action_type: 'flag_transaction', narrative: 'Two identical card payments on one day. Check for a double charge.', confidence: 0.72, evidence: [{ kind: 'transaction', ref: transaction }, { kind: 'document', ref: 'receipt-17' }], details: { reason: 'duplicate', amount: '23.80' } }
    const proposed = await test.request({ method: 'POST', url: '/v1/agents/actions', token: agent.token, payload: body, headers: { 'idempotency-key': 'action-1' } })
    expect(proposed.statusCode, proposed.body).toBe(201)
    expect(proposed.json()).toMatchObject({ id: expect.stringMatching(/^prp_/), agent_id: agent.agentId, proposal_type: 'fraud_anomaly', action_type: 'flag_transaction', status: 'proposed', confidence: 0.72, evidence_score: 0.5 })
    const replay = await test.request({ method: 'POST', url: '/v1/agents/actions', token: agent.token, payload: body, headers: { 'idempotency-key': 'action-1' } })
    expect(replay.json()).toEqual(proposed.json())
    const id = proposed.json().id as string
    const read = (await get(demo.token, `/v1/proposals/${id}`)).json()
    expect(read).toMatchObject({
      type: 'fraud_anomaly',
      status: 'proposed',
      risk_band: 'elevated',
      agent: { id: agent.agentId, kind: 'external', display_name: 'Ledger scout' },
      evidence: [{ kind: 'transaction', ref: transaction, resolvable: true }, { kind: 'document', ref: 'receipt-17', resolvable: false }],
      details: { reason: 'duplicate', amount: '23.80' },
      stored_action_type: 'flag_transaction',
      presentation: { technical_detail: { '3_classify': { rule: 'explicit_map', agent_role: 'proposer' }, '6_propose': { run_id: null } } },
    })
    expect(read.presentation.key_facts).toContainEqual({ label: 'Reason', value: 'duplicate' })
    expect((await everyProposal(demo.token, '&type=fraud_anomaly')).map((proposal) => proposal.id)).toContain(id)
    const audited = await auditEvents(test, demo.tenantId, { action: 'agent.action.proposed', entityId: id })
    expect(audited).toHaveLength(1)
    expect(audited[0]).toMatchObject({ actor_type: 'agent', actor_id: agent.agentId })
    const emitted = ((await getOk(test, demo.token, '/v1/events?limit=500&types=agent.action.proposed')).events as Array<{ type: string; data: Record<string, unknown> }>).filter((event) => event.data['proposal_id'] === id)
    expect(emitted).toHaveLength(1)

    const propose = (payload: Record<string, unknown>) => test.request({ method: 'POST', url: '/v1/agents/actions', token: agent.token, payload })
    expectError(await propose({ ...body, action_type: 'ach_outbound' }), 'validation_failed')
    expectError(await propose({ ...body, action_type: 'notify' }), 'validation_failed')
    expectError(await propose({ ...body, confidence: 2 }), 'request_body_invalid')
    expectError(await propose({ ...body, evidence: Array.from({ length: 51 }, () => ({ kind: 'transaction', ref: transaction })) }), 'request_body_invalid')
    expectError(await test.request({ method: 'POST', url: '/v1/agents/actions', token: demo.token, payload: body }), 'auth_scope_insufficient')

    // An agent is not a person: it cannot decide, on its own proposal or any other.
    expect(expectError(await decide(agent.token, id, { decision: 'acknowledge' }), 'actor_unresolved').details).toMatchObject({ reason: 'actor_unresolved', principal_type: 'agent' })

    const halted = await test.request({ method: 'POST', url: `/v1/agents/${agent.agentId}/halt`, token: demo.token })
    expect(halted.statusCode, halted.body).toBe(200)
    expectError(await propose(body), 'agent_inactive')
    const principal: Principal = { id: agent.agentId, type: 'agent', tenantId: demo.tenantId, scopes: ['payment_intent:propose'], credentialId: agent.agentId, rateLimit: { perMinute: 1, burst: 1 } }
    await expect(test.runtime.agents.actions.propose({ requestId: 'req_test', principal }, body)).rejects.toMatchObject({ code: 'agent_inactive' })
  })
})

describe('POST /v1/evidence/resolve', () => {
  it('resolves every supported kind with a summary and deep link, and answers unsupported, malformed and absent refs without an error', async () => {
    const refOf = (kind: string) => all.flatMap((proposal) => proposal.evidence).find((ref: { kind: string }) => ref.kind === kind)?.ref as string
    const transaction = refOf('transaction')
    const invoice = refOf('invoice')
    const counterparty = refOf('counterparty')
    const obligation = refOf('obligation')
    const accounts = (await getOk(test, demo.token, '/v1/ledger/accounts')).accounts as Array<{ id: string }>
    const account = refOf('account') ?? accounts[0]!.id
    for (const ref of [transaction, invoice, counterparty, obligation, account]) expect(ref).toBeDefined()
    const response = await resolve(demo.token, [
      { kind: 'account', ref: account },
      { kind: 'counterparty', ref: counterparty },
      { kind: 'invoice', ref: invoice },
      { kind: 'obligation', ref: obligation },
      { kind: 'transaction', ref: transaction },
      { kind: 'wiki_entity', ref: transaction },
      { kind: 'document', ref: 'receipt-17' },
      { kind: 'payment_intent', ref: 'pi_01' },
      { kind: 'policy', ref: 'pol_01' },
      { kind: 'raw_artifact', ref: 'raw_01' },
      { kind: 'parsed_row', ref: 'rpr_01' },
      { kind: 'transaction', ref: invoice },
      { kind: 'account', ref: '' },
      { kind: 'counterparty', ref: 'cpy_ with space' },
      { kind: 'invoice', ref: 'inv_01NOTHINGHERE0000000000000' },
      { kind: 'wiki_entity', ref: 'txn_01NOTHINGHERE0000000000000' },
    ])
    expect(response.statusCode, response.body).toBe(200)
    const results = response.json().results as Array<Record<string, any>>
    expect(results).toHaveLength(16)
    const paths: Record<string, string> = { account: 'accounts', counterparty: 'counterparties', invoice: 'invoices', obligation: 'obligations', transaction: 'transactions' }
    for (const result of results.slice(0, 5)) {
      expect(result).toMatchObject({ resolvable: true, not_found: false, reason: null, deep_link: `/v1/ledger/${paths[result.kind]}/${result.ref}` })
      expect(result.summary).toMatch(new RegExp(`^${result.kind === 'account' ? 'Account' : result.kind.charAt(0).toUpperCase() + result.kind.slice(1)}`))
    }
    expect(results[5]).toMatchObject({ kind: 'wiki_entity', resolvable: true, not_found: false, deep_link: `/v1/wiki/entity/${transaction}`, summary: expect.stringMatching(/^Wiki entity: Transaction of /) })
    for (const result of results.slice(6, 11)) expect(result).toMatchObject({ resolvable: false, not_found: false, reason: 'unsupported_kind', summary: null, deep_link: null })
    for (const result of results.slice(11, 14)) expect(result).toMatchObject({ resolvable: false, reason: 'malformed_ref' })
    for (const result of results.slice(14)) expect(result).toMatchObject({ resolvable: true, not_found: true, reason: null, summary: null, deep_link: null })
    expect(results.map((result) => [result.kind, result.ref])).toEqual(results.map((_, index) => [results[index]!.kind, results[index]!.ref]))
  })

  it('reads another tenant\'s records as not found, and refuses more than 50 refs', async () => {
    const transaction = all.flatMap((proposal) => proposal.evidence).find((ref: { kind: string }) => ref.kind === 'transaction')!.ref
    const crossed = (await resolve(other.token, [{ kind: 'transaction', ref: transaction }, { kind: 'wiki_entity', ref: transaction }])).json().results
    expect(crossed).toEqual([
      { kind: 'transaction', ref: transaction, resolvable: true, not_found: true, summary: null, deep_link: null, reason: null },
      { kind: 'wiki_entity', ref: transaction, resolvable: true, not_found: true, summary: null, deep_link: null, reason: null },
    ])
    expect((await resolve(demo.token, Array.from({ length: 50 }, () => ({ kind: 'transaction', ref: transaction })))).statusCode).toBe(200)
    expectError(await resolve(demo.token, Array.from({ length: 51 }, () => ({ kind: 'transaction', ref: transaction }))), 'request_body_invalid')
    expect((await resolve(demo.token, [])).json()).toEqual({ results: [] })
  })
})

describe('the agent-protocol tools', () => {
  const ownerContext = (): CommandContext => ({
    requestId: 'req_rpc_test',
    principal: { id: demo.userId, type: 'user', tenantId: demo.tenantId, scopes: roleScopes.owner, role: 'owner', credentialId: demo.userId, rateLimit: { perMinute: 600, burst: 1000 } },
  })
  const tool = (name: string) => {
    const found = [...(test.runtime.proposals.rpc.tools ?? []), ...(agentsRpc({ actions: test.runtime.agents.actions }).tools ?? [])].find((candidate) => candidate.name === name)
    expect(found, name).toBeDefined()
    return found!
  }

  it('proposals.list, proposals.get, proposals.decide and evidence.resolve answer as their routes do', async () => {
    const listed = (await tool('proposals.list').call(ownerContext(), { type: 'cash_forecast', limit: 5 })) as { proposals: Proposal[]; next_cursor: string | null }
    expect(listed).toEqual((await get(demo.token, '/v1/proposals?type=cash_forecast&limit=5')).json())
    const forecast = listed.proposals[0]!
    expect(await tool('proposals.get').call(ownerContext(), { id: forecast.id })).toEqual((await get(demo.token, `/v1/proposals/${forecast.id}`)).json())
    await expect(tool('proposals.get').call(ownerContext(), { id: 'prp_nothing' })).rejects.toMatchObject({ code: 'execution_proposal_not_found' })
    const decided = (await tool('proposals.decide').call(ownerContext(), { id: forecast.id, decision: 'acknowledge' })) as { decision: Record<string, unknown>; proposal: Proposal }
    expect(decided).toMatchObject({ decision: { decision: 'acknowledge', status: 'acknowledged' }, proposal: { id: forecast.id, status: 'acknowledged' } })
    const resolved = await tool('evidence.resolve').call(ownerContext(), { refs: [{ kind: 'policy', ref: 'pol_1' }] })
    expect(resolved).toEqual({ results: [{ kind: 'policy', ref: 'pol_1', resolvable: false, not_found: false, summary: null, deep_link: null, reason: 'unsupported_kind' }] })
    // Over the agent protocol the reads take payment_intent:propose (no agent role grants execution:read).
    for (const name of ['proposals.list', 'proposals.get', 'evidence.resolve']) expect(tool(name).scopes, name).toEqual(['payment_intent:propose'])
    expect(tool('proposals.decide').scopes).toEqual([])
    expect(tool('proposals.decide').readOnly).toBe(false)
  })

  it('agent_action.propose records a finding as the calling agent; proposals.decide refuses it with actor_unresolved', async () => {
    const service = await mintServiceToken(test, demo.tenantId, 'rpc test')
    const serviceId = subjectOf(service)
    const principal: Principal = { id: serviceId, type: 'service', tenantId: demo.tenantId, scopes: ['payment_intent:propose', 'execution:read'], credentialId: serviceId, rateLimit: { perMinute: 600, burst: 1000 } }
    const context: CommandContext = { requestId: 'req_rpc_action', principal }
    const proposed = (await tool('agent_action.propose').call(context, { action_type: 'remind', narrative: 'Invoice JF-2026-007 is still open.', confidence: 0.6 })) as Record<string, unknown>
    expect(proposed).toMatchObject({ proposal_type: 'bill_management', action_type: 'remind', status: 'proposed', evidence_score: 0 })
    const read = (await get(demo.token, `/v1/proposals/${String(proposed['id'])}`)).json()
    expect(read).toMatchObject({ type: 'bill_management', status: 'proposed', risk_band: 'standard', agent: { kind: 'internal' } })
    expect(tool('agent_action.propose').scopes).toEqual(['payment_intent:propose'])
    await expect(tool('proposals.decide').call(context, { id: String(proposed['id']), decision: 'acknowledge' })).rejects.toMatchObject({ code: 'actor_unresolved' })
  })
})
