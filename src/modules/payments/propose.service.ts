/**
 * Proposing a payment (POST /v1/payment-intents, scope payment_intent:propose): the proposal is checked
 * against the Ledger, evaluated against the active policy with every gate-populated key, and stored with
 * its PolicyDecision in the status the decision and the hard floor lead to (domain/intents.ts).
 */
import { assert } from '../../kernel/assert.ts'
import { digestOf } from '../../kernel/audit-record.ts'
import type { Clock } from '../../kernel/clock.ts'
import { auditedBy, requirePrincipal, type CommandContext } from '../../kernel/context.ts'
import type { Principal } from '../../kernel/principal.ts'
import { AppError } from '../../kernel/errors.ts'
import { canonicalJson, sha256Hex } from '../../kernel/hashing.ts'
import type { IdSource } from '../../kernel/ids.ts'
import { decimalAdd, decimalSign, decimalSubtract, formatAmount } from '../../kernel/money.ts'
import type { CommandResult, CommandRunner, PendingEvent } from '../../platform/commands/command.ts'
import type { Tx } from '../../platform/db/database.ts'
import { actionHash, type PolicyAction } from '../policy/index.ts'
import { evidenceOf } from './domain/evidence.ts'
import { creationOutcome, policyKindOf, proposalProblems, type FloorSettings, type PaymentActionType, type PaymentIntentStatus } from './domain/intents.ts'
import type { InvoiceCommitment, PaymentsStore, PaymentIntentRow, PolicyDecisionRow } from './payments.store.ts'
import { defaultGateSettings } from './domain/gate.ts'
import type { IntentProposedListener, PaymentInvoice, PaymentsAgents, PaymentsEvidence, PaymentsLedger, PaymentsPolicy } from './ports.ts'
import { intentEventPayload, toIntentView, type PaymentIntentView } from './payments.views.ts'

/** A proposal with every field named. */
export interface ExplicitProposal {
  readonly action_type: PaymentActionType
  readonly source_account_id: string
  readonly destination_counterparty_id: string
  readonly amount: string
  readonly currency: string
  readonly invoice_id?: string | undefined
  readonly obligation_id?: string | undefined
  readonly evidence_ids?: readonly string[] | undefined
  /** The proposer's confidence in the proposal (0..1), a gate-populated policy key. */
  readonly confidence?: number | undefined
}

/** The invoice shortcut: the Ledger invoice names the amount, currency, counterparty and evidence. */
export interface PayInvoiceProposal {
  readonly type: 'pay_invoice'
  readonly invoice_id: string
  /** Default ach_outbound. */
  readonly action_type?: PaymentActionType | undefined
  /** Default: the tenant's one active account in the invoice's currency. */
  readonly source_account_id?: string | undefined
  readonly confidence?: number | undefined
}

export type ProposeInput = ExplicitProposal | PayInvoiceProposal

/** Two proposals by one agent of the same action within this window are one proposal made twice. */
export const duplicateProposalWindowHours = 24
/**
 * How long an executed payment of an invoice still counts against what the invoice has outstanding: the
 * Ledger records it only once the bank's statement is imported and reconciled. The gate's duplicate window.
 */
export const invoicePaymentCountsHours = defaultGateSettings.duplicatePaymentHours
/** Statuses that end a proposal without moving money: proposing the same action again after one of these is a new proposal. */
const closedWithoutPayment: readonly PaymentIntentStatus[] = ['rejected', 'cancelled', 'failed', 'shadow_completed']
/** Evidence ids per proposal. */
export const evidenceIdsMax = 50

export interface ProposeDeps {
  readonly commands: CommandRunner
  readonly store: PaymentsStore
  readonly ledger: PaymentsLedger
  readonly evidence: PaymentsEvidence
  readonly policy: PaymentsPolicy
  /** The proposing agent's behaviour hash, recorded in the decision's action for gate check 1.5 to pin. */
  readonly agents: Pick<PaymentsAgents, 'standing'>
  readonly ids: IdSource
  readonly clock: Clock
  readonly floor: FloorSettings
  /** Told of each intent an agent proposes, in its transaction (ports.ts IntentProposedListener). */
  readonly afterPropose?: IntentProposedListener | undefined
}

/**
 * The agent a proposal is recorded as coming from: an agent token's agent, or for the break-glass
 * service token (which stands for Steward's internal agents) the token's id. Never from the body.
 */
export function proposingAgentOf(principal: Principal): string | null {
  return principal.type === 'service' ? principal.credentialId : principal.type === 'user' ? null : principal.credentialId
}

export function createProposeService(deps: ProposeDeps) {
  const { commands, store, ledger, evidence, policy, agents, ids, clock, floor, afterPropose } = deps

  /**
   * The invoice a proposal pays, when it can be paid: 404 ledger_invoice_not_found, 422
   * obligation_direction_invalid for a receivable, 409 invoice_already_paid, 409 invoice_not_payable
   * (cancelled, or no counterparty). The shortcut and an explicit proposal naming an invoice_id alike.
   */
  function payable(invoice: PaymentInvoice | undefined, invoiceId: string): { invoice: PaymentInvoice & { counterpartyId: string }; outstanding: string } {
    if (invoice === undefined) throw new AppError('ledger_invoice_not_found', 'No such invoice in this tenant.', { invoice_id: invoiceId })
    if (invoice.direction !== 'payable') {
      throw new AppError('obligation_direction_invalid', 'The invoice is a receivable: it is collected, not paid.', { invoice_id: invoice.id, direction: invoice.direction })
    }
    const outstanding = decimalSubtract(invoice.total, invoice.amountPaid)
    if (invoice.status === 'paid' || decimalSign(outstanding) <= 0) throw new AppError('invoice_already_paid', 'The invoice is already paid.', { invoice_id: invoice.id })
    if (invoice.status === 'cancelled') throw new AppError('invoice_not_payable', 'The invoice is cancelled.', { invoice_id: invoice.id, status: invoice.status })
    if (invoice.counterpartyId === null) throw new AppError('invoice_not_payable', 'The invoice names no counterparty to pay.', { invoice_id: invoice.id })
    return { invoice: { ...invoice, counterpartyId: invoice.counterpartyId }, outstanding }
  }

  /**
   * An explicit proposal naming an invoice pays that invoice: its payee, in its currency, at most what is
   * outstanding (400 validation_failed otherwise, naming the field and what the invoice says).
   */
  function assertPaysInvoice(proposal: ExplicitProposal, found: PaymentInvoice | undefined): string {
    const { invoice, outstanding } = payable(found, proposal.invoice_id!)
    const mismatch = (field: string, message: string, expected: string) => new AppError('validation_failed', message, { invoice_id: invoice.id, field, expected, issues: [{ path: `/${field}`, message }] })
    if (proposal.destination_counterparty_id !== invoice.counterpartyId) {
      throw mismatch('destination_counterparty_id', `The invoice is payable to ${invoice.counterpartyId}; a payment of it goes to that counterparty.`, invoice.counterpartyId)
    }
    if (proposal.currency !== invoice.currency) throw mismatch('currency', `The invoice is in ${invoice.currency}; a payment of it is in that currency.`, invoice.currency)
    if (decimalSign(decimalSubtract(outstanding, proposal.amount)) < 0) {
      throw mismatch('amount', `The invoice has ${formatAmount(outstanding, invoice.currency)} ${invoice.currency} outstanding; a payment of it is at most that.`, formatAmount(outstanding, invoice.currency))
    }
    return outstanding
  }

  /**
   * A payment of an invoice fits in what it has outstanding after the intents already paying it (awaiting a
   * decision, approved, paused, in flight, or executed within the last `invoicePaymentCountsHours`, which
   * the Ledger may not show yet). Otherwise: 409 invoice_not_payable (`reason: being_paid`) when nothing is
   * left or for the pay_invoice shortcut (which pays the whole outstanding amount), 400 validation_failed on
   * the amount naming what is left for an explicit amount; both name the intents.
   */
  function assertFitsInvoice(proposal: ExplicitProposal, amount: string, shortcut: boolean, committed: readonly InvoiceCommitment[], outstanding: string): void {
    if (committed.length === 0) return
    const held = committed.reduce((sum, intent) => decimalAdd(sum, intent.amount), '0')
    const left = decimalSubtract(outstanding, held)
    if (decimalSign(decimalSubtract(left, amount)) >= 0) return
    const intents = committed.map((intent) => ({ payment_intent_id: intent.id, status: intent.status, amount: formatAmount(intent.amount, proposal.currency) }))
    const leftText = formatAmount(decimalSign(left) < 0 ? '0' : left, proposal.currency)
    if (shortcut || decimalSign(left) <= 0) {
      throw new AppError('invoice_not_payable', `Other payment intents are already paying ${formatAmount(held, proposal.currency)} ${proposal.currency} of the invoice's ${formatAmount(outstanding, proposal.currency)} outstanding; ${leftText} is left.`, {
        invoice_id: proposal.invoice_id,
        reason: 'being_paid',
        left: leftText,
        payment_intents: intents,
      })
    }
    const message = `Other payment intents are already paying ${formatAmount(held, proposal.currency)} ${proposal.currency} of the invoice; a payment of it is at most the ${leftText} left.`
    throw new AppError('validation_failed', message, { invoice_id: proposal.invoice_id, field: 'amount', expected: leftText, payment_intents: intents, issues: [{ path: '/amount', message }] })
  }

  /** The explicit proposal a pay_invoice shortcut stands for, resolved from the Ledger invoice. */
  async function resolveInvoice(tx: Tx, tenantId: string, input: PayInvoiceProposal): Promise<ExplicitProposal> {
    const { invoice, outstanding } = payable(await ledger.findInvoice(tx, tenantId, input.invoice_id), input.invoice_id)
    let sourceAccountId = input.source_account_id
    if (sourceAccountId === undefined) {
      const accounts = await ledger.activeAccountsIn(tx, tenantId, invoice.currency)
      if (accounts.length !== 1) {
        throw new AppError('validation_failed', `The tenant has ${accounts.length === 0 ? 'no' : 'several'} active ${invoice.currency} accounts; name source_account_id.`, {
          field: 'source_account_id',
          candidates: accounts.map((account) => account.id),
        })
      }
      sourceAccountId = accounts[0]!.id
    }
    return {
      action_type: input.action_type ?? 'ach_outbound',
      source_account_id: sourceAccountId,
      destination_counterparty_id: invoice.counterpartyId,
      amount: formatAmount(outstanding, invoice.currency),
      currency: invoice.currency,
      invoice_id: invoice.id,
      evidence_ids: [...invoice.evidenceIds],
      confidence: input.confidence,
    }
  }

  return {
    /**
     * Proposes a payment. Locks the proposal key (two concurrent identical proposals cannot both pass the
     * duplicate check) and reads the active policy FOR SHARE. Audits `payment_intent.proposed` (layer
     * execution) with the decision; emits payment_intent.created and policy.evaluate, and
     * payment_intent.approved or payment_intent.rejected when the policy decided without a person. Takes
     * an Idempotency-Key (Stripe's semantics: the same key and body replay the first answer).
     */
    async propose(context: CommandContext, input: ProposeInput): Promise<CommandResult<PaymentIntentView>> {
      const principal = requirePrincipal(context)
      const tenantId = principal.tenantId
      return commands.run(context, { name: 'payment_intent.propose', tenantId, input }, async (tx) => {
        const proposal = 'type' in input ? await resolveInvoice(tx, tenantId, input) : input
        const problems = proposalProblems(proposal.action_type, proposal.currency, proposal.amount)
        if (problems.length > 0) {
          throw new AppError('validation_failed', problems.map((problem) => problem.message).join(' '), { issues: problems.map((problem) => ({ path: `/${problem.field}`, message: problem.message })) })
        }
        const amount = formatAmount(proposal.amount, proposal.currency)

        const evidenceIds = [...new Set(proposal.evidence_ids ?? [])]
        const agentId = proposingAgentOf(principal)
        const proposalKey = `sha256:${sha256Hex(
          canonicalJson({
            agent: agentId ?? principal.id,
            action_type: proposal.action_type,
            source_account_id: proposal.source_account_id,
            destination_counterparty_id: proposal.destination_counterparty_id,
            amount,
            currency: proposal.currency,
            invoice_id: proposal.invoice_id ?? null,
            obligation_id: proposal.obligation_id ?? null,
          }),
        )}`
        const now = clock.now()
        const id = ids.newId('paymentIntent')
        // What the proposal names, read together (one round trip on PostgreSQL's pipelined connection) with
        // the proposal key's lock (two concurrent identical proposals cannot both pass the duplicate check,
        // which is asked after it) and the active policy, read FOR SHARE by evaluateActiveWith below.
        const named = Promise.all([
          store.lockProposalKey(tx, tenantId, proposalKey),
          ledger.findAccount(tx, tenantId, proposal.source_account_id),
          ledger.findCounterparty(tx, tenantId, proposal.destination_counterparty_id),
          proposal.invoice_id === undefined || 'type' in input ? undefined : ledger.findInvoice(tx, tenantId, proposal.invoice_id),
          proposal.obligation_id === undefined ? undefined : ledger.findObligation(tx, tenantId, proposal.obligation_id),
          evidenceIds.length === 0 ? [] : evidence.parsedRowEvidence(tx, tenantId, evidenceIds),
          agentId === null ? undefined : agents.standing(tx, tenantId, agentId, now),
        ]).then(([, account, counterparty, invoice, obligation, cited, standing]) => {
          if (account === undefined) throw new AppError('ledger_account_not_found', 'No such account in this tenant.', { source_account_id: proposal.source_account_id })
          // Refused now, not after a person approved it: the gate's check 6.5 fails every payment whose account
          // holds another currency (no conversion is made).
          if (account.currency !== proposal.currency) {
            const message = `The source account holds ${account.currency}; a payment from it is in ${account.currency}, not ${proposal.currency}.`
            throw new AppError('validation_failed', message, { source_account_id: account.id, field: 'currency', expected: account.currency, issues: [{ path: '/currency', message }] })
          }
          if (counterparty === undefined) {
            throw new AppError('ledger_counterparty_not_found', 'No such counterparty in this tenant.', { destination_counterparty_id: proposal.destination_counterparty_id })
          }
          // What the invoice has outstanding: checked here for an explicit proposal, the shortcut's amount otherwise.
          const invoiceOutstanding = proposal.invoice_id === undefined ? undefined : 'type' in input ? amount : assertPaysInvoice({ ...proposal, amount }, invoice)
          if (proposal.obligation_id !== undefined) {
            if (obligation === undefined) throw new AppError('obligation_not_found', 'No such obligation in this tenant.', { obligation_id: proposal.obligation_id })
            if (obligation.direction !== 'payable') {
              throw new AppError('obligation_direction_invalid', 'A payment can only settle a payable obligation.', { obligation_id: obligation.id, direction: obligation.direction })
            }
          }
          if (cited.length !== evidenceIds.length) {
            const found = new Set(cited.map((row) => row.id))
            throw new AppError('ledger_parsed_row_not_found', 'Every evidence id must be a parsed row of this tenant.', { evidence_ids: evidenceIds.filter((id) => !found.has(id)) })
          }
          return { account, counterparty, cited, behaviorHash: standing?.behaviorHash ?? null, invoiceOutstanding }
        })
        // Its refusal is awaited below (after the policy read, or inside the action builder); until then it is handled here.
        named.catch(() => {})
        // The intents already paying the same invoice, under the invoice's lock (two proposals of one invoice
        // cannot both fit in what it has outstanding): weighed after the duplicate check below.
        const committedToInvoice =
          proposal.invoice_id === undefined
            ? undefined
            : store
                .lockInvoice(tx, tenantId, proposal.invoice_id)
                .then(() => store.invoiceCommitments(tx, tenantId, proposal.invoice_id!, proposal.currency, new Date(now.getTime() - invoicePaymentCountsHours * 3_600_000)))
        committedToInvoice?.catch(() => {})

        // One read of the active policy, whose spend window the action's spend and count depend on, and one
        // statement for both the duplicate check and that spend.
        let earlier: { id: string; status: PaymentIntentStatus } | undefined
        const evaluated = await policy.evaluateActiveWith(tx, tenantId, async (windowHours) => {
          const { counterparty, cited, behaviorHash } = await named
          const facts = await store.proposalFacts(tx, tenantId, {
            proposalKey,
            duplicateSince: new Date(now.getTime() - duplicateProposalWindowHours * 3_600_000),
            agentId: agentId ?? principal.id,
            currency: proposal.currency,
            windowSince: new Date(now.getTime() - windowHours * 3_600_000),
            ignoring: closedWithoutPayment,
          })
          earlier = facts.duplicate
          return {
            kind: policyKindOf[proposal.action_type],
            counterparty_id: counterparty.id,
            amount: { currency: proposal.currency, value: amount },
            timestamp: now.toISOString(),
            agent_id: agentId,
            action_type: proposal.action_type,
            action_id: id,
            confidence: proposal.confidence ?? null,
            evidence_score: cited.length === 0 ? null : cited.reduce((sum, row) => sum + row.confidence, 0) / cited.length,
            risk_level: counterparty.riskLevel,
            spend_in_window: { currency: proposal.currency, value: formatAmount(decimalAdd(facts.spent.total, amount), proposal.currency) },
            tx_count_in_window: facts.spent.count + 1,
            // What the agent's code and configuration were when it proposed: gate check 1.5 compares it with the agent's hash at execute.
            ...(behaviorHash === null ? {} : { behavior_hash: behaviorHash }),
          }
        })
        const { account, counterparty, cited, invoiceOutstanding } = await named
        if (earlier !== undefined) {
          throw new AppError('agent_proposal_duplicate', `The same action was proposed by the same agent within ${duplicateProposalWindowHours} hours.`, {
            payment_intent_id: earlier.id,
            status: earlier.status,
          })
        }
        if (committedToInvoice !== undefined && invoiceOutstanding !== undefined) assertFitsInvoice(proposal, amount, 'type' in input, await committedToInvoice, invoiceOutstanding)
        if (evaluated === undefined) throw new AppError('policy_not_active', 'The tenant has no active policy; a payment cannot be decided.')
        const { decision, action } = evaluated
        const outcome = creationOutcome(proposal.action_type, decision, floor)

        const decisionRow: PolicyDecisionRow = {
          id: ids.newId('policyDecision'),
          tenantId,
          paymentIntentId: id,
          policyId: decision.policy_id,
          policyVersion: decision.policy_version,
          outcome: decision.outcome,
          matchedRuleId: decision.matched_rule_id,
          requiredApprovers: [...decision.required_approvers],
          coveredByAutonomousCap: decision.covered_by_autonomous_cap,
          trace: decision.trace,
          action,
          actionHash: actionHash(action),
          createdAt: now,
        }
        const row: PaymentIntentRow = {
          id,
          tenantId,
          createdByAgentId: agentId,
          createdBy: principal.id,
          actionType: proposal.action_type,
          sourceAccountId: account.id,
          destinationCounterpartyId: counterparty.id,
          amount,
          currency: proposal.currency,
          invoiceId: proposal.invoice_id ?? null,
          obligationId: proposal.obligation_id ?? null,
          evidenceIds,
          status: outcome.status,
          policyDecisionId: decisionRow.id,
          executionReceiptIds: [],
          approvalsRequired: outcome.approvalsRequired,
          heldBy: outcome.heldBy,
          proposalKey,
          rejectionReason: outcome.status === 'rejected' ? `policy: ${decision.matched_rule_id ?? 'no rule allowed it'}` : null,
          createdAt: now,
          updatedAt: now,
        }
        // Sent now and not awaited: the commit goes out with them (an agent's proposal, below, may still read first).
        commands.writeWithCommit(tx, [store.insertDecision(tx, decisionRow), store.insertIntent(tx, row)])

        const view = toIntentView(row, decisionRow, [])
        const payload = intentEventPayload(row)
        const events: PendingEvent[] = [
          { type: 'payment_intent.created', payload: { ...payload, policy_decision: { outcome: decision.outcome, matched_rule_id: decision.matched_rule_id } } },
          {
            type: 'policy.evaluate',
            payload: {
              policy_id: decision.policy_id,
              policy_version: decision.policy_version,
              action_hash: decisionRow.actionHash,
              outcome: decision.outcome,
              matched_rule_id: decision.matched_rule_id,
              covered_by_autonomous_cap: decision.covered_by_autonomous_cap,
              required_approvers: [...decision.required_approvers],
              payment_intent_id: id,
            },
          },
        ]
        // An agent's proposal is also an agent proposal (the proposals read model): its listener records it here.
        if (agentId !== null && afterPropose !== undefined) {
          await afterPropose(tx, {
            tenantId,
            principal,
            agentId,
            paymentIntentId: id,
            policyDecisionId: decisionRow.id,
            actionType: row.actionType,
            status: row.status,
            amount: row.amount,
            currency: row.currency,
            sourceAccountId: row.sourceAccountId,
            destinationCounterpartyId: row.destinationCounterpartyId,
            invoiceId: row.invoiceId,
            obligationId: row.obligationId,
            evidenceIds,
            confidence: proposal.confidence ?? null,
            evidenceScore: typeof action.evidence_score === 'number' ? action.evidence_score : null,
            createdAt: now,
          })
        }
        if (row.status === 'approved') events.push({ type: 'payment_intent.approved', payload: { ...payload, approved_by: 'policy' } })
        if (row.status === 'rejected') events.push({ type: 'payment_intent.rejected', payload: { ...payload, rejected_by: 'policy' } })
        assert(row.status !== 'proposed', 'a proposal leaves proposed in the transaction that creates it')
        return {
          outcome: view,
          audit: [
            auditedBy(context, {
              layer: 'execution',
              action: 'payment_intent.proposed',
              entity: { type: 'payment_intent', id },
              inputs: { proposal_key: proposalKey, evidence_ids: evidenceIds, ...(proposal.invoice_id === undefined ? {} : { invoice_id: proposal.invoice_id }) },
              // What a proof of this action states about its proposal (modules/proofs): the payment, who
              // proposed it, the policy that decided it, and a digest of the evidence it cites.
              outputs: {
                status: row.status,
                agent_id: agentId,
                behavior_hash: typeof action.behavior_hash === 'string' ? action.behavior_hash : null,
                action_type: row.actionType,
                amount: row.amount,
                currency: row.currency,
                source_account_id: row.sourceAccountId,
                destination_counterparty_id: row.destinationCounterpartyId,
                policy_decision_id: decisionRow.id,
                policy_id: decision.policy_id,
                policy_version: decision.policy_version,
                policy_hash: decision.policy_hash,
                outcome: decision.outcome,
                matched_rule_id: decision.matched_rule_id,
                approvals_required: row.approvalsRequired,
                held_by: row.heldBy,
                action_hash: decisionRow.actionHash,
                evidence_digest: digestOf(evidenceOf(evidenceIds, cited)),
              },
            }),
          ],
          events,
        }
      })
    },
  }
}

export type ProposeService = ReturnType<typeof createProposeService>
