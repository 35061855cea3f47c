/**
 * The Proof's wire schema (spec, "Proof"). Strict everywhere and lowercase hex only, so that the
 * standalone verifier refuses a proof with any key added, renamed or dropped, and any hex digit's case
 * changed: every byte of a proof either is checked by a schema or binds to an audit event.
 */
import Type, { type TSchema } from 'typebox'
import { named, Nullable, PathId, Strict } from '../../platform/http/schemas.ts'
import { proofOutcomes } from './domain/proof.ts'

const Hex32 = Type.String({ pattern: '^0x[0-9a-f]{64}$', description: '32 bytes, 0x-prefixed lowercase hex.' })
const Sha256 = Type.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256, lowercase hex.' })
const IsoMillis = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$', description: 'ISO 8601 UTC with milliseconds.' })
const Scalars = Type.Record(Type.String(), Type.Unknown(), { description: 'As recorded: hashes, ids and small scalars.' })

export const ProofAuditEvent = named(
  'ProofAuditEvent',
  Strict(
    {
      id: Type.String(),
      tenant_id: Type.String(),
      seq: Nullable(Type.Integer({ minimum: 1 })),
      layer: Type.String(),
      actor: Strict({ type: Type.String(), id: Type.String() }),
      action: Type.String(),
      entity: Strict({ type: Type.String(), id: Type.String() }),
      inputs: Scalars,
      outputs: Scalars,
      evidence_ids: Type.Array(Type.String()),
      request_id: Nullable(Type.String()),
      created_at: IsoMillis,
      prev_hash: Nullable(Sha256),
      hash: Nullable(Sha256),
    },
    { description: 'An audit event with every field its hash covers (docs/audit.md, "The event and its hash").' },
  ),
)

export const ProofEventRecord = named(
  'ProofEventRecord',
  Strict({
    event: ProofAuditEvent,
    inclusion: Strict({
      status: Type.Enum(['pending_sequence', 'pending_batch', 'included'], { description: 'pending_sequence: not linked yet; pending_batch: linked, its batch open; included: under merkle_root by proof.' }),
      leaf: Nullable(Hex32),
      merkle_root: Nullable(Hex32),
      proof: Type.Array(Hex32),
    }),
  }),
)

export const ProofGateCheck = Strict({
  index: Type.Number({ description: 'The check\'s index (1, 1.5, 2 … 13 and the hardening checks).' }),
  name: Type.String(),
  passed: Type.Boolean(),
  reason: Type.String({ description: 'Why it failed, or what it saw when it passed.' }),
  code: Nullable(Type.String({ description: 'The gate error code a failure of this check gives.' })),
})

/**
 * The rail's receipts, typed by `type` (the spec's ach, wire, erp, onchain). Open objects: a receipt is
 * bound by the digest its audit event carries, so a rail may add fields without breaking a proof.
 */
const Receipt = <T extends Record<string, TSchema>>(properties: T, description: string) => Type.Object(properties, { additionalProperties: true, description })
export const AchReceipt = Receipt(
  {
    type: Type.Literal('ach'),
    provider: Type.String({ description: 'The ACH provider (sandbox_ach in the sandbox).' }),
    transfer_id: Type.String(),
    amount: Type.String(),
    currency: Type.String(),
    settled_at: Nullable(Type.String({ description: 'When the provider settled it.' })),
  },
  'An ACH transfer, settled.',
)
export const OnchainReceipt = Receipt(
  {
    type: Type.Literal('onchain'),
    chain_id: Type.Integer(),
    tx_hash: Type.String(),
    block_number: Type.Integer(),
    block_hash: Type.String(),
    log_index: Type.Integer({ description: 'The ERC-20 Transfer log\'s index in the block.' }),
    from: Type.String({ description: 'The session key that signed.' }),
    smart_account: Type.String(),
    token: Type.String(),
    to: Type.String(),
    amount_base_units: Type.String(),
  },
  'An on-chain transfer from a SmartAccount, mined.',
)
export const OtherReceipt = Receipt({ type: Type.Enum(['wire', 'erp']) }, 'A wire or ERP write-back receipt (no such rail is registered yet).')
export const RailReceipt = Type.Union([AchReceipt, OnchainReceipt, OtherReceipt], { description: "The rail's settlement receipt, typed by `type`." })
export const AchReturnReceipt = Receipt(
  {
    type: Type.Literal('ach'),
    provider: Type.String(),
    transfer_id: Type.String(),
    status: Type.Literal('returned'),
    return_code: Nullable(Type.String({ description: 'The NACHA return code, e.g. R10; null only on a return stored before the webhook required its code.' })),
    returned_at: Type.String(),
    amount: Type.String(),
    currency: Type.String(),
  },
  'A return after settlement (ACH), when one came.',
)

export const Proof = named(
  'Proof',
  Strict(
    {
      action_id: Type.String({ description: 'The PaymentIntent id.' }),
      tenant_id: Type.String(),
      agent_id: Nullable(Type.String({ description: 'The proposing agent; null when a member proposed.' })),
      behavior_hash: Nullable(Type.String({ description: 'The agent\'s behaviour hash when it proposed (null for internal agents).' })),
      outcome: Type.Enum(proofOutcomes, {
        description: 'executed, failed or shadow_completed once the rail (or the shadow run) answered; rejected when policy or a person rejected or cancelled it; otherwise the policy decision: allowed or confirmed.',
      }),
      status: Type.String({ description: 'The intent\'s status as its latest audit event states it.' }),
      partial: Type.Boolean({ description: 'True while the action has no final outcome or any of its events is not under a Merkle root yet.' }),
      payment: Strict({
        action_type: Nullable(Type.String()),
        amount: Nullable(Type.String()),
        currency: Nullable(Type.String()),
        source_account_id: Nullable(Type.String()),
        destination_counterparty_id: Nullable(Type.String()),
      }),
      policy_version: Nullable(Type.Integer()),
      policy_hash: Nullable(Type.String({ description: 'The policy version\'s content hash (hex), which its signatures cover.' })),
      matched_rule_id: Nullable(Type.String()),
      approvals: Type.Array(
        Strict({
          approval_id: Type.String(),
          decision: Type.Enum(['approve', 'reject']),
          member_id: Type.String(),
          user_id: Type.String(),
          at: IsoMillis,
          audit_event_id: Type.String(),
        }),
        { description: 'What members decided, in order.' },
      ),
      gate_checks: Type.Array(ProofGateCheck, { description: 'Every check of the latest gate run at execute, in index order; empty when the gate never ran.' }),
      evidence: Type.Array(
        Strict({ raw_id: Type.String({ description: 'The Raw artifact.' }), parsed_row_id: Type.String(), parser: Type.String(), confidence: Type.Number() }),
        { description: 'The Raw records the proposal cited.' },
      ),
      ledger_snapshot_hash: Nullable(Type.String({ description: 'Digest of the Ledger facts the gate read (null when the gate never ran).' })),
      rail_receipt: Nullable(RailReceipt),
      rail_return: Nullable(AchReturnReceipt),
      audit_events: Type.Array(Type.String(), { description: 'The action\'s audit event ids, in chain order.' }),
      merkle_root: Type.Union([Hex32, Type.Literal('')], { description: 'The Merkle root over the last of audit_events; empty until its batch closes.' }),
      merkle_proof: Type.Array(Hex32),
      chain_anchor: Nullable(
        Strict({ tx_hash: Hex32, block: Type.Integer({ minimum: 0 }), chain_id: Type.Integer({ minimum: 1 }), publication_event_id: Type.String() }, { description: 'Where merkle_root was published; null until the batch lands on chain.' }),
      ),
      human_explanation: Type.String({ description: 'A deterministic plain-English paragraph, written from the fields above.' }),
      events: Type.Array(ProofEventRecord, { description: 'Every event of audit_events with its inclusion, then the anchor publication\'s when chain_anchor is set: what an offline verifier recomputes.' }),
    },
    { description: 'The proof of one action: every field is derived from, or bound by a digest in, the audit events it carries (docs/proofs.md).' },
  ),
)

export const ProofParams = Strict({ action_id: PathId('proof_not_found', 'paymentIntent', 'The action (PaymentIntent) id') })
