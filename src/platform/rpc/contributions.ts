/**
 * What a module contributes to the agent protocol (spec, "Agent protocol"): MCP tools, resource templates
 * and prompts. Each is a thin adapter over the same service method as the module's REST route — it
 * parses nothing the TypeBox schema has not already validated, calls one service method with the caller's
 * CommandContext, and returns the service's outcome. The MCP module (src/modules/mcp) collects them from
 * every module definition, checks the per-tool scopes at invocation, and maps thrown AppErrors to the
 * spec's JSON-RPC codes. A module writes them in `<m>.rpc.ts`, beside `<m>.routes.ts`.
 */
import type { Static, TObject, TSchema } from 'typebox'
import type { CommandContext } from '../../kernel/context.ts'
import type { Scope } from '../../kernel/principal.ts'

export interface RpcTool<Input extends TObject = TObject> {
  /** Dotted, stable: `ledger.accounts.list`, `payment_intent.propose`. */
  readonly name: string
  readonly title: string
  readonly description: string
  /** Every scope the caller must hold; checked at invocation (JSON-RPC -32002 when one is missing). */
  readonly scopes: readonly Scope[]
  /** The arguments' schema (a TypeBox object; published as the tool's JSON Schema). */
  readonly input: Input
  /** The result's schema (published as the tool's outputSchema). */
  readonly output: TSchema
  /** MCP tool annotations: whether it only reads, and whether repeating it changes nothing more. */
  readonly readOnly: boolean
  call(context: CommandContext, args: Static<Input>): Promise<unknown>
}

export interface RpcResourceTemplate {
  /** Short name, e.g. `ledger.account`. */
  readonly name: string
  readonly title: string
  /** RFC 6570 level-1 template, e.g. `svc://ledger/accounts/{account_id}`. */
  readonly uriTemplate: string
  readonly description: string
  readonly mimeType: 'application/json' | 'text/markdown'
  readonly scopes: readonly Scope[]
  /** The resource as JSON (or Markdown text); throws the module's not-found AppError when absent. */
  read(context: CommandContext, params: Readonly<Record<string, string>>): Promise<unknown>
}

export interface RpcPromptArgument {
  readonly name: string
  readonly description: string
  readonly required: boolean
}

export interface RpcPrompt {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly arguments: readonly RpcPromptArgument[]
  readonly scopes: readonly Scope[]
  /** The prompt's messages, answered from the service's data (e.g. the Wiki's deterministic question). */
  get(context: CommandContext, args: Readonly<Record<string, string>>): Promise<{ description: string; messages: readonly { role: 'user' | 'assistant'; text: string }[] }>
}

/** What one module contributes to the agent protocol. */
export interface RpcContribution {
  readonly tools?: readonly RpcTool<any>[]
  readonly resourceTemplates?: readonly RpcResourceTemplate[]
  readonly prompts?: readonly RpcPrompt[]
}

/** Declares a tool with its input type inferred from its schema. */
export function rpcTool<Input extends TObject>(tool: RpcTool<Input>): RpcTool<Input> {
  return tool
}
