/**
 * The proofs read side's agent-protocol contribution (docs/mcp.md): the resource template
 * svc://proofs/{action_id}, the same ProofsService read as GET /v1/proof/{action_id}. The REST route
 * needs audit:read, which no agent role grants; an agent that may propose may read the proof of what
 * became of a proposal, so the resource needs payment_intent:propose (docs/decisions.md, issue 20).
 */
import type { RpcContribution } from '../../platform/rpc/contributions.ts'
import type { ProofsService } from './proofs.service.ts'

export function proofsRpc(proofs: ProofsService): RpcContribution {
  return {
    resourceTemplates: [
      {
        name: 'proofs.proof',
        title: 'Proof of an action',
        uriTemplate: 'svc://proofs/{action_id}',
        description: 'The proof of an action (a payment intent): its policy decision, approvals, gate runs, receipts and the audit events with their Merkle inclusion, as GET /v1/proof/{action_id} answers.',
        mimeType: 'application/json',
        scopes: ['payment_intent:propose'],
        read: (context, params) => proofs.proof(context.principal!.tenantId, params.action_id!),
      },
    ],
  }
}
