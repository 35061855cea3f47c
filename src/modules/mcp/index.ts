/**
 * The MCP module (docs/mcp.md): the agent protocol's entry, serving every module's agent-protocol
 * contributions (platform/rpc/contributions.ts) behind the agents module's checks before dispatch.
 * It owns no tables and no data: each tool, resource and prompt is its module's.
 */
import type { RpcContribution } from '../../platform/rpc/contributions.ts'
import { routesOf, type ModuleDefinition } from '../../platform/modules.ts'
import { createMcpCatalogue } from './mcp.server.ts'
import { mcpRoutes } from './mcp.routes.ts'
import type { McpProtocolGuard } from './ports.ts'

export { mcpPath } from './mcp.routes.ts'
export { rpcCodes, rpcErrorOf, specRpcCodes } from './domain/rpc-errors.ts'
export type { McpProtocolGuard } from './ports.ts'

/** The module definition, built from the other modules' contributions (composition passes them in). */
export function createMcpModule(deps: { contributions: readonly RpcContribution[]; guard: McpProtocolGuard; publicBaseUrl: string }): ModuleDefinition {
  const catalogue = createMcpCatalogue(deps.contributions)
  return { name: 'mcp', routes: routesOf(mcpRoutes, { catalogue, guard: deps.guard, publicBaseUrl: deps.publicBaseUrl }) }
}
