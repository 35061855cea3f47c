/**
 * What people (and the agents module's halt) do to a PaymentIntent after it is proposed: approve, reject,
 * pause and cancel. Each runs in one transaction holding the intent's row lock, so concurrent decisions
 * on one intent happen one after the other and an approval is never counted twice (the unique index on
 * payment_approvals backs that up). A decision is recorded in the audit chain before the status changes:
 * its audit event is committed first in the transaction, and the approval row cites it. A decision the
 * member checks refuse (403 payment_intent_approval_invalid) is audited too, in a transaction of its own
 * once the refused one has rolled back: `payment_intent.approval_refused`, naming the move and the reason.
 */
import type { Logger } from 'pino'
import type { Clock } from '../../kernel/clock.ts'
import { auditedBy, requirePrincipal, type CommandContext } from '../../kernel/context.ts'
import type { AuditActor } from '../../kernel/audit-record.ts'
import { AppError } from '../../kernel/errors.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { Principal } from '../../kernel/principal.ts'
import type { CommandResult, CommandRunner, CommandWork, PendingEvent } from '../../platform/commands/command.ts'
import type { Database, Executor, Tx } from '../../platform/db/database.ts'
import { checkApproval, checkMemberAuthority, type Approver } from './domain/approvals.ts'
import { canMove, statusAfter, type PaymentIntentMove, type PaymentIntentStatus } from './domain/intents.ts'
import type { ApprovalRow, PaymentIntentRow, PaymentsStore } from './payments.store.ts'
import type { MemberIdentity, PaymentsLedger, PaymentsMembers } from './ports.ts'
import { memberIsPayee } from './payee.ts'
import { proposingAgentOf } from './propose.service.ts'
import { intentEventPayload, loadIntentView, type PaymentIntentView } from './payments.views.ts'

/** A rejection's reason, at most (spec, Limits). */
export const rejectionReasonCharactersMax = 500

export interface DecideDeps {
  readonly db: Database
  readonly commands: CommandRunner
  readonly store: PaymentsStore
  readonly ledger: PaymentsLedger
  readonly members: PaymentsMembers
  readonly ids: IdSource
  readonly clock: Clock
  readonly logger: Logger
}

export function createDecideService(deps: DecideDeps) {
  const { db, commands, store, ledger, members, ids, clock } = deps

  /**
   * Audits a decision the member checks refused (payment_intent.approval_refused) in its own transaction,
   * the refused command's having rolled back; other failures are not refusals and record nothing.
   * Never throws: the caller rethrows the refusal, which the member is owed even when its record could not
   * be written (that failure is logged with the refusal, never turned into a 500).
   */
  async function recordRefusal(context: CommandContext, paymentIntentId: string, move: RefusableMove, error: unknown): Promise<void> {
    if (!(error instanceof AppError) || error.code !== 'payment_intent_approval_invalid' || context.principal === undefined) return
    const tenantId = context.principal.tenantId
    await writeRefusal(context, tenantId, paymentIntentId, move, error).catch((failure: unknown) =>
      deps.logger.error({ err: failure, requestId: context.requestId, tenantId, paymentIntentId, move, reason: error.details?.reason }, 'a refused payment intent decision could not be audited'),
    )
  }

  async function writeRefusal(context: CommandContext, tenantId: string, paymentIntentId: string, move: RefusableMove, error: AppError): Promise<void> {
    await db.transaction((tx) =>
      commands.commit(tx, tenantId, {
        audit: [
          auditedBy(context, {
            layer: 'execution',
            action: 'payment_intent.approval_refused',
            entity: { type: 'payment_intent', id: paymentIntentId },
            inputs: { move },
            outputs: { reason: typeof error.details?.reason === 'string' ? error.details.reason : null },
          }),
        ],
      }),
    )
  }

  /** Runs a member's decision; a refusal of it is audited before it is rethrown. */
  async function auditingRefusal<T>(context: CommandContext, paymentIntentId: string, move: RefusableMove, decide: () => Promise<T>): Promise<T> {
    try {
      return await decide()
    } catch (error) {
      await recordRefusal(context, paymentIntentId, move, error)
      throw error
    }
  }

  async function lockedIntent(tx: Tx, tenantId: string, id: string, move: PaymentIntentMove): Promise<PaymentIntentRow> {
    const intent = await store.findIntent(tx, tenantId, id, { forUpdate: true })
    if (intent === undefined) throw new AppError('payment_intent_not_found', 'No such payment intent.', { payment_intent_id: id })
    if (!canMove(intent.status, move)) {
      throw new AppError('payment_intent_invalid_state', `A payment intent that is ${intent.status} cannot be ${pastTense[move]}.`, { status: intent.status, move })
    }
    return intent
  }

  async function memberOf(executor: Executor, principal: Principal): Promise<MemberIdentity | undefined> {
    return principal.type === 'user' ? members.findMemberOfUser(executor, principal.tenantId, principal.id) : undefined
  }

  function refused(check: { reason: string; message: string }): AppError {
    return new AppError('payment_intent_approval_invalid', check.message, { reason: check.reason })
  }

  /** Records a decision by a member: its audit event first, then the approval row citing it. */
  async function recordDecision(
    tx: Tx,
    context: CommandContext,
    intent: PaymentIntentRow,
    member: MemberIdentity,
    decision: ApprovalRow['decision'],
    reason: string | null,
  ): Promise<ApprovalRow> {
    const id = ids.newId('paymentApproval')
    const [auditEventId] = await commands.commit(tx, intent.tenantId, {
      audit: [
        auditedBy(context, {
          layer: 'execution',
          action: decision === 'approve' ? 'payment_intent.approval_recorded' : 'payment_intent.rejection_recorded',
          entity: { type: 'payment_intent', id: intent.id },
          inputs: { member_id: member.memberId, ...(reason === null ? {} : { reason_length: reason.length }) },
          outputs: { approval_id: id, status_before: intent.status },
        }),
      ],
    })
    const row: ApprovalRow = {
      id,
      tenantId: intent.tenantId,
      paymentIntentId: intent.id,
      decision,
      memberId: member.memberId,
      userId: member.userId,
      reason,
      auditEventId: auditEventId ?? null,
      createdAt: clock.now(),
    }
    await store.insertApproval(tx, row)
    return row
  }

  async function moveTo(tx: Tx, intent: PaymentIntentRow, status: PaymentIntentStatus, values: { rejectionReason?: string | null } = {}): Promise<PaymentIntentRow> {
    const updatedAt = clock.now()
    await store.updateIntent(tx, intent.tenantId, intent.id, { status, updatedAt, ...values })
    return { ...intent, status, updatedAt, ...values }
  }

  function statusAudit(context: CommandContext, intent: PaymentIntentRow, from: PaymentIntentStatus, action: string, extra: Record<string, unknown> = {}) {
    return auditedBy(context, {
      layer: 'execution',
      action,
      entity: { type: 'payment_intent', id: intent.id },
      inputs: {},
      outputs: { status_before: from, status: intent.status, ...extra },
    })
  }

  /** Approve's work in the caller's transaction: locks the intent, checks the member, records the approval, moves the status. */
  async function approveIn(tx: Tx, context: CommandContext, input: { id: string }): Promise<CommandWork<PaymentIntentView>> {
    const principal = requirePrincipal(context)
    const tenantId = principal.tenantId
    const intent = await lockedIntent(tx, tenantId, input.id, 'approve')
    const member = await memberOf(tx, principal)
    const approvals = await store.approvalsOf(tx, tenantId, intent.id)
    const check = checkApproval({
      approver: member === undefined ? undefined : approverOf(member),
      intent: { actionType: intent.actionType, amount: intent.amount, currency: intent.currency },
      approverIsPayee: member === undefined ? false : await memberIsPayee({ ledger, members }, tx, tenantId, member, intent.destinationCounterpartyId),
      approvedBy: approvals.filter((approval) => approval.decision === 'approve').map((approval) => approval.memberId),
      approvalsRequired: intent.approvalsRequired,
    })
    if (!check.ok) throw refused(check)
    const approval = await recordDecision(tx, context, intent, member!, 'approve', null)
    const from = intent.status
    const moved = await moveTo(tx, intent, check.reachesQuorum ? 'approved' : 'awaiting_second_approval')
    const payload = { ...intentEventPayload(moved), approval_id: approval.id, approved_by_member_id: approval.memberId }
    const events: PendingEvent[] = check.reachesQuorum
      ? [{ type: 'payment_intent.approved', payload }]
      : [
          { type: 'payment_intent.awaiting_second_approval', payload },
          { type: 'proposal.awaiting_second_approval', payload: { ...payload, proposal_type: 'payment' } },
        ]
    return {
      outcome: await loadIntentView(tx, store, moved),
      audit: [statusAudit(context, moved, from, check.reachesQuorum ? 'payment_intent.approved' : 'payment_intent.awaiting_second_approval', { approval_id: approval.id })],
      events,
    }
  }

  /** Reject's work in the caller's transaction: locks the intent, checks the member, records the rejection, moves the status. */
  async function rejectIn(tx: Tx, context: CommandContext, input: { id: string; reason?: string | undefined }): Promise<CommandWork<PaymentIntentView>> {
    const principal = requirePrincipal(context)
    const tenantId = principal.tenantId
    const intent = await lockedIntent(tx, tenantId, input.id, 'reject')
    const member = await memberOf(tx, principal)
    const check = checkMemberAuthority(member === undefined ? undefined : approverOf(member), intent.actionType)
    if (!check.ok) throw refused(check)
    const reason = input.reason ?? null
    const rejection = await recordDecision(tx, context, intent, member!, 'reject', reason)
    const from = intent.status
    const moved = await moveTo(tx, intent, 'rejected', { rejectionReason: reason ?? 'rejected by an approver' })
    return {
      outcome: await loadIntentView(tx, store, moved),
      audit: [statusAudit(context, moved, from, 'payment_intent.rejected', { approval_id: rejection.id })],
      events: [{ type: 'payment_intent.rejected', payload: { ...intentEventPayload(moved), rejected_by_member_id: rejection.memberId, reason } }],
    }
  }

  return {
    /**
     * Approves (no body). Locks the intent; checks the member in the spec's order (domain/approvals.ts);
     * records the approval (audited payment_intent.approval_recorded, before the status changes); then
     * approved when the distinct approvals reach approvals_required, else awaiting_second_approval.
     * Emits payment_intent.approved, or payment_intent.awaiting_second_approval and
     * proposal.awaiting_second_approval. Takes an Idempotency-Key.
     */
    async approve(context: CommandContext, input: { id: string }): Promise<CommandResult<PaymentIntentView>> {
      const principal = requirePrincipal(context)
      return auditingRefusal(context, input.id, 'approve', () => commands.run(context, { name: 'payment_intent.approve', tenantId: principal.tenantId, input }, (tx) => approveIn(tx, context, input)))
    },

    /**
     * The approval inside the caller's transaction (the proposals module's decide): the same checks, audit
     * events and business events as approve, returned for the caller's commit.
     */
    approveIn,

    /** The rejection inside the caller's transaction (the proposals module's decide), as reject. */
    rejectIn,

    /**
     * For a caller that ran approveIn or rejectIn in its own transaction (the proposals module's decide),
     * once that transaction has rolled back: audits the failure if it was a refusal by the member checks,
     * as approve and reject do.
     */
    recordRefusal,

    /** Runs another decision of a member (the gate's resume) with its refusal audited as these are. */
    auditingRefusal,

    /**
     * Rejects (optional reason, at most 500 characters). Locks the intent; the member must be an active
     * approver whose domains cover it; records the rejection (audited before the status changes), then
     * rejected. Emits payment_intent.rejected. Takes an Idempotency-Key.
     */
    async reject(context: CommandContext, input: { id: string; reason?: string | undefined }): Promise<CommandResult<PaymentIntentView>> {
      const principal = requirePrincipal(context)
      return auditingRefusal(context, input.id, 'reject', () => commands.run(context, { name: 'payment_intent.reject', tenantId: principal.tenantId, input }, (tx) => rejectIn(tx, context, input)))
    },

    /** Pauses an approved intent (no body): locks it, audits payment_intent.paused. Members with authority over it only. Takes an Idempotency-Key. */
    async pause(context: CommandContext, input: { id: string }): Promise<CommandResult<PaymentIntentView>> {
      return memberMove(context, input, 'pause', 'payment_intent.paused')
    },

    /**
     * Cancels an intent before approval (proposed, pending_approval, awaiting_second_approval) or a paused
     * one: by a member with authority over it, or by the agent that proposed it (the agent protocol's
     * payment_intent.cancel tool). Audits payment_intent.cancelled. Takes an Idempotency-Key.
     */
    async cancel(context: CommandContext, input: { id: string }): Promise<CommandResult<PaymentIntentView>> {
      return memberMove(context, input, 'cancel', 'payment_intent.cancelled')
    },

    /**
     * Pauses every approved intent the agent proposed (the agents module's halt): locks them, pauses each,
     * audits one payment_intent.paused per intent as `actor`. Runs in the caller's transaction; returns
     * the ids paused.
     */
    async pauseIntentsOfAgent(tx: Tx, tenantId: string, agentId: string, actor: AuditActor): Promise<string[]> {
      const intents = await store.lockIntentsOfAgent(tx, tenantId, agentId, ['approved'])
      const paused: string[] = []
      for (const intent of intents) {
        const moved = await moveTo(tx, intent, 'paused')
        await commands.commit(tx, tenantId, {
          audit: [
            {
              tenantId,
              layer: 'execution',
              actor,
              action: 'payment_intent.paused',
              entity: { type: 'payment_intent', id: intent.id },
              inputs: { agent_id: agentId, cause: 'agent_halted' },
              outputs: { status_before: intent.status, status: moved.status },
            },
          ],
        })
        paused.push(intent.id)
      }
      return paused
    },
  }

  async function memberMove(context: CommandContext, input: { id: string }, move: 'pause' | 'cancel', action: string): Promise<CommandResult<PaymentIntentView>> {
    const principal = requirePrincipal(context)
    const tenantId = principal.tenantId
    return auditingRefusal(context, input.id, move, () => commands.run(context, { name: `payment_intent.${move}`, tenantId, input }, async (tx) => {
      const intent = await lockedIntent(tx, tenantId, input.id, move)
      const proposer = proposingAgentOf(principal)
      const ownProposal = move === 'cancel' && proposer !== null && proposer === intent.createdByAgentId
      if (!ownProposal) {
        const member = await memberOf(tx, principal)
        const check = checkMemberAuthority(member === undefined ? undefined : approverOf(member), intent.actionType)
        if (!check.ok) throw refused(check)
      }
      const from = intent.status
      const moved = await moveTo(tx, intent, statusAfter(move)!)
      return { outcome: await loadIntentView(tx, store, moved), audit: [statusAudit(context, moved, from, action)] }
    }))
  }
}

/** The member's moves whose refusal is audited. */
export type RefusableMove = 'approve' | 'reject' | 'pause' | 'cancel' | 'resume'

const pastTense: Readonly<Record<PaymentIntentMove, string>> = {
  approve: 'approved',
  reject: 'rejected',
  execute: 'executed',
  pause: 'paused',
  resume: 'resumed',
  cancel: 'cancelled',
  rail_succeeded: 'marked executed',
  rail_failed: 'marked failed',
  rail_unknown: 'parked for reconciliation',
}

function approverOf(member: MemberIdentity): Approver {
  return { memberId: member.memberId, status: member.status, role: member.role, approvalDomains: member.approvalDomains, approvalLimit: member.approvalLimit }
}

export type DecideService = ReturnType<typeof createDecideService>
