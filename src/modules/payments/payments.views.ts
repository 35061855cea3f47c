/** PaymentIntents and their decisions as the API writes them (snake_case, amounts at the currency's scale). */
import { formatAmount } from '../../kernel/money.ts'
import type { TraceEntry } from '../policy/index.ts'
import { sdkStatusOf, type SdkStatus } from './domain/intents.ts'
import type { Executor } from '../../platform/db/database.ts'
import type { ApprovalRow, PaymentIntentRow, PaymentsStore, PolicyDecisionRow } from './payments.store.ts'

export interface PolicyDecisionView {
  id: string
  outcome: 'allow' | 'confirm' | 'reject'
  matched_rule_id: string | null
  required_approvers: string[]
  covered_by_autonomous_cap: boolean
  trace: Array<{ rule_id: string; matched: boolean; checks: Array<{ key: string; passed: boolean; detail: string }> }>
  policy_id: string
  policy_version: number
  action_hash: string
  created_at: string
}

export interface ApprovalView {
  id: string
  decision: 'approve' | 'reject'
  member_id: string
  reason: string | null
  created_at: string
}

export interface PaymentIntentView {
  id: string
  owner_id: string
  created_by_agent_id: string | null
  action_type: PaymentIntentRow['actionType']
  source_account_id: string
  destination_counterparty_id: string
  amount: string
  currency: string
  invoice_id: string | null
  obligation_id: string | null
  evidence_ids: string[]
  status: PaymentIntentRow['status']
  sdk_status: SdkStatus
  policy_decision_id: string
  policy_decision: PolicyDecisionView
  approvals_required: number
  held_by: 'policy' | 'floor' | null
  approval_ids: string[]
  approvals: ApprovalView[]
  rejection_reason: string | null
  execution_receipt_ids: string[]
  created_at: string
  updated_at: string
  agent?: { id: string; kind: 'internal' | 'external'; display_name: string } | null
}

export function toDecisionView(row: PolicyDecisionRow): PolicyDecisionView {
  return {
    id: row.id,
    outcome: row.outcome,
    matched_rule_id: row.matchedRuleId,
    required_approvers: [...row.requiredApprovers],
    covered_by_autonomous_cap: row.coveredByAutonomousCap,
    trace: (row.trace as TraceEntry[]).map((entry) => ({ rule_id: entry.rule_id, matched: entry.matched, checks: entry.checks.map((check) => ({ ...check })) })),
    policy_id: row.policyId,
    policy_version: row.policyVersion,
    action_hash: row.actionHash,
    created_at: row.createdAt.toISOString(),
  }
}

export function toIntentView(row: PaymentIntentRow, decision: PolicyDecisionRow, approvals: readonly ApprovalRow[]): PaymentIntentView {
  return {
    id: row.id,
    owner_id: row.tenantId,
    created_by_agent_id: row.createdByAgentId,
    action_type: row.actionType,
    source_account_id: row.sourceAccountId,
    destination_counterparty_id: row.destinationCounterpartyId,
    amount: formatAmount(row.amount, row.currency),
    currency: row.currency,
    invoice_id: row.invoiceId,
    obligation_id: row.obligationId,
    evidence_ids: [...row.evidenceIds],
    status: row.status,
    sdk_status: sdkStatusOf(row.status),
    policy_decision_id: row.policyDecisionId,
    policy_decision: toDecisionView(decision),
    approvals_required: row.approvalsRequired,
    held_by: row.heldBy,
    approval_ids: approvals.filter((approval) => approval.decision === 'approve').map((approval) => approval.id),
    approvals: approvals.map((approval) => ({
      id: approval.id,
      decision: approval.decision,
      member_id: approval.memberId,
      reason: approval.reason,
      created_at: approval.createdAt.toISOString(),
    })),
    rejection_reason: row.rejectionReason,
    execution_receipt_ids: [...row.executionReceiptIds],
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  }
}

/** What every payment_intent.* event carries: the intent's identity and money, never evidence contents. */
export function intentEventPayload(row: PaymentIntentRow): Record<string, unknown> {
  return {
    payment_intent_id: row.id,
    status: row.status,
    action_type: row.actionType,
    amount: formatAmount(row.amount, row.currency),
    currency: row.currency,
    source_account_id: row.sourceAccountId,
    destination_counterparty_id: row.destinationCounterpartyId,
    created_by_agent_id: row.createdByAgentId,
    policy_decision_id: row.policyDecisionId,
  }
}

/** The intent as the API shows it: its row with its decision and the decisions people recorded (two reads). */
export async function loadIntentView(executor: Executor, store: Pick<PaymentsStore, 'findDecision' | 'approvalsOf'>, row: PaymentIntentRow): Promise<PaymentIntentView> {
  const decision = await store.findDecision(executor, row.tenantId, row.policyDecisionId)
  if (decision === undefined) throw new Error(`payment intent ${row.id} has no decision row ${row.policyDecisionId}`)
  return toIntentView(row, decision, await store.approvalsOf(executor, row.tenantId, row.id))
}
