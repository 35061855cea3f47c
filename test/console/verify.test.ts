/**
 * The console's in-browser proof check (console/verify.ts), without a browser: an event under no Merkle
 * root is consistent but binds nothing, so the proof is not `sealed` (the page then says "not verified
 * yet"); the publication event, sealed in a later batch, does not count against it.
 */
import { describe, expect, it } from 'vitest'
import { eventHash, verifyProof, type ProofEvent, type VerifiableProof } from '../../console/verify.ts'

function event(id: string, linked: boolean, action = 'payment_intent.proposed'): ProofEvent {
  const fields = {
    id,
    tenant_id: '00000000-0000-4000-8000-000000000001',
    seq: linked ? 1 : null,
    layer: 'execution',
    actor: { type: 'service_token', id: 'svt_1' },
    action,
    entity: { type: 'payment_intent', id: 'pi_1' },
    inputs: {},
    outputs: {},
    evidence_ids: [],
    request_id: null,
    created_at: '2026-11-28T00:00:00.000Z',
    prev_hash: linked ? '0'.repeat(64) : null,
    hash: null as string | null,
  }
  if (!linked) return { event: fields, inclusion: { status: 'pending_sequence', leaf: null, merkle_root: null, proof: [] } }
  const hash = eventHash(fields)
  // A one-leaf tree: the root is the leaf.
  return { event: { ...fields, hash }, inclusion: { status: 'included', leaf: `0x${hash}`, merkle_root: `0x${hash}`, proof: [] } }
}

const proofOf = (events: ProofEvent[], merkleRoot: string, chainAnchor: VerifiableProof['chain_anchor'] = null): VerifiableProof => ({
  action_id: 'pi_1',
  merkle_root: merkleRoot,
  merkle_proof: [],
  chain_anchor: chainAnchor,
  partial: false,
  events,
})

describe('verifyProof (the console)', () => {
  it('calls a proof whose events are all under a root sealed, and one with an unlinked event consistent but not sealed', () => {
    const sealed = event('aud_1', true)
    expect(verifyProof(proofOf([sealed], sealed.inclusion.merkle_root!))).toMatchObject({ ok: true, sealed: true })
    expect(verifyProof({ ...proofOf([event('aud_2', false)], ''), partial: true })).toMatchObject({ ok: true, sealed: false, complete: false })
  })

  it('does not count the publication event, sealed later, against the action', () => {
    const action = event('aud_3', true)
    const publication = { ...event('aud_4', false, 'audit.anchor_published') }
    const proof = proofOf([action, publication], action.inclusion.merkle_root!, { tx_hash: `0x${'ab'.repeat(32)}`, block: 7, chain_id: 8453, publication_event_id: 'aud_4' })
    expect(verifyProof(proof).sealed).toBe(true)
  })
})
