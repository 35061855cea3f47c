/**
 * Routing and runs (issue 18, item 4) on the demo business (Juniper & Finch Coffee Roasters, sandbox/demo/):
 * each first-party agent, run through POST /v1/agents/run on the Ledger the real pipeline built, proposes
 * what a person reading sandbox/demo/README.md would expect on 10 April 2026, in shadow mode; routing by
 * event and by intent, unscoped and no_match; 409 agent_proposal_duplicate and Idempotency-Key replay;
 * the run reads (why, evidence, gate-trace, proof, actions); a queued event; another tenant sees none of it.
 * Runs on both engines.
 */
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { catalog } from '../../../src/modules/agents/index.ts'
import { loadDemoBusiness } from '../../../src/main/sandbox/demo-business.ts'
import { auditEvents } from '../../support/audit-log.ts'
import { addMember, createTestApp, expectError, login, mintServiceToken, signupOwner, type TenantOwner, type TestApp } from '../../support/harness.ts'
import { settledPipeline } from '../../support/ledger.ts'

interface RunProposal {
  id: string
  proposal_type: string
  action_type: string
  key: string
  status: string
  payment_intent_id: string | null
  policy_decision_id: string | null
  confidence: number
  evidence_score: number
  narrative: string
}
interface RunBody {
  status: string
  routing_decision_id: string
  run_id: string
  selected_agent_id: string | null
  action: string | null
  shadow_mode: boolean
  proposed: { id: string; status: string; policy_decision_id: string | null } | null
  proposals: RunProposal[]
  duplicates: string[]
  reason: string
}

const asOf = '2026-04-10'
let test: TestApp
let demo: { tenantId: string; token: string }
let other: TenantOwner
let viewer: string
const runs = new Map<string, RunBody>()

const run = (token: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) => test.request({ method: 'POST', url: '/v1/agents/run', token, payload, headers })
const get = (token: string, url: string) => test.request({ method: 'GET', url, token })

async function runAgent(intent: string, agent: string): Promise<RunBody> {
  const response = await run(demo.token, { intent, context: { as_of: asOf } })
  expect(response.statusCode, response.body).toBe(200)
  const body = response.json() as RunBody
  expect(body.selected_agent_id).toBe(agent)
  expect(body.status).toBe('proposal_created')
  // Governing rule 7: no first-party agent is promoted on the demo business.
  expect(body.shadow_mode).toBe(true)
  runs.set(agent, body)
  return body
}

const narratives = (body: RunBody, action: string) => body.proposals.filter((proposal) => proposal.action_type === action).map((proposal) => proposal.narrative)

beforeAll(async () => {
  test = await createTestApp({ workers: true })
  const loaded = await loadDemoBusiness(test.runtime, test.app, pino({ level: 'silent' }))
  await settledPipeline(test, loaded!.credentials.tenant_id, 120_000)
  demo = { tenantId: loaded!.credentials.tenant_id, token: await login(test, loaded!.credentials.email, loaded!.credentials.password) }
  other = await signupOwner(test)
  viewer = (await addMember(test, other, 'viewer')).token
}, 300_000)
afterAll(async () => test?.close())

describe('each first-party agent on the demo business (as of 2026-04-10), shadowed', () => {
  it('bill payment proposes paying the Shopify subscription due on 13 April and the open tax remittances, each a PaymentIntent by the agent, waiting for a person, shadowed once approved', async () => {
    const body = await runAgent('pay the bills that are due', 'bill_payment')
    const pays = narratives(body, 'ach_outbound')
    expect(pays).toContain('Pay subscription kontor_erp:sub_shopify_basic to Shopify International Limited: 39.00 EUR due 2026-04-13 (in 3 days).')
    expect(pays).toContain('Pay tax lohnwerk:lst_2026_03 to Finanzamt Lichtenberg: 1,414.60 EUR due 2026-04-10 (today).')
    // The 6 tax remittances stay open in the Ledger (no reconciliation rule matches tax payments) and the subscription: 7, nothing else (every bill is paid).
    expect(body.proposals).toHaveLength(7)
    expect(pays.filter((text) => text.includes('Hanse Rohkaffee'))).toEqual([])
    for (const proposal of body.proposals) {
      expect(proposal.payment_intent_id).toMatch(/^pi_/)
      expect(proposal.status).toBe('pending_approval')
    }
    expect(body.action).toBe('ach_outbound')
    const shopify = body.proposals.find((proposal) => proposal.narrative.includes('Shopify'))!
    const intent = await get(demo.token, `/v1/payment-intents/${shopify.payment_intent_id}`)
    expect(intent.json()).toMatchObject({ created_by_agent_id: 'bill_payment', amount: '39.00', currency: 'EUR', status: 'pending_approval' })
    // A person approves it; the gate then runs it as a shadow: the whole pipeline, no money moved.
    const approved = await test.request({ method: 'POST', url: `/v1/payment-intents/${shopify.payment_intent_id}/approve`, token: demo.token })
    expect(approved.statusCode, approved.body).toBe(200)
    expect(approved.json().status).toBe('approved')
    const service = await mintServiceToken(test, demo.tenantId)
    const executed = await test.request({ method: 'POST', url: `/v1/payment-intents/${shopify.payment_intent_id}/execute`, token: service })
    expect(executed.statusCode, executed.body).toBe(202)
    expect(executed.json()).toMatchObject({ status: 'shadow_completed', outbox_id: null })
    // The run's reads follow the intent.
    const actions = (await get(demo.token, '/v1/agents/bill_payment/actions')).json()
    expect(actions.actions.find((action: any) => action.payment_intent?.id === shopify.payment_intent_id)).toMatchObject({ status: 'shadow_completed', payment_intent: { status: 'shadow_completed' } })
    const trace = await get(demo.token, `/v1/agents/runs/${body.run_id}/gate-trace`)
    expect(trace.statusCode, trace.body).toBe(200)
    const traced = trace.json().payment_intents.find((row: any) => row.payment_intent_id === shopify.payment_intent_id)
    expect(traced.status).toBe('shadow_completed')
    expect(traced.dry_run).toMatchObject({ outcome: expect.stringMatching(/^(allow|confirm)$/), policy_version: expect.any(Number) })
    expect(traced.gate_runs).toHaveLength(1)
    expect(traced.gate_runs[0].checks).toHaveLength(23)
    const proof = await get(demo.token, `/v1/agents/runs/${body.run_id}/proof`)
    expect(proof.statusCode, proof.body).toBe(200)
    expect(proof.json().action_id).toBe(body.proposals.find((proposal) => proposal.payment_intent_id !== null)!.payment_intent_id)
  })

  it('collections proposes one firm reminder: Hafenblick Café\'s JF-2026-007, 39 days overdue', async () => {
    const body = await runAgent('remind customers about overdue invoices', 'collections')
    expect(body.proposals.map((proposal) => [proposal.action_type, proposal.narrative, proposal.status, proposal.payment_intent_id])).toEqual([
      ['remind', 'Invoice JF-2026-007 to Hafenblick Café GmbH is 39 days overdue: 1,595.37 EUR was due 2026-03-02. Send a firm reminder.', 'proposed', null],
    ])
    expect(body.proposed).toEqual({ id: body.proposals[0]!.id, status: 'proposed', policy_decision_id: null })
  })

  it('reconciliation proposes matching the six tax remittances in the bank to their open obligations', async () => {
    const body = await runAgent('reconcile unmatched transactions', 'reconciliation')
    const matched = narratives(body, 'propose_match').map((text) => /most likely tax (lohnwerk:\w+)/.exec(text)?.[1])
    expect(matched.sort()).toEqual(['lohnwerk:lst_2026_01', 'lohnwerk:lst_2026_02', 'lohnwerk:lst_2026_03', 'lohnwerk:sv_2026_01', 'lohnwerk:sv_2026_02', 'lohnwerk:sv_2026_03'])
    expect(body.proposals.every((proposal) => proposal.payment_intent_id === null)).toBe(true)
  })

  it('subscriptions finds the rent, energy, van leasing and internet standing charges, and not Shopify (a known subscription)', async () => {
    const body = await runAgent('find recurring subscriptions', 'subscriptions')
    const found = narratives(body, 'subscription_found')
    for (const expected of [
      'Gewerbehof Lichtenberg GmbH & Co. KG charges 2850.00 EUR monthly',
      'Spree Energie GmbH charges 412.00 EUR monthly',
      'Stadtflotte Leasing GmbH charges 389.00 EUR monthly',
      'Berlinet Kommunikation GmbH charges 54.90 EUR monthly',
    ]) {
      expect(found.some((text) => text.startsWith(expected)), expected).toBe(true)
    }
    expect(found.some((text) => text.includes('Shopify'))).toBe(false)
  })

  it('fraud and anomaly flags the two identical Barista Supply Berlin card payments of 19 March', async () => {
    const body = await runAgent('flag suspicious duplicate payments', 'fraud_anomaly')
    const flags = narratives(body, 'flag_transaction')
    expect(flags.some((text) => /^23\.80 EUR to Barista Supply Berlin on 2026-03-19 repeats the same payment of 2026-03-19/.test(text))).toBe(true)
    // And the payroll debits, far above the checking account's usual outflow.
    expect(flags.some((text) => text.startsWith('7292.00 EUR on 2026-01-27 is far above'))).toBe(true)
  })

  it('vendor risk proposes blocking payments to the unverified, unreviewed payees with open bills (Shopify, the tax office, AOK)', async () => {
    const body = await runAgent('screen risky payees', 'vendor_risk')
    const blocks = narratives(body, 'block_payment')
    for (const payee of ['Shopify International Limited', 'Finanzamt Lichtenberg', 'AOK Nordost']) {
      expect(blocks.some((text) => text.startsWith(payee) && text.includes('is unverified and unreviewed') && text.includes('EUR open')), payee).toBe(true)
    }
  })

  it('cash forecast projects EUR from checking and savings (22,860.04 + 35,108.50) with no shortfall', async () => {
    const body = await runAgent('forecast our cash balance', 'cash_forecast')
    const forecasts = narratives(body, 'forecast')
    expect(forecasts).toHaveLength(1)
    expect(forecasts[0]).toMatch(/^EUR cash is projected to stay above zero over the next 30 days: from 57,968\.54 EUR today/)
  })

  it('ran every catalog agent, each with its behaviour hash, listed newest first and filtered by agent', async () => {
    expect([...runs.keys()].sort()).toEqual(catalog.map((entry) => entry.agent_key).sort())
    const listed = (await get(demo.token, '/v1/agents/runs?limit=100')).json()
    expect(listed.runs.map((row: any) => row.agent_id)).toEqual([...runs.keys()].reverse())
    const one = (await get(demo.token, '/v1/agents/runs?agent_id=collections')).json()
    expect(one.runs).toHaveLength(1)
    expect(one.runs[0]).toMatchObject({ id: runs.get('collections')!.run_id, status: 'proposal_created', category: 'business', trigger: 'api', shadow_mode: true, as_of: asOf })
    const paged = (await get(demo.token, '/v1/agents/runs?limit=4')).json()
    expect(paged.runs).toHaveLength(4)
    const rest = (await get(demo.token, `/v1/agents/runs?limit=4&cursor=${encodeURIComponent(paged.next_cursor)}`)).json()
    expect([...paged.runs, ...rest.runs].map((row: any) => row.id)).toEqual(listed.runs.map((row: any) => row.id))
  })
})

describe('reads of a run', () => {
  it('why: the structured reason, the redacted trace, the candidates and the behaviour hash', async () => {
    const body = runs.get('collections')!
    const why = await get(demo.token, `/v1/agents/runs/${body.run_id}/why`)
    expect(why.statusCode, why.body).toBe(200)
    const answer = why.json()
    expect(answer.behavior_hash).toBe(catalog.find((entry) => entry.agent_key === 'collections')!.behavior_hash)
    expect(answer.behavior_hash_current).toBe(true)
    expect(answer.structured_reason).toMatchObject({ status: 'proposal_created', shadow_mode: true, as_of: asOf, routing: { rule: 'keywords', policy_status: 'routed', execution_mode: 'notify_only' } })
    expect(answer.reasoning_trace.map((step: any) => step.step)).toEqual(['route', 'read_ledger', 'run_program', 'propose'])
    expect(answer.reasoning_trace[0].detail.intent).toBe('[redacted]')
    expect(answer.reasoning_trace[1].detail).toMatchObject({ accounts: 4, transactions: 791, invoices: 16, obligations: 26 })
    expect(JSON.stringify(answer)).not.toContain('remind customers')
    expect(answer.candidates[0]).toEqual({ agent_id: 'collections', score: 3, matched: ['remind', 'customer', 'overdue'] })
    expect(answer.candidates.map((candidate: any) => candidate.agent_id)).toContain('bill_payment')
  })

  it('evidence: each record its proposals cite, once', async () => {
    const body = runs.get('collections')!
    const evidence = (await get(demo.token, `/v1/agents/runs/${body.run_id}/evidence`)).json()
    const kinds = evidence.evidence.map((row: any) => row.kind)
    expect(kinds).toContain('invoice')
    expect(kinds).toContain('parsed_row')
    expect(evidence.evidence.every((row: any) => row.cited_by.length === 1 && row.cited_by[0] === body.proposals[0]!.id)).toBe(true)
    expect(evidence.ledger_read).toMatchObject({ today: asOf, snapshot_digest: expect.stringMatching(/^sha256:/) })
  })

  it('a run without a payment has an empty gate trace and no proof; the run and routing decision read back', async () => {
    const body = runs.get('cash_forecast')!
    expect((await get(demo.token, `/v1/agents/runs/${body.run_id}/gate-trace`)).json()).toEqual({ run_id: body.run_id, payment_intents: [] })
    expectError(await get(demo.token, `/v1/agents/runs/${body.run_id}/proof`), 'proof_not_found')
    const detail = (await get(demo.token, `/v1/agents/runs/${body.run_id}`)).json()
    expect(detail).toMatchObject({ id: body.run_id, agent_id: 'cash_forecast', routing_decision_id: body.routing_decision_id, proposal_ids: [body.proposals[0]!.id], payment_intent_ids: [] })
    expect(detail.proposals[0]).toMatchObject({ action_type: 'forecast', proposal_type: 'cash_forecast', evidence: expect.any(Array) })
    const decision = (await get(demo.token, `/v1/agents/routing-decisions/${body.routing_decision_id}`)).json()
    expect(decision).toMatchObject({ selected_agent_id: 'cash_forecast', run_id: body.run_id, policy_status: 'routed', input: { event: null, intent: 'forecast our cash balance' } })
    const [completed] = await auditEvents(test, demo.tenantId, { action: 'agent.run.completed', entityId: body.run_id })
    expect(completed!.outputs).toMatchObject({ status: 'proposal_created', shadow_mode: true, proposal_ids: [body.proposals[0]!.id] })
  })
})

describe('duplicates and idempotency', () => {
  it('a second run proposing only what the agent already proposed is 409 agent_proposal_duplicate naming the earlier run', async () => {
    const response = await run(demo.token, { intent: 'remind customers about overdue invoices', context: { as_of: asOf } })
    const error = expectError(response, 'agent_proposal_duplicate')
    expect(error.details).toMatchObject({ run_id: runs.get('collections')!.run_id })
    // The same for the money agent: its PaymentIntents are not proposed twice.
    expectError(await run(demo.token, { event: 'ledger.obligation.created', context: { as_of: asOf } }), 'agent_proposal_duplicate')
  })

  it('the same Idempotency-Key and body replay the first answer; another body with it is 409 idempotency_key_reused', async () => {
    // A day later the collections reminder is a new occurrence only if its key changes; cash forecast's key is per currency, so a later day is a duplicate too: use the other tenant.
    const first = await run(other.token, { intent: 'forecast cash', context: { as_of: asOf } }, { 'idempotency-key': 'agents-run-1' })
    expect(first.statusCode, first.body).toBe(200)
    const again = await run(other.token, { intent: 'forecast cash', context: { as_of: asOf } }, { 'idempotency-key': 'agents-run-1' })
    expect(again.statusCode, again.body).toBe(200)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.json().run_id).toBe(first.json().run_id)
    expectError(await run(other.token, { intent: 'forecast cash flow', context: { as_of: asOf } }, { 'idempotency-key': 'agents-run-1' }), 'idempotency_key_reused')
  })
})

describe('routing', () => {
  it('routes an event by the event table: selected, fallbacks, confidence 1, audited', async () => {
    const response = await test.request({ method: 'POST', url: '/v1/agents/route', token: demo.token, payload: { event: 'ledger.obligation.created' } })
    expect(response.statusCode, response.body).toBe(200)
    const body = response.json()
    expect(body).toEqual({
      routing_decision_id: expect.stringMatching(/^rtd_/),
      selected_agent_id: 'bill_payment',
      fallback_agent_ids: ['collections', 'cash_forecast'],
      confidence: 1,
      evidence_score: 1,
      policy_status: 'routed',
      execution_mode: 'propose',
      reason: 'The event ledger.obligation.created is routed to bill_payment by the event table.',
    })
    const [audited] = await auditEvents(test, demo.tenantId, { action: 'agent.routed', entityId: body.routing_decision_id })
    expect(audited!.outputs).toMatchObject({ selected_agent_id: 'bill_payment', rule: 'event_table:ledger.obligation.created' })
  })

  it('routes an intent by keywords, with the runner-up as fallback and a confidence below 1', async () => {
    const body = (await test.request({ method: 'POST', url: '/v1/agents/route', token: demo.token, payload: { intent: 'Which customers owe us money and are overdue?' } })).json()
    expect(body).toMatchObject({ selected_agent_id: 'collections', policy_status: 'routed', execution_mode: 'notify_only' })
    expect(body.confidence).toBeGreaterThan(0)
    expect(body.confidence).toBeLessThan(1)
    expect(body.evidence_score).toBeGreaterThan(0)
  })

  it('no_match for an unknown event or an intent no agent recognises; a run records it and proposes nothing', async () => {
    for (const payload of [{ event: 'member.changed' }, { intent: 'tell me a joke' }]) {
      const body = (await test.request({ method: 'POST', url: '/v1/agents/route', token: demo.token, payload })).json()
      expect(body).toMatchObject({ selected_agent_id: null, fallback_agent_ids: [], confidence: 0, evidence_score: 0, policy_status: 'no_match', execution_mode: null })
    }
    const ran = (await run(demo.token, { intent: 'tell me a joke' })).json()
    expect(ran).toMatchObject({ status: 'no_match', selected_agent_id: null, proposed: null, proposals: [] })
  })

  it('unscoped: a viewer may route and run finding agents, but a payment agent is not run for them', async () => {
    const routed = (await test.request({ method: 'POST', url: '/v1/agents/route', token: viewer, payload: { intent: 'pay the bills that are due' } })).json()
    expect(routed).toMatchObject({ selected_agent_id: 'bill_payment', policy_status: 'unscoped', execution_mode: 'reject' })
    const ran = (await run(viewer, { intent: 'pay the bills that are due' })).json()
    expect(ran).toMatchObject({ status: 'unscoped', selected_agent_id: 'bill_payment', proposals: [] })
  })

  it('refuses a body with both or neither of event and intent', async () => {
    expectError(await test.request({ method: 'POST', url: '/v1/agents/route', token: demo.token, payload: { event: 'ledger.obligation.created', intent: 'pay' } }), 'validation_failed')
    expectError(await run(demo.token, {}), 'validation_failed')
  })
})

describe('events and tenant isolation', () => {
  it('POST /v1/agents/events queues the run as a job; the run appears with trigger event and the job id', async () => {
    const response = await test.request({ method: 'POST', url: '/v1/agents/events', token: other.token, payload: { event: 'ledger.counterparty.created' } })
    expect(response.statusCode, response.body).toBe(202)
    const { job_id: jobId, status } = response.json()
    expect(status).toBe('queued')
    const deadline = Date.now() + 30_000
    let found: any
    while (found === undefined && Date.now() < deadline) {
      found = (await get(other.token, '/v1/agents/runs?agent_id=vendor_risk')).json().runs.find((row: any) => row.job_id === jobId)
      if (found === undefined) await new Promise((resolve) => setTimeout(resolve, 200))
    }
    // The other tenant's Ledger is empty: vendor risk finds nothing to block.
    expect(found).toMatchObject({ trigger: 'event', agent_id: 'vendor_risk', status: 'no_proposal' })
    const [queued] = await auditEvents(test, other.tenantId, { action: 'agent.event.queued', entityId: jobId })
    expect(queued!.outputs).toMatchObject({ job_id: jobId, queue: 'agents-run' })
  })

  it('POST /v1/agents/events with an Idempotency-Key queues once', async () => {
    const send = () => test.request({ method: 'POST', url: '/v1/agents/events', token: other.token, payload: { intent: 'forecast our cash' }, headers: { 'idempotency-key': 'agents-events-1' } })
    const first = await send()
    const again = await send()
    expect(first.statusCode, first.body).toBe(202)
    expect(again.statusCode, again.body).toBe(202)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.json().job_id).toBe(first.json().job_id)
    expect(await auditEvents(test, other.tenantId, { action: 'agent.event.queued', entityId: first.json().job_id })).toHaveLength(1)
  })

  it('another tenant\'s runs, routing decisions and agent actions are not found', async () => {
    const body = runs.get('bill_payment')!
    for (const path of ['', '/why', '/evidence', '/gate-trace', '/proof']) expectError(await get(other.token, `/v1/agents/runs/${body.run_id}${path}`), 'agent_run_not_found')
    expectError(await get(other.token, `/v1/agents/routing-decisions/${body.routing_decision_id}`), 'agent_routing_decision_not_found')
    expect((await get(other.token, '/v1/agents/bill_payment/actions')).json()).toEqual({ actions: [], next_cursor: null })
    // (its only bill_payment run is the viewer's unscoped one)
    expect((await get(other.token, '/v1/agents/runs?agent_id=bill_payment')).json().runs.map((row: any) => row.status)).toEqual(['unscoped'])
    expect((await get(other.token, '/v1/agents/runs?agent_id=collections')).json().runs).toEqual([])
    expectError(await get(other.token, '/v1/agents/nobody/actions'), 'agent_not_found')
  })
})

describe('a proposal closed by a person', () => {
  it('may be proposed again: once the Shopify payment and the tax remittances are rejected, bill payment proposes them anew', async () => {
    const first = runs.get('bill_payment')!
    for (const proposal of first.proposals.filter((row) => !row.narrative.includes('Shopify'))) {
      const rejected = await test.request({ method: 'POST', url: `/v1/payment-intents/${proposal.payment_intent_id}/reject`, token: demo.token, payload: { reason: 'paid already: the tax remittance is in the bank' } })
      expect(rejected.statusCode, rejected.body).toBe(200)
    }
    const again = await run(demo.token, { event: 'ledger.obligation.created', context: { as_of: asOf } })
    expect(again.statusCode, again.body).toBe(200)
    const body = again.json() as RunBody
    // The six rejected tax payments are proposed anew; the shadow-completed Shopify payment is not.
    expect(body.proposals).toHaveLength(6)
    expect(body.duplicates).toEqual([first.proposals.find((row) => row.narrative.includes('Shopify'))!.key])
    expect(new Set(body.proposals.map((row) => row.payment_intent_id)).size).toBe(6)
  })
})
