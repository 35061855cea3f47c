/** Wire schemas of the agent routes. */
import Type from 'typebox'
import { Day, named, NextCursor, Nullable, pageQuery, PathId, Strict, Timestamp } from '../../platform/http/schemas.ts'

const Category = Type.Enum(['business', 'consumer', 'agnostic'])

const catalogFields = {
  agent_key: Type.String({ description: 'The agent\'s id in the catalog (bill_payment, collections, …).' }),
  provenance: Type.Literal('first_party'),
  kind: Type.Literal('internal', { description: 'internal: a first-party agent.' }),
  role: Type.String({ description: 'The public proposal type it produces.' }),
  display_name: Type.String(),
  description: Type.String(),
  category: Category,
  capabilities: Type.Array(Type.String()),
  enabled_by_default: Type.Boolean(),
  version: Type.String({ description: 'The program version.' }),
  behavior_hash: Type.String({ description: 'SHA-256 (0x hex) of the agent key, program version and configuration; gate check 1.5 pins it.' }),
}

export const AgentCatalogEntry = named('AgentCatalogEntry', Strict(catalogFields))

const AgentStateField = Type.Enum(['pending_onchain', 'active', 'quarantined', 'revoked'], { description: 'The agent\'s state in your tenant (spec, "Agent state").' })

/** The spec's Agent, for an external agent registered by an operator: its fields (the governance views add to them). */
export const registeredAgentFields = {
  id: Type.String(),
  kind: Type.Literal('external'),
  role: Type.String({ description: 'reader, contributor or proposer: fixes the agent\'s plain scopes and so its scope hash.' }),
  display_name: Type.String(),
  state: AgentStateField,
  scope_hash: Type.String({ description: 'keccak256 (0x hex) of the role\'s plain scopes, sorted and joined by |; the AgentRegistry contract must hold it.' }),
  onchain_address: Type.Union([Type.String(), Type.Null()], { description: 'The agent\'s wallet (lower-case hex).' }),
  registered_tx: Type.Union([Type.String(), Type.Null()], { description: 'The registering transaction: as given, then as confirmed on chain.' }),
  registered_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'null until the agent is activated.' }),
  created_at: Type.String({ format: 'date-time' }),
  contribution_hold: Type.Boolean({ description: 'True while the agent\'s Raw contributions wait for a release (set by a halt).' }),
}

export const RegisteredAgent = named('RegisteredAgent', Strict(registeredAgentFields))

export const AgentList = named('AgentList', Strict({ agents: Type.Array(Type.Union([AgentCatalogEntry, RegisteredAgent])) }))

export const AgentDetail = named(
  'AgentDetail',
  Strict({
    agent_id: Type.String(),
    definition: Type.Union([
      Strict({ ...catalogFields, shadow_mode: Type.Boolean({ description: 'True while the agent is not promoted for your tenant: its money proposals end shadow_completed.' }) }),
      Type.Null(),
    ], { description: 'A first-party agent\'s catalog entry; null for a registered agent.' }),
    registration: Type.Union([RegisteredAgent, Type.Null()], { description: 'A registered agent\'s record; null for first-party agents, which are not registered on chain.' }),
    state: AgentStateField,
    contribution_hold: Type.Boolean(),
  }),
)

export const RegisterAgentBody = Strict({
  agent_id: Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_.:-]+$', description: 'A first-party agent\'s key is 409 agent_already_registered; an id beginning svt_ (service tokens\' ids) is 400 validation_failed.' }),
  role: Type.Enum(['reader', 'contributor', 'proposer'], { description: 'reader: ledger:read, wiki:read; contributor: adds raw:write; proposer: adds payment_intent:propose.' }),
  display_name: Type.String({ minLength: 1, maxLength: 200 }),
  scope_hash: Type.Optional(Type.String({ pattern: '^0x[0-9a-fA-F]{64}$', description: 'Must equal the role\'s scope hash when given.' })),
  onchain_address: Type.Optional(Type.String({ pattern: '^0x[0-9a-fA-F]{40}$' })),
  registered_tx: Type.Optional(Type.String({ pattern: '^0x[0-9a-fA-F]{64}$', description: 'The AgentRegistry transaction that registered the agent, checked at activation.' })),
})

export const AgentStateView = named(
  'AgentStateView',
  Strict({ agent_id: Type.String(), state: AgentStateField, contribution_hold: Type.Boolean() }),
)

export const AgentHalt = named(
  'AgentHalt',
  Strict({ agent_id: Type.String(), state: AgentStateField, contribution_hold: Type.Boolean(), paused_payment_intent_ids: Type.Array(Type.String()) }),
)

export const AgentCategoryHalt = named('AgentCategoryHalt', Strict({ category: Category, halted: Type.Array(AgentHalt) }))

export const HaltCategoryBody = Strict({ category: Category })

export const ContributionHoldRelease = named(
  'ContributionHoldRelease',
  Strict({
    agent_id: Type.String(),
    state: AgentStateField,
    contribution_hold: Type.Boolean(),
    released: Type.Boolean({ description: 'False when there was no hold to release.' }),
    released_raw_ids: Type.Array(Type.String(), { description: 'The Raw artifacts the hold kept from the Ledger, now handed to normalization (at most 1,000 per release; a release with more leaves the rest for the next).' }),
  }),
)

export const AgentListQuery = Strict({
  kind: Type.Optional(Type.Enum(['internal', 'external'])),
  capability: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  category: Type.Optional(Category),
  state: Type.Optional(Type.Enum(['enabled', 'disabled'], { description: 'enabled: enabled by default; disabled: not.' })),
})

export const AgentParams = Strict({ agent_id: PathId('agent_not_found', undefined, 'The agent (its catalog key)') })

// ——— Routing and runs (issue 18, item 4) ———

const Score = (description: string) => Type.Number({ minimum: 0, maximum: 1, description })
const PolicyStatus = Type.Enum(['routed', 'unscoped', 'no_match'], { description: 'routed: an agent was selected; unscoped: selected, but the caller may not take its payments forward; no_match: none.' })
const ExecutionMode = Nullable(Type.Enum(['execute', 'propose', 'confirm', 'notify_only', 'reject'], { description: 'propose: payments through the gated path; notify_only: findings for a person; reject: unscoped; null: no_match.' }))
const RunStatus = Type.Enum(['proposal_created', 'no_proposal', 'no_match', 'unscoped'])

export const RouteBody = Type.Object(
  {
    event: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'A domain-event name (ledger.obligation.created, …). Give exactly one of event and intent.' })),
    intent: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: 'Free text (“which bills are due?”). Give exactly one of event and intent.' })),
    context: Type.Optional(
      Type.Object(
        { as_of: Type.Optional(Day('The day the agent runs for (default: today, UTC).')) },
        { additionalProperties: true, maxProperties: 50, description: 'Anything the caller wants recorded with the decision; as_of sets the day a run reads the Ledger for.' },
      ),
    ),
  },
  { additionalProperties: false },
)

const routingFields = {
  selected_agent_id: Nullable(Type.String()),
  fallback_agent_ids: Type.Array(Type.String()),
  confidence: Score('How clearly the rule picked the agent.'),
  evidence_score: Score('How much of the input the selection explains.'),
  policy_status: PolicyStatus,
  execution_mode: ExecutionMode,
  reason: Type.String(),
}

export const RoutingResult = named('AgentRoutingResult', Strict({ routing_decision_id: Type.String(), ...routingFields }))

const Candidate = Strict({ agent_id: Type.String(), score: Type.Number(), matched: Type.Array(Type.String()) })

export const RoutingDecisionDetail = named(
  'AgentRoutingDecision',
  Strict({
    id: Type.String(),
    input: Strict({ event: Nullable(Type.String()), intent: Nullable(Type.String()) }),
    context: Type.Record(Type.String(), Type.Unknown()),
    ...routingFields,
    rule: Type.String({ description: 'event_table:<event>, keywords or none (docs/agents.md, "Routing").' }),
    candidates: Type.Array(Candidate),
    run_id: Nullable(Type.String({ description: 'The run it was made for; null for POST /v1/agents/route.' })),
    created_at: Timestamp,
  }),
)

const RunProposalSummary = Strict({
  id: Type.String(),
  proposal_type: Type.String(),
  action_type: Type.String(),
  key: Type.String(),
  status: Type.String({ description: 'proposed for a finding; a money proposal\'s PaymentIntent status (pending_approval, shadow_completed, …); refused when the payments module refused it.' }),
  payment_intent_id: Nullable(Type.String()),
  policy_decision_id: Nullable(Type.String()),
  confidence: Score('The program\'s confidence.'),
  evidence_score: Score('How well its evidence supports it.'),
  narrative: Type.String(),
})

export const RunResult = named(
  'AgentRunResult',
  Strict({
    status: RunStatus,
    routing_decision_id: Type.String(),
    run_id: Type.String(),
    selected_agent_id: Nullable(Type.String()),
    action: Nullable(Type.String({ description: 'The stored action type of the first proposal.' })),
    shadow_mode: Type.Boolean(),
    proposed: Nullable(Strict({ id: Type.String({ description: 'The PaymentIntent for a payment, else the proposal.' }), status: Type.String(), policy_decision_id: Nullable(Type.String()) })),
    proposals: Type.Array(RunProposalSummary),
    duplicates: Type.Array(Type.String({ description: 'Keys of proposals already made within 24 hours, not made again.' })),
    reason: Type.String(),
  }),
)

export const EventQueued = named('AgentEventQueued', Strict({ job_id: Type.String(), status: Type.Literal('queued') }))

const RunFields = {
  id: Type.String(),
  routing_decision_id: Type.String(),
  agent_id: Nullable(Type.String()),
  category: Nullable(Category),
  status: RunStatus,
  action: Nullable(Type.String()),
  shadow_mode: Type.Boolean(),
  as_of: Type.String({ description: 'The day the program read the Ledger for.' }),
  trigger: Type.Enum(['api', 'event']),
  job_id: Nullable(Type.String()),
  behavior_hash: Nullable(Type.String()),
  reason: Type.String(),
  proposal_ids: Type.Array(Type.String()),
  payment_intent_ids: Type.Array(Type.String()),
  created_at: Timestamp,
}

export const RunSummary = named('AgentRunSummary', Strict(RunFields))
export const RunList = named('AgentRunList', Strict({ runs: Type.Array(RunSummary), next_cursor: NextCursor }))

const EvidenceRef = Strict({ kind: Type.String(), ref: Type.String() })

export const AgentProposalView = named(
  'AgentProposal',
  Strict({
    id: Type.String(),
    run_id: Nullable(Type.String({ description: 'The run that made it; null for an action the agent proposed itself (POST /v1/agents/actions).' })),
    agent_id: Type.String(),
    proposal_type: Type.String(),
    action_type: Type.String(),
    key: Type.String(),
    status: Type.String(),
    confidence: Score('The program\'s confidence.'),
    evidence_score: Score('How well its evidence supports it.'),
    narrative: Type.String(),
    evidence: Type.Array(EvidenceRef),
    details: Type.Record(Type.String(), Type.Unknown()),
    payment_intent_id: Nullable(Type.String()),
    policy_decision_id: Nullable(Type.String()),
    created_at: Timestamp,
  }),
)

export const RunDetail = named('AgentRunDetail', Strict({ ...RunFields, proposals: Type.Array(AgentProposalView) }))

export const RunWhy = named(
  'AgentRunWhy',
  Strict({
    run_id: Type.String(),
    agent_id: Nullable(Type.String()),
    behavior_hash: Nullable(Type.String()),
    behavior_hash_current: Nullable(Type.Boolean({ description: 'Whether the agent\'s behaviour hash is still the one it ran with.' })),
    structured_reason: Type.Record(Type.String(), Type.Unknown()),
    reasoning_trace: Type.Array(Strict({ step: Type.String(), detail: Type.Record(Type.String(), Type.Unknown()) }), { description: 'Each step by record ids and kinds; the intent\'s text and free-text narratives are redacted.' }),
    candidates: Type.Array(Candidate),
  }),
)

export const RunEvidence = named(
  'AgentRunEvidence',
  Strict({
    run_id: Type.String(),
    ledger_read: Type.Record(Type.String(), Type.Unknown(), { description: 'What the program read: record counts and the snapshot digest.' }),
    evidence: Type.Array(Strict({ kind: Type.String(), ref: Type.String(), cited_by: Type.Array(Type.String()) })),
  }),
)

export const RunGateTrace = named(
  'AgentRunGateTrace',
  Strict({
    run_id: Type.String(),
    payment_intents: Type.Array(
      Strict({
        payment_intent_id: Type.String(),
        proposal_id: Type.String(),
        status: Type.String(),
        dry_run: Nullable(Type.Record(Type.String(), Type.Unknown())),
        gate_runs: Type.Array(
          Strict({
            id: Type.String(),
            mode: Type.String(),
            audit_event_id: Nullable(Type.String()),
            checks: Type.Array(Type.Object({ index: Type.Union([Type.Number(), Type.String()]), name: Type.String(), passed: Type.Boolean(), reason: Type.String() })),
          }),
        ),
      }),
    ),
  }),
)

export const AgentActions = named(
  'AgentActions',
  Strict({
    actions: Type.Array(
      Strict({
        proposal: AgentProposalView,
        payment_intent: Nullable(Strict({ id: Type.String(), status: Type.String(), policy_decision_id: Nullable(Type.String()) })),
        status: Type.String(),
      }),
    ),
    next_cursor: NextCursor,
  }),
)

export const RunListQuery = Strict({
  agent_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  status: Type.Optional(RunStatus),
  category: Type.Optional(Category),
  ...pageQuery({ defaultRows: 50, maxRows: 100 }),
})

export const ActionsQuery = Strict({ ...pageQuery({ defaultRows: 50, maxRows: 100 }) })

export const RunParams = Strict({ run_id: PathId('agent_run_not_found', 'agentRun', 'The run') })
export const RoutingDecisionParams = Strict({ id: PathId('agent_routing_decision_not_found', 'routingDecision', 'The routing decision') })

export const AgentActionBody = Strict(
  {
    action_type: Type.String({
      pattern: '^[a-z][a-z0-9_]{0,63}$',
      description:
        'The stored action type of the finding (flag_transaction, remind, propose_match, block_payment, tag_tax_item, recommend_savings_transfer, …, or a public proposal type itself). It must resolve to a public proposal type (docs/proposals.md, "Types"); a payment action type (ach_outbound, pay_invoice, …) is 400: money moves are PaymentIntents.',
    }),
    narrative: Type.String({ minLength: 1, maxLength: 2000, description: 'One or two plain sentences a person reads.' }),
    confidence: Type.Number({ minimum: 0, maximum: 1, description: 'How sure the agent is, 0..1.' }),
    evidence: Type.Optional(
      Type.Array(Strict({ kind: Type.String({ pattern: '^[a-z_]{1,32}$' }), ref: Type.String({ minLength: 1, maxLength: 255 }) }), {
        maxItems: 50,
        description: 'What the finding relies on (kind and ref, as POST /v1/evidence/resolve takes them), at most 50.',
      }),
    ),
    details: Type.Optional(Type.Record(Type.String({ maxLength: 64 }), Type.Unknown(), { maxProperties: 50, description: 'The stored action\'s fields (free-form, at most 50 keys).' })),
  },
  { description: 'A non-money finding an agent proposes.' },
)

export const AgentActionProposed = named(
  'AgentActionProposed',
  Strict({
    id: Type.String({ description: 'The proposal id (GET /v1/proposals/{id}).' }),
    agent_id: Type.String(),
    proposal_type: Type.String({ description: 'The public proposal type the action type resolved to.' }),
    action_type: Type.String(),
    status: Type.Literal('proposed'),
    confidence: Score('The agent\'s confidence.'),
    evidence_score: Score('The share of cited refs a Ledger record or a parsed row backs.'),
    created_at: Timestamp,
  }),
)
