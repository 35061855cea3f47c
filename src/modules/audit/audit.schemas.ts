/** Wire schemas of the audit routes. */
import Type from 'typebox'
import { named, NextCursor, Nullable, pageQuery, PathId, Strict, TenantId, Timestamp } from '../../platform/http/schemas.ts'
import { prefixedIdPattern } from '../../kernel/ids.ts'
import { auditEventPageRows } from './audit.service.ts'
import { auditLayers } from '../../kernel/audit-record.ts'

const Hex32 = Type.String({ pattern: '^0x[0-9a-f]{64}$', description: '32 bytes, 0x-prefixed lowercase hex.' })
const Hash = Type.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256, lowercase hex.' })
const HexInput = Type.String({ pattern: '^(0x)?[0-9a-fA-F]{64}$', description: '32 bytes of hex, with or without 0x.' })
const Layer = Type.Enum(auditLayers)

export const AuditEvent = named('AuditEvent', Strict({
  id: Type.String(),
  tenant_id: TenantId,
  seq: Nullable(Type.Integer({ minimum: 1, description: 'Position in the tenant\'s chain; null for the moments before the sequencer links it.' })),
  layer: Layer,
  actor: Strict({ type: Type.String(), id: Type.String() }),
  action: Type.String(),
  entity: Strict({ type: Type.String(), id: Type.String() }),
  inputs: Type.Record(Type.String(), Type.Unknown(), { description: 'Hashes, ids and small scalars only.' }),
  outputs: Type.Record(Type.String(), Type.Unknown(), { description: 'Hashes, ids and small scalars only.' }),
  evidence_ids: Type.Array(Type.String()),
  request_id: Nullable(Type.String()),
  created_at: Timestamp,
  prev_hash: Nullable(Hash),
  hash: Nullable(Hash),
  sequenced_at: Nullable(Timestamp),
}))

export const Anchor = named('AuditAnchor', Strict({
  anchor_id: Type.String(),
  tenant_id: TenantId,
  merkle_root: Hex32,
  event_count: Type.Integer({ minimum: 1 }),
  seq_from: Type.Integer({ minimum: 1 }),
  seq_to: Type.Integer({ minimum: 1 }),
  period_start: Timestamp,
  period_end: Timestamp,
  anchoring_mode: Type.Enum(['database_hash_chain', 'onchain_merkle_root']),
  publication_status: Type.Enum(['not_applicable', 'pending', 'published']),
  onchain_tx_hash: Nullable(Type.String()),
  onchain_block_number: Nullable(Type.Integer()),
  chain_id: Nullable(Type.Integer()),
  contract_address: Nullable(Type.String()),
  guarantee: Type.String({ description: 'What this anchor proves, and what it does not.' }),
}))

export const EventWithProof = named('AuditEventWithProof', Strict({
  event: AuditEvent,
  inclusion: Strict({
    status: Type.Enum(['pending_sequence', 'pending_batch', 'included'], {
      description: 'pending_sequence: not yet linked into the chain (moments); pending_batch: linked, its Merkle batch not closed yet; included: proof below.',
    }),
    leaf: Nullable(Hex32),
    leaf_index: Nullable(Type.Integer({ minimum: 0 })),
    merkle_root: Nullable(Hex32),
    proof: Type.Array(Hex32),
    anchor: Nullable(Anchor),
  }),
}))

export const EventIdParams = Strict({ event_id: PathId('audit_event_not_found', 'auditEvent', 'The audit event id') })

/** The spec's entity types, and the ones Steward's own administration records. */
export const auditEntityTypes = [
  'account',
  'balance',
  'transaction',
  'counterparty',
  'obligation',
  'document',
  'invoice',
  'payment_intent',
  'reconciliation_match',
  'proposal',
  'execution',
  'tenant',
  'user',
  'member',
  'api_key',
  'service_token',
  'webhook_endpoint',
  'audit_anchor',
  'audit_export',
  'wiki_question',
] as const

export const EntityParams = Strict({
  entityType: Type.Enum(auditEntityTypes),
  entityId: PathId('audit_entity_not_found', undefined, 'The entity\'s id (a tenant\'s UUID, or an id such as mem_…, txn_…)'),
})

export const EventListQuery = Strict({
  layer: Type.Optional(Layer),
  actor: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'An actor id, or type:id (for example user:usr_…).' })),
  since: Type.Optional(Timestamp),
  until: Type.Optional(Timestamp),
  ...pageQuery(auditEventPageRows),
})

export const EntityEventQuery = Strict({ ...pageQuery(auditEventPageRows) })

export const EventList = Strict({ events: Type.Array(AuditEvent), next_cursor: NextCursor })
export const EntityEventList = Strict({ entity_type: Type.String(), entity_id: Type.String(), events: Type.Array(AuditEvent), next_cursor: NextCursor })

export const VerifyBody = Strict({
  event_hash: HexInput,
  proof: Type.Array(HexInput, { maxItems: 64 }),
  merkle_root: HexInput,
  tenant_id: Type.Optional(TenantId),
})

export const VerifyResponse = Strict({
  valid: Type.Boolean({ description: 'The proof leads from event_hash to merkle_root.' }),
  computed_root: Hex32,
  merkle_root: Hex32,
  anchored: Type.Boolean({ description: 'A Steward batch (of tenant_id, if given) has this root, or the contract holds it on chain.' }),
  anchors: Type.Array(Anchor),
  onchain_published: Nullable(Type.Boolean({ description: 'The AuditAnchor contract holds this root for tenant_id; null without a chain or tenant_id.' })),
})

/** Query of the chain verification routes (GET /v1/audit/chain, GET /v1/platform/audit/chain). */
const checkAnchors = Type.Optional(
  Type.Boolean({ description: 'Also recompute every closed Merkle batch\'s root from its events and compare it with the stored root (default true).' }),
)
export const ChainQuery = Strict({ check_anchors: checkAnchors })
export const PlatformChainQuery = Strict({ tenant_id: TenantId, check_anchors: checkAnchors })

const ChainBreak = Strict({
  seq: Nullable(Type.Integer()),
  event_id: Nullable(Type.String()),
  anchor_id: Nullable(Type.String()),
  problem: Type.Enum(['seq_gap', 'prev_hash_mismatch', 'hash_mismatch', 'head_mismatch', 'anchor_root_mismatch', 'anchor_range_mismatch']),
  expected: Type.String(),
  found: Type.String(),
})

export const ChainVerification = Strict({
  tenant_id: TenantId,
  ok: Type.Boolean({ description: 'Every linked event recomputes and links to the one before, up to the chain\'s head (and every checked batch root matches).' }),
  events_checked: Type.Integer({ minimum: 0 }),
  anchors_checked: Type.Integer({ minimum: 0 }),
  head_seq: Type.Integer({ minimum: 0, description: 'The seq of the chain\'s head when the walk ended.' }),
  unsequenced: Type.Integer({ minimum: 0, description: 'Events recorded but not linked yet (the sequencer links them within about a second): not part of this check.' }),
  first_break: Nullable(ChainBreak),
})

export const ExportBody = Strict({
  format: Type.Enum(['jsonl', 'csv']),
  layer: Type.Optional(Layer),
  since: Type.Optional(Timestamp),
  until: Type.Optional(Timestamp),
})

export const Export = named('AuditExport', Strict({
  export_id: Type.String(),
  status: Type.Enum(['queued', 'running', 'completed', 'failed']),
  format: Type.Enum(['jsonl', 'csv']),
  filters: Type.Record(Type.String(), Type.Unknown()),
  events_total: Nullable(Type.Integer()),
  events_written: Type.Integer(),
  bytes: Nullable(Type.Integer()),
  sha256: Nullable(Hash),
  error: Nullable(Type.String()),
  created_at: Timestamp,
  completed_at: Nullable(Timestamp),
  expires_at: Timestamp,
  status_url: Type.String(),
  download_url: Nullable(Type.String()),
}))

export const ExportParams = Strict({ export_id: PathId('audit_export_not_found', 'auditExport', 'The export id') })
