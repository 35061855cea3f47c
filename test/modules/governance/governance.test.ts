/**
 * The governance module (issue 18, item 6), on the platform credential only: a tenant's registered agents
 * (list with filters and cursor, one with its lifecycle events), lifecycle transitions audited as
 * governance.agent.lifecycle_changed, agent-activity reports that sum to what the audit log holds (JSON and
 * CSV), and snapshots that replay by Idempotency-Key and do not change when the data does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditEvents } from '../../support/audit-log.ts'
import { createTestApp, expectError, signupOwner, testPlatformSecret, type TestApp } from '../../support/harness.ts'
import { approvedIntent, business, type Business } from '../../support/payments.ts'

let test: TestApp
let b: Business
beforeAll(async () => {
  test = await createTestApp()
  b = await business(test, '100000.00')
})
afterAll(async () => test?.close())

const platform = { 'x-platform-service-auth': testPlatformSecret }
const get = (url: string) => test.request({ method: 'GET', url, headers: platform })
const patch = (agentId: string, payload: Record<string, unknown>) => test.request({ method: 'PATCH', url: `/v1/governance/agents/${agentId}`, headers: platform, payload })
let sequence = 0
const newAgentId = () => `gov_${Date.now()}_${(sequence += 1)}`
async function register(role = 'reader') {
  const agentId = newAgentId()
  const response = await test.request({ method: 'POST', url: '/v1/execution/agents/register', token: b.admin.token, payload: { agent_id: agentId, role, display_name: `Agent ${agentId}` } })
  expect(response.statusCode, response.body).toBe(201)
  return agentId
}
const transition = (agentId: string, move: string, tenantId = b.owner.tenantId) => patch(agentId, { tenant_id: tenantId, transition: move, reason: `${move} for the test`, actor: 'ops@platform' })

describe('the governance routes refuse every end-user credential', () => {
  it('answers a bearer alone with 401, like no credential', async () => {
    for (const url of [`/v1/governance/agents?tenant_id=${b.owner.tenantId}`, `/v1/governance/reports?tenant_id=${b.owner.tenantId}&period_start=2026-01-01T00:00:00Z&period_end=2026-02-01T00:00:00Z`]) {
      expectError(await test.request({ method: 'GET', url, token: b.owner.token }), 'auth_token_missing')
      expectError(await test.request({ method: 'GET', url, token: b.agent }), 'auth_token_missing')
    }
  })
})

describe('GET and PATCH /v1/governance/agents', () => {
  it('lists the tenant\'s registered agents by status and owner, a page at a time, and 404s an unknown tenant', async () => {
    const [first, second] = [await register(), await register()]
    expect((await transition(first, 'resume')).statusCode).toBe(200)
    const all = (await get(`/v1/governance/agents?tenant_id=${b.owner.tenantId}&limit=500`)).json()
    const mine = all.agents.filter((agent: { id: string }) => agent.id === first || agent.id === second)
    expect(mine).toHaveLength(2)
    expect(mine[0]).toMatchObject({ tenant_id: b.owner.tenantId, kind: 'external', scopes: null })
    expect(mine.map((agent: { id: string; status: string }) => [agent.id, agent.status])).toEqual([
      [first, 'active'],
      [second, 'pending_onchain'],
    ])
    const pending = (await get(`/v1/governance/agents?tenant_id=${b.owner.tenantId}&status=pending&limit=500`)).json().agents.map((agent: { id: string }) => agent.id)
    expect(pending).toContain(second)
    expect(pending).not.toContain(first)
    const owned = (await get(`/v1/governance/agents?tenant_id=${b.owner.tenantId}&owner=${b.admin.userId}&limit=500`)).json().agents
    expect(owned.length).toBe(all.agents.length)
    expect((await get(`/v1/governance/agents?tenant_id=${b.owner.tenantId}&owner=usr_someone_else`)).json()).toEqual({ agents: [], next_cursor: null })
    // One at a time, every agent once, in id order.
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const page: { agents: Array<{ id: string }>; next_cursor: string | null } = (await get(`/v1/governance/agents?tenant_id=${b.owner.tenantId}&limit=1${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`)).json()
      seen.push(...page.agents.map((agent: { id: string }) => agent.id))
      cursor = page.next_cursor
    } while (cursor !== null)
    expect(seen).toEqual(all.agents.map((agent: { id: string }) => agent.id))
    expect([...seen].sort()).toEqual(seen)
    expectError(await get('/v1/governance/agents?tenant_id=00000000-0000-7000-8000-000000000000'), 'tenant_not_found')
  })

  it('moves an agent pending → active → quarantined → active → revoked, audited, and refuses every other move', async () => {
    const agentId = await register()
    const moves: Array<[string, string]> = [
      ['resume', 'active'],
      ['pause', 'quarantined'],
      ['resume', 'active'],
      ['revoke', 'revoked'],
    ]
    for (const [move, state] of moves) {
      const response = await transition(agentId, move)
      expect(response.statusCode, response.body).toBe(200)
      expect(response.json()).toMatchObject({ id: agentId, state, status: state, tenant_id: b.owner.tenantId })
    }
    for (const move of ['pause', 'resume', 'revoke']) expectError(await transition(agentId, move), 'agent_lifecycle_transition_invalid')
    const audited = await auditEvents(test, b.owner.tenantId, { action: 'governance.agent.lifecycle_changed', entityId: agentId })
    expect(audited.map((event) => [event.actor_type, event.actor_id, event.inputs['transition'], event.outputs['state_before'], event.outputs['state']])).toEqual([
      ['platform', 'ops@platform', 'resume', 'pending_onchain', 'active'],
      ['platform', 'ops@platform', 'pause', 'active', 'quarantined'],
      ['platform', 'ops@platform', 'resume', 'quarantined', 'active'],
      ['platform', 'ops@platform', 'revoke', 'active', 'revoked'],
    ])
    // The free-text reason is not in the audit log, only its digest.
    expect(JSON.stringify(audited)).not.toContain('for the test')
    // The agent's read has every event about it, oldest first.
    const detail = (await get(`/v1/governance/agents/${agentId}?tenant_id=${b.owner.tenantId}`)).json()
    expect(detail).toMatchObject({ id: agentId, state: 'revoked', scopes: null })
    expect(detail.lifecycle_events.map((event: { action: string; outcome: string | null }) => [event.action, event.outcome])).toEqual([
      ['agent.registered', 'pending_onchain'],
      ['governance.agent.lifecycle_changed', 'active'],
      ['governance.agent.lifecycle_changed', 'quarantined'],
      ['governance.agent.lifecycle_changed', 'active'],
      ['governance.agent.lifecycle_changed', 'revoked'],
    ])
    expect(detail.lifecycle_events[1].actor).toBe('platform:ops@platform')
  })

  it('answers 404 for another tenant\'s agent or an unknown one, and 404 tenant_not_found for an unknown tenant', async () => {
    const agentId = await register()
    const other = await signupOwner(test)
    expectError(await get(`/v1/governance/agents/${agentId}?tenant_id=${other.tenantId}`), 'agent_not_found')
    expectError(await transition(agentId, 'resume', other.tenantId), 'agent_not_found')
    expectError(await get(`/v1/governance/agents/nobody?tenant_id=${b.owner.tenantId}`), 'agent_not_found')
    expectError(await transition(agentId, 'resume', '00000000-0000-7000-8000-000000000000'), 'tenant_not_found')
    // The other tenant's attempt changed nothing.
    expect((await get(`/v1/governance/agents/${agentId}?tenant_id=${b.owner.tenantId}`)).json().state).toBe('pending_onchain')
  })
})

describe('governance reports', () => {
  let periodStart: string
  const reportUrl = (start: string, end: string, extra = '') => `/v1/governance/reports?tenant_id=${b.owner.tenantId}&period_start=${start}&period_end=${end}${extra}`

  beforeAll(async () => {
    periodStart = new Date(Date.now() - 1000).toISOString()
    // Two payments the policy approves on its own (≤ 50 EUR) and one it escalates to a person.
    await approvedIntent(test, b, { amount: '10.00' })
    await approvedIntent(test, b, { amount: '11.00' })
    const escalated = await test.request({
      method: 'POST',
      url: '/v1/payment-intents',
      token: b.agent,
      payload: { action_type: 'ach_outbound', source_account_id: b.account, destination_counterparty_id: b.supplier, amount: '75.00', currency: 'EUR' },
    })
    expect(escalated.statusCode, escalated.body).toBe(201)
  })

  it('sums to what the audit log holds for the period, in JSON and in CSV', async () => {
    const end = new Date(Date.now() + 1000).toISOString()
    const response = await get(reportUrl(periodStart, end))
    expect(response.statusCode, response.body).toBe(200)
    const report = response.json()
    // The audit log's own account of the period: the proposals agents made and their policy outcomes.
    const proposals = (await auditEvents(test, b.owner.tenantId, { action: 'payment_intent.proposed' })).filter(
      (event) => new Date(event.created_at).getTime() >= new Date(periodStart).getTime() && event.outputs['agent_id'] !== null,
    )
    expect(proposals).toHaveLength(3)
    const outcomes = proposals.map((event) => event.outputs['outcome'])
    expect(report.summary.totals).toMatchObject({
      proposed: proposals.length,
      approved: outcomes.filter((outcome) => outcome === 'allow').length,
      escalated: outcomes.filter((outcome) => outcome === 'confirm').length,
      blocked: 0,
    })
    expect(report.summary.totals.approved).toBe(2)
    expect(report.summary.totals.escalated).toBe(1)
    const proposalRows = report.events.filter((row: { action: string }) => row.action === 'payment_intent.proposed')
    expect(proposalRows.map((row: { audit_event_id: string }) => row.audit_event_id)).toEqual(proposals.map((event) => event.id))
    for (const row of proposalRows) expect(row).toMatchObject({ decision_data_status: 'available', unavailable_reason: null, agent_id: proposals[0]!.outputs['agent_id'] })
    // Every row is either available or counted as unavailable, and the coverage counts add up.
    expect(report.summary.totals.decision_data_unavailable).toBe(report.events.filter((row: { decision_data_status: string }) => row.decision_data_status === 'unavailable').length)
    expect(report.summary.coverage.events).toBe(report.events.length)
    expect(report.summary.coverage.joined_policy_decision).toBe(3)

    const csv = await get(reportUrl(periodStart, end, '&format=csv'))
    expect(csv.statusCode).toBe(200)
    expect(csv.headers['content-type']).toMatch(/^text\/csv/)
    const lines = csv.body.split('\r\n').filter((line) => line !== '')
    expect(lines[0]!.split(',')).toEqual(['audit_event_id', 'created_at', 'actor', 'agent_id', 'action', 'policy_decision_id', 'policy_check_id', 'raw_policy_outcome', 'outcome', 'decision_data_status', 'unavailable_reason'])
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(report.events.map((row: { audit_event_id: string }) => row.audit_event_id))

    // Narrowed to another agent: nothing; a period before the proposals: nothing.
    expect((await get(reportUrl(periodStart, end, '&agent_id=nobody'))).json().events).toEqual([])
    expect((await get(reportUrl('2020-01-01T00:00:00Z', '2020-02-01T00:00:00Z'))).json().summary.coverage.events).toBe(0)
  })

  it('refuses a period that ends before it starts, or spans more than 366 days', async () => {
    expectError(await get(reportUrl('2026-02-01T00:00:00Z', '2026-01-01T00:00:00Z')), 'validation_failed')
    expectError(await get(reportUrl('2024-01-01T00:00:00Z', '2026-01-01T00:00:00Z')), 'validation_failed')
    expectError(await get(reportUrl('not-a-date', '2026-01-01T00:00:00Z')), 'request_params_invalid')
  })

  it('freezes a snapshot that replays by Idempotency-Key, refuses the key for other parameters, and does not change when the data does', async () => {
    const end = new Date(Date.now() + 60_000).toISOString()
    const query = `tenant_id=${b.owner.tenantId}&period_start=${periodStart}&period_end=${end}`
    const snapshot = (key: string, q = query) =>
      test.request({ method: 'POST', url: `/v1/governance/reports/snapshot?${q}`, headers: { ...platform, 'idempotency-key': key }, payload: { created_by: 'auditor@platform' } })
    const created = await snapshot('snap-1')
    expect(created.statusCode, created.body).toBe(201)
    const body = created.json()
    expect(body.report_id).toMatch(/^grpt_/)
    expect(body.snapshot).toMatchObject({ report_id: body.report_id, tenant_id: b.owner.tenantId, created_by: 'auditor@platform', agent_id: null })
    const replay = await snapshot('snap-1')
    expect(replay.statusCode).toBe(201)
    expect(replay.headers['idempotent-replayed']).toBe('true')
    expect(replay.json()).toEqual(body)
    expectError(await snapshot('snap-1', `${query}&agent_id=someone`), 'idempotency_key_reused')
    // The report's own query, format=json included, is the same request; csv is refused.
    const withFormat = await snapshot('snap-1', `${query}&format=json`)
    expect(withFormat.headers['idempotent-replayed']).toBe('true')
    expect(withFormat.json()).toEqual(body)
    expectError(await snapshot('snap-2', `${query}&format=csv`), 'request_params_invalid')

    // New data: the live report moves, the snapshot does not.
    await approvedIntent(test, b, { amount: '12.00' })
    const live = (await get(`/v1/governance/reports?${query}`)).json()
    expect(live.summary.totals.proposed).toBe(body.snapshot.report.summary.totals.proposed + 1)
    const frozen = await get(`/v1/governance/reports/${body.report_id}?tenant_id=${b.owner.tenantId}`)
    expect(frozen.statusCode).toBe(200)
    expect(frozen.json()).toEqual(body.snapshot)
    expect(await auditEvents(test, b.owner.tenantId, { action: 'governance.report.snapshot_created', entityId: body.report_id })).toHaveLength(1)

    const other = await signupOwner(test)
    expectError(await get(`/v1/governance/reports/${body.report_id}?tenant_id=${other.tenantId}`), 'governance_report_not_found')
    expectError(await get(`/v1/governance/reports/grpt_nothing?tenant_id=${b.owner.tenantId}`), 'governance_report_not_found')
  })
})
