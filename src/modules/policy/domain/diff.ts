/**
 * The rule-level difference between two policy documents, for reviewers before they sign.
 *
 * Rules are matched by id. `added` and `removed` carry the whole rule; a rule in both documents gives one
 * `modified` entry per changed field: `position`, `applies_to`, `when.<key>`, `require`, `approvals`,
 * `execute`, `autonomous_cap`.
 *
 * `position` (before/after: the 0-based index in each document) is reported for the rules that MOVED
 * relative to the other shared rules, not for every rule whose index shifted because a rule was added or
 * removed above it: under first match, only the relative order of rules changes what matches. The moved
 * rules are those outside a longest common subsequence of the shared ids.
 *
 * Values are compared for meaning where the language says order does not matter: applies_to, an equality
 * condition's values (`"a"` equals `["a"]`), list contents and agent allowlists are sets. Everything else
 * compares as canonical JSON (so "10.5" and "10.50" are reported as a change: they are different signed
 * bytes, even though they are the same amount). Absent values are `null` in before/after (JSON-safe).
 *
 * Document-level changes are `modified` entries with a bracketed rule_id: `[version]` (version),
 * `[window_hours]` (window_hours), `[lists]` (lists.<name>) and `[agent_actions]` (agent_actions.<agent
 * id>, or agent_actions when the allowlist appears or disappears as a whole). Order: shared rules in the
 * new document's order, each field in the order above; then the document-level entries in that order,
 * names sorted.
 */
import { canonicalJson } from '../../../kernel/hashing.ts'
import { conditionKeys, type PolicyContent, type PolicyDiff, type Rule, type RuleChange } from './types.ts'

/** Keys whose values are sets: order and a single value versus a one-element array do not matter. */
const setValuedKeys: ReadonlySet<string> = new Set(['agent_id', 'agent_role', 'tenant_category', 'behavior_hash', 'action_id', 'action_type', 'risk_level'])

function jsonOf(value: unknown): string {
  return value === undefined ? 'null' : canonicalJson(value)
}

function asSortedSet(value: unknown): string {
  const values = value === undefined ? [] : Array.isArray(value) ? value : [value]
  return jsonOf([...new Set(values.map((item) => jsonOf(item)))].sort(compareText))
}

function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0
}

function orNull(value: unknown): unknown {
  return value === undefined ? null : value
}

/** The ids outside one longest common subsequence of the two id sequences: the rules that moved. */
function movedIds(before: readonly string[], after: readonly string[]): Set<string> {
  // Classic O(n·m) table; n, m ≤ rulesMax (500), so at most 250,000 cells.
  const rows = before.length
  const columns = after.length
  const table = Array.from({ length: rows + 1 }, () => new Uint16Array(columns + 1))
  for (let row = rows - 1; row >= 0; row--) {
    for (let column = columns - 1; column >= 0; column--) {
      const current = table[row] as Uint16Array
      const next = table[row + 1] as Uint16Array
      current[column] = before[row] === after[column] ? (next[column + 1] as number) + 1 : Math.max(next[column] as number, current[column + 1] as number)
    }
  }
  const kept = new Set<string>()
  let row = 0
  let column = 0
  while (row < rows && column < columns) {
    if (before[row] === after[column]) {
      kept.add(before[row] as string)
      row++
      column++
    } else if (((table[row + 1] as Uint16Array)[column] as number) >= ((table[row] as Uint16Array)[column + 1] as number)) row++
    else column++
  }
  return new Set(before.filter((id) => !kept.has(id)))
}

function ruleChanges(before: Rule, after: Rule, beforeIndex: number, afterIndex: number, moved: boolean): RuleChange[] {
  const changes: RuleChange[] = []
  const ruleId = after.id
  if (moved) changes.push({ rule_id: ruleId, field: 'position', before: beforeIndex, after: afterIndex })
  if (asSortedSet(before.applies_to) !== asSortedSet(after.applies_to)) {
    changes.push({ rule_id: ruleId, field: 'applies_to', before: before.applies_to, after: after.applies_to })
  }
  const known = new Set<string>(conditionKeys)
  // Keys outside the language can only come from unvalidated documents; they are compared too, sorted, after the known ones.
  const extraKeys = [...new Set([...Object.keys(before.when), ...Object.keys(after.when)])].filter((key) => !known.has(key)).sort(compareText)
  for (const key of [...conditionKeys, ...extraKeys]) {
    const beforeValue = (before.when as Record<string, unknown>)[key]
    const afterValue = (after.when as Record<string, unknown>)[key]
    if (beforeValue === undefined && afterValue === undefined) continue
    const same = setValuedKeys.has(key) && beforeValue !== undefined && afterValue !== undefined ? asSortedSet(beforeValue) === asSortedSet(afterValue) : jsonOf(beforeValue) === jsonOf(afterValue)
    if (!same) changes.push({ rule_id: ruleId, field: `when.${key}`, before: orNull(beforeValue), after: orNull(afterValue) })
  }
  if (before.require !== after.require) changes.push({ rule_id: ruleId, field: 'require', before: orNull(before.require), after: orNull(after.require) })
  // Absent and 1 mean the same, but they are different signed bytes, so they are reported (as `require`
  // absent versus "signer" is).
  if (before.approvals !== after.approvals) changes.push({ rule_id: ruleId, field: 'approvals', before: orNull(before.approvals), after: orNull(after.approvals) })
  if (before.execute !== after.execute) changes.push({ rule_id: ruleId, field: 'execute', before: before.execute, after: after.execute })
  if (jsonOf(before.autonomous_cap) !== jsonOf(after.autonomous_cap)) {
    changes.push({ rule_id: ruleId, field: 'autonomous_cap', before: orNull(before.autonomous_cap), after: orNull(after.autonomous_cap) })
  }
  return changes
}

/** Per-name changes of a name → array map (lists, agent allowlists), the arrays compared as sets. */
function mapChanges(ruleId: string, prefix: string, before: Readonly<Record<string, readonly string[]>>, after: Readonly<Record<string, readonly string[]>>): RuleChange[] {
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort(compareText)
  const changes: RuleChange[] = []
  for (const name of names) {
    const beforeValue = Object.hasOwn(before, name) ? before[name] : undefined
    const afterValue = Object.hasOwn(after, name) ? after[name] : undefined
    const same = beforeValue !== undefined && afterValue !== undefined && asSortedSet(beforeValue) === asSortedSet(afterValue)
    if (!same) changes.push({ rule_id: ruleId, field: `${prefix}.${name}`, before: orNull(beforeValue), after: orNull(afterValue) })
  }
  return changes
}

function documentChanges(from: PolicyContent, to: PolicyContent): RuleChange[] {
  const changes: RuleChange[] = []
  if (from.version !== to.version) changes.push({ rule_id: '[version]', field: 'version', before: from.version, after: to.version })
  if (from.window_hours !== to.window_hours) {
    changes.push({ rule_id: '[window_hours]', field: 'window_hours', before: orNull(from.window_hours), after: orNull(to.window_hours) })
  }
  changes.push(...mapChanges('[lists]', 'lists', from.lists ?? {}, to.lists ?? {}))
  if ((from.agent_actions === undefined) !== (to.agent_actions === undefined)) {
    // Turning the allowlist on or off changes every agent's actions at once: one entry for the whole map.
    changes.push({ rule_id: '[agent_actions]', field: 'agent_actions', before: orNull(from.agent_actions), after: orNull(to.agent_actions) })
  } else {
    changes.push(...mapChanges('[agent_actions]', 'agent_actions', from.agent_actions ?? {}, to.agent_actions ?? {}))
  }
  return changes
}

/** Rule-level added / removed / modified between two documents; deterministic (see the file comment). */
export function diffPolicies(from: PolicyContent, to: PolicyContent): PolicyDiff {
  const fromIndexes = new Map(from.rules.map((rule, index) => [rule.id, index]))
  const toIndexes = new Map(to.rules.map((rule, index) => [rule.id, index]))
  const added = to.rules.filter((rule) => !fromIndexes.has(rule.id))
  const removed = from.rules.filter((rule) => !toIndexes.has(rule.id))
  const sharedBefore = from.rules.filter((rule) => toIndexes.has(rule.id)).map((rule) => rule.id)
  const sharedAfter = to.rules.filter((rule) => fromIndexes.has(rule.id)).map((rule) => rule.id)
  const moved = movedIds(sharedBefore, sharedAfter)
  const modified: RuleChange[] = []
  for (const id of sharedAfter) {
    const beforeIndex = fromIndexes.get(id) as number
    const afterIndex = toIndexes.get(id) as number
    modified.push(...ruleChanges(from.rules[beforeIndex] as Rule, to.rules[afterIndex] as Rule, beforeIndex, afterIndex, moved.has(id)))
  }
  modified.push(...documentChanges(from, to))
  return { added, removed, modified }
}
