/**
 * What the proposals module needs from others, implemented by the composition root through their
 * index.ts: agent proposals (agents' query port), PaymentIntents and their decisions (payments), the
 * active policy's decision on a finding (policy), members (tenants), and Ledger records and Wiki entities
 * for evidence (ledger, wiki).
 */
import type { CommandContext } from '../../kernel/context.ts'
import type { CommandWork } from '../../platform/commands/command.ts'
import type { Executor, Tx } from '../../platform/db/database.ts'
import type { AgentProposalsQuery } from '../agents/index.ts'
import type { PolicyView } from './domain/read-model.ts'

export type ProposalsAgents = AgentProposalsQuery

/** A PaymentIntent as the read model needs it. */
export interface ProposalIntent {
  readonly id: string
  readonly status: string
  readonly actionType: string
  readonly amount: string
  readonly currency: string
  readonly destinationCounterpartyId: string
  readonly approvalsRequired: number
  readonly approvals: number
  readonly policy: Omit<PolicyView, 'explanation'>
}

export interface ProposalsPayments {
  /** The intents of these ids in the tenant (absent ones left out). */
  intents(tenantId: string, ids: readonly string[]): Promise<Map<string, ProposalIntent>>
  /**
   * The payments module's approve and reject, inside the caller's transaction: the member checks in the
   * spec's order, the decision audited before the status moves, its events. Throws its errors.
   */
  approveIn(tx: Tx, context: CommandContext, paymentIntentId: string): Promise<CommandWork<{ status: string }>>
  rejectIn(tx: Tx, context: CommandContext, paymentIntentId: string, reason: string | undefined): Promise<CommandWork<{ status: string }>>
  /**
   * Once the transaction approveIn or rejectIn ran in has rolled back: audits the failure if the member
   * checks refused the decision (payment_intent.approval_refused), as the payments module's own routes do.
   */
  recordRefusal(context: CommandContext, paymentIntentId: string, decision: 'approve' | 'reject', error: unknown): Promise<void>
}

/** The active policy's decision on a finding (kind agent_action), stored nowhere; undefined without an active policy. */
export interface ProposalsPolicy {
  evaluateFindings(tenantId: string, actions: ReadonlyArray<{ agentId: string; agentRole: string | null; actionType: string; confidence: number | null; evidenceScore: number | null }>): Promise<Array<Omit<PolicyView, 'explanation'> | undefined>>
}

export interface ProposalsMember {
  readonly memberId: string
  readonly userId: string
  readonly status: 'active' | 'deactivated'
  readonly role: string
  readonly approvalDomains: readonly string[]
}

export interface ProposalsMembers {
  findMemberOfUser(executor: Executor, tenantId: string, userId: string): Promise<ProposalsMember | undefined>
}

/** Ledger records and Wiki entities by id, for evidence resolve: the record's wire view, or undefined. */
export interface ProposalsEvidence {
  ledgerRecord(tenantId: string, kind: string, id: string): Promise<Readonly<Record<string, unknown>> | undefined>
  wikiEntity(tenantId: string, id: string): Promise<{ kind: string; record: Readonly<Record<string, unknown>> } | undefined>
}
