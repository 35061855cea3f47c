/**
 * Halting agents (spec, "Agent state"; docs/agents.md, "Halt and the contribution hold"): halt moves an
 * active agent to quarantined and pauses every in-flight intent it proposed (through the payments
 * module's call, in the same transaction); restore moves a quarantined agent back to active; halt-category
 * halts every active catalog agent of a category; the contribution hold, set by a halt, keeps the agent's
 * Raw contributions from the Ledger until it is released.
 *
 * State is per tenant for every agent: a registered agent's row exists from its registration; a catalog
 * agent gets one at its first halt (no row means active, no hold).
 */
import { actorOf, auditedBy, requirePrincipal, type CommandContext } from '../../kernel/context.ts'
import type { Clock } from '../../kernel/clock.ts'
import { AppError } from '../../kernel/errors.ts'
import type { CommandResult, CommandRunner, CommandWork } from '../../platform/commands/command.ts'
import type { Tx } from '../../platform/db/database.ts'
import type { AgentStateRow } from './agents.registry.tables.ts'
import { catalog, type CatalogEntry } from './domain/catalog.ts'
import type { AgentsPayments, AgentsRaw, AgentWriteListener, AgentWriteNotice } from './ports.ts'
import type { RegistryStore } from './registry.store.pg.ts'

export interface AgentStateView {
  agent_id: string
  state: AgentStateRow['state']
  contribution_hold: boolean
}

export interface HaltView extends AgentStateView {
  /** The PaymentIntents this halt paused, in lock order. */
  paused_payment_intent_ids: string[]
}

export interface HaltCategoryView {
  category: CatalogEntry['category']
  /** Each agent of the category this call halted (those already quarantined are left as they are). */
  halted: HaltView[]
}

type ReleaseView = AgentStateView & { released: boolean; released_raw_ids: string[] }

const stateView = (row: AgentStateRow): AgentStateView => ({ agent_id: row.agentId, state: row.state, contribution_hold: row.contributionHeld })

export function createHaltService(deps: { commands: CommandRunner; store: RegistryStore; clock: Clock; payments: AgentsPayments; raw: AgentsRaw; afterWrite?: AgentWriteListener | undefined }) {
  const { commands, store, clock, payments } = deps
  const jobsAfter = async (tx: Tx, notice: AgentWriteNotice) => (await deps.afterWrite?.(tx, notice)) ?? []

  /**
   * Locks the agent's state row (creating a catalog agent's on first use); 404 agent_not_found when the
   * id is neither a catalog agent nor registered in the tenant.
   */
  async function lockAgent(tx: Tx, tenantId: string, agentId: string, now: Date): Promise<AgentStateRow> {
    const firstParty = catalog.some((entry) => entry.agent_key === agentId)
    const initial: AgentStateRow | undefined = firstParty ? { tenantId, agentId, state: 'active', contributionHeld: false, createdAt: now, updatedAt: now } : undefined
    const row = await store.lockState(tx, tenantId, agentId, initial)
    if (row === undefined) throw new AppError('agent_not_found', 'No such agent.', { agent_id: agentId })
    return row
  }

  async function haltLocked(context: CommandContext, tx: Tx, row: AgentStateRow, now: Date, cause: { category?: string }) {
    const principal = requirePrincipal(context)
    const paused = await payments.pauseIntentsOfAgent(tx, row.tenantId, row.agentId, actorOf(principal))
    await store.updateState(tx, row.tenantId, row.agentId, { state: 'quarantined', contributionHeld: true }, now)
    const view: HaltView = { agent_id: row.agentId, state: 'quarantined', contribution_hold: true, paused_payment_intent_ids: paused }
    const audit = auditedBy(context, {
      layer: 'agent',
      action: 'agent.halted',
      entity: { type: 'agent', id: row.agentId },
      inputs: cause.category === undefined ? {} : { category: cause.category },
      outputs: { state_before: row.state, state: 'quarantined', contribution_hold: true, paused_payment_intent_ids: paused },
    })
    return { view, audit }
  }

  return {
    /**
     * Halts one agent of the caller's tenant: locks its state, pauses every approved intent it proposed
     * (payments' pauseIntentsOfAgent audits each payment_intent.paused), sets quarantined and the
     * contribution hold, audits agent.halted, all in one transaction. 404 agent_not_found; 409
     * agent_inactive unless active. Takes an Idempotency-Key.
     */
    async halt(context: CommandContext, input: { agent_id: string }): Promise<CommandResult<HaltView>> {
      const tenantId = requirePrincipal(context).tenantId
      return commands.run(context, { name: 'agents.halt', tenantId, input }, async (tx) => {
        const now = clock.now()
        const row = await lockAgent(tx, tenantId, input.agent_id, now)
        if (row.state !== 'active') throw new AppError('agent_inactive', `A ${row.state} agent cannot be halted.`, { agent_id: input.agent_id, state: row.state })
        const { view, audit } = await haltLocked(context, tx, row, now, {})
        return { outcome: view, audit: [audit], jobs: await jobsAfter(tx, { tenantId, kind: 'state_changed', agentIds: [row.agentId] }) }
      })
    },

    /**
     * Restores a quarantined agent to active (its paused intents stay paused: a member resumes or cancels
     * each). The contribution hold stays until released. Locks the state; audits agent.restored. 404
     * agent_not_found when the agent is not registered (nor a catalog agent); 409 agent_inactive unless
     * quarantined. Takes an Idempotency-Key.
     */
    async restore(context: CommandContext, input: { agent_id: string }): Promise<CommandResult<AgentStateView>> {
      const tenantId = requirePrincipal(context).tenantId
      return commands.run(context, { name: 'agents.restore', tenantId, input }, async (tx) => {
        const now = clock.now()
        const row = await lockAgent(tx, tenantId, input.agent_id, now)
        if (row.state !== 'quarantined') throw new AppError('agent_inactive', `Only a quarantined agent can be restored; this one is ${row.state}.`, { agent_id: input.agent_id, state: row.state })
        await store.updateState(tx, tenantId, input.agent_id, { state: 'active' }, now)
        return {
          outcome: stateView({ ...row, state: 'active' }),
          jobs: await jobsAfter(tx, { tenantId, kind: 'state_changed', agentIds: [input.agent_id] }),
          audit: [auditedBy(context, { layer: 'agent', action: 'agent.restored', entity: { type: 'agent', id: input.agent_id }, outputs: { state_before: 'quarantined', state: 'active' } })],
        }
      })
    },

    /**
     * Halts every active catalog agent of the category in the caller's tenant, as `halt` does each, in one
     * transaction (agents locked in catalog order). Registered agents have no category and are not
     * touched. Audits one agent.halted per agent halted, each citing the category. Takes an Idempotency-Key.
     */
    async haltCategory(context: CommandContext, input: { category: CatalogEntry['category'] }): Promise<CommandResult<HaltCategoryView>> {
      const tenantId = requirePrincipal(context).tenantId
      return commands.run(context, { name: 'agents.halt_category', tenantId, input }, async (tx) => {
        const now = clock.now()
        const halted: HaltView[] = []
        const audit = []
        for (const entry of catalog.filter((candidate) => candidate.category === input.category)) {
          const row = await lockAgent(tx, tenantId, entry.agent_key, now)
          if (row.state !== 'active') continue
          const result = await haltLocked(context, tx, row, now, { category: input.category })
          halted.push(result.view)
          audit.push(result.audit)
        }
        const jobs = halted.length === 0 ? [] : await jobsAfter(tx, { tenantId, kind: 'state_changed', agentIds: halted.map((view) => view.agent_id) })
        return { outcome: { category: input.category, halted }, audit, jobs }
      })
    },

    /**
     * Clears the agent's contribution hold and hands the artifacts it kept to the Ledger (Raw's release,
     * in this transaction). Locks the state; audits agent.contribution_hold_released when it cleared a
     * hold or released artifacts (otherwise it changes nothing and records nothing). 404 agent_not_found.
     * Takes an Idempotency-Key.
     */
    async releaseContributionHold(context: CommandContext, input: { agent_id: string }): Promise<CommandResult<ReleaseView>> {
      const tenantId = requirePrincipal(context).tenantId
      return commands.run(context, { name: 'agents.release_contribution_hold', tenantId, input }, async (tx): Promise<CommandWork<ReleaseView>> => {
        const now = clock.now()
        const row = await lockAgent(tx, tenantId, input.agent_id, now)
        // Marked artifacts are released whatever the hold's state: a release past the per-call bound
        // leaves some marked, and the next release (the hold already cleared) hands them over.
        if (row.contributionHeld) await store.updateState(tx, tenantId, input.agent_id, { contributionHeld: false }, now)
        const releasedRawIds = await deps.raw.releaseHeldContributions(tx, tenantId, input.agent_id)
        if (!row.contributionHeld && releasedRawIds.length === 0) return { outcome: { ...stateView(row), released: false, released_raw_ids: [] } }
        return {
          outcome: { ...stateView({ ...row, contributionHeld: false }), released: row.contributionHeld, released_raw_ids: releasedRawIds },
          audit: [
            auditedBy(context, {
              layer: 'agent',
              action: 'agent.contribution_hold_released',
              entity: { type: 'agent', id: input.agent_id },
              outputs: { state: row.state, contribution_hold: false, released_raw_ids: releasedRawIds },
            }),
          ],
        }
      })
    },
  }
}

export type HaltService = ReturnType<typeof createHaltService>
