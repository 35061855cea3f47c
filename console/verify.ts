/**
 * In-browser verification of an action's proof (GET /v1/proof/{action_id}): each event's chain hash is
 * recomputed (SHA-256 of the RFC 8785 canonical JSON, docs/audit.md), its leaf must be that hash, and its
 * Merkle path must lead to its root (OpenZeppelin's tree: keccak256 of the sorted pair, as
 * src/modules/audit/domain/merkle.ts builds it); the proof's merkle_root must be the last event's root.
 * Whether the root is anchored on chain is what `chain_anchor` (and its carried publication event) says;
 * the chain itself is asked by `npm run audit:verify-proof -- proof.json --rpc … --contract …`.
 */
import canonicalize from 'canonicalize'
import { keccak_256 } from '@noble/hashes/sha3'
import { sha256 } from '@noble/hashes/sha256'
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils'

export interface ProofEvent {
  readonly event: {
    readonly id: string
    readonly tenant_id: string
    readonly seq: number | null
    readonly layer: string
    readonly actor: { readonly type: string; readonly id: string }
    readonly action: string
    readonly entity: { readonly type: string; readonly id: string }
    readonly inputs: unknown
    readonly outputs: unknown
    readonly evidence_ids: readonly string[]
    readonly request_id: string | null
    readonly created_at: string
    readonly prev_hash: string | null
    readonly hash: string | null
  }
  readonly inclusion: { readonly status: string; readonly leaf: string | null; readonly merkle_root: string | null; readonly proof: readonly string[] }
}

export interface VerifiableProof {
  readonly action_id: string
  readonly merkle_root: string
  readonly merkle_proof: readonly string[]
  readonly chain_anchor: { readonly tx_hash: string; readonly block: number; readonly chain_id: number; readonly publication_event_id: string } | null
  readonly partial: boolean
  readonly events: readonly ProofEvent[]
}

export interface Check {
  readonly name: string
  readonly passed: boolean
  readonly detail: string
}

export interface Verification {
  readonly ok: boolean
  readonly complete: boolean
  /**
   * Every event of the action is under a Merkle root. False: some events are bound to nothing yet (anyone
   * could write an event whose hash recomputes), so what they state is not verified.
   */
  readonly sealed: boolean
  /** The proof's publication event says where its root was published (the chain itself is not asked here). */
  readonly anchored: boolean
  readonly checks: Check[]
}

export function eventHash(event: ProofEvent['event']): string {
  const text = canonicalize({
    v: 1,
    id: event.id,
    tenant_id: event.tenant_id,
    seq: event.seq,
    layer: event.layer,
    actor: { type: event.actor.type, id: event.actor.id },
    action: event.action,
    entity: { type: event.entity.type, id: event.entity.id },
    inputs: event.inputs,
    outputs: event.outputs,
    evidence_ids: event.evidence_ids,
    request_id: event.request_id,
    created_at: new Date(event.created_at).toISOString(),
    prev_hash: event.prev_hash,
  })
  if (text === undefined) throw new TypeError('the event has no canonical form')
  return bytesToHex(sha256(utf8ToBytes(text)))
}

/** The root a Merkle path leads to from a leaf (OpenZeppelin's processProof, commutative keccak256). */
export function rootFromProof(leaf: string, proof: readonly string[]): string {
  let node = hexToBytes(leaf.slice(2))
  for (const siblingHex of proof) {
    const sibling = hexToBytes(siblingHex.slice(2))
    const [first, second] = compare(node, sibling) <= 0 ? [node, sibling] : [sibling, node]
    const pair = new Uint8Array(64)
    pair.set(first, 0)
    pair.set(second, 32)
    node = keccak_256(pair)
  }
  return `0x${bytesToHex(node)}`
}

function compare(a: Uint8Array, b: Uint8Array): number {
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return a[index]! - b[index]!
  return 0
}

export function verifyProof(proof: VerifiableProof): Verification {
  const checks: Check[] = []
  let complete = !proof.partial
  let sealed = true
  const publicationId = proof.chain_anchor?.publication_event_id
  for (const record of proof.events) {
    if (record.event.id !== publicationId && record.inclusion.status !== 'included') sealed = false
    const { event, inclusion } = record
    if (event.hash === null) {
      complete = false
      checks.push({ name: `event ${event.id}`, passed: true, detail: 'not linked into the chain yet (no hash to check)' })
      continue
    }
    const recomputed = eventHash(event)
    checks.push({ name: `event ${event.id} hash`, passed: recomputed === event.hash, detail: recomputed === event.hash ? `recomputed ${recomputed.slice(0, 16)}…` : `recomputed ${recomputed}, the proof says ${event.hash}` })
    if (inclusion.status !== 'included' || inclusion.leaf === null || inclusion.merkle_root === null) {
      complete = false
      checks.push({ name: `event ${event.id} inclusion`, passed: true, detail: `${inclusion.status.replaceAll('_', ' ')}: its Merkle batch is not closed yet` })
      continue
    }
    const leafOk = inclusion.leaf === `0x${event.hash}`
    const root = rootFromProof(inclusion.leaf, inclusion.proof)
    const rootOk = root === inclusion.merkle_root
    checks.push({ name: `event ${event.id} leaf`, passed: leafOk, detail: leafOk ? 'is the event hash' : `${inclusion.leaf} is not the event hash` })
    checks.push({ name: `event ${event.id} Merkle path`, passed: rootOk, detail: rootOk ? `${inclusion.proof.length} step(s) lead to root ${root.slice(0, 18)}…` : `leads to ${root}, not ${inclusion.merkle_root}` })
  }
  const last = proof.events.filter((record) => record.event.id !== proof.chain_anchor?.publication_event_id).at(-1)
  if (proof.merkle_root !== '') {
    const matches = last?.inclusion.merkle_root === proof.merkle_root
    checks.push({ name: 'merkle_root', passed: matches, detail: matches ? 'is the root over the last event' : 'is not the last event’s root' })
    const pathRoot = last?.inclusion.leaf ? rootFromProof(last.inclusion.leaf, proof.merkle_proof) : ''
    checks.push({ name: 'merkle_proof', passed: pathRoot === proof.merkle_root, detail: pathRoot === proof.merkle_root ? 'leads from the last event to merkle_root' : `leads to ${pathRoot || 'nothing'}` })
  }
  let anchored = false
  if (proof.chain_anchor !== null) {
    const publication = proof.events.find((record) => record.event.id === proof.chain_anchor!.publication_event_id)
    const outputs = (publication?.event.outputs ?? {}) as Record<string, unknown>
    const anchor = proof.chain_anchor
    const says =
      publication !== undefined &&
      publication.event.action === 'audit.anchor_published' &&
      proof.merkle_root !== '' &&
      outputs.merkle_root === proof.merkle_root &&
      outputs.tx_hash === anchor.tx_hash &&
      outputs.block_number === anchor.block &&
      outputs.chain_id === anchor.chain_id
    anchored = says
    checks.push({ name: 'chain_anchor', passed: says, detail: says ? `published on chain ${anchor.chain_id}, block ${anchor.block}, transaction ${anchor.tx_hash}` : 'the publication event does not publish this root in that transaction' })
  } else checks.push({ name: 'chain_anchor', passed: true, detail: 'not published on chain yet' })
  return { ok: checks.every((check) => check.passed), complete, sealed, anchored, checks }
}
