/**
 * Assembles the Proof of an action from what the modules recorded: the action's audit events (about the
 * payment intent and its executions) with their inclusion proofs, the gate checks, evidence and receipts
 * those events digest, and the on-chain publication of the last event's batch. Reads only. An id that
 * names no payment intent of the tenant is proof_not_found, as another tenant's.
 */
import { AppError } from '../../kernel/errors.ts'
import { deriveFromEvents, explain, keyEvents, type ChainAnchor, type Proof, type ProofEventRecord } from './domain/proof.ts'
import type { ProofsAudit, ProofsAuditEvent, ProofsExecution, ProofsPayments } from './ports.ts'

export interface ProofsServiceDeps {
  readonly payments: ProofsPayments
  readonly execution: ProofsExecution
  readonly audit: ProofsAudit
}

/** Chain order: linked events by seq, then the ones not linked yet by when they were recorded. */
function chainOrder(left: ProofsAuditEvent, right: ProofsAuditEvent): number {
  const a = left.event
  const b = right.event
  if (a.seq !== null && b.seq !== null) return a.seq - b.seq
  if (a.seq !== null) return -1
  if (b.seq !== null) return 1
  return a.created_at === b.created_at ? (a.id < b.id ? -1 : 1) : a.created_at < b.created_at ? -1 : 1
}

function recordOf({ event, inclusion }: ProofsAuditEvent): ProofEventRecord {
  const { sequenced_at: _sequencedAt, ...fields } = event as ProofsAuditEvent['event'] & { sequenced_at?: unknown }
  return { event: fields, inclusion: { status: inclusion.status, leaf: inclusion.leaf, merkle_root: inclusion.merkle_root, proof: [...inclusion.proof] } }
}

export function createProofsService(deps: ProofsServiceDeps) {
  const { payments, execution, audit } = deps

  async function factsOf(tenantId: string, actionId: string) {
    try {
      return await payments.proofFacts(tenantId, actionId)
    } catch (error) {
      if (error instanceof AppError && error.code === 'payment_intent_not_found') throw new AppError('proof_not_found', 'No such action in this tenant.', { action_id: actionId })
      throw error
    }
  }

  return {
    /** The proof of one action (a payment intent): complete, or partial while it is in motion or its events are not all sealed. */
    async proof(tenantId: string, actionId: string): Promise<Proof> {
      const executionIds = await execution.executionIdsOf(tenantId, actionId)
      const ids = [
        ...(await audit.eventIdsAbout(tenantId, { type: 'payment_intent', id: actionId })),
        ...(await Promise.all(executionIds.map((id) => audit.eventIdsAbout(tenantId, { type: 'execution', id })))).flat(),
      ]
      const shown = (await Promise.all([...new Set(ids)].map((id) => audit.event(tenantId, id)))).sort(chainOrder)
      const records = shown.map(recordOf)
      const events = records.map((record) => record.event)
      const key = keyEvents(actionId, events)

      // The last event's batch, if it was published: the publication event binds where.
      let chainAnchor: ChainAnchor | null = null
      const terminal = shown.at(-1)
      const anchor = terminal?.inclusion.status === 'included' ? terminal.inclusion.anchor : null
      if (anchor !== null && anchor !== undefined && anchor.publication_status === 'published') {
        const publicationIds = await audit.eventIdsAbout(tenantId, { type: 'audit_anchor', id: anchor.anchor_id })
        const publications = await Promise.all(publicationIds.map((id) => audit.event(tenantId, id)))
        const publication = publications.find((found) => found.event.action === 'audit.anchor_published')
        if (publication !== undefined) {
          const outputs = publication.event.outputs
          chainAnchor = { tx_hash: String(outputs.tx_hash), block: Number(outputs.block_number), chain_id: Number(outputs.chain_id), publication_event_id: publication.event.id }
          records.push(recordOf(publication))
        }
      }

      // Read after the events (an unknown action has none, and is 404 here): a gate run committed while the
      // events were read has its event here only if it committed before them, and then its run is found too
      // (a run is written with its event).
      const facts = await factsOf(tenantId, actionId)
      const gateRun = key.gate === undefined ? undefined : facts.gateRuns.find((run) => run.auditEventId === key.gate!.id)
      const receipts = key.completed !== undefined || key.returned !== undefined ? await execution.receiptsOf(tenantId, actionId) : []
      const receiptNamed = (id: unknown) => receipts.find((receipt) => receipt.id === id)?.receipt ?? null
      const derived = deriveFromEvents(actionId, records, chainAnchor)
      const { digests: _digests, failure_code: _failureCode, ...fields } = derived
      const proof: Omit<Proof, 'human_explanation' | 'events'> = {
        action_id: actionId,
        ...fields,
        gate_checks: gateRun?.checks.map(({ index, name, passed, reason, code }) => ({ index, name, passed, reason, code })) ?? [],
        evidence: [...facts.evidence],
        rail_receipt: key.completed === undefined ? null : receiptNamed(key.completed.outputs.receipt_id),
        rail_return: key.returned === undefined ? null : receiptNamed(key.returned.outputs.receipt_id),
        chain_anchor: chainAnchor,
      }
      return {
        action_id: proof.action_id,
        tenant_id: proof.tenant_id,
        agent_id: proof.agent_id,
        behavior_hash: proof.behavior_hash,
        outcome: proof.outcome,
        status: proof.status,
        partial: proof.partial,
        payment: proof.payment,
        policy_version: proof.policy_version,
        policy_hash: proof.policy_hash,
        matched_rule_id: proof.matched_rule_id,
        approvals: proof.approvals,
        gate_checks: proof.gate_checks,
        evidence: proof.evidence,
        ledger_snapshot_hash: proof.ledger_snapshot_hash,
        rail_receipt: proof.rail_receipt,
        rail_return: proof.rail_return,
        audit_events: proof.audit_events,
        merkle_root: proof.merkle_root,
        merkle_proof: proof.merkle_proof,
        chain_anchor: proof.chain_anchor,
        human_explanation: explain(proof),
        events: records,
      }
    },
  }
}

export type ProofsService = ReturnType<typeof createProofsService>
