/**
 * The proofs read side: the Proof of every action (spec, "Proof"), as JSON and as a page, and the
 * standalone verifier that checks one offline. It writes nothing and owns no table: a proof is assembled
 * from what the payments, execution and audit modules recorded, through the ports in ports.ts.
 */
import { createProofsService, type ProofsService } from './proofs.service.ts'
import type { ProofsAudit, ProofsExecution, ProofsPayments } from './ports.ts'

export { proofRoutes } from './proofs.routes.ts'
export { proofsRpc } from './proofs.rpc.ts'
/** The Proof's wire schema, for routes of other modules that hand a proof on (GET /v1/agents/runs/{run_id}/proof). */
export { Proof as ProofSchema } from './proofs.schemas.ts'
export { verifyActionProof, type ProofChain, type ProofCheck, type ProofVerification } from './verifier.ts'
export { explain, proofOutcomes, type Proof, type ProofOutcome } from './domain/proof.ts'
export type { ProofsAudit, ProofsAuditEvent, ProofsExecution, ProofsPayments } from './ports.ts'
export type { ProofsService } from './proofs.service.ts'

export interface Proofs {
  readonly service: ProofsService
}

export function createProofs(deps: { payments: ProofsPayments; execution: ProofsExecution; audit: ProofsAudit }): Proofs {
  return { service: createProofsService(deps) }
}
