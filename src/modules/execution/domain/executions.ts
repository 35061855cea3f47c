/**
 * An execution: one outbox row taken to its rail by the worker (issue 17). Pure rules, no I/O: the
 * execution row's states and the moves between them (the spec names the states, "moves: not shown"),
 * what the worker does with each answer a rail gives, and what that means for the payment intent.
 *
 * States:
 * - `dispatched`: the worker claimed the outbox row and created the execution; the rail has not been
 *   called for this attempt yet (a retry waiting for its time is back here).
 * - `in_flight`: the rail was called with the outbox row's idempotency key, or its answer is pending
 *   (an ACH transfer created and awaiting settlement by the provider's signed webhook).
 * - `completed`: the rail confirmed the effect; the intent is `executed` and the reservation consumed.
 * - `failed`: the rail refused for good; the intent is `failed` and the reservation released.
 *
 * A rail's answer is one of four kinds. The worker never guesses: an answer it cannot classify, or a
 * transient failure that outlasts its retries, parks the intent `reconciling` (the execution stays
 * `in_flight`) until the rail's status for the key, or a person, settles it.
 */

export const executionStatuses = ['dispatched', 'in_flight', 'completed', 'failed'] as const
export type ExecutionStatus = (typeof executionStatuses)[number]

/** What a rail answered for one idempotency key. */
export type RailAnswer =
  /** The effect happened: money moved (or the write-back landed), with the rail's receipt. */
  | { readonly kind: 'completed'; readonly receipt: Readonly<Record<string, unknown>> }
  /** Accepted and under way: the outcome comes later (ACH settlement or return by webhook). */
  | { readonly kind: 'pending'; readonly reference: string }
  /** Refused for a reason that retrying cannot change (a closed account, a revoked key, fail-closed rail). */
  | { readonly kind: 'failed'; readonly code: string; readonly reason: string }
  /** Not known to have happened or not: a timeout, a 5xx, a dropped connection. */
  | { readonly kind: 'transient'; readonly reason: string }

/** Retries of a transient failure: exponential from `firstDelaySeconds`, at most `attemptsMax` calls in all. */
export interface RetrySettings {
  readonly attemptsMax: number
  readonly firstDelaySeconds: number
  readonly delaySecondsMax: number
}

export const defaultRetrySettings: RetrySettings = { attemptsMax: 5, firstDelaySeconds: 2, delaySecondsMax: 300 }

/** What the worker does after a rail answered attempt number `attempt` (1 for the first call). */
export type Decision =
  | { readonly execution: 'completed'; readonly intent: 'executed'; readonly reservation: 'consume' }
  | { readonly execution: 'failed'; readonly intent: 'failed'; readonly reservation: 'release'; readonly code: string; readonly reason: string }
  | { readonly execution: 'in_flight'; readonly intent: 'dispatching'; readonly awaiting: 'settlement'; readonly reference: string }
  | { readonly execution: 'dispatched'; readonly intent: 'dispatching'; readonly retryInSeconds: number }
  | { readonly execution: 'in_flight'; readonly intent: 'reconciling'; readonly reason: string }

/** The delay before retry number `attempt + 1`, after attempt `attempt` failed transiently. */
export function retryDelaySeconds(attempt: number, settings: RetrySettings = defaultRetrySettings): number {
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError(`attempt must be a positive integer, got ${attempt}`)
  return Math.min(settings.delaySecondsMax, settings.firstDelaySeconds * 2 ** (attempt - 1))
}

/**
 * The worker's move after attempt `attempt` got `answer`. A transient failure is retried (back to
 * `dispatched`) while attempts remain, then parks the intent `reconciling`; before each retry the worker
 * asks the rail for the key's status (`status` on the adapter), so a retry never repeats an effect.
 */
export function decideAfter(answer: RailAnswer, attempt: number, settings: RetrySettings = defaultRetrySettings): Decision {
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError(`attempt must be a positive integer, got ${attempt}`)
  switch (answer.kind) {
    case 'completed':
      return { execution: 'completed', intent: 'executed', reservation: 'consume' }
    case 'failed':
      return { execution: 'failed', intent: 'failed', reservation: 'release', code: answer.code, reason: answer.reason }
    case 'pending':
      return { execution: 'in_flight', intent: 'dispatching', awaiting: 'settlement', reference: answer.reference }
    case 'transient':
      return attempt < settings.attemptsMax
        ? { execution: 'dispatched', intent: 'dispatching', retryInSeconds: retryDelaySeconds(attempt, settings) }
        : { execution: 'in_flight', intent: 'reconciling', reason: `no answer after ${attempt} attempts: ${answer.reason}` }
  }
}

/** The execution row's moves; anything else is a bug the worker must not commit. */
const moves: Readonly<Record<ExecutionStatus, readonly ExecutionStatus[]>> = {
  dispatched: ['in_flight'],
  // Back to dispatched for a retry; completed or failed when the rail (or its webhook) answers.
  in_flight: ['dispatched', 'completed', 'failed'],
  completed: [],
  failed: [],
}

export function canMoveExecution(from: ExecutionStatus, to: ExecutionStatus): boolean {
  return moves[from].includes(to)
}

/** A settled execution keeps its status: an ACH return after settlement is recorded beside it, not a move. */
export function isSettled(status: ExecutionStatus): boolean {
  return moves[status].length === 0
}
