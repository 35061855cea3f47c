/**
 * The proof routes (spec, "Audit and Proof"): the canonical Proof JSON of an action and the same data as
 * a readable page. audit:read; an action of another tenant is 404 proof_not_found, as a missing one.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import Type, { type Static } from 'typebox'
import { principalOf } from '../../platform/http/context.ts'
import { bearerRoute } from '../../platform/http/route-auth.ts'
import { registerNamedSchemas } from '../../platform/http/schemas.ts'
import type { ProofsService } from './proofs.service.ts'
import { renderProofPage } from './proofs.view.ts'
import * as proofSchemas from './proofs.schemas.ts'
import { Proof, ProofParams } from './proofs.schemas.ts'

const tags = ['Audit']
const auditRead = bearerRoute(['audit:read'])

export const proofRoutes: FastifyPluginAsyncTypebox<{ proofs: ProofsService }> = async (app, { proofs }) => {
  registerNamedSchemas(app, [...Object.values(proofSchemas)])
  app.get(
    '/v1/proof/:action_id',
    {
      config: { auth: auditRead },
      schema: {
        operationId: 'getProof',
        tags,
        summary: 'The proof of an action (a payment intent)',
        description:
          'Every field of the spec\'s Proof, plus the audit events it is built from with their Merkle inclusion (`events`): each field is derived from those events or bound by a digest they carry, ' +
          'so `npm run audit:verify-proof -- proof.json` checks the whole proof offline and names the first field that does not hold. ' +
          'While the action is in motion (dispatching, reconciling, awaiting approval) or its events are not all under a Merkle root, the proof is partial (`partial: true`; merkle_root is empty until the last event\'s batch closes). ' +
          '404 proof_not_found for an id that names no payment intent of your tenant.',
        params: ProofParams,
        response: { 200: Proof },
      },
    },
    // The receipts are the rails' own typed receipts (domain/proof.ts keeps them as records): the schema names their types.
    async (request) => (await proofs.proof(principalOf(request).tenantId, request.params.action_id)) as Static<typeof Proof>,
  )

  app.get(
    '/v1/proof/:action_id/view',
    {
      config: { auth: auditRead },
      schema: {
        operationId: 'viewProof',
        tags,
        summary: 'The proof of an action as a readable page (HTML)',
        description: 'The same data as GET /v1/proof/{action_id}, as a page: what happened, who decided, every gate check, the rail\'s receipt, the audit trail and how to verify it. Every value is escaped.',
        params: ProofParams,
        produces: ['text/html'],
        response: { 200: Type.String({ description: 'HTML page' }) },
      },
    },
    async (request, reply) => {
      const proof = await proofs.proof(principalOf(request).tenantId, request.params.action_id)
      return reply
        .type('text/html; charset=utf-8')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
        .send(renderProofPage(proof, { json: `/v1/proof/${encodeURIComponent(proof.action_id)}` }))
    },
  )
}
