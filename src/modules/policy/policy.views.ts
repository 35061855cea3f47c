/**
 * How the Policy module's records and decisions look on the wire (snake_case, ISO timestamps): the
 * mappers every use case shares, so a version reads the same from compose, sign, the reads and the
 * stored outcome of a replayed command.
 */
import { policySigningPayload, type DecisionOutcome, type PolicyDecision, type PolicySigningInput } from './domain/index.ts'
import type { PolicyRow } from './policy.store.ts'

export interface PolicyView {
  id: string
  version: number
  state: PolicyRow['state']
  content: Record<string, unknown>
  content_hash: string
  signers: string[]
  quorum_required: number
  activated_at: string | null
  deactivated_at: string | null
  created_by: string
  created_at: string
}

export type VersionView = Omit<PolicyView, 'content'>

export interface SigningPayloadView {
  domain: Record<string, unknown>
  types: Record<string, Array<{ name: string; type: string }>>
  primaryType: 'Policy'
  message: Record<string, unknown>
}

export interface PolicyDecisionView {
  outcome: DecisionOutcome
  matched_rule_id: string | null
  required_approvers: string[]
  /** Additive: whether the matched rule's signed autonomous cap covers the action (the gate's floor holds the rest). */
  covered_by_autonomous_cap: boolean
  trace: Array<{ rule_id: string; matched: boolean; checks: Array<{ key: string; passed: boolean; detail: string }> }>
}

export function toPolicyView(row: PolicyRow): PolicyView {
  return { ...toVersionView(row), content: row.content as Record<string, unknown> }
}

export function toVersionView(row: PolicyRow): VersionView {
  return {
    id: row.id,
    version: row.version,
    state: row.state,
    content_hash: row.contentHash,
    signers: row.signers,
    quorum_required: row.quorumRequired,
    activated_at: row.activatedAt?.toISOString() ?? null,
    deactivated_at: row.deactivatedAt?.toISOString() ?? null,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
  }
}

export function toDecisionView(decision: PolicyDecision): PolicyDecisionView {
  return {
    outcome: decision.outcome,
    matched_rule_id: decision.matched_rule_id,
    required_approvers: [...decision.required_approvers],
    covered_by_autonomous_cap: decision.covered_by_autonomous_cap,
    trace: decision.trace.map((entry) => ({
      rule_id: entry.rule_id,
      matched: entry.matched,
      checks: entry.checks.map((check) => ({ key: check.key, passed: check.passed, detail: check.detail })),
    })),
  }
}

export function signingInputOf(row: PolicyRow): PolicySigningInput {
  return { tenantId: row.tenantId, policyId: row.id, version: row.version, contentHash: row.contentHash as `0x${string}`, quorumRequired: row.quorumRequired }
}

/** The typed data as JSON: uint256 values may come as bigint, which JSON cannot carry. */
export function signingPayloadView(input: PolicySigningInput): SigningPayloadView {
  return JSON.parse(JSON.stringify(policySigningPayload(input), (_key, value: unknown) => (typeof value === 'bigint' ? Number(value) : value))) as SigningPayloadView
}
