/**
 * The platform's governance of registered agents (docs/agents.md, "Governance"), as the governance module
 * calls it: a page of a tenant's registered agents, one agent, and the lifecycle transitions an operator
 * makes with `PATCH /v1/governance/agents/{agent_id}`:
 *
 * - `pause`: active → quarantined, as a halt: the agent's approved intents are paused and its contributions
 *   held (the spec's "active | governance transition pause | quarantined").
 * - `resume`: quarantined → active; pending_onchain → active only in a sandbox with no chain configured
 *   (with a chain, only the chain activates: docs/agents.md, "Activation").
 * - `revoke`: any state but revoked → revoked, for good (its tokens stop working: the guard and the
 *   agent standing need active). Its approved intents are paused as by a pause.
 *
 * Any other move is 409 agent_lifecycle_transition_invalid. Each transition is one transaction audited
 * `governance.agent.lifecycle_changed` by the platform actor the operator names.
 */
import type { AuditActor } from '../../kernel/audit-record.ts'
import type { Clock } from '../../kernel/clock.ts'
import type { CommandContext } from '../../kernel/context.ts'
import type { CursorCodec } from '../../kernel/cursor.ts'
import { AppError } from '../../kernel/errors.ts'
import { sha256Hex } from '../../kernel/hashing.ts'
import type { CommandRunner } from '../../platform/commands/command.ts'
import type { Database } from '../../platform/db/database.ts'
import type { AgentRegistryChain } from './chain/agent-registry.ts'
import type { AgentsPayments, AgentWriteListener } from './ports.ts'
import { registeredAgentView, type RegisteredAgentView } from './registry.service.ts'
import type { AgentState, RegisteredAgent, RegistryStore } from './registry.store.pg.ts'

export const lifecycleTransitions = ['pause', 'resume', 'revoke'] as const
export type LifecycleTransition = (typeof lifecycleTransitions)[number]

/** The spec's status filter: `pending` is the registry's pending_onchain. */
export const governanceStatuses = ['active', 'pending', 'quarantined', 'revoked'] as const
export type GovernanceStatus = (typeof governanceStatuses)[number]

export const governanceAgentPageRows = { defaultRows: 100, maxRows: 500 } as const

/** The spec's governance view of an agent: the agent with its tenant and `scopes` (always null: only the hash is stored). */
export interface GovernanceAgentView extends RegisteredAgentView {
  tenant_id: string
  status: AgentState
  scopes: null
}

export function governanceAgentView(tenantId: string, agent: RegisteredAgent): GovernanceAgentView {
  return { ...registeredAgentView(agent), tenant_id: tenantId, status: agent.state.state, scopes: null }
}

const statesOf: Record<GovernanceStatus, AgentState> = { active: 'active', pending: 'pending_onchain', quarantined: 'quarantined', revoked: 'revoked' }

/** Where each transition may start, and where it leads (resume from pending_onchain only without a chain). */
function nextState(transition: LifecycleTransition, from: AgentState, chainConfigured: boolean): AgentState | undefined {
  switch (transition) {
    case 'pause':
      return from === 'active' ? 'quarantined' : undefined
    case 'resume':
      return from === 'quarantined' || (from === 'pending_onchain' && !chainConfigured) ? 'active' : undefined
    case 'revoke':
      return from === 'revoked' ? undefined : 'revoked'
  }
}

export interface TransitionInput {
  readonly tenantId: string
  readonly agentId: string
  readonly transition: LifecycleTransition
  readonly reason: string
  /** Who made the change, as the operator names it (audited as a platform actor). */
  readonly actor: string
}

export function createLifecycleService(deps: {
  db: Database
  commands: CommandRunner
  store: RegistryStore
  clock: Clock
  cursors: CursorCodec
  chain: AgentRegistryChain | undefined
  payments: Pick<AgentsPayments, 'pauseIntentsOfAgent'>
  afterWrite?: AgentWriteListener | undefined
}) {
  const { db, commands, store, clock, cursors, chain, payments } = deps

  return {
    async list(
      tenantId: string,
      query: { status?: GovernanceStatus | undefined; owner?: string | undefined; limit?: number | undefined; cursor?: string | undefined },
    ): Promise<{ agents: GovernanceAgentView[]; next_cursor: string | null }> {
      const limit = query.limit ?? governanceAgentPageRows.defaultRows
      const listing = `governance_agents:${tenantId}:${query.status ?? ''}:${query.owner ?? ''}`
      const after = query.cursor === undefined ? undefined : String(cursors.decode(listing, query.cursor)['agent_id'])
      const rows = await store.pageRegistered(db.orm, tenantId, {
        states: query.status === undefined ? undefined : [statesOf[query.status]],
        createdBy: query.owner,
        afterAgentId: after,
        limit: limit + 1,
      })
      const shown = rows.slice(0, limit)
      const last = shown.at(-1)
      return {
        agents: shown.map((row) => governanceAgentView(tenantId, row)),
        next_cursor: rows.length > limit && last !== undefined ? cursors.encode(listing, { agent_id: last.registration.agentId }) : null,
      }
    },

    /** One registered agent of the tenant; 404 agent_not_found. */
    async get(tenantId: string, agentId: string): Promise<GovernanceAgentView> {
      const agent = await store.findRegistered(db.orm, tenantId, agentId)
      if (agent === undefined) throw new AppError('agent_not_found', 'No such registered agent in this tenant.', { agent_id: agentId })
      return governanceAgentView(tenantId, agent)
    },

    async transition(context: CommandContext, input: TransitionInput): Promise<GovernanceAgentView> {
      const actor: AuditActor = { type: 'platform', id: input.actor }
      const { outcome } = await commands.run(context, { name: 'governance.agent_transition', tenantId: input.tenantId, input }, async (tx) => {
        const now = clock.now()
        const locked = await store.lockState(tx, input.tenantId, input.agentId)
        const agent = locked === undefined ? undefined : await store.findRegistered(tx, input.tenantId, input.agentId)
        if (locked === undefined || agent === undefined) throw new AppError('agent_not_found', 'No such registered agent in this tenant.', { agent_id: input.agentId })
        const before = locked.state
        const after = nextState(input.transition, before, chain !== undefined)
        if (after === undefined) {
          throw new AppError('agent_lifecycle_transition_invalid', `A ${before} agent cannot be ${input.transition}d.`, {
            agent_id: input.agentId,
            state: before,
            transition: input.transition,
            ...(input.transition === 'resume' && before === 'pending_onchain' ? { reason: 'a chain is configured: the agent is activated when its registration is confirmed on chain' } : {}),
          })
        }
        const paused = after === 'quarantined' || after === 'revoked' ? await payments.pauseIntentsOfAgent(tx, input.tenantId, input.agentId, actor) : []
        if (before === 'pending_onchain' && after === 'active') await store.confirmRegistration(tx, input.tenantId, input.agentId, { registeredTx: null, registeredAt: now }, now)
        await store.updateState(tx, input.tenantId, input.agentId, { state: after, ...(after === 'quarantined' ? { contributionHeld: true } : {}) }, now)
        const changed = await store.findRegistered(tx, input.tenantId, input.agentId)
        return {
          outcome: governanceAgentView(input.tenantId, changed!),
          jobs: (await deps.afterWrite?.(tx, { tenantId: input.tenantId, kind: 'state_changed', agentIds: [input.agentId] })) ?? [],
          audit: [
            {
              tenantId: input.tenantId,
              layer: 'agent',
              actor,
              action: 'governance.agent.lifecycle_changed',
              entity: { type: 'agent', id: input.agentId },
              // The reason is the operator's free text: audited as its digest only (inputs hold no prose).
              inputs: { transition: input.transition, reason_sha256: sha256Hex(input.reason) },
              outputs: { state_before: before, state: after, paused_payment_intent_ids: paused },
              requestId: context.requestId,
            },
          ],
        }
      })
      return outcome
    },
  }
}

export type LifecycleService = ReturnType<typeof createLifecycleService>
