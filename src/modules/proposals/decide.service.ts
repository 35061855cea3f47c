/**
 * Deciding on a proposal (spec, "Decide rules"; POST /v1/proposals/{id}/decide and the agent protocol's
 * proposals.decide tool).
 *
 * The caller must be a user principal (an agent, API key or service token is 403 actor_unresolved) holding
 * execution:read or payment_intent:approve. Every decision runs in one transaction under a lock on the
 * proposal:
 * - a money proposal's approve and reject are the payments module's (approveIn / rejectIn, in this
 *   transaction): the member checks in the spec's order (active member, admin or approver role, approval
 *   domain, per-item limit, not the payee, a distinct second approver; a repeated approval by the same
 *   member is 403 payment_intent_approval_invalid second_approval_required), the decision audited before
 *   the status moves, and its events; approval authorizes the internal settlement path and dispatches no
 *   rail. acknowledge and undo do not apply to money (409 proposal_decision_unavailable);
 * - a finding's acknowledge, reject and undo are recorded here: the member must be active, an owner, admin
 *   or approver whose domains cover the finding (403 actor_unresolved with details.reason), and the
 *   decision must be among the finding's available decisions (409 proposal_decision_unavailable); undo
 *   reverses the acknowledge or reject in force.
 * The decision's audit event (proposal.decision_recorded) is committed in the transaction before its row,
 * which cites it. Emits proposal.decided when the proposal reaches approved, rejected, acknowledged or
 * undone, and proposal.awaiting_second_approval (naming the proposal) when a first approval waits for a
 * second member. A money decision the member checks refuse is audited by the payments module
 * (payment_intent.approval_refused) once this transaction has rolled back. Takes an Idempotency-Key.
 */
import type { AuditRecord } from '../../kernel/audit-record.ts'
import type { Clock } from '../../kernel/clock.ts'
import { auditedBy, requirePrincipal, type CommandContext } from '../../kernel/context.ts'
import { AppError } from '../../kernel/errors.ts'
import type { IdSource } from '../../kernel/ids.ts'
import { hasScopes } from '../../kernel/principal.ts'
import type { CommandRunner, PendingEvent } from '../../platform/commands/command.ts'
import { availableDecisionsOf, checkFindingAuthority, isMoneyProposal, statusOf, typeOf, undoTarget } from './domain/read-model.ts'
import type { ProposalDecision, ProposalStatus } from './domain/types.ts'
import type { ProposalsStore } from './proposals.store.pg.ts'
import type { ProposalsAgents, ProposalsMembers, ProposalsPayments } from './ports.ts'
import { notFound, recordedOf, storedOf, type ProposalView, type ReadService } from './read.service.ts'

export interface DecideInput {
  readonly id: string
  readonly decision: ProposalDecision
  readonly reason?: string | undefined
}

export interface DecisionRecord {
  readonly id: string
  readonly proposal_id: string
  readonly decision: ProposalDecision
  readonly status_before: ProposalStatus
  readonly status: ProposalStatus
  readonly undoes_decision_id: string | null
  readonly created_at: string
}

/** What a money proposal's status reads as after the payments module moved its intent. */
const intentStatusAfter: Readonly<Record<string, ProposalStatus>> = {
  approved: 'approved',
  awaiting_second_approval: 'awaiting_second_approval',
  rejected: 'rejected',
  pending_approval: 'pending_approval',
}
/** Statuses a decision settles: proposal.decided fires when a decision reaches one. */
const decidedStatuses: ReadonlySet<ProposalStatus> = new Set(['approved', 'rejected', 'acknowledged', 'undone'])

const findingStatusAfter: Readonly<Record<Exclude<ProposalDecision, 'approve'>, ProposalStatus>> = { acknowledge: 'acknowledged', reject: 'rejected', undo: 'undone' }

function unavailable(decision: ProposalDecision, status: string, available: readonly string[], why: string): AppError {
  return new AppError('proposal_decision_unavailable', why, { decision, status, available_decisions: available })
}

export function createDecideService(deps: {
  commands: CommandRunner
  store: ProposalsStore
  agents: ProposalsAgents
  payments: ProposalsPayments
  members: ProposalsMembers
  read: ReadService
  ids: IdSource
  clock: Clock
}) {
  const { commands, store, agents, payments, members, read, ids, clock } = deps

  return {
    /** Decides on the proposal (see above); answers the decision recorded and the proposal as it reads now. */
    async decide(context: CommandContext, input: DecideInput): Promise<{ outcome: { decision: DecisionRecord; proposal: ProposalView }; replayed: boolean }> {
      const principal = requirePrincipal(context)
      const tenantId = principal.tenantId
      if (principal.type !== 'user') {
        throw new AppError('actor_unresolved', 'Only a person (a member of the tenant) decides on proposals; agents, API keys and service tokens cannot.', { reason: 'actor_unresolved', principal_type: principal.type })
      }
      if (!hasScopes(principal, ['execution:read']) && !hasScopes(principal, ['payment_intent:approve'])) {
        throw new AppError('auth_scope_insufficient', 'Deciding needs execution:read or payment_intent:approve.', { required_any: ['execution:read', 'payment_intent:approve'] })
      }
      // The agent proposal itself never changes once stored; its decisions are read under the lock below.
      const record = await agents.find(tenantId, input.id)
      if (record === undefined) throw notFound(input.id)
      const stored = storedOf(record)
      const money = isMoneyProposal(stored)
      const decided = commands.run(context, { name: 'proposal.decide', tenantId, input }, async (tx) => {
        await store.lockProposal(tx, tenantId, record.id)
        const decisions = (await store.decisionsOf(tx, tenantId, [record.id])).get(record.id) ?? []
        const recorded = recordedOf(decisions)
        const id = ids.newId('proposalDecision')
        const now = clock.now()
        const type = typeOf(stored).type ?? record.proposalType
        let statusBefore: ProposalStatus
        let status: ProposalStatus
        let undoes: string | null = null
        let memberId: string
        const audit: AuditRecord[] = []
        const events: PendingEvent[] = []
        if (money) {
          if (record.paymentIntentId === null) {
            throw unavailable(input.decision, 'rejected', [], 'The payment was refused when it was proposed (it never became a PaymentIntent): no decision is open on it.')
          }
          if (input.decision !== 'approve' && input.decision !== 'reject') {
            throw unavailable(input.decision, 'money', ['approve', 'reject'], 'A money proposal is approved or rejected; acknowledge and undo apply to findings only (a person pauses or cancels an approved payment instead).')
          }
          const work = input.decision === 'approve' ? await payments.approveIn(tx, context, record.paymentIntentId!) : await payments.rejectIn(tx, context, record.paymentIntentId!, input.reason)
          const member = await members.findMemberOfUser(tx, tenantId, principal.id)
          memberId = member!.memberId
          const before = String((work.audit?.[0]?.outputs as Record<string, unknown> | undefined)?.['status_before'] ?? 'unknown')
          statusBefore = statusOf(stored, { status: before, actionType: '', amount: '', currency: '', destinationCounterpartyId: '', approvalsRequired: 0, approvals: 0 }, recorded)
          status = intentStatusAfter[work.outcome!.status] ?? 'unknown'
          audit.push(...(work.audit ?? []))
          for (const event of work.events ?? []) {
            events.push(event.type === 'proposal.awaiting_second_approval' ? { ...event, payload: { ...event.payload, proposal_id: record.id, agent_id: record.agent.id } } : event)
          }
        } else {
          const member = await members.findMemberOfUser(tx, tenantId, principal.id)
          const check = checkFindingAuthority(member, { type, actionType: record.actionType })
          if (!check.ok) throw new AppError('actor_unresolved', check.message, { reason: check.reason })
          memberId = member!.memberId
          statusBefore = statusOf(stored, undefined, recorded)
          const available = availableDecisionsOf(false, statusBefore).map((option) => option.id)
          if (input.decision === 'approve') throw unavailable(input.decision, statusBefore, available, 'A finding moves no money: it is acknowledged or rejected, not approved.')
          if (!available.includes(input.decision)) {
            throw unavailable(input.decision, statusBefore, available, input.decision === 'undo' ? 'There is no acknowledgement or rejection in force to undo.' : `The finding is ${statusBefore}: undo its decision first.`)
          }
          if (input.decision === 'undo') {
            const target = undoTarget(false, recorded)
            if (target === undefined) throw unavailable(input.decision, statusBefore, available, 'There is no acknowledgement or rejection in force to undo.')
            undoes = target.id
          }
          status = findingStatusAfter[input.decision]
        }
        // The decision's audit event (with proposal.decided, which cites it) first, then its row citing it:
        // a finding's status is its latest row, so the audit log has the decision before the status moves.
        const decided: PendingEvent[] = decidedStatuses.has(status)
          ? [
              {
                type: 'proposal.decided',
                payload: { proposal_id: record.id, decision_id: id, decision: input.decision, status, status_before: statusBefore, proposal_type: type, agent_id: record.agent.id, payment_intent_id: record.paymentIntentId, undoes_decision_id: undoes },
              },
            ]
          : []
        const [auditEventId] = await commands.commit(tx, tenantId, {
          audit: [
            auditedBy(context, {
              layer: 'agent',
              action: 'proposal.decision_recorded',
              entity: { type: 'proposal', id: record.id },
              inputs: { decision: input.decision, member_id: memberId, ...(input.reason === undefined ? {} : { reason_length: input.reason.length }), undoes_decision_id: undoes },
              outputs: { decision_id: id, status_before: statusBefore, status, payment_intent_id: record.paymentIntentId },
            }),
          ],
          events: decided,
        })
        await store.insertDecision(tx, {
          tenantId,
          id,
          proposalId: record.id,
          sequence: decisions.length + 1,
          decision: input.decision,
          memberId,
          userId: principal.id,
          reason: input.reason ?? null,
          paymentIntentId: record.paymentIntentId,
          statusBefore,
          statusAfter: status,
          undoesDecisionId: undoes,
          auditEventId: auditEventId ?? null,
          createdAt: now,
        })
        const decision: DecisionRecord = { id, proposal_id: record.id, decision: input.decision, status_before: statusBefore, status, undoes_decision_id: undoes, created_at: now.toISOString() }
        return { outcome: decision, audit, events }
      })
      const paymentIntentId = record.paymentIntentId
      const { outcome, replayed } =
        money && paymentIntentId !== null && (input.decision === 'approve' || input.decision === 'reject')
          ? await decided.catch(async (error: unknown) => {
              // A refusal by the payments module's member checks is audited, as on its own routes.
              await payments.recordRefusal(context, paymentIntentId, input.decision as 'approve' | 'reject', error)
              throw error
            })
          : await decided
      // The proposal as it reads now (after a replay too: its status may have moved since).
      return { outcome: { decision: outcome, proposal: await read.viewOf(tenantId, record.id) }, replayed }
    },
  }
}

export type DecideService = ReturnType<typeof createDecideService>
