/**
 * The agent protocol's wire shapes for OpenAPI: a JSON-RPC 2.0 request, its response (a result or an
 * error with the spec's codes) and the flat refusal before dispatch. The handler checks the request
 * itself (domain/jsonrpc.ts) so that a malformed one is answered with a JSON-RPC code, not a 400.
 */
import { Type } from 'typebox'
import { named } from '../../platform/http/schemas.ts'
import { specRpcCodes } from './domain/rpc-errors.ts'

const Id = Type.Union([Type.String(), Type.Integer()], { description: 'The request id, echoed in the response; absent: a notification (answered 202, no body).' })

export const JsonRpcRequest = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    id: Type.Optional(Id),
    method: Type.String({
      description: 'initialize, ping, tools/list, tools/call, resources/list, resources/templates/list, resources/read, prompts/list or prompts/get (another method is -32601).',
      examples: ['tools/call'],
    }),
    params: Type.Optional(
      Type.Object(
        {
          name: Type.Optional(Type.String({ description: 'tools/call and prompts/get: the tool or prompt name.' })),
          arguments: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'tools/call: the tool\'s arguments (its JSON Schema in tools/list); prompts/get: string arguments.' })),
          uri: Type.Optional(Type.String({ description: 'resources/read: a svc:// URI of a resource template.' })),
        },
        { additionalProperties: true },
      ),
    ),
  },
  { additionalProperties: true },
)

export const JsonRpcResponse = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    id: Type.Union([Type.String(), Type.Integer(), Type.Null()]),
    result: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'The method\'s result (tools/call: content and structuredContent, the REST twin\'s response body).' })),
    error: Type.Optional(
      Type.Object({
        code: Type.Integer({ description: `One of ${specRpcCodes.join(', ')}.` }),
        message: Type.String(),
        data: Type.Optional(Type.Unknown({ description: 'error_code: the catalogue code; code: the gate_* check for -32004; issues for invalid arguments.' })),
      }),
    ),
  },
  { description: 'Exactly one of result and error.' },
)

export const ProtocolRefusal = named('AgentProtocolRefusal', Type.Object(
  {
    error_code: Type.String({ description: 'The catalogue code (auth_token_missing, auth_token_invalid, auth_token_expired, agent_not_registered, agent_inactive, agent_scope_hash_missing, agent_not_registered_onchain, agent_scope_hash_mismatch, auth_tenant_mismatch, scope_expired, rate_limit_exceeded, …).' }),
    message: Type.String(),
  },
  { description: 'The flat variant of the error envelope, for refusals before dispatch (spec, "Errors").' },
))

/** The answer to a notification (a message without an id): 202, no body. */
export const Notification = Type.Unsafe<unknown>({ description: 'A notification (no id) was accepted; the response has no body.' })
