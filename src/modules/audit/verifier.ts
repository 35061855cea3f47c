/**
 * The standalone verifier: checks an audit event, its Merkle proof and its root with no access to
 * Steward — only the document GET /v1/audit/event/{id} returned and, optionally, a public RPC node for
 * the on-chain check. Anyone can run it (`npm run audit:verify-proof -- event.json`) or import it.
 *
 * Checks, in order: the event's hash recomputes from its fields (docs/audit.md); the leaf is that hash;
 * the proof leads from the leaf to the claimed root (OpenZeppelin sorted-pair keccak256); and, with a
 * chain, the AuditAnchor contract says the root is published for the tenant and accepts the proof.
 */
import { hashAuditEvent } from './domain/chain.ts'
import { type ActorType, type AuditFields, type AuditLayer } from '../../kernel/audit-record.ts'
import { leafOf, rootFromProof, type Hex32 } from './domain/merkle.ts'

export interface ProofDocument {
  readonly event: {
    readonly id: string
    readonly tenant_id: string
    readonly seq: number | null
    readonly layer: AuditLayer
    readonly actor: { readonly type: ActorType; readonly id: string }
    readonly action: string
    readonly entity: { readonly type: string; readonly id: string }
    readonly inputs: AuditFields
    readonly outputs: AuditFields
    readonly evidence_ids: readonly string[]
    readonly request_id: string | null
    readonly created_at: string
    readonly prev_hash: string | null
    readonly hash: string | null
  }
  readonly inclusion: {
    readonly status: string
    readonly leaf: string | null
    readonly merkle_root: string | null
    readonly proof: readonly string[]
  }
}

export interface OnchainVerifier {
  isPublished(tenantId: string, root: Hex32): Promise<boolean>
  verifyInclusion(root: Hex32, leaf: Hex32, proof: readonly Hex32[]): Promise<boolean>
}

export interface VerificationCheck {
  readonly name: 'event_hash' | 'leaf' | 'proof' | 'onchain_published' | 'onchain_inclusion'
  readonly passed: boolean
  readonly detail: string
}

export interface VerificationReport {
  readonly ok: boolean
  readonly event_id: string
  readonly checks: VerificationCheck[]
}

export async function verifyEventProof(document: ProofDocument, options: { chain?: OnchainVerifier } = {}): Promise<VerificationReport> {
  const { event, inclusion } = document
  const checks: VerificationCheck[] = []
  const report = () => ({ ok: checks.every((check) => check.passed), event_id: event.id, checks })

  if (event.seq === null || event.prev_hash === null || event.hash === null || inclusion.status !== 'included' || inclusion.merkle_root === null || inclusion.leaf === null) {
    checks.push({ name: 'event_hash', passed: false, detail: `the event is not in a closed batch yet (status ${inclusion.status}); fetch it again later` })
    return report()
  }
  const recomputed = hashAuditEvent({
    id: event.id,
    tenantId: event.tenant_id,
    seq: event.seq,
    layer: event.layer,
    actor: event.actor,
    action: event.action,
    entity: event.entity,
    inputs: event.inputs,
    outputs: event.outputs,
    evidenceIds: event.evidence_ids,
    requestId: event.request_id,
    createdAt: new Date(event.created_at),
    prevHash: event.prev_hash,
  })
  checks.push({ name: 'event_hash', passed: recomputed === event.hash, detail: recomputed === event.hash ? `recomputed ${recomputed}` : `recomputed ${recomputed}, document says ${event.hash}` })
  const leaf = leafOf(recomputed)
  checks.push({ name: 'leaf', passed: leaf === inclusion.leaf.toLowerCase(), detail: `leaf ${inclusion.leaf}` })
  const root = inclusion.merkle_root.toLowerCase() as Hex32
  const proof = inclusion.proof.map((node) => node.toLowerCase() as Hex32)
  const computedRoot = rootFromProof(leaf, proof)
  checks.push({ name: 'proof', passed: computedRoot === root, detail: `proof of ${proof.length} nodes leads to ${computedRoot}; claimed root ${root}` })
  if (options.chain !== undefined) {
    const published = await options.chain.isPublished(event.tenant_id, root)
    checks.push({ name: 'onchain_published', passed: published, detail: published ? 'the contract holds this root for the tenant' : 'the contract does not hold this root for the tenant' })
    const included = await options.chain.verifyInclusion(root, leaf, proof)
    checks.push({ name: 'onchain_inclusion', passed: included, detail: included ? 'the contract accepts the proof' : 'the contract rejects the proof' })
  }
  return report()
}
