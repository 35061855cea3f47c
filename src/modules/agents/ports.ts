/**
 * What the agents module needs from others, implemented by the composition root through their index.ts:
 * promotions (execution), the tenant's Ledger (ledger), proposing, reading and pausing payments with the
 * policy's dry run (payments, policy), proofs, and releasing held contributions (raw).
 */
import type { AuditActor } from '../../kernel/audit-record.ts'
import type { CommandContext } from '../../kernel/context.ts'
import type { PendingJob } from '../../platform/commands/command.ts'
import type { Executor, Tx } from '../../platform/db/database.ts'
import type { LedgerSnapshot } from './domain/programs/program.ts'

export interface AgentsPromotions {
  /** True when the agent has a promotion active now (its money proposals reach the rails). */
  isPromoted(tenantId: string, agentId: string): Promise<boolean>
}

/** The tenant's current Ledger as a program reads it (every list in id order). */
export interface AgentsLedger {
  snapshot(tenantId: string, today: string): Promise<LedgerSnapshot>
}

/** A money proposal as the payments module takes it (its explicit form). */
export interface AgentPaymentProposal {
  readonly action_type: 'ach_outbound'
  readonly source_account_id: string
  readonly destination_counterparty_id: string
  readonly amount: string
  readonly currency: string
  readonly invoice_id?: string | undefined
  readonly obligation_id?: string | undefined
  readonly evidence_ids?: readonly string[] | undefined
  readonly confidence?: number | undefined
}

/** The policy's answer to a resolved action, without storing anything (the gate's dry run). */
export interface PolicyDryRun {
  readonly outcome: 'allow' | 'confirm' | 'reject' | 'no_active_policy'
  readonly policy_id: string | null
  readonly policy_version: number | null
  readonly matched_rule_id: string | null
  readonly required_approvers: readonly string[]
  readonly explanation: string
}

export interface GateRunTrace {
  readonly id: string
  readonly mode: string
  readonly audit_event_id: string | null
  readonly checks: Array<{ index: number | string; name: string; passed: boolean; reason: string }>
}

export interface AgentsPayments {
  /** Proposes as the context's principal (the agent) through the gated path; throws the payments module's errors (409 agent_proposal_duplicate). */
  propose(context: CommandContext, proposal: AgentPaymentProposal): Promise<{ id: string; status: string; policy_decision_id: string }>
  /** Runs the gate on an approved intent (an un-promoted agent's ends shadow_completed). */
  execute(context: CommandContext, paymentIntentId: string): Promise<{ status: string }>
  /** The policy's decision on the action the proposal resolves to, stored nowhere. */
  dryRun(tenantId: string, action: { agentId: string; agentRole: string; behaviorHash: string; proposal: AgentPaymentProposal; evidenceScore: number; at: Date }): Promise<PolicyDryRun>
  /** The intent's status now; undefined when the tenant has no such intent. */
  statusOf(tenantId: string, paymentIntentId: string): Promise<string | undefined>
  /** Every gate run of the intent, oldest first. */
  gateRunsOf(tenantId: string, paymentIntentId: string): Promise<GateRunTrace[]>
  /** For halt: pauses every approved intent the agent proposed, in the caller's transaction, auditing each as `actor`; returns the ids paused. */
  pauseIntentsOfAgent(tx: Tx, tenantId: string, agentId: string, actor: AuditActor): Promise<string[]>
}

export interface AgentsProofs {
  /** The Proof artifact of an action (GET /v1/proof/{action_id}); throws 404 proof_not_found. */
  proof(tenantId: string, actionId: string): Promise<unknown>
}

/** A wallet linked to a tenant (the policy module's wallet links), as a registration's claim on its address is checked against it. */
export interface AgentsWalletLinks {
  /** The link of a (lower-cased) address in any tenant; undefined when none. */
  linkOf(executor: Executor, address: string): Promise<{ tenantId: string; principalType: 'human' | 'agent'; principalId: string } | undefined>
}

/** What the contribution hold's release needs of Raw: handing the held artifacts to the Ledger, in the caller's transaction. */
export interface AgentsRaw {
  releaseHeldContributions(tx: Tx, tenantId: string, agentId: string): Promise<string[]>
}

/** What an agent write was: an agent registered, or agents' states changed (halt, restore, resume, activation, a lifecycle transition). */
export interface AgentWriteNotice {
  readonly tenantId: string
  readonly kind: 'registered' | 'state_changed'
  /** The agents written, at least one. */
  readonly agentIds: readonly string[]
}

/**
 * Who else is told that the tenant's agents changed, in the command's transaction: the jobs it returns
 * commit with the change (the memory module regenerates its agent pages). Composition plugs it in.
 */
export type AgentWriteListener = (tx: Tx, notice: AgentWriteNotice) => Promise<readonly PendingJob[]>
