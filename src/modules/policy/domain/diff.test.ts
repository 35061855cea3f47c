import { describe, expect, it } from 'vitest'
import { defaultPolicyContent } from './default.ts'
import { diffPolicies } from './diff.ts'
import { policy, rule, usd } from './test-helpers.testing.ts'

const a = rule('a', ['outbound_payment'], { 'amount.lte': usd('100') }, 'confirm')
const b = rule('b', ['ledger_write'], {}, 'auto')
const c = rule('c', ['any'], {}, 'reject')

describe('diffPolicies', () => {
  it('finds nothing between a document and itself', () => {
    expect(diffPolicies(defaultPolicyContent, structuredClone(defaultPolicyContent))).toEqual({ added: [], removed: [], modified: [] })
  })

  it('reports added and removed rules whole, in document order', () => {
    const d = rule('d', ['inbound_payment'], {}, 'auto')
    const diff = diffPolicies(policy({ rules: [a, b, c] }), policy({ rules: [d, a, c] }))
    expect(diff.added).toEqual([d])
    expect(diff.removed).toEqual([b])
    // Inserting d above a shifts a's index but not its order relative to c: no position change.
    expect(diff.modified).toEqual([])
  })

  it('reports a move that changes the relative order of rules (first match makes order matter)', () => {
    const diff = diffPolicies(policy({ rules: [a, b, c] }), policy({ rules: [c, a, b] }))
    expect(diff.modified).toEqual([{ rule_id: 'c', field: 'position', before: 2, after: 0 }])
  })

  it('reports each changed field of a kept rule', () => {
    const before = policy({ rules: [{ ...a, when: { 'amount.lte': usd('100'), agent_role: 'collections' } }] })
    const after = policy({
      rules: [{ id: 'a', applies_to: ['outbound_payment', 'onchain_tx'], when: { 'amount.lte': usd('250'), 'confidence.gte': 0.7 }, require: 'cfo', execute: 'reject' }],
    })
    expect(diffPolicies(before, after).modified).toEqual([
      { rule_id: 'a', field: 'applies_to', before: ['outbound_payment'], after: ['outbound_payment', 'onchain_tx'] },
      { rule_id: 'a', field: 'when.amount.lte', before: usd('100'), after: usd('250') },
      { rule_id: 'a', field: 'when.agent_role', before: 'collections', after: null },
      { rule_id: 'a', field: 'when.confidence.gte', before: null, after: 0.7 },
      { rule_id: 'a', field: 'require', before: null, after: 'cfo' },
      { rule_id: 'a', field: 'execute', before: 'confirm', after: 'reject' },
    ])
  })

  it('reports an autonomous_cap added, changed or removed as a field of its rule, after execute', () => {
    const auto = rule('p', ['outbound_payment'], { 'amount.lte': usd('100') }, 'auto')
    const capped = (value: string) => ({ ...auto, autonomous_cap: usd(value) })
    expect(diffPolicies(policy({ rules: [auto] }), policy({ rules: [capped('50')] })).modified).toEqual([{ rule_id: 'p', field: 'autonomous_cap', before: null, after: usd('50') }])
    expect(diffPolicies(policy({ rules: [capped('50')] }), policy({ rules: [capped('50.00')] })).modified).toEqual([{ rule_id: 'p', field: 'autonomous_cap', before: usd('50'), after: usd('50.00') }])
    expect(diffPolicies(policy({ rules: [capped('50')] }), policy({ rules: [auto] })).modified).toEqual([{ rule_id: 'p', field: 'autonomous_cap', before: usd('50'), after: null }])
    // Turning the rule to confirm drops its cap (a cap belongs to an auto rule only): two changes, in field order.
    expect(diffPolicies(policy({ rules: [capped('50')] }), policy({ rules: [{ ...auto, execute: 'confirm' }] })).modified).toEqual([
      { rule_id: 'p', field: 'execute', before: 'auto', after: 'confirm' },
      { rule_id: 'p', field: 'autonomous_cap', before: usd('50'), after: null },
    ])
    expect(diffPolicies(policy({ rules: [capped('50')] }), policy({ rules: [capped('50')] })).modified).toEqual([])
  })

  it.each<[string, number | undefined, number | undefined]>([
    ['added', undefined, 2],
    ['raised', 2, 3],
    ['lowered', 5, 1],
    ['removed', 2, undefined],
    ['written out as the default 1 (different signed bytes)', undefined, 1],
  ])('reports approvals %s as a field of its rule, between require and execute', (_label, before, after) => {
    const withApprovals = (approvals: number | undefined) => ({ ...a, require: 'finance', ...(approvals === undefined ? {} : { approvals }) })
    expect(diffPolicies(policy({ rules: [withApprovals(before)] }), policy({ rules: [withApprovals(after)] })).modified).toEqual([
      { rule_id: 'a', field: 'approvals', before: before ?? null, after: after ?? null },
    ])
  })

  it('orders an approvals change after require and before execute, and reports none for equal approvals', () => {
    const before = policy({ rules: [{ ...a, approvals: 2 }] })
    const after = policy({ rules: [{ ...a, require: 'cfo', execute: 'reject' }] })
    expect(diffPolicies(before, after).modified.map((change) => change.field)).toEqual(['require', 'approvals', 'execute'])
    expect(diffPolicies(before, policy({ rules: [{ ...a, approvals: 2 }] })).modified).toEqual([])
  })

  it('ignores reorderings inside sets', () => {
    const before = policy({ rules: [rule('r', ['ledger_write', 'inbound_payment'], { agent_id: 'agt_1' }, 'auto')], lists: { l: ['x', 'y'] } })
    const after = policy({ rules: [rule('r', ['inbound_payment', 'ledger_write'], { agent_id: ['agt_1'] }, 'auto')], lists: { l: ['y', 'x'] } })
    expect(diffPolicies(before, after).modified).toEqual([])
  })

  it('reports a rewritten amount even when it is the same value (the signed bytes differ)', () => {
    const diff = diffPolicies(policy({ rules: [a] }), policy({ rules: [{ ...a, when: { 'amount.lte': usd('100.00') } }] }))
    expect(diff.modified).toEqual([{ rule_id: 'a', field: 'when.amount.lte', before: usd('100'), after: usd('100.00') }])
  })

  it('reports document-level changes under bracketed ids, in a fixed order', () => {
    const before = policy({ version: 1, rules: [a], lists: { vip: ['x'], old: ['y'] }, agent_actions: { agt_1: ['pay_invoice'] } })
    const after = policy({
      version: 2,
      rules: [a],
      lists: { vip: ['x', 'z'], fresh: [] },
      agent_actions: { agt_1: ['pay_invoice', 'wire'], agt_2: [] },
      window_hours: 48,
    })
    expect(diffPolicies(before, after).modified).toEqual([
      { rule_id: '[version]', field: 'version', before: 1, after: 2 },
      { rule_id: '[window_hours]', field: 'window_hours', before: null, after: 48 },
      { rule_id: '[lists]', field: 'lists.fresh', before: null, after: [] },
      { rule_id: '[lists]', field: 'lists.old', before: ['y'], after: null },
      { rule_id: '[lists]', field: 'lists.vip', before: ['x'], after: ['x', 'z'] },
      { rule_id: '[agent_actions]', field: 'agent_actions.agt_1', before: ['pay_invoice'], after: ['pay_invoice', 'wire'] },
      { rule_id: '[agent_actions]', field: 'agent_actions.agt_2', before: null, after: [] },
    ])
  })

  it('reports turning the agent allowlist on as one change', () => {
    const diff = diffPolicies(policy({ rules: [] }), policy({ rules: [], agent_actions: { agt_1: ['wire'] } }))
    expect(diff.modified).toEqual([{ rule_id: '[agent_actions]', field: 'agent_actions', before: null, after: { agt_1: ['wire'] } }])
  })

  it('is JSON-safe', () => {
    const diff = diffPolicies(policy({ rules: [a, b] }), policy({ rules: [b, { ...a, require: 'cfo' }], window_hours: 12 }))
    expect(JSON.parse(JSON.stringify(diff))).toEqual(diff)
  })
})
