/**
 * Subscriptions (issue 18, item 3): recurring charges found in the Ledger's outflows, and price changes of
 * them. Category `agnostic`: a household's streaming service and a company's SaaS seat are the same shape.
 *
 * Series: the outflows (direction `outflow`, amount below zero, status posted or cleared) are grouped by
 * counterparty id, or, with no counterparty, by normalized description; a group takes the currency of its
 * latest charge (latest by date, then id) and only its charges in that currency. A series is a chain
 * walked back from the latest charge: each step looks for an earlier charge dated within the cadence's
 * tolerance of one period before the current one (a calendar month, with the day clamped to the month's
 * end; 7 days; 12 calendar months), the closest one (ties: the same amount as the current charge first,
 * then the later date, then the smaller id). Cadences are tried weekly, monthly, yearly; the first whose
 * chain has its minimum occurrences (defaults 4, 3, 2) is the series' cadence. A series that lapsed is
 * not reported: today must be at most `graceDays` + the tolerance after the next expected charge.
 *
 * Findings (proposal type `subscription`):
 * - `subscription_found`: a series not yet known as a subscription, i.e. no open obligation of type
 *   `subscription` or with a recurrence, not receivable, with the group's counterparty id (or, for a
 *   description group, whose reference or description, in letters and digits, ≥ 3 of them, is in the
 *   group's description). key `subscriptions:<counterparty id or description>:found`.
 * - `subscription_price_change`: the latest charge differs from the previous one while the charges
 *   before it (at least `minStableCharges`) were all the same amount: a price that changed, not a
 *   usage-billed amount that varies. Reported for known subscriptions too. key
 *   `subscriptions:<counterparty id or description>:price_change`.
 *
 * confidence (rounded to four places)
 *   found = min(0.95, 0.55 + 0.1·(occurrences − the cadence's minimum) + 0.1·[all charges the same amount]
 *           + 0.05·[grouped by counterparty id, not description]);
 *   price_change = min(0.95, 0.7 + 0.05·(stable charges − minStableCharges) + 0.05·[grouped by counterparty id]).
 * evidence_score = the share of cited Ledger records (the series' transactions, the counterparty, a known
 *   subscription obligation) that name at least one parsed row, rounded to four places.
 *
 * details: counterparty_id (null for a description group), description, cadence, last_amount,
 * previous_amount (unsigned, at the currency's scale), currency, occurrences, first_date, last_date,
 * next_expected_date, transaction_ids; a price change adds amount_change (signed, last − previous) and
 * percent_change (decimal string, two places, half away from zero), obligation_id (a known one, or null).
 */
import { decimalAbs, decimalCompare, decimalSubtract, formatAmount, parseScaled } from '../../../../kernel/money.ts'
import { addDays, calendarDate, daysBetween, daysInMonth } from '../../../../kernel/dates.ts'
import type { AgentProgram, AgentProposal, LedgerCounterpartyView, LedgerObligationView, LedgerSnapshot, LedgerTransactionView } from './program.ts'
import { byKey, citedEvidence, compact, compareText, round4 } from './shared.ts'

export type Cadence = 'weekly' | 'monthly' | 'yearly'

export interface SubscriptionsConfig {
  /** Charges a series needs before it is reported, per cadence. */
  readonly minOccurrences: Readonly<Record<Cadence, number>>
  /** Days a charge may fall from one period after the previous one, per cadence. */
  readonly toleranceDays: Readonly<Record<Cadence, number>>
  /** Days after the next expected charge (and its tolerance) after which a series counts as lapsed. */
  readonly graceDays: number
  /** Equal charges before the latest one needed to call a different latest charge a price change. */
  readonly minStableCharges: number
}

export const subscriptionsDefaultConfig: SubscriptionsConfig = {
  minOccurrences: { weekly: 4, monthly: 3, yearly: 2 },
  toleranceDays: { weekly: 1, monthly: 3, yearly: 7 },
  graceDays: 7,
  minStableCharges: 2,
}

const cadences: readonly Cadence[] = ['weekly', 'monthly', 'yearly']


/** A calendar date moved by whole months, the day clamped to the target month's end. */
function addMonths(day: string, months: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number]
  const index = year * 12 + (month - 1) + months
  const targetYear = Math.floor(index / 12)
  const targetMonth = (index % 12) + 1
  return calendarDate(targetYear, targetMonth, Math.min(date, daysInMonth(targetYear, targetMonth))) ?? day
}

function step(day: string, cadence: Cadence, direction: 1 | -1): string {
  if (cadence === 'weekly') return addDays(day, 7 * direction)
  return addMonths(day, (cadence === 'monthly' ? 1 : 12) * direction)
}

/** The chain of charges ending with the latest, walking back one period at a time; in date order. */
function chainOf(charges: readonly LedgerTransactionView[], cadence: Cadence, tolerance: number): LedgerTransactionView[] {
  const latest = charges[charges.length - 1]!
  const chain = [latest]
  let current = latest
  for (;;) {
    const expected = step(current.transaction_date, cadence, -1)
    let best: LedgerTransactionView | undefined
    let bestOff = Infinity
    for (const charge of charges) {
      if (charge.transaction_date >= current.transaction_date) continue
      const off = Math.abs(daysBetween(expected, charge.transaction_date))
      if (off > tolerance) continue
      const better =
        best === undefined ||
        off < bestOff ||
        (off === bestOff && rankTie(charge, best, current) < 0)
      if (better) {
        best = charge
        bestOff = off
      }
    }
    if (best === undefined) break
    chain.unshift(best)
    current = best
  }
  return chain
}

/** Between two equally close charges: the one of the current amount, then the later, then the smaller id. */
function rankTie(a: LedgerTransactionView, b: LedgerTransactionView, current: LedgerTransactionView): number {
  const aSame = decimalCompare(a.amount, current.amount) === 0 ? 0 : 1
  const bSame = decimalCompare(b.amount, current.amount) === 0 ? 0 : 1
  return aSame - bSame || compareText(b.transaction_date, a.transaction_date) || compareText(a.id, b.id)
}

/** (last − previous) / previous × 100 at two places, half away from zero, exactly. */
function percentChange(last: string, previous: string): string {
  const a = parseScaled(last)
  const b = parseScaled(previous)
  const scale = Math.max(a.scale, b.scale)
  const lastUnits = a.units * 10n ** BigInt(scale - a.scale)
  const previousUnits = b.units * 10n ** BigInt(scale - b.scale)
  const numerator = (lastUnits - previousUnits) * 10_000n
  const negative = numerator < 0n
  const magnitude = negative ? -numerator : numerator
  let quotient = magnitude / previousUnits
  if ((magnitude % previousUnits) * 2n >= previousUnits) quotient += 1n
  const digits = quotient.toString().padStart(3, '0')
  const text = `${digits.slice(0, -2)}.${digits.slice(-2)}`
  return negative && quotient !== 0n ? `-${text}` : text
}


function knownSubscription(obligations: readonly LedgerObligationView[], counterpartyId: string | null, description: string): LedgerObligationView | undefined {
  const wanted = compact(description)
  return obligations.find((obligation) => {
    if (obligation.status !== 'open' || obligation.direction === 'receivable') return false
    if (obligation.type !== 'subscription' && obligation.recurrence === null) return false
    if (counterpartyId !== null) return obligation.counterparty_id === counterpartyId
    return [obligation.reference, obligation.description ?? ''].some((text) => compact(text).length >= 3 && wanted.includes(compact(text)))
  })
}

export function runSubscriptions(ledger: LedgerSnapshot, config: SubscriptionsConfig): AgentProposal[] {
  const counterparties = new Map<string, LedgerCounterpartyView>(ledger.counterparties.map((counterparty) => [counterparty.id, counterparty]))
  const obligations = [...ledger.obligations].sort((a, b) => compareText(a.id, b.id))
  const groups = new Map<string, LedgerTransactionView[]>()
  for (const transaction of ledger.transactions) {
    if (transaction.direction !== 'outflow' || (transaction.status !== 'posted' && transaction.status !== 'cleared')) continue
    if (decimalCompare(transaction.amount, '0') >= 0) continue
    const group = transaction.counterparty_id ?? transaction.description_normalized
    if (group === '') continue
    groups.set(group, [...(groups.get(group) ?? []), transaction])
  }

  const proposals: AgentProposal[] = []
  for (const [group, all] of groups) {
    const ordered = [...all].sort((a, b) => compareText(a.transaction_date, b.transaction_date) || compareText(a.id, b.id))
    const latest = ordered[ordered.length - 1]!
    const currency = latest.currency
    const charges = ordered.filter((charge) => charge.currency === currency)
    let found: { cadence: Cadence; chain: LedgerTransactionView[] } | undefined
    for (const cadence of cadences) {
      const chain = chainOf(charges, cadence, config.toleranceDays[cadence])
      if (chain.length >= config.minOccurrences[cadence]) {
        found = { cadence, chain }
        break
      }
    }
    if (found === undefined) continue
    const { cadence, chain } = found
    const last = chain[chain.length - 1]!
    const nextExpected = step(last.transaction_date, cadence, 1)
    if (daysBetween(nextExpected, ledger.today) > config.toleranceDays[cadence] + config.graceDays) continue

    const counterpartyId = latest.counterparty_id
    const counterparty = counterpartyId === null ? undefined : counterparties.get(counterpartyId)
    const amounts = chain.map((charge) => formatAmount(decimalAbs(charge.amount), currency))
    const lastAmount = amounts[amounts.length - 1]!
    const previousAmount = amounts[amounts.length - 2]!
    const known = knownSubscription(obligations, counterpartyId, latest.description_normalized)
    const name = counterparty?.name ?? latest.description
    const byCounterparty = counterpartyId !== null ? 1 : 0
    const details = {
      counterparty_id: counterpartyId,
      description: latest.description_normalized,
      cadence,
      last_amount: lastAmount,
      previous_amount: previousAmount,
      currency,
      occurrences: chain.length,
      first_date: chain[0]!.transaction_date,
      last_date: last.transaction_date,
      next_expected_date: nextExpected,
      transaction_ids: chain.map((charge) => charge.id),
    }
    const records = [
      ...chain.map((charge) => ({ kind: 'transaction' as const, id: charge.id, evidence_ids: charge.evidence_ids })),
      ...(counterparty === undefined ? [] : [{ kind: 'counterparty' as const, id: counterparty.id, evidence_ids: counterparty.evidence_ids }]),
    ]

    if (known === undefined) {
      const uniform = amounts.every((amount) => decimalCompare(amount, lastAmount) === 0) ? 1 : 0
      proposals.push({
        proposal_type: 'subscription',
        action_type: 'subscription_found',
        key: `subscriptions:${group}:found`,
        confidence: round4(Math.min(0.95, 0.55 + 0.1 * (chain.length - config.minOccurrences[cadence]) + 0.1 * uniform + 0.05 * byCounterparty)),
        ...citedEvidence(records),
        narrative: `${name} charges ${lastAmount} ${currency} ${cadence} (${chain.length} charges from ${details.first_date} to ${details.last_date}; next expected ${nextExpected}). It is not recorded as a subscription.`,
        details,
      })
    }

    const stable = chain.slice(0, -1)
    if (
      decimalCompare(lastAmount, previousAmount) !== 0 &&
      stable.length >= config.minStableCharges &&
      stable.every((charge) => decimalCompare(decimalAbs(charge.amount), previousAmount) === 0)
    ) {
      const change = formatAmount(decimalSubtract(lastAmount, previousAmount), currency)
      const percent = percentChange(lastAmount, previousAmount)
      proposals.push({
        proposal_type: 'subscription',
        action_type: 'subscription_price_change',
        key: `subscriptions:${group}:price_change`,
        confidence: round4(Math.min(0.95, 0.7 + 0.05 * (stable.length - config.minStableCharges) + 0.05 * byCounterparty)),
        ...citedEvidence([...records, ...(known === undefined ? [] : [{ kind: 'obligation' as const, id: known.id, evidence_ids: known.evidence_ids }])]),
        narrative: `${name}'s ${cadence} charge changed from ${previousAmount} to ${lastAmount} ${currency} on ${last.transaction_date} (${change.startsWith('-') ? '' : '+'}${percent}%) after ${stable.length} charges of ${previousAmount}.`,
        details: { ...details, amount_change: change, percent_change: percent, obligation_id: known?.id ?? null },
      })
    }
  }
  return byKey(proposals)
}

export const subscriptionsProgram: AgentProgram<SubscriptionsConfig> = {
  agentKey: 'subscriptions',
  version: '1',
  category: 'agnostic',
  capabilities: ['subscription_found', 'subscription_price_change'],
  defaultConfig: subscriptionsDefaultConfig,
  run: runSubscriptions,
}
