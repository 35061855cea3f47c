/**
 * The payments module's agent-protocol contributions (docs/mcp.md): payment_intent.propose, .cancel and
 * .list, each a thin adapter over the same service method as its REST route, and the resource templates
 * svc://ledger/payment-intents/{payment_intent_id} and svc://payments/action_types. There is no execute
 * tool: an agent proposes, the policy decides what the proposal needs, people approve, the gate executes.
 *
 * Scopes: proposing needs payment_intent:propose, as the route. Cancel is the proposing agent's own move
 * (the command lets the agent that proposed an intent cancel it before approval), so it needs
 * payment_intent:propose too. Reading intents needs execution:read over REST, which no agent role grants;
 * an agent that may propose may follow what became of the tenant's proposals, so the list and the
 * resource need payment_intent:propose (docs/decisions.md, issue 20).
 */
import type { TObject } from 'typebox'
import { paymentActionTypes } from '../../kernel/action-types.ts'
import { rpcTool, type RpcContribution } from '../../platform/rpc/contributions.ts'
import type { DecideService } from './decide.service.ts'
import { railOf } from './domain/gate.ts'
import type { ProposeService } from './propose.service.ts'
import type { ReadService } from './read.service.ts'
import { IntentListQuery, IntentListResponse, IntentPathParams, PaymentIntent, ProposeBody } from './payments.schemas.ts'

const proposeScopes = ['payment_intent:propose'] as const

/** The propose body (a oneOf of the explicit proposal and the pay_invoice shortcut) as an object schema. */
const ProposeArguments = { type: 'object', ...ProposeBody } as unknown as TObject

export function paymentsRpc(services: { propose: ProposeService; decide: DecideService; read: ReadService }): RpcContribution {
  const { propose, decide, read } = services
  return {
    tools: [
      rpcTool({
        name: 'payment_intent.propose',
        title: 'Propose a payment',
        description:
          'Proposes a PaymentIntent (an explicit proposal or the pay_invoice shortcut): checked against the Ledger, evaluated by the active policy, answered with the PolicyDecision attached and the status it leads to (approved, pending_approval or rejected). Never executes. REST twin: POST /v1/payment-intents.',
        scopes: proposeScopes,
        input: ProposeArguments,
        output: PaymentIntent,
        readOnly: false,
        call: async (context, args) => (await propose.propose(context, args as never)).outcome,
      }),
      rpcTool({
        name: 'payment_intent.cancel',
        title: 'Cancel a proposed payment',
        description:
          'Cancels an intent the calling agent proposed, before approval (proposed, pending_approval, awaiting_second_approval) or while paused; another agent\'s intent needs a member\'s authority (-32602 with error_code payment_intent_approval_invalid). REST twin: POST /v1/payment-intents/{payment_intent_id}/cancel.',
        scopes: proposeScopes,
        input: IntentPathParams,
        output: PaymentIntent,
        readOnly: false,
        call: async (context, args) => (await decide.cancel(context, { id: args.payment_intent_id })).outcome,
      }),
      rpcTool({
        name: 'payment_intent.list',
        title: 'List payment intents',
        description: 'The tenant\'s intents, newest first, with filters status, action_type, agent_id, created_from, created_to and a page. REST twin: GET /v1/payment-intents.',
        scopes: proposeScopes,
        input: IntentListQuery,
        output: IntentListResponse,
        readOnly: true,
        call: (context, args) => read.list(context.principal!.tenantId, args),
      }),
    ],
    resourceTemplates: [
      {
        name: 'ledger.payment_intent',
        title: 'Payment intent',
        uriTemplate: 'svc://ledger/payment-intents/{payment_intent_id}',
        description: 'A payment intent with its policy decision, approvals and status, as GET /v1/payment-intents/{payment_intent_id} answers.',
        mimeType: 'application/json',
        scopes: proposeScopes,
        read: (context, params) => read.get(context.principal!.tenantId, params.payment_intent_id!, { expandAgent: false }),
      },
      {
        name: 'payments.action_types',
        title: 'Payment action types',
        uriTemplate: 'svc://payments/action_types',
        description: 'The action types a payment intent may have, each with the rail that carries it.',
        mimeType: 'application/json',
        scopes: [],
        read: async () => ({ action_types: paymentActionTypes.map((actionType) => ({ action_type: actionType, rail: railOf[actionType] })) }),
      },
    ],
  }
}
