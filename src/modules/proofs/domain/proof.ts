/**
 * The Proof of an action (spec, "Proof"), as pure code: what each field is, and how every field but the
 * raw material (the audit events themselves, and the gate checks, evidence and receipts whose digests the
 * events carry) is derived from the action's audit events. The service assembles a proof with these
 * functions; the verifier (../verifier.ts) derives every field again from the events the proof carries and
 * compares. A field that is not derived is bound by a digest in an event, so changing any byte of a proof
 * breaks either an event's hash, its Merkle path, a digest or a derivation.
 */
import { digestOf } from '../../../kernel/audit-record.ts'

export const proofOutcomes = ['allowed', 'confirmed', 'rejected', 'executed', 'failed', 'shadow_completed'] as const
export type ProofOutcome = (typeof proofOutcomes)[number]

/** An audit event as the proof carries it: every field its hash covers (docs/audit.md). */
export interface ProofEvent {
  readonly id: string
  readonly tenant_id: string
  readonly seq: number | null
  readonly layer: string
  readonly actor: { readonly type: string; readonly id: string }
  readonly action: string
  readonly entity: { readonly type: string; readonly id: string }
  readonly inputs: Record<string, unknown>
  readonly outputs: Record<string, unknown>
  readonly evidence_ids: string[]
  readonly request_id: string | null
  readonly created_at: string
  readonly prev_hash: string | null
  readonly hash: string | null
}

export type InclusionStatus = 'pending_sequence' | 'pending_batch' | 'included'

/** An event and where it stands in the chain: linked or not, in a closed Merkle batch (with its path) or not. */
export interface ProofEventRecord {
  readonly event: ProofEvent
  readonly inclusion: { readonly status: InclusionStatus; readonly leaf: string | null; readonly merkle_root: string | null; readonly proof: string[] }
}

export interface ProofGateCheck {
  readonly index: number
  readonly name: string
  readonly passed: boolean
  readonly reason: string
  readonly code: string | null
}

export interface ProofEvidence {
  readonly raw_id: string
  readonly parsed_row_id: string
  readonly parser: string
  readonly confidence: number
}

export interface ProofApproval {
  readonly approval_id: string
  readonly decision: 'approve' | 'reject'
  readonly member_id: string
  readonly user_id: string
  readonly at: string
  readonly audit_event_id: string
}

export interface ProofPayment {
  readonly action_type: string | null
  readonly amount: string | null
  readonly currency: string | null
  readonly source_account_id: string | null
  readonly destination_counterparty_id: string | null
}

export interface ChainAnchor {
  readonly tx_hash: string
  readonly block: number
  readonly chain_id: number
  /** The `audit.anchor_published` event that recorded the publication (in `events`). */
  readonly publication_event_id: string
}

export interface Proof {
  readonly action_id: string
  readonly tenant_id: string
  readonly agent_id: string | null
  readonly behavior_hash: string | null
  readonly outcome: ProofOutcome
  /** The intent's status as its latest event states it. */
  readonly status: string
  /** True until the action has a final outcome and every event is under a Merkle root. */
  readonly partial: boolean
  readonly payment: ProofPayment
  readonly policy_version: number | null
  readonly policy_hash: string | null
  readonly matched_rule_id: string | null
  readonly approvals: ProofApproval[]
  readonly gate_checks: ProofGateCheck[]
  readonly evidence: ProofEvidence[]
  readonly ledger_snapshot_hash: string | null
  readonly rail_receipt: Record<string, unknown> | null
  readonly rail_return: Record<string, unknown> | null
  readonly audit_events: string[]
  /** The root of the batch holding the last of `audit_events`; empty until that batch closes. */
  readonly merkle_root: string
  readonly merkle_proof: string[]
  readonly chain_anchor: ChainAnchor | null
  readonly human_explanation: string
  /** The events of `audit_events` in order, then the anchor publication's, each with its inclusion. */
  readonly events: ProofEventRecord[]
}

/** Where the fields the events do not derive come from: each is bound by a digest in one event. */
export interface DigestBound {
  readonly gate_checks: readonly ProofGateCheck[]
  readonly evidence: readonly ProofEvidence[]
  readonly rail_receipt: Readonly<Record<string, unknown>> | null
  readonly rail_return: Readonly<Record<string, unknown>> | null
}

const finalOutcomes: Readonly<Record<string, ProofOutcome>> = {
  executed: 'executed',
  failed: 'failed',
  shadow_completed: 'shadow_completed',
  rejected: 'rejected',
  cancelled: 'rejected',
}
const decisionOutcomes: Readonly<Record<string, ProofOutcome>> = { allow: 'allowed', confirm: 'confirmed', reject: 'rejected' }

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null)
const last = <T>(items: readonly T[], keep: (item: T) => boolean): T | undefined => [...items].reverse().find(keep)

/** The events a proof's fields are read from, picked out of the action's events. */
export function keyEvents(actionId: string, events: readonly ProofEvent[]) {
  const ofIntent = events.filter((event) => event.entity.type === 'payment_intent' && event.entity.id === actionId)
  return {
    ofIntent,
    proposal: ofIntent.find((event) => event.action === 'payment_intent.proposed'),
    /** The gate run the proof shows: the latest run at execute. */
    gate: last(ofIntent, (event) => event.action === 'payment_intent.execute.before'),
    statusEvent: last(ofIntent, (event) => typeof event.outputs.status === 'string'),
    failure: last(ofIntent, (event) => event.action === 'payment_intent.failed'),
    completed: last(events, (event) => event.entity.type === 'execution' && event.action === 'execution.completed'),
    returned: last(events, (event) => event.entity.type === 'execution' && event.action === 'execution.returned_after_settlement'),
    decisions: ofIntent.filter((event) => event.action === 'payment_intent.approval_recorded' || event.action === 'payment_intent.rejection_recorded'),
  }
}

/** Every field of a proof that its events determine; `digests` says what each digest-bound field must hash to. */
export function deriveFromEvents(actionId: string, records: readonly ProofEventRecord[], chainAnchor: ChainAnchor | null) {
  const actionRecords = records.filter((record) => record.event.id !== chainAnchor?.publication_event_id)
  const events = actionRecords.map((record) => record.event)
  const key = keyEvents(actionId, events)
  const proposal = key.proposal?.outputs ?? {}
  const status = text(key.statusEvent?.outputs.status) ?? 'unknown'
  const decisionOutcome = text(proposal.outcome)
  const outcome: ProofOutcome = finalOutcomes[status] ?? decisionOutcomes[decisionOutcome ?? ''] ?? 'rejected'
  const terminal = actionRecords.at(-1)
  const included = terminal !== undefined && terminal.inclusion.status === 'included'
  // The action's own events: the publication event, appended once the batch is on chain, waits for a later
  // batch of its own, and a proof that was complete must not read partial again meanwhile.
  const sealed = actionRecords.every((record) => record.inclusion.status === 'included')
  return {
    tenant_id: key.proposal?.tenant_id ?? events[0]?.tenant_id ?? '',
    agent_id: text(proposal.agent_id),
    behavior_hash: text(proposal.behavior_hash),
    outcome,
    status,
    partial: finalOutcomes[status] === undefined || !sealed,
    payment: {
      action_type: text(proposal.action_type),
      amount: text(proposal.amount),
      currency: text(proposal.currency),
      source_account_id: text(proposal.source_account_id),
      destination_counterparty_id: text(proposal.destination_counterparty_id),
    },
    policy_version: typeof proposal.policy_version === 'number' ? proposal.policy_version : null,
    policy_hash: text(proposal.policy_hash),
    matched_rule_id: text(proposal.matched_rule_id),
    approvals: key.decisions.map(
      (event): ProofApproval => ({
        approval_id: text(event.outputs.approval_id) ?? '',
        decision: event.action === 'payment_intent.approval_recorded' ? 'approve' : 'reject',
        member_id: text(event.inputs.member_id) ?? '',
        user_id: event.actor.id,
        at: event.created_at,
        audit_event_id: event.id,
      }),
    ),
    ledger_snapshot_hash: text(key.gate?.outputs.ledger_snapshot_hash),
    audit_events: events.map((event) => event.id),
    merkle_root: included ? (terminal.inclusion.merkle_root ?? '') : '',
    merkle_proof: included ? [...terminal.inclusion.proof] : [],
    failure_code: text(key.failure?.outputs.failure_code),
    digests: {
      gate_checks: key.gate === undefined ? null : text(key.gate.outputs.checks_digest),
      evidence: key.proposal === undefined ? null : text(key.proposal.outputs.evidence_digest),
      rail_receipt: key.completed === undefined ? null : text(key.completed.outputs.receipt_digest),
      rail_return: key.returned === undefined ? null : text(key.returned.outputs.receipt_digest),
    },
  }
}

/** The digest an event must carry for a digest-bound field (null: no event binds it, and the field must be empty). */
export function digestOfField(field: keyof DigestBound, value: DigestBound[keyof DigestBound]): string | null {
  if (value === null) return null
  if (Array.isArray(value) && value.length === 0 && field !== 'evidence') return null
  return digestOf(value)
}

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`

/** The receipt's identifiers in words: a transfer id, or a transaction hash with its block. */
function receiptWords(receipt: Readonly<Record<string, unknown>>): string {
  const type = text(receipt.type) ?? 'rail'
  if (type === 'onchain') return `on chain ${String(receipt.chain_id ?? '?')}, transaction ${String(receipt.tx_hash ?? '?')} in block ${String(receipt.block_number ?? '?')}`
  if (type === 'ach') return `by ACH transfer ${String(receipt.transfer_id ?? '?')}${receipt.settled_at === undefined || receipt.settled_at === null ? '' : `, settled ${String(receipt.settled_at)}`}`
  return `with a ${type} receipt`
}

/**
 * The proof in plain English, one paragraph, from its other fields only: the same proof always reads the
 * same, and the verifier writes it again to compare.
 */
export function explain(proof: Omit<Proof, 'human_explanation' | 'events'>): string {
  const { payment } = proof
  const who = proof.agent_id === null ? 'A member' : `Agent ${proof.agent_id}`
  const what = payment.amount === null ? `an action of type ${payment.action_type ?? 'unknown'}` : `a ${payment.action_type ?? 'payment'} of ${payment.amount} ${payment.currency ?? ''}`.trimEnd()
  const route = payment.source_account_id === null ? '' : ` from account ${payment.source_account_id} to counterparty ${payment.destination_counterparty_id ?? 'unknown'}`
  const sentences = [`${who} proposed ${what}${route} (action ${proof.action_id}).`]
  sentences.push(
    proof.policy_version === null
      ? 'No policy decision is recorded for it.'
      : `Policy version ${proof.policy_version} decided it${proof.matched_rule_id === null ? ' with no rule matching' : ` under rule ${proof.matched_rule_id}`}.`,
  )
  const approvals = proof.approvals.filter((approval) => approval.decision === 'approve')
  const rejection = proof.approvals.find((approval) => approval.decision === 'reject')
  if (approvals.length > 0) sentences.push(`${plural(approvals.length, 'member')} approved it (${approvals.map((approval) => approval.member_id).join(', ')}).`)
  if (rejection !== undefined) sentences.push(`Member ${rejection.member_id} rejected it.`)
  if (proof.gate_checks.length === 0) sentences.push('The pre-execution gate did not run.')
  else {
    const failed = proof.gate_checks.filter((check) => !check.passed)
    sentences.push(
      failed.length === 0
        ? `The pre-execution gate ran ${plural(proof.gate_checks.length, 'check')} and all passed.`
        : `The pre-execution gate ran ${plural(proof.gate_checks.length, 'check')}; ${failed.length} failed: ${failed.map((check) => `${check.index} ${check.name}`).join(', ')}.`,
    )
  }
  const outcomes: Record<string, string> = {
    executed: proof.rail_receipt === null ? 'It was executed.' : `It was executed ${receiptWords(proof.rail_receipt)}.`,
    failed: 'It failed at the rail; nothing was sent and its reservation was released.',
    shadow_completed: 'The agent is in shadow mode: the whole pipeline ran and nothing was sent.',
    rejected: proof.status === 'cancelled' ? 'It was cancelled; nothing was sent.' : 'It was rejected; nothing was sent.',
  }
  sentences.push(
    outcomes[proof.status] ??
      (proof.status === 'dispatching'
        ? 'It is being dispatched to its rail.'
        : proof.status === 'reconciling'
          ? 'Its rail gave no certain answer: it is parked for reconciliation, its reservation kept.'
          : `It is ${proof.status}; it has not reached a rail.`),
  )
  if (proof.rail_return !== null) {
    const code = proof.rail_return.return_code
    sentences.push(typeof code === 'string' ? `The bank returned it after settlement (${code}).` : 'The bank returned it after settlement (no return code was recorded).')
  }
  sentences.push(
    proof.merkle_root === ''
      ? `Its ${plural(proof.audit_events.length, 'audit event')} are recorded in the tenant's hash chain; the last is not under a Merkle root yet, so this proof is partial.`
      : proof.chain_anchor === null
        ? `Its ${plural(proof.audit_events.length, 'audit event')} are in the tenant's hash chain, the last under Merkle root ${proof.merkle_root}, not published on chain.`
        : `Its ${plural(proof.audit_events.length, 'audit event')} are in the tenant's hash chain, the last under Merkle root ${proof.merkle_root}, published on chain ${proof.chain_anchor.chain_id} in transaction ${proof.chain_anchor.tx_hash} (block ${proof.chain_anchor.block}).`,
  )
  if (proof.partial && proof.merkle_root !== '') sentences.push('This proof is partial: the action or its events are not final yet.')
  return sentences.join(' ')
}
