/** What the agents module needs from others: whether an agent is promoted out of shadow mode (execution). */
export interface AgentsPromotions {
  /** True when the agent has a promotion active now (its money proposals reach the rails). */
  isPromoted(tenantId: string, agentId: string): Promise<boolean>
}

/** What halt needs of the payments module: pausing the agent's in-flight intents in the caller's transaction. */
export interface AgentsPayments {
  /** Pauses every approved intent the agent proposed, auditing each as `actor`; returns the ids paused. */
  pauseIntentsOfAgent(tx: import('../../platform/db/database.ts').Tx, tenantId: string, agentId: string, actor: import('../../kernel/audit-record.ts').AuditActor): Promise<string[]>
}

/** What the contribution hold's release needs of Raw: handing the held artifacts to the Ledger, in the caller's transaction. */
export interface AgentsRaw {
  releaseHeldContributions(tx: import('../../platform/db/database.ts').Tx, tenantId: string, agentId: string): Promise<string[]>
}
