/**
 * The agents module's agent-protocol tool (platform/rpc/contributions.ts): agent_action.propose, a thin
 * adapter over the same service method as POST /v1/agents/actions, with that route's body as its arguments.
 */
import { rpcTool, type RpcContribution } from '../../platform/rpc/contributions.ts'
import type { ActionsService } from './actions.service.ts'
import { AgentActionBody, AgentActionProposed } from './agents.schemas.ts'

export function agentsRpc(services: { actions: ActionsService }): RpcContribution {
  return {
    tools: [
      rpcTool({
        name: 'agent_action.propose',
        title: 'Propose a non-money finding',
        description:
          'Records a finding (flag_transaction, remind, propose_match, block_payment, …) as the calling agent, with narrative, confidence, evidence refs and details; it becomes a proposal a person acknowledges or rejects. Money moves are PaymentIntents (payment_intent.propose). As POST /v1/agents/actions.',
        scopes: ['payment_intent:propose'],
        input: AgentActionBody,
        output: AgentActionProposed,
        readOnly: false,
        call: async (context, args) => (await services.actions.propose(context, args)).outcome,
      }),
    ],
  }
}
