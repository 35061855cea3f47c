/**
 * Property-based tests: over generated valid policies and arbitrary actions (well-formed, half-formed and
 * junk), evaluation is total, deterministic and keeps its invariants.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { validatePolicyContent } from './content.ts'
import { diffPolicies } from './diff.ts'
import { alwaysHumanActionTypes, evaluatePolicy } from './evaluate.ts'
import { lintPolicy } from './lint.ts'
import { moneyOrder, parseMoney } from '../../../kernel/money.ts'
import { actionKinds, moneyKinds, riskLevels, type PolicyAction, type PolicyContent, type Rule } from './types.ts'

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
const types = ['pay_invoice', 'wire', 'freeze_card', 'escalate', 'categorize', 'onchain_transfer', 'escrow_release']
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
  fc
    .record(
      {
        id: fc.stringMatching(/^[a-z][a-z0-9_]{0,7}$/),
        applies_to: fc.uniqueArray(fc.constantFrom(...actionKinds, 'any' as const), { minLength: 1 }),
        when: conditions,
        require: fc.constantFrom('signer', 'cfo'),
        execute: fc.constantFrom('auto', 'confirm', 'reject'),
        autonomous_cap: money,
        approvals: fc.integer({ min: 1, max: 5 }),
      },
      { requiredKeys: ['id', 'applies_to', 'when', 'execute'] },
    )
    // A cap is valid only on an auto rule (cap_on_non_auto), approvals only on a confirm rule
    // (approvals_on_non_confirm): drop them elsewhere so the documents stay valid.
    .map(({ autonomous_cap: cap, approvals, ...rule }) => ({
      ...rule,
      ...(rule.execute === 'auto' && cap !== undefined ? { autonomous_cap: cap } : {}),
      ...(rule.execute === 'confirm' && approvals !== undefined ? { approvals } : {}),
    })),
  { selector: (rule) => rule.id, maxLength: 12 },
)

const policies: fc.Arbitrary<PolicyContent> = fc
  .record(
    {
      version: fc.nat({ max: 1000 }),
      rules,
      lists: fc.constant({ vip: ['cpy_1', 'cpy_2'], blocked: ['cpy_3'], empty: [] }),
      agent_actions: fc.dictionary(fc.constantFrom(...agents), fc.uniqueArray(fc.constantFrom(...types))),
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
        // A matched confirm rule asks its label once per approval; the fallback, one signer.
        const matchedRule: Rule | undefined = content.rules.find((rule) => rule.id === decision.matched_rule_id)
        if (decision.outcome === 'confirm') {
          const label = matchedRule === undefined ? 'signer' : (matchedRule.require ?? 'signer')
          expect(decision.required_approvers).toEqual(Array.from({ length: matchedRule?.approvals ?? 1 }, () => label))
        }
        // Covered implies an allow by a matched rule that carries a cap, with the action within it.
        if (decision.covered_by_autonomous_cap) {
          expect(decision.outcome).toBe('allow')
          expect(matchedRule?.autonomous_cap).toBeDefined()
        }
        // Exactly: covered iff the action's amount is in the cap's currency and at most the cap, and its
        // type is not one the floor always holds (an independent oracle on the cap).
        const cap = matchedRule?.execute === 'auto' ? matchedRule.autonomous_cap : undefined
        const amount = parseMoney((action as { amount?: unknown }).amount)
        const capAmount = cap === undefined ? undefined : parseMoney(cap)
        const order = amount.ok && capAmount?.ok === true ? moneyOrder(amount.money, capAmount.money) : undefined
        const alwaysHuman = (alwaysHumanActionTypes as readonly unknown[]).includes((action as { action_type?: unknown }).action_type)
        expect(decision.covered_by_autonomous_cap).toBe(decision.outcome === 'allow' && order !== undefined && order <= 0 && !alwaysHuman)
        // A matched auto on a money kind, or on a capped rule, reports the cap step last; matched = covered.
        const capStep = decision.trace.filter((entry) => entry.rule_id === '[autonomous_cap]')
        const expectsCapStep = matchedRule?.execute === 'auto' && ((moneyKinds as readonly unknown[]).includes(kind) || cap !== undefined)
        expect(capStep).toHaveLength(expectsCapStep ? 1 : 0)
        if (expectsCapStep) expect(decision.trace.at(-1)).toEqual(expect.objectContaining({ rule_id: '[autonomous_cap]', matched: decision.covered_by_autonomous_cap }))
        // The floor is the gate's: a matched auto is allow, whatever the kind.
        if (matchedRule?.execute === 'auto') expect(decision.outcome).toBe('allow')
        // Every rule appears, in document order.
        const ruleEntries = decision.trace.filter((entry) => !entry.rule_id.startsWith('['))
        expect(ruleEntries.map((entry) => entry.rule_id)).toEqual(content.rules.map((rule) => rule.id))
        // The decision is JSON-safe: it travels over HTTP and into the audit log unchanged.
        expect(JSON.parse(JSON.stringify(decision))).toEqual(decision)
      }),
      runs,
    )
  })

  it('covered_by_autonomous_cap: exactly the allowed actions within the matched rule\'s cap, in its currency', () => {
    // Few currencies and small amounts, so that covered and not covered, equal amounts and mismatches all
    // occur often; a capped auto rule for the money kinds behind a few generated rules.
    const closeMoney = fc.tuple(fc.constantFrom('USD', 'USDC'), fc.nat({ max: 2_000 }), fc.boolean()).map(([currency, units, scaled]) => ({
      currency,
      value: scaled ? `${Math.floor(units / 100)}.${String(units % 100).padStart(2, '0')}` : String(units),
    }))
    const cappedPolicies = fc.tuple(rules, closeMoney).map(([generated, cap]) => {
      const capped: Rule = { id: 'capped_auto', applies_to: [...moneyKinds], when: {}, execute: 'auto', autonomous_cap: cap }
      const validation = validatePolicyContent({ version: 1, rules: [...generated.slice(0, 2).filter((rule) => rule.id !== capped.id), capped], lists: { vip: [], blocked: [], empty: [] } })
      if (!validation.ok) throw new Error(`generated an invalid policy: ${JSON.stringify(validation.issues)}`)
      return validation.content
    })
    const moneyActions = fc.record({
      kind: fc.constantFrom(...moneyKinds),
      amount: fc.oneof(closeMoney, closeMoney, closeMoney, fc.constant(undefined)),
      action_type: fc.oneof(fc.constant(undefined), fc.constantFrom('ach_outbound', 'x402_settle', ...alwaysHumanActionTypes)),
    }).map((action) => Object.fromEntries(Object.entries(action).filter(([, value]) => value !== undefined)) as unknown as PolicyAction)
    const seen = { covered: 0, aboveCap: 0, currencyMismatch: 0, alwaysHuman: 0 }
    fc.assert(
      fc.property(cappedPolicies, moneyActions, (content, action) => {
        const decision = evaluatePolicy(content, action)
        if (decision.matched_rule_id !== 'capped_auto') return
        const cap = parseMoney(content.rules.at(-1)?.autonomous_cap)
        const amount = parseMoney(action.amount)
        const order = cap.ok && amount.ok ? moneyOrder(amount.money, cap.money) : undefined
        const alwaysHuman = (alwaysHumanActionTypes as readonly unknown[]).includes(action.action_type)
        const covered = order !== undefined && order <= 0 && !alwaysHuman
        expect(decision).toMatchObject({ outcome: 'allow', required_approvers: [], covered_by_autonomous_cap: covered })
        expect(decision.trace.at(-1)).toMatchObject({ rule_id: '[autonomous_cap]', matched: covered, checks: [{ key: 'autonomous_cap', passed: covered }] })
        if (covered) seen.covered++
        if (alwaysHuman) seen.alwaysHuman++
        else if (order === 1) seen.aboveCap++
        else if (amount.ok && order === undefined) seen.currencyMismatch++
      }),
      runs,
    )
    // The property saw every case it distinguishes (a generator that never produced one would prove nothing).
    for (const [label, count] of Object.entries(seen)) expect(count, label).toBeGreaterThan(50)
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
