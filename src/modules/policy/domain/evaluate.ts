/**
 * Policy evaluation: pure, deterministic and total. The same content and action always give the same
 * decision; no input that passed validation makes it throw, and odd action values (a number where a
 * string belongs, a malformed amount) make the checks that read them fail with a detail instead.
 *
 * The steps, each visible in the trace:
 * 1. `[agent_actions]` — when the policy has a per-agent allowlist and the action names an agent, the
 *    agent must be listed with the action's type; otherwise the action is rejected.
 * 2. The rules, FIRST MATCH IN DOCUMENT ORDER. A rule applies when its applies_to holds the action kind
 *    or `any`; it matches when every condition holds. The trace lists every rule with its checks, also
 *    after the match, so a reviewer sees what else would have matched (`first_match` check).
 * 3. `[autonomous_cap]` — a matched `auto` rule is `allow`, whatever the kind: the policy decides, and
 *    the hard human-approval floor is the gate's (spec, PaymentIntent states: "policy decision allow |
 *    hard floor applies | pending_approval"). This step only reports whether the matched rule's signed
 *    `autonomous_cap` covers the action (`covered_by_autonomous_cap`), the one thing that lifts the
 *    floor. It appears for a matched `auto` on a money kind, or on a rule that carries a cap.
 * 4. `[fallback]` / `[default_deny]` — no rule matched: reject (deny by default), except the spec's
 *    agent_action fallback to `confirm` by a signer for the listed roles and high-risk types.
 *
 * A pseudo-rule's `matched` is true when that step decided the outcome, or for `[autonomous_cap]`, when
 * the cap covers the action.
 *
 * Speed: derived data (rule amounts as bigint, list Sets, constant trace entries) is computed once per
 * content object and kept in a WeakMap. That cache is invisible: content is immutable (readonly types;
 * validatePolicyContent returns a frozen copy), and the cached data is a function of the content only.
 */
import { moneyOrder, parseMoney, quoteForMessage, type ParsedMoney } from '../../../kernel/money.ts'
import { approvalsMax } from './content.ts'
import {
  actionKinds,
  fallbackAgentRoles,
  highRiskAgentActionTypes,
  moneyKinds,
  riskLevels,
  type ActionKind,
  type ConditionKey,
  type Money,
  type PolicyAction,
  type PolicyContent,
  type PolicyDecision,
  type Rule,
  type TraceCheck,
  type TraceEntry,
} from './types.ts'

/**
 * Action types for which no autonomous cap lifts the floor (spec, "The hard human-approval floor: always
 * applies to onchain_transfer and escrow_release"): they are never `covered_by_autonomous_cap`. The fiat
 * floor on `wire` is a deployment switch the gate applies; the policy cannot know it.
 */
export const alwaysHumanActionTypes = ['onchain_transfer', 'escrow_release'] as const

/** The approver of the fallback and of a `confirm` rule without `require`. */
export const defaultApprover = 'signer'

const noApprovers: readonly string[] = Object.freeze([])
const signerApprovers: readonly string[] = Object.freeze([defaultApprover])

/** A label once per approval (a `confirm` rule's `approvals`), frozen: built once per rule, at compile time. */
function repeatedApprovers(label: string, approvals: number): readonly string[] {
  if (approvals === 1 && label === defaultApprover) return signerApprovers
  return Object.freeze(Array.from({ length: approvals }, () => label))
}

/** Expected values quoted in a detail are cut to this many characters. */
const expectedTextCharsMax = 200

// --- The action, read defensively -------------------------------------------------------------------

const kindIndexes: ReadonlyMap<string, number> = new Map(actionKinds.map((kind, index) => [kind, index]))
const moneyKindSet: ReadonlySet<string> = new Set(moneyKinds)
const riskOrder: ReadonlyMap<string, number> = new Map(riskLevels.map((level, index) => [level, index]))

const notPopulated = Symbol('not populated')
type MoneyState = typeof notPopulated | { readonly ok: false; readonly reason: string } | { readonly ok: true; readonly money: ParsedMoney }

function readMoney(value: unknown): MoneyState {
  if (value === undefined || value === null) return notPopulated
  return parseMoney(value)
}

/** The evaluated action, with each field read once and money parsed at most once per evaluation. */
class ActionView {
  readonly fields: Readonly<Record<string, unknown>>
  readonly kind: ActionKind | undefined
  readonly kindIndex: number
  private amountState: MoneyState | undefined
  private spendState: MoneyState | undefined
  private amountTextCache: string | undefined
  private spendTextCache: string | undefined
  private quotedCache: Map<string, string> | undefined

  constructor(action: unknown) {
    this.fields = typeof action === 'object' && action !== null ? (action as Record<string, unknown>) : {}
    const kind = this.fields.kind
    const index = typeof kind === 'string' ? kindIndexes.get(kind) : undefined
    this.kindIndex = index ?? -1
    this.kind = index === undefined ? undefined : (kind as ActionKind)
  }

  amount(): MoneyState {
    this.amountState ??= readMoney(this.fields.amount)
    return this.amountState
  }

  spendInWindow(): MoneyState {
    this.spendState ??= readMoney(this.fields.spend_in_window)
    return this.spendState
  }

  /** "12.50 USD": the amount as written, for details; only called once the amount parsed. */
  amountText(): string {
    this.amountTextCache ??= `${(this.fields.amount as Money).value} ${(this.fields.amount as Money).currency}`
    return this.amountTextCache
  }

  spendText(): string {
    this.spendTextCache ??= `${(this.fields.spend_in_window as Money).value} ${(this.fields.spend_in_window as Money).currency}`
    return this.spendTextCache
  }

  /** A string field quoted for details, once per evaluation (many rules name the same field). */
  quoted(field: string, value: string): string {
    this.quotedCache ??= new Map()
    let quoted = this.quotedCache.get(field)
    if (quoted === undefined) {
      quoted = quoteForMessage(value)
      this.quotedCache.set(field, quoted)
    }
    return quoted
  }
}

// --- Compiled policy ---------------------------------------------------------------------------------

type CheckRunner = (view: ActionView) => TraceCheck

interface CompiledRule {
  readonly id: string
  readonly execute: Rule['execute'] | undefined
  readonly approvers: readonly string[]
  /** Per kind index: the constant `applies_to` check, passed or failed. */
  readonly appliesChecks: readonly TraceCheck[]
  /** Per kind index: the whole constant entry of a rule that does not apply to that kind. */
  readonly notApplyingEntries: readonly TraceEntry[]
  readonly appliesMask: number
  readonly checks: readonly CheckRunner[]
  /** The rule's autonomous_cap; undefined when it has none. */
  readonly cap: CompiledCap | undefined
}

/** An autonomous cap read once: the amount, or why it does not parse (unvalidated content only). */
type CompiledCap = { readonly ok: true; readonly amount: ParsedMoney; readonly text: string } | { readonly ok: false; readonly problem: string }

interface CompiledPolicy {
  readonly rules: readonly CompiledRule[]
  /** Agent id → allowed action types; undefined when the policy has no agent_actions. */
  readonly agentActions: ReadonlyMap<string, ReadonlySet<string>> | undefined
}

const compiledPolicies = new WeakMap<object, CompiledPolicy>()

function check(key: string, passed: boolean, detail: string): TraceCheck {
  return { key, passed, detail }
}

function frozenCheck(key: string, passed: boolean, detail: string): TraceCheck {
  return Object.freeze({ key, passed, detail })
}

const notPopulatedChecks = new Map<string, TraceCheck>()
/** The shared constant check of a key the caller did not populate. */
function notPopulatedCheck(key: string): TraceCheck {
  let entry = notPopulatedChecks.get(key)
  if (entry === undefined) {
    entry = frozenCheck(key, false, 'not populated')
    notPopulatedChecks.set(key, entry)
  }
  return entry
}

function cut(text: string): string {
  return text.length > expectedTextCharsMax ? `${text.slice(0, expectedTextCharsMax)}…` : text
}

function ownRecord(value: unknown): Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}

function kindMaskOf(kinds: unknown): number {
  if (!Array.isArray(kinds)) return 0
  let mask = 0
  for (const kind of kinds) {
    if (kind === 'any') mask |= (1 << actionKinds.length) - 1
    else if (typeof kind === 'string') {
      const index = kindIndexes.get(kind)
      if (index !== undefined) mask |= 1 << index
    }
  }
  return mask
}

function moneyText(money: ParsedMoney, written: string): string {
  return `${written} ${money.currency}`
}

/** A money condition (`amount.lte`, `amount.gt`, `spend_in_window.lte`). */
function moneyCheck(key: ConditionKey, ruleValue: unknown, read: (view: ActionView) => MoneyState, holds: (order: -1 | 0 | 1) => boolean, operator: [string, string]): CheckRunner {
  const parsed = parseMoney(ruleValue)
  if (!parsed.ok) {
    const failed = frozenCheck(key, false, `malformed rule amount: ${parsed.reason}`)
    return () => failed
  }
  const ruleMoney = parsed.money
  const ruleText = moneyText(ruleMoney, (ruleValue as Money).value)
  const [passOperator, failOperator] = operator
  return (view) => {
    const state = read(view)
    if (state === notPopulated) return notPopulatedCheck(key)
    if (!state.ok) return check(key, false, `malformed amount: ${state.reason}`)
    const order = moneyOrder(state.money, ruleMoney)
    if (order === undefined) return check(key, false, `currency mismatch: rule ${ruleMoney.currency}, action ${state.money.currency}`)
    const passed = holds(order)
    const actionText = key === 'spend_in_window.lte' ? view.spendText() : view.amountText()
    return check(key, passed, `${actionText} ${passed ? passOperator : failOperator} ${ruleText}`)
  }
}

/** A string field of the action, or why it cannot be compared. */
function stringField(view: ActionView, field: string): string | typeof notPopulated | { readonly malformed: string } {
  const value = view.fields[field]
  if (value === undefined || value === null) return notPopulated
  if (typeof value !== 'string') return { malformed: `${field} is not a string` }
  return value
}

/** An equality condition: the action field equals the value or one of the values. */
function equalityCheck(key: ConditionKey, field: string, expected: unknown): CheckRunner {
  const values = (Array.isArray(expected) ? expected : [expected]).filter((value): value is string => typeof value === 'string')
  const valueSet = new Set(values)
  const expectedText = cut(values.length === 1 ? JSON.stringify(values[0]) : `one of ${values.map((value) => JSON.stringify(value)).join(', ')}`)
  return (view) => {
    const value = stringField(view, field)
    if (value === notPopulated) return notPopulatedCheck(key)
    if (typeof value !== 'string') return check(key, false, value.malformed)
    const quoted = view.quoted(field, value)
    return valueSet.has(value) ? check(key, true, `${quoted} matches`) : check(key, false, `${quoted} is not ${expectedText}`)
  }
}

/**
 * The counterparty lists of one policy as Sets, each built once, on first use: many rules name the same
 * list, and a list can hold 10,000 ids.
 */
class ListTable {
  private readonly sets = new Map<string, ReadonlySet<string> | undefined>()

  constructor(private readonly lists: Readonly<Record<string, unknown>>) {}

  /** The list's ids, or undefined when there is no such list. */
  members(name: string): ReadonlySet<string> | undefined {
    if (this.sets.has(name)) return this.sets.get(name)
    const entries = Object.hasOwn(this.lists, name) ? this.lists[name] : undefined
    const members = Array.isArray(entries) ? new Set(entries.filter((entry): entry is string => typeof entry === 'string')) : undefined
    this.sets.set(name, members)
    return members
  }

  has(name: string): boolean {
    return Object.hasOwn(this.lists, name) && Array.isArray(this.lists[name])
  }
}

/** counterparty.in / counterparty.not_in against a named list. */
function listCheck(key: ConditionKey, listName: unknown, lists: ListTable, inside: boolean): CheckRunner {
  const name = typeof listName === 'string' ? listName : ''
  if (!lists.has(name)) {
    const failed = frozenCheck(key, false, `list ${quoteForMessage(name)} does not exist`)
    return () => failed
  }
  const listText = `list ${quoteForMessage(name)}`
  return (view) => {
    const value = stringField(view, 'counterparty_id')
    if (value === notPopulated) return notPopulatedCheck(key)
    if (typeof value !== 'string') return check(key, false, value.malformed)
    const member = (lists.members(name) as ReadonlySet<string>).has(value)
    return check(key, member === inside, `${view.quoted('counterparty_id', value)} ${member ? 'is in' : 'is not in'} ${listText}`)
  }
}

/** A numeric condition on a score or a count. */
function numberCheck(key: ConditionKey, field: string, limit: unknown, holds: (value: number, limit: number) => boolean, operator: [string, string]): CheckRunner {
  if (typeof limit !== 'number' || !Number.isFinite(limit)) {
    const failed = frozenCheck(key, false, 'malformed rule value: not a finite number')
    return () => failed
  }
  const [passOperator, failOperator] = operator
  return (view) => {
    const value = view.fields[field]
    if (value === undefined || value === null) return notPopulatedCheck(key)
    if (typeof value !== 'number' || !Number.isFinite(value)) return check(key, false, `${field} is not a finite number`)
    const passed = holds(value, limit)
    return check(key, passed, `${value} ${passed ? passOperator : failOperator} ${limit}`)
  }
}

function riskCeilingCheck(key: ConditionKey, ceiling: unknown): CheckRunner {
  const ceilingRank = typeof ceiling === 'string' ? riskOrder.get(ceiling) : undefined
  if (ceilingRank === undefined) {
    const failed = frozenCheck(key, false, 'malformed rule value: not a risk level')
    return () => failed
  }
  return (view) => {
    const value = stringField(view, 'risk_level')
    if (value === notPopulated) return notPopulatedCheck(key)
    if (typeof value !== 'string') return check(key, false, value.malformed)
    const rank = riskOrder.get(value)
    if (rank === undefined) return check(key, false, `${quoteForMessage(value)} is not a risk level`)
    const passed = rank <= ceilingRank
    return check(key, passed, `${value} ${passed ? 'is at most' : 'is above'} ${ceiling as string}`)
  }
}

const atMost = (order: -1 | 0 | 1) => order <= 0
const above = (order: -1 | 0 | 1) => order > 0
const lessOrEqual: [string, string] = ['<=', '>']
const greater: [string, string] = ['>', '<=']

/** The runner of one condition key; a key the language does not have (unvalidated content) always fails. */
function compileCondition(key: string, value: unknown, lists: ListTable): CheckRunner {
  switch (key as ConditionKey) {
    case 'amount.lte':
      return moneyCheck('amount.lte', value, (view) => view.amount(), atMost, lessOrEqual)
    case 'amount.gt':
      return moneyCheck('amount.gt', value, (view) => view.amount(), above, greater)
    case 'spend_in_window.lte':
      return moneyCheck('spend_in_window.lte', value, (view) => view.spendInWindow(), atMost, lessOrEqual)
    case 'counterparty.in':
      return listCheck('counterparty.in', value, lists, true)
    case 'counterparty.not_in':
      return listCheck('counterparty.not_in', value, lists, false)
    case 'agent_id':
    case 'agent_role':
    case 'tenant_category':
    case 'behavior_hash':
    case 'action_id':
    case 'action_type':
    case 'risk_level':
      return equalityCheck(key as ConditionKey, key, value)
    case 'risk_level.lte':
      return riskCeilingCheck('risk_level.lte', value)
    case 'confidence.gte':
      return numberCheck('confidence.gte', 'confidence', value, (actual, limit) => actual >= limit, ['>=', '<'])
    case 'confidence.lt':
      return numberCheck('confidence.lt', 'confidence', value, (actual, limit) => actual < limit, ['<', '>='])
    case 'evidence_score.gte':
      return numberCheck('evidence_score.gte', 'evidence_score', value, (actual, limit) => actual >= limit, ['>=', '<'])
    case 'evidence_score.lt':
      return numberCheck('evidence_score.lt', 'evidence_score', value, (actual, limit) => actual < limit, ['<', '>='])
    case 'tx_count_in_window.lte':
      return numberCheck('tx_count_in_window.lte', 'tx_count_in_window', value, (actual, limit) => actual <= limit, ['<=', '>'])
    default: {
      // Validation refuses unknown keys; content that skipped it still never matches on a key it
      // cannot evaluate (an ignored condition would widen the rule).
      const failed = frozenCheck(key, false, 'unknown condition key')
      return () => failed
    }
  }
}

function compileRule(candidate: unknown, index: number, lists: ListTable): CompiledRule {
  const rule = ownRecord(candidate)
  const id = typeof rule.id === 'string' ? rule.id : `#${index}`
  const execute = rule.execute === 'auto' || rule.execute === 'confirm' || rule.execute === 'reject' ? rule.execute : undefined
  const appliesMask = kindMaskOf(rule.applies_to)
  const appliesText = Array.isArray(rule.applies_to) ? cut(rule.applies_to.filter((kind) => typeof kind === 'string').join(', ')) : ''
  const appliesChecks: TraceCheck[] = []
  const notApplyingEntries: TraceEntry[] = []
  actionKinds.forEach((kind, kindIndex) => {
    const applies = (appliesMask & (1 << kindIndex)) !== 0
    const appliesCheck = frozenCheck('applies_to', applies, `${kind} ${applies ? 'in' : 'not in'} [${appliesText}]`)
    appliesChecks.push(appliesCheck)
    notApplyingEntries.push(Object.freeze({ rule_id: id, matched: false, checks: Object.freeze([appliesCheck]) }))
  })
  const when = ownRecord(rule.when)
  const checks = Object.keys(when).map((key) => compileCondition(key, when[key], lists))
  if (execute === undefined) {
    const failed = frozenCheck('execute', false, 'malformed rule: execute is not auto, confirm or reject')
    checks.push(() => failed)
  }
  // `approvals` (distinct approvers of a confirm rule) is 1 to approvalsMax; validation refuses anything
  // else. On unvalidated content a malformed count never lowers the approvals asked for: the confirm rule
  // gets a failing check instead, as a malformed condition does.
  let approvals = 1
  if (execute === 'confirm' && rule.approvals !== undefined) {
    if (typeof rule.approvals === 'number' && Number.isInteger(rule.approvals) && rule.approvals >= 1 && rule.approvals <= approvalsMax) approvals = rule.approvals
    else {
      const failed = frozenCheck('approvals', false, `malformed rule: approvals is not an integer from 1 to ${approvalsMax}`)
      checks.push(() => failed)
    }
  }
  const approvers = execute === 'confirm' ? repeatedApprovers(typeof rule.require === 'string' ? rule.require : defaultApprover, approvals) : noApprovers
  return { id, execute, approvers, appliesChecks, notApplyingEntries, appliesMask, checks, cap: compileCap(rule.autonomous_cap) }
}

function compileCap(candidate: unknown): CompiledCap | undefined {
  if (candidate === undefined) return undefined
  const parsed = parseMoney(candidate)
  return parsed.ok ? { ok: true, amount: parsed.money, text: moneyText(parsed.money, (candidate as Money).value) } : { ok: false, problem: parsed.reason }
}

function compilePolicy(content: PolicyContent): CompiledPolicy {
  const record = ownRecord(content)
  const lists = new ListTable(ownRecord(record.lists))
  const rules = (Array.isArray(record.rules) ? record.rules : []).map((rule, index) => compileRule(rule, index, lists))
  let agentActions: Map<string, ReadonlySet<string>> | undefined
  if (record.agent_actions !== undefined) {
    agentActions = new Map()
    const allowlist = ownRecord(record.agent_actions)
    for (const agent of Object.keys(allowlist)) {
      const types = allowlist[agent]
      agentActions.set(agent, new Set(Array.isArray(types) ? types.filter((type) => typeof type === 'string') : []))
    }
  }
  return { rules, agentActions }
}

function compiled(content: PolicyContent): CompiledPolicy {
  if (typeof content !== 'object' || content === null) return compilePolicy(content)
  let policy = compiledPolicies.get(content)
  if (policy === undefined) {
    policy = compilePolicy(content)
    compiledPolicies.set(content, policy)
  }
  return policy
}

// --- The steps ---------------------------------------------------------------------------------------

/** `[agent_actions]`: undefined when the step does not apply, else its entry (matched = rejected). */
function agentActionsEntry(policy: CompiledPolicy, view: ActionView): TraceEntry | undefined {
  if (policy.agentActions === undefined) return undefined
  const agent = view.fields.agent_id
  if (agent === undefined || agent === null) return undefined
  const rejected = (detail: string): TraceEntry => ({ rule_id: '[agent_actions]', matched: true, checks: [check('agent_actions', false, detail)] })
  if (typeof agent !== 'string') return rejected('agent_id is not a string')
  const allowed = policy.agentActions.get(agent)
  if (allowed === undefined) return rejected(`agent ${quoteForMessage(agent)} is not listed in agent_actions`)
  const type = stringField(view, 'action_type')
  if (type === notPopulated) return rejected('action_type not populated')
  if (typeof type !== 'string') return rejected(type.malformed)
  if (!allowed.has(type)) return rejected(`action type ${quoteForMessage(type)} is not allowed for agent ${quoteForMessage(agent)}`)
  return { rule_id: '[agent_actions]', matched: false, checks: [check('agent_actions', true, `agent ${quoteForMessage(agent)} may resolve ${quoteForMessage(type)}`)] }
}

const alwaysHumanTypeSet: ReadonlySet<string> = new Set(alwaysHumanActionTypes)

/** The `[autonomous_cap]` entry of a matched `auto` rule: `matched` is whether the rule's cap covers the action. */
function autonomousCapEntry(rule: CompiledRule, view: ActionView): TraceEntry {
  const entry = (covered: boolean, detail: string): TraceEntry => ({ rule_id: '[autonomous_cap]', matched: covered, checks: [check('autonomous_cap', covered, detail)] })
  const type = view.fields.action_type
  if (typeof type === 'string' && alwaysHumanTypeSet.has(type)) {
    return entry(false, `the gate's human-approval floor always applies to ${type}: no autonomous cap lifts it`)
  }
  const cap = rule.cap
  if (cap === undefined) return entry(false, "no cap on the matched rule: the gate's human-approval floor applies")
  if (!cap.ok) return entry(false, `malformed cap amount: ${cap.problem}`)
  const amount = view.amount()
  if (amount === notPopulated) return entry(false, 'amount not populated: the cap covers only an amount in its currency')
  if (!amount.ok) return entry(false, `malformed amount: ${amount.reason}`)
  const order = moneyOrder(amount.money, cap.amount)
  if (order === undefined) return entry(false, `currency mismatch: cap ${cap.amount.currency}, action ${amount.money.currency}`)
  return order > 0 ? entry(false, `${view.amountText()} > cap ${cap.text}`) : entry(true, `${view.amountText()} ≤ cap ${cap.text}`)
}

const fallbackRoleSet: ReadonlySet<string> = new Set(fallbackAgentRoles)
const highRiskTypeSet: ReadonlySet<string> = new Set(highRiskAgentActionTypes)

/** `[fallback]`: an unmatched agent_action of a listed role or high-risk type needs a signer (spec). */
function fallbackEntry(view: ActionView): TraceEntry {
  const role = stringField(view, 'agent_role')
  const type = stringField(view, 'action_type')
  const roleCheck =
    role === notPopulated
      ? notPopulatedCheck('agent_role')
      : typeof role !== 'string'
        ? check('agent_role', false, role.malformed)
        : check('agent_role', fallbackRoleSet.has(role), `${quoteForMessage(role)} ${fallbackRoleSet.has(role) ? 'is' : 'is not'} a fallback role`)
  const typeCheck =
    type === notPopulated
      ? notPopulatedCheck('action_type')
      : typeof type !== 'string'
        ? check('action_type', false, type.malformed)
        : check('action_type', highRiskTypeSet.has(type), `${quoteForMessage(type)} ${highRiskTypeSet.has(type) ? 'is' : 'is not'} a high-risk type`)
  return { rule_id: '[fallback]', matched: roleCheck.passed || typeCheck.passed, checks: [roleCheck, typeCheck] }
}

function defaultDenyEntry(view: ActionView): TraceEntry {
  const detail = view.kind === undefined ? 'the action kind is not a known kind; deny by default' : `no rule matched ${view.kind}; deny by default`
  return { rule_id: '[default_deny]', matched: true, checks: [check('rules', false, detail)] }
}

/**
 * Evaluates an action against a policy: pure, deterministic, total, deny by default, with a full trace
 * (see the file comment for the steps).
 */
export function evaluatePolicy(content: PolicyContent, action: PolicyAction): PolicyDecision {
  const policy = compiled(content)
  const view = new ActionView(action)
  const trace: TraceEntry[] = []

  const allowlist = agentActionsEntry(policy, view)
  if (allowlist !== undefined) trace.push(allowlist)
  const refusedBy = allowlist?.matched === true ? '[agent_actions]' : undefined

  let winner: CompiledRule | undefined
  for (const rule of policy.rules) {
    if (view.kindIndex < 0) {
      trace.push({ rule_id: rule.id, matched: false, checks: [check('applies_to', false, 'the action kind is not a known kind')] })
      continue
    }
    if ((rule.appliesMask & (1 << view.kindIndex)) === 0) {
      trace.push(rule.notApplyingEntries[view.kindIndex] as TraceEntry)
      continue
    }
    const checks: TraceCheck[] = [rule.appliesChecks[view.kindIndex] as TraceCheck]
    let holds = true
    for (const run of rule.checks) {
      const result = run(view)
      checks.push(result)
      if (!result.passed) holds = false
    }
    const decidedBefore = refusedBy ?? winner?.id
    if (holds && decidedBefore !== undefined) {
      checks.push(check('first_match', false, `conditions hold, but ${decidedBefore} decided first`))
      holds = false
    }
    if (holds) winner = rule
    trace.push({ rule_id: rule.id, matched: holds, checks })
  }

  if (refusedBy !== undefined) return { outcome: 'reject', matched_rule_id: null, required_approvers: noApprovers, covered_by_autonomous_cap: false, trace }

  if (winner !== undefined) {
    switch (winner.execute) {
      case 'reject':
        return { outcome: 'reject', matched_rule_id: winner.id, required_approvers: noApprovers, covered_by_autonomous_cap: false, trace }
      case 'confirm':
        return { outcome: 'confirm', matched_rule_id: winner.id, required_approvers: winner.approvers, covered_by_autonomous_cap: false, trace }
      case 'auto': {
        // Allowed whatever the kind: the floor is the gate's; the trace says whether the cap lifts it.
        if (winner.cap === undefined && !moneyKindSet.has(view.kind as string)) return { outcome: 'allow', matched_rule_id: winner.id, required_approvers: noApprovers, covered_by_autonomous_cap: false, trace }
        const capEntry = autonomousCapEntry(winner, view)
        trace.push(capEntry)
        return { outcome: 'allow', matched_rule_id: winner.id, required_approvers: noApprovers, covered_by_autonomous_cap: capEntry.matched, trace }
      }
      default:
        // Unreachable: a rule without a valid execute has a failing check and never wins.
        break
    }
  }

  if (view.kind === 'agent_action') {
    const fallback = fallbackEntry(view)
    trace.push(fallback)
    if (fallback.matched) return { outcome: 'confirm', matched_rule_id: null, required_approvers: signerApprovers, covered_by_autonomous_cap: false, trace }
  }
  trace.push(defaultDenyEntry(view))
  return { outcome: 'reject', matched_rule_id: null, required_approvers: noApprovers, covered_by_autonomous_cap: false, trace }
}
