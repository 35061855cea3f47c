/**
 * Promotion out of shadow mode (governing rule 7; issue 17). An agent's money proposals run in shadow —
 * the whole pipeline, policy and gate included, ending shadow_completed with no rail call — until an
 * admin promotes it, with per-payment and per-day caps in one currency, the rails and (optionally) the
 * counterparties it may pay, and an expiry. The gate enforces them (check 10).
 *
 * Beyond the peers: a promotion is refused (409 agent_promotion_refused) unless the agent's shadow
 * scorecard meets the thresholds the request sets (domain/promotions.ts), and the scorecard is part of
 * the promotion's audit event. The agents module (issue 18) will manage promotions through this service.
 */
import { digestOf } from '../../kernel/audit-record.ts'
import type { Clock } from '../../kernel/clock.ts'
import { auditedBy, requirePrincipal, type CommandContext } from '../../kernel/context.ts'
import { currencyMinorUnits } from '../../kernel/currencies.ts'
import { AppError } from '../../kernel/errors.ts'
import type { IdSource } from '../../kernel/ids.ts'
import { decimalCompare, decimalSign, formatAmount, isCanonicalDecimal } from '../../kernel/money.ts'
import type { CommandResult, CommandRunner } from '../../platform/commands/command.ts'
import type { Database, Executor } from '../../platform/db/database.ts'
import type { PromotionFact, Rail } from '../payments/index.ts'
import { scorecardOf, unmetThresholds, type PromotionThresholds, type Scorecard } from './domain/promotions.ts'
import type { ExecutionStore, PromotionRow } from './execution.store.ts'
import type { ExecutionAgents, ExecutionPayments } from './ports.ts'

/** A promotion lasts at most a year: going live is re-decided at least that often. */
export const promotionDaysMax = 366

export interface PromotionRequest {
  readonly agent_id: string
  readonly currency: string
  readonly per_payment_cap: string
  readonly per_day_cap: string
  readonly rails: readonly Rail[]
  readonly counterparty_ids?: readonly string[] | null | undefined
  readonly expires_at: string
  readonly reason: string
  readonly thresholds: PromotionThresholds
}

export interface PromotionView {
  id: string
  agent_id: string
  currency: string
  per_payment_cap: string
  per_day_cap: string
  rails: string[]
  counterparty_ids: string[] | null
  expires_at: string
  reason: string
  promoted_by: string
  thresholds: PromotionThresholds
  scorecard: Scorecard
  created_at: string
  /** Whether the gate lets the agent's payments out under it now (not demoted, not expired). */
  active: boolean
  demoted_at: string | null
  demoted_by: string | null
  demotion_reason: string | null
}

export interface AgentPromotionStanding {
  agent_id: string
  /** The agent's promotion not demoted (null: shadow mode); it may have expired (`active` false). */
  promotion: PromotionView | null
  /** The agent's shadow scorecard now. */
  scorecard: Scorecard
}

function viewOf(row: PromotionRow, now: Date): PromotionView {
  return {
    id: row.id,
    agent_id: row.agentId,
    currency: row.currency,
    per_payment_cap: formatAmount(row.perPaymentCap, row.currency),
    per_day_cap: formatAmount(row.perDayCap, row.currency),
    rails: [...row.allowedRails],
    counterparty_ids: row.allowedCounterpartyIds === null ? null : [...row.allowedCounterpartyIds],
    expires_at: row.expiresAt.toISOString(),
    reason: row.reason,
    promoted_by: row.promotedBy,
    thresholds: row.thresholds as PromotionThresholds,
    scorecard: row.scorecard as Scorecard,
    created_at: row.createdAt.toISOString(),
    active: row.demotedAt === null && row.expiresAt.getTime() > now.getTime(),
    demoted_at: row.demotedAt?.toISOString() ?? null,
    demoted_by: row.demotedBy,
    demotion_reason: row.demotionReason,
  }
}

const invalid = (path: string, message: string) => new AppError('validation_failed', message, { issues: [{ path, message }] })

/** A cap: a positive decimal within the currency's precision (USDC has 6). */
function checkCap(path: string, value: string, currency: string): void {
  const scale = currencyMinorUnits(currency) ?? (currency === 'USDC' ? 6 : 2)
  const fraction = value.split('.')[1] ?? ''
  if (!isCanonicalDecimal(value) || decimalSign(value) <= 0 || fraction.length > scale) {
    throw invalid(path, `must be a positive amount with at most ${scale} decimals in ${currency}`)
  }
}

export function createPromotions(deps: { db: Database; commands: CommandRunner; store: ExecutionStore; payments: Pick<ExecutionPayments, 'shadowCounts'>; agents: ExecutionAgents; ids: IdSource; clock: Clock }) {
  const { db, commands, store, payments, agents, ids, clock } = deps

  async function knownAgent(executor: Executor, tenantId: string, agentId: string, now: Date) {
    const standing = await agents.standing(executor, tenantId, agentId, now)
    if (standing === undefined) throw new AppError('agent_not_found', 'No such agent in this tenant.', { agent_id: agentId })
    return standing
  }

  return {
    /**
     * Promotes the agent (scope execution:admin), replacing its open promotion if it has one. Locks the
     * agent's promotions; refuses an unknown agent (404), an inactive one (409 agent_inactive), an expiry
     * not in the future or past promotionDaysMax, caps out of order, and a scorecard below the thresholds
     * (409 agent_promotion_refused with the scorecard and what it misses). Audits agent.promoted (layer
     * agent) with the caps, rails, expiry, thresholds and the scorecard. Takes an Idempotency-Key.
     */
    async promote(context: CommandContext, input: PromotionRequest): Promise<CommandResult<PromotionView>> {
      const principal = requirePrincipal(context)
      const tenantId = principal.tenantId
      return commands.run(context, { name: 'execution.promote', tenantId, input }, async (tx) => {
        const now = clock.now()
        const expiresAt = new Date(input.expires_at)
        if (Number.isNaN(expiresAt.getTime()) || expiresAt.getTime() <= now.getTime()) throw invalid('/expires_at', 'must be in the future')
        if (expiresAt.getTime() > now.getTime() + promotionDaysMax * 86_400_000) throw invalid('/expires_at', `must be within ${promotionDaysMax} days`)
        checkCap('/per_payment_cap', input.per_payment_cap, input.currency)
        checkCap('/per_day_cap', input.per_day_cap, input.currency)
        if (decimalCompare(input.per_day_cap, input.per_payment_cap) < 0) throw invalid('/per_day_cap', 'must be at least the per-payment cap')
        if (new Set(input.rails).size !== input.rails.length) throw invalid('/rails', 'must not repeat a rail')

        await store.promotions.lockAgent(tx, tenantId, input.agent_id)
        const standing = await knownAgent(tx, tenantId, input.agent_id, now)
        if (!standing.active) throw new AppError('agent_inactive', 'An inactive agent cannot be promoted.', { agent_id: input.agent_id })
        const scorecard = scorecardOf(await payments.shadowCounts(tx, tenantId, input.agent_id))
        const unmet = unmetThresholds(scorecard, input.thresholds)
        if (unmet.length > 0) {
          throw new AppError('agent_promotion_refused', `The agent's shadow scorecard misses ${unmet.length === 1 ? 'a threshold' : `${unmet.length} thresholds`}: ${unmet.join('; ')}.`, {
            agent_id: input.agent_id,
            scorecard,
            thresholds: input.thresholds,
            unmet,
          })
        }
        const open = await store.promotions.findOpen(tx, tenantId, input.agent_id)
        const row: PromotionRow = {
          id: ids.newId('agentPromotion'),
          tenantId,
          agentId: input.agent_id,
          currency: input.currency,
          perPaymentCap: input.per_payment_cap,
          perDayCap: input.per_day_cap,
          allowedRails: [...input.rails],
          allowedCounterpartyIds: input.counterparty_ids === undefined || input.counterparty_ids === null ? null : [...new Set(input.counterparty_ids)],
          expiresAt,
          reason: input.reason,
          promotedBy: principal.id,
          thresholds: input.thresholds,
          scorecard,
          createdAt: now,
          demotedAt: null,
          demotedBy: null,
          demotionReason: null,
        }
        if (open !== undefined) await store.promotions.close(tx, tenantId, open.id, { demotedAt: now, demotedBy: principal.id, demotionReason: `superseded by ${row.id}` })
        await store.promotions.insert(tx, row)
        return {
          outcome: viewOf(row, now),
          audit: [
            auditedBy(context, {
              layer: 'agent',
              action: 'agent.promoted',
              entity: { type: 'agent', id: input.agent_id },
              inputs: { reason_digest: digestOf(input.reason), thresholds_digest: digestOf(input.thresholds), supersedes: open?.id ?? null },
              outputs: {
                promotion_id: row.id,
                currency: row.currency,
                per_payment_cap: input.per_payment_cap,
                per_day_cap: input.per_day_cap,
                rails: row.allowedRails,
                counterparty_ids: row.allowedCounterpartyIds ?? [],
                counterparties_restricted: row.allowedCounterpartyIds !== null,
                expires_at: expiresAt.toISOString(),
                min_shadow_runs: input.thresholds.min_shadow_runs,
                min_approval_rate: input.thresholds.min_approval_rate,
                max_gate_failure_rate: input.thresholds.max_gate_failure_rate,
                shadow_runs: scorecard.shadow_runs,
                decided: scorecard.decided,
                approved: scorecard.approved,
                gate_would_fail: scorecard.gate_would_fail,
                approval_rate: scorecard.approval_rate,
                gate_failure_rate: scorecard.gate_failure_rate,
              },
            }),
          ],
        }
      })
    },

    /**
     * Demotes the agent back to shadow mode (scope execution:admin): closes its open promotion (404
     * agent_promotion_not_found when it has none). Locks the agent's promotions; audits agent.demoted.
     * Payments already dispatched go on; the next execute of the agent's proposals is a shadow run.
     * Takes an Idempotency-Key.
     */
    async demote(context: CommandContext, input: { agent_id: string; reason: string }): Promise<CommandResult<PromotionView>> {
      const principal = requirePrincipal(context)
      const tenantId = principal.tenantId
      return commands.run(context, { name: 'execution.demote', tenantId, input }, async (tx) => {
        const now = clock.now()
        await store.promotions.lockAgent(tx, tenantId, input.agent_id)
        await knownAgent(tx, tenantId, input.agent_id, now)
        const open = await store.promotions.findOpen(tx, tenantId, input.agent_id)
        if (open === undefined) throw new AppError('agent_promotion_not_found', undefined, { agent_id: input.agent_id })
        const values = { demotedAt: now, demotedBy: principal.id, demotionReason: input.reason }
        await store.promotions.close(tx, tenantId, open.id, values)
        return {
          outcome: viewOf({ ...open, ...values }, now),
          audit: [
            auditedBy(context, {
              layer: 'agent',
              action: 'agent.demoted',
              entity: { type: 'agent', id: input.agent_id },
              inputs: { promotion_id: open.id, reason_digest: digestOf(input.reason) },
              outputs: { was_active: open.expiresAt.getTime() > now.getTime(), shadow_mode: true },
            }),
          ],
        }
      })
    },

    /** The agent's open promotion (or null) and its scorecard now; 404 agent_not_found for an unknown agent. */
    async standing(tenantId: string, agentId: string): Promise<AgentPromotionStanding> {
      const now = clock.now()
      await knownAgent(db.orm, tenantId, agentId, now)
      const [open, counts] = await Promise.all([store.promotions.findOpen(db.orm, tenantId, agentId), payments.shadowCounts(db.orm, tenantId, agentId)])
      return { agent_id: agentId, promotion: open === undefined ? null : viewOf(open, now), scorecard: scorecardOf(counts) }
    },

    /** The agent's promotion active at `now` (the gate's check 10); undefined in shadow mode. */
    async activeFor(executor: Executor, tenantId: string, agentId: string, now: Date): Promise<PromotionFact | undefined> {
      const open = await store.promotions.findOpen(executor, tenantId, agentId)
      if (open === undefined || open.expiresAt.getTime() <= now.getTime()) return undefined
      return {
        id: open.id,
        currency: open.currency,
        perPaymentCap: open.perPaymentCap,
        perDayCap: open.perDayCap,
        allowedRails: open.allowedRails,
        allowedCounterpartyIds: open.allowedCounterpartyIds,
        expiresAt: open.expiresAt,
      }
    },
  }
}

export type Promotions = ReturnType<typeof createPromotions>
