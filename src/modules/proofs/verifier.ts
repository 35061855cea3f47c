/**
 * The standalone proof verifier: checks a Proof (GET /v1/proof/{action_id}) with no access to Steward —
 * only the document and, optionally, a public RPC node for the on-chain check. Anyone can run it
 * (`npm run audit:verify-proof -- proof.json`) or import it.
 *
 * In order, naming the first field that does not hold:
 * 1. the document is a proof, exactly: no key added, renamed or missing, every hex lowercase (the schema);
 * 2. every carried event's hash recomputes from its fields, its leaf is that hash, and its Merkle path
 *    leads to its root; every event is the tenant's and about this action;
 * 3. every field the events determine (outcome, status, the payment, policy, approvals, …) is derived from
 *    them again and compared; every other field (gate checks, evidence, receipts) hashes to the digest its
 *    event carries; merkle_root and merkle_proof are the last event's; chain_anchor is what the
 *    publication event recorded; human_explanation is written again from the fields;
 * 4. with a chain: the contract holds each root for the tenant and accepts the last event's proof.
 */
import { Compile } from 'typebox/compile'
import { canonicalJson } from '../../kernel/hashing.ts'
import { namedDefinitionsIn } from '../../platform/http/schemas.ts'
import { hashAuditEvent, leafOf, rootFromProof, type Hex32, type OnchainVerifier } from '../audit/index.ts'
import { deriveFromEvents, digestOfField, explain, type DigestBound, type Proof, type ProofEventRecord } from './domain/proof.ts'
import { Proof as ProofSchema } from './proofs.schemas.ts'

export interface ProofCheck {
  /** The proof field (or `events[i]…` path) the check is about. */
  readonly field: string
  readonly passed: boolean
  readonly detail: string
}

export interface ProofVerification {
  /** Every check passed. */
  readonly ok: boolean
  /** The action has a final outcome and every event is under a Merkle root (`partial` is false). */
  readonly complete: boolean
  readonly action_id: string | null
  /** The first field that does not hold; null when ok. */
  readonly failed_field: string | null
  readonly checks: ProofCheck[]
}

const compiled = Compile(Object.fromEntries(namedDefinitionsIn([ProofSchema]).map((definition) => [definition.$id, definition])), ProofSchema)

/** The field a schema error is about: its JSON pointer as a path (`events[3].event.hash`). */
function fieldOfPointer(pointer: string, extra?: unknown): string {
  const parts = pointer.split('/').slice(1).map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
  const keys = Array.isArray(extra) ? extra.map(String) : []
  const path = [...parts, ...keys.slice(0, 1)]
  return path.reduce((text, part) => (/^\d+$/.test(part) ? `${text}[${part}]` : text === '' ? part : `${text}.${part}`), '') || 'document'
}

function recordChecks(proof: Proof, record: ProofEventRecord, index: number, belongs: boolean): ProofCheck | undefined {
  const { event, inclusion } = record
  const at = `events[${index}]`
  if (event.tenant_id !== proof.tenant_id) return { field: `${at}.event.tenant_id`, passed: false, detail: `the event is tenant ${event.tenant_id}'s, the proof tenant ${proof.tenant_id}'s` }
  if (belongs) {
    const aboutAction =
      (event.entity.type === 'payment_intent' && event.entity.id === proof.action_id) || (event.entity.type === 'execution' && event.inputs.payment_intent_id === proof.action_id)
    if (!aboutAction) return { field: `${at}.event.entity`, passed: false, detail: `the event is about ${event.entity.type} ${event.entity.id}, not this action` }
  }
  if (event.hash === null) {
    const unlinked = event.seq === null && event.prev_hash === null && inclusion.status === 'pending_sequence' && inclusion.leaf === null && inclusion.merkle_root === null && inclusion.proof.length === 0
    return unlinked ? undefined : { field: `${at}.inclusion`, passed: false, detail: 'an event not linked yet has no seq, prev_hash, leaf, root or proof' }
  }
  if (event.seq === null || event.prev_hash === null) return { field: `${at}.event.seq`, passed: false, detail: 'a linked event has a seq and a prev_hash' }
  const createdAt = new Date(event.created_at)
  if (Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== event.created_at) return { field: `${at}.event.created_at`, passed: false, detail: 'not a canonical timestamp' }
  const recomputed = hashAuditEvent({
    id: event.id,
    tenantId: event.tenant_id,
    seq: event.seq,
    layer: event.layer as Parameters<typeof hashAuditEvent>[0]['layer'],
    actor: event.actor as Parameters<typeof hashAuditEvent>[0]['actor'],
    action: event.action,
    entity: event.entity,
    inputs: event.inputs as Parameters<typeof hashAuditEvent>[0]['inputs'],
    outputs: event.outputs as Parameters<typeof hashAuditEvent>[0]['outputs'],
    evidenceIds: event.evidence_ids,
    requestId: event.request_id,
    createdAt,
    prevHash: event.prev_hash,
  })
  if (recomputed !== event.hash) return { field: `${at}.event`, passed: false, detail: `its fields hash to ${recomputed}, the proof says ${event.hash}` }
  const leaf = leafOf(recomputed)
  if (inclusion.status === 'pending_sequence') return { field: `${at}.inclusion.status`, passed: false, detail: 'a linked event is not pending_sequence' }
  if (inclusion.leaf !== leaf) return { field: `${at}.inclusion.leaf`, passed: false, detail: `the leaf of its hash is ${leaf}` }
  if (inclusion.status === 'pending_batch') {
    return inclusion.merkle_root === null && inclusion.proof.length === 0 ? undefined : { field: `${at}.inclusion`, passed: false, detail: 'an event whose batch is open has no root or proof' }
  }
  if (inclusion.merkle_root === null) return { field: `${at}.inclusion.merkle_root`, passed: false, detail: 'an included event names its root' }
  const root = rootFromProof(leaf, inclusion.proof as Hex32[])
  if (root !== inclusion.merkle_root) return { field: `${at}.inclusion.proof`, passed: false, detail: `the proof leads to ${root}, not to ${inclusion.merkle_root}` }
  return undefined
}

const same = (left: unknown, right: unknown) => canonicalJson(left) === canonicalJson(right)

export async function verifyActionProof(document: unknown, options: { chain?: OnchainVerifier } = {}): Promise<ProofVerification> {
  const checks: ProofCheck[] = []
  const actionId = typeof (document as { action_id?: unknown })?.action_id === 'string' ? (document as { action_id: string }).action_id : null
  const report = (): ProofVerification => {
    const failed = checks.find((check) => !check.passed)
    const partial = (document as { partial?: unknown })?.partial
    return { ok: failed === undefined, complete: failed === undefined && partial === false, action_id: actionId, failed_field: failed?.field ?? null, checks }
  }

  if (!compiled.Check(document)) {
    const [first] = [...compiled.Errors(document)].sort((left, right) => right.instancePath.length - left.instancePath.length)
    const error = first as { instancePath: string; message: string; params?: { additionalProperties?: unknown; requiredProperties?: unknown } } | undefined
    const field = error === undefined ? 'document' : fieldOfPointer(error.instancePath, error.params?.additionalProperties ?? error.params?.requiredProperties)
    checks.push({ field, passed: false, detail: `not a proof: ${error?.message ?? 'invalid'}` })
    return report()
  }
  const proof = document as Proof
  const publicationId = proof.chain_anchor?.publication_event_id
  const actionCount = proof.events.filter((record) => record.event.id !== publicationId).length
  if (publicationId !== undefined && proof.events.at(-1)?.event.id !== publicationId) {
    checks.push({ field: 'chain_anchor.publication_event_id', passed: false, detail: 'the publication event is the last of events' })
    return report()
  }
  for (const [index, record] of proof.events.entries()) {
    const failure = recordChecks(proof, record, index, index < actionCount)
    if (failure !== undefined) {
      checks.push(failure)
      return report()
    }
  }
  checks.push({ field: 'events', passed: true, detail: `${proof.events.length} events: each hash recomputes and each included event's path leads to its root` })

  const derived = deriveFromEvents(proof.action_id, proof.events, proof.chain_anchor)
  const compare = (field: string, claimed: unknown, expected: unknown) => {
    const passed = same(claimed, expected)
    checks.push({ field, passed, detail: passed ? 'as the events record it' : `the events record ${JSON.stringify(expected)}` })
    return passed
  }
  const fields: Array<[string, unknown, unknown]> = [
    ['audit_events', proof.audit_events, derived.audit_events],
    ['tenant_id', proof.tenant_id, derived.tenant_id],
    ['agent_id', proof.agent_id, derived.agent_id],
    ['behavior_hash', proof.behavior_hash, derived.behavior_hash],
    ['outcome', proof.outcome, derived.outcome],
    ['status', proof.status, derived.status],
    ['partial', proof.partial, derived.partial],
    ['payment', proof.payment, derived.payment],
    ['policy_version', proof.policy_version, derived.policy_version],
    ['policy_hash', proof.policy_hash, derived.policy_hash],
    ['matched_rule_id', proof.matched_rule_id, derived.matched_rule_id],
    ['approvals', proof.approvals, derived.approvals],
  ]
  for (const [field, claimed, expected] of fields) if (!compare(field, claimed, expected)) return report()
  for (const field of ['gate_checks', 'evidence'] as const) {
    const digest = digestOfField(field, proof[field] as DigestBound[typeof field])
    if (!compare(field, digest, derived.digests[field])) return report()
  }
  if (!compare('ledger_snapshot_hash', proof.ledger_snapshot_hash, derived.ledger_snapshot_hash)) return report()
  for (const field of ['rail_receipt', 'rail_return'] as const) {
    if (!compare(field, digestOfField(field, proof[field]), derived.digests[field])) return report()
  }
  if (!compare('merkle_root', proof.merkle_root, derived.merkle_root)) return report()
  if (!compare('merkle_proof', proof.merkle_proof, derived.merkle_proof)) return report()

  if (proof.chain_anchor !== null) {
    const publication = proof.events.at(-1)!.event
    const recorded = { tx_hash: publication.outputs.tx_hash, block: publication.outputs.block_number, chain_id: publication.outputs.chain_id }
    const claimed = { tx_hash: proof.chain_anchor.tx_hash, block: proof.chain_anchor.block, chain_id: proof.chain_anchor.chain_id }
    if (publication.action !== 'audit.anchor_published' || publication.outputs.merkle_root !== proof.merkle_root || proof.merkle_root === '') {
      checks.push({ field: 'chain_anchor', passed: false, detail: 'the publication event does not publish merkle_root' })
      return report()
    }
    if (!compare('chain_anchor', claimed, recorded)) return report()
  } else checks.push({ field: 'chain_anchor', passed: true, detail: 'not published on chain yet' })

  const { human_explanation: explanation, events: _events, ...rest } = proof
  if (!compare('human_explanation', explanation, explain(rest))) return report()

  if (options.chain !== undefined) {
    // The action's roots (the publication event's own batch need not be on chain: it binds where the last root is).
    const roots = [...new Set(proof.events.slice(0, actionCount).filter((record) => record.inclusion.status === 'included').map((record) => record.inclusion.merkle_root as Hex32))]
    for (const root of roots) {
      const published = await options.chain.isPublished(proof.tenant_id, root)
      checks.push({ field: 'chain', passed: published, detail: published ? `the contract holds root ${root} for the tenant` : `the contract does not hold root ${root} for the tenant` })
      if (!published) return report()
    }
    const terminal = proof.events[actionCount - 1]
    if (proof.merkle_root !== '' && terminal !== undefined) {
      const accepted = await options.chain.verifyInclusion(proof.merkle_root as Hex32, terminal.inclusion.leaf as Hex32, proof.merkle_proof as Hex32[])
      checks.push({ field: 'merkle_proof', passed: accepted, detail: accepted ? 'the contract accepts the proof of the last event' : 'the contract rejects the proof of the last event' })
    }
  }
  return report()
}
