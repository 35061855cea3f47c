/**
 * The proposals module's agent-protocol tools (platform/rpc/contributions.ts): proposals.list,
 * proposals.get, proposals.decide and evidence.resolve, each a thin adapter over the same service method
 * as its REST route, with the route's query or body (and path id) as its arguments.
 *
 * The reads take `payment_intent:propose` where their routes take `execution:read`, which no agent role
 * grants (docs/decisions.md, "Issue 20: the agent protocol"): an agent that may propose reads what became
 * of proposals — its own among the tenant's — and the evidence they cite, as payment_intent.list does.
 */
/** The scope of the proposal reads over the agent protocol (the proposing agents' read of their proposals). */
const agentReadScopes = ['payment_intent:propose'] as const
import { requirePrincipal } from '../../kernel/context.ts'
import { Strict } from '../../platform/http/schemas.ts'
import { rpcTool, type RpcContribution } from '../../platform/rpc/contributions.ts'
import type { DecideService } from './decide.service.ts'
import type { EvidenceService } from './evidence.service.ts'
import { DecideBody, DecideResult, EvidenceResolveBody, EvidenceResolveResult, Proposal, ProposalList, ProposalListQuery, ProposalParams } from './proposals.schemas.ts'
import { decideNote, evidenceNote, proposalsReadNote } from './proposals.routes.ts'
import type { ReadService } from './read.service.ts'

/** proposals.decide's arguments: the path id beside the route's body. */
export const DecideArguments = Strict({ ...ProposalParams.properties, ...DecideBody.properties })

export function proposalsRpc(services: { read: ReadService; decide: DecideService; evidence: EvidenceService }): RpcContribution {
  return {
    tools: [
      rpcTool({
        name: 'proposals.list',
        title: 'List proposals',
        description: `As GET /v1/proposals. ${proposalsReadNote}`,
        scopes: agentReadScopes,
        input: ProposalListQuery,
        output: ProposalList,
        readOnly: true,
        call: (context, args) => services.read.list(requirePrincipal(context).tenantId, args),
      }),
      rpcTool({
        name: 'proposals.get',
        title: 'Read one proposal',
        description: `As GET /v1/proposals/{id}. ${proposalsReadNote}`,
        scopes: agentReadScopes,
        input: ProposalParams,
        output: Proposal,
        readOnly: true,
        call: (context, args) => services.read.get(requirePrincipal(context).tenantId, args.id),
      }),
      rpcTool({
        name: 'proposals.decide',
        title: 'Decide on a proposal',
        description: `As POST /v1/proposals/{id}/decide (arguments: id, decision, reason). ${decideNote}`,
        // No scope: the service answers every caller that is not a person actor_unresolved (spec, "Decide rules"),
        // which the agent protocol answers -32002 (domain/rpc-errors.ts in the mcp module).
        scopes: [],
        input: DecideArguments,
        output: DecideResult,
        readOnly: false,
        call: async (context, args) => (await services.decide.decide(context, args)).outcome,
      }),
      rpcTool({
        name: 'evidence.resolve',
        title: 'Resolve evidence refs',
        description: `As POST /v1/evidence/resolve. ${evidenceNote}`,
        scopes: agentReadScopes,
        input: EvidenceResolveBody,
        output: EvidenceResolveResult,
        readOnly: true,
        call: (context, args) => services.evidence.resolve(requirePrincipal(context).tenantId, args),
      }),
    ],
  }
}

