/**
 * What the payments use cases need of storage. The Drizzle implementation (payments.store.pg.ts) touches
 * only this module's tables, and every statement names the tenant.
 */
import type { Executor, Tx } from '../../platform/db/database.ts'
import type { PaymentActionType, PaymentIntentStatus } from './domain/intents.ts'
import type { paymentApprovals, paymentGateRuns, paymentIntents, paymentOutbox, paymentPolicyDecisions, paymentReservations } from './payments.tables.ts'

export type PaymentIntentRow = typeof paymentIntents.$inferSelect
export type PolicyDecisionRow = typeof paymentPolicyDecisions.$inferSelect
export type ApprovalRow = typeof paymentApprovals.$inferSelect
export type GateRunRow = typeof paymentGateRuns.$inferSelect
export type OutboxRow = typeof paymentOutbox.$inferSelect
export type ReservationRow = typeof paymentReservations.$inferSelect

/** An outbox row and the fields of its intent a dispatch needs (the amount as the database's text). */
export interface DispatchRow {
  readonly tenantId: string
  readonly outboxId: string
  readonly outboxStatus: OutboxRow['status']
  readonly rail: string
  readonly idempotencyKey: string
  readonly intent: Pick<PaymentIntentRow, 'id' | 'status' | 'actionType' | 'amount' | 'currency' | 'sourceAccountId' | 'destinationCounterpartyId' | 'createdByAgentId'> | null
}

export interface IntentListFilter {
  readonly status?: PaymentIntentStatus | undefined
  readonly actionType?: PaymentActionType | undefined
  readonly agentId?: string | undefined
  readonly createdFrom?: Date | undefined
  readonly createdTo?: Date | undefined
  /** Keyset position: rows strictly before this (created_at, id), newest first. */
  readonly before?: { readonly createdAt: Date; readonly id: string } | undefined
  readonly limit: number
}

/** The intent the gate asks `gateFacts` about. */
export interface GateFactsIntent {
  readonly id: string
  readonly sourceAccountId: string
  readonly destinationCounterpartyId: string
  readonly amount: string
  readonly currency: string
  readonly createdByAgentId: string | null
  readonly invoiceId: string | null
}

export interface GateFacts {
  readonly reservedByOthers: string
  readonly recentSamePayments: number
  readonly alreadyDispatched: boolean
  readonly agentSpent: string
  /** What other intents paying the same invoice have in flight or paid since `samePayments` ('0' without an invoice). */
  readonly invoicePaidByOthers: string
}

/** An intent that is paying (or may pay) an invoice: open, in flight, or executed recently. */
export interface InvoiceCommitment {
  readonly id: string
  readonly status: PaymentIntentStatus
  readonly amount: string
}

export interface PaymentsStore {
  insertIntent(tx: Tx, row: PaymentIntentRow): Promise<void>
  insertDecision(tx: Tx, row: PolicyDecisionRow): Promise<void>
  /** The intent; with `forUpdate`, its row locked until the transaction ends. */
  findIntent(executor: Executor, tenantId: string, id: string, options?: { forUpdate?: boolean }): Promise<PaymentIntentRow | undefined>
  findDecision(executor: Executor, tenantId: string, id: string): Promise<PolicyDecisionRow | undefined>
  listIntents(executor: Executor, tenantId: string, filter: IntentListFilter): Promise<PaymentIntentRow[]>
  /**
   * In one statement: the latest intent of this proposal key created since `duplicateSince`, and what the
   * agent proposed in the currency since `windowSince` (sum and count), intents in `ignoring` left out of both.
   */
  proposalFacts(
    executor: Executor,
    tenantId: string,
    facts: { proposalKey: string; duplicateSince: Date; agentId: string; currency: string; windowSince: Date; ignoring: readonly PaymentIntentStatus[] },
  ): Promise<{ duplicate: { id: string; status: PaymentIntentStatus } | undefined; spent: { total: string; count: number } }>
  /** Serialises proposals of one key in the caller's transaction (a transaction-scoped advisory lock). */
  lockProposalKey(tx: Tx, tenantId: string, proposalKey: string): Promise<void>
  /** Serialises proposals and executes paying one invoice in the caller's transaction (a transaction-scoped advisory lock). */
  lockInvoice(tx: Tx, tenantId: string, invoiceId: string): Promise<void>
  /**
   * The intents paying the invoice in `currency` that still count against what it has outstanding: those
   * awaiting a decision, approved, paused, dispatching or reconciling, and those executed since
   * `executedSince` (the Ledger has not necessarily recorded their payment yet). Oldest first.
   */
  invoiceCommitments(executor: Executor, tenantId: string, invoiceId: string, currency: string, executedSince: Date): Promise<InvoiceCommitment[]>
  updateIntent(tx: Tx, tenantId: string, id: string, values: Partial<Pick<PaymentIntentRow, 'status' | 'rejectionReason' | 'updatedAt'>>): Promise<void>
  /** Moves the intent to `status` at `at` (the gate's and dispatch's one-column move, one fixed statement). */
  moveIntent(tx: Tx, tenantId: string, id: string, status: PaymentIntentRow['status'], at: Date): Promise<void>
  /** Ids of the agent's intents in these statuses, locked, oldest first. */
  lockIntentsOfAgent(tx: Tx, tenantId: string, agentId: string, statuses: readonly PaymentIntentStatus[]): Promise<PaymentIntentRow[]>
  insertApproval(tx: Tx, row: ApprovalRow): Promise<void>
  insertGateRun(tx: Tx, row: GateRunRow): Promise<void>
  /** The intent's gate runs, oldest first (its proof shows the checks of the one its latest gate event names). */
  gateRunsOf(executor: Executor, tenantId: string, paymentIntentId: string): Promise<GateRunRow[]>
  insertOutbox(tx: Tx, row: OutboxRow): Promise<void>
  /** An outbox row; with `forUpdate`, locked until the transaction ends (the execution worker's claim). */
  /** Outbox rows no worker has claimed, created before `createdBefore`, oldest first (every tenant: the sweeper's probe). */
  pendingOutbox(executor: Executor, createdBefore: Date, limit: number): Promise<Array<Pick<OutboxRow, 'tenantId' | 'id'>>>
  updateOutboxStatus(tx: Tx, tenantId: string, id: string, status: OutboxRow['status']): Promise<void>
  /**
   * The outbox rows named (each a tenant and an outbox id, any tenants) with what a rail needs of their
   * intents, in (tenant, id) order; with `forUpdate` the outbox rows are locked in that order. Rows not
   * found are left out; `intent` is null only if the row's intent is missing (a broken foreign key).
   */
  findDispatchRows(executor: Executor, keys: ReadonlyArray<{ tenantId: string; outboxId: string }>, options?: { forUpdate?: boolean }): Promise<DispatchRow[]>
  /** Marks the outbox rows named `claimed` (one statement). */
  claimOutboxes(tx: Tx, keys: ReadonlyArray<{ tenantId: string; outboxId: string }>): Promise<void>
  /** Moves the intent's active reservation, if it has one; answers whether it did. */
  settleReservation(tx: Tx, tenantId: string, paymentIntentId: string, status: 'consumed' | 'released', now: Date): Promise<boolean>
  /** Appends a rail receipt's id to the intent's execution_receipt_ids (once). */
  appendReceipt(tx: Tx, tenantId: string, paymentIntentId: string, receiptId: string, now: Date): Promise<void>
  insertReservation(tx: Tx, row: ReservationRow): Promise<void>
  /** Serialises reservations on one account in the caller's transaction (a transaction-scoped advisory lock). */
  lockAccount(tx: Tx, tenantId: string, accountId: string): Promise<void>
  /**
   * What the gate reads of this module's own tables about an intent, in one statement: the sum of the
   * source account's active reservations in the currency other than the intent's own; how many other
   * intents to the same destination of the same amount and currency were dispatched, are executing or
   * executed since `samePaymentsSince`; whether the intent has an outbox row (it was dispatched); and
   * what the proposing agent's live payments in the currency (dispatching, executed, reconciling) took
   * since `agentSince`, this intent excluded ('0' without an agent); and what other intents paying the same
   * invoice in the currency have dispatching, reconciling or executed since `samePaymentsSince`.
   */
  gateFacts(executor: Executor, tenantId: string, intent: GateFactsIntent, since: { samePayments: Date; agent: Date }): Promise<GateFacts>
  /** The agent's shadow record: shadow runs, intents approved and rejected, and shadow runs whose gate did not pass. */
  shadowCounts(executor: Executor, tenantId: string, agentId: string): Promise<{ shadowRuns: number; approved: number; rejected: number; gateWouldFail: number }>
  /** The tenant's stored policy decisions among `ids`, with their outcome (ids of other tenants or none are left out). */
  decisionOutcomes(executor: Executor, tenantId: string, ids: readonly string[]): Promise<Array<{ id: string; outcome: string }>>
  /** Every decision recorded on the intent, oldest first. */
  approvalsOf(executor: Executor, tenantId: string, paymentIntentId: string): Promise<ApprovalRow[]>
}
