import { describe, expect, it } from 'vitest'
import { defaultPolicyContent } from './default.ts'
import { alwaysHumanActionTypes, evaluatePolicy } from './evaluate.ts'
import { policy, rule, usd } from './test-helpers.testing.ts'
import {
  conditionKeys,
  fallbackAgentRoles,
  highRiskAgentActionTypes,
  type ConditionKey,
  type Conditions,
  type PolicyAction,
  type PolicyContent,
  type PolicyDecision,
  type Rule,
  type TraceCheck,
} from './types.ts'

const lists = { vip: ['cpy_1', 'cpy_2'], blocked: ['cpy_9'] }

/** The check of `key` in the trace of a one-rule policy `when`, for `action` (kind ledger_write unless given). */
function checkOf(key: string, when: Conditions, action: Partial<PolicyAction>): { check: TraceCheck; decision: PolicyDecision } {
  const content = policy({ rules: [rule('r', ['any'], when, 'confirm')], lists })
  const decision = evaluatePolicy(content, { kind: 'ledger_write', ...action } as PolicyAction)
  const entry = decision.trace.find((item) => item.rule_id === 'r')
  const check = entry?.checks.find((item) => item.key === key)
  if (check === undefined) throw new Error(`no ${key} check in ${JSON.stringify(decision.trace)}`)
  return { check, decision }
}

describe('every condition key: holds, does not hold, not populated', () => {
  // [key, rule value, an action for which it holds, one for which it does not]
  const table: Array<[ConditionKey, unknown, Partial<PolicyAction>, Partial<PolicyAction>]> = [
    ['amount.lte', usd('100.00'), { amount: usd('100') }, { amount: usd('100.01') }],
    ['amount.gt', usd('100'), { amount: usd('100.01') }, { amount: usd('100.00') }],
    ['counterparty.in', 'vip', { counterparty_id: 'cpy_2' }, { counterparty_id: 'cpy_3' }],
    ['counterparty.not_in', 'blocked', { counterparty_id: 'cpy_1' }, { counterparty_id: 'cpy_9' }],
    ['agent_id', ['agt_1', 'agt_2'], { agent_id: 'agt_2' }, { agent_id: 'agt_3' }],
    ['agent_role', 'collections', { agent_role: 'collections' }, { agent_role: 'vendor_risk' }],
    ['tenant_category', ['smb'], { tenant_category: 'smb' }, { tenant_category: 'enterprise' }],
    ['behavior_hash', '0xabc', { behavior_hash: '0xabc' }, { behavior_hash: '0xabd' }],
    ['action_id', 'act_1', { action_id: 'act_1' }, { action_id: 'act_2' }],
    ['action_type', ['pay_invoice', 'wire'], { action_type: 'wire' }, { action_type: 'ach_outbound' }],
    ['risk_level', ['low', 'medium'], { risk_level: 'medium' }, { risk_level: 'high' }],
    ['risk_level.lte', 'medium', { risk_level: 'medium' }, { risk_level: 'sanctioned' }],
    ['confidence.gte', 0.8, { confidence: 0.8 }, { confidence: 0.79 }],
    ['confidence.lt', 0.6, { confidence: 0.59 }, { confidence: 0.6 }],
    ['evidence_score.gte', 0.5, { evidence_score: 1 }, { evidence_score: 0.49 }],
    ['evidence_score.lt', 0.5, { evidence_score: 0 }, { evidence_score: 0.5 }],
    ['spend_in_window.lte', usd('1000'), { spend_in_window: usd('1000.00') }, { spend_in_window: usd('1000.01') }],
    ['tx_count_in_window.lte', 10, { tx_count_in_window: 10 }, { tx_count_in_window: 11 }],
  ]

  it('covers every key of the language', () => {
    expect(new Set(table.map(([key]) => key))).toEqual(new Set(conditionKeys))
  })

  it.each(table)('%s holds', (key, value, holds) => {
    const { check, decision } = checkOf(key, { [key]: value }, holds)
    expect(check.passed).toBe(true)
    expect(decision.outcome).toBe('confirm')
    expect(decision.matched_rule_id).toBe('r')
  })

  it.each(table)('%s does not hold', (key, value, _holds, fails) => {
    const { check, decision } = checkOf(key, { [key]: value }, fails)
    expect(check.passed).toBe(false)
    expect(decision.outcome).toBe('reject')
    expect(decision.matched_rule_id).toBeNull()
  })

  it.each(table)('%s does not hold when not populated (absent or null)', (key, value, holds) => {
    const field = Object.keys(holds)[0] as keyof PolicyAction
    for (const action of [{}, { [field]: null }]) {
      const { check } = checkOf(key, { [key]: value }, action)
      expect(check).toEqual({ key, passed: false, detail: 'not populated' })
    }
  })

  it('writes the compared values into the detail', () => {
    expect(checkOf('amount.lte', { 'amount.lte': usd('100') }, { amount: usd('99.5') }).check.detail).toBe('99.5 USD <= 100 USD')
    expect(checkOf('confidence.gte', { 'confidence.gte': 0.8 }, { confidence: 0.5 }).check.detail).toBe('0.5 < 0.8')
    expect(checkOf('counterparty.in', { 'counterparty.in': 'vip' }, { counterparty_id: 'cpy_7' }).check.detail).toBe('"cpy_7" is not in list "vip"')
  })

  it('requires every key of a rule (AND) and records every check', () => {
    const content = policy({ rules: [rule('r', ['outbound_payment'], { 'amount.lte': usd('50'), 'counterparty.in': 'vip' }, 'confirm')], lists })
    const decision = evaluatePolicy(content, { kind: 'outbound_payment', amount: usd('10'), counterparty_id: 'cpy_8' })
    expect(decision.outcome).toBe('reject')
    expect(decision.trace[0]?.checks.map((check) => [check.key, check.passed])).toEqual([
      ['applies_to', true],
      ['amount.lte', true],
      ['counterparty.in', false],
    ])
  })

  it('fails checks on values of the wrong type with a detail instead of throwing', () => {
    const weird = [
      ['agent_role', 'collections', { agent_role: 42 }, 'agent_role is not a string'],
      ['confidence.gte', 0.5, { confidence: '0.9' }, 'confidence is not a finite number'],
      ['confidence.gte', 0.5, { confidence: Number.NaN }, 'confidence is not a finite number'],
      ['risk_level.lte', 'high', { risk_level: 'extreme' }, '"extreme" is not a risk level'],
      ['counterparty.in', 'vip', { counterparty_id: ['cpy_1'] }, 'counterparty_id is not a string'],
      ['tx_count_in_window.lte', 3, { tx_count_in_window: Number.POSITIVE_INFINITY }, 'tx_count_in_window is not a finite number'],
    ] as const
    for (const [key, value, action, detail] of weird) {
      const { check } = checkOf(key, { [key]: value }, action as unknown as Partial<PolicyAction>)
      expect(check).toEqual({ key, passed: false, detail })
    }
  })
})

describe('money conditions: exact, per currency', () => {
  const lte = (limit: { currency: string; value: string }, amount: unknown) => checkOf('amount.lte', { 'amount.lte': limit }, { amount: amount as PolicyAction['amount'] }).check

  it.each([
    ['JPY (0 digits)', { currency: 'JPY', value: '1000' }, '1000', '1001'],
    ['KWD (3 digits)', { currency: 'KWD', value: '1.25' }, '1.250', '1.251'],
    ['USDC (6 digits)', { currency: 'USDC', value: '0.000002' }, '0.000002', '0.000003'],
    ['ETH (18 digits)', { currency: 'ETH', value: '1' }, '0.999999999999999999', '1.000000000000000001'],
    ['an unknown token (digits as written)', { currency: 'ABC', value: '1.5' }, '1.50000', '1.500001'],
    ['USD, 10.5 versus 10.50', usd('10.5'), '10.50', '10.51'],
  ])('%s', (_label, limit, within, beyond) => {
    expect(lte(limit, { currency: limit.currency, value: within }).passed).toBe(true)
    expect(lte(limit, { currency: limit.currency, value: beyond }).passed).toBe(false)
  })

  it('treats 10.5 and 10.50 as the same amount on both sides of amount.gt', () => {
    expect(checkOf('amount.gt', { 'amount.gt': usd('10.5') }, { amount: usd('10.50') }).check.passed).toBe(false)
    expect(checkOf('amount.gt', { 'amount.gt': usd('10.50') }, { amount: usd('10.5') }).check.passed).toBe(false)
    expect(checkOf('amount.gt', { 'amount.gt': usd('10.50') }, { amount: usd('10.51') }).check.passed).toBe(true)
  })

  it('never matches across currencies, either way, and says so', () => {
    for (const key of ['amount.lte', 'amount.gt'] as const) {
      const { check } = checkOf(key, { [key]: usd('100') }, { amount: { currency: 'EUR', value: key === 'amount.lte' ? '1' : '1000' } })
      expect(check).toEqual({ key, passed: false, detail: 'currency mismatch: rule USD, action EUR' })
    }
    const spend = checkOf('spend_in_window.lte', { 'spend_in_window.lte': usd('100') }, { spend_in_window: { currency: 'USDC', value: '1' } }).check
    expect(spend.detail).toBe('currency mismatch: rule USD, action USDC')
  })

  it('a currency mismatch does not let a reject rule be skipped silently: the next rule and the trace show it', () => {
    const content = policy({ rules: [rule('big', ['outbound_payment'], { 'amount.gt': usd('1000') }, 'reject'), rule('rest', ['outbound_payment'], {}, 'confirm')] })
    const decision = evaluatePolicy(content, { kind: 'outbound_payment', amount: { currency: 'EUR', value: '5000' } })
    expect(decision.matched_rule_id).toBe('rest')
    expect(decision.trace[0]?.checks[1]?.detail).toBe('currency mismatch: rule USD, action EUR')
  })

  it.each([
    [{ currency: 'JPY', value: '1000.5' }, 'JPY', 'value "1000.5" has 1 fraction digits; JPY has 0'],
    [{ currency: 'USD', value: '-5' }, 'USD', 'value "-5" is not a non-negative decimal string'],
    [{ currency: 'USD', value: '1e3' }, 'USD', 'value "1e3" is not a non-negative decimal string'],
    [{ currency: 'USD', value: ' 5' }, 'USD', 'value " 5" is not a non-negative decimal string'],
    [{ currency: 'USD', value: 5 }, 'USD', 'value is not a string'],
    [{ currency: 'usd', value: '5' }, 'USD', 'currency "usd" is not a currency code'],
    [{ currency: 'USD', value: '1'.repeat(41) }, 'USD', 'value is longer than 40 characters'],
    ['5 USD', 'USD', 'not an amount object'],
  ])('a malformed action amount %j fails the check with a detail', (amount, currency, reason) => {
    expect(lte({ currency, value: '100000' }, amount)).toEqual({ key: 'amount.lte', passed: false, detail: `malformed amount: ${reason}` })
  })
})

describe('first match in document order', () => {
  const content = policy({
    rules: [
      rule('large', ['outbound_payment'], { 'amount.gt': usd('100') }, 'confirm', 'cfo'),
      rule('vendors', ['outbound_payment'], { 'counterparty.in': 'vip' }, 'reject'),
      rule('everything', ['any'], {}, 'confirm'),
    ],
    lists,
  })

  it('the first rule whose conditions hold decides, even when a later one would too', () => {
    const decision = evaluatePolicy(content, { kind: 'outbound_payment', amount: usd('150'), counterparty_id: 'cpy_1' })
    expect(decision).toMatchObject({ outcome: 'confirm', matched_rule_id: 'large', required_approvers: ['cfo'] })
    expect(decision.trace.map((entry) => [entry.rule_id, entry.matched])).toEqual([
      ['large', true],
      ['vendors', false],
      ['everything', false],
    ])
    expect(decision.trace[1]?.checks.at(-1)).toEqual({ key: 'first_match', passed: false, detail: 'conditions hold, but large decided first' })
  })

  it('falls through to later rules', () => {
    expect(evaluatePolicy(content, { kind: 'outbound_payment', amount: usd('50'), counterparty_id: 'cpy_1' })).toMatchObject({ outcome: 'reject', matched_rule_id: 'vendors', required_approvers: [] })
    expect(evaluatePolicy(content, { kind: 'outbound_payment', amount: usd('50'), counterparty_id: 'cpy_5' })).toMatchObject({ outcome: 'confirm', matched_rule_id: 'everything', required_approvers: ['signer'] })
  })

  it('lists every rule in the trace; a rule for other kinds has a single failed applies_to check', () => {
    const decision = evaluatePolicy(policy({ rules: [rule('payments', ['outbound_payment'], {}, 'confirm'), rule('writes', ['ledger_write'], {}, 'auto')] }), { kind: 'ledger_write' })
    expect(decision.trace[0]).toEqual({
      rule_id: 'payments',
      matched: false,
      checks: [{ key: 'applies_to', passed: false, detail: 'ledger_write not in [outbound_payment]' }],
    })
    expect(decision).toMatchObject({ outcome: 'allow', matched_rule_id: 'writes', required_approvers: [] })
  })
})

describe('deny by default', () => {
  it('rejects an unmatched action with matched_rule_id null and a [default_deny] entry', () => {
    const decision = evaluatePolicy(policy({ rules: [rule('writes', ['ledger_write'], {}, 'auto')] }), { kind: 'inbound_payment' })
    expect(decision).toMatchObject({ outcome: 'reject', matched_rule_id: null, required_approvers: [] })
    expect(decision.trace.at(-1)).toEqual({ rule_id: '[default_deny]', matched: true, checks: [{ key: 'rules', passed: false, detail: 'no rule matched inbound_payment; deny by default' }] })
  })

  it('rejects everything under a policy without rules', () => {
    for (const kind of ['outbound_payment', 'inbound_payment', 'ledger_write', 'onchain_tx'] as const) {
      expect(evaluatePolicy(policy({ rules: [] }), { kind }).outcome).toBe('reject')
    }
  })

  it.each(['teleport', 'any', undefined, 7])('rejects an action of kind %j, even under an `any` rule', (kind) => {
    const decision = evaluatePolicy(policy({ rules: [rule('all', ['any'], {}, 'auto')] }), { kind } as unknown as PolicyAction)
    expect(decision.outcome).toBe('reject')
    expect(decision.trace.at(-1)?.checks[0]?.detail).toBe('the action kind is not a known kind; deny by default')
  })
})

describe('the agent_action fallback (spec)', () => {
  const content = policy({ rules: [rule('writes', ['ledger_write'], {}, 'auto')] })

  it.each(fallbackAgentRoles)('an unmatched agent_action of role %s needs a signer', (role) => {
    const decision = evaluatePolicy(content, { kind: 'agent_action', agent_role: role, action_type: 'send_reminder' })
    expect(decision).toMatchObject({ outcome: 'confirm', matched_rule_id: null, required_approvers: ['signer'] })
    expect(decision.trace.at(-1)).toMatchObject({ rule_id: '[fallback]', matched: true })
  })

  it.each(highRiskAgentActionTypes)('an unmatched agent_action of high-risk type %s needs a signer', (type) => {
    expect(evaluatePolicy(content, { kind: 'agent_action', action_type: type })).toMatchObject({ outcome: 'confirm', matched_rule_id: null, required_approvers: ['signer'] })
  })

  it('other unmatched agent actions are rejected', () => {
    const decision = evaluatePolicy(content, { kind: 'agent_action', agent_role: 'bookkeeping', action_type: 'categorize' })
    expect(decision.outcome).toBe('reject')
    expect(decision.trace.slice(-2).map((entry) => [entry.rule_id, entry.matched])).toEqual([
      ['[fallback]', false],
      ['[default_deny]', true],
    ])
  })

  it('payment kinds never fall back, whatever the role or type', () => {
    for (const kind of ['outbound_payment', 'onchain_tx', 'inbound_payment'] as const) {
      const decision = evaluatePolicy(content, { kind, agent_role: 'collections', action_type: 'block_payment' })
      expect(decision.outcome).toBe('reject')
      expect(decision.trace.some((entry) => entry.rule_id === '[fallback]')).toBe(false)
    }
  })

  it('applies only when no rule matched: a matching reject rule wins', () => {
    const rejecting = policy({ rules: [rule('no_freeze', ['agent_action'], { action_type: 'freeze_card' }, 'reject')] })
    expect(evaluatePolicy(rejecting, { kind: 'agent_action', action_type: 'freeze_card', agent_role: 'fraud_anomaly' })).toMatchObject({ outcome: 'reject', matched_rule_id: 'no_freeze' })
  })
})

describe('autonomous caps: the policy allows, the gate\'s floor is lifted only by the matched rule\'s cap (spec)', () => {
  const autoPayments = (cap?: { currency: string; value: string }) =>
    policy({ rules: [{ ...rule('small', ['outbound_payment', 'onchain_tx', 'ledger_write'], {}, 'auto'), ...(cap === undefined ? {} : { autonomous_cap: cap }) }] })

  it('allows a matched auto on money without a cap, not covered, and says the gate\'s floor applies', () => {
    for (const kind of ['outbound_payment', 'onchain_tx'] as const) {
      const decision = evaluatePolicy(autoPayments(), { kind, amount: usd('1') })
      expect(decision).toMatchObject({ outcome: 'allow', matched_rule_id: 'small', required_approvers: [], covered_by_autonomous_cap: false })
      expect(decision.trace.at(-1)).toEqual({
        rule_id: '[autonomous_cap]',
        matched: false,
        checks: [{ key: 'autonomous_cap', passed: false, detail: "no cap on the matched rule: the gate's human-approval floor applies" }],
      })
    }
  })

  it('leaves auto on non-money kinds alone when the rule carries no cap', () => {
    const decision = evaluatePolicy(autoPayments(), { kind: 'ledger_write' })
    expect(decision).toMatchObject({ outcome: 'allow', matched_rule_id: 'small', required_approvers: [], covered_by_autonomous_cap: false })
    expect(decision.trace.some((entry) => entry.rule_id === '[autonomous_cap]')).toBe(false)
  })

  it('reports a rule\'s cap on a non-money kind too (the rule carries it)', () => {
    const decision = evaluatePolicy(autoPayments(usd('100')), { kind: 'ledger_write', amount: usd('12.00') })
    expect(decision).toMatchObject({ outcome: 'allow', covered_by_autonomous_cap: true })
    expect(decision.trace.at(-1)).toEqual({ rule_id: '[autonomous_cap]', matched: true, checks: [{ key: 'autonomous_cap', passed: true, detail: '12.00 USD ≤ cap 100 USD' }] })
  })

  const capped = autoPayments(usd('500'))
  const cappedInUsdc = autoPayments({ currency: 'USDC', value: '100' })

  it.each<[string, typeof capped, PolicyAction, boolean, string]>([
    ['within the cap', capped, { kind: 'outbound_payment', amount: usd('12.00') }, true, '12.00 USD ≤ cap 500 USD'],
    ['at the cap, written differently', capped, { kind: 'outbound_payment', amount: usd('500.00') }, true, '500.00 USD ≤ cap 500 USD'],
    ['above the cap by one minor unit', capped, { kind: 'outbound_payment', amount: usd('500.01') }, false, '500.01 USD > cap 500 USD'],
    ['in another currency', capped, { kind: 'outbound_payment', amount: { currency: 'EUR', value: '1' } }, false, 'currency mismatch: cap USD, action EUR'],
    ['without an amount', capped, { kind: 'outbound_payment' }, false, 'amount not populated: the cap covers only an amount in its currency'],
    ['with a malformed amount', capped, { kind: 'outbound_payment', amount: { currency: 'USD', value: '1.001' } }, false, 'malformed amount: value "1.001" has 3 fraction digits; USD has 2'],
    ['on-chain, within a USDC cap (6 digits)', cappedInUsdc, { kind: 'onchain_tx', amount: { currency: 'USDC', value: '99.999999' } }, true, '99.999999 USDC ≤ cap 100 USDC'],
    ['on-chain, above a USDC cap', cappedInUsdc, { kind: 'onchain_tx', amount: { currency: 'USDC', value: '100.000001' } }, false, '100.000001 USDC > cap 100 USDC'],
  ])('%s', (_label, content, action, covered, detail) => {
    const decision = evaluatePolicy(content, action)
    // Always allow: the cap decides only whether the gate's floor is lifted.
    expect(decision).toMatchObject({ outcome: 'allow', matched_rule_id: 'small', required_approvers: [], covered_by_autonomous_cap: covered })
    expect(decision.trace.at(-1)).toEqual({ rule_id: '[autonomous_cap]', matched: covered, checks: [{ key: 'autonomous_cap', passed: covered, detail }] })
  })

  it.each(alwaysHumanActionTypes)('no cap covers %s: the floor always applies to it (spec)', (type) => {
    const decision = evaluatePolicy(capped, { kind: 'outbound_payment', amount: usd('1'), action_type: type })
    expect(decision).toMatchObject({ outcome: 'allow', covered_by_autonomous_cap: false })
    expect(decision.trace.at(-1)?.checks).toEqual([
      { key: 'autonomous_cap', passed: false, detail: `the gate's human-approval floor always applies to ${type}: no autonomous cap lifts it` },
    ])
  })

  it('is not covered when the matched rule is not the capped one, even if a capped rule would have held later', () => {
    const content = policy({
      rules: [rule('first', ['outbound_payment'], {}, 'auto'), { ...rule('capped', ['outbound_payment'], {}, 'auto'), autonomous_cap: usd('500') }],
    })
    const decision = evaluatePolicy(content, { kind: 'outbound_payment', amount: usd('1') })
    expect(decision).toMatchObject({ outcome: 'allow', matched_rule_id: 'first', covered_by_autonomous_cap: false })
  })

  it('is false for every decision that is not a matched auto', () => {
    const content = policy({ rules: [rule('payments', ['outbound_payment'], { 'amount.lte': usd('10') }, 'confirm'), rule('writes', ['ledger_write'], {}, 'reject')] })
    for (const action of [{ kind: 'outbound_payment', amount: usd('1') }, { kind: 'ledger_write' }, { kind: 'onchain_tx' }, { kind: 'agent_action', agent_role: 'collections' }] as PolicyAction[]) {
      const decision = evaluatePolicy(content, action)
      expect(decision.covered_by_autonomous_cap).toBe(false)
      expect(decision.trace.some((entry) => entry.rule_id === '[autonomous_cap]')).toBe(false)
    }
  })

  it('a cap on unvalidated content that does not parse covers nothing and says why', () => {
    const unvalidated = { version: 1, rules: [{ ...rule('small', ['outbound_payment'], {}, 'auto'), autonomous_cap: { currency: 'USD', value: '-1' } }] } as unknown as PolicyContent
    const decision = evaluatePolicy(unvalidated, { kind: 'outbound_payment', amount: usd('1') })
    expect(decision).toMatchObject({ outcome: 'allow', covered_by_autonomous_cap: false })
    expect(decision.trace.at(-1)?.checks[0]?.detail).toBe('malformed cap amount: value "-1" is not a non-negative decimal string')
  })
})

describe('approvers of a decision', () => {
  const confirm = (require: string | undefined, approvals: number | undefined): Rule => ({
    ...rule('r', ['any'], {}, 'confirm', require),
    ...(approvals === undefined ? {} : { approvals }),
  })

  it.each<[string, Rule, string, string[]]>([
    ['confirm with require', rule('r', ['any'], {}, 'confirm', 'cfo'), 'confirm', ['cfo']],
    ['confirm without require', rule('r', ['any'], {}, 'confirm'), 'confirm', ['signer']],
    ['confirm with require "signer"', rule('r', ['any'], {}, 'confirm', 'signer'), 'confirm', ['signer']],
    ['confirm with require, approvals 1', confirm('finance', 1), 'confirm', ['finance']],
    ['confirm with require, approvals 2', confirm('finance', 2), 'confirm', ['finance', 'finance']],
    ['confirm without require, approvals 1', confirm(undefined, 1), 'confirm', ['signer']],
    ['confirm without require, approvals 2', confirm(undefined, 2), 'confirm', ['signer', 'signer']],
    ['confirm with require "signer", approvals 3', confirm('signer', 3), 'confirm', ['signer', 'signer', 'signer']],
    ['confirm with require, approvals 5 (the most)', confirm('cfo', 5), 'confirm', ['cfo', 'cfo', 'cfo', 'cfo', 'cfo']],
    ['reject', rule('r', ['any'], {}, 'reject'), 'reject', []],
    ['auto on a non-money kind', rule('r', ['any'], {}, 'auto'), 'allow', []],
  ])('%s', (_label, only, outcome, approvers) => {
    const decision = evaluatePolicy(policy({ rules: [only] }), { kind: 'ledger_write' })
    expect(decision).toMatchObject({ outcome, matched_rule_id: 'r', required_approvers: approvers })
    expect(decision.required_approvers).toHaveLength(approvers.length)
    expect(Object.isFrozen(decision.required_approvers)).toBe(true)
  })

  it('keeps the fallback at one signer and rejections at none, whatever the rules ask', () => {
    const content = policy({ rules: [{ ...rule('pay', ['outbound_payment'], {}, 'confirm', 'finance'), approvals: 2 }, rule('no', ['ledger_write'], {}, 'reject')] })
    expect(evaluatePolicy(content, { kind: 'outbound_payment' })).toMatchObject({ outcome: 'confirm', required_approvers: ['finance', 'finance'] })
    expect(evaluatePolicy(content, { kind: 'agent_action', agent_role: 'collections' })).toMatchObject({ outcome: 'confirm', matched_rule_id: null, required_approvers: ['signer'] })
    expect(evaluatePolicy(content, { kind: 'ledger_write' })).toMatchObject({ outcome: 'reject', required_approvers: [] })
    expect(evaluatePolicy(content, { kind: 'inbound_payment' })).toMatchObject({ outcome: 'reject', matched_rule_id: null, required_approvers: [] })
  })

  it('returns the same frozen list on every evaluation (built once per content)', () => {
    const content = policy({ rules: [{ ...rule('r', ['any'], {}, 'confirm', 'finance'), approvals: 2 }] })
    const first = evaluatePolicy(content, { kind: 'ledger_write' }).required_approvers
    expect(evaluatePolicy(content, { kind: 'onchain_tx' }).required_approvers).toBe(first)
  })

  it.each<[string, unknown]>([
    ['0', 0],
    ['6', 6],
    ['1.5', 1.5],
    ['"2"', '2'],
    ['null', null],
  ])('never matches a confirm rule whose approvals is malformed (%s, unvalidated content) instead of asking fewer approvers', (_label, approvals) => {
    const content = { version: 1, rules: [{ ...rule('r', ['any'], {}, 'confirm', 'finance'), approvals }] } as unknown as PolicyContent
    const decision = evaluatePolicy(content, { kind: 'ledger_write' })
    expect(decision).toMatchObject({ outcome: 'reject', matched_rule_id: null, required_approvers: [] })
    expect(decision.trace[0]?.checks.at(-1)).toEqual({ key: 'approvals', passed: false, detail: 'malformed rule: approvals is not an integer from 1 to 5' })
  })
})

describe('agent_actions: the signed per-agent allowlist', () => {
  const content = policy({
    rules: [rule('agents', ['agent_action', 'outbound_payment'], {}, 'confirm')],
    agent_actions: { agt_1: ['pay_invoice', 'flag_transaction'] },
  })

  it('lets a listed agent and type through to the rules, with a passed [agent_actions] entry first', () => {
    const decision = evaluatePolicy(content, { kind: 'agent_action', agent_id: 'agt_1', action_type: 'flag_transaction' })
    expect(decision).toMatchObject({ outcome: 'confirm', matched_rule_id: 'agents' })
    expect(decision.trace[0]).toEqual({
      rule_id: '[agent_actions]',
      matched: false,
      checks: [{ key: 'agent_actions', passed: true, detail: 'agent "agt_1" may resolve "flag_transaction"' }],
    })
  })

  it.each<[string, PolicyAction, string]>([
    ['an agent not listed', { kind: 'agent_action', agent_id: 'agt_2', action_type: 'pay_invoice' }, 'agent "agt_2" is not listed in agent_actions'],
    ['a type not listed for the agent', { kind: 'outbound_payment', agent_id: 'agt_1', action_type: 'wire' }, 'action type "wire" is not allowed for agent "agt_1"'],
    ['a missing action_type', { kind: 'agent_action', agent_id: 'agt_1' }, 'action_type not populated'],
    ['a prototype key as agent id', { kind: 'agent_action', agent_id: 'constructor', action_type: 'pay_invoice' }, 'agent "constructor" is not listed in agent_actions'],
  ])('rejects %s, before and regardless of the rules', (_label, action, detail) => {
    const decision = evaluatePolicy(content, action)
    expect(decision).toMatchObject({ outcome: 'reject', matched_rule_id: null, required_approvers: [] })
    expect(decision.trace[0]).toEqual({ rule_id: '[agent_actions]', matched: true, checks: [{ key: 'agent_actions', passed: false, detail }] })
    expect(decision.trace[1]?.checks.at(-1)?.detail).toBe('conditions hold, but [agent_actions] decided first')
  })

  it('a rejected high-risk agent action does not fall back to confirm', () => {
    expect(evaluatePolicy(content, { kind: 'agent_action', agent_id: 'agt_9', action_type: 'freeze_card', agent_role: 'collections' }).outcome).toBe('reject')
  })

  it('is not checked for actions without an agent, nor under a policy without agent_actions', () => {
    expect(evaluatePolicy(content, { kind: 'agent_action', action_type: 'wire' }).trace[0]?.rule_id).toBe('agents')
    const open = policy({ rules: [rule('agents', ['agent_action'], {}, 'confirm')] })
    expect(evaluatePolicy(open, { kind: 'agent_action', agent_id: 'agt_2', action_type: 'x' }).trace[0]?.rule_id).toBe('agents')
  })
})

describe('the default policy', () => {
  it.each<[string, PolicyAction, string, string, string[]]>([
    ['money on POST /evaluate (no confidence)', { kind: 'outbound_payment', amount: usd('10'), counterparty_id: 'cpy_1' }, 'confirm', 'money_needs_signer', ['signer']],
    ['on-chain money on POST /evaluate', { kind: 'onchain_tx', amount: { currency: 'USDC', value: '5' } }, 'confirm', 'money_needs_signer', ['signer']],
    ['money below the confidence floor', { kind: 'outbound_payment', amount: usd('10'), confidence: 0.59 }, 'reject', 'money_below_confidence_floor', []],
    ['on-chain money below the floor', { kind: 'onchain_tx', confidence: 0.1 }, 'reject', 'money_below_confidence_floor', []],
    ['money at the floor', { kind: 'outbound_payment', amount: usd('10'), confidence: 0.6 }, 'confirm', 'money_needs_signer', ['signer']],
    ['a large confident payment', { kind: 'outbound_payment', amount: usd('1000000'), confidence: 0.99 }, 'confirm', 'money_needs_signer', ['signer']],
    ['an inbound payment', { kind: 'inbound_payment', amount: usd('10') }, 'allow', 'non_money_auto', []],
    ['a ledger write', { kind: 'ledger_write' }, 'allow', 'non_money_auto', []],
    ['an agent action', { kind: 'agent_action', agent_role: 'collections', action_type: 'escalate' }, 'allow', 'non_money_auto', []],
  ])('%s', (_label, action, outcome, ruleId, approvers) => {
    expect(evaluatePolicy(defaultPolicyContent, action)).toMatchObject({ outcome, matched_rule_id: ruleId, required_approvers: approvers })
  })

  it('never allows money, so no cap ever covers it', () => {
    for (const kind of ['outbound_payment', 'onchain_tx'] as const) {
      for (const confidence of [undefined, 0, 0.6, 1]) {
        const decision = evaluatePolicy(defaultPolicyContent, { kind, amount: usd('1'), confidence })
        expect(decision.outcome).not.toBe('allow')
        expect(decision.covered_by_autonomous_cap).toBe(false)
      }
    }
  })
})

describe('purity', () => {
  it('does not change the content or the action, and answers the same twice', () => {
    const content = policy({ rules: [{ ...rule('r', ['outbound_payment'], { 'amount.lte': usd('5') }, 'auto'), autonomous_cap: usd('5') }] })
    const action: PolicyAction = { kind: 'outbound_payment', amount: usd('4') }
    const before = JSON.stringify([content, action])
    const first = evaluatePolicy(content, action)
    const second = evaluatePolicy(structuredClone(content), structuredClone(action))
    expect(second).toEqual(first)
    expect(JSON.stringify([content, action])).toBe(before)
    expect(JSON.parse(JSON.stringify(first))).toEqual(first)
  })
})
