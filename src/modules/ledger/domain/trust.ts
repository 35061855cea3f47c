/**
 * Counterparty trust (spec: unreviewed, trusted, paused, acknowledged). Advisory only: execution
 * enforcement uses verified_status, sanctions screening and policy checks, never trust_state.
 *
 *   grant        unreviewed | acknowledged | paused → trusted
 *   pause        unreviewed | acknowledged | trusted → paused   (remembers the state it paused)
 *   restore      paused → the state it paused
 *   acknowledge  unreviewed → acknowledged                       (seen by a member, no trust decision)
 *
 * Anything else is refused (409 ledger_counterparty_trust_transition_invalid): a transition to the
 * state the counterparty is already in is a mistake worth telling the caller about, not a no-op.
 */
import type { TrustState } from './entities.ts'

export const trustActions = ['grant', 'pause', 'restore', 'acknowledge'] as const
export type TrustAction = (typeof trustActions)[number]
export type { TrustState }

const allowedFrom: Readonly<Record<TrustAction, readonly TrustState[]>> = {
  grant: ['unreviewed', 'acknowledged', 'paused'],
  pause: ['unreviewed', 'acknowledged', 'trusted'],
  restore: ['paused'],
  acknowledge: ['unreviewed'],
}

/**
 * The state after the action, or undefined when the action is not allowed from `from`. `pausedFrom` is
 * the state a paused counterparty was in before its pause (restore returns to it).
 */
export function trustTransition(action: TrustAction, from: TrustState, pausedFrom: TrustState | undefined): TrustState | undefined {
  if (!allowedFrom[action].includes(from)) return undefined
  switch (action) {
    case 'grant':
      return 'trusted'
    case 'pause':
      return 'paused'
    case 'restore':
      return pausedFrom !== undefined && pausedFrom !== 'paused' ? pausedFrom : 'unreviewed'
    case 'acknowledge':
      return 'acknowledged'
  }
}

/** Which actions are allowed from a state (for error details and the API reference). */
export function allowedTrustActions(from: TrustState): TrustAction[] {
  return trustActions.filter((action) => allowedFrom[action].includes(from))
}
