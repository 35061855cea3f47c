/** Wire schemas of the PaymentIntent routes (spec, "PaymentIntent", "PolicyDecision", the PaymentIntents endpoint table). */
import Type from 'typebox'
import { named, NextCursor, Nullable, pageQuery, PathId, Strict, TenantId, Timestamp } from '../../platform/http/schemas.ts'
import { paymentActionTypes, paymentIntentStatuses } from './domain/intents.ts'
import { rejectionReasonCharactersMax } from './decide.service.ts'
import { evidenceIdsMax } from './propose.service.ts'
import { intentPageRows } from './read.service.ts'

const literals = Type.Enum
const ActionType = literals(paymentActionTypes, { description: 'What kind of money movement (spec, "PaymentIntent").' })
const EntityId = (description: string) => Type.String({ minLength: 1, maxLength: 255, description })
const ProposalAmount = Type.String({
  minLength: 1,
  maxLength: 40,
  description: 'A positive decimal string with at most the currency\'s fraction digits (USDC 6), such as "125.00". No sign, exponent or grouping.',
})
const ProposalCurrency = Type.String({
  minLength: 1,
  maxLength: 10,
  description: 'USDC for x402_settle and escrow_release (and only for them); every other action type takes a three-letter code (^[A-Z]{3}$) other than USDC.',
})
const Confidence = Type.Number({ minimum: 0, maximum: 1, description: "The proposer's confidence in the proposal, 0..1: the policy's confidence key." })

export const ExplicitProposalBody = Strict({
  action_type: ActionType,
  source_account_id: EntityId('The Ledger account the money leaves (or, for ach_inbound, arrives in); 404 ledger_account_not_found when not the tenant\'s.'),
  destination_counterparty_id: EntityId('The Ledger counterparty paid; 404 ledger_counterparty_not_found when not the tenant\'s.'),
  amount: ProposalAmount,
  currency: ProposalCurrency,
  invoice_id: Type.Optional(EntityId('A Ledger invoice this payment is for; 404 ledger_invoice_not_found when not the tenant\'s.')),
  obligation_id: Type.Optional(EntityId('A Ledger obligation this payment settles: 404 obligation_not_found, 422 obligation_direction_invalid unless payable.')),
  evidence_ids: Type.Optional(
    Type.Array(EntityId('A Raw parsed row id (rpr_…).'), {
      maxItems: evidenceIdsMax,
      description: `Raw parsed rows supporting the proposal, at most ${evidenceIdsMax}; 404 ledger_parsed_row_not_found names any that is not the tenant's.`,
    }),
  ),
  confidence: Type.Optional(Confidence),
})

export const PayInvoiceBody = Strict({
  type: literals(['pay_invoice'] as const, { description: 'The invoice shortcut.' }),
  invoice_id: EntityId('A payable Ledger invoice: 404 ledger_invoice_not_found, 409 invoice_already_paid, 422 obligation_direction_invalid for a receivable.'),
  action_type: Type.Optional(ActionType),
  source_account_id: Type.Optional(EntityId('Default: the tenant\'s one active account in the invoice\'s currency (400 validation_failed when there is none or several).')),
  confidence: Type.Optional(Confidence),
})

export const ProposeBody = Type.Union([ExplicitProposalBody, PayInvoiceBody], {
  description: 'A proposal with every field, or the pay_invoice shortcut (amount = what is outstanding, currency, counterparty and evidence from the Ledger invoice).',
})

const TraceCheck = Strict({ key: Type.String(), passed: Type.Boolean(), detail: Type.String() })
const TraceEntry = Strict({ rule_id: Type.String(), matched: Type.Boolean(), checks: Type.Array(TraceCheck) })

export const PaymentPolicyDecision = named('PaymentPolicyDecision', Strict({
  id: Type.String({ description: 'pdc_…' }),
  outcome: literals(['allow', 'confirm', 'reject'] as const),
  matched_rule_id: Nullable(Type.String()),
  required_approvers: Type.Array(Type.String(), { description: 'One approver label per distinct approval the decision needs.' }),
  covered_by_autonomous_cap: Type.Boolean(),
  trace: Type.Array(TraceEntry),
  policy_id: Type.String(),
  policy_version: Type.Integer(),
  action_hash: Type.String({ description: 'sha256: of the evaluated action\'s canonical JSON (gate-populated keys included).' }),
  created_at: Timestamp,
}))

const Approval = Strict({
  id: Type.String({ description: 'apv_…' }),
  decision: literals(['approve', 'reject'] as const),
  member_id: Type.String(),
  reason: Nullable(Type.String()),
  created_at: Timestamp,
})

export const PaymentIntent = named('PaymentIntent', Strict({
  id: Type.String({ description: 'pi_…' }),
  owner_id: TenantId,
  created_by_agent_id: Nullable(Type.String({ description: 'The proposing agent, from the credential (a service token records its own id).' })),
  action_type: ActionType,
  source_account_id: Type.String(),
  destination_counterparty_id: Type.String(),
  amount: Type.String({ description: 'At the currency\'s scale.' }),
  currency: Type.String(),
  invoice_id: Nullable(Type.String()),
  obligation_id: Nullable(Type.String()),
  evidence_ids: Type.Array(Type.String()),
  status: literals(paymentIntentStatuses),
  sdk_status: Type.String({ description: 'Read-only SDK alias: auto (proposed, approved), needs_approval (pending_approval, awaiting_second_approval); other statuses as they are.' }),
  policy_decision_id: Type.String(),
  policy_decision: PaymentPolicyDecision,
  approvals_required: Type.Integer({ minimum: 0, description: 'Distinct members who must approve (0 when decided without a person).' }),
  held_by: Nullable(literals(['policy', 'floor'] as const, { description: 'Why a person must approve: the policy said confirm, or the hard human-approval floor held an allowed action.' })),
  approval_ids: Type.Array(Type.String()),
  approvals: Type.Array(Approval, { description: 'Approvals and the rejection people recorded, oldest first.' }),
  rejection_reason: Nullable(Type.String()),
  execution_receipt_ids: Type.Array(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
  agent: Type.Optional(
    Nullable(Strict({ id: Type.String(), kind: literals(['internal', 'external'] as const), display_name: Type.String() }), ),
  ),
}))

export const IntentPathParams = Strict({ payment_intent_id: PathId('payment_intent_not_found', 'paymentIntent', 'The payment intent id') })
export const IntentReadQuery = Strict({ expand: Type.Optional(literals(['agent'] as const, { description: 'agent adds the proposing agent: {id, kind, display_name}, kind internal for a first-party agent or a service token, external for a registered agent; null for a person\'s proposal.' })) })
export const RejectBody = Strict({ reason: Type.Optional(Type.String({ minLength: 1, maxLength: rejectionReasonCharactersMax, description: `Why, at most ${rejectionReasonCharactersMax} characters.` })) })

export const IntentListQuery = Strict({
  status: Type.Optional(literals(paymentIntentStatuses)),
  action_type: Type.Optional(ActionType),
  agent_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Only intents this agent proposed.' })),
  created_from: Type.Optional(Timestamp),
  created_to: Type.Optional(Timestamp),
  ...pageQuery(intentPageRows),
})

export const IntentListResponse = named('PaymentIntentList', Strict({ payment_intents: Type.Array(PaymentIntent), next_cursor: NextCursor }))

export const ReplayInvestigationResponse = named('PaymentIntentReplayInvestigation', Strict({
  payment_intent: PaymentIntent,
  executions: Type.Array(
    Strict({
      id: Type.String(),
      rail: Type.String(),
      status: Type.Union([Type.Literal('dispatched'), Type.Literal('in_flight'), Type.Literal('completed'), Type.Literal('failed')], { description: 'The execution row (docs/execution.md has the moves).' }),
      rail_receipt: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()], { description: 'The settlement receipt, typed by its `type` (ach, wire, erp, onchain); null until the rail settles.' }),
    }),
    { description: 'Rail executions, oldest first (one per dispatch).' },
  ),
  policy_decision_id: Type.String(),
  evidence_ids: Type.Array(Type.String()),
}))

export const ExecuteResponse = named('PaymentIntentDispatch', Strict({
  payment_intent_id: Type.String(),
  outbox_id: Nullable(Type.String({ description: 'The outbox row the execution worker picks up (pob_…); null for a shadow run, which sends nothing.' })),
  execution_id: Nullable(Type.String({ description: 'Null until the worker picks the row up.' })),
  rail: literals(['bank_ach', 'onchain_base', 'erp_writeback', 'x402_base', 'escrow_base'] as const),
  status: literals(['dispatching', 'shadow_completed'] as const),
  gate_run_id: Type.String({ description: 'The recorded gate run (gtr_…): all 23 check results.' }),
  shadow: Type.Optional(
    Strict(
      {
        gate_passed: Type.Boolean({ description: 'Whether every check passed: whether the payment would have gone out.' }),
        failed_checks: Type.Array(Type.String(), { description: 'The checks that failed, as `index:name`.' }),
      },
      { description: 'Present for a shadow run only: an un-promoted agent\'s money proposal ran the whole pipeline and ended shadow_completed, with no rail call (governing rule 7).' },
    ),
  ),
}))
