/** Wire schemas of the Policy routes (spec, "Policy"). The content schema is the domain's, published as JSON Schema. */
import Type, { type TSchema } from 'typebox'
import { policyStates } from './policy.tables.ts'
import { DayOrTimestamp, named, NextCursor, Nullable, pageQuery, Strict, TenantId, TenantPathId, Timestamp } from '../../platform/http/schemas.ts'
import { prefixedIdPattern } from '../../kernel/ids.ts'
import { actionKinds, policyContentSchema, riskLevels, type PolicyContent } from './domain/index.ts'
import { quorumRequiredMax } from './compose.service.ts'
import { versionPageRows } from './read.service.ts'
import { signaturesPerRequestMax } from './sign.service.ts'
import { historicalPeriodDaysMax, historicalScanRowsMax } from './simulate-historical.service.ts'

/**
 * The policy content schema as a request schema: the domain's schema without its `$id`, because each
 * route compiles its own copy and a validator refuses two schemas with one id.
 */
function contentRequestSchema(description: string) {
  const { $id: _id, ...schema } = policyContentSchema as TSchema & { $id?: string }
  return Type.Unsafe<PolicyContent>({ ...schema, description })
}

/** An open object in responses: the policy content, returned exactly as stored (see GET /v1/schemas/policy-content.json). */
const ContentView = Type.Record(Type.String(), Type.Unknown(), { description: 'The policy content as composed (schema: GET /v1/schemas/policy-content.json).' })

const PolicyId = Type.String({ pattern: prefixedIdPattern('policy'), description: 'Policy version id (pol_…).' })
const Address = Type.String({ pattern: '^0x[0-9a-f]{40}$', description: 'A wallet address, lower-cased.' })
const ContentHash = Type.String({ pattern: '^0x[0-9a-f]{64}$', description: 'keccak256 of the RFC 8785 canonical JSON of the content, 0x-prefixed.' })
const VersionNumber = Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'The tenant\'s sequential policy version (the default policy is 1).' })

export const PolicyParams = Strict({ tenant_id: TenantPathId })

export const Policy = named('Policy', Strict({
  id: PolicyId,
  version: VersionNumber,
  state: Type.Enum(policyStates, {
    description: 'pending_signatures → active at quorum; superseded once a later version is activated (an additive value: the spec names the first two).',
  }),
  content: ContentView,
  content_hash: ContentHash,
  signers: Type.Array(Address, { description: 'Addresses whose verified signatures are recorded, in signing order.' }),
  quorum_required: Type.Integer({ minimum: 1 }),
  activated_at: Nullable(Timestamp),
  deactivated_at: Nullable(Timestamp),
  created_by: Type.String({ description: 'The user that composed it, or `system` for the default policy.' }),
  created_at: Timestamp,
}))

/** A lint finding; also the shape of the warnings of compose and sign. */
export const LintFinding = named('PolicyLintFinding', Strict({
  code: Type.String(),
  severity: Type.Enum(['error', 'warning', 'info']),
  rule_id: Nullable(Type.String()),
  message: Type.String(),
}))

/** EIP-712 typed data, ready for `signTypedData` (viem, ethers, a wallet's eth_signTypedData_v4). */
const SigningPayload = Type.Object(
  {
    domain: Type.Record(Type.String(), Type.Unknown(), { description: '{ name: "Steward Policy", version: "1", chainId: 8453 }.' }),
    types: Type.Record(Type.String(), Type.Array(Strict({ name: Type.String(), type: Type.String() }))),
    primaryType: Type.Literal('Policy'),
    message: Type.Record(Type.String(), Type.Unknown(), { description: 'tenantId, policyId, version, contentHash, quorumRequired.' }),
  },
  { additionalProperties: false },
)

export const ComposeBody = Strict({
  content: contentRequestSchema(
    'The policy document (mandatory numeric version, rules (an auto rule may carry an autonomous_cap, a confirm rule approvals), optional lists, agent_actions, window_hours).',
  ),
  quorum_required: Type.Optional(
    Type.Integer({ minimum: 1, maximum: quorumRequiredMax, description: `Distinct authorized signers needed to activate it: 1 (default) to ${quorumRequiredMax}.` }),
  ),
})

export const ComposeResponse = Strict({
  policy_id: PolicyId,
  version: VersionNumber,
  state: Type.Literal('pending_signatures'),
  content_hash: ContentHash,
  quorum_required: Type.Integer({ minimum: 1 }),
  signing_payload: SigningPayload,
  warnings: Type.Array(LintFinding, { description: 'Lint errors and warnings of the content; quorum_below_active when quorum_required is below the active version\'s (activation needs the active quorum all the same); quorum_exceeds_signers when fewer authorized signers are linked than activation needs.' }),
})

export const SignBody = Strict({
  policy_id: PolicyId,
  signatures: Type.Array(
    Strict({
      address: Type.String({ pattern: '^0x[0-9a-fA-F]{40}$', description: 'The signer\'s address (any case).' }),
      signature: Type.String({ minLength: 1, maxLength: 1024, description: 'The EIP-712 signature of signing_payload, 0x-prefixed hex.' }),
    }),
    { minItems: 1, maxItems: signaturesPerRequestMax },
  ),
})

export const SignResponse = Strict({
  policy: Policy,
  activated: Type.Boolean({ description: 'True when this call brought the policy to quorum and activated it.' }),
  warnings: Type.Array(LintFinding),
})

export const VersionsQuery = Strict(pageQuery(versionPageRows))

export const VersionList = Strict({
  versions: Type.Array(
    Strict({
      id: PolicyId,
      version: VersionNumber,
      state: Type.Enum(policyStates),
      content_hash: ContentHash,
      quorum_required: Type.Integer({ minimum: 1 }),
      signers: Type.Array(Address),
      activated_at: Nullable(Timestamp),
      deactivated_at: Nullable(Timestamp),
      created_by: Type.String(),
      created_at: Timestamp,
    }),
    { description: 'Newest first, pending and superseded versions included.' },
  ),
  next_cursor: NextCursor,
})

// The same bounds as the policy language's money (src/kernel/money.ts, parseMoney).
const Money = Strict(
  {
    currency: Type.String({ pattern: '^[A-Z0-9]{2,10}$', description: 'ISO 4217 code or token symbol (USDC).' }),
    value: Type.String({ pattern: '^[0-9]+(\\.[0-9]+)?$', maxLength: 40, description: 'Non-negative decimal string.' }),
  },
  { description: 'An amount: currency and decimal string.' },
)
const ShortText = (description: string) => Type.String({ minLength: 1, maxLength: 128, description })
const Score = Type.Number({ minimum: 0, maximum: 1 })

const evaluatedFields = {
  kind: Type.Enum(actionKinds, { description: 'The action kind (any is valid only inside a rule).' }),
  counterparty_id: Type.Optional(Nullable(ShortText('The counterparty (a Ledger counterparty id, or any id your lists use).'))),
  amount: Type.Optional(Nullable(Money)),
  agent_role: Type.Optional(Nullable(ShortText('The proposing agent\'s role (collections, fraud_anomaly, vendor_risk, …).'))),
  timestamp: Type.Optional(Nullable(Timestamp)),
}

/** POST /evaluate: exactly the spec's five fields. */
export const EvaluateAction = Strict(evaluatedFields, { description: 'Only kind, counterparty_id, amount, agent_role and timestamp are accepted.' })

/** POST /simulate: the evaluated fields plus the ones the gate populates, so rules on them can be tried. */
export const SimulateAction = Strict(
  {
    ...evaluatedFields,
    agent_id: Type.Optional(Nullable(ShortText('Gate-populated.'))),
    action_type: Type.Optional(Nullable(ShortText('Gate-populated: a PaymentIntent or agent action type.'))),
    tenant_category: Type.Optional(Nullable(ShortText('Gate-populated.'))),
    confidence: Type.Optional(Nullable(Score)),
    evidence_score: Type.Optional(Nullable(Score)),
    risk_level: Type.Optional(Nullable(Type.Enum(riskLevels))),
    spend_in_window: Type.Optional(Nullable(Money)),
    tx_count_in_window: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
    behavior_hash: Type.Optional(Nullable(ShortText('Gate-populated.'))),
    action_id: Type.Optional(Nullable(ShortText('Gate-populated.'))),
  },
  { description: 'The evaluated fields, plus the fields the gate populates (agent_id, action_type, tenant_category, confidence, evidence_score, risk_level, spend_in_window, tx_count_in_window, behavior_hash, action_id).' },
)

export const EvaluateBody = Strict({ action: EvaluateAction })

const TraceEntry = Strict({
  rule_id: Type.String({ description: 'A rule id, or a pseudo-rule: [agent_actions], [autonomous_cap], [fallback], [default_deny].' }),
  matched: Type.Boolean(),
  checks: Type.Array(Strict({ key: Type.String(), passed: Type.Boolean(), detail: Type.String() })),
})

const RequiredApprovers = Type.Array(Type.String(), {
  description:
    'Empty unless the outcome is confirm: the approver label once per distinct approval needed (the matched rule\'s require, default signer, repeated approvals times: ["finance", "finance"] needs two different members); [signer] for the agent_action fallback.',
})

const CoveredByAutonomousCap = Type.Boolean({
  description:
    'Additive: whether the matched rule\'s signed autonomous cap covers this action; the gate\'s hard human-approval floor holds allowed money actions that it does not cover.',
})

export const Decision = named('PolicyDecision', Strict({
  outcome: Type.Enum(['allow', 'confirm', 'reject']),
  matched_rule_id: Nullable(Type.String()),
  required_approvers: RequiredApprovers,
  covered_by_autonomous_cap: CoveredByAutonomousCap,
  trace: Type.Array(TraceEntry),
}))

export const EvaluateResponse = Strict({
  outcome: Type.Enum(['allow', 'confirm', 'reject']),
  matched_rule_id: Nullable(Type.String()),
  required_approvers: RequiredApprovers,
  covered_by_autonomous_cap: CoveredByAutonomousCap,
  trace: Type.Array(TraceEntry),
  policy_id: PolicyId,
  policy_version: VersionNumber,
  audit_event_id: Type.String({ description: 'The policy.evaluate audit event this call recorded.' }),
})

export const LintBody = Strict({
  policy_content: Type.Unknown({ description: 'Any JSON value: schema violations are reported as error findings, not refused.' }),
})

export const LintResponse = Strict({
  tenant_id: TenantId,
  errors: Type.Integer({ minimum: 0 }),
  warnings: Type.Integer({ minimum: 0 }),
  findings: Type.Array(LintFinding),
})

export const SimulateBody = Strict({ action: SimulateAction, version: VersionNumber })
export const SimulateResponse = Strict({ decision: Decision, policy_version: VersionNumber })

const PeriodBound = DayOrTimestamp('A date (YYYY-MM-DD) or an ISO 8601 timestamp; its calendar date, as written, is used (inclusive).')

export const SimulateHistoricalBody = Strict({
  policy_content: contentRequestSchema('The candidate policy document (not stored).'),
  period_start: PeriodBound,
  period_end: PeriodBound,
})

const DiffItem = Strict({
  transaction_id: Type.String(),
  transaction_date: Type.String({ format: 'date' }),
  amount: Money,
  counterparty_id: Nullable(Type.String()),
  before: Type.Enum(['allow', 'confirm', 'reject'], { description: 'The outcome under the active policy.' }),
  after: Type.Enum(['allow', 'confirm', 'reject'], { description: 'The outcome under the candidate.' }),
  matched_rule_before: Nullable(Type.String()),
  matched_rule_after: Nullable(Type.String()),
})

export const SimulateHistoricalResponse = Strict({
  total: Type.Integer({ minimum: 0 }),
  would_allow: Type.Integer({ minimum: 0 }),
  would_confirm: Type.Integer({ minimum: 0 }),
  would_reject: Type.Integer({ minimum: 0 }),
  diff_vs_active: Strict({
    newly_allowed: Type.Array(DiffItem, { description: 'allow under the candidate, not under the active policy.' }),
    newly_rejected: Type.Array(DiffItem, { description: 'reject under the candidate, not under the active policy.' }),
    changed_other: Type.Array(DiffItem, { description: 'Any other change of outcome (for example allow → confirm).' }),
    unchanged: Type.Integer({ minimum: 0 }),
    items_truncated: Type.Boolean({ description: 'True when a list was cut at its item limit (the counts above still cover every action).' }),
  }),
  source: Type.Literal('ledger_outflows', { description: 'Which recorded actions were replayed (payment intents take precedence once they exist).' }),
  active_policy_version: VersionNumber,
  period_start: Type.String({ format: 'date' }),
  period_end: Type.String({ format: 'date' }),
  truncated: Type.Boolean({ description: `True when the period holds more than ${historicalScanRowsMax} actions; the oldest ${historicalScanRowsMax} were replayed.` }),
})

export const DiffBody = Strict({ from_version: VersionNumber, to_version: VersionNumber })

const RuleView = Type.Record(Type.String(), Type.Unknown(), { description: 'A rule as written in the content.' })
export const DiffResponse = Strict({
  from_version: VersionNumber,
  to_version: VersionNumber,
  added: Type.Array(RuleView),
  removed: Type.Array(RuleView),
  modified: Type.Array(Strict({ rule_id: Type.String(), field: Type.String(), before: Type.Unknown(), after: Type.Unknown() })),
})

/** The published JSON Schema of policy content. */
export const ContentSchemaResponse = Type.Record(Type.String(), Type.Unknown(), { description: 'A JSON Schema (draft 2020-12 compatible).' })

export const historicalLimitsNote = `period_end − period_start is at most ${historicalPeriodDaysMax} days.`
