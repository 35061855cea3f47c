/**
 * The section 6 gate as a command (POST …/execute and POST …/resume): read one consistent snapshot in
 * the command's transaction, run the 23 pure checks (domain/gate.ts), record the run, and only when every
 * check passes move the intent — to dispatching with its outbox row and reservation (execute), or back to
 * approved (resume). A failed gate changes nothing about the intent: the run and its audit event are
 * committed, and the route answers 409 payment_intent_gate_failed naming the first failed check.
 */
import type { Clock } from '../../kernel/clock.ts'
import { auditedBy, requirePrincipal, type CommandContext } from '../../kernel/context.ts'
import { digestOf } from '../../kernel/audit-record.ts'
import { AppError } from '../../kernel/errors.ts'
import { sha256Hex } from '../../kernel/hashing.ts'
import { decimalSubtract } from '../../kernel/money.ts'
import type { IdSource } from '../../kernel/ids.ts'
import { formatAmount } from '../../kernel/money.ts'
import type { CommandResult, CommandRunner, CommandWork } from '../../platform/commands/command.ts'
import type { Tx } from '../../platform/db/database.ts'
import { actionHash, type PolicyAction } from '../policy/index.ts'
import { checkMemberAuthority } from './domain/approvals.ts'
import { canMove, type PaymentIntentStatus } from './domain/intents.ts'
import { isShadowRun, ledgerSnapshotOf, railOf, reservationAmount, runGate, type GateCheckResult, type GateSettings, type GateSnapshot, type Rail } from './domain/gate.ts'
import { payeeKeysOf } from './payee.ts'
import type { PaymentIntentRow, PaymentsStore } from './payments.store.ts'
import { intentEventPayload } from './payments.views.ts'
import type { PaymentsAgents, PaymentsAuditChain, PaymentsExecution, PaymentsLedger, PaymentsMembers, PaymentsPolicy } from './ports.ts'

export type GateOutcome =
  | {
      readonly passed: true
      readonly payment_intent_id: string
      readonly status: 'dispatching' | 'approved' | 'shadow_completed'
      readonly outbox_id: string | null
      readonly execution_id: null
      readonly rail: Rail
      readonly gate_run_id: string
      /** A shadow run (an un-promoted agent's money proposal): what the gate said, though nothing is sent either way. */
      readonly shadow?: { readonly gate_passed: boolean; readonly failed_checks: readonly string[] }
    }
  | { readonly passed: false; readonly payment_intent_id: string; readonly gate_run_id: string; readonly checks: readonly GateCheckResult[] }

/** Statuses of an intent already handed to a rail, or run as a shadow: executing it again is action_already_executed. */
const alreadyMoving: ReadonlySet<PaymentIntentStatus> = new Set(['dispatching', 'reconciling', 'executed', 'shadow_completed'])

export interface GateDeps {
  readonly commands: CommandRunner
  readonly store: PaymentsStore
  readonly ledger: PaymentsLedger
  readonly members: PaymentsMembers
  readonly policy: PaymentsPolicy
  readonly agents: PaymentsAgents
  readonly auditChain: PaymentsAuditChain
  readonly execution: PaymentsExecution
  readonly ids: IdSource
  readonly clock: Clock
  readonly settings: GateSettings
}

/** The HTTP error a failed gate is: the first failed check named, every failed check listed. */
export function gateFailure(outcome: Extract<GateOutcome, { passed: false }>): AppError {
  const failed = outcome.checks.filter((check) => !check.passed)
  const first = failed[0]!
  return new AppError('payment_intent_gate_failed', `The pre-execution gate failed at check ${first.index} (${first.name}): ${first.reason}.`, {
    payment_intent_id: outcome.payment_intent_id,
    gate_run_id: outcome.gate_run_id,
    failed_check: { index: first.index, name: first.name, code: first.code, reason: first.reason },
    failed_checks: failed.map((check) => ({ index: check.index, name: check.name, code: check.code, reason: check.reason })),
  })
}

export function createGateService(deps: GateDeps) {
  const { commands, store, ledger, members, policy, agents, auditChain, execution, ids, clock, settings } = deps

  /**
   * Everything the 23 checks read, in the caller's transaction (the intent is already locked). The reads
   * go out in three waves, each wave's independent queries together (one round trip on PostgreSQL's
   * pipelined connection): what the intent names; the live policy and the approvers; the policy's
   * signatures and the single-use verdict. For an onchain_base intent the chain is asked too (check 12),
   * beside the three waves rather than after them.
   */
  async function snapshotOf(tx: Tx, intent: PaymentIntentRow, mode: GateSnapshot['mode']): Promise<GateSnapshot> {
    const { tenantId } = intent
    const now = clock.now()
    const agentId = intent.createdByAgentId
    // Check 12 asks the chain, for onchain_base intents only: started beside the first wave and awaited with
    // the last, so its RPC round trips overlap the database's instead of adding a wave.
    const sessionKeyRead =
      railOf[intent.actionType] === 'onchain_base'
        ? execution.sessionKeyOf(tx, tenantId, { sourceAccountId: intent.sourceAccountId, amount: intent.amount, currency: intent.currency })
        : Promise.resolve(undefined)
    // Awaited in the last wave; should an earlier wave fail first, its failure must not go unhandled.
    sessionKeyRead.catch(() => undefined)
    const [decision, counterparty, approvalRows, account, agent, balance, facts, changedAt, oldestUnlinkedSeconds, promotion, invoice] = await Promise.all([
      store.findDecision(tx, tenantId, intent.policyDecisionId),
      ledger.findCounterparty(tx, tenantId, intent.destinationCounterpartyId),
      store.approvalsOf(tx, tenantId, intent.id),
      ledger.findAccount(tx, tenantId, intent.sourceAccountId),
      intent.createdByAgentId === null ? undefined : agents.standing(tx, tenantId, intent.createdByAgentId, now),
      ledger.latestBalance(tx, tenantId, intent.sourceAccountId),
      store.gateFacts(tx, tenantId, intent, {
        samePayments: new Date(now.getTime() - settings.duplicatePaymentHours * 3_600_000),
        agent: new Date(now.getTime() - 86_400_000),
      }),
      ledger.counterpartyDetailsChangedAt(tx, tenantId, intent.destinationCounterpartyId),
      auditChain.oldestUnlinkedSeconds(tx, tenantId, now),
      agentId === null ? undefined : agents.promotionOf(tx, tenantId, agentId, now),
      intent.invoiceId === null ? undefined : ledger.findInvoice(tx, tenantId, intent.invoiceId),
    ])
    const { reservedByOthers, recentSamePayments, alreadyDispatched, agentSpent: agentSpentLastDay, invoicePaidByOthers } = facts
    const action = decision?.action as PolicyAction | undefined

    // The live policy on the stored action (read FOR SHARE), evaluated again with today's Ledger facts (the
    // counterparty's risk now) only when they differ, for check 7.5; and each approver as they stand now.
    // The active policy's signatures are verified again (check 3.5) by reads queued behind the FOR SHARE
    // read: the connection runs them in order, so they see the version this transaction holds.
    const riskNow = counterparty?.riskLevel ?? action?.risk_level
    const [live, liveWithFactsNow, integrity, approvals] = await Promise.all([
      action === undefined ? undefined : policy.evaluateActive(tx, tenantId, action),
      action === undefined || riskNow === action.risk_level ? undefined : policy.evaluateActive(tx, tenantId, { ...action, risk_level: riskNow }),
      policy.activePolicyIntegrity(tx, tenantId),
      Promise.all(
        approvalRows
          .filter((row) => row.decision === 'approve')
          .map(async (approval) => {
            // The approver as they stand now, and their wallets, together; then whether the payee is them.
            const [member, wallets] = await Promise.all([members.findMemberOfUser(tx, tenantId, approval.userId), members.humanWalletsOf(tx, tenantId, approval.userId)])
            const authority = checkMemberAuthority(member, intent.actionType)
            return {
              memberId: approval.memberId,
              memberActive: authority.ok,
              approvalDomains: member?.approvalDomains ?? [],
              approvalLimit: member?.approvalLimit ?? null,
              isPayee: member === undefined ? false : await ledger.counterpartyNamedBy(tx, tenantId, intent.destinationCounterpartyId, payeeKeysOf(member.email, wallets)),
            }
          }),
      ),
    ])
    const liveOutcome: GateSnapshot['liveOutcome'] = action === undefined ? undefined : (liveWithFactsNow ?? live)?.outcome

    // A single-use verdict bound to the stored action (check 2.5), under the version held FOR SHARE.
    const bindVerdict = async (): Promise<GateSnapshot['verdict']> => {
      if (decision === undefined || action === undefined) return { ok: false, reason: 'no decision to bind a verdict to' }
      if (live === undefined) return { ok: false, reason: 'no active policy' }
      if (actionHash(action) !== decision.actionHash) return { ok: false, reason: 'the stored action does not match its hash' }
      const consumed = await policy.bindVerdict(tx, tenantId, live, action)
      return consumed.ok ? { ok: true } : { ok: false, reason: consumed.reason }
    }
    const [verdict, sessionKey] = await Promise.all([bindVerdict(), sessionKeyRead])
    return {
      mode,
      now,
      intent: {
        id: intent.id,
        status: intent.status,
        actionType: intent.actionType,
        amount: intent.amount,
        currency: intent.currency,
        createdByAgentId: intent.createdByAgentId,
        destinationCounterpartyId: intent.destinationCounterpartyId,
        approvalsRequired: intent.approvalsRequired,
        heldBy: intent.heldBy,
      },
      decision:
        decision === undefined
          ? undefined
          : {
              paymentIntentId: decision.paymentIntentId,
              policyId: decision.policyId,
              outcome: decision.outcome,
              coveredByAutonomousCap: decision.coveredByAutonomousCap,
              agentId: action?.agent_id ?? null,
              behaviorHash: action?.behavior_hash ?? null,
            },
      verdict,
      liveOutcome,
      activePolicy:
        integrity === undefined
          ? undefined
          : {
              id: integrity.id,
              // Steward's provisioned default is signed by no one; its content is Steward's own.
              validSignatures: integrity.provisionedDefault ? Math.max(integrity.validSignatures, integrity.quorumRequired) : integrity.validSignatures,
              quorumRequired: integrity.quorumRequired,
            },
      approvals,
      account: account === undefined ? undefined : { status: account.status, currency: account.currency },
      balance,
      reservedByOthers,
      invoice:
        intent.invoiceId === null
          ? undefined
          : invoice === undefined
            ? { found: false }
            : { found: true, status: invoice.status, currency: invoice.currency, outstanding: decimalSubtract(invoice.total, invoice.amountPaid), paidByOthers: invoicePaidByOthers },
      counterparty:
        counterparty === undefined
          ? undefined
          : {
              riskLevel: counterparty.riskLevel,
              verifiedStatus: counterparty.verifiedStatus,
              trustState: counterparty.trustState,
              changedAt,
            },
      agent,
      promotion,
      agentSpentLastDay,
      recentSamePayments,
      // The source account's registered session key, read on chain (check 12); no escrow is registered yet, so escrow releases fail closed.
      sessionKey,
      escrow: undefined,
      alreadyDispatched,
      auditChain: { oldestUnlinkedSeconds },
    }
  }

  async function runOn(context: CommandContext, input: { id: string }, mode: GateSnapshot['mode']): Promise<CommandResult<GateOutcome>> {
    const principal = requirePrincipal(context)
    const tenantId = principal.tenantId
    return commands.run(context, { name: `payment_intent.${mode}`, tenantId, input }, async (tx): Promise<CommandWork<GateOutcome>> => {
      const intent = await store.findIntent(tx, tenantId, input.id, { forUpdate: true })
      if (intent === undefined) throw new AppError('payment_intent_not_found', 'No such payment intent.', { payment_intent_id: input.id })
      // The state table first: a move it refuses never reaches the gate (checks 1 and 12.5 hold the same line inside it).
      if (mode === 'execute' && alreadyMoving.has(intent.status)) {
        throw new AppError('action_already_executed', `The payment intent is already ${intent.status}.`, { payment_intent_id: intent.id, status: intent.status })
      }
      if (!canMove(intent.status, mode)) {
        throw new AppError('payment_intent_invalid_state', `A payment intent that is ${intent.status} cannot be ${mode === 'execute' ? 'executed' : 'resumed'}.`, { status: intent.status, move: mode })
      }
      if (mode === 'resume') {
        const member = principal.type === 'user' ? await members.findMemberOfUser(tx, tenantId, principal.id) : undefined
        const authority = checkMemberAuthority(member, intent.actionType)
        if (!authority.ok) throw new AppError('payment_intent_approval_invalid', authority.message, { reason: authority.reason })
      }
      // Reservations on one account are decided one at a time: two intents cannot both take the same balance.
      // The lock is queued ahead of the snapshot's first reads (one round trip): the connection runs them in
      // order, so they read once it is held.
      // So are the payments of one invoice (check 7.5 weighs what the others pay of it), locked after the account.
      const [, , snapshot] = await Promise.all([
        mode === 'execute' ? store.lockAccount(tx, tenantId, intent.sourceAccountId) : undefined,
        mode === 'execute' && intent.invoiceId !== null ? store.lockInvoice(tx, tenantId, intent.invoiceId) : undefined,
        snapshotOf(tx, intent, mode),
      ])
      // Check 11: a rail is available when the execution module registered it and the gate's settings allowlist it.
      const registered = execution.railsRegistered()
      const checks = runGate(snapshot, { ...settings, railsAvailable: new Set([...settings.railsAvailable].filter((rail) => registered.has(rail))) })
      const passed = checks.every((check) => check.passed)
      const gateRunId = ids.newId('gateRun')
      // Sent with the writes below and the commit, its id at once for the gate run row that cites it.
      const [auditEventId] = commands.sendAudit(tx, tenantId, [
          auditedBy(context, {
            layer: 'execution',
            action: mode === 'execute' ? 'payment_intent.execute.before' : 'payment_intent.resume.before',
            entity: { type: 'payment_intent', id: intent.id },
            inputs: { gate_run_id: gateRunId, status: intent.status },
            // Every check's result is in the gate run row; the event carries which failed and a digest of all 23.
            outputs: { passed, checks_run: checks.length, failed_checks: checks.filter((check) => !check.passed).map((check) => `${check.index}:${check.name}`), checks_digest: digestOf(checks), ledger_snapshot_hash: digestOf(ledgerSnapshotOf(snapshot)) },
          }),
      ])
      const gateRun = store.insertGateRun(tx, { id: gateRunId, tenantId, paymentIntentId: intent.id, mode, passed, checks, auditEventId: auditEventId ?? null, createdAt: snapshot.now })
      const rail = railOf[intent.actionType]
      if (isShadowRun(snapshot)) {
        // Governing rule 7: the whole pipeline ran and is recorded; nothing is sent, nothing is reserved.
        const failedChecks = checks.filter((check) => !check.passed).map((check) => `${check.index}:${check.name}`)
        commands.writeWithCommit(tx, [gateRun, store.moveIntent(tx, tenantId, intent.id, 'shadow_completed', snapshot.now)])
        return {
          outcome: { passed: true, payment_intent_id: intent.id, status: 'shadow_completed', outbox_id: null, execution_id: null, rail, gate_run_id: gateRunId, shadow: { gate_passed: passed, failed_checks: failedChecks } },
          audit: [
            auditedBy(context, {
              layer: 'execution',
              action: 'payment_intent.shadow_completed',
              entity: { type: 'payment_intent', id: intent.id },
              inputs: { gate_run_id: gateRunId, agent_id: intent.createdByAgentId },
              outputs: { status_before: 'approved', status: 'shadow_completed', rail, gate_passed: passed, failed_checks: failedChecks, rail_called: false },
            }),
          ],
        }
      }
      if (!passed) {
        commands.writeWithCommit(tx, [gateRun])
        return { outcome: { passed: false, payment_intent_id: intent.id, gate_run_id: gateRunId, checks } }
      }

      if (mode === 'resume') {
        commands.writeWithCommit(tx, [gateRun, store.moveIntent(tx, tenantId, intent.id, 'approved', snapshot.now)])
        return {
          outcome: { passed: true, payment_intent_id: intent.id, status: 'approved', outbox_id: null, execution_id: null, rail, gate_run_id: gateRunId },
          audit: [auditedBy(context, { layer: 'execution', action: 'payment_intent.resumed', entity: { type: 'payment_intent', id: intent.id }, inputs: { gate_run_id: gateRunId }, outputs: { status_before: 'paused', status: 'approved' } })],
        }
      }

      const outboxId = ids.newId('outboxRow')
      const reserved = reservationAmount(intent.actionType, intent.amount)
      const reservationId = reserved === undefined ? null : ids.newId('reservation')
      // Independent writes, sent together; the commit goes out with them.
      commands.writeWithCommit(tx, [
        gateRun,
        store.moveIntent(tx, tenantId, intent.id, 'dispatching', snapshot.now),
        store.insertOutbox(tx, { id: outboxId, tenantId, paymentIntentId: intent.id, rail, idempotencyKey: `sha256:${sha256Hex(`${tenantId}:${intent.id}:${outboxId}`)}`, status: 'pending', createdAt: snapshot.now }),
        reservationId === null
          ? undefined
          : store.insertReservation(tx, { id: reservationId, tenantId, paymentIntentId: intent.id, accountId: intent.sourceAccountId, amount: reserved!, currency: intent.currency, status: 'active', createdAt: snapshot.now, updatedAt: snapshot.now }),
      ])
      const moved = { ...intent, status: 'dispatching' as const, updatedAt: snapshot.now }
      return {
        outcome: { passed: true, payment_intent_id: intent.id, status: 'dispatching', outbox_id: outboxId, execution_id: null, rail, gate_run_id: gateRunId },
        audit: [
          auditedBy(context, {
            layer: 'execution',
            action: 'payment_intent.dispatched',
            entity: { type: 'payment_intent', id: intent.id },
            inputs: { gate_run_id: gateRunId },
            outputs: { status_before: 'approved', status: 'dispatching', outbox_id: outboxId, rail, reservation_id: reservationId, reserved: reserved === undefined ? null : formatAmount(reserved, intent.currency) },
          }),
        ],
        events: [{ type: 'payment_intent.execute.after', payload: { ...intentEventPayload(moved), outbox_id: outboxId, rail, gate_run_id: gateRunId } }],
        jobs: execution.dispatchJobs({ tenantId, outboxId }),
      }
    })
  }

  return {
    /**
     * Runs the gate on an approved intent (scope payment_intent:execute). Locks the intent and, for the
     * reservation, its source account; audits payment_intent.execute.before with every check, pass or
     * fail; on a pass moves it to dispatching, writes the outbox row and the reservation, audits
     * payment_intent.dispatched and emits payment_intent.execute.after. Takes an Idempotency-Key.
     */
    async execute(context: CommandContext, input: { id: string }): Promise<CommandResult<GateOutcome>> {
      const result = await runOn(context, input, 'execute')
      // The row's dispatch job is committed: the worker takes it up now, not at its next poll.
      if (!result.replayed && result.outcome.passed) execution.dispatchCommitted()
      return result
    },
    /**
     * Runs the live gate on a paused intent and, when every check passes, moves it back to approved
     * (audited payment_intent.resumed). Takes an Idempotency-Key.
     */
    resume: (context: CommandContext, input: { id: string }) => runOn(context, input, 'resume'),
  }
}

export type GateService = ReturnType<typeof createGateService>
