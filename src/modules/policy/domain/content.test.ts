import { describe, expect, it } from 'vitest'
import { approvalsMax, conditionValuesMax, listEntriesMax, listEntriesTotalMax, policyContentSchema, rulesMax, validatePolicyContent } from './content.ts'
import { defaultPolicyContent } from './default.ts'

const base = { version: 1, rules: [] as unknown[] }
const withRule = (rule: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  ...base,
  rules: [{ id: 'r', applies_to: ['any'], when: {}, execute: 'confirm', ...rule }],
  ...extra,
})

describe('validatePolicyContent: valid documents', () => {
  it.each([
    ['the default policy', defaultPolicyContent],
    ['no rules', base],
    ['a fractional version label', { ...base, version: 2.5 }],
    [
      'every section',
      {
        version: 3,
        rules: [
          {
            id: 'vendors.small:1',
            applies_to: ['outbound_payment'],
            when: { 'amount.lte': { currency: 'USD', value: '100.50' }, 'counterparty.in': 'vendors', agent_id: ['agt_1'], risk_level: 'low' },
            execute: 'auto',
            autonomous_cap: { currency: 'USD', value: '50' },
          },
          { id: 'rest', applies_to: ['any'], when: {}, require: 'cfo', execute: 'confirm' },
        ],
        lists: { vendors: ['cpy_1'] },
        agent_actions: { agt_1: ['pay_invoice'] },
        window_hours: 24,
      },
    ],
    ['USDC with 6 digits', withRule({ when: { 'amount.lte': { currency: 'USDC', value: '0.000001' } } })],
    ['KWD with 3 digits', withRule({ when: { 'amount.gt': { currency: 'KWD', value: '1.125' } } })],
    ['JPY without digits', withRule({ when: { 'spend_in_window.lte': { currency: 'JPY', value: '1000' } } })],
    ['an autonomous cap on an auto rule (USDC, 6 digits)', withRule({ execute: 'auto', autonomous_cap: { currency: 'USDC', value: '0.000001' } })],
    ['an autonomous cap in another currency than the rule (lint warns; valid)', withRule({ execute: 'auto', when: { 'amount.lte': { currency: 'USD', value: '5' } }, autonomous_cap: { currency: 'EUR', value: '5' } })],
    ['approvals 1 on a confirm rule', withRule({ approvals: 1 })],
    ['approvals 2 on a confirm rule with require', withRule({ require: 'finance', approvals: 2 })],
    [`approvals ${approvalsMax} (the most) on a confirm rule`, withRule({ approvals: approvalsMax })],
  ])('%s', (_label, content) => {
    const result = validatePolicyContent(content)
    expect(result).toMatchObject({ ok: true })
    if (result.ok) {
      expect(result.content).toEqual(content)
      expect(Object.isFrozen(result.content.rules)).toBe(true)
    }
  })
})

describe('validatePolicyContent: invalid documents', () => {
  it.each<[string, unknown, string, string]>([
    ['not an object', 'policy', '', 'schema_invalid'],
    ['no version', { rules: [] }, '', 'schema_invalid'],
    ['a string version', { ...base, version: '1' }, '/version', 'schema_invalid'],
    ['an unknown top-level key', { ...base, owner: 'x' }, '/owner', 'unknown_key'],
    ['an unknown condition key', withRule({ when: { 'amount.lt': { currency: 'USD', value: '1' } } }), '/rules/0/when/amount.lt', 'unknown_key'],
    ['an unknown rule key', withRule({ priority: 1 }), '/rules/0/priority', 'unknown_key'],
    ['an unknown money key', withRule({ when: { 'amount.lte': { currency: 'USD', value: '1', rate: 1 } } }), '/rules/0/when/amount.lte/rate', 'unknown_key'],
    ['the former document-level autonomous_caps', { ...base, autonomous_caps: [{ applies_to: ['outbound_payment'], 'amount.lte': { currency: 'USD', value: '1' } }] }, '/autonomous_caps', 'unknown_key'],
    ['an autonomous cap on a confirm rule', withRule({ execute: 'confirm', autonomous_cap: { currency: 'USD', value: '1' } }), '/rules/0/autonomous_cap', 'cap_on_non_auto'],
    ['an autonomous cap on a reject rule', withRule({ execute: 'reject', autonomous_cap: { currency: 'USD', value: '1' } }), '/rules/0/autonomous_cap', 'cap_on_non_auto'],
    ['approvals 0', withRule({ approvals: 0 }), '/rules/0/approvals', 'schema_invalid'],
    [`approvals ${approvalsMax + 1}`, withRule({ approvals: approvalsMax + 1 }), '/rules/0/approvals', 'schema_invalid'],
    ['fractional approvals', withRule({ approvals: 1.5 }), '/rules/0/approvals', 'schema_invalid'],
    ['approvals as a string', withRule({ approvals: '2' }), '/rules/0/approvals', 'schema_invalid'],
    ['approvals null', withRule({ approvals: null }), '/rules/0/approvals', 'schema_invalid'],
    ['approvals on an auto rule', withRule({ execute: 'auto', approvals: 2 }), '/rules/0/approvals', 'approvals_on_non_confirm'],
    ['approvals 1 on a reject rule', withRule({ execute: 'reject', approvals: 1 }), '/rules/0/approvals', 'approvals_on_non_confirm'],
    ['an autonomous cap as a bare value', withRule({ execute: 'auto', autonomous_cap: '50' }), '/rules/0/autonomous_cap', 'schema_invalid'],
    ['an autonomous cap with a number value', withRule({ execute: 'auto', autonomous_cap: { currency: 'USD', value: 50 } }), '/rules/0/autonomous_cap/value', 'schema_invalid'],
    ['an autonomous cap with an unknown key', withRule({ execute: 'auto', autonomous_cap: { currency: 'USD', value: '50', agent_id: 'agt_1' } }), '/rules/0/autonomous_cap/agent_id', 'unknown_key'],
    ['an unknown kind', withRule({ applies_to: ['refund'] }), '/rules/0/applies_to/0', 'schema_invalid'],
    ['empty applies_to', withRule({ applies_to: [] }), '/rules/0/applies_to', 'schema_invalid'],
    ['a repeated kind', withRule({ applies_to: ['ledger_write', 'ledger_write'] }), '/rules/0/applies_to', 'schema_invalid'],
    ['an unknown execute', withRule({ execute: 'allow' }), '/rules/0/execute', 'schema_invalid'],
    ['a rule id starting with a bracket', withRule({ id: '[lists]' }), '/rules/0/id', 'schema_invalid'],
    ['a money value as a number', withRule({ when: { 'amount.lte': { currency: 'USD', value: 1 } } }), '/rules/0/when/amount.lte/value', 'schema_invalid'],
    ['a negative money value', withRule({ when: { 'amount.lte': { currency: 'USD', value: '-1' } } }), '/rules/0/when/amount.lte/value', 'schema_invalid'],
    ['a lower-case currency', withRule({ when: { 'amount.lte': { currency: 'usd', value: '1' } } }), '/rules/0/when/amount.lte/currency', 'schema_invalid'],
    ['JPY with a fraction', withRule({ when: { 'amount.lte': { currency: 'JPY', value: '1.5' } } }), '/rules/0/when/amount.lte/value', 'invalid_money'],
    ['USD with 3 digits', withRule({ when: { 'amount.gt': { currency: 'USD', value: '1.001' } } }), '/rules/0/when/amount.gt/value', 'invalid_money'],
    ['KWD with 4 digits', withRule({ when: { 'spend_in_window.lte': { currency: 'KWD', value: '1.0000' } } }), '/rules/0/when/spend_in_window.lte/value', 'invalid_money'],
    ['USDC with 7 digits (in a cap)', withRule({ execute: 'auto', autonomous_cap: { currency: 'USDC', value: '0.0000001' } }), '/rules/0/autonomous_cap/value', 'invalid_money'],
    ['JPY with a fraction (in a cap)', withRule({ execute: 'auto', autonomous_cap: { currency: 'JPY', value: '0.5' } }), '/rules/0/autonomous_cap/value', 'invalid_money'],
    ['a confidence above 1', withRule({ when: { 'confidence.gte': 1.5 } }), '/rules/0/when/confidence.gte', 'schema_invalid'],
    ['a negative evidence score', withRule({ when: { 'evidence_score.lt': -0.1 } }), '/rules/0/when/evidence_score.lt', 'schema_invalid'],
    ['a fractional tx count', withRule({ when: { 'tx_count_in_window.lte': 1.5 } }), '/rules/0/when/tx_count_in_window.lte', 'schema_invalid'],
    ['an unknown risk level', withRule({ when: { 'risk_level.lte': 'extreme' } }), '/rules/0/when/risk_level.lte', 'schema_invalid'],
    ['an empty equality list', withRule({ when: { agent_id: [] } }), '/rules/0/when/agent_id', 'schema_invalid'],
    ['too many equality values', withRule({ when: { agent_id: Array.from({ length: conditionValuesMax + 1 }, (_, index) => `a${index}`) } }), '/rules/0/when/agent_id', 'schema_invalid'],
    ['a missing list', withRule({ when: { 'counterparty.in': 'vip' } }), '/rules/0/when/counterparty.in', 'missing_list'],
    ['a missing not_in list', withRule({ when: { 'counterparty.not_in': 'blocked' } }, { lists: { vip: [] } }), '/rules/0/when/counterparty.not_in', 'missing_list'],
    ['a prototype name as list', withRule({ when: { 'counterparty.in': 'constructor' } }), '/rules/0/when/counterparty.in', 'missing_list'],
    ['duplicate rule ids', { ...base, rules: [withRule({}).rules[0], withRule({}).rules[0]] }, '/rules/1/id', 'duplicate_rule_id'],
    ['too many rules', { ...base, rules: Array.from({ length: rulesMax + 1 }, (_, index) => ({ id: `r${index}`, applies_to: ['any'], when: {}, execute: 'reject' })) }, '/rules', 'schema_invalid'],
    ['a list too long', { ...base, lists: { big: Array.from({ length: listEntriesMax + 1 }, (_, index) => `c${index}`) } }, '/lists/big', 'schema_invalid'],
    [
      'too many ids across lists',
      { ...base, lists: Object.fromEntries(Array.from({ length: listEntriesTotalMax / listEntriesMax + 1 }, (_, list) => [`l${list}`, Array.from({ length: listEntriesMax }, (_, index) => `c${index}`)])) },
      '/lists',
      'limit_exceeded',
    ],
    ['a window of zero hours', { ...base, window_hours: 0 }, '/window_hours', 'schema_invalid'],
    ['an id too long', withRule({ when: { action_id: 'x'.repeat(129) } }), '/rules/0/when/action_id', 'schema_invalid'],
  ])('%s', (_label, content, path, code) => {
    const result = validatePolicyContent(content)
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.issues).toContainEqual(expect.objectContaining({ path, code }))
  })
})

describe('policyContentSchema', () => {
  it('is a strict, described JSON Schema', () => {
    const schema = JSON.parse(JSON.stringify(policyContentSchema)) as Record<string, any>
    expect(schema.additionalProperties).toBe(false)
    const rule = schema.properties.rules.items
    expect(rule.additionalProperties).toBe(false)
    expect(rule.properties.when.additionalProperties).toBe(false)
    expect(Object.keys(rule.properties.when.properties)).toHaveLength(18)
    expect(rule.properties.approvals).toMatchObject({ type: 'integer', minimum: 1, maximum: approvalsMax, description: expect.any(String) })
    expect(rule.required).not.toContain('approvals')
    for (const [key, condition] of Object.entries<Record<string, unknown>>(rule.properties.when.properties)) {
      expect(typeof condition.description, key).toBe('string')
    }
  })
})
