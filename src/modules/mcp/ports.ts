/** What the MCP module needs of others: the agents module's checks before dispatch. */
import type { Principal } from '../../kernel/principal.ts'

export interface McpProtocolGuard {
  /**
   * Throws the catalogue error of the first failing check, for a principal authenticated in this request
   * (agents.protocolGuard.checkAuthenticated: authentication re-read the agent's state; the registration is
   * read through the spec's 60-second cache).
   */
  checkAuthenticated(principal: Principal): Promise<void>
}
