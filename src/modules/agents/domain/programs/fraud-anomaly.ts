/**
 * Fraud and anomaly (issue 18, item 3): outflows that look wrong, flagged for a person (`flag_transaction`,
 * proposal type `fraud_anomaly`; policy holds these high-risk findings for a signer).
 *
 * Outflows: direction `outflow`, amount below zero, status not failed or reversed. Flagged are those dated
 * within `lookbackDays` before today (today included) and not already disputed; all older outflows are
 * history. "Earlier" means an earlier date, or the same date and a smaller id.
 *
 * (a) duplicate: an earlier outflow of exactly the same amount and currency to the same counterparty (with
 *     no counterparty on either: the same account and normalized description), at most
 *     `duplicateWindowDays` days before. Not flagged: both reconciled `matched` (each paid its own
 *     obligation), or a known recurrence (an open recurring or subscription obligation of that
 *     counterparty and amount). The later one is flagged, against the closest earlier one.
 * (b) outlier, robust statistics only (median and median absolute deviation, never mean or deviation):
 *     - with at least `minHistory` earlier outflows to the counterparty in the currency: the amount is
 *       above median × `outlierFactor`;
 *     - else, with at least `accountMinHistory` earlier outflows of the account in the currency: the
 *       amount is above both median × `accountOutlierFactor` and median + `madFactor` × MAD of the
 *       account's outflows (MAD may be 0: then the first bound decides);
 *     - else nothing: too little history to call anything unusual.
 *     Factors are read at six decimal places; every comparison is exact, in bigint units.
 * (c) new_counterparty: the first outflow to a counterparty recorded at most `newCounterpartyDays` days
 *     before or after it (a counterparty recorded long after its payment came with imported history,
 *     and its recording date says nothing about how new it is), whose trust is neither `trusted` nor
 *     `acknowledged` (a person has looked), of at least `newCounterpartyMinimum` (or the currency's entry
 *     in `newCounterpartyMinimumByCurrency`), in the transaction's currency.
 *
 * confidence (rounded to four places)
 *   duplicate = min(0.9, 0.85 − 0.1 · days apart / max(1, window) + 0.05·[same normalized description]);
 *   outlier = clamp(0.55 + 0.2 · log2(amount / threshold), 0.05, 0.95), − 0.1 on the account baseline;
 *   new_counterparty = min(0.9, 0.6 + 0.1·[unverified] + 0.1·[risk high or sanctioned]).
 * evidence_score = the share of cited Ledger records (the transaction, the counterparty, the earlier
 *   duplicate, the latest ten outflows of the baseline) that name at least one parsed row, four places.
 *
 * key `fraud_anomaly:<transaction id>:<reason>`; details: transaction_id, reason, amount (unsigned, at the
 * currency's scale), currency, transaction_date, counterparty_id, and the figures: duplicate_of,
 * days_apart (duplicate); baseline (`counterparty` | `account`), history_count, median, mad, factor,
 * threshold (outlier); counterparty_recorded, days_since_recorded, minimum (new_counterparty).
 */
import { decimalAbs, decimalCompare, formatAmount, formatScaled, parseScaled } from '../../../../kernel/money.ts'
import { calendarDateOf, daysBetween } from '../../../../kernel/dates.ts'
import type { AgentProgram, AgentProposal, LedgerCounterpartyView, LedgerSnapshot, LedgerTransactionView } from './program.ts'
import { byKey, citedEvidence, compareText, round4, type CitedRecord } from './shared.ts'

export interface FraudAnomalyConfig {
  /** Outflows dated this many days before today or later are examined; older ones are history only. */
  readonly lookbackDays: number
  readonly duplicateWindowDays: number
  /** Counterparty baseline: flagged above median × this. */
  readonly outlierFactor: number
  /** Earlier outflows to the counterparty needed for its own baseline. */
  readonly minHistory: number
  /** Earlier outflows of the account needed for the account baseline. */
  readonly accountMinHistory: number
  /** Account baseline: flagged above median × this … */
  readonly accountOutlierFactor: number
  /** … and above median + this × MAD. */
  readonly madFactor: number
  readonly newCounterpartyDays: number
  /** A decimal string, in the transaction's currency unless the currency has its own entry below. */
  readonly newCounterpartyMinimum: string
  readonly newCounterpartyMinimumByCurrency: Readonly<Record<string, string>>
}

export const fraudAnomalyDefaultConfig: FraudAnomalyConfig = {
  lookbackDays: 90,
  duplicateWindowDays: 3,
  outlierFactor: 3,
  minHistory: 3,
  accountMinHistory: 10,
  accountOutlierFactor: 10,
  madFactor: 10,
  newCounterpartyDays: 14,
  newCounterpartyMinimum: '1000',
  newCounterpartyMinimumByCurrency: { JPY: '100000' },
}

type Reason = 'duplicate' | 'outlier' | 'new_counterparty'

const factorScale = 6

/** Whether a is earlier than b: an earlier date, or the same date and a smaller id. */
const earlier = (a: LedgerTransactionView, b: LedgerTransactionView): boolean => a.transaction_date < b.transaction_date || (a.transaction_date === b.transaction_date && a.id < b.id)


/** Unsigned amounts as bigint units at one common scale. */
function unitsAt(values: readonly string[], scale: number): bigint[] {
  return values.map((value) => {
    const parsed = parseScaled(decimalAbs(value))
    return parsed.units * 10n ** BigInt(scale - parsed.scale)
  })
}

/** Twice the median (the sum of the two middle values for an even count): exact in integers. */
function medianTimesTwo(values: readonly bigint[]): bigint {
  const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? 2n * sorted[middle]! : sorted[middle - 1]! + sorted[middle]!
}

/** A factor as bigint units at six places (3 → 3000000n). */
const factorUnits = (factor: number): bigint => BigInt(factor.toFixed(factorScale).replace('.', ''))

/** Amount ÷ threshold as a number, for a confidence only (never for money). */
const ratio = (numerator: bigint, denominator: bigint): number => (denominator <= 0n ? 1 : Number((numerator * 10_000n) / denominator) / 10_000)

function flag(
  transaction: LedgerTransactionView,
  reason: Reason,
  confidence: number,
  narrative: string,
  records: readonly CitedRecord[],
  figures: Record<string, string | number | null>,
): AgentProposal {
  return {
    proposal_type: 'fraud_anomaly',
    action_type: 'flag_transaction',
    key: `fraud_anomaly:${transaction.id}:${reason}`,
    confidence: round4(Math.min(0.95, Math.max(0.05, confidence))),
    ...citedEvidence([{ kind: 'transaction', id: transaction.id, evidence_ids: transaction.evidence_ids }, ...records]),
    narrative,
    details: {
      transaction_id: transaction.id,
      reason,
      amount: formatAmount(decimalAbs(transaction.amount), transaction.currency),
      currency: transaction.currency,
      transaction_date: transaction.transaction_date,
      counterparty_id: transaction.counterparty_id,
      ...figures,
    },
  }
}

export function runFraudAnomaly(ledger: LedgerSnapshot, config: FraudAnomalyConfig): AgentProposal[] {
  const counterparties = new Map<string, LedgerCounterpartyView>(ledger.counterparties.map((counterparty) => [counterparty.id, counterparty]))
  const outflows = ledger.transactions
    .filter((transaction) => transaction.direction === 'outflow' && transaction.status !== 'failed' && transaction.status !== 'reversed' && decimalCompare(transaction.amount, '0') < 0)
    .sort((a, b) => compareText(a.transaction_date, b.transaction_date) || compareText(a.id, b.id))
  const recurring = ledger.obligations.filter((obligation) => obligation.status === 'open' && (obligation.recurrence !== null || obligation.type === 'subscription') && obligation.counterparty_id !== null)
  const counterpartyRecords = (id: string | null): CitedRecord[] => {
    const counterparty = id === null ? undefined : counterparties.get(id)
    return counterparty === undefined ? [] : [{ kind: 'counterparty', id: counterparty.id, evidence_ids: counterparty.evidence_ids }]
  }
  const transactionRecord = (transaction: LedgerTransactionView): CitedRecord => ({ kind: 'transaction', id: transaction.id, evidence_ids: transaction.evidence_ids })
  const name = (transaction: LedgerTransactionView): string => (transaction.counterparty_id === null ? transaction.description : (counterparties.get(transaction.counterparty_id)?.name ?? transaction.counterparty_id))

  // Outflows by counterparty (or, with none, by account and description) and by account, in date order.
  const partyKey = (transaction: LedgerTransactionView): string =>
    transaction.counterparty_id !== null ? `c:${transaction.counterparty_id}` : `d:${transaction.account_id}:${transaction.description_normalized}`
  const byParty = new Map<string, LedgerTransactionView[]>()
  const byAccount = new Map<string, LedgerTransactionView[]>()
  for (const outflow of outflows) {
    byParty.set(partyKey(outflow), [...(byParty.get(partyKey(outflow)) ?? []), outflow])
    byAccount.set(outflow.account_id, [...(byAccount.get(outflow.account_id) ?? []), outflow])
  }
  const earlierIn = (list: readonly LedgerTransactionView[] | undefined, transaction: LedgerTransactionView): LedgerTransactionView[] =>
    (list ?? []).filter((other) => earlier(other, transaction) && other.currency === transaction.currency)

  const proposals: AgentProposal[] = []
  for (const transaction of outflows) {
    const age = daysBetween(transaction.transaction_date, ledger.today)
    if (age < 0 || age > config.lookbackDays || transaction.status === 'disputed') continue
    const amount = formatAmount(decimalAbs(transaction.amount), transaction.currency)
    const samePartyBefore = earlierIn(byParty.get(partyKey(transaction)), transaction)

    // (a) duplicate
    const knownRecurrence = recurring.some(
      (obligation) => obligation.counterparty_id === transaction.counterparty_id && obligation.currency === transaction.currency && decimalCompare(obligation.amount, decimalAbs(transaction.amount)) === 0,
    )
    const twin = knownRecurrence
      ? undefined
      : samePartyBefore
          .filter(
            (other) =>
              decimalCompare(other.amount, transaction.amount) === 0 &&
              daysBetween(other.transaction_date, transaction.transaction_date) <= config.duplicateWindowDays &&
              !(other.reconciliation_status === 'matched' && transaction.reconciliation_status === 'matched'),
          )
          .at(-1)
    if (twin !== undefined) {
      const apart = daysBetween(twin.transaction_date, transaction.transaction_date)
      const sameDescription = twin.description_normalized === transaction.description_normalized ? 1 : 0
      proposals.push(
        flag(
          transaction,
          'duplicate',
          Math.min(0.9, 0.85 - (0.1 * apart) / Math.max(1, config.duplicateWindowDays) + 0.05 * sameDescription),
          `${amount} ${transaction.currency} to ${name(transaction)} on ${transaction.transaction_date} repeats the same payment of ${twin.transaction_date} (${twin.id}), ${apart} day${apart === 1 ? '' : 's'} apart: possibly paid twice.`,
          [transactionRecord(twin), ...counterpartyRecords(transaction.counterparty_id)],
          { duplicate_of: twin.id, days_apart: apart },
        ),
      )
    }

    // (b) outlier
    const partyHistory = transaction.counterparty_id === null ? [] : samePartyBefore
    const accountHistory = earlierIn(byAccount.get(transaction.account_id), transaction)
    const baseline = partyHistory.length >= config.minHistory ? 'counterparty' : accountHistory.length >= config.accountMinHistory ? 'account' : undefined
    if (baseline !== undefined) {
      const history = baseline === 'counterparty' ? partyHistory : accountHistory
      const scale = Math.max(parseScaled(transaction.amount).scale, ...history.map((other) => parseScaled(other.amount).scale))
      const units = unitsAt(history.map((other) => other.amount), scale)
      const [x] = unitsAt([transaction.amount], scale) as [bigint]
      const m2 = medianTimesTwo(units)
      const mad4 = medianTimesTwo(units.map((value) => (2n * value > m2 ? 2n * value - m2 : m2 - 2n * value)))
      const factor = baseline === 'counterparty' ? config.outlierFactor : config.accountOutlierFactor
      const one = 10n ** BigInt(factorScale)
      // Everything × 4 × 10^6: 4x·10^6 against 2·M2·f (median × factor) and 2·M2·10^6 + MAD4·g (median + g × MAD).
      const lhs = 4n * x * one
      const byFactor = 2n * m2 * factorUnits(factor)
      const byMad = 2n * m2 * one + mad4 * factorUnits(config.madFactor)
      const outlier = baseline === 'counterparty' ? lhs > byFactor : lhs > byFactor && lhs > byMad
      if (outlier) {
        const bound = baseline === 'counterparty' || byFactor >= byMad ? byFactor : byMad
        const median = formatAmount(formatScaled(m2 * 5n, scale + 1), transaction.currency)
        const threshold = formatAmount(formatScaled(bound * 25n, scale + factorScale + 2), transaction.currency)
        proposals.push(
          flag(
            transaction,
            'outlier',
            0.55 + 0.2 * Math.log2(ratio(lhs, bound)) - (baseline === 'account' ? 0.1 : 0),
            baseline === 'counterparty'
              ? `${amount} ${transaction.currency} to ${name(transaction)} on ${transaction.transaction_date} is far above its usual ${median} (median of ${history.length} earlier payments; flagged above ${threshold}).`
              : `${amount} ${transaction.currency} on ${transaction.transaction_date} is far above this account's usual outflow of ${median} (median of ${history.length}; flagged above ${threshold}).`,
            [...counterpartyRecords(transaction.counterparty_id), ...history.slice(-10).map(transactionRecord)],
            {
              baseline,
              history_count: history.length,
              median,
              mad: formatAmount(formatScaled(mad4 * 25n, scale + 2), transaction.currency),
              factor: String(factor),
              threshold,
            },
          ),
        )
      }
    }

    // (c) new counterparty
    const counterparty = transaction.counterparty_id === null ? undefined : counterparties.get(transaction.counterparty_id)
    const recorded = counterparty === undefined ? undefined : calendarDateOf(counterparty.created_at)
    if (counterparty !== undefined && recorded !== undefined && counterparty.trust_state !== 'trusted' && counterparty.trust_state !== 'acknowledged') {
      const first = !(byParty.get(partyKey(transaction)) ?? []).some((other) => earlier(other, transaction))
      const since = daysBetween(recorded, transaction.transaction_date)
      const minimum = config.newCounterpartyMinimumByCurrency[transaction.currency] ?? config.newCounterpartyMinimum
      if (first && Math.abs(since) <= config.newCounterpartyDays && decimalCompare(decimalAbs(transaction.amount), minimum) >= 0) {
        const unverified = counterparty.verified_status === 'unverified' ? 1 : 0
        const risky = counterparty.risk_level === 'high' || counterparty.risk_level === 'sanctioned' ? 1 : 0
        proposals.push(
          flag(
            transaction,
            'new_counterparty',
            Math.min(0.9, 0.6 + 0.1 * unverified + 0.1 * risky),
            `The first payment to ${counterparty.name}, ${amount} ${transaction.currency} on ${transaction.transaction_date}, goes to a counterparty first recorded ${recorded} (${counterparty.verified_status}, trust ${counterparty.trust_state}).`,
            counterpartyRecords(counterparty.id),
            { counterparty_recorded: recorded, days_since_recorded: since, minimum: formatAmount(minimum, transaction.currency) },
          ),
        )
      }
    }
  }
  return byKey(proposals)
}

export const fraudAnomalyProgram: AgentProgram<FraudAnomalyConfig> = {
  agentKey: 'fraud_anomaly',
  version: '1',
  category: 'business',
  capabilities: ['flag_transaction'],
  defaultConfig: fraudAnomalyDefaultConfig,
  run: runFraudAnomaly,
}
