import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { canMoveExecution, decideAfter, defaultRetrySettings, isSettled, retryDelaySeconds, type ExecutionStatus, type RailAnswer } from './executions.ts'

const statuses: readonly ExecutionStatus[] = ['dispatched', 'in_flight', 'completed', 'failed']
const settings = { attemptsMax: 4, firstDelaySeconds: 2, delaySecondsMax: 10 }

describe('decideAfter', () => {
  it('executes the intent and consumes the reservation when the rail completed', () => {
    expect(decideAfter({ kind: 'completed', receipt: { transfer_id: 't1' } }, 1)).toEqual({ execution: 'completed', intent: 'executed', reservation: 'consume' })
  })

  it('fails the intent and releases the reservation on a deterministic refusal, whatever the attempt', () => {
    for (const attempt of [1, 3, 99]) {
      expect(decideAfter({ kind: 'failed', code: 'account_closed', reason: 'the account is closed' }, attempt)).toEqual({
        execution: 'failed',
        intent: 'failed',
        reservation: 'release',
        code: 'account_closed',
        reason: 'the account is closed',
      })
    }
  })

  it('keeps the intent dispatching while a pending transfer awaits settlement', () => {
    expect(decideAfter({ kind: 'pending', reference: 'ach_123' }, 1)).toEqual({ execution: 'in_flight', intent: 'dispatching', awaiting: 'settlement', reference: 'ach_123' })
  })

  it('retries a transient failure with a growing delay, then parks the intent reconciling instead of guessing', () => {
    const transient: RailAnswer = { kind: 'transient', reason: 'timeout' }
    expect([1, 2, 3].map((attempt) => decideAfter(transient, attempt, settings))).toEqual([
      { execution: 'dispatched', intent: 'dispatching', retryInSeconds: 2 },
      { execution: 'dispatched', intent: 'dispatching', retryInSeconds: 4 },
      { execution: 'dispatched', intent: 'dispatching', retryInSeconds: 8 },
    ])
    expect(decideAfter(transient, 4, settings)).toEqual({ execution: 'in_flight', intent: 'reconciling', reason: 'no answer after 4 attempts: timeout' })
  })

  it('never moves money twice: only a completed answer executes, only a failed one releases', () => {
    const answers = fc.oneof(
      fc.record({ kind: fc.constant('completed' as const), receipt: fc.dictionary(fc.string(), fc.string()) }),
      fc.record({ kind: fc.constant('pending' as const), reference: fc.string() }),
      fc.record({ kind: fc.constant('failed' as const), code: fc.string(), reason: fc.string() }),
      fc.record({ kind: fc.constant('transient' as const), reason: fc.string() }),
    )
    fc.assert(
      fc.property(answers, fc.integer({ min: 1, max: 50 }), (answer, attempt) => {
        const decision = decideAfter(answer, attempt)
        expect(decision.intent === 'executed').toBe(answer.kind === 'completed')
        expect(decision.intent === 'failed').toBe(answer.kind === 'failed')
        expect(canMoveExecution('in_flight', decision.execution) || decision.execution === 'in_flight').toBe(true)
      }),
    )
  })

  it('refuses an attempt number that is not a positive integer', () => {
    expect(() => decideAfter({ kind: 'transient', reason: 'x' }, 0)).toThrow(RangeError)
    expect(() => decideAfter({ kind: 'transient', reason: 'x' }, 1.5)).toThrow(RangeError)
  })
})

describe('retryDelaySeconds', () => {
  it('doubles from the first delay and stops at the maximum', () => {
    expect([1, 2, 3, 4, 5].map((attempt) => retryDelaySeconds(attempt, settings))).toEqual([2, 4, 8, 10, 10])
    expect(retryDelaySeconds(30)).toBe(defaultRetrySettings.delaySecondsMax)
  })
})

describe('the execution row', () => {
  it('moves dispatched → in_flight → completed or failed, and back to dispatched only for a retry', () => {
    const allowed = statuses.flatMap((from) => statuses.filter((to) => canMoveExecution(from, to)).map((to) => `${from}→${to}`))
    expect(allowed).toEqual(['dispatched→in_flight', 'in_flight→dispatched', 'in_flight→completed', 'in_flight→failed'])
  })

  it('is settled once completed or failed', () => {
    expect(statuses.filter(isSettled)).toEqual(['completed', 'failed'])
  })
})
