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
 * 4. with a chain: the contract holds each root for the tenant and accepts the last event's proof, and
 *    chain_anchor names the transaction and block the contract published the last root in.
 *
 * What "verifies" rests on: offline, the proof is consistent with the Merkle roots its events are under
 * (`roots`), and a reader trusts it as far as they trust those roots; with a chain, the roots are the
 * tenant's published ones (`anchored`). An event not under a root yet is bound to nothing (anyone could
 * write one whose hash recomputes), so a proof with such events is consistent but not `sealed`, and what
 * those events state is unverified until its batch closes.
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
  /**
   * Every event of the action is under a Merkle root, so every field rests on `roots`. False: some events
   * are bound to nothing yet, and what they state (status, outcome, receipts, …) is unverified.
   */
  readonly sealed: boolean
  /** The distinct Merkle roots the action's events are under: what a reader trusts offline, or checks on chain. */
  readonly roots: string[]
  /**
   * With a chain: every event is sealed, every root is published for the tenant, and chain_anchor is where
   * the last one was. Null when no chain was asked.
   */
  readonly anchored: boolean | null
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

/** A chain a proof is checked against: the contract's roots and, when it can say, where a root was published. */
export interface ProofChain extends OnchainVerifier {
  findPublication?(tenantId: string, root: Hex32): Promise<{ txHash: string; blockNumber: bigint } | null>
}

/**
 * The order the proof claims: linked events by strictly increasing seq, then the events not linked yet
 * (the chain links in order, so none is linked after one that is not). Undefined when it holds.
 */
function orderCheck(records: readonly ProofEventRecord[]): ProofCheck | undefined {
  let previous: number | null = null
  let unlinkedSeen = false
  for (const [index, { event }] of records.entries()) {
    if (event.seq === null) {
      unlinkedSeen = true
      continue
    }
    if (unlinkedSeen || (previous !== null && event.seq <= previous)) return { field: `events[${index}].event.seq`, passed: false, detail: 'events are in chain order: linked events by increasing seq, then the unlinked ones' }
    previous = event.seq
  }
  return undefined
}

export async function verifyActionProof(document: unknown, options: { chain?: ProofChain } = {}): Promise<ProofVerification> {
  const checks: ProofCheck[] = []
  const actionId = typeof (document as { action_id?: unknown })?.action_id === 'string' ? (document as { action_id: string }).action_id : null
  let sealed = false
  let roots: string[] = []
  let anchored: boolean | null = null
  const report = (): ProofVerification => {
    const failed = checks.find((check) => !check.passed)
    const partial = (document as { partial?: unknown })?.partial
    const ok = failed === undefined
    return {
      ok,
      complete: ok && partial === false,
      sealed: ok && sealed,
      roots: ok ? roots : [],
      anchored: ok ? anchored : options.chain === undefined ? null : false,
      action_id: actionId,
      failed_field: failed?.field ?? null,
      checks,
    }
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
  const ordering = orderCheck(proof.events.slice(0, actionCount))
  if (ordering !== undefined) {
    checks.push(ordering)
    return report()
  }
  checks.push({ field: 'events', passed: true, detail: `${proof.events.length} events: each hash recomputes and each included event's path leads to its root` })
  const actionRecords = proof.events.slice(0, actionCount)
  const unsealed = actionRecords.filter((record) => record.inclusion.status !== 'included').length
  sealed = unsealed === 0
  roots = [...new Set(actionRecords.filter((record) => record.inclusion.status === 'included').map((record) => record.inclusion.merkle_root as string))]

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
    const chain = options.chain
    // The action's roots (the publication event's own batch need not be on chain: it binds where the last root is).
    for (const root of roots) {
      const published = await chain.isPublished(proof.tenant_id, root as Hex32)
      checks.push({ field: 'chain', passed: published, detail: published ? `the contract holds root ${root} for the tenant` : `the contract does not hold root ${root} for the tenant` })
      if (!published) return report()
    }
    const terminal = proof.events[actionCount - 1]
    if (proof.merkle_root !== '' && terminal !== undefined) {
      const accepted = await chain.verifyInclusion(proof.merkle_root as Hex32, terminal.inclusion.leaf as Hex32, proof.merkle_proof as Hex32[])
      checks.push({ field: 'merkle_proof', passed: accepted, detail: accepted ? 'the contract accepts the proof of the last event' : 'the contract rejects the proof of the last event' })
      if (!accepted) return report()
    }
    // Where the last root was published: the chain's own record, not only what the publication event says.
    let anchorChecked = proof.chain_anchor === null
    if (proof.chain_anchor !== null && chain.findPublication !== undefined) {
      const found = await chain.findPublication(proof.tenant_id, proof.merkle_root as Hex32)
      const held = found !== null && found.txHash.toLowerCase() === proof.chain_anchor.tx_hash && Number(found.blockNumber) === proof.chain_anchor.block
      checks.push({
        field: 'chain_anchor',
        passed: held,
        detail: held ? `the contract published the root in ${proof.chain_anchor.tx_hash}, block ${proof.chain_anchor.block}` : found === null ? 'the contract has no publication of merkle_root' : `the contract published merkle_root in ${found.txHash}, block ${found.blockNumber}`,
      })
      if (!held) return report()
      anchorChecked = true
    }
    anchored = sealed && anchorChecked
  }
  return report()
}
