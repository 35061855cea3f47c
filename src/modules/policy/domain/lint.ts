/**
 * Policy lint: what a careful reviewer would say about a document before signing it. Never throws; a
 * document that does not validate gives its validation issues as `error` findings (compose would refuse
 * it), and one that matches the schema also gets the warnings and notes below.
 *
 * | code                            | severity | meaning |
 * |---------------------------------|----------|---------|
 * | schema_invalid                  | error    | the document does not match the policy content schema |
 * | unknown_key                     | error    | a key the language does not have (a condition key is refused, never ignored); suggests the nearest key |
 * | duplicate_rule_id               | error    | two rules share an id |
 * | missing_list                    | error    | counterparty.in / not_in names a list that `lists` does not define |
 * | invalid_money                   | error    | an amount with more fraction digits than its currency has, or otherwise not an amount |
 * | cap_on_non_auto                 | error    | autonomous_cap on a confirm or reject rule (a cap belongs to an auto rule only) |
 * | approvals_on_non_confirm        | error    | approvals on an auto or reject rule (the number of distinct approvers belongs to a confirm rule only) |
 * | limit_exceeded                  | error    | the lists hold more ids in all than the limit |
 * | no_rules                        | warning  | no rules: every action is rejected (deny by default) |
 * | unreachable_rule                | warning  | an earlier unconditional rule applies to every kind this rule applies to |
 * | shadowed_rule                   | warning  | for every kind, an earlier rule with identical or weaker conditions matches first |
 * | partially_shadowed_rule         | info     | the same, for some of the rule's kinds only |
 * | currency_mismatch               | warning  | money conditions of one rule in different currencies: the rule can never match |
 * | mixed_currencies                | warning  | rules on the same kind compare amounts in different currencies: an action matches only its own currency's rules |
 * | contradictory_range             | warning  | amount.gt ≥ amount.lte, or a score's gte ≥ lt: the rule can never match |
 * | money_auto_without_cap          | warning  | `auto` on a money kind with no autonomous_cap: the gate's human-approval floor will hold these for approval (pending_approval) |
 * | money_auto_without_amount_bound | warning  | `auto` on a money kind without amount.lte |
 * | cap_currency_mismatch           | warning  | the rule's autonomous_cap is in another currency than its amount conditions: it never covers an action the rule matches |
 * | require_on_non_confirm          | warning  | `require` on an auto or reject rule, where it has no effect |
 * | empty_list                      | warning  | a list without ids (counterparty.in on it never holds) |
 * | unused_list                     | warning  | a list no rule references |
 * | agent_actions_empty             | warning  | agent_actions is present but empty: every action naming an agent is rejected |
 * | agent_without_actions           | warning  | an agent listed with no action types: all its actions are rejected |
 * | any_with_other_kinds            | info     | applies_to lists `any` and other kinds; `any` already covers them |
 * | duplicate_list_entry            | info     | an id appears twice in one list |
 * | unknown_action_type             | info     | agent_actions allows a type outside the known vocabulary |
 * | gate_only_key                   | info     | the rule uses keys POST /evaluate never populates: it may decide differently there |
 * | no_rule_for_money_kind          | info     | no rule applies to a money kind: such actions are rejected (deny by default) |
 * | cap_above_amount_bound          | info     | the rule's autonomous_cap is above its amount.lte (same currency): the cap is never reached above that bound |
 * | too_many_findings               | info     | more than lintFindingsMax findings; the rest are counted, not listed |
 *
 * Codes are stable: clients may key on them. Findings come errors first, then warnings, then notes;
 * within a severity, validation order for errors, else document-level findings, then rule by rule.
 */
import { paymentActionTypes } from '../../../kernel/action-types.ts'
import { validatePolicyContent } from './content.ts'
import { moneyOrder, parseMoney, type ParsedMoney } from '../../../kernel/money.ts'
import {
  actionKinds,
  conditionKeys,
  gateOnlyConditionKeys,
  highRiskAgentActionTypes,
  moneyKinds,
  riskLevels,
  type ActionKind,
  type Conditions,
  type LintFinding,
  type LintSeverity,
  type Money,
  type PolicyContent,
  type Rule,
} from './types.ts'

/** A document can produce many findings; past this many the rest are summarized in one. */
export const lintFindingsMax = 1_000

/** Action types the spec names: PaymentIntent action types, the invoice shortcut, and the high-risk agent types. */
export const knownActionTypes: readonly string[] = [
  ...paymentActionTypes,
  'pay_invoice',
  ...highRiskAgentActionTypes,
]

const severityRank: Record<LintSeverity, number> = { error: 0, warning: 1, info: 2 }
const moneyKindSet: ReadonlySet<string> = new Set(moneyKinds)
const gateOnlySet: ReadonlySet<string> = new Set(gateOnlyConditionKeys)
const riskRank: ReadonlyMap<string, number> = new Map(riskLevels.map((level, index) => [level, index]))

/** The keys each object of the language accepts, for "did you mean" on unknown keys. */
const knownKeysByContext: Readonly<Record<string, readonly string[]>> = {
  when: conditionKeys,
  rule: ['id', 'applies_to', 'when', 'require', 'approvals', 'execute', 'autonomous_cap'],
  document: ['version', 'rules', 'lists', 'agent_actions', 'window_hours'],
  money: ['currency', 'value'],
}

function editDistance(left: string, right: string): number {
  const previous = Array.from({ length: right.length + 1 }, (_, index) => index)
  for (let row = 1; row <= left.length; row++) {
    let diagonal = previous[0] as number
    previous[0] = row
    for (let column = 1; column <= right.length; column++) {
      const above = previous[column] as number
      previous[column] = Math.min(above + 1, (previous[column - 1] as number) + 1, diagonal + (left[row - 1] === right[column - 1] ? 0 : 1))
      diagonal = above
    }
  }
  return previous[right.length] as number
}

function contextOfPath(path: string): string {
  if (/^\/rules\/\d+\/when\/[^/]+$/.test(path)) return 'when'
  if (/^\/rules\/\d+\/[^/]+$/.test(path)) return 'rule'
  if (/^\/[^/]+$/.test(path)) return 'document'
  return 'money'
}

/** "did you mean" for an unknown key: the nearest known key within two edits (or sharing the stem before the dot). */
function suggestion(path: string): string {
  const key = (path.split('/').at(-1) ?? '').replaceAll('~1', '/').replaceAll('~0', '~')
  if (key.length > 64) return ''
  const known = knownKeysByContext[contextOfPath(path)] ?? []
  let best: string | undefined
  let bestDistance = 3
  for (const candidate of known) {
    const distance = editDistance(key, candidate)
    if (distance < bestDistance) {
      best = candidate
      bestDistance = distance
    }
  }
  if (best === undefined) best = known.find((candidate) => candidate.split('.')[0] === key.split('.')[0] && key.includes('.'))
  return best === undefined ? '' : `; did you mean "${best}"?`
}

function ruleIdAt(content: unknown, path: string): string | null {
  const match = /^\/rules\/(\d+)(\/|$)/.exec(path)
  if (match === null || typeof content !== 'object' || content === null) return null
  const rules = (content as { rules?: unknown }).rules
  if (!Array.isArray(rules)) return null
  const rule: unknown = rules[Number(match[1])]
  const id = typeof rule === 'object' && rule !== null ? (rule as { id?: unknown }).id : undefined
  return typeof id === 'string' ? id : null
}

function expandKinds(appliesTo: Rule['applies_to']): ActionKind[] {
  return appliesTo.includes('any') ? [...actionKinds] : actionKinds.filter((kind) => appliesTo.includes(kind))
}

function valuesOf<Value>(value: Value | readonly Value[] | undefined): readonly Value[] {
  return value === undefined ? [] : Array.isArray(value) ? (value as readonly Value[]) : [value as Value]
}

function parsed(money: Money | undefined): ParsedMoney | undefined {
  if (money === undefined) return undefined
  const result = parseMoney(money)
  return result.ok ? result.money : undefined
}

function isSubset<Value>(small: readonly Value[], large: readonly Value[]): boolean {
  const set = new Set(large)
  return small.every((value) => set.has(value))
}

/** Implication between conditions, for shadowing: list contents are compared through a memo. */
class Implication {
  private readonly lists: Readonly<Record<string, readonly string[]>>
  private readonly listSets = new Map<string, ReadonlySet<string>>()
  private readonly subsetMemo = new Map<string, boolean>()

  constructor(content: PolicyContent) {
    this.lists = content.lists ?? {}
  }

  private listSet(name: string): ReadonlySet<string> {
    let set = this.listSets.get(name)
    if (set === undefined) {
      set = new Set(Object.hasOwn(this.lists, name) ? this.lists[name] : [])
      this.listSets.set(name, set)
    }
    return set
  }

  /** Every id of list `small` is in list `large`. */
  private listWithin(small: string, large: string): boolean {
    if (small === large) return true
    const memoKey = JSON.stringify([small, large])
    let result = this.subsetMemo.get(memoKey)
    if (result === undefined) {
      const largeSet = this.listSet(large)
      result = [...this.listSet(small)].every((id) => largeSet.has(id))
      this.subsetMemo.set(memoKey, result)
    }
    return result
  }

  private listsDisjoint(left: string, right: string): boolean {
    const rightSet = this.listSet(right)
    return [...this.listSet(left)].every((id) => !rightSet.has(id))
  }

  /** Whenever `stronger` holds, `weaker` holds too: every condition of `weaker` follows from one of `stronger`. */
  implies(stronger: Conditions, weaker: Conditions): boolean {
    for (const key of Object.keys(weaker) as (keyof Conditions)[]) {
      if (!this.keyImplied(key, stronger, weaker)) return false
    }
    return true
  }

  private keyImplied(key: keyof Conditions, stronger: Conditions, weaker: Conditions): boolean {
    switch (key) {
      case 'amount.lte':
      case 'spend_in_window.lte': {
        const order = moneyOrderOf(stronger[key], weaker[key])
        return order !== undefined && order <= 0
      }
      case 'amount.gt': {
        const order = moneyOrderOf(stronger[key], weaker[key])
        return order !== undefined && order >= 0
      }
      case 'counterparty.in':
        return stronger['counterparty.in'] !== undefined && this.listWithin(stronger['counterparty.in'], weaker['counterparty.in'] as string)
      case 'counterparty.not_in': {
        const excluded = weaker['counterparty.not_in'] as string
        if (stronger['counterparty.not_in'] !== undefined && this.listWithin(excluded, stronger['counterparty.not_in'])) return true
        return stronger['counterparty.in'] !== undefined && this.listsDisjoint(stronger['counterparty.in'], excluded)
      }
      case 'risk_level.lte': {
        const ceiling = riskRank.get(weaker['risk_level.lte'] as string) as number
        if (stronger['risk_level.lte'] !== undefined) return (riskRank.get(stronger['risk_level.lte']) as number) <= ceiling
        const levels = valuesOf(stronger.risk_level)
        return levels.length > 0 && levels.every((level) => (riskRank.get(level) as number) <= ceiling)
      }
      case 'confidence.gte':
      case 'evidence_score.gte':
        return stronger[key] !== undefined && (stronger[key] as number) >= (weaker[key] as number)
      case 'confidence.lt':
      case 'evidence_score.lt':
      case 'tx_count_in_window.lte':
        return stronger[key] !== undefined && (stronger[key] as number) <= (weaker[key] as number)
      default: {
        // Equality keys: the stronger rule accepts a subset of the weaker rule's values.
        const strongerValues = valuesOf(stronger[key] as string | readonly string[] | undefined)
        return strongerValues.length > 0 && isSubset(strongerValues, valuesOf(weaker[key] as string | readonly string[]))
      }
    }
  }
}

function moneyOrderOf(left: Money | undefined, right: Money | undefined): -1 | 0 | 1 | undefined {
  const leftMoney = parsed(left)
  const rightMoney = parsed(right)
  return leftMoney === undefined || rightMoney === undefined ? undefined : moneyOrder(leftMoney, rightMoney)
}

type Emit = (code: string, severity: LintSeverity, ruleId: string | null, message: string) => void

/** Whether earlier rules always match first, kind by kind (identical or weaker conditions). */
function lintShadowing(content: PolicyContent, index: number, implication: Implication, emit: Emit): void {
  const rule = content.rules[index] as Rule
  const kinds = expandKinds(rule.applies_to)
  const coveredBy = new Map<ActionKind, Rule>()
  for (const kind of kinds) {
    for (const earlier of content.rules.slice(0, index)) {
      if (!earlier.applies_to.includes(kind) && !earlier.applies_to.includes('any')) continue
      if (implication.implies(rule.when, earlier.when)) {
        coveredBy.set(kind, earlier)
        break
      }
    }
  }
  if (coveredBy.size === 0) return
  const earlierRules = [...new Set(coveredBy.values())]
  const names = earlierRules.map((earlier) => JSON.stringify(earlier.id)).join(', ')
  if (coveredBy.size < kinds.length) {
    const kindsText = [...coveredBy.keys()].join(', ')
    emit('partially_shadowed_rule', 'info', rule.id, `rule never decides ${kindsText}: ${names} (earlier, with identical or weaker conditions) always matches first`)
  } else if (earlierRules.every((earlier) => Object.keys(earlier.when).length === 0)) {
    emit('unreachable_rule', 'warning', rule.id, `rule can never match: the earlier unconditional rule ${names} applies to every kind it applies to`)
  } else {
    emit('shadowed_rule', 'warning', rule.id, `rule can never match: ${names} (earlier, with identical or weaker conditions) always matches first`)
  }
}

function lintRule(rule: Rule, emit: Emit): void {
  const when = rule.when
  const kinds = expandKinds(rule.applies_to)
  const moneyKindsOfRule = kinds.filter((kind) => moneyKindSet.has(kind))

  if (rule.applies_to.includes('any') && rule.applies_to.length > 1) {
    emit('any_with_other_kinds', 'info', rule.id, 'applies_to lists "any" and other kinds; "any" already covers every kind')
  }

  const currencies = new Set(
    (['amount.lte', 'amount.gt', 'spend_in_window.lte'] as const).flatMap((key) => (when[key] === undefined ? [] : [(when[key] as Money).currency])),
  )
  if (currencies.size > 1) {
    emit('currency_mismatch', 'warning', rule.id, `money conditions in different currencies (${[...currencies].join(', ')}): an action has one currency, so the rule can never match`)
  }

  const lowerBound = parsed(when['amount.gt'])
  const upperBound = parsed(when['amount.lte'])
  if (lowerBound !== undefined && upperBound !== undefined) {
    const order = moneyOrder(lowerBound, upperBound)
    if (order !== undefined && order >= 0) {
      emit('contradictory_range', 'warning', rule.id, `amount.gt ${when['amount.gt']?.value} is not below amount.lte ${when['amount.lte']?.value}: the rule can never match`)
    }
  }
  for (const score of ['confidence', 'evidence_score'] as const) {
    const atLeast = when[`${score}.gte`]
    const below = when[`${score}.lt`]
    if (atLeast !== undefined && below !== undefined && atLeast >= below) {
      emit('contradictory_range', 'warning', rule.id, `${score}.gte ${atLeast} is not below ${score}.lt ${below}: the rule can never match`)
    }
  }

  if (rule.execute === 'auto' && moneyKindsOfRule.length > 0) {
    if (rule.autonomous_cap === undefined) {
      emit(
        'money_auto_without_cap',
        'warning',
        rule.id,
        `auto on ${moneyKindsOfRule.join(', ')} with no autonomous_cap: the gate's human-approval floor will hold these for approval (pending_approval)`,
      )
    }
    if (when['amount.lte'] === undefined) {
      emit('money_auto_without_amount_bound', 'warning', rule.id, `auto on ${moneyKindsOfRule.join(', ')} without amount.lte: any amount matches (the autonomous_cap, if any, bounds only what executes without a human)`)
    }
  }

  // A cap on a non-auto rule is already a validation error (cap_on_non_auto); its amount says nothing more.
  const cap = rule.autonomous_cap
  if (rule.execute === 'auto' && cap !== undefined) {
    const amountCurrencies = new Set((['amount.lte', 'amount.gt'] as const).flatMap((key) => (when[key] === undefined ? [] : [(when[key] as Money).currency])))
    if (amountCurrencies.size > 0 && !amountCurrencies.has(cap.currency)) {
      emit(
        'cap_currency_mismatch',
        'warning',
        rule.id,
        `autonomous_cap is in ${cap.currency}, but the rule's amount conditions are in ${[...amountCurrencies].join(', ')}: every action it matches is in another currency, so the cap never covers one`,
      )
    }
    const capOrder = moneyOrderOf(cap, when['amount.lte'])
    if (capOrder !== undefined && capOrder > 0) {
      emit(
        'cap_above_amount_bound',
        'info',
        rule.id,
        `autonomous_cap ${cap.value} ${cap.currency} is above amount.lte ${when['amount.lte']?.value} ${cap.currency}: the rule never matches above its bound, so the cap can never be reached beyond it`,
      )
    }
  }

  if (rule.require !== undefined && rule.execute !== 'confirm') {
    emit('require_on_non_confirm', 'warning', rule.id, `require "${rule.require}" has no effect on a rule that executes ${rule.execute}`)
  }

  const gateOnly = conditionKeys.filter((key) => when[key] !== undefined && gateOnlySet.has(key))
  if (gateOnly.length > 0) {
    emit('gate_only_key', 'info', rule.id, `uses ${gateOnly.join(', ')}, which POST /evaluate never populates: there the rule does not match, and it may decide differently in the gate`)
  }
}

function lintDocument(content: PolicyContent, emit: Emit): void {
  if (content.rules.length === 0) emit('no_rules', 'warning', null, 'the policy has no rules: every action is rejected (deny by default)')

  for (const kind of moneyKinds) {
    if (!content.rules.some((rule) => rule.applies_to.includes(kind) || rule.applies_to.includes('any'))) {
      emit('no_rule_for_money_kind', 'info', null, `no rule applies to ${kind}: every ${kind} is rejected (deny by default)`)
    }
  }

  // Currencies per kind across rules: one finding per kind that mixes them.
  for (const kind of actionKinds) {
    const byCurrency = new Map<string, string[]>()
    for (const rule of content.rules) {
      if (!rule.applies_to.includes(kind) && !rule.applies_to.includes('any')) continue
      for (const key of ['amount.lte', 'amount.gt', 'spend_in_window.lte'] as const) {
        const money = rule.when[key]
        if (money === undefined) continue
        const ids = byCurrency.get(money.currency) ?? []
        if (!ids.includes(rule.id)) ids.push(rule.id)
        byCurrency.set(money.currency, ids)
      }
    }
    if (byCurrency.size > 1) {
      const parts = [...byCurrency.entries()].map(([currency, ids]) => `${currency} (${ids.map((id) => JSON.stringify(id)).join(', ')})`)
      emit('mixed_currencies', 'warning', null, `rules on ${kind} compare amounts in ${parts.join(' and ')}: an action matches only the amount conditions of its own currency`)
    }
  }

  const lists = content.lists ?? {}
  const referenced = new Set(content.rules.flatMap((rule) => [rule.when['counterparty.in'], rule.when['counterparty.not_in']]).filter((name) => name !== undefined))
  for (const [name, ids] of Object.entries(lists)) {
    if (ids.length === 0) emit('empty_list', 'warning', null, `list "${name}" is empty: counterparty.in on it never holds, counterparty.not_in always does`)
    if (!referenced.has(name)) emit('unused_list', 'warning', null, `list "${name}" is not referenced by any rule`)
    const seen = new Set<string>()
    const repeated = new Set<string>()
    for (const id of ids) (seen.has(id) ? repeated : seen).add(id)
    if (repeated.size > 0) emit('duplicate_list_entry', 'info', null, `list "${name}" repeats ${repeated.size} id(s), e.g. ${JSON.stringify([...repeated][0])}`)
  }

  if (content.agent_actions !== undefined) {
    const agents = Object.entries(content.agent_actions)
    if (agents.length === 0) emit('agent_actions_empty', 'warning', null, 'agent_actions is empty: every action that names an agent is rejected')
    const known = new Set(knownActionTypes)
    for (const [agent, types] of agents) {
      if (types.length === 0) emit('agent_without_actions', 'warning', null, `agent "${agent}" is listed with no action types: all its actions are rejected`)
      const unknown = types.filter((type) => !known.has(type))
      if (unknown.length > 0) emit('unknown_action_type', 'info', null, `agent "${agent}" is allowed ${unknown.map((type) => JSON.stringify(type)).join(', ')}, outside the known action types`)
    }
  }
}

/**
 * Lints a policy document (anything: it never throws). Validation issues are `error` findings; a document
 * that matches the schema also gets warnings and notes. See the table above for the codes.
 */
export function lintPolicy(content: unknown): LintFinding[] {
  const findings: LintFinding[] = []
  const emit: Emit = (code, severity, ruleId, message) => {
    findings.push({ code, severity, rule_id: ruleId, message })
  }
  const validation = validatePolicyContent(content)
  let structured: PolicyContent | undefined = validation.ok ? validation.content : undefined
  if (!validation.ok) {
    for (const issue of validation.issues) {
      const hint = issue.code === 'unknown_key' ? suggestion(issue.path) : ''
      emit(issue.code, 'error', ruleIdAt(content, issue.path), `${issue.path === '' ? '/' : issue.path}: ${issue.message}${hint}`)
    }
    // Semantic issues leave a well-formed document: its warnings are still worth reading.
    if (validation.issues.every((issue) => issue.code !== 'schema_invalid' && issue.code !== 'unknown_key')) structured = content as PolicyContent
  }
  if (structured !== undefined) {
    const policy = structured
    lintDocument(policy, emit)
    const implication = new Implication(policy)
    policy.rules.forEach((rule, index) => {
      lintRule(rule, emit)
      lintShadowing(policy, index, implication, emit)
    })
  }
  const ordered = findings
    .map((finding, index) => ({ finding, index }))
    .sort((left, right) => severityRank[left.finding.severity] - severityRank[right.finding.severity] || left.index - right.index)
    .map(({ finding }) => finding)
  if (ordered.length <= lintFindingsMax) return ordered
  const kept = ordered.slice(0, lintFindingsMax - 1)
  kept.push({ code: 'too_many_findings', severity: 'info', rule_id: null, message: `${ordered.length - kept.length} more findings are not shown` })
  return kept
}
