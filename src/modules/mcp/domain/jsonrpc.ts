/**
 * The JSON-RPC 2.0 checks the agent protocol makes before it hands a message to the SDK, so that every
 * malformed message is answered with the spec's code (-32600 invalid request, -32602 invalid params) at
 * HTTP 200 rather than the SDK's HTTP 400 or a -32603 from a failed schema parse. Pure.
 *
 * One message per request (single-shot HTTP): a batch (an array) is an invalid request.
 */
import { rpcCodes } from './rpc-errors.ts'

export type JsonRpcId = string | number

export type MessageCheck =
  | { readonly ok: true; readonly id: JsonRpcId | undefined; readonly method: string }
  | { readonly ok: false; readonly id: JsonRpcId | null; readonly code: number; readonly message: string }

/** The members of a JSON-RPC 2.0 request. */
const messageKeys = new Set(['jsonrpc', 'id', 'method', 'params'])

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value)
const isId = (value: unknown): value is JsonRpcId => typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value))

/** What each method's params must hold (beyond being an object); a message naming none else. */
function paramsProblem(method: string, params: Record<string, unknown>): string | undefined {
  const optionalCursor = () => (params.cursor === undefined || typeof params.cursor === 'string' ? undefined : 'params.cursor must be a string')
  switch (method) {
    case 'initialize': {
      if (typeof params.protocolVersion !== 'string') return 'params.protocolVersion must be a string'
      if (!isObject(params.capabilities)) return 'params.capabilities must be an object'
      const client = params.clientInfo
      if (!isObject(client) || typeof client.name !== 'string' || typeof client.version !== 'string') return 'params.clientInfo must be an object with name and version strings'
      return undefined
    }
    case 'tools/call':
      if (typeof params.name !== 'string') return 'params.name must be a string'
      if (params.arguments !== undefined && !isObject(params.arguments)) return 'params.arguments must be an object'
      return undefined
    case 'resources/read':
      return typeof params.uri === 'string' ? undefined : 'params.uri must be a string'
    case 'prompts/get':
      if (typeof params.name !== 'string') return 'params.name must be a string'
      if (params.arguments !== undefined && (!isObject(params.arguments) || Object.values(params.arguments).some((value) => typeof value !== 'string'))) {
        return 'params.arguments must be an object of strings'
      }
      return undefined
    case 'tools/list':
    case 'resources/list':
    case 'resources/templates/list':
    case 'prompts/list':
      return optionalCursor()
    default:
      return undefined
  }
}

/** Checks one parsed message; `ok` hands it to the SDK. */
export function checkMessage(message: unknown): MessageCheck {
  if (!isObject(message)) {
    return { ok: false, id: null, code: rpcCodes.invalidRequest, message: Array.isArray(message) ? 'Batches are not accepted: send one JSON-RPC request per HTTP request.' : 'The body must be a JSON-RPC 2.0 request object.' }
  }
  const unknown = Object.keys(message).filter((key) => !messageKeys.has(key))
  const id = message.id
  if (unknown.length > 0) return { ok: false, id: isId(id) ? id : null, code: rpcCodes.invalidRequest, message: `Unknown member ${unknown[0]}: a request holds jsonrpc, id, method and params.` }
  if (id !== undefined && !isId(id)) return { ok: false, id: null, code: rpcCodes.invalidRequest, message: 'id must be a string or an integer.' }
  const answerId = id ?? null
  if (message.jsonrpc !== '2.0') return { ok: false, id: answerId, code: rpcCodes.invalidRequest, message: 'jsonrpc must be "2.0".' }
  if (typeof message.method !== 'string' || message.method === '') return { ok: false, id: answerId, code: rpcCodes.invalidRequest, message: 'method must be a non-empty string.' }
  const params = message.params
  if (params !== undefined && !isObject(params)) return { ok: false, id: answerId, code: rpcCodes.invalidParams, message: 'params must be an object.' }
  const problem = paramsProblem(message.method, params ?? {})
  if (problem !== undefined) return { ok: false, id: answerId, code: rpcCodes.invalidParams, message: `Invalid params: ${problem}.` }
  return { ok: true, id, method: message.method }
}
