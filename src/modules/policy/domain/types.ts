/**
 * The Policy language and its evaluation: the contract between the pure domain (this folder) and the
 * Policy slice (store, service, routes). Pure types only; the TypeBox schema of the content lives in
 * `content.ts` and must describe exactly these types.
 *
 * Decisions (docs/decisions.md, "Policy"):
 * - Rules are matched FIRST MATCH IN DOCUMENT ORDER; lint flags rules that can never be reached.
 * - A condition on a key the caller did not populate does not hold (its check fails with detail
 *   "not populated"); a money condition in another currency does not hold ("currency mismatch").
 * - Steps: `[agent_actions]` allowlist first, then the rules (the trace lists every rule, also after the
 *   match), then `[autonomous_cap]` (whether the matched `auto` rule's signed cap covers the action),
 *   else `[fallback]` (agent_action only) and `[default_deny]` (evaluate.ts).
 * - The policy decides allow / confirm / reject; the hard human-approval floor is the gate's (spec,
 *   PaymentIntent states), lifted only by a covering `autonomous_cap` carried by the matched rule. The
 *   decision reports that as `covered_by_autonomous_cap`.
 * - `PolicyRecord.version` is the tenant's sequential policy version, assigned by the service (the
 *   default policy is 1). `content.version` is the document's own version label: mandatory, numeric,
 *   kept verbatim and covered by the content hash and the signatures.
 */

/** Action kind vocabulary (spec: "Action kind vocabulary"); `any` only inside a rule's applies_to. */
import type { Money } from '../../../kernel/money.ts'
export const actionKinds = ['outbound_payment', 'inbound_payment', 'ledger_write', 'onchain_tx', 'agent_action'] as const
export type ActionKind = (typeof actionKinds)[number]
export type AppliesTo = ActionKind | 'any'

/**
 * Kinds that move money out: a matched `auto` on one of them always gets an `[autonomous_cap]` trace entry,
 * because the gate's human-approval floor holds it for approval unless the rule's signed cap covers it.
 */
export const moneyKinds = ['outbound_payment', 'onchain_tx'] as const satisfies readonly ActionKind[]

export const riskLevels = ['low', 'medium', 'high', 'sanctioned'] as const
export type RiskLevel = (typeof riskLevels)[number]

/** Agent roles and action types that fall back to `confirm` by a signer when no rule matches (spec). */
export const fallbackAgentRoles = ['collections', 'fraud_anomaly', 'vendor_risk'] as const
export const highRiskAgentActionTypes = [
  'flag_transaction',
  'block_payment',
  'flag_vendor_risk',
  'freeze_card',
  'create_dispute_draft',
  'require_approval',
  'escalate',
] as const

/** An amount: currency code (ISO 4217 three letters, or a token symbol such as USDC) and a decimal string (kernel/money.ts). */
export type { Money }

/**
 * A rule's conditions: every present key must hold (AND). Money keys compare exactly in the currency's
 * minor units; list keys name an entry of `content.lists`.
 */
export interface Conditions {
  readonly 'amount.lte'?: Money
  readonly 'amount.gt'?: Money
  readonly 'counterparty.in'?: string
  readonly 'counterparty.not_in'?: string
  /** Equality keys: one value, or any of several. */
  readonly agent_id?: string | readonly string[]
  readonly agent_role?: string | readonly string[]
  readonly tenant_category?: string | readonly string[]
  readonly behavior_hash?: string | readonly string[]
  readonly action_id?: string | readonly string[]
  readonly action_type?: string | readonly string[]
  readonly risk_level?: RiskLevel | readonly RiskLevel[]
  /** Ordered low < medium < high < sanctioned. */
  readonly 'risk_level.lte'?: RiskLevel
  /** Scores in [0, 1]. */
  readonly 'confidence.gte'?: number
  readonly 'confidence.lt'?: number
  readonly 'evidence_score.gte'?: number
  readonly 'evidence_score.lt'?: number
  /** Spend and count over the policy's window (`content.window_hours`), including this action. */
  readonly 'spend_in_window.lte'?: Money
  readonly 'tx_count_in_window.lte'?: number
}
export type ConditionKey = keyof Conditions

/**
 * Every condition key, in the order traces, lint findings and diffs list them. The `satisfies` clause and
 * `conditionKeysComplete` below make the compiler refuse a key added to `Conditions` but not here.
 */
export const conditionKeys = [
  'amount.lte',
  'amount.gt',
  'counterparty.in',
  'counterparty.not_in',
  'agent_id',
  'agent_role',
  'tenant_category',
  'behavior_hash',
  'action_id',
  'action_type',
  'risk_level',
  'risk_level.lte',
  'confidence.gte',
  'confidence.lt',
  'evidence_score.gte',
  'evidence_score.lt',
  'spend_in_window.lte',
  'tx_count_in_window.lte',
] as const satisfies readonly ConditionKey[]
const conditionKeysComplete: [Exclude<ConditionKey, (typeof conditionKeys)[number]>] extends [never] ? true : false = true
void conditionKeysComplete

/**
 * Keys POST /evaluate never populates (it accepts only kind, counterparty_id, amount, agent_role and
 * timestamp): a rule using one does not hold there, and may decide differently in the gate (spec).
 */
export const gateOnlyConditionKeys = [
  'agent_id',
  'tenant_category',
  'behavior_hash',
  'action_id',
  'action_type',
  'risk_level',
  'risk_level.lte',
  'confidence.gte',
  'confidence.lt',
  'evidence_score.gte',
  'evidence_score.lt',
  'spend_in_window.lte',
  'tx_count_in_window.lte',
] as const satisfies readonly ConditionKey[]

export type RuleExecute = 'auto' | 'confirm' | 'reject'

export interface Rule {
  readonly id: string
  readonly applies_to: readonly AppliesTo[]
  readonly when: Conditions
  /** Approver label for `confirm` (default `signer`). */
  readonly require?: string
  /**
   * Only on a `confirm` rule: how many DISTINCT members must approve (an integer, 1 to 5; default 1). The
   * decision's `required_approvers` lists the approver label once per approval (`require: "finance",
   * approvals: 2` → `["finance", "finance"]`); on an auto or reject rule it is refused
   * (`approvals_on_non_confirm`).
   */
  readonly approvals?: number
  readonly execute: RuleExecute
  /**
   * Only on an `auto` rule: the signed amount up to which the money actions this rule allows may execute
   * without a human (spec: the hard human-approval floor applies "unless the matched rule carries a
   * covering signed autonomous amount cap"). Compared exactly, in its own currency only.
   */
  readonly autonomous_cap?: Money
}

export interface PolicyContent {
  /** The document's own version label (mandatory, numeric). */
  readonly version: number
  readonly rules: readonly Rule[]
  /** List name → counterparty ids. */
  readonly lists?: Readonly<Record<string, readonly string[]>>
  /** Agent id → the action types (PaymentIntent action_type or agent action type) it may resolve. */
  readonly agent_actions?: Readonly<Record<string, readonly string[]>>
  /** The window of spend_in_window and tx_count_in_window, in hours (default 24). */
  readonly window_hours?: number
}

/**
 * The action evaluated. POST /evaluate accepts only kind, counterparty_id, amount, agent_role and
 * timestamp; the gate also populates the rest.
 */
export interface PolicyAction {
  readonly kind: ActionKind
  readonly counterparty_id?: string | null
  readonly amount?: Money | null
  readonly agent_role?: string | null
  readonly timestamp?: string | null
  // Gate-populated:
  readonly agent_id?: string | null
  readonly action_type?: string | null
  readonly tenant_category?: string | null
  readonly confidence?: number | null
  readonly evidence_score?: number | null
  readonly risk_level?: RiskLevel | null
  readonly spend_in_window?: Money | null
  readonly tx_count_in_window?: number | null
  readonly behavior_hash?: string | null
  readonly action_id?: string | null
}

export type DecisionOutcome = 'allow' | 'confirm' | 'reject'

export interface TraceCheck {
  /**
   * A condition key, or: `applies_to` (first check of every rule), `first_match` (conditions held but an
   * earlier step decided), `agent_actions`, `autonomous_cap`, `agent_role` / `action_type` (fallback),
   * `rules` (default deny).
   */
  readonly key: string
  readonly passed: boolean
  readonly detail: string
}

export interface TraceEntry {
  /** A rule id, or a pseudo-rule in brackets: `[agent_actions]`, `[autonomous_cap]`, `[fallback]`, `[default_deny]`. */
  readonly rule_id: string
  /**
   * For a rule: it decided (at most one rule per trace; a later rule whose conditions also hold gets a
   * failed `first_match` check). For a pseudo-rule: `[agent_actions]` rejected, `[fallback]` applied,
   * `[default_deny]` denied, `[autonomous_cap]` the matched rule's cap covers the action (it never
   * changes the outcome: it is `covered_by_autonomous_cap`).
   */
  readonly matched: boolean
  readonly checks: readonly TraceCheck[]
}

export interface PolicyDecision {
  readonly outcome: DecisionOutcome
  readonly matched_rule_id: string | null
  /**
   * `confirm` only (empty otherwise): the approver label once per distinct approval needed (the matched
   * rule's `require` repeated `approvals` times; `[signer]` for the agent_action fallback).
   */
  readonly required_approvers: readonly string[]
  /**
   * Additive: the outcome is `allow`, the matched rule carries an `autonomous_cap`, and the action's
   * amount is in the cap's currency and at most the cap (never for the action types the floor always
   * holds). The gate's hard human-approval floor holds an allowed money action it does not cover.
   */
  readonly covered_by_autonomous_cap: boolean
  readonly trace: readonly TraceEntry[]
}

export type LintSeverity = 'error' | 'warning' | 'info'

export interface LintFinding {
  readonly code: string
  readonly severity: LintSeverity
  readonly rule_id: string | null
  readonly message: string
}

export interface RuleChange {
  readonly rule_id: string
  readonly field: string
  readonly before: unknown
  readonly after: unknown
}

export interface PolicyDiff {
  readonly added: readonly Rule[]
  readonly removed: readonly Rule[]
  readonly modified: readonly RuleChange[]
}

/**
 * What a signer signs (EIP-712): the tenant, the policy id and version, the content hash and the quorum,
 * under domain { name: 'Steward Policy', version: '1', chainId: 8453 } (Base, as SIWX). Field names in
 * the typed data are camelCase: tenantId (string), policyId (string), version (uint256),
 * contentHash (bytes32), quorumRequired (uint256).
 */
export interface PolicySigningInput {
  readonly tenantId: string
  readonly policyId: string
  readonly version: number
  /** 0x-prefixed keccak256 of the RFC 8785 canonical JSON of the content. */
  readonly contentHash: `0x${string}`
  readonly quorumRequired: number
}
