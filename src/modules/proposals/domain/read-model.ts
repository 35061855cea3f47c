/**
 * How an agent proposal reads as a Proposal (spec, "Proposal (read model over agent output)"): its status,
 * risk band, confidence band, policy view, the decisions available now, and the presentation a person
 * reads. Pure: the service hands in the stored proposal, the PaymentIntent's state (money proposals), the
 * policy's decision and the decisions people recorded.
 */
import { isPublicProposalType, resolveProposalType, type ProposalDecision, type ProposalStatus, type ProposalType, type RiskBand, type TypeResolution } from './types.ts'

/** The stored proposal as the agents module keeps it. */
export interface StoredProposal {
  readonly id: string
  readonly runId: string | null
  readonly agent: { readonly id: string; readonly kind: 'internal' | 'external'; readonly display_name: string; readonly role: string | null }
  readonly proposalType: string
  readonly actionType: string
  readonly status: string
  readonly confidence: number | null
  readonly evidenceScore: number | null
  readonly narrative: string
  readonly evidence: ReadonlyArray<{ readonly kind: string; readonly ref: string }>
  readonly details: Readonly<Record<string, unknown>>
  readonly paymentIntentId: string | null
  readonly createdAt: string
}

/** A money proposal's PaymentIntent now (undefined: the intent is gone, which the tenant cannot cause). */
export interface IntentState {
  readonly status: string
  readonly actionType: string
  readonly amount: string
  readonly currency: string
  readonly destinationCounterpartyId: string
  readonly approvalsRequired: number
  readonly approvals: number
}

export interface PolicyView {
  readonly decision: 'allow' | 'confirm' | 'reject' | null
  readonly policy_id: string | null
  readonly policy_version: number | null
  readonly matched_rule_id: string | null
  readonly explanation: string
  readonly required_approvers: string[]
  readonly trace: Array<{ rule_id: string; matched: boolean; checks: Array<{ key: string; passed: boolean; detail: string }> }>
}

/** A decision people recorded on a finding (the proposals module's own table), oldest first. */
export interface RecordedDecision {
  readonly id: string
  readonly decision: ProposalDecision
}

export interface DecisionOption {
  readonly id: ProposalDecision
  readonly label: string
  readonly meaning: string
}

/** Stored action types the policy treats as high risk (spec, the agent_action fallback). */
export const highRiskActionTypes: readonly string[] = ['flag_transaction', 'block_payment', 'flag_vendor_risk', 'freeze_card', 'create_dispute_draft', 'require_approval', 'escalate']
/** Types whose findings guard against loss: their band rises with confidence. */
const guardTypes: ReadonlySet<ProposalType> = new Set(['fraud_anomaly', 'vendor_risk', 'compliance', 'dispute'])

/** A confidence at or above this is high; at or above `mediumConfidenceMin`, medium. */
export const highConfidenceMin = 0.8
export const mediumConfidenceMin = 0.5

export function typeOf(proposal: Pick<StoredProposal, 'actionType' | 'agent'>): TypeResolution {
  return resolveProposalType({ actionType: proposal.actionType, agentRole: proposal.agent.role, agentKind: proposal.agent.kind === 'internal' ? proposal.agent.id : null })
}

/** What a PaymentIntent status reads as (shadow_completed: the gate ran in shadow mode and moved no money, so it stays approved). */
const intentStatusMap: Readonly<Record<string, ProposalStatus>> = {
  proposed: 'proposed',
  pending_approval: 'pending_approval',
  awaiting_second_approval: 'awaiting_second_approval',
  approved: 'approved',
  rejected: 'rejected',
  paused: 'paused',
  cancelled: 'cancelled',
  dispatching: 'dispatching',
  executed: 'executed',
  failed: 'failed',
  reconciling: 'reconciling',
  shadow_completed: 'approved',
}

/** The decision in force on a finding: the latest acknowledge or reject not undone since (undefined: none). */
export function decisionInForce(decisions: readonly RecordedDecision[]): RecordedDecision | undefined {
  const latest = decisions.at(-1)
  return latest === undefined || latest.decision === 'undo' ? undefined : latest
}

/**
 * Whether a stored proposal is a money proposal: one that became a PaymentIntent, or a payment the payments
 * module refused when it was proposed (stored `refused`, no intent). A refused payment is no finding: it
 * reads as rejected, and no decision (not even undo) is open on it.
 */
export function isMoneyProposal(proposal: Pick<StoredProposal, 'paymentIntentId' | 'status'>): boolean {
  return proposal.paymentIntentId !== null || proposal.status === 'refused'
}

export function statusOf(proposal: Pick<StoredProposal, 'paymentIntentId' | 'status'>, intent: IntentState | undefined, decisions: readonly RecordedDecision[]): ProposalStatus {
  if (proposal.paymentIntentId !== null) return intent === undefined ? 'unknown' : (intentStatusMap[intent.status] ?? 'unknown')
  // A money proposal the payments module refused never became an intent: it reads as rejected.
  if (proposal.status === 'refused') return 'rejected'
  if (proposal.status !== 'proposed') return 'unknown'
  const latest = decisions.at(-1)
  if (latest === undefined) return 'proposed'
  return latest.decision === 'acknowledge' ? 'acknowledged' : latest.decision === 'reject' ? 'rejected' : latest.decision === 'undo' ? 'undone' : 'unknown'
}

/**
 * The risk band: null while the status is unknown; a money proposal's by its policy decision (reject
 * high, confirm elevated, allow standard); a finding that guards against loss (fraud, vendor risk,
 * compliance, dispute, or a high-risk action type) high at high confidence, else elevated; a cash
 * forecast with a shortfall elevated; any other finding low at high confidence, else standard.
 */
export function riskBandOf(input: { type: ProposalType | undefined; actionType: string; confidence: number | null; money: boolean; policyDecision: PolicyView['decision']; shortfall: boolean; status: ProposalStatus }): RiskBand | null {
  if (input.status === 'unknown') return null
  const high = input.confidence !== null && input.confidence >= highConfidenceMin
  if (input.money) return input.policyDecision === 'reject' ? 'high' : input.policyDecision === 'allow' ? 'standard' : 'elevated'
  if ((input.type !== undefined && guardTypes.has(input.type)) || highRiskActionTypes.includes(input.actionType)) return high ? 'high' : 'elevated'
  if (input.type === 'cash_forecast' && input.shortfall) return 'elevated'
  return high ? 'low' : 'standard'
}

export function confidenceBandOf(confidence: number | null): 'high' | 'medium' | 'low' | 'unknown' {
  if (confidence === null) return 'unknown'
  return confidence >= highConfidenceMin ? 'high' : confidence >= mediumConfidenceMin ? 'medium' : 'low'
}

const options: Readonly<Record<ProposalDecision, DecisionOption>> = {
  approve: { id: 'approve', label: 'Approve', meaning: 'Authorize the payment through the internal settlement path; nothing is sent to a rail until it is executed.' },
  reject: { id: 'reject', label: 'Reject', meaning: 'Close the proposal: nothing happens and the agent may propose it again only after its duplicate window.' },
  acknowledge: { id: 'acknowledge', label: 'Acknowledge', meaning: 'Record that a person saw the finding; nothing else happens.' },
  undo: { id: 'undo', label: 'Undo', meaning: 'Reverse the acknowledgement or rejection of this finding; it can be decided again.' },
}

/**
 * The decisions available now. A money proposal: approve and reject while its intent waits for approval.
 * A finding: acknowledge and reject while no decision is in force (new, or undone); undo while an
 * acknowledge or reject is. Money decisions are never undone: an approval authorizes settlement and a
 * rejected intent is final (a person pauses or cancels the intent instead).
 */
export function availableDecisionsOf(money: boolean, status: ProposalStatus): DecisionOption[] {
  if (money) return status === 'pending_approval' || status === 'awaiting_second_approval' ? [options.approve, options.reject] : []
  if (status === 'proposed' || status === 'undone') return [options.acknowledge, options.reject]
  if (status === 'acknowledged' || status === 'rejected') return [options.undo]
  return []
}

/** Whether an undo is eligible, and which decision it reverses. */
export function undoTarget(money: boolean, decisions: readonly RecordedDecision[]): RecordedDecision | undefined {
  return money ? undefined : decisionInForce(decisions)
}

/** Who may decide on a finding: an active member of an approving role whose domains cover it (`*`, the type or the action type). */
export function checkFindingAuthority(
  member: { readonly status: 'active' | 'deactivated'; readonly role: string; readonly approvalDomains: readonly string[] } | undefined,
  finding: { readonly type: string | undefined; readonly actionType: string },
): { ok: true } | { ok: false; reason: 'actor_unresolved' | 'actor_inactive' | 'domain_not_authorized'; message: string } {
  if (member === undefined) return { ok: false, reason: 'actor_unresolved', message: 'Only a member of the tenant decides on a proposal; the caller is not one.' }
  if (member.status !== 'active') return { ok: false, reason: 'actor_inactive', message: 'The member is deactivated.' }
  if (!['owner', 'admin', 'approver'].includes(member.role)) return { ok: false, reason: 'domain_not_authorized', message: `A ${member.role} decides on no proposal; an owner, admin or approver must.` }
  const domains = member.approvalDomains
  const covered = domains.includes('*') || domains.includes(finding.actionType) || (finding.type !== undefined && domains.includes(finding.type))
  if (!covered) return { ok: false, reason: 'domain_not_authorized', message: `The member's approval domains do not include ${finding.type ?? finding.actionType} (or ${finding.actionType}, or *).` }
  return { ok: true }
}

/** The policy's decision in one plain sentence. */
export function policyExplanationOf(policy: Omit<PolicyView, 'explanation'>): string {
  if (policy.decision === null) return 'No policy is active for the tenant: nothing was evaluated.'
  const by = policy.matched_rule_id === null ? 'by the policy\'s fallback' : `by rule ${policy.matched_rule_id}`
  const version = policy.policy_version === null ? '' : ` of policy version ${policy.policy_version}`
  const approvers = policy.required_approvers.length === 0 ? '' : `, needing ${policy.required_approvers.join(', ')}`
  const verb = policy.decision === 'allow' ? 'Allowed' : policy.decision === 'confirm' ? 'Needs a person to confirm' : 'Rejected'
  return `${verb} ${by}${version}${approvers}.`
}

const typeLabels: Readonly<Record<ProposalType, string>> = {
  vendor_risk: 'Vendor risk',
  payment: 'Payment',
  collections: 'Collections',
  treasury: 'Treasury',
  cash_forecast: 'Cash forecast',
  dispute: 'Dispute',
  compliance: 'Compliance',
  revenue_intel: 'Revenue intelligence',
  reconciliation: 'Reconciliation',
  subscription: 'Subscription',
  fraud_anomaly: 'Fraud and anomaly',
  personal_budget: 'Personal budget',
  financial_health: 'Financial health',
  purchase_advisor: 'Purchase advisor',
  tax_prep: 'Tax preparation',
  travel_finance: 'Travel finance',
  bill_management: 'Bill management',
  debt_optimization: 'Debt optimization',
  savings: 'Savings',
}

/** What a person is asked to do about each stored action type (the verb of the recommendation). */
const recommendations: Readonly<Record<string, string>> = {
  remind: 'Send the customer the reminder.',
  propose_match: 'Confirm that the transaction settles the named record.',
  review_match: 'Pick the record the transaction settles from the candidates.',
  flag_transaction: 'Review the flagged transaction before anything else is paid to the payee.',
  block_payment: 'Hold payments to this payee until it is reviewed.',
  forecast: 'Review the cash forecast.',
  subscription_found: 'Record the recurring charge as a subscription.',
  subscription_price_change: 'Check the subscription\'s new price.',
}

function humanLabel(key: string): string {
  const words = key.replace(/_/g, ' ')
  return words.charAt(0).toUpperCase() + words.slice(1)
}

function factValue(value: unknown): string | undefined {
  if (typeof value === 'string') return value.length > 200 ? `${value.slice(0, 199)}…` : value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return undefined
}

/** Detail fields shown as key facts, at most. */
export const detailFactsMax = 6

export interface Presentation {
  readonly headline: string
  readonly recommendation: string
  readonly key_facts: Array<{ label: string; value: string }>
  readonly confidence_band: 'high' | 'medium' | 'low' | 'unknown'
  readonly policy: string
  readonly consequences: { approve: string | null; reject: string | null; acknowledge: string | null }
  readonly actions: DecisionOption[]
  readonly technical_detail: {
    readonly '1_ingest': Record<string, unknown>
    readonly '2_extract': Record<string, unknown>
    readonly '3_classify': Record<string, unknown>
    readonly '4_score': Record<string, unknown>
    readonly '5_policy': Record<string, unknown>
    readonly '6_propose': Record<string, unknown>
  }
}

export function presentationOf(input: {
  proposal: StoredProposal
  resolution: TypeResolution
  status: ProposalStatus
  riskBand: RiskBand | null
  intent: IntentState | undefined
  policy: PolicyView
  available: DecisionOption[]
}): Presentation {
  const { proposal, resolution, status, intent, policy } = input
  const money = isMoneyProposal(proposal)
  const typeLabel = resolution.type === undefined ? 'Finding' : typeLabels[resolution.type]
  const sentence = proposal.narrative.split(/(?<=\.)\s/)[0] ?? proposal.narrative
  const headline = `${typeLabel}: ${sentence.length > 160 ? `${sentence.slice(0, 159)}…` : sentence}`
  const amount = intent === undefined ? undefined : `${intent.amount} ${intent.currency}`
  const recommendation = money
    ? status === 'pending_approval' || status === 'awaiting_second_approval'
      ? `Approve paying ${amount} if the bill is right; reject it otherwise.`
      : `No decision is due: the payment is ${status.replace(/_/g, ' ')}.`
    : (recommendations[proposal.actionType] ?? `Review the ${typeLabel.toLowerCase()} finding and acknowledge or reject it.`)
  const facts: Array<{ label: string; value: string }> = [
    { label: 'Type', value: typeLabel },
    { label: 'Agent', value: proposal.agent.display_name },
    { label: 'Status', value: status.replace(/_/g, ' ') },
    { label: 'Confidence', value: proposal.confidence === null ? 'unknown' : `${Math.round(proposal.confidence * 100)} %` },
    { label: 'Evidence', value: `${proposal.evidence.length} reference${proposal.evidence.length === 1 ? '' : 's'}` },
  ]
  if (amount !== undefined) facts.push({ label: 'Amount', value: amount })
  let shown = 0
  for (const [key, value] of Object.entries(proposal.details)) {
    const text = factValue(value)
    if (text === undefined || shown >= detailFactsMax) continue
    facts.push({ label: humanLabel(key), value: text })
    shown += 1
  }
  const consequences = money
    ? {
        approve: `Records your approval${intent !== undefined && intent.approvalsRequired > intent.approvals + 1 ? '; a distinct second member must approve too' : ''}. Approval authorizes the internal settlement path and dispatches no rail: the payment leaves only when executed through the gate${proposal.agent.kind === 'internal' ? ' (in shadow mode until the agent is promoted)' : ''}.`,
        reject: 'The payment intent is rejected for good; no money moves.',
        acknowledge: null,
      }
    : {
        approve: null,
        reject: 'The finding is closed as wrong or not useful; nothing else happens (undo reopens it).',
        acknowledge: 'Records that you saw the finding; nothing else happens (undo reopens it).',
      }
  return {
    headline,
    recommendation,
    key_facts: facts,
    confidence_band: confidenceBandOf(proposal.confidence),
    policy: policy.explanation,
    consequences,
    actions: input.available,
    technical_detail: {
      '1_ingest': { evidence_refs: proposal.evidence.length, kinds: [...new Set(proposal.evidence.map((ref) => ref.kind))].sort() },
      '2_extract': { parsed_row_ids: proposal.evidence.filter((ref) => ref.kind === 'parsed_row').map((ref) => ref.ref) },
      '3_classify': { stored_action_type: proposal.actionType, type: resolution.type ?? null, rule: resolution.rule, agent_role: proposal.agent.role },
      '4_score': { confidence: proposal.confidence, evidence_score: proposal.evidenceScore, risk_band: input.riskBand },
      '5_policy': { decision: policy.decision, policy_id: policy.policy_id, policy_version: policy.policy_version, matched_rule_id: policy.matched_rule_id },
      '6_propose': { agent_id: proposal.agent.id, run_id: proposal.runId, payment_intent_id: proposal.paymentIntentId, status, created_at: proposal.createdAt },
    },
  }
}

export { isPublicProposalType }
