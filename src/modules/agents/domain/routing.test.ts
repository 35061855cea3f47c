import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { catalog } from './catalog.ts'
import { agentKeywords, eventRoutes, intentWords, route } from './routing.ts'

const owner = ['execution:read', 'payment_intent:approve'] as const
const viewer = ['execution:read'] as const

describe('routing', () => {
  it('names only catalog agents, and every catalog agent has keywords', () => {
    const keys = new Set(catalog.map((entry) => entry.agent_key))
    for (const agents of Object.values(eventRoutes)) for (const agent of agents) expect(keys.has(agent), agent).toBe(true)
    expect(Object.keys(agentKeywords).sort()).toEqual([...keys].sort())
  })

  it('routes a known event by the table, first selected, the rest fallbacks', () => {
    expect(route({ kind: 'event', event: 'ledger.counterparty.created' }, catalog, owner)).toMatchObject({
      selected_agent_id: 'vendor_risk',
      fallback_agent_ids: ['fraud_anomaly'],
      confidence: 1,
      evidence_score: 1,
      policy_status: 'routed',
      execution_mode: 'notify_only',
      rule: 'event_table:ledger.counterparty.created',
    })
    expect(route({ kind: 'event', event: 'ledger.obligation.created' }, catalog, owner)).toMatchObject({ selected_agent_id: 'bill_payment', execution_mode: 'propose' })
    expect(route({ kind: 'event', event: 'no.such.event' }, catalog, owner)).toMatchObject({ selected_agent_id: null, policy_status: 'no_match', execution_mode: null, confidence: 0 })
  })

  it('cuts an intent into its significant words, plural s dropped', () => {
    expect(intentWords('Which of my Bills are DUE? bills, invoices & the rest')).toEqual(['bill', 'due', 'invoice', 'rest'])
  })

  it('scores an intent by keyword hits: confidence top / (top + second + 1), evidence the share of words explained', () => {
    const decision = route({ kind: 'intent', intent: 'flag suspicious duplicate payments' }, catalog, owner)
    // fraud_anomaly: flag, suspicious, duplicate (3); bill_payment: payment (1).
    expect(decision).toMatchObject({ selected_agent_id: 'fraud_anomaly', fallback_agent_ids: ['bill_payment'], confidence: 0.6, evidence_score: 0.75, rule: 'keywords' })
    expect(decision.candidates[0]).toEqual({ agent_id: 'fraud_anomaly', score: 3, matched: ['flag', 'suspicious', 'duplicate'] })
  })

  it('breaks a tie by catalog order', () => {
    // "pay" is bill_payment's, "cash" cash_forecast's: one each.
    expect(route({ kind: 'intent', intent: 'pay cash' }, catalog, owner)).toMatchObject({ selected_agent_id: 'bill_payment', fallback_agent_ids: ['cash_forecast'], confidence: 0.33 })
  })

  it('is unscoped (reject) for a payment agent when the caller can neither approve nor propose; finding agents are not', () => {
    expect(route({ kind: 'intent', intent: 'pay the bills' }, catalog, viewer)).toMatchObject({ selected_agent_id: 'bill_payment', policy_status: 'unscoped', execution_mode: 'reject' })
    expect(route({ kind: 'intent', intent: 'cash forecast' }, catalog, viewer)).toMatchObject({ selected_agent_id: 'cash_forecast', policy_status: 'routed' })
    expect(route({ kind: 'intent', intent: 'pay the bills' }, catalog, ['execution:read', 'execution:propose'])).toMatchObject({ policy_status: 'routed', execution_mode: 'propose' })
  })

  it('is deterministic, and bounded: scores in 0..1, the selection a catalog agent or null', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (intent) => {
        const first = route({ kind: 'intent', intent }, catalog, owner)
        expect(route({ kind: 'intent', intent }, catalog, owner)).toEqual(first)
        for (const value of [first.confidence, first.evidence_score]) expect(value >= 0 && value <= 1).toBe(true)
        if (first.selected_agent_id === null) expect(first.policy_status).toBe('no_match')
        else expect(catalog.some((entry) => entry.agent_key === first.selected_agent_id)).toBe(true)
      }),
    )
  })
})
