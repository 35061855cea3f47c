/**
 * The registry's store: external agents' registrations and every agent's per-tenant state. Touches only
 * this module's tables (agents.registry.tables.ts); every query names the tenant but one
 * (`registrationsClaiming`: a wallet address is claimed once across the service).
 */
import { and, eq, gt, inArray, sql } from 'drizzle-orm'
import type { Executor, Tx } from '../../platform/db/database.ts'
import { agentRegistrations, agentStates, type AgentRegistrationRow, type AgentStateRow } from './agents.registry.tables.ts'
import { selector } from '../../platform/db/statements.ts'

const registrationByKey = selector(agentRegistrations, ['tenantId', 'agentId'])
const stateByKey = selector(agentStates, ['tenantId', 'agentId'])

export type AgentState = AgentStateRow['state']

export interface RegisteredAgent {
  readonly registration: AgentRegistrationRow
  readonly state: AgentStateRow
}

export function createRegistryStore() {
  return {
    /** Inserts a registration and its state row; false when the tenant already has an agent of that id. */
    async insertRegistration(tx: Tx, registration: AgentRegistrationRow, state: AgentStateRow): Promise<boolean> {
      const inserted = await tx.insert(agentRegistrations).values(registration).onConflictDoNothing().returning({ agentId: agentRegistrations.agentId })
      if (inserted.length === 0) return false
      await tx.insert(agentStates).values(state)
      return true
    },

    async findRegistered(executor: Executor, tenantId: string, agentId: string): Promise<RegisteredAgent | undefined> {
      // Both rows by key, issued together (one round trip on a pipelined connection): every proposal and
      // gate run of an agent reads them.
      const [[registration], [state]] = await Promise.all([registrationByKey(executor, [tenantId, agentId]), stateByKey(executor, [tenantId, agentId])])
      return registration === undefined || state === undefined ? undefined : { registration, state }
    },

    /** The tenant's registered agent whose wallet is `address` (lower-cased), if any. */
    async findRegisteredByAddress(executor: Executor, tenantId: string, address: string): Promise<RegisteredAgent | undefined> {
      const [row] = await executor
        .select({ registration: agentRegistrations, state: agentStates })
        .from(agentRegistrations)
        .innerJoin(agentStates, and(eq(agentStates.tenantId, agentRegistrations.tenantId), eq(agentStates.agentId, agentRegistrations.agentId)))
        .where(and(eq(agentRegistrations.tenantId, tenantId), eq(agentRegistrations.onchainAddress, address)))
        .limit(1)
      return row
    },

    /**
     * Deliberately across tenants: the registrations whose wallet is `address` (lower-cased), at most
     * `limit`, in (tenant, agent) order. A wallet address belongs to one agent in the whole service.
     */
    async registrationsClaiming(executor: Executor, address: string, limit: number): Promise<Array<{ tenantId: string; agentId: string }>> {
      return executor
        .select({ tenantId: agentRegistrations.tenantId, agentId: agentRegistrations.agentId })
        .from(agentRegistrations)
        .where(eq(agentRegistrations.onchainAddress, address))
        .orderBy(agentRegistrations.tenantId, agentRegistrations.agentId)
        .limit(limit)
    },

    /** Every registered agent of the tenant, in id order. Bounded by `limit`. */
    async listRegistered(executor: Executor, tenantId: string, limit: number): Promise<RegisteredAgent[]> {
      return executor
        .select({ registration: agentRegistrations, state: agentStates })
        .from(agentRegistrations)
        .innerJoin(agentStates, and(eq(agentStates.tenantId, agentRegistrations.tenantId), eq(agentStates.agentId, agentRegistrations.agentId)))
        .where(eq(agentRegistrations.tenantId, tenantId))
        .orderBy(agentRegistrations.agentId)
        .limit(limit)
    },

    /** A page of the tenant's registered agents in id order after `afterAgentId`, in `states` and by `createdBy` when given. */
    async pageRegistered(
      executor: Executor,
      tenantId: string,
      filter: { states?: readonly AgentState[] | undefined; createdBy?: string | undefined; afterAgentId?: string | undefined; limit: number },
    ): Promise<RegisteredAgent[]> {
      return executor
        .select({ registration: agentRegistrations, state: agentStates })
        .from(agentRegistrations)
        .innerJoin(agentStates, and(eq(agentStates.tenantId, agentRegistrations.tenantId), eq(agentStates.agentId, agentRegistrations.agentId)))
        .where(
          and(
            eq(agentRegistrations.tenantId, tenantId),
            filter.states === undefined ? undefined : inArray(agentStates.state, [...filter.states]),
            filter.createdBy === undefined ? undefined : eq(agentRegistrations.createdBy, filter.createdBy),
            filter.afterAgentId === undefined ? undefined : gt(agentRegistrations.agentId, filter.afterAgentId),
          ),
        )
        .orderBy(agentRegistrations.agentId)
        .limit(filter.limit)
    },

    async findState(executor: Executor, tenantId: string, agentId: string): Promise<AgentStateRow | undefined> {
      const [row] = await stateByKey(executor, [tenantId, agentId])
      return row
    },

    async statesOf(executor: Executor, tenantId: string, agentIds: readonly string[]): Promise<AgentStateRow[]> {
      if (agentIds.length === 0) return []
      return executor.select().from(agentStates).where(and(eq(agentStates.tenantId, tenantId), inArray(agentStates.agentId, [...agentIds])))
    },

    /**
     * Locks the agent's state row, creating it first when `whenMissing` is given (a catalog agent's first
     * halt): concurrent halts, restores and activations of one agent run one after another.
     */
    async lockState(tx: Tx, tenantId: string, agentId: string, whenMissing?: AgentStateRow): Promise<AgentStateRow | undefined> {
      if (whenMissing !== undefined) await tx.insert(agentStates).values(whenMissing).onConflictDoNothing()
      const [row] = await tx
        .select()
        .from(agentStates)
        .where(and(eq(agentStates.tenantId, tenantId), eq(agentStates.agentId, agentId)))
        .for('update')
      return row
    },

    async updateState(tx: Tx, tenantId: string, agentId: string, values: Partial<Pick<AgentStateRow, 'state' | 'contributionHeld'>>, at: Date): Promise<void> {
      await tx.update(agentStates).set({ ...values, updatedAt: at }).where(and(eq(agentStates.tenantId, tenantId), eq(agentStates.agentId, agentId)))
    },

    async confirmRegistration(tx: Tx, tenantId: string, agentId: string, values: { registeredTx: string | null; registeredAt: Date }, at: Date): Promise<void> {
      await tx
        .update(agentRegistrations)
        .set({ registeredTx: values.registeredTx ?? sql`${agentRegistrations.registeredTx}`, registeredAt: values.registeredAt, updatedAt: at })
        .where(and(eq(agentRegistrations.tenantId, tenantId), eq(agentRegistrations.agentId, agentId)))
    },
  }
}

export type RegistryStore = ReturnType<typeof createRegistryStore>
