/**
 * Property-based tests: over generated valid policies and arbitrary actions (well-formed, half-formed and
 * junk), evaluation is total, deterministic and keeps its invariants.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { validatePolicyContent } from './content.ts'
import { diffPolicies } from './diff.ts'
import { evaluatePolicy } from './evaluate.ts'
import { lintPolicy } from './lint.ts'
import { actionKinds, moneyKinds, riskLevels, type PolicyAction, type PolicyContent } from './types.ts'

const currencies: ReadonlyArray<[string, number]> = [
  ['USD', 2],
  ['EUR', 2],
  ['JPY', 0],
  ['KWD', 3],
  ['USDC', 6],
  ['ETH', 18],
  ['ABC', 4],
]

const money = fc.tuple(fc.constantFrom(...currencies), fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.nat({ max: 18 })).map(([[currency, digits], units, shift]) => {
  const fractionDigits = Math.min(digits, shift)
  const text = units.toString().padStart(fractionDigits + 1, '0')
  return { currency, value: fractionDigits === 0 ? text : `${text.slice(0, -fractionDigits)}.${text.slice(-fractionDigits)}` }
})

const counterparties = ['cpy_1', 'cpy_2', 'cpy_3', 'cpy_4']
const agents = ['agt_1', 'agt_2', 'agt_3']
const roles = ['collections', 'fraud_anomaly', 'vendor_risk', 'bookkeeping']
const types = ['pay_invoice', 'wire', 'freeze_card', 'escalate', 'categorize', 'onchain_transfer']
const listNames = ['vip', 'blocked', 'empty']
const score = fc.double({ min: 0, max: 1, noNaN: true })
const oneOrMany = <Value>(values: readonly Value[]) => fc.oneof(fc.constantFrom(...values), fc.uniqueArray(fc.constantFrom(...values), { minLength: 1 }))

const conditions = fc.record(
  {
    'amount.lte': money,
    'amount.gt': money,
    'counterparty.in': fc.constantFrom(...listNames),
    'counterparty.not_in': fc.constantFrom(...listNames),
    agent_id: oneOrMany(agents),
    agent_role: oneOrMany(roles),
    tenant_category: oneOrMany(['smb', 'enterprise']),
    behavior_hash: oneOrMany(['0xaa', '0xbb']),
    action_id: oneOrMany(['act_1', 'act_2']),
    action_type: oneOrMany(types),
    risk_level: oneOrMany(riskLevels),
    'risk_level.lte': fc.constantFrom(...riskLevels),
    'confidence.gte': score,
    'confidence.lt': score,
    'evidence_score.gte': score,
    'evidence_score.lt': score,
    'spend_in_window.lte': money,
    'tx_count_in_window.lte': fc.nat({ max: 100 }),
  },
  { requiredKeys: [] },
)

const rules = fc.uniqueArray(
  fc.record(
    {
      id: fc.stringMatching(/^[a-z][a-z0-9_]{0,7}$/),
      applies_to: fc.uniqueArray(fc.constantFrom(...actionKinds, 'any' as const), { minLength: 1 }),
      when: conditions,
      require: fc.constantFrom('signer', 'cfo'),
      execute: fc.constantFrom('auto', 'confirm', 'reject'),
    },
    { requiredKeys: ['id', 'applies_to', 'when', 'execute'] },
  ),
  { selector: (rule) => rule.id, maxLength: 12 },
)

const policies: fc.Arbitrary<PolicyContent> = fc
  .record(
    {
      version: fc.nat({ max: 1000 }),
      rules,
      lists: fc.constant({ vip: ['cpy_1', 'cpy_2'], blocked: ['cpy_3'], empty: [] }),
      agent_actions: fc.dictionary(fc.constantFrom(...agents), fc.uniqueArray(fc.constantFrom(...types))),
      autonomous_caps: fc.array(
        fc.record({ applies_to: fc.uniqueArray(fc.constantFrom(...moneyKinds), { minLength: 1 }), 'amount.lte': money, agent_id: oneOrMany(agents) }, { requiredKeys: ['applies_to', 'amount.lte'] }),
        { maxLength: 3 },
      ),
      window_hours: fc.integer({ min: 1, max: 720 }),
    },
    { requiredKeys: ['version', 'rules', 'lists'] },
  )
  .map((content) => {
    const validation = validatePolicyContent(content)
    if (!validation.ok) throw new Error(`generated an invalid policy: ${JSON.stringify(validation.issues)}`)
    return validation.content
  })

/** Each field: absent, null, a plausible value, or junk of any type. */
const field = <Value>(plausible: fc.Arbitrary<Value>) => fc.oneof(fc.constant(undefined), fc.constant(null), plausible, plausible, fc.anything())

const actions: fc.Arbitrary<PolicyAction> = fc
  .record({
    kind: fc.oneof(fc.constantFrom(...actionKinds), fc.constantFrom(...actionKinds), fc.anything()),
    counterparty_id: field(fc.constantFrom(...counterparties)),
    amount: field(fc.oneof(money, fc.record({ currency: fc.constantFrom('USD', 'JPY'), value: fc.string() }))),
    agent_role: field(fc.constantFrom(...roles)),
    timestamp: field(fc.constant('2026-01-01T00:00:00Z')),
    agent_id: field(fc.constantFrom(...agents)),
    action_type: field(fc.constantFrom(...types)),
    tenant_category: field(fc.constantFrom('smb', 'enterprise')),
    confidence: field(score),
    evidence_score: field(score),
    risk_level: field(fc.constantFrom(...riskLevels)),
    spend_in_window: field(money),
    tx_count_in_window: field(fc.nat({ max: 200 })),
    behavior_hash: field(fc.constantFrom('0xaa', '0xbb')),
    action_id: field(fc.constantFrom('act_1', 'act_2')),
  })
  .map((action) => Object.fromEntries(Object.entries(action).filter(([, value]) => value !== undefined)) as unknown as PolicyAction)

const runs = { numRuns: 2_000 }

describe('evaluatePolicy properties', () => {
  it('is total and keeps its invariants', () => {
    fc.assert(
      fc.property(policies, actions, (content, action) => {
        const decision = evaluatePolicy(content, action)
        expect(['allow', 'confirm', 'reject']).toContain(decision.outcome)
        expect(decision.trace.length).toBeGreaterThanOrEqual(content.rules.length)
        const kind = (action as { kind: unknown }).kind

        if (decision.matched_rule_id !== null) {
          const matched = content.rules.find((rule) => rule.id === decision.matched_rule_id)
          expect(matched).toBeDefined()
          expect(matched?.applies_to.includes('any') || matched?.applies_to.includes(kind as never)).toBe(true)
          expect(decision.trace.filter((entry) => entry.matched && !entry.rule_id.startsWith('['))).toEqual([expect.objectContaining({ rule_id: decision.matched_rule_id })])
        } else if (decision.outcome !== 'reject') {
          // The only unmatched non-reject is the agent_action fallback.
          expect(kind).toBe('agent_action')
          expect(decision.outcome).toBe('confirm')
          expect(decision.trace.at(-1)).toMatchObject({ rule_id: '[fallback]', matched: true })
        }

        expect(decision.required_approvers.length > 0).toBe(decision.outcome === 'confirm')
        // The hard floor: money is allowed only with a covering autonomous cap.
        if (decision.outcome === 'allow' && (moneyKinds as readonly unknown[]).includes(kind)) {
          expect(decision.trace.at(-1)).toMatchObject({ rule_id: '[autonomous_cap]', matched: true })
        }
        // Every rule appears, in document order.
        const ruleEntries = decision.trace.filter((entry) => !entry.rule_id.startsWith('['))
        expect(ruleEntries.map((entry) => entry.rule_id)).toEqual(content.rules.map((rule) => rule.id))
        // The decision is JSON-safe: it travels over HTTP and into the audit log unchanged.
        expect(JSON.parse(JSON.stringify(decision))).toEqual(decision)
      }),
      runs,
    )
  })

  it('is deterministic, also on structured clones of its inputs', () => {
    fc.assert(
      fc.property(policies, actions, (content, action) => {
        const first = evaluatePolicy(content, action)
        expect(evaluatePolicy(content, action)).toEqual(first)
        expect(evaluatePolicy(structuredClone(content), structuredClone(action))).toEqual(first)
      }),
      runs,
    )
  })

  it('does not throw on junk content or actions', () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), (content, action) => {
        const decision = evaluatePolicy(content as PolicyContent, action as PolicyAction)
        expect(decision.outcome).toBe('reject')
      }),
      { numRuns: 500 },
    )
  })
})

describe('lint and diff over generated policies', () => {
  it('lint never throws and reports no errors on valid documents', () => {
    fc.assert(
      fc.property(policies, (content) => {
        expect(lintPolicy(content).filter((finding) => finding.severity === 'error')).toEqual([])
      }),
      { numRuns: 300 },
    )
  })

  it('lint never throws on anything', () => {
    fc.assert(
      fc.property(fc.anything(), (content) => {
        expect(Array.isArray(lintPolicy(content))).toBe(true)
      }),
      { numRuns: 300 },
    )
  })

  it('a document has no difference with itself, and added/removed are symmetric', () => {
    fc.assert(
      fc.property(policies, policies, (left, right) => {
        expect(diffPolicies(left, structuredClone(left))).toEqual({ added: [], removed: [], modified: [] })
        const forward = diffPolicies(left, right)
        const backward = diffPolicies(right, left)
        expect(forward.added).toEqual(backward.removed)
        expect(forward.removed).toEqual(backward.added)
        expect(forward.modified.length).toBe(backward.modified.length)
      }),
      { numRuns: 300 },
    )
  })
})
