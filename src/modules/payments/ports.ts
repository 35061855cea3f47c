/**
 * What the payments module needs from other modules; composition plugs the implementations in. Payments
 * reads no other module's tables: the Ledger's accounts, counterparties, invoices and obligations through
 * its query port, Raw's parsed rows through its records port, members through the tenants directory,
 * linked wallets and the active policy through the policy module.
 */
import type { Principal } from '../../kernel/principal.ts'
import type { PendingJob } from '../../platform/commands/command.ts'
import type { Executor, Tx } from '../../platform/db/database.ts'
import type { LedgerQueries, PaymentAccount, PaymentCounterparty, PaymentInvoice, PaymentObligation } from '../ledger/index.ts'
import type { EvaluatedDecision, PolicyAction, PolicyIntegrity, PolicyVerdicts } from '../policy/index.ts'
import type { PromotionFact } from './domain/gate.ts'
import type { Rail } from './domain/gate.ts'

export type { PromotionFact }

export type { PaymentAccount, PaymentCounterparty, PaymentInvoice, PaymentObligation }

/** The Ledger, as a payment reads it: the accounts, counterparties, invoices and obligations an intent names. */
export type PaymentsLedger = Pick<
  LedgerQueries,
  'findAccount' | 'activeAccountsIn' | 'findCounterparty' | 'findInvoice' | 'findObligation' | 'counterpartyNamedBy' | 'latestBalance' | 'counterpartyDetailsChangedAt'
>

/** Raw's parsed rows: which of these ids are the tenant's, the artifact and parser each came from, and how confident its extraction was. */
export interface PaymentsEvidence {
  parsedRowEvidence(
    executor: Executor,
    tenantId: string,
    parsedRowIds: readonly string[],
  ): Promise<Array<{ readonly id: string; readonly rawArtifactId: string; readonly parser: string; readonly confidence: number }>>
}

/** A member as an approval needs them, with the identities that would make them a payee. */
export interface MemberIdentity {
  readonly memberId: string
  readonly userId: string
  readonly status: 'active' | 'deactivated'
  readonly role: 'owner' | 'admin' | 'approver' | 'viewer'
  readonly approvalDomains: readonly string[]
  readonly approvalLimit: { readonly currency: string; readonly value: string } | null
  readonly email: string
}

export interface PaymentsMembers {
  /** The member record of a user of the tenant; undefined when the user has none. */
  findMemberOfUser(executor: Executor, tenantId: string, userId: string): Promise<MemberIdentity | undefined>
  /** Lower-cased addresses of the wallets linked to this user as `human`. */
  humanWalletsOf(executor: Executor, tenantId: string, userId: string): Promise<string[]>
}

/** The active policy, evaluated inside the caller's transaction (read FOR SHARE). */
export interface PaymentsPolicy {
  evaluateActive(tx: Tx, tenantId: string, action: PolicyAction): Promise<EvaluatedDecision | undefined>
  /** One read of the active policy: `build` the action given its spend window in hours, then the decision; undefined when none is active. */
  evaluateActiveWith: PolicyVerdicts['evaluateActiveWith']
  /** Single-use verdicts: the gate issues one for the action under the active policy and consumes it, in one round trip. */
  bindVerdict: PolicyVerdicts['bindVerdict']
  /** The active policy's signatures verified again. */
  activePolicyIntegrity(executor: Executor, tenantId: string): Promise<PolicyIntegrity | undefined>
}

/** The proposing agent as it stands now (a service token until the agent registry exists). */
export interface PaymentsAgents {
  /** Undefined when the agent is not known. */
  standing(executor: Executor, tenantId: string, agentId: string, now: Date): Promise<{ active: boolean; mayPropose: boolean; behaviorHash: string | null } | undefined>
  /** The agent's promotion out of shadow mode, active at `now` (not demoted, not expired); undefined when none. */
  promotionOf(executor: Executor, tenantId: string, agentId: string, now: Date): Promise<PromotionFact | undefined>
  /** Who the agent is, for `expand=agent`: a first-party or service-token agent is internal, a registered one external. */
  identityOf(executor: Executor, tenantId: string, agentId: string): Promise<{ readonly kind: 'internal' | 'external'; readonly display_name: string }>
}

/** The tenant's audit chain, as the gate checks it. */
export interface PaymentsAuditChain {
  /** How long the oldest recorded-but-unlinked event has waited, in seconds; null when none waits. */
  oldestUnlinkedSeconds(executor: Executor, tenantId: string, now: Date): Promise<number | null>
}

/** An execution as the replay investigation shows it. */
export interface PaymentExecution {
  readonly id: string
  readonly rail: string
  readonly status: 'dispatched' | 'in_flight' | 'completed' | 'failed'
  readonly rail_receipt: Record<string, unknown> | null
}

/** The execution module, as the gate and the reads use it (issue 17). */
export interface PaymentsExecution {
  /** The jobs that take a freshly written outbox row to its rail: enqueued in the gate's own commit. */
  dispatchJobs(order: { tenantId: string; outboxId: string }): PendingJob[]
  /** Told after a commit that enqueued dispatch jobs: this process's dispatch worker, if it runs one, fetches now instead of at its next poll. */
  dispatchCommitted(): void
  /** The intent's executions with their rail receipts, oldest first (the replay investigation). */
  executionsOf(executor: Executor, tenantId: string, paymentIntentId: string): Promise<PaymentExecution[]>
  /** The rails registered in this deployment (gate check 11 passes a rail only when registered here and allowlisted in GateSettings). */
  railsRegistered(): ReadonlySet<Rail>
  /**
   * Gate check 12 for an onchain_base intent: whether the source account's session key may sign this
   * amount now (read on chain, with the rail's expiry margin); undefined when no smart account is
   * registered for the account. Reads with the gate's transaction; throws when the chain cannot be asked.
   */
  sessionKeyOf(executor: Executor, tenantId: string, payment: { readonly sourceAccountId: string; readonly amount: string; readonly currency: string }): Promise<{ readonly valid: boolean; readonly reason: string } | undefined>
}

/** A PaymentIntent an agent (or a service token standing for one) proposed, as its listener is told. */
export interface IntentProposedNotice {
  readonly tenantId: string
  /** The principal that proposed (an agent token, a service token, or a first-party run's agent principal). */
  readonly principal: Principal
  /** The proposing agent (payments' created_by_agent_id). */
  readonly agentId: string
  readonly paymentIntentId: string
  readonly policyDecisionId: string
  readonly actionType: string
  readonly status: string
  readonly amount: string
  readonly currency: string
  readonly sourceAccountId: string
  readonly destinationCounterpartyId: string
  readonly invoiceId: string | null
  readonly obligationId: string | null
  readonly evidenceIds: readonly string[]
  /** The proposer's stated confidence; null when it stated none. */
  readonly confidence: number | null
  /** The mean extraction confidence of the cited parsed rows; null without evidence. */
  readonly evidenceScore: number | null
  readonly createdAt: Date
}

/**
 * Who else is told, in the proposing transaction, that an agent proposed a PaymentIntent (issue 20: the
 * agents module records it as an agent proposal, so the proposals read model lists it); what it writes
 * commits with the proposal. Composition plugs it in; none by default.
 */
export type IntentProposedListener = (tx: Tx, notice: IntentProposedNotice) => Promise<void>
