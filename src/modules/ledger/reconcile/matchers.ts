/**
 * Reconciliation rules (docs/raw-and-ledger.md, "Reconciliation"). Pure: each matcher reads a snapshot
 * of the tenant's current Ledger and proposes matches; `reconcile.ts` loads the snapshot and writes the
 * outcome. Deterministic: the same snapshot always yields the same matches, in the same order, with the
 * same ids, so a second run changes nothing.
 */
import { decimalAbs, decimalCompare, decimalNegate, decimalSign, decimalSubtract, decimalSum } from '../../../kernel/money.ts'
import { addDays, daysBetween } from '../../../kernel/dates.ts'
import { ledgerAmount, normalizeCounterpartyName, normalizeText } from '../domain/keys.ts'
import { sourcePaidOf } from '../domain/merge.ts'
import { decidePayments } from '../domain/payments.ts'
import type { AccountRow, BalanceRow, CounterpartyRow, InvoiceRow, MatchRow, ObligationRow, TransactionRow } from '../ledger.store.ts'

export type MatchType = MatchRow['matchType']
export type MatchStatus = MatchRow['status']

export interface ProposedMatch {
  readonly matchType: MatchType
  readonly status: MatchStatus
  /** `transaction:txn_…`, `invoice:inv_…`, `obligation:obl_…`, `balance:bal_…`, `account:acc_…` */
  readonly subjectRefs: readonly string[]
  readonly amount: string | null
  readonly currency: string | null
  readonly difference: string | null
  readonly explanation: string
  readonly confidence: number
  readonly metadata: Record<string, unknown>
}

export interface Snapshot {
  readonly accounts: ReadonlyMap<string, AccountRow>
  readonly balances: readonly BalanceRow[]
  readonly counterparties: ReadonlyMap<string, CounterpartyRow>
  readonly invoices: ReadonlyMap<string, InvoiceRow>
  readonly obligations: readonly ObligationRow[]
  /** Matches recorded by earlier runs: their subjects are settled and not matched again. */
  readonly existingMatches: readonly MatchRow[]
}

/** Days around an obligation's due date in which a payment counts as its payment. */
export const paymentWindow = { beforeDueDays: 45, afterDueDays: 60 } as const
/** Days after a receipt's date in which the card or bank charge it documents may post. */
export const receiptWindowDays = { before: 3, after: 7 } as const
/** Days within which two obligations of one counterparty and amount are possibly the same one. */
export const duplicateDueDays = 3

export const obligationMatchType: Readonly<Partial<Record<ObligationRow['obligationType'], MatchType>>> = {
  bill: 'invoice_payment',
  invoice: 'invoice_payment',
  subscription: 'subscription_charge',
  payroll: 'payroll_bank_debit',
  card_statement: 'card_charge',
}

const ref = (kind: string, id: string) => `${kind}:${id}`
/** Match types of one-off obligations' payments (a recurring obligation's charges are subscription_charge). */
const oneOffMatchTypes: ReadonlySet<MatchType> = new Set(['invoice_payment', 'payroll_bank_debit', 'card_charge'])
/** An unsigned amount as the Ledger writes money in this currency (`1200` → `1200.00`). */
const money = (value: string, currency: string) => ledgerAmount(decimalAbs(value), currency)

/**
 * Transactions that a match has already settled; matched again by nothing. The matches of obligations
 * decided again this run (`redecided`) settle nothing: their payments are decided afresh.
 */
export function settledTransactionIds(matches: readonly MatchRow[], redecided: ReadonlySet<string> = new Set()): Set<string> {
  const settled = new Set<string>()
  for (const match of matches) {
    if (match.status !== 'matched' && match.status !== 'partially_matched') continue
    if (match.matchType === 'statement_balance' || paysRedecided(match, redecided)) continue
    for (const subject of match.subjectRefs) if (subject.startsWith('transaction:')) settled.add(subject.slice('transaction:'.length))
  }
  return settled
}

/** Whether a match is a payment of one of the obligations decided again this run. */
export function paysRedecided(match: Pick<MatchRow, 'matchType' | 'subjectRefs'>, redecided: ReadonlySet<string>): boolean {
  return oneOffMatchTypes.has(match.matchType) && match.subjectRefs.some((subject) => subject.startsWith('obligation:') && redecided.has(subject.slice('obligation:'.length)))
}

/**
 * One-off obligations whose payments every run decides again as one set (domain/payments.ts): the open
 * ones with a direction and a payment match type that do not recur.
 */
export function redecidedObligations(snapshot: Pick<Snapshot, 'obligations'>): ObligationRow[] {
  return snapshot.obligations.filter((obligation) => obligation.status === 'open' && obligation.direction !== null && obligationMatchType[obligation.obligationType] !== undefined && !isRecurring(obligation))
}

/** A subscription, or an obligation that recurs: every charge of its amount is one of its charges. */
export function isRecurring(obligation: ObligationRow): boolean {
  return obligation.recurrence !== null || obligationMatchType[obligation.obligationType] === 'subscription_charge'
}

/** What a one-off obligation's payments must come to, unsigned: its amount less what its sources said was paid. */
export function amountDue(obligation: ObligationRow): string {
  const due = decimalSubtract(obligation.amount, sourcePaidOf(obligation))
  return decimalSign(due) < 0 ? '0' : due
}

/** An obligation's recurring (or whole) amount, signed from the tenant's accounts' point of view. */
export function signedAmount(obligation: ObligationRow, amount: string = obligation.amount): string {
  return obligation.direction === 'receivable' ? amount : decimalNegate(amount)
}

/** Words of a counterparty's names, to recognise it in a bank description. */
function nameTokens(counterparty: CounterpartyRow | undefined): string[][] {
  if (counterparty === undefined) return []
  return [counterparty.name, ...counterparty.aliases]
    .map((name) => normalizeCounterpartyName(name).split(' ').filter((word) => word.length >= 3))
    .filter((words) => words.length > 0)
}

/** Whether the transaction is evidently with this counterparty: the same id, or its name in the description. */
export function sameCounterparty(transaction: TransactionRow, counterpartyId: string | null, counterparties: ReadonlyMap<string, CounterpartyRow>): boolean {
  if (counterpartyId === null) return false
  if (transaction.counterpartyId === counterpartyId) return true
  const description = ` ${transaction.descriptionNormalized} `
  return nameTokens(counterparties.get(counterpartyId)).some((words) => words.every((word) => description.includes(` ${word} `)))
}

/** Whether the description cites the reference (an invoice number), ignoring punctuation. */
export function citesReference(transaction: TransactionRow, reference: string): boolean {
  const wanted = normalizeText(reference).replace(/ /g, '')
  if (wanted.length < 3) return false
  return normalizeText(transaction.description).replace(/ /g, '').includes(wanted)
}

/**
 * The window in which a payment of this obligation may be dated: from 45 days before its due date (or
 * its invoice's issue date) to 60 days after. A recurring obligation's charges may be dated any time.
 */
export function paymentWindowOf(obligation: ObligationRow, invoice: InvoiceRow | undefined): { from: string; to: string } | undefined {
  const anchor = obligation.dueDate ?? invoice?.issueDate ?? null
  if (anchor === null) return undefined
  const recurring = obligation.recurrence !== null || obligation.obligationType === 'subscription'
  if (recurring) return { from: '0001-01-01', to: '9999-12-31' }
  return { from: addDays(anchor, -paymentWindow.beforeDueDays), to: addDays(anchor, paymentWindow.afterDueDays) }
}

/**
 * Obligations and their payments: invoices and bills (invoice_payment), subscriptions (one
 * subscription_charge per charge), payroll (payroll_bank_debit) and card statements (card_charge).
 *
 * A transaction pays an obligation when it is in the obligation's currency, dated in its window, of
 * the expected sign, and evidently with its counterparty (same counterparty, or its name in the
 * description) or citing its reference. A recurring obligation takes every charge of its amount; a
 * one-off obligation's payments are decided as one set (domain/payments.ts: the whole amount due in one
 * payment is `matched`; otherwise part payments citing the reference are `partially_matched`, in date
 * order, and the one that pays the rest is `matched`). Obligations are taken by due date, transactions
 * by date then id, and a transaction pays at most one obligation.
 */
export function matchObligationPayments(
  snapshot: Snapshot,
  candidates: readonly TransactionRow[],
  taken: Set<string>,
): ProposedMatch[] {
  const proposed: ProposedMatch[] = []
  const ordered = [...candidates].sort((a, b) => (a.transactionDate === b.transactionDate ? a.id.localeCompare(b.id) : a.transactionDate.localeCompare(b.transactionDate)))
  const obligations = snapshot.obligations
    .filter((obligation) => obligation.status === 'open' && obligation.direction !== null && obligationMatchType[obligation.obligationType] !== undefined)
    .sort((a, b) => (a.dueDate ?? '').localeCompare(b.dueDate ?? '') || a.id.localeCompare(b.id))

  for (const obligation of obligations) {
    const matchType = obligationMatchType[obligation.obligationType]!
    const invoice = obligation.invoiceId === null ? undefined : snapshot.invoices.get(obligation.invoiceId)
    const window = paymentWindowOf(obligation, invoice)
    if (window === undefined) continue
    const recurring = isRecurring(obligation)
    const reference = invoice?.invoiceNumber ?? obligation.reference
    const sign = decimalSign(signedAmount(obligation))
    const eligible = ordered.filter(
      (transaction) =>
        !taken.has(transaction.id) &&
        transaction.currency === obligation.currency &&
        transaction.transactionDate >= window.from &&
        transaction.transactionDate <= window.to &&
        decimalSign(transaction.amount) === sign &&
        transaction.status !== 'failed' &&
        transaction.status !== 'reversed' &&
        (sameCounterparty(transaction, obligation.counterpartyId, snapshot.counterparties) || citesReference(transaction, reference)),
    )
    const subjects = (transaction: TransactionRow) => [ref('obligation', obligation.id), ...(invoice === undefined ? [] : [ref('invoice', invoice.id)]), ref('transaction', transaction.id)]

    if (recurring) {
      // Every charge of the recurring amount is one charge of the subscription (or payroll run).
      const recurringAmount = signedAmount(obligation)
      for (const transaction of eligible.filter((candidate) => decimalCompare(candidate.amount, recurringAmount) === 0)) {
        taken.add(transaction.id)
        proposed.push({
          matchType,
          status: 'matched',
          subjectRefs: subjects(transaction),
          amount: money(transaction.amount, transaction.currency),
          currency: transaction.currency,
          difference: '0',
          explanation: `${transaction.transactionDate}: a charge of ${money(transaction.amount, transaction.currency)} ${transaction.currency} for recurring ${obligation.obligationType} ${obligation.reference}.`,
          confidence: 0.95,
          metadata: { obligation_type: obligation.obligationType },
        })
      }
      continue
    }

    const byId = new Map(eligible.map((transaction) => [transaction.id, transaction]))
    const decisions = decidePayments(
      amountDue(obligation),
      eligible.map((transaction) => ({ id: transaction.id, date: transaction.transactionDate, amount: decimalAbs(transaction.amount), citesReference: citesReference(transaction, reference) })),
    )
    for (const decision of decisions) {
      const transaction = byId.get(decision.id)!
      taken.add(transaction.id)
      const paid = `${money(transaction.amount, transaction.currency)} ${transaction.currency}`
      proposed.push({
        matchType,
        status: decision.settles ? 'matched' : 'partially_matched',
        subjectRefs: subjects(transaction),
        amount: money(transaction.amount, transaction.currency),
        currency: transaction.currency,
        difference: decision.paidInFull ? '0' : ledgerAmount(decision.remaining, transaction.currency),
        explanation: decision.paidInFull
          ? `${transaction.transactionDate}: ${paid} pays ${obligation.obligationType} ${reference} in full.`
          : `${transaction.transactionDate}: ${paid} towards ${obligation.obligationType} ${reference}; ${ledgerAmount(decision.remaining, transaction.currency)} ${transaction.currency} outstanding after it.`,
        confidence: decision.paidInFull ? (citesReference(transaction, reference) ? 0.98 : 0.9) : 0.85,
        metadata: { obligation_type: obligation.obligationType, paid_in_full: decision.settles },
      })
    }
  }
  return proposed
}

/**
 * Receipts: a payable invoice that the source already marked paid documents a charge: the outflow of
 * its total, in its currency, dated from 3 days before to 7 after its issue date, with its counterparty
 * or its number. One candidate is `matched`; several are left alone (a person decides).
 */
export function matchReceipts(snapshot: Snapshot, candidates: readonly TransactionRow[], taken: Set<string>, matchedInvoices: ReadonlySet<string>): ProposedMatch[] {
  const proposed: ProposedMatch[] = []
  const receipts = [...snapshot.invoices.values()]
    .filter((invoice) => invoice.direction === 'payable' && invoice.status === 'paid' && invoice.issueDate !== null && !matchedInvoices.has(invoice.id))
    .sort((a, b) => a.id.localeCompare(b.id))
  for (const receipt of receipts) {
    const from = addDays(receipt.issueDate!, -receiptWindowDays.before)
    const to = addDays(receipt.issueDate!, receiptWindowDays.after)
    const expected = decimalNegate(receipt.total)
    const found = candidates.filter(
      (transaction) =>
        !taken.has(transaction.id) &&
        transaction.currency === receipt.currency &&
        decimalCompare(transaction.amount, expected) === 0 &&
        transaction.transactionDate >= from &&
        transaction.transactionDate <= to &&
        (sameCounterparty(transaction, receipt.counterpartyId, snapshot.counterparties) || citesReference(transaction, receipt.invoiceNumber)),
    )
    if (found.length !== 1) continue
    const transaction = found[0]!
    taken.add(transaction.id)
    proposed.push({
      matchType: 'transaction_receipt',
      status: 'matched',
      subjectRefs: [ref('invoice', receipt.id), ref('transaction', transaction.id)],
      amount: receipt.total,
      currency: receipt.currency,
      difference: '0',
      explanation: `Receipt ${receipt.invoiceNumber} (${receipt.issueDate}) documents the ${transaction.transactionDate} charge of ${receipt.total} ${receipt.currency}.`,
      confidence: 0.9,
      metadata: {},
    })
  }
  return proposed
}

/**
 * Statement balances: the periods to check, per account. Each opening balance is checked against the
 * first closing balance on or after it (a statement's own period; two statements that overlap are two
 * periods); a closing balance no opening reaches is checked against the closing before it. Opening
 * balances count their own day's movements (start of day); closing balances end their day.
 */
export function balancePeriods(balances: readonly BalanceRow[]): Array<{ start: BalanceRow; end: BalanceRow; from: string; to: string }> {
  const byAccount = new Map<string, BalanceRow[]>()
  for (const balance of balances) {
    if (balance.balanceType !== 'opening' && balance.balanceType !== 'closing') continue
    byAccount.set(balance.accountId, [...(byAccount.get(balance.accountId) ?? []), balance])
  }
  const periods: Array<{ start: BalanceRow; end: BalanceRow; from: string; to: string }> = []
  for (const [, rows] of [...byAccount].sort(([a], [b]) => a.localeCompare(b))) {
    const closings = rows.filter((row) => row.balanceType === 'closing').sort((a, b) => a.asOf.localeCompare(b.asOf))
    const openings = rows.filter((row) => row.balanceType === 'opening').sort((a, b) => a.asOf.localeCompare(b.asOf))
    const reached = new Set<string>()
    for (const opening of openings) {
      const closing = closings.find((row) => row.asOf >= opening.asOf)
      if (closing === undefined) continue
      reached.add(closing.id)
      periods.push({ start: opening, end: closing, from: opening.asOf, to: closing.asOf })
    }
    closings.forEach((closing, index) => {
      const previous = closings[index - 1]
      if (previous === undefined || reached.has(closing.id)) return
      periods.push({ start: previous, end: closing, from: addDays(previous.asOf, 1), to: closing.asOf })
    })
  }
  return periods
}

export function statementBalanceMatch(period: { start: BalanceRow; end: BalanceRow; from: string; to: string }, movements: string): ProposedMatch {
  const { start, end } = period
  const currency = end.currency
  const expected = ledgerAmount(decimalSum([start.amount, movements]), currency)
  const difference = ledgerAmount(decimalSubtract(end.amount, expected), currency)
  const agrees = decimalSign(difference) === 0
  return {
    matchType: 'statement_balance',
    status: agrees ? 'matched' : 'unmatched',
    subjectRefs: [ref('account', end.accountId), ref('balance', start.id), ref('balance', end.id)],
    amount: end.amount,
    currency,
    difference,
    explanation: agrees
      ? `${start.balanceType} ${start.amount} (${start.asOf}) + movements ${ledgerAmount(movements, currency)} = closing ${end.amount} (${end.asOf}).`
      : `${start.balanceType} ${start.amount} (${start.asOf}) + movements ${ledgerAmount(movements, currency)} = ${expected}, but the statement says ${end.amount} (${end.asOf}): ${difference} unexplained (a missing or duplicated transaction).`,
    confidence: 1,
    metadata: { period_from: period.from, period_to: period.to, movements: ledgerAmount(movements, currency) },
  }
}

/**
 * Wallet transfers between the tenant's own wallets: the outflow on one and the inflow on the other
 * carry the same transaction hash and opposite amounts.
 */
export function matchWalletTransfers(transactions: readonly TransactionRow[], accounts: ReadonlyMap<string, AccountRow>, taken: Set<string>): ProposedMatch[] {
  const byHash = new Map<string, TransactionRow[]>()
  for (const transaction of transactions) {
    const details = (transaction.metadata as { details?: { tx_hash?: unknown; log_index?: unknown } }).details
    if (typeof details?.tx_hash !== 'string' || !accounts.has(transaction.accountId)) continue
    const key = `${details.tx_hash}:${String(details.log_index ?? '')}`
    byHash.set(key, [...(byHash.get(key) ?? []), transaction])
  }
  const proposed: ProposedMatch[] = []
  for (const [key, rows] of [...byHash].sort(([a], [b]) => a.localeCompare(b))) {
    const outflow = rows.find((row) => decimalSign(row.amount) < 0 && !taken.has(row.id))
    const inflow = rows.find((row) => decimalSign(row.amount) > 0 && !taken.has(row.id) && outflow !== undefined && row.accountId !== outflow.accountId)
    if (outflow === undefined || inflow === undefined || decimalCompare(decimalAbs(outflow.amount), inflow.amount) !== 0 || outflow.currency !== inflow.currency) continue
    taken.add(outflow.id)
    taken.add(inflow.id)
    proposed.push({
      matchType: 'wallet_transfer',
      status: 'matched',
      subjectRefs: [ref('transaction', outflow.id), ref('transaction', inflow.id)],
      amount: inflow.amount,
      currency: inflow.currency,
      difference: '0',
      explanation: `${inflow.amount} ${inflow.currency} moved between your wallets ${accounts.get(outflow.accountId)!.name} → ${accounts.get(inflow.accountId)!.name} in ${key.split(':')[0]}.`,
      confidence: 1,
      metadata: { tx_hash: key.split(':')[0] },
    })
  }
  return proposed
}

/** Days after a processor payout in which the bank credit of it may be booked. */
export const payoutWindowDays = 5

/**
 * Card processor payouts: a payout (an outflow of a payment_processor account) and the bank credit it
 * becomes (an inflow of the same amount and currency on another of the tenant's accounts, booked from the
 * payout's day to 5 days after). One candidate is `matched` as card_charge (the card charges the payout
 * settles); several are left alone.
 */
export function matchProcessorPayouts(payouts: readonly TransactionRow[], credits: readonly TransactionRow[], accounts: ReadonlyMap<string, AccountRow>, taken: Set<string>): ProposedMatch[] {
  const proposed: ProposedMatch[] = []
  for (const payout of [...payouts].sort((a, b) => a.transactionDate.localeCompare(b.transactionDate) || a.id.localeCompare(b.id))) {
    if (taken.has(payout.id)) continue
    const amount = money(payout.amount, payout.currency)
    const last = addDays(payout.transactionDate, payoutWindowDays)
    const found = credits.filter(
      (credit) =>
        !taken.has(credit.id) &&
        credit.accountId !== payout.accountId &&
        accounts.get(credit.accountId)?.accountType !== 'payment_processor' &&
        credit.currency === payout.currency &&
        decimalCompare(credit.amount, amount) === 0 &&
        credit.transactionDate >= payout.transactionDate &&
        credit.transactionDate <= last,
    )
    if (found.length !== 1) continue
    const credit = found[0]!
    taken.add(payout.id)
    taken.add(credit.id)
    proposed.push({
      matchType: 'card_charge',
      status: 'matched',
      subjectRefs: [ref('transaction', payout.id), ref('transaction', credit.id)],
      amount,
      currency: payout.currency,
      difference: '0',
      explanation: `Payout of ${amount} ${payout.currency} from ${accounts.get(payout.accountId)?.name ?? 'the card processor'} (${payout.transactionDate}) credited to ${accounts.get(credit.accountId)?.name ?? 'the bank'} on ${credit.transactionDate}.`,
      confidence: 0.95,
      metadata: { settles: 'card_charges' },
    })
  }
  return proposed
}

/**
 * Possible duplicate transactions: normalization kept apart a record that matched more than one existing
 * transaction (provenance ambiguous); each candidate pair is reported `duplicate_possible` for a person.
 * There is no transaction-duplicate match type in the spec; the pair is reported as transaction_receipt
 * (two pieces of evidence for what may be one transaction).
 */
export function matchPossibleDuplicates(ambiguous: readonly TransactionRow[]): ProposedMatch[] {
  const proposed: ProposedMatch[] = []
  for (const transaction of [...ambiguous].sort((a, b) => a.id.localeCompare(b.id))) {
    const candidates = (transaction.metadata as { possible_duplicate_of?: unknown }).possible_duplicate_of
    if (!Array.isArray(candidates)) continue
    for (const candidate of candidates.filter((value): value is string => typeof value === 'string').sort()) {
      proposed.push({
        matchType: 'transaction_receipt',
        status: 'duplicate_possible',
        subjectRefs: [ref('transaction', candidate), ref('transaction', transaction.id)],
        amount: money(transaction.amount, transaction.currency),
        currency: transaction.currency,
        difference: '0',
        explanation: `${transaction.transactionDate}: ${transaction.amount} ${transaction.currency} on the same account and day as another source's transaction; it may be the same one recorded twice.`,
        confidence: 0.5,
        metadata: {},
      })
    }
  }
  return proposed
}

/**
 * Possible duplicate obligations: two open obligations with the same counterparty, currency and amount
 * due within 3 days of each other but different references (the same bill from e-mail and from the ERP).
 */
export function matchDuplicateObligations(obligations: readonly ObligationRow[]): ProposedMatch[] {
  const open = obligations
    .filter((obligation) => obligation.status === 'open' && obligation.counterpartyId !== null && obligation.dueDate !== null && obligation.recurrence === null)
    .sort((a, b) => a.id.localeCompare(b.id))
  const proposed: ProposedMatch[] = []
  for (let i = 0; i < open.length; i += 1) {
    for (let j = i + 1; j < open.length; j += 1) {
      const a = open[i]!
      const b = open[j]!
      if (a.counterpartyId !== b.counterpartyId || a.currency !== b.currency || decimalCompare(a.amount, b.amount) !== 0 || a.reference === b.reference) continue
      const apart = Math.abs(daysBetween(a.dueDate!, b.dueDate!))
      if (apart > duplicateDueDays) continue
      proposed.push({
        matchType: 'obligation_duplicate',
        status: 'duplicate_possible',
        subjectRefs: [ref('obligation', a.id), ref('obligation', b.id)],
        amount: a.amount,
        currency: a.currency,
        difference: '0',
        explanation: `${a.reference} and ${b.reference}: same counterparty, ${a.amount} ${a.currency}, due ${a.dueDate} and ${b.dueDate}; possibly one obligation recorded twice.`,
        confidence: 0.6,
        metadata: {},
      })
    }
  }
  return proposed
}
