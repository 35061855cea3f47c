/**
 * PaymentIntents (spec, "PaymentIntent" and "PaymentIntent status"): the statuses, the moves between them,
 * what a proposal must hold, which policy action kind each action type is, and the hard human-approval
 * floor. Pure: no clock, no ids, no storage; the services read, call these and write.
 */
import { paymentActionTypes, type PaymentActionType } from '../../../kernel/action-types.ts'
import { currencyMinorUnits } from '../../../kernel/currencies.ts'
import { decimalSign, quoteForMessage } from '../../../kernel/money.ts'

export { paymentActionTypes, type PaymentActionType }

/**
 * Every status an intent can have. The spec's state table names the first ten; `reconciling` (parked by the
 * execution worker, never guessed) and `shadow_completed` (an un-promoted agent's proposal that moved no
 * money, governing rule 7) are the execution module's.
 */
export const paymentIntentStatuses = [
  'proposed',
  'pending_approval',
  'awaiting_second_approval',
  'approved',
  'rejected',
  'paused',
  'cancelled',
  'dispatching',
  'executed',
  'failed',
  'reconciling',
  'shadow_completed',
] as const
export type PaymentIntentStatus = (typeof paymentIntentStatuses)[number]

/** The moves people, agents and workers make, each one row group of the state table. */
export const paymentIntentMoves = ['approve', 'reject', 'execute', 'pause', 'resume', 'cancel', 'rail_succeeded', 'rail_failed', 'rail_unknown'] as const
export type PaymentIntentMove = (typeof paymentIntentMoves)[number]

/**
 * Where each move may start. `approve` and `execute` have several outcomes (quorum reached or not; gate
 * passes or not), decided by their own rules; this table says only whether the move is legal at all.
 * Cancel is allowed "before approval" (proposed, pending_approval, awaiting_second_approval) and from
 * paused; a paused intent is resumed or cancelled, never approved again.
 */
const movesFrom: Readonly<Record<PaymentIntentMove, readonly PaymentIntentStatus[]>> = {
  approve: ['pending_approval', 'awaiting_second_approval'],
  reject: ['pending_approval', 'awaiting_second_approval'],
  execute: ['approved'],
  pause: ['approved'],
  resume: ['paused'],
  cancel: ['proposed', 'pending_approval', 'awaiting_second_approval', 'paused'],
  rail_succeeded: ['dispatching', 'reconciling'],
  rail_failed: ['dispatching', 'reconciling'],
  rail_unknown: ['dispatching'],
}

/** Where the moves with one outcome lead. */
const movesTo: Readonly<Partial<Record<PaymentIntentMove, PaymentIntentStatus>>> = {
  reject: 'rejected',
  execute: 'dispatching',
  pause: 'paused',
  resume: 'approved',
  cancel: 'cancelled',
  rail_succeeded: 'executed',
  rail_failed: 'failed',
  rail_unknown: 'reconciling',
}

/** Whether the move may start from this status (a 409 payment_intent_invalid_state otherwise). */
export function canMove(status: PaymentIntentStatus, move: PaymentIntentMove): boolean {
  return movesFrom[move].includes(status)
}

/** The status a single-outcome move leads to; undefined for approve (approvals.ts decides). */
export function statusAfter(move: PaymentIntentMove): PaymentIntentStatus | undefined {
  return movesTo[move]
}

/** Statuses nothing moves out of. */
export const finalStatuses: ReadonlySet<PaymentIntentStatus> = new Set(['rejected', 'cancelled', 'executed', 'failed', 'shadow_completed'])

/**
 * The SDK's status aliases (spec): proposed and approved are `auto`, pending_approval is `needs_approval`,
 * rejected, executed, failed and cancelled pass through. Not in the spec's list, decided here
 * (docs/decisions.md): awaiting_second_approval is `needs_approval` (a person still has to act), and the
 * others (paused, dispatching, reconciling, shadow_completed) pass through.
 */
export type SdkStatus = 'auto' | 'needs_approval' | Exclude<PaymentIntentStatus, 'proposed' | 'approved' | 'pending_approval' | 'awaiting_second_approval'>
export function sdkStatusOf(status: PaymentIntentStatus): SdkStatus {
  switch (status) {
    case 'proposed':
    case 'approved':
      return 'auto'
    case 'pending_approval':
    case 'awaiting_second_approval':
      return 'needs_approval'
    default:
      return status
  }
}

/** The policy action kind each action type is evaluated as (spec, "Action kind vocabulary"). */
export const policyKindOf: Readonly<Record<PaymentActionType, 'outbound_payment' | 'inbound_payment' | 'onchain_tx' | 'ledger_write'>> = {
  ach_outbound: 'outbound_payment',
  ach_inbound: 'inbound_payment',
  wire: 'outbound_payment',
  card_payment: 'outbound_payment',
  onchain_transfer: 'onchain_tx',
  x402_settle: 'onchain_tx',
  escrow_release: 'onchain_tx',
  erp_writeback: 'ledger_write',
}

/** Action types whose currency is USDC and only USDC (spec: every other action type rejects USDC). */
export const usdcActionTypes: ReadonlySet<PaymentActionType> = new Set(['x402_settle', 'escrow_release'])
const threeLetterCode = /^[A-Z]{3}$/
/** USDC's precision: six decimals, as the token has. */
export const usdcDecimals = 6

/** Why a proposal's currency or amount is refused, or undefined when both are good. Field names as on the wire. */
export interface ProposalProblem {
  readonly field: 'currency' | 'amount'
  readonly message: string
}

/**
 * The currency rules (USDC only for x402_settle and escrow_release; a three-letter code and never USDC for
 * the rest) and the amount rules: a positive decimal string with no more fraction digits than the
 * currency has (12.345 USD is refused rather than rounded; a three-letter code the currency table does
 * not know is refused, since its precision is unknown).
 */
export function proposalProblems(actionType: PaymentActionType, currency: string, amount: string): ProposalProblem[] {
  const problems: ProposalProblem[] = []
  let decimals: number | undefined
  if (usdcActionTypes.has(actionType)) {
    if (currency !== 'USDC') problems.push({ field: 'currency', message: `${actionType} settles in USDC only; got ${quoteForMessage(currency)}.` })
    else decimals = usdcDecimals
  } else if (currency === 'USDC' || !threeLetterCode.test(currency)) {
    problems.push({ field: 'currency', message: `${actionType} needs a three-letter currency code other than USDC; got ${quoteForMessage(currency)}.` })
  } else {
    decimals = currencyMinorUnits(currency)
    if (decimals === undefined) problems.push({ field: 'currency', message: `${quoteForMessage(currency)} is not a currency this service knows.` })
  }
  const found = /^(0|[1-9][0-9]*)(?:\.([0-9]+))?$/.exec(amount)
  if (found === null || amount.length > 40) {
    problems.push({ field: 'amount', message: `amount ${quoteForMessage(amount)} is not a positive decimal string such as "125.00".` })
  } else if (decimalSign(amount) <= 0) {
    problems.push({ field: 'amount', message: 'amount must be greater than zero.' })
  } else if (decimals !== undefined && (found[2] ?? '').length > decimals) {
    problems.push({ field: 'amount', message: `amount ${quoteForMessage(amount)} has more fraction digits than ${currency}'s ${decimals}.` })
  }
  return problems
}

/** Settings of the hard human-approval floor. */
export interface FloorSettings {
  /** While enabled, every wire needs a human, whatever the policy's autonomous cap (spec: "the fiat floor"). */
  readonly fiatFloorEnabled: boolean
}

/**
 * The hard human-approval floor (spec, under the state table): always for onchain_transfer and
 * escrow_release; for wire while the fiat floor is enabled; for ach_outbound, ach_inbound, card_payment
 * and x402_settle (and wire when the fiat floor is off) unless the matched rule's signed autonomous cap
 * covers the amount. erp_writeback is not in the spec's list: it records, it moves no money.
 */
export function humanApprovalFloorApplies(actionType: PaymentActionType, coveredByAutonomousCap: boolean, settings: FloorSettings): boolean {
  switch (actionType) {
    case 'onchain_transfer':
    case 'escrow_release':
      return true
    case 'wire':
      return settings.fiatFloorEnabled || !coveredByAutonomousCap
    case 'ach_outbound':
    case 'ach_inbound':
    case 'card_payment':
    case 'x402_settle':
      return !coveredByAutonomousCap
    case 'erp_writeback':
      return false
  }
}

/** What the policy decided, as the creation rule needs it. */
export interface DecisionSummary {
  readonly outcome: 'allow' | 'confirm' | 'reject'
  readonly required_approvers: readonly string[]
  readonly covered_by_autonomous_cap: boolean
}

/** Where a new intent lands (spec, the rows from `proposed`), and how many distinct approvals it then needs. */
export interface CreationOutcome {
  readonly status: 'approved' | 'pending_approval' | 'rejected'
  /** Distinct members who must approve: 0 when approved or rejected at creation. */
  readonly approvalsRequired: number
  /** Why it needs a person: the policy said confirm, or the floor held an allowed action. */
  readonly heldBy: 'policy' | 'floor' | null
}

/**
 * The move out of `proposed`: reject → rejected; confirm → pending_approval, one distinct approval per
 * entry of required_approvers (policy `approvals`); allow → approved, unless the hard floor applies, when
 * it is pending_approval for one approval.
 */
export function creationOutcome(actionType: PaymentActionType, decision: DecisionSummary, settings: FloorSettings): CreationOutcome {
  if (decision.outcome === 'reject') return { status: 'rejected', approvalsRequired: 0, heldBy: null }
  if (decision.outcome === 'confirm') return { status: 'pending_approval', approvalsRequired: Math.max(1, decision.required_approvers.length), heldBy: 'policy' }
  if (humanApprovalFloorApplies(actionType, decision.covered_by_autonomous_cap, settings)) return { status: 'pending_approval', approvalsRequired: 1, heldBy: 'floor' }
  return { status: 'approved', approvalsRequired: 0, heldBy: null }
}
