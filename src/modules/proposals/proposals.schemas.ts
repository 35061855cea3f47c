/** Wire schemas of the proposal and evidence routes, shared with the agent-protocol tools (proposals.rpc.ts). */
import Type from 'typebox'
import { named, NextCursor, Nullable, pageQuery, PathId, Strict, Timestamp } from '../../platform/http/schemas.ts'
import { evidenceRefsMax } from './domain/evidence.ts'
import { proposalDecisions, proposalStatuses, publicProposalTypes, riskBands } from './domain/types.ts'

/** Proposals per page (spec, Limits: 1 to 100). */
export const proposalPageRows = { defaultRows: 50, maxRows: 100 } as const

export const ProposalTypeSchema = Type.Enum([...publicProposalTypes], { description: 'A public proposal type (spec, "Proposal").' })
export const ProposalStatusSchema = Type.Enum([...proposalStatuses], { description: 'The proposal\'s status (spec, "Proposal").' })
export const RiskBandSchema = Type.Enum([...riskBands])
export const DecisionSchema = Type.Enum([...proposalDecisions])

export const ProposalListQuery = Strict({
  type: Type.Optional(ProposalTypeSchema),
  status: Type.Optional(ProposalStatusSchema),
  risk_band: Type.Optional(RiskBandSchema),
  min_confidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'Only proposals whose confidence is at least this (0..1).' })),
  ...pageQuery(proposalPageRows),
})

export const ProposalParams = Strict({ id: PathId('execution_proposal_not_found', 'agentProposal', 'The proposal') })

const DecisionOption = Strict({ id: DecisionSchema, label: Type.String(), meaning: Type.String() })

const PolicyTrace = Type.Array(
  Strict({ rule_id: Type.String(), matched: Type.Boolean(), checks: Type.Array(Strict({ key: Type.String(), passed: Type.Boolean(), detail: Type.String() })) }),
)

const StageDetail = Type.Record(Type.String(), Type.Unknown())

export const Proposal = named(
  'Proposal',
  Strict({
    id: Type.String({ description: 'prp_…' }),
    type: ProposalTypeSchema,
    created_at: Timestamp,
    status: ProposalStatusSchema,
    risk_band: Nullable(RiskBandSchema),
    confidence: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
    mode: Type.Literal('propose', { description: 'Agents propose; a person decides.' }),
    narrative: Type.String(),
    evidence: Type.Array(Strict({ kind: Type.String(), ref: Type.String(), resolvable: Type.Boolean({ description: 'Whether POST /v1/evidence/resolve resolves this kind.' }) })),
    agent: Strict({ id: Type.String(), kind: Type.Enum(['internal', 'external']), display_name: Type.String() }),
    payment_intent_id: Nullable(Type.String()),
    action_type: Nullable(Type.String({ description: 'The PaymentIntent\'s action type; null for a non-money finding.' })),
    stored_action_type: Type.String({ description: 'The action type the agent stored (pay_invoice, remind, flag_transaction, …).' }),
    details: Type.Record(Type.String(), Type.Unknown(), { description: 'The stored action\'s fields.' }),
    policy: Strict({
      decision: Nullable(Type.Enum(['allow', 'confirm', 'reject'])),
      policy_id: Nullable(Type.String()),
      policy_version: Nullable(Type.Integer()),
      matched_rule_id: Nullable(Type.String()),
      explanation: Type.String(),
      required_approvers: Type.Array(Type.String()),
      trace: PolicyTrace,
    }),
    presentation: Strict({
      headline: Type.String(),
      recommendation: Type.String(),
      key_facts: Type.Array(Strict({ label: Type.String(), value: Type.String() })),
      confidence_band: Type.Enum(['high', 'medium', 'low', 'unknown']),
      policy: Type.String({ description: 'The policy decision in one sentence.' }),
      consequences: Strict({ approve: Nullable(Type.String()), reject: Nullable(Type.String()), acknowledge: Nullable(Type.String()) }),
      actions: Type.Array(DecisionOption),
      technical_detail: Strict({
        '1_ingest': StageDetail,
        '2_extract': StageDetail,
        '3_classify': StageDetail,
        '4_score': StageDetail,
        '5_policy': StageDetail,
        '6_propose': StageDetail,
      }),
    }),
    available_decisions: Type.Array(DecisionOption),
  }),
)

export const ProposalList = named('ProposalList', Strict({ proposals: Type.Array(Proposal), next_cursor: NextCursor }))

export const DecideBody = Strict({
  decision: DecisionSchema,
  reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'Why (at most 500 characters); stored with a rejection.' })),
})

export const DecideResult = named(
  'ProposalDecisionResult',
  Strict({
    decision: Strict({
      id: Type.String({ description: 'pdn_…' }),
      proposal_id: Type.String(),
      decision: DecisionSchema,
      status_before: ProposalStatusSchema,
      status: ProposalStatusSchema,
      undoes_decision_id: Nullable(Type.String()),
      created_at: Timestamp,
    }),
    proposal: Proposal,
  }),
)

export const EvidenceResolveBody = Strict({
  refs: Type.Array(Strict({ kind: Type.String({ maxLength: 1000 }), ref: Type.String({ maxLength: 1000 }) }), {
    maxItems: evidenceRefsMax,
    description: `Evidence refs (kind and ref), at most ${evidenceRefsMax}. A ref never makes the request fail: each is answered in results.`,
  }),
})

export const EvidenceResolveResult = named(
  'EvidenceResolveResult',
  Strict({
    results: Type.Array(
      Strict({
        kind: Type.String(),
        ref: Type.String(),
        resolvable: Type.Boolean(),
        not_found: Type.Boolean({ description: 'True when the kind resolves and the ref is well-formed but names nothing in your tenant.' }),
        summary: Nullable(Type.String()),
        deep_link: Nullable(Type.String({ description: 'The API path that reads the record in full.' })),
        reason: Nullable(Type.Enum(['unsupported_kind', 'malformed_ref'], { description: 'Why the ref was not resolved; null when it was looked up.' })),
      }),
    ),
  }),
)
