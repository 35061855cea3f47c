/**
 * Promotion out of shadow mode (governing rule 7), as pure rules: the agent's shadow scorecard, the
 * thresholds a promotion request sets, and which of them the scorecard misses. Pure.
 *
 * The scorecard counts the agent's payment intents:
 * - `shadow_runs`: those that ran the whole pipeline in shadow (status shadow_completed);
 * - `decided`: those a person (or the policy) decided: approved at some point, or rejected;
 * - `approved`: of those, the ones approved (a person would have let them through);
 * - `gate_would_fail`: shadow runs whose gate did not pass (the payment would have been refused).
 * Rates are exact to four decimals, and 0 when there is nothing to divide by.
 */

export interface ShadowCounts {
  readonly shadowRuns: number
  readonly approved: number
  readonly rejected: number
  readonly gateWouldFail: number
}

export interface Scorecard {
  readonly shadow_runs: number
  readonly decided: number
  readonly approved: number
  readonly gate_would_fail: number
  /** approved / decided, four decimals (0 when nothing was decided). */
  readonly approval_rate: number
  /** gate_would_fail / shadow_runs, four decimals (0 when there was no shadow run). */
  readonly gate_failure_rate: number
}

export interface PromotionThresholds {
  readonly min_shadow_runs: number
  readonly min_approval_rate: number
  readonly max_gate_failure_rate: number
}

const rate = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000)

export function scorecardOf(counts: ShadowCounts): Scorecard {
  for (const [name, value] of Object.entries(counts)) {
    if (!Number.isInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer, got ${value}`)
  }
  const decided = counts.approved + counts.rejected
  return {
    shadow_runs: counts.shadowRuns,
    decided,
    approved: counts.approved,
    gate_would_fail: counts.gateWouldFail,
    approval_rate: rate(counts.approved, decided),
    gate_failure_rate: rate(counts.gateWouldFail, counts.shadowRuns),
  }
}

/** Each threshold the scorecard misses, in words; empty when the promotion may go ahead. */
export function unmetThresholds(scorecard: Scorecard, thresholds: PromotionThresholds): string[] {
  const unmet: string[] = []
  if (scorecard.shadow_runs < thresholds.min_shadow_runs) unmet.push(`shadow_runs ${scorecard.shadow_runs} < min_shadow_runs ${thresholds.min_shadow_runs}`)
  if (scorecard.approval_rate < thresholds.min_approval_rate) unmet.push(`approval_rate ${scorecard.approval_rate} < min_approval_rate ${thresholds.min_approval_rate}`)
  if (scorecard.gate_failure_rate > thresholds.max_gate_failure_rate) unmet.push(`gate_failure_rate ${scorecard.gate_failure_rate} > max_gate_failure_rate ${thresholds.max_gate_failure_rate}`)
  return unmet
}
