/** What the MCP module needs of others: the agents module's checks before dispatch. */
import type { Principal } from '../../kernel/principal.ts'

export interface McpProtocolGuard {
  /** Throws the catalogue error of the first failing check (agents.protocolGuard.check). */
  check(principal: Principal): Promise<void>
}
