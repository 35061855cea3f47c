/**
 * simulate-historical: candidate content replayed against what the tenant actually paid out. The
 * tenant's recorded outflows (the Ledger's, through its query port) become `outbound_payment` actions,
 * evaluated by the candidate and by the active policy, and the answer counts and lists the differences.
 * A pure computation over a read-only snapshot: it writes nothing, audits nothing, and takes no
 * Idempotency-Key.
 */
import { AppError } from '../../kernel/errors.ts'
import type { Database } from '../../platform/db/database.ts'
import { contentInvalid } from './content-invalid.ts'
import { evaluatePolicy, validatePolicyContent, type DecisionOutcome, type Money, type PolicyAction } from './domain/index.ts'
import { calendarDateOf, daysBetween } from '../../kernel/dates.ts'
import { decimalAbs, formatAmount } from '../../kernel/money.ts'
import type { PolicyStore } from './policy.store.ts'
import type { LedgerOutflows, OutflowPosition } from './ports.ts'
import type { StoredContents } from './stored-content.ts'

/** The longest period, the most actions replayed, rows read per query, items per diff list. */
export const historicalPeriodDaysMax = 366
export const historicalScanRowsMax = 10_000
export const historicalPageRows = 500
export const historicalDiffItemsMax = 1_000

export interface SimulateHistoricalInput {
  readonly policy_content: unknown
  readonly period_start: string
  readonly period_end: string
}

export interface HistoricalDiffItem {
  transaction_id: string
  transaction_date: string
  amount: Money
  counterparty_id: string | null
  before: DecisionOutcome
  after: DecisionOutcome
  matched_rule_before: string | null
  matched_rule_after: string | null
}

export interface SimulateHistoricalResult {
  total: number
  would_allow: number
  would_confirm: number
  would_reject: number
  diff_vs_active: {
    newly_allowed: HistoricalDiffItem[]
    newly_rejected: HistoricalDiffItem[]
    changed_other: HistoricalDiffItem[]
    unchanged: number
    items_truncated: boolean
  }
  source: 'ledger_outflows'
  active_policy_version: number
  period_start: string
  period_end: string
  truncated: boolean
}

export interface HistoricalSimulation {
  simulateHistorical(tenantId: string, input: SimulateHistoricalInput): Promise<SimulateHistoricalResult>
}

/** The period as calendar dates, or 400 request_body_invalid naming what is wrong with it. */
function periodOf(input: SimulateHistoricalInput): { periodStart: string; periodEnd: string } {
  const periodStart = calendarDateOf(input.period_start)
  const periodEnd = calendarDateOf(input.period_end)
  const issues: Array<{ path: string; message: string; keyword: string }> = []
  if (periodStart === undefined) issues.push({ path: '/period_start', message: 'is not a calendar date', keyword: 'format' })
  if (periodEnd === undefined) issues.push({ path: '/period_end', message: 'is not a calendar date', keyword: 'format' })
  if (periodStart !== undefined && periodEnd !== undefined) {
    if (periodEnd < periodStart) issues.push({ path: '/period_end', message: 'is before period_start', keyword: 'period' })
    else if (daysBetween(periodStart, periodEnd) > historicalPeriodDaysMax) {
      issues.push({ path: '/period_end', message: `is more than ${historicalPeriodDaysMax} days after period_start`, keyword: 'period' })
    }
  }
  if (issues.length > 0 || periodStart === undefined || periodEnd === undefined) {
    throw new AppError('request_body_invalid', 'The period is invalid.', { issues })
  }
  return { periodStart, periodEnd }
}

export function createHistoricalSimulation(deps: { db: Database; store: PolicyStore; ledger: LedgerOutflows; contents: StoredContents }): HistoricalSimulation {
  const { db, store, ledger, contents } = deps
  return {
    /**
     * Replays the tenant's recorded outflows of the period (current Ledger transactions with direction
     * outflow, oldest first, at most `historicalScanRowsMax`) as `outbound_payment` actions through the
     * candidate and the active policy, in one read-only snapshot. Payment intents, once they exist, are
     * the first source. Writes nothing.
     */
    async simulateHistorical(tenantId, input) {
      const { periodStart, periodEnd } = periodOf(input)
      const validated = validatePolicyContent(input.policy_content)
      if (!validated.ok) throw contentInvalid('/policy_content', validated.issues)
      const candidate = validated.content

      return db.transaction(
        async (tx) => {
          const active = await store.findActivePolicy(tx, tenantId)
          if (active === undefined) throw new AppError('policy_not_found', 'The tenant has no active policy to compare with.')
          const activeContent = contents.contentOf(active)
          const result: SimulateHistoricalResult = {
            total: 0,
            would_allow: 0,
            would_confirm: 0,
            would_reject: 0,
            diff_vs_active: { newly_allowed: [], newly_rejected: [], changed_other: [], unchanged: 0, items_truncated: false },
            source: 'ledger_outflows',
            active_policy_version: active.version,
            period_start: periodStart,
            period_end: periodEnd,
            truncated: false,
          }
          const counts: Record<DecisionOutcome, 'would_allow' | 'would_confirm' | 'would_reject'> = { allow: 'would_allow', confirm: 'would_confirm', reject: 'would_reject' }
          const diff = result.diff_vs_active
          const list = (item: HistoricalDiffItem, into: HistoricalDiffItem[]) => {
            if (into.length < historicalDiffItemsMax) into.push(item)
            else diff.items_truncated = true
          }

          let after: OutflowPosition | undefined
          for (;;) {
            const remaining = historicalScanRowsMax - result.total
            // One row beyond the limit tells whether the period holds more than we replay.
            const rows = await ledger.outflowsInPeriod(tx, tenantId, { from: periodStart, to: periodEnd, after, limit: Math.min(historicalPageRows, remaining + 1) })
            const replayed = rows.slice(0, remaining)
            if (rows.length > remaining) result.truncated = true
            for (const row of replayed) {
              // The outflow's magnitude, written at its currency's scale as every amount the API returns.
              const amount = { currency: row.currency, value: formatAmount(decimalAbs(row.amount), row.currency) }
              const action: PolicyAction = { kind: 'outbound_payment', amount, counterparty_id: row.counterpartyId, timestamp: `${row.transactionDate}T00:00:00.000Z` }
              const before = evaluatePolicy(activeContent, action)
              const candidateDecision = evaluatePolicy(candidate, action)
              result.total += 1
              result[counts[candidateDecision.outcome]] += 1
              if (before.outcome === candidateDecision.outcome) {
                diff.unchanged += 1
                continue
              }
              const item: HistoricalDiffItem = {
                transaction_id: row.id,
                transaction_date: row.transactionDate,
                amount,
                counterparty_id: row.counterpartyId,
                before: before.outcome,
                after: candidateDecision.outcome,
                matched_rule_before: before.matched_rule_id,
                matched_rule_after: candidateDecision.matched_rule_id,
              }
              if (candidateDecision.outcome === 'allow') list(item, diff.newly_allowed)
              else if (candidateDecision.outcome === 'reject') list(item, diff.newly_rejected)
              else list(item, diff.changed_other)
            }
            const last = replayed.at(-1)
            if (result.truncated || rows.length < Math.min(historicalPageRows, remaining + 1) || last === undefined) break
            after = { transactionDate: last.transactionDate, id: last.id }
          }
          return result
        },
        // One snapshot for every page, so a Ledger write during the scan cannot show a row twice or hide one.
        { isolationLevel: 'repeatable read', accessMode: 'read only' },
      )
    },
  }
}
