/** Wire schemas of the execution module's routes: the rail providers' webhooks. */
import Type from 'typebox'
import { named, Nullable, PathId, Strict, Timestamp } from '../../platform/http/schemas.ts'
import { signatureToleranceSeconds } from '../raw/index.ts'

/** A bank_ach provider event: a transfer settled, or returned (before or after it settled). Inline: request schemas are not named. */
export const AchWebhookPayload = Strict(
  {
    id: Type.String({ minLength: 1, maxLength: 128, description: 'The provider\'s event id; the same on every redelivery.' }),
    type: Type.Union([Type.Literal('transfer.settled'), Type.Literal('transfer.returned')]),
    transfer_id: Type.String({ minLength: 1, maxLength: 128, description: 'The provider\'s transfer id (the execution\'s rail_reference).' }),
    idempotency_key: Type.String({ minLength: 1, maxLength: 128, description: 'The key the transfer was created with: the outbox row\'s.' }),
    metadata: Strict(
      { tenant_id: Type.String({ format: 'uuid' }), payment_intent_id: Type.String({ maxLength: 64 }) },
      { description: 'What Steward attached to the transfer, echoed by the provider: the tenant and the intent.' },
    ),
    amount: Type.String({ maxLength: 40 }),
    currency: Type.String({ maxLength: 10 }),
    return_code: Type.Union([Type.String({ pattern: '^R[0-9]{2}$' }), Type.Null()], {
      description: 'NACHA return code of a returned transfer (R and two digits): required on transfer.returned (400 request_body_invalid without it); ignored, and null from the sandbox, on transfer.settled.',
    }),
    settled_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When the transfer settled; null for one returned before settlement.' }),
    occurred_at: Type.String({ format: 'date-time' }),
  },
  { description: 'A bank_ach provider event, signed over its raw bytes.' },
)

export const RailWebhookHeaders = Type.Object({
  'x-provider-signature': Type.Optional(
    Type.String({ description: `t=<unix seconds>,v1=<hex HMAC-SHA-256(secret, "<t>." + raw body)>; the timestamp must be within ${signatureToleranceSeconds} s of ours.` }),
  ),
})

export const RailWebhookAccepted = named(
  'RailWebhookAccepted',
  Strict({
    accepted: Type.Literal(true),
    applied: Type.Boolean({ description: 'False when the event changed nothing (a redelivery, or an event about an execution already settled that way).' }),
    execution_id: Type.String(),
    execution_status: Type.Union([Type.Literal('dispatched'), Type.Literal('in_flight'), Type.Literal('completed'), Type.Literal('failed')]),
  }),
)

const RailName = Type.Enum(['bank_ach', 'onchain_base', 'erp_writeback', 'x402_base', 'escrow_base'] as const)
const Amount = (description: string) => Type.String({ pattern: '^[0-9]{1,30}(\\.[0-9]{1,18})?$', maxLength: 40, description })
const Rate = (description: string) => Type.Number({ minimum: 0, maximum: 1, description })

export const AgentPathParams = Strict({ agent_id: PathId('agent_not_found', undefined, 'The agent id (today a service token id, svt_…)') })

const Thresholds = Strict(
  {
    min_shadow_runs: Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'At least this many shadow runs.' }),
    min_approval_rate: Rate('At least this share of the agent\'s decided proposals approved (0 to 1).'),
    max_gate_failure_rate: Rate('At most this share of its shadow runs failing the gate (0 to 1).'),
  },
  { description: 'What the agent\'s shadow scorecard must meet for the promotion to be granted.' },
)

export const PromoteBody = Strict({
  currency: Type.String({ pattern: '^([A-Z]{3}|USDC)$', description: 'The caps\' currency: only payments in it can go live.' }),
  per_payment_cap: Amount('The most one payment may be, in the currency.'),
  per_day_cap: Amount('The most the agent\'s live payments may take in any 24 hours (at least the per-payment cap).'),
  rails: Type.Array(RailName, { minItems: 1, maxItems: 5, description: 'The rails the agent may use.' }),
  counterparty_ids: Type.Optional(Nullable(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 500, description: 'The counterparties it may pay; null or absent for any.' }))),
  expires_at: Type.String({ format: 'date-time', description: 'When the promotion ends on its own (within 366 days).' }),
  reason: Type.String({ minLength: 1, maxLength: 500, description: 'Why (audited as a digest).' }),
  thresholds: Thresholds,
})

export const DemoteBody = Strict({ reason: Type.String({ minLength: 1, maxLength: 500, description: 'Why (audited as a digest).' }) })

const ScorecardSchema = Strict(
  {
    shadow_runs: Type.Integer({ description: 'Proposals that ran the whole pipeline in shadow (shadow_completed).' }),
    decided: Type.Integer({ description: 'Proposals approved at some point or rejected.' }),
    approved: Type.Integer({ description: 'Of those, the approved ones: a person (or the policy) would have let them through.' }),
    gate_would_fail: Type.Integer({ description: 'Shadow runs whose gate did not pass.' }),
    approval_rate: Type.Number({ description: 'approved / decided, four decimals; 0 when nothing was decided.' }),
    gate_failure_rate: Type.Number({ description: 'gate_would_fail / shadow_runs, four decimals; 0 without shadow runs.' }),
  },
  { description: 'The agent\'s shadow record.' },
)

export const Promotion = named(
  'AgentPromotion',
  Strict({
    id: Type.String({ description: 'prm_…' }),
    agent_id: Type.String(),
    currency: Type.String(),
    per_payment_cap: Type.String(),
    per_day_cap: Type.String(),
    rails: Type.Array(Type.String()),
    counterparty_ids: Nullable(Type.Array(Type.String())),
    expires_at: Timestamp,
    reason: Type.String(),
    promoted_by: Type.String({ description: 'The member who promoted (user id).' }),
    thresholds: Thresholds,
    scorecard: ScorecardSchema,
    created_at: Timestamp,
    active: Type.Boolean({ description: 'Whether the gate lets the agent\'s payments out under it now (not demoted, not expired).' }),
    demoted_at: Nullable(Timestamp),
    demoted_by: Nullable(Type.String()),
    demotion_reason: Nullable(Type.String()),
  }),
)

export const PromotionStanding = named(
  'AgentPromotionStanding',
  Strict({
    agent_id: Type.String(),
    promotion: Nullable(Promotion),
    scorecard: ScorecardSchema,
  }),
)
