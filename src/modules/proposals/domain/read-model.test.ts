import { describe, expect, it } from 'vitest'
import { classifyRef, deepLinkOf, summaryOf } from './evidence.ts'
import {
  availableDecisionsOf,
  isMoneyProposal,
  checkFindingAuthority,
  confidenceBandOf,
  decisionInForce,
  policyExplanationOf,
  presentationOf,
  riskBandOf,
  statusOf,
  undoTarget,
  type StoredProposal,
} from './read-model.ts'
import { explicitTypeMap, proposalStatuses, publicProposalTypes, resolveProposalType } from './types.ts'

describe('the vocabulary', () => {
  it('has the spec\'s 19 public types and 15 statuses', () => {
    expect(publicProposalTypes).toHaveLength(19)
    expect(proposalStatuses).toHaveLength(15)
    expect(Object.values(explicitTypeMap).every((type) => (publicProposalTypes as readonly string[]).includes(type))).toBe(true)
  })
})

describe('type resolution in the spec order', () => {
  it.each([
    ['a stored action type that is a public type wins over the role', 'dispute', 'collections', null, 'dispute', 'stored_action_type'],
    ['the role next', 'remind', 'collections', 'collections', 'collections', 'agent_role'],
    ['the role before the map (remind maps to bill_management)', 'remind', 'collections', null, 'collections', 'agent_role'],
    ['the kind (catalog key) when the role is not public', 'remind', 'proposer', 'savings', 'savings', 'agent_kind'],
    ['the explicit map last: flag_transaction', 'flag_transaction', 'proposer', null, 'fraud_anomaly', 'explicit_map'],
    ['block_payment', 'block_payment', null, null, 'vendor_risk', 'explicit_map'],
    ['propose_match', 'propose_match', 'reader', null, 'reconciliation', 'explicit_map'],
    ['recommend_card', 'recommend_card', null, null, 'travel_finance', 'explicit_map'],
    ['tag_tax_item', 'tag_tax_item', null, null, 'tax_prep', 'explicit_map'],
    ['remind', 'remind', null, null, 'bill_management', 'explicit_map'],
    ['recommend_savings_transfer', 'recommend_savings_transfer', null, null, 'savings', 'explicit_map'],
    ['a payment action type is a payment', 'ach_outbound', 'proposer', null, 'payment', 'explicit_map'],
    ['notify by role only', 'notify', 'treasury', null, 'treasury', 'agent_role'],
  ] as const)('%s', (_name, actionType, agentRole, agentKind, type, rule) => {
    expect(resolveProposalType({ actionType, agentRole, agentKind })).toEqual({ type, rule })
  })

  it.each([['notify'], ['escalate'], ['create_task'], ['recommend_action'], ['unknown_thing'], ['__proto__'], ['constructor']])('%s without a public role resolves to nothing', (actionType) => {
    expect(resolveProposalType({ actionType, agentRole: 'proposer', agentKind: null })).toEqual({ type: undefined, rule: 'unresolved' })
  })
})

const intent = (status: string) => ({ status, actionType: 'ach_outbound', amount: '10.00', currency: 'EUR', destinationCounterpartyId: 'cpy_1', approvalsRequired: 1, approvals: 0 })

describe('status', () => {
  it.each([
    ['pending_approval', 'pending_approval'],
    ['awaiting_second_approval', 'awaiting_second_approval'],
    ['approved', 'approved'],
    ['shadow_completed', 'approved'],
    ['dispatching', 'dispatching'],
    ['executed', 'executed'],
    ['failed', 'failed'],
    ['reconciling', 'reconciling'],
    ['paused', 'paused'],
    ['cancelled', 'cancelled'],
    ['rejected', 'rejected'],
    ['something_new', 'unknown'],
  ])('a money proposal whose intent is %s reads %s', (intentStatus, expected) => {
    expect(statusOf({ paymentIntentId: 'pi_1', status: 'pending_approval' }, intent(intentStatus), [])).toBe(expected)
  })

  it('a money proposal whose intent is gone is unknown; a refused one rejected', () => {
    expect(statusOf({ paymentIntentId: 'pi_1', status: 'pending_approval' }, undefined, [])).toBe('unknown')
    expect(statusOf({ paymentIntentId: null, status: 'refused' }, undefined, [])).toBe('rejected')
  })

  it('a refused payment is a money proposal: rejected, with no decision open (not even undo)', () => {
    const refused = { paymentIntentId: null, status: 'refused' }
    expect(isMoneyProposal(refused)).toBe(true)
    expect(isMoneyProposal({ paymentIntentId: 'pi_1', status: 'pending_approval' })).toBe(true)
    expect(isMoneyProposal({ paymentIntentId: null, status: 'proposed' })).toBe(false)
    expect(availableDecisionsOf(isMoneyProposal(refused), statusOf(refused, undefined, []))).toEqual([])
  })

  it.each([
    [[], 'proposed'],
    [['acknowledge'], 'acknowledged'],
    [['reject'], 'rejected'],
    [['acknowledge', 'undo'], 'undone'],
    [['acknowledge', 'undo', 'reject'], 'rejected'],
  ] as const)('a finding decided %j reads %s', (decisions, expected) => {
    const recorded = decisions.map((decision, index) => ({ id: `pdn_${index}`, decision }))
    expect(statusOf({ paymentIntentId: null, status: 'proposed' }, undefined, recorded)).toBe(expected)
  })
})

describe('available decisions and undo eligibility', () => {
  it.each([
    [true, 'pending_approval', ['approve', 'reject']],
    [true, 'awaiting_second_approval', ['approve', 'reject']],
    [true, 'approved', []],
    [true, 'rejected', []],
    [false, 'proposed', ['acknowledge', 'reject']],
    [false, 'undone', ['acknowledge', 'reject']],
    [false, 'acknowledged', ['undo']],
    [false, 'rejected', ['undo']],
    [false, 'unknown', []],
  ] as const)('money %s, %s: %j', (money, status, expected) => {
    expect(availableDecisionsOf(money, status).map((option) => option.id)).toEqual(expected)
  })

  it('undo reverses the decision in force on a finding, never a money decision nor an undo', () => {
    const acknowledged = [{ id: 'pdn_1', decision: 'acknowledge' as const }]
    expect(undoTarget(false, acknowledged)).toEqual(acknowledged[0])
    expect(undoTarget(true, acknowledged)).toBeUndefined()
    expect(undoTarget(false, [...acknowledged, { id: 'pdn_2', decision: 'undo' as const }])).toBeUndefined()
    expect(undoTarget(false, [])).toBeUndefined()
    expect(decisionInForce([{ id: 'pdn_1', decision: 'reject' }])).toEqual({ id: 'pdn_1', decision: 'reject' })
  })
})

describe('who decides on a finding', () => {
  const member = (overrides: Record<string, unknown> = {}) => ({ status: 'active' as const, role: 'approver', approvalDomains: ['*'], ...overrides })
  it.each([
    ['no member', undefined, 'actor_unresolved'],
    ['a deactivated member', member({ status: 'deactivated' }), 'actor_inactive'],
    ['a viewer', member({ role: 'viewer' }), 'domain_not_authorized'],
    ['an approver out of domain', member({ approvalDomains: ['payment'] }), 'domain_not_authorized'],
  ] as const)('refuses %s', (_name, who, reason) => {
    expect(checkFindingAuthority(who, { type: 'collections', actionType: 'remind' })).toMatchObject({ ok: false, reason })
  })
  it.each([
    ['an owner', member({ role: 'owner' })],
    ['an admin', member({ role: 'admin' })],
    ['an approver of the type', member({ approvalDomains: ['collections'] })],
    ['an approver of the action type', member({ approvalDomains: ['remind'] })],
  ])('accepts %s', (_name, who) => {
    expect(checkFindingAuthority(who, { type: 'collections', actionType: 'remind' })).toEqual({ ok: true })
  })
})

describe('risk and confidence bands', () => {
  const base = { type: 'collections' as const, actionType: 'remind', confidence: 0.9, money: false, policyDecision: 'allow' as const, shortfall: false, status: 'proposed' as const }
  it.each([
    ['unknown status', { status: 'unknown' as const }, null],
    ['money rejected by policy', { money: true, policyDecision: 'reject' as const }, 'high'],
    ['money to confirm', { money: true, policyDecision: 'confirm' as const }, 'elevated'],
    ['money allowed', { money: true, policyDecision: 'allow' as const }, 'standard'],
    ['a sure fraud flag', { type: 'fraud_anomaly' as const, actionType: 'flag_transaction' }, 'high'],
    ['an unsure vendor block', { type: 'vendor_risk' as const, actionType: 'block_payment', confidence: 0.5 }, 'elevated'],
    ['a high-risk action type of another type', { actionType: 'escalate' }, 'high'],
    ['a forecast with a shortfall', { type: 'cash_forecast' as const, actionType: 'forecast', shortfall: true }, 'elevated'],
    ['a sure reminder', {}, 'low'],
    ['an unsure reminder', { confidence: 0.6 }, 'standard'],
    ['no confidence', { confidence: null }, 'standard'],
  ] as const)('%s', (_name, overrides, band) => {
    expect(riskBandOf({ ...base, ...overrides })).toBe(band)
  })

  it.each([[null, 'unknown'], [0.95, 'high'], [0.8, 'high'], [0.79, 'medium'], [0.5, 'medium'], [0.49, 'low'], [0, 'low']] as const)('confidence %s is %s', (confidence, band) => {
    expect(confidenceBandOf(confidence)).toBe(band)
  })
})

describe('policy explanation and presentation', () => {
  it.each([
    [{ decision: null, policy_id: null, policy_version: null, matched_rule_id: null, required_approvers: [], trace: [] }, 'No policy is active for the tenant: nothing was evaluated.'],
    [{ decision: 'allow' as const, policy_id: 'pol_1', policy_version: 1, matched_rule_id: 'non-money', required_approvers: [], trace: [] }, 'Allowed by rule non-money of policy version 1.'],
    [{ decision: 'confirm' as const, policy_id: 'pol_1', policy_version: 3, matched_rule_id: null, required_approvers: ['signer'], trace: [] }, 'Needs a person to confirm by the policy\'s fallback of policy version 3, needing signer.'],
    [{ decision: 'reject' as const, policy_id: 'pol_1', policy_version: 2, matched_rule_id: 'large', required_approvers: [], trace: [] }, 'Rejected by rule large of policy version 2.'],
  ])('explains %j', (policy, text) => {
    expect(policyExplanationOf(policy)).toBe(text)
  })

  const finding: StoredProposal = {
    id: 'prp_1',
    runId: 'arn_1',
    agent: { id: 'collections', kind: 'internal', display_name: 'Collections', role: 'collections' },
    proposalType: 'collections',
    actionType: 'remind',
    status: 'proposed',
    confidence: 0.85,
    evidenceScore: 1,
    narrative: 'Invoice A-1 is 20 days overdue. Send a firm reminder.',
    evidence: [{ kind: 'invoice', ref: 'inv_1' }, { kind: 'parsed_row', ref: 'rpr_1' }],
    details: { invoice_id: 'inv_1', days_overdue: 20, tone: 'firm', nested: { no: 1 } },
    paymentIntentId: null,
    createdAt: '2026-04-10T00:00:00.000Z',
  }
  const policy = { decision: 'allow' as const, policy_id: 'pol_1', policy_version: 1, matched_rule_id: 'r', explanation: 'Allowed by rule r of policy version 1.', required_approvers: [], trace: [] }

  it('presents a finding: headline, recommendation, key facts, consequences and the six stages', () => {
    const available = availableDecisionsOf(false, 'proposed')
    const shown = presentationOf({ proposal: finding, resolution: { type: 'collections', rule: 'agent_role' }, status: 'proposed', riskBand: 'low', intent: undefined, policy, available })
    expect(shown.headline).toBe('Collections: Invoice A-1 is 20 days overdue.')
    expect(shown.recommendation).toBe('Send the customer the reminder.')
    expect(shown.key_facts).toEqual([
      { label: 'Type', value: 'Collections' },
      { label: 'Agent', value: 'Collections' },
      { label: 'Status', value: 'proposed' },
      { label: 'Confidence', value: '85 %' },
      { label: 'Evidence', value: '2 references' },
      { label: 'Invoice id', value: 'inv_1' },
      { label: 'Days overdue', value: '20' },
      { label: 'Tone', value: 'firm' },
    ])
    expect(shown.confidence_band).toBe('high')
    expect(shown.consequences.approve).toBeNull()
    expect(shown.consequences.acknowledge).toMatch(/saw the finding/)
    expect(shown.actions).toEqual(available)
    expect(Object.keys(shown.technical_detail)).toEqual(['1_ingest', '2_extract', '3_classify', '4_score', '5_policy', '6_propose'])
    expect(shown.technical_detail['2_extract']).toEqual({ parsed_row_ids: ['rpr_1'] })
    expect(shown.technical_detail['1_ingest']).toEqual({ evidence_refs: 2, kinds: ['invoice', 'parsed_row'] })
  })

  it('presents a money proposal waiting for a second approver with the amount and what approval does', () => {
    const money: StoredProposal = { ...finding, actionType: 'pay_invoice', paymentIntentId: 'pi_1', agent: { id: 'bill_payment', kind: 'internal', display_name: 'Bill payment', role: 'bill_management' } }
    const shown = presentationOf({
      proposal: money,
      resolution: { type: 'bill_management', rule: 'agent_role' },
      status: 'pending_approval',
      riskBand: 'elevated',
      intent: { ...intent('pending_approval'), approvalsRequired: 2 },
      policy,
      available: availableDecisionsOf(true, 'pending_approval'),
    })
    expect(shown.recommendation).toBe('Approve paying 10.00 EUR if the bill is right; reject it otherwise.')
    expect(shown.key_facts).toContainEqual({ label: 'Amount', value: '10.00 EUR' })
    expect(shown.consequences.approve).toMatch(/distinct second member must approve too.*dispatches no rail.*shadow mode/)
    expect(shown.consequences.acknowledge).toBeNull()
  })
})

describe('evidence refs', () => {
  it.each([
    ['account', 'acc_01ABC', { ok: true, kind: 'account' }],
    ['counterparty', 'cpy_01ABC', { ok: true, kind: 'counterparty' }],
    ['invoice', 'inv_01ABC', { ok: true, kind: 'invoice' }],
    ['obligation', 'obl_01ABC', { ok: true, kind: 'obligation' }],
    ['transaction', 'txn_01ABC', { ok: true, kind: 'transaction' }],
    ['wiki_entity', 'txn_01ABC', { ok: true, kind: 'wiki_entity' }],
    ['wiki_entity', 'bal_01ABC', { ok: true, kind: 'wiki_entity' }],
    ['document', 'anything', { ok: false, reason: 'unsupported_kind' }],
    ['payment_intent', 'pi_01', { ok: false, reason: 'unsupported_kind' }],
    ['policy', 'pol_01', { ok: false, reason: 'unsupported_kind' }],
    ['raw_artifact', 'raw_01', { ok: false, reason: 'unsupported_kind' }],
    ['parsed_row', 'rpr_01', { ok: false, reason: 'unsupported_kind' }],
    ['', 'acc_01', { ok: false, reason: 'unsupported_kind' }],
    ['transaction', 'inv_01ABC', { ok: false, reason: 'malformed_ref' }],
    ['account', '', { ok: false, reason: 'malformed_ref' }],
    ['account', 'acc_', { ok: false, reason: 'malformed_ref' }],
    ['account', 'acc_01 02', { ok: false, reason: 'malformed_ref' }],
    ['account', `acc_${'A'.repeat(200)}`, { ok: false, reason: 'malformed_ref' }],
    ['wiki_entity', 'pi_01', { ok: false, reason: 'malformed_ref' }],
  ] as const)('%s %s', (kind, ref, expected) => {
    expect(classifyRef(kind, ref)).toEqual(expected)
  })

  it('links and summarizes a record', () => {
    expect(deepLinkOf('counterparty', 'cpy_1')).toBe('/v1/ledger/counterparties/cpy_1')
    expect(deepLinkOf('wiki_entity', 'txn_1')).toBe('/v1/wiki/entity/txn_1')
    expect(summaryOf('transaction', { amount: '-23.80', currency: 'EUR', transaction_date: '2026-03-19', description_normalized: 'BARISTA SUPPLY', status: 'posted' })).toBe('Transaction of -23.80 EUR on 2026-03-19: BARISTA SUPPLY (posted)')
    expect(summaryOf('invoice', { invoice_number: 'A-1', direction: 'receivable', amount_due: '10.00', currency: 'EUR', due_date: '2026-03-02', status: 'overdue' })).toBe('Invoice A-1 (receivable): 10.00 EUR due 2026-03-02, overdue')
  })
})
