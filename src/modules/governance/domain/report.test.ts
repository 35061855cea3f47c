import { describe, expect, it } from 'vitest'
import { buildReport, csvField, reportCsv, type ReportAuditEvent } from './report.ts'

const event = (id: string, outputs: Record<string, unknown>, extra: Partial<ReportAuditEvent> = {}): ReportAuditEvent => ({
  id,
  created_at: `2026-03-0${id.slice(-1)}T10:00:00.000Z`,
  actor: { type: 'service', id: 'svc_1' },
  action: 'payment_intent.proposed',
  entity: { type: 'payment_intent', id: `pi_${id}` },
  outputs,
  ...extra,
})

const base = { tenantId: 't1', periodStart: '2026-03-01T00:00:00.000Z', periodEnd: '2026-04-01T00:00:00.000Z', agentId: null }

describe('buildReport', () => {
  const events: ReportAuditEvent[] = [
    event('e1', { agent_id: 'a1', policy_decision_id: 'pd1', outcome: 'allow', matched_rule_id: 'small' }),
    event('e2', { agent_id: 'a1', policy_decision_id: 'pd2', outcome: 'confirm', matched_rule_id: 'other' }),
    event('e3', { agent_id: 'a2', policy_decision_id: 'pd3', outcome: 'reject', matched_rule_id: 'risky' }),
    event('e4', { agent_id: 'a2', policy_decision_id: 'pd_gone', outcome: 'allow' }),
    event('e5', { agent_id: 'a2', policy_decision_id: 'pd5' }),
    event('e6', { agent_id: 'a1', policy_decision_id: 'pd6', outcome: 'allow' }),
    event('e7', { state: 'quarantined' }, { action: 'agent.halted', entity: { type: 'agent', id: 'a1' }, actor: { type: 'user', id: 'u1' } }),
    event('e8', { n: 1 }, { action: 'policy.evaluate', entity: { type: 'policy', id: 'p1' } }),
    event('e9', { outcome: 'allow' }, { action: 'agent.run.completed', actor: { type: 'agent', id: 'a3' }, entity: { type: 'agent_run', id: 'r1' } }),
    // A first-party agent's run, asked for by a person, and a finding an agent proposed with a service token: the agent is in the inputs.
    event('e10', { status: 'proposal_created', proposal_ids: ['prp_1'] }, { action: 'agent.run.completed', actor: { type: 'user', id: 'u1' }, entity: { type: 'agent_run', id: 'run_1' }, inputs: { agent_id: 'a4' } }),
    event('e11', { proposal_id: 'prp_2', status: 'proposed' }, { action: 'agent.action.proposed', actor: { type: 'service', id: 'svt_1' }, entity: { type: 'agent_proposal', id: 'prp_2' }, inputs: { agent_id: 'a4' } }),
  ]
  const decisions = new Map([
    ['pd1', 'allow'],
    ['pd2', 'confirm'],
    ['pd3', 'reject'],
    ['pd5', 'allow'],
    ['pd6', 'reject'],
  ])

  it('keeps every agent event, joins each decision, and names why a row has no decision data', () => {
    const report = buildReport({ ...base, events, decisions })
    expect(report.events.map((row) => [row.audit_event_id, row.agent_id, row.outcome, row.decision_data_status, row.unavailable_reason])).toEqual([
      ['e1', 'a1', 'approved', 'available', null],
      ['e2', 'a1', 'escalated', 'available', null],
      ['e3', 'a2', 'blocked', 'available', null],
      ['e4', 'a2', null, 'unavailable', 'policy_decision_not_found'],
      ['e5', 'a2', null, 'unavailable', 'native_outcome_missing'],
      ['e6', 'a1', null, 'unavailable', 'native_outcome_mismatch'],
      ['e7', 'a1', null, 'unavailable', 'policy_decision_id_missing'],
      ['e9', 'a3', null, 'unavailable', 'policy_decision_id_missing'],
      ['e10', 'a4', null, 'unavailable', 'policy_decision_id_missing'],
      ['e11', 'a4', null, 'unavailable', 'policy_decision_id_missing'],
    ])
    expect(report.events[0]).toMatchObject({ actor: 'service:svc_1', policy_check_id: 'small', raw_policy_outcome: 'allow', policy_decision_id: 'pd1' })
    expect(report.summary).toEqual({
      totals: { proposed: 6, approved: 1, blocked: 1, escalated: 1, decision_data_unavailable: 7 },
      coverage: { events: 10, with_policy_decision_id: 6, joined_policy_decision: 5, with_native_outcome: 6 },
    })
  })

  it('narrows to one agent', () => {
    const report = buildReport({ ...base, agentId: 'a2', events, decisions })
    expect(report.events.map((row) => row.audit_event_id)).toEqual(['e3', 'e4', 'e5'])
    expect(report.summary.totals).toEqual({ proposed: 3, approved: 0, blocked: 1, escalated: 0, decision_data_unavailable: 2 })
    expect(report.agent_id).toBe('a2')
  })

  it('writes CSV with one line per event, quoting and defusing what a spreadsheet would misread', () => {
    expect(csvField('plain')).toBe('plain')
    expect(csvField('a,b')).toBe('"a,b"')
    expect(csvField('say "hi"')).toBe('"say ""hi"""')
    expect(csvField('=SUM(A1)')).toBe("'=SUM(A1)")
    expect(csvField('-1,2')).toBe(`"'-1,2"`)
    expect(csvField(null)).toBe('')
    const csv = reportCsv(buildReport({ ...base, events, decisions }))
    const lines = csv.split('\r\n')
    expect(lines[0]).toBe('audit_event_id,created_at,actor,agent_id,action,policy_decision_id,policy_check_id,raw_policy_outcome,outcome,decision_data_status,unavailable_reason')
    expect(lines).toHaveLength(10 + 2)
    expect(lines[1]).toBe('e1,2026-03-01T10:00:00.000Z,service:svc_1,a1,payment_intent.proposed,pd1,small,allow,approved,available,')
    expect(lines.at(-1)).toBe('')
  })
})
