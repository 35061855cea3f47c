import { describe, expect, it } from 'vitest'
import { scorecardOf, unmetThresholds } from './promotions.ts'

describe('scorecardOf', () => {
  it.each([
    [{ shadowRuns: 0, approved: 0, rejected: 0, gateWouldFail: 0 }, { shadow_runs: 0, decided: 0, approved: 0, gate_would_fail: 0, approval_rate: 0, gate_failure_rate: 0 }],
    [{ shadowRuns: 4, approved: 3, rejected: 1, gateWouldFail: 1 }, { shadow_runs: 4, decided: 4, approved: 3, gate_would_fail: 1, approval_rate: 0.75, gate_failure_rate: 0.25 }],
    [{ shadowRuns: 3, approved: 2, rejected: 1, gateWouldFail: 0 }, { shadow_runs: 3, decided: 3, approved: 2, gate_would_fail: 0, approval_rate: 0.6667, gate_failure_rate: 0 }],
  ])('%j', (counts, scorecard) => {
    expect(scorecardOf(counts)).toEqual(scorecard)
  })

  it('refuses counts that are not non-negative integers', () => {
    expect(() => scorecardOf({ shadowRuns: -1, approved: 0, rejected: 0, gateWouldFail: 0 })).toThrow(RangeError)
    expect(() => scorecardOf({ shadowRuns: 1.5, approved: 0, rejected: 0, gateWouldFail: 0 })).toThrow(RangeError)
  })
})

describe('unmetThresholds', () => {
  const card = scorecardOf({ shadowRuns: 4, approved: 3, rejected: 1, gateWouldFail: 1 })
  it.each([
    [{ min_shadow_runs: 4, min_approval_rate: 0.75, max_gate_failure_rate: 0.25 }, []],
    [{ min_shadow_runs: 5, min_approval_rate: 0, max_gate_failure_rate: 1 }, ['shadow_runs 4 < min_shadow_runs 5']],
    [{ min_shadow_runs: 0, min_approval_rate: 0.8, max_gate_failure_rate: 1 }, ['approval_rate 0.75 < min_approval_rate 0.8']],
    [{ min_shadow_runs: 0, min_approval_rate: 0, max_gate_failure_rate: 0.2 }, ['gate_failure_rate 0.25 > max_gate_failure_rate 0.2']],
    [{ min_shadow_runs: 10, min_approval_rate: 1, max_gate_failure_rate: 0 }, ['shadow_runs 4 < min_shadow_runs 10', 'approval_rate 0.75 < min_approval_rate 1', 'gate_failure_rate 0.25 > max_gate_failure_rate 0']],
  ])('%j', (thresholds, unmet) => {
    expect(unmetThresholds(card, thresholds)).toEqual(unmet)
  })
})
