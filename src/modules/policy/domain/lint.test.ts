import { describe, expect, it } from 'vitest'
import { defaultPolicyContent } from './default.ts'
import { lintFindingsMax, lintPolicy } from './lint.ts'
import { rule, usd } from './test-helpers.testing.ts'
import type { LintFinding } from './types.ts'

/** Both money kinds covered and confirmed, so the documents below produce only the findings under test. */
const moneyConfirm = rule('money', ['outbound_payment', 'onchain_tx'], {}, 'confirm')
const doc = (content: Record<string, unknown>) => ({ version: 1, ...content })

function codes(findings: readonly LintFinding[]): string[] {
  return findings.map((finding) => finding.code)
}

describe('lintPolicy', () => {
  it('finds nothing above a note in the default policy', () => {
    expect(lintPolicy(defaultPolicyContent)).toEqual([expect.objectContaining({ code: 'gate_only_key', severity: 'info', rule_id: 'money_below_confidence_floor' })])
  })

  it.each<[string, unknown, string, LintFinding['severity'], string | null]>([
    // Errors: what compose would refuse.
    ['schema_invalid', doc({ rules: 'none' }), 'schema_invalid', 'error', null],
    ['unknown_key', doc({ rules: [{ ...rule('r', ['any'], {}, 'reject'), when: { 'amount.lt': usd('1') } }] }), 'unknown_key', 'error', 'r'],
    ['duplicate_rule_id', doc({ rules: [moneyConfirm, moneyConfirm] }), 'duplicate_rule_id', 'error', 'money'],
    ['missing_list', doc({ rules: [rule('r', ['outbound_payment'], { 'counterparty.in': 'vip' }, 'reject'), moneyConfirm] }), 'missing_list', 'error', 'r'],
    ['invalid_money', doc({ rules: [rule('r', ['outbound_payment'], { 'amount.lte': { currency: 'JPY', value: '1.5' } }, 'reject'), moneyConfirm] }), 'invalid_money', 'error', 'r'],
    ['invalid_money (in a cap)', doc({ rules: [{ ...rule('r', ['outbound_payment'], { 'amount.lte': usd('10') }, 'auto'), autonomous_cap: usd('1.005') }, moneyConfirm] }), 'invalid_money', 'error', 'r'],
    ['cap_on_non_auto', doc({ rules: [{ ...moneyConfirm, autonomous_cap: usd('5') }] }), 'cap_on_non_auto', 'error', 'money'],
    ['approvals_on_non_confirm (auto)', doc({ rules: [{ ...rule('r', ['ledger_write'], {}, 'auto'), approvals: 2 }, moneyConfirm] }), 'approvals_on_non_confirm', 'error', 'r'],
    ['approvals_on_non_confirm (reject)', doc({ rules: [{ ...rule('r', ['ledger_write'], {}, 'reject'), approvals: 1 }, moneyConfirm] }), 'approvals_on_non_confirm', 'error', 'r'],
    ['schema_invalid (approvals 0)', doc({ rules: [{ ...moneyConfirm, approvals: 0 }] }), 'schema_invalid', 'error', 'money'],
    ['schema_invalid (approvals 6)', doc({ rules: [{ ...moneyConfirm, approvals: 6 }] }), 'schema_invalid', 'error', 'money'],
    ['schema_invalid (approvals 1.5)', doc({ rules: [{ ...moneyConfirm, approvals: 1.5 }] }), 'schema_invalid', 'error', 'money'],
    ['schema_invalid (approvals "2")', doc({ rules: [{ ...moneyConfirm, approvals: '2' }] }), 'schema_invalid', 'error', 'money'],
    [
      'limit_exceeded',
      doc({ rules: [moneyConfirm], lists: Object.fromEntries(Array.from({ length: 11 }, (_, list) => [`l${list}`, Array.from({ length: 10_000 }, (_, index) => `c${index}`)])) }),
      'limit_exceeded',
      'error',
      null,
    ],
    // Warnings.
    ['no_rules', doc({ rules: [] }), 'no_rules', 'warning', null],
    ['unreachable_rule', doc({ rules: [rule('all', ['any'], {}, 'confirm'), rule('late', ['ledger_write'], { 'confidence.gte': 0.9 }, 'auto')] }), 'unreachable_rule', 'warning', 'late'],
    [
      'shadowed_rule (weaker amount bound first)',
      doc({ rules: [moneyConfirm, rule('big', ['ledger_write'], { 'confidence.gte': 0.5 }, 'reject'), rule('bigger', ['ledger_write'], { 'confidence.gte': 0.7, agent_role: 'x' }, 'auto')] }),
      'shadowed_rule',
      'warning',
      'bigger',
    ],
    [
      'shadowed_rule (list contained in an earlier list)',
      doc({
        rules: [rule('wide', ['outbound_payment', 'onchain_tx'], { 'counterparty.in': 'all' }, 'reject'), rule('narrow', ['outbound_payment'], { 'counterparty.in': 'some' }, 'confirm'), moneyConfirm],
        lists: { all: ['a', 'b'], some: ['b'] },
      }),
      'shadowed_rule',
      'warning',
      'narrow',
    ],
    ['currency_mismatch', doc({ rules: [rule('r', ['outbound_payment'], { 'amount.gt': usd('1'), 'amount.lte': { currency: 'EUR', value: '5' } }, 'reject'), moneyConfirm] }), 'currency_mismatch', 'warning', 'r'],
    [
      'mixed_currencies',
      doc({ rules: [rule('usd', ['outbound_payment'], { 'amount.gt': usd('1') }, 'reject'), rule('eur', ['outbound_payment'], { 'amount.gt': { currency: 'EUR', value: '1' } }, 'reject'), moneyConfirm] }),
      'mixed_currencies',
      'warning',
      null,
    ],
    ['contradictory_range (amount)', doc({ rules: [rule('r', ['outbound_payment'], { 'amount.gt': usd('10'), 'amount.lte': usd('10.00') }, 'reject'), moneyConfirm] }), 'contradictory_range', 'warning', 'r'],
    ['contradictory_range (confidence)', doc({ rules: [rule('r', ['ledger_write'], { 'confidence.gte': 0.8, 'confidence.lt': 0.2 }, 'reject'), moneyConfirm] }), 'contradictory_range', 'warning', 'r'],
    ['money_auto_without_cap', doc({ rules: [rule('r', ['outbound_payment'], { 'amount.lte': usd('10') }, 'auto'), moneyConfirm] }), 'money_auto_without_cap', 'warning', 'r'],
    [
      'cap_currency_mismatch',
      doc({ rules: [{ ...rule('r', ['outbound_payment'], { 'amount.lte': usd('10') }, 'auto'), autonomous_cap: { currency: 'EUR', value: '5' } }, moneyConfirm] }),
      'cap_currency_mismatch',
      'warning',
      'r',
    ],
    [
      'money_auto_without_amount_bound',
      doc({ rules: [{ ...rule('r', ['any'], {}, 'auto'), autonomous_cap: usd('5') }] }),
      'money_auto_without_amount_bound',
      'warning',
      'r',
    ],
    ['require_on_non_confirm', doc({ rules: [rule('r', ['ledger_write'], {}, 'reject', 'cfo'), moneyConfirm] }), 'require_on_non_confirm', 'warning', 'r'],
    ['empty_list', doc({ rules: [rule('r', ['outbound_payment'], { 'counterparty.in': 'none' }, 'reject'), moneyConfirm], lists: { none: [] } }), 'empty_list', 'warning', null],
    ['unused_list', doc({ rules: [moneyConfirm], lists: { spare: ['a'] } }), 'unused_list', 'warning', null],
    ['agent_actions_empty', doc({ rules: [moneyConfirm], agent_actions: {} }), 'agent_actions_empty', 'warning', null],
    ['agent_without_actions', doc({ rules: [moneyConfirm], agent_actions: { agt_1: [] } }), 'agent_without_actions', 'warning', null],
    // Notes.
    ['partially_shadowed_rule', doc({ rules: [rule('pay', ['outbound_payment'], {}, 'confirm'), rule('both', ['outbound_payment', 'onchain_tx'], { 'amount.lte': usd('5') }, 'reject')] }), 'partially_shadowed_rule', 'info', 'both'],
    ['any_with_other_kinds', doc({ rules: [rule('r', ['any', 'ledger_write'], {}, 'confirm')] }), 'any_with_other_kinds', 'info', 'r'],
    ['duplicate_list_entry', doc({ rules: [rule('r', ['outbound_payment'], { 'counterparty.in': 'l' }, 'reject'), moneyConfirm], lists: { l: ['a', 'a'] } }), 'duplicate_list_entry', 'info', null],
    ['unknown_action_type', doc({ rules: [moneyConfirm], agent_actions: { agt_1: ['pay_invoice', 'teleport'] } }), 'unknown_action_type', 'info', null],
    ['gate_only_key', doc({ rules: [rule('r', ['outbound_payment'], { risk_level: 'low' }, 'reject'), moneyConfirm] }), 'gate_only_key', 'info', 'r'],
    ['no_rule_for_money_kind', doc({ rules: [rule('r', ['outbound_payment'], {}, 'confirm')] }), 'no_rule_for_money_kind', 'info', null],
    [
      'cap_above_amount_bound',
      doc({ rules: [{ ...rule('r', ['outbound_payment'], { 'amount.lte': usd('10') }, 'auto'), autonomous_cap: usd('10.01') }, moneyConfirm] }),
      'cap_above_amount_bound',
      'info',
      'r',
    ],
  ])('%s', (_label, content, code, severity, ruleId) => {
    const findings = lintPolicy(content)
    expect(findings).toContainEqual(expect.objectContaining({ code, severity, rule_id: ruleId }))
  })

  it('says what the gate does with an uncapped auto on money, once per rule', () => {
    const findings = lintPolicy(doc({ rules: [rule('r', ['outbound_payment', 'onchain_tx'], { 'amount.lte': usd('10') }, 'auto')] }))
    expect(findings).toEqual([
      {
        code: 'money_auto_without_cap',
        severity: 'warning',
        rule_id: 'r',
        message: "auto on outbound_payment, onchain_tx with no autonomous_cap: the gate's human-approval floor will hold these for approval (pending_approval)",
      },
    ])
  })

  it('finds nothing to say about a capped auto rule whose cap fits its bound, in its currency', () => {
    for (const cap of [usd('10'), usd('10.00'), usd('5')]) {
      const findings = lintPolicy(doc({ rules: [{ ...rule('r', ['outbound_payment', 'onchain_tx'], { 'amount.lte': usd('10') }, 'auto'), autonomous_cap: cap }] }))
      expect(findings).toEqual([])
    }
  })

  it('does not flag a cap without an amount bound to compare with, nor the cap lints on a misplaced cap', () => {
    const unbounded = lintPolicy(doc({ rules: [{ ...rule('r', ['outbound_payment', 'onchain_tx'], { 'amount.gt': usd('1') }, 'auto'), autonomous_cap: usd('5') }] }))
    expect(codes(unbounded)).toEqual(['money_auto_without_amount_bound'])
    const misplaced = lintPolicy(doc({ rules: [{ ...rule('r', ['outbound_payment', 'onchain_tx'], { 'amount.lte': usd('1') }, 'confirm'), autonomous_cap: { currency: 'EUR', value: '5' } }] }))
    expect(codes(misplaced)).toEqual(['cap_on_non_auto'])
  })

  it.each([1, 2, 5])('finds nothing to say about approvals %i on a confirm rule', (approvals) => {
    expect(lintPolicy(doc({ rules: [{ ...moneyConfirm, require: 'finance', approvals }] }))).toEqual([])
    expect(lintPolicy(doc({ rules: [{ ...moneyConfirm, approvals }] }))).toEqual([])
  })

  it('refuses approvals on a non-confirm rule with a message naming what the rule executes, and keeps linting it', () => {
    const findings = lintPolicy(doc({ rules: [{ ...rule('r', ['ledger_write'], {}, 'reject', 'cfo'), approvals: 2 }, moneyConfirm] }))
    expect(findings).toEqual([
      { code: 'approvals_on_non_confirm', severity: 'error', rule_id: 'r', message: '/rules/0/approvals: approvals is allowed only on a confirm rule; this rule executes reject' },
      expect.objectContaining({ code: 'require_on_non_confirm', severity: 'warning', rule_id: 'r' }),
    ])
  })

  it('suggests the nearest key for an unknown one', () => {
    const findings = lintPolicy(doc({ rules: [{ ...rule('r', ['any'], {}, 'reject'), when: { 'counterparty.notin': 'x' } }] }))
    expect(findings[0]?.message).toBe('/rules/0/when/counterparty.notin: unknown key "counterparty.notin"; did you mean "counterparty.not_in"?')
    const cap = lintPolicy(doc({ rules: [{ ...rule('r', ['ledger_write'], {}, 'auto'), autonomous_caps: usd('5') }] }))
    expect(cap[0]?.message).toBe('/rules/0/autonomous_caps: unknown key "autonomous_caps"; did you mean "autonomous_cap"?')
    const approval = lintPolicy(doc({ rules: [{ ...rule('r', ['any'], {}, 'confirm'), approval: 2 }] }))
    expect(approval[0]?.message).toBe('/rules/0/approval: unknown key "approval"; did you mean "approvals"?')
  })

  it('keeps linting a document with only semantic errors', () => {
    const findings = lintPolicy(doc({ rules: [rule('r', ['outbound_payment'], { 'counterparty.in': 'vip' }, 'reject', 'cfo'), moneyConfirm] }))
    expect(codes(findings)).toEqual(['missing_list', 'require_on_non_confirm'])
  })

  it('does not flag a rule that an earlier, stricter rule only partly covers', () => {
    const findings = lintPolicy(doc({ rules: [rule('strict', ['outbound_payment'], { 'amount.lte': usd('10') }, 'reject'), rule('loose', ['outbound_payment'], { 'amount.lte': usd('100') }, 'confirm'), moneyConfirm] }))
    expect(findings.filter((finding) => finding.rule_id === 'loose')).toEqual([])
  })

  it('orders errors, then warnings, then notes', () => {
    const findings = lintPolicy(doc({ rules: [rule('r', ['any', 'ledger_write'], { 'counterparty.in': 'x' }, 'reject', 'cfo')] }))
    const ranks = findings.map((finding) => ({ error: 0, warning: 1, info: 2 })[finding.severity])
    expect(ranks).toEqual([...ranks].sort())
    expect(findings[0]?.severity).toBe('error')
  })

  it('never throws and caps its output', () => {
    for (const junk of [undefined, null, 42, 'x', [], { rules: [null] }, { version: 1, rules: [{ id: 5 }] }]) expect(Array.isArray(lintPolicy(junk))).toBe(true)
    const many = doc({ rules: Array.from({ length: 500 }, (_, index) => rule(`r${index}`, ['any', 'ledger_write'], {}, 'reject', 'cfo')) })
    const findings = lintPolicy(many)
    expect(findings).toHaveLength(lintFindingsMax)
    expect(findings.at(-1)?.code).toBe('too_many_findings')
  })
})
