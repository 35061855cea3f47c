/**
 * Which payments pay a one-off obligation (an invoice, a bill), decided as one set whatever order the
 * Ledger learnt them in (issue 15, item 4: the demo's JF-2026-004 is paid 1,500.00 then 1,913.30, and
 * deciding each payment against what was outstanding when it arrived made the later-normalized one the
 * "full" payment).
 *
 * The rule, over every eligible payment (the obligation's currency, window, sign, and evidently with its
 * counterparty or citing its reference), each taken by its unsigned amount:
 * 1. A payment of the whole amount due pays it in full (the earliest, by date then id).
 * 2. Otherwise, in date-then-id order from the whole amount due: a payment of exactly what remains
 *    settles it; a smaller payment that cites the reference is a part payment; anything else is not a
 *    payment of it. The walk stops once the obligation is settled.
 *
 * Each reconciliation run decides an open obligation again from the whole amount due and every eligible
 * payment (including those an earlier run matched), so the outcome depends on the set of payments only.
 */
import { decimalCompare, decimalSign, decimalSubtract } from '../../../kernel/money.ts'

export interface PaymentCandidate {
  readonly id: string
  /** `YYYY-MM-DD` */
  readonly date: string
  /** Unsigned, positive. */
  readonly amount: string
  /** Whether its description cites the obligation's reference (an invoice number). */
  readonly citesReference: boolean
}

export interface PaymentDecision {
  readonly id: string
  /** One payment of the whole amount due. */
  readonly paidInFull: boolean
  /** Nothing is outstanding after it. */
  readonly settles: boolean
  /** What remains outstanding after it (`0` when it settles). */
  readonly remaining: string
}

const byDateThenId = (left: PaymentCandidate, right: PaymentCandidate) =>
  left.date === right.date ? (left.id < right.id ? -1 : left.id > right.id ? 1 : 0) : left.date < right.date ? -1 : 1

/** The payments of an obligation of `due` (unsigned) among `candidates`, in date order. */
export function decidePayments(due: string, candidates: readonly PaymentCandidate[]): PaymentDecision[] {
  if (decimalSign(due) <= 0) return []
  const ordered = [...candidates].sort(byDateThenId)
  const whole = ordered.find((candidate) => decimalCompare(candidate.amount, due) === 0)
  if (whole !== undefined) return [{ id: whole.id, paidInFull: true, settles: true, remaining: '0' }]

  const decisions: PaymentDecision[] = []
  let remaining = due
  for (const candidate of ordered) {
    const order = decimalCompare(candidate.amount, remaining)
    if (order === 0) {
      decisions.push({ id: candidate.id, paidInFull: false, settles: true, remaining: '0' })
      break
    }
    if (order > 0 || !candidate.citesReference || decimalSign(candidate.amount) <= 0) continue
    remaining = decimalSubtract(remaining, candidate.amount)
    decisions.push({ id: candidate.id, paidInFull: false, settles: false, remaining })
  }
  return decisions
}

/**
 * Every amount a payment could need to have to settle the obligation by `decidePayments`: the whole
 * amount due, then what remains after each part payment among the citing candidates. A payment that
 * does not cite the reference only ever settles, so the amounts the walk can reach are these, whatever
 * else is eligible: the reads that find payments by amount need only probe them.
 */
export function settlingAmounts(due: string, citing: readonly PaymentCandidate[]): string[] {
  if (decimalSign(due) <= 0) return []
  const amounts = [due]
  let remaining = due
  for (const candidate of [...citing].sort(byDateThenId)) {
    if (!candidate.citesReference || decimalSign(candidate.amount) <= 0 || decimalCompare(candidate.amount, remaining) >= 0) continue
    remaining = decimalSubtract(remaining, candidate.amount)
    amounts.push(remaining)
  }
  return amounts
}
