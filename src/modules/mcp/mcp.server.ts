/**
 * The agent protocol's MCP server, built per request from every module's contributions
 * (platform/rpc/contributions.ts) on the SDK's low-level `Server`: tools publish their TypeBox argument
 * schemas as JSON Schema as they are, resource templates and prompts come from the modules that own the
 * data. This file holds no business logic: it finds the contribution, checks its scopes (and a tenant_id
 * argument against the token's tenant), validates the arguments, calls it with the request's
 * CommandContext and maps a thrown AppError to the spec's JSON-RPC codes (domain/rpc-errors.ts). A thrown
 * McpError becomes a JSON-RPC error (the low-level Server does not turn it into an `isError` result).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js'
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js'
import type { ValidateFunction } from 'ajv'
import type { FastifyBaseLogger as Logger } from 'fastify'
import type { CommandContext } from '../../kernel/context.ts'
import { errorCatalogue } from '../../kernel/errors.ts'
import { hasScopes, type Principal, type Scope } from '../../kernel/principal.ts'
import { knownErrorOf } from '../../platform/http/errors.ts'
import { compileArgumentsValidator, toIssues } from '../../platform/http/validation.ts'
import type { RpcContribution, RpcPrompt, RpcResourceTemplate, RpcTool } from '../../platform/rpc/contributions.ts'
import { rpcCodes, rpcErrorOf } from './domain/rpc-errors.ts'
import { matchTemplate } from './domain/uri-template.ts'

/**
 * The SDK server's JSON Schema validator (it validates what a client answers to server requests, which this
 * server never sends). One for the process: the SDK would otherwise build an Ajv instance per server, which
 * here is per request — a fifth of a tools/call's CPU time when measured (bench/mcp.ts).
 */
const sharedSchemaValidator = new AjvJsonSchemaValidator()

export const mcpServerInfo = { name: 'steward', title: 'Steward agent protocol', version: '0.5.0' } as const

const instructions =
  'Steward: read the Ledger, ask the Wiki, contribute evidence to Raw and propose payments under the tenant\'s policy and the pre-execution gate. ' +
  'Nothing here executes a payment: proposals are governed by the policy and decided by people. Errors carry the catalogue code in error.data.error_code.'

/** Everything the modules contributed, indexed once at composition (the per-request servers share it). */
export interface McpCatalogue {
  readonly tools: ReadonlyMap<string, { readonly tool: RpcTool<any>; readonly validate: ValidateFunction; readonly inputSchema: Record<string, unknown> }>
  readonly resourceTemplates: readonly RpcResourceTemplate[]
  readonly prompts: ReadonlyMap<string, RpcPrompt>
}

export function createMcpCatalogue(contributions: readonly RpcContribution[]): McpCatalogue {
  const tools = new Map<string, { tool: RpcTool<any>; validate: ValidateFunction; inputSchema: Record<string, unknown> }>()
  const prompts = new Map<string, RpcPrompt>()
  const resourceTemplates: RpcResourceTemplate[] = []
  for (const contribution of contributions) {
    for (const tool of contribution.tools ?? []) {
      if (tools.has(tool.name)) throw new Error(`two modules contribute the agent-protocol tool ${tool.name}`)
      // A plain JSON copy: TypeBox's symbols dropped, exactly what tools/list publishes.
      const inputSchema = JSON.parse(JSON.stringify(tool.input)) as Record<string, unknown>
      tools.set(tool.name, { tool, validate: compileArgumentsValidator(inputSchema), inputSchema })
    }
    for (const prompt of contribution.prompts ?? []) {
      if (prompts.has(prompt.name)) throw new Error(`two modules contribute the agent-protocol prompt ${prompt.name}`)
      prompts.set(prompt.name, prompt)
    }
    resourceTemplates.push(...(contribution.resourceTemplates ?? []))
  }
  return { tools, resourceTemplates, prompts }
}

/** A JSON-RPC error of the spec's codes, as the SDK sends a thrown McpError. */
export function rpcError(code: number, message: string, data?: Record<string, unknown>): McpError {
  const error = new McpError(code, message, data)
  // McpError prefixes its message ("MCP error -32602: …"); the wire carries ours as written.
  error.message = message
  return error
}

/** -32602 for a name the protocol does not know: its catalogue code and status, as any other catalogue 4xx. */
function notFound(code: 'tool_not_found' | 'resource_not_found' | 'prompt_not_found', message: string): McpError {
  return rpcError(rpcCodes.invalidParams, message, { error_code: code, status: errorCatalogue[code].status })
}

function requireScopes(principal: Principal, scopes: readonly Scope[], what: string): void {
  if (hasScopes(principal, scopes)) return
  throw rpcError(rpcCodes.scope, `${what} needs the scopes ${scopes.join(', ')}.`, {
    error_code: 'auth_scope_insufficient',
    required: [...scopes],
    missing: scopes.filter((scope) => !principal.scopes.includes(scope)),
  })
}

/** Runs a contribution and turns whatever it throws into a JSON-RPC error of the spec's codes. */
async function mapped<T>(log: Logger, work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof McpError) throw error
    const known = knownErrorOf(error)
    if (known === undefined || known.status >= 500) log.error({ err: error }, 'agent protocol: a contribution failed')
    const body = rpcErrorOf(known ?? { code: 'internal_error', message: 'internal', status: 500 })
    throw rpcError(body.code, body.message, body.data)
  }
}

export interface McpRequestScope {
  readonly context: CommandContext & { readonly principal: Principal }
  readonly log: Logger
}

/** A fresh SDK server for one request, answering from the catalogue as the request's principal. */
export function createMcpServer(catalogue: McpCatalogue, scope: McpRequestScope): Server {
  const { context, log } = scope
  const principal = context.principal
  const server = new Server(mcpServerInfo, {
    capabilities: { tools: { listChanged: false }, resources: { listChanged: false, subscribe: false }, prompts: { listChanged: false } },
    instructions,
    jsonSchemaValidator: sharedSchemaValidator,
  })

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [...catalogue.tools.values()].map(({ tool, inputSchema }) => ({
      name: tool.name,
      title: tool.title,
      description: `${tool.description} Scopes: ${tool.scopes.join(', ')}.`,
      inputSchema: inputSchema as { type: 'object' },
      annotations: { title: tool.title, readOnlyHint: tool.readOnly, destructiveHint: false, idempotentHint: tool.readOnly, openWorldHint: false },
    })),
  }))

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const entry = catalogue.tools.get(request.params.name)
    if (entry === undefined) throw notFound('tool_not_found', `Unknown tool ${request.params.name}.`)
    const { tool, validate } = entry
    requireScopes(principal, tool.scopes, `The tool ${tool.name}`)
    const args = request.params.arguments ?? {}
    // A tenant_id argument names the caller's own tenant, as a tenant path parameter does over REST.
    if ('tenant_id' in args && args.tenant_id !== principal.tenantId) {
      throw rpcError(rpcCodes.scope, 'tenant_id is not the tenant of this token.', { error_code: 'auth_tenant_mismatch' })
    }
    if (!validate(args)) {
      throw rpcError(rpcCodes.invalidParams, `The arguments of ${tool.name} are invalid.`, { error_code: 'request_params_invalid', issues: toIssues(validate.errors ?? []) })
    }
    const result = await mapped(log, () => tool.call(context, args))
    const structured = (result !== null && typeof result === 'object' && !Array.isArray(result) ? result : { result }) as Record<string, unknown>
    return { content: [{ type: 'text' as const, text: JSON.stringify(structured) }], structuredContent: structured }
  })

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: catalogue.resourceTemplates.map((template) => ({
      name: template.name,
      title: template.title,
      uriTemplate: template.uriTemplate,
      description: `${template.description} Scopes: ${template.scopes.join(', ')}.`,
      mimeType: template.mimeType,
    })),
  }))

  // The templates without a variable are concrete resources too (svc://payments/action_types).
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: catalogue.resourceTemplates
      .filter((template) => !template.uriTemplate.includes('{'))
      .map((template) => ({ uri: template.uriTemplate, name: template.name, title: template.title, description: template.description, mimeType: template.mimeType })),
  }))

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const uri = request.params.uri
    for (const template of catalogue.resourceTemplates) {
      const params = matchTemplate(template.uriTemplate, uri)
      if (params === undefined) continue
      requireScopes(principal, template.scopes, `The resource ${template.uriTemplate}`)
      const value = await mapped(log, () => template.read(context, params))
      const text = template.mimeType === 'application/json' ? JSON.stringify(value) : String(value)
      return { contents: [{ uri, mimeType: template.mimeType, text }] }
    }
    throw notFound('resource_not_found', `No resource template matches ${uri}.`)
  })

  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: [...catalogue.prompts.values()].map((prompt) => ({
      name: prompt.name,
      title: prompt.title,
      description: prompt.description,
      arguments: prompt.arguments.map((argument) => ({ name: argument.name, description: argument.description, required: argument.required })),
    })),
  }))

  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const prompt = catalogue.prompts.get(request.params.name)
    if (prompt === undefined) throw notFound('prompt_not_found', `Unknown prompt ${request.params.name}.`)
    requireScopes(principal, prompt.scopes, `The prompt ${prompt.name}`)
    const args = request.params.arguments ?? {}
    const known = new Set(prompt.arguments.map((argument) => argument.name))
    const issues = [
      ...prompt.arguments.filter((argument) => argument.required && args[argument.name] === undefined).map((argument) => ({ path: `/${argument.name}`, message: 'is required', keyword: 'required' })),
      ...Object.keys(args).filter((name) => !known.has(name)).map((name) => ({ path: `/${name}`, message: 'is not a recognized argument', keyword: 'additionalProperties' })),
    ]
    if (issues.length > 0) throw rpcError(rpcCodes.invalidParams, `The arguments of ${prompt.name} are invalid.`, { error_code: 'request_params_invalid', issues })
    const answer = await mapped(log, () => prompt.get(context, args))
    return { description: answer.description, messages: answer.messages.map((message) => ({ role: message.role, content: { type: 'text' as const, text: message.text } })) }
  })

  return server
}
