/**
 * The agent protocol's HTTP entry (spec, "Agent protocol"): `POST /v1/agents/mcp`, JSON-RPC 2.0 over
 * single-shot HTTP with a bearer JWT (and `POST /` on the MCP_PORT listener, main/server.ts, which hands
 * its requests to this route).
 *
 * Before dispatch: the guard authenticates the bearer, then the agents module's protocol guard checks the
 * agent (active, scope hash, tenant). A failure there is HTTP 401 or 403 with the flat variant
 * `{error_code, message}` (agent_inactive, 409 elsewhere, is 403 here: the spec allows only 401 and 403
 * before dispatch). Once dispatch starts the status is 200 and every failure is a JSON-RPC error with the
 * spec's codes: a body that is not JSON is -32700, a message that is not a JSON-RPC request -32600, and
 * the rest comes from the SDK's server (mcp.server.ts) — a fresh `Server` and stateless
 * `WebStandardStreamableHTTPServerTransport` (JSON responses, no session) per request, whose Response
 * this route sends (the Node wrapper's request conversion cost a fifth of a call; bench/mcp.ts).
 */
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import type { Principal } from '../../kernel/principal.ts'
import { AppError } from '../../kernel/errors.ts'
import { ErrorEnvelope, knownErrorOf, renderError } from '../../platform/http/errors.ts'
import { registerNamedSchemas } from '../../platform/http/schemas.ts'
import { idempotencyKeyOf } from '../../platform/http/idempotency.ts'
import { bearerRoute } from '../../platform/http/route-auth.ts'
import { checkMessage, type JsonRpcId } from './domain/jsonrpc.ts'
import { rpcCodes } from './domain/rpc-errors.ts'
import { createMcpServer, type McpCatalogue } from './mcp.server.ts'
import { JsonRpcRequest, JsonRpcResponse, Notification, ProtocolRefusal } from './mcp.schemas.ts'
import type { McpProtocolGuard } from './ports.ts'

export const mcpPath = '/v1/agents/mcp'

/** A body that is not JSON: parsed to this, answered -32700 once the caller has passed the checks. */
const unparsable = Object.freeze({ unparsable: Symbol('unparsable') })

export interface McpRoutesOptions {
  readonly catalogue: McpCatalogue
  readonly guard: McpProtocolGuard
  readonly publicBaseUrl: string
}

/**
 * The flat variant of a refusal before dispatch, with the statuses the spec allows there. A server error
 * keeps the envelope every 500 has (with its request_id).
 */
function refusal(request: FastifyRequest, reply: FastifyReply, error: AppError, publicBaseUrl: string) {
  if (error.status >= 500) return renderError(request, reply, error, publicBaseUrl)
  const status = error.code === 'agent_inactive' ? 403 : error.status
  reply.header('x-request-id', request.id)
  return reply.code(status).type('application/json; charset=utf-8').send({ error_code: error.code, message: error.message })
}

function rpcFailure(reply: FastifyReply, id: JsonRpcId | null, code: number, message: string) {
  return reply.code(200).type('application/json; charset=utf-8').send({ jsonrpc: '2.0', id, error: { code, message } })
}

const description =
  'JSON-RPC 2.0 over single-shot HTTP (one request per POST; a batch is -32600), the Model Context Protocol\'s stateless Streamable HTTP with JSON responses: initialize, ping, tools/list, tools/call, resources/list, resources/templates/list, resources/read, prompts/list, prompts/get. ' +
  'Needs an agent token (SIWX). Before dispatch the agent must be registered and active, its token\'s scope_hash must equal the on-chain one and its tenant the agent\'s: a failure is 401 or 403 with the flat body {error_code, message} (agent_inactive is 403 here). ' +
  'Once dispatch starts the status is 200 and failures are JSON-RPC errors: -32700 body not JSON, -32600 not a JSON-RPC request, -32601 unknown method, -32602 invalid params (an unknown tool, resource or prompt, arguments that fail the tool\'s JSON Schema, and any other catalogue error, whose code is in error.data.error_code), ' +
  '-32001 token missing, invalid or expired, -32002 a scope the tool needs is missing or a tenant_id argument is not the token\'s tenant, -32003 the agent is not registered or not active, -32004 the pre-execution gate failed (error.data.code the gate_* check), -32005 scope hash mismatch, -32603 internal. ' +
  'A notification (no id) is answered 202 with no body. The tools, resource templates and prompts are listed in docs/mcp.md; each tool calls the same service method as its REST route.'

export const mcpRoutes: FastifyPluginAsync<McpRoutesOptions> = async (app, { catalogue, guard, publicBaseUrl }) => {
  registerNamedSchemas(app, [ProtocolRefusal])
  // JSON bodies are parsed here, not refused by the framework: a body that is not JSON is a JSON-RPC parse
  // error (-32700, status 200) once the caller has passed the checks before dispatch.
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, JSON.parse(body as string))
    } catch {
      done(null, unparsable)
    }
  })

  app.post(
    mcpPath,
    {
      config: { auth: bearerRoute([]) },
      schema: {
        operationId: 'callAgentProtocol',
        tags: ['Agents'],
        summary: 'Agent protocol (MCP, JSON-RPC 2.0)',
        description,
        body: JsonRpcRequest,
        response: { 200: JsonRpcResponse, 202: Notification, '4xx': ProtocolRefusal, '5xx': ErrorEnvelope },
      },
      // The body is checked as JSON-RPC by the handler (answered with JSON-RPC codes), not by the route schema.
      validatorCompiler: () => () => true,
      errorHandler: (rawError: FastifyError, request, reply) => {
        const known = knownErrorOf(rawError)
        if (known === undefined) request.log.error({ err: rawError }, 'unhandled error')
        return refusal(request, reply, known ?? new AppError('internal_error'), publicBaseUrl)
      },
    },
    async (request, reply) => {
      const principal = request.principal as Principal
      await guard.checkAuthenticated(principal)

      const body = request.body
      if (body === unparsable || body === undefined) return rpcFailure(reply, null, rpcCodes.parse, 'Parse error: the body is not valid JSON.')
      const checked = checkMessage(body)
      if (!checked.ok) return rpcFailure(reply, checked.id, checked.code, checked.message)

      const server = createMcpServer(catalogue, {
        context: { requestId: request.id, principal, idempotencyKey: idempotencyKeyOf(request) },
        log: request.log,
      })
      // The SDK's web-standard transport, handed a Request holding only the headers it reads (a header it cannot
      // hold, such as a hostile Idempotency-Key, would fail the Request) and an Accept it always satisfies (the
      // answer is always JSON: enableJsonResponse); the body is given already parsed. Its Response is sent
      // through this reply, so the app's hooks (request id, security headers) apply as on every route.
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
      try {
        await server.connect(transport)
        const answer = await transport.handleRequest(new Request(`http://steward.internal${mcpPath}`, { method: 'POST', headers: transportHeaders(request.raw.rawHeaders) }), { parsedBody: body })
        // What the transport refuses with an HTTP 400 (a message its schema rejects) is an invalid request here, at 200.
        if (answer.status === 400) return rpcFailure(reply, checked.id ?? null, rpcCodes.invalidRequest, 'The body is not a JSON-RPC 2.0 message.')
        const text = await answer.text()
        reply.code(answer.status)
        answer.headers.forEach((value, name) => {
          if (name !== 'content-length') void reply.header(name, value)
        })
        return reply.send(text === '' ? undefined : text)
      } catch (error) {
        request.log.error({ err: error }, 'agent protocol: the transport failed')
        return rpcFailure(reply, checked.id ?? null, rpcCodes.internal, 'Internal error.')
      } finally {
        void transport.close()
        void server.close()
      }
    },
  )
}

/** The headers the SDK's transport reads, when their values are bytes a Request can hold. */
const transportHeaderNames = new Set(['content-type', 'host', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id'])
const headerValue = /^[\t\x20-\x7e\x80-\xff]*$/

function transportHeaders(rawHeaders: readonly string[]): Array<[string, string]> {
  const kept: Array<[string, string]> = []
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    const name = rawHeaders[index]!.toLowerCase()
    const value = rawHeaders[index + 1]!
    if (transportHeaderNames.has(name) && headerValue.test(value)) kept.push([name, value])
  }
  kept.push(['accept', 'application/json, text/event-stream'])
  return kept
}
