/** What the agents module needs from others: whether an agent is promoted out of shadow mode (execution). */
export interface AgentsPromotions {
  /** True when the agent has a promotion active now (its money proposals reach the rails). */
  isPromoted(tenantId: string, agentId: string): Promise<boolean>
}
