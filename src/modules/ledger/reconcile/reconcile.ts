/**
 * A reconciliation run: loads a snapshot of the tenant's current Ledger, runs the matchers
 * (matchers.ts), and writes in one transaction, under the tenant's Ledger lock:
 *
 * - each match as a versioned `ledger_reconciliation_matches` entity whose id follows from its type and
 *   subjects (so a second run finds the same match and writes nothing);
 * - statement balance checks are a function of the current balances: a check whose period no longer
 *   exists (an earlier run paired a balance that a statement normalized since pairs otherwise) is retired,
 *   its version superseded with no successor (as-of reads before the run still show it), so the result
 *   does not depend on the order in which statements were normalized;
 * - transfers between own accounts found again (transfers.ts): a transaction recorded as an inflow or
 *   outflow before the account its counterparty names existed becomes a `transfer`, so the direction
 *   does not depend on the order in which files were normalized;
 * - the consequences: a matched transaction's `reconciliation_status`; an invoice's `amount_paid` and
 *   status (paid amounts only ever grow); a fully paid one-off obligation becomes `settled`;
 * - one audit event (layer ledger) with the counts, committed through the command runner in the run's
 *   transaction.
 */
import type { AuditActor } from '../../../kernel/audit-record.ts'
import type { CommandRunner } from '../../../platform/commands/command.ts'
import type { Database, Tx } from '../../../platform/db/database.ts'
import type { Clock } from '../../../kernel/clock.ts'
import { decimalAbs, decimalCompare, decimalNegate, decimalSign, decimalSubtract, decimalSum } from '../../../kernel/money.ts'
import { deterministicId } from '../../../kernel/ids.ts'
import { addDays } from '../../../kernel/dates.ts'
import { ledgerAmount, normalizeText } from '../domain/keys.ts'
import { sourcePaidOf } from '../domain/merge.ts'
import { ContentFields, nextVersion } from '../domain/versions.ts'
import type { InvoiceRow, LedgerKind, LedgerRowByKind, LedgerStore, MatchRow, ObligationRow, TransactionRow } from '../ledger.store.ts'
import { flatCounts, type KindCounts } from '../domain/outcomes.ts'
import {
  amountDue,
  balancePeriods,
  citesReference,
  isRecurring,
  matchDuplicateObligations,
  matchObligationPayments,
  matchPossibleDuplicates,
  matchProcessorPayouts,
  matchReceipts,
  matchWalletTransfers,
  obligationMatchType,
  paymentWindowOf,
  paysRedecided,
  payoutWindowDays,
  redecidedObligations,
  receiptWindowDays,
  settledTransactionIds,
  signedAmount,
  statementBalanceMatch,
  type ProposedMatch,
  type Snapshot,
} from './matchers.ts'
import { ownAccountTransfers } from './transfers.ts'
import { settlingAmounts } from '../domain/payments.ts'

export interface ReconcileDeps {
  readonly db: Database
  readonly store: LedgerStore
  /** Commits the run's audit event in its transaction. */
  readonly commands: Pick<CommandRunner, 'commit'>
  readonly clock: Clock
}

export interface ReconcileSummary {
  /** Matches found this run, by match type and status (`invoice_payment:matched: 2`). */
  readonly matches: Record<string, number>
  /** Entities written, per kind: created, updated (a new version), unchanged. */
  readonly counts: Partial<Record<LedgerKind, KindCounts>>
  /** Matches retired: statement balance checks whose period no longer exists, payments an obligation's new decision no longer names. */
  readonly retired: number
  /** Transactions recorded as transfers between own accounts this run (they were inflows or outflows). */
  readonly transfers: number
}

/** The reconciliation statuses reconciliation itself gives (the others come from a source). */
const reconciliationGiven: ReadonlySet<TransactionRow['reconciliationStatus']> = new Set(['unmatched', 'duplicate_possible', 'partially_matched', 'matched'])

const statusPrecedence: Readonly<Record<TransactionRow['reconciliationStatus'], number>> = {
  unmatched: 0,
  duplicate_possible: 1,
  partially_matched: 2,
  matched: 3,
  cleared: 3,
  disputed: 4,
  failed: 4,
  reversed: 4,
}

export async function reconcileTenant(deps: ReconcileDeps, tenantId: string, options: { actor: AuditActor; jobId?: string }): Promise<ReconcileSummary> {
  const { db, store, clock } = deps
  return db.transaction(async (tx) => {
    await store.lockTenant(tx, tenantId)
    const at = clock.now()
    const snapshot = await loadSnapshot(tx, store, tenantId)
    const transfers = await ownAccountTransfers(tx, store, tenantId, snapshot)

    // Open one-off obligations are decided again, from every payment, including those matched before.
    const redecided = new Set(redecidedObligations(snapshot).map((obligation) => obligation.id))
    const released = snapshot.existingMatches.filter((match) => paysRedecided(match, redecided))
    const taken = settledTransactionIds(snapshot.existingMatches, redecided)
    const proposed: ProposedMatch[] = []

    // Obligations and receipts, over the transactions that could pay them.
    const candidates = await paymentCandidates(tx, store, tenantId, snapshot, released)
    proposed.push(...matchObligationPayments(snapshot, candidates, taken))
    const matchedInvoices = new Set(
      [...snapshot.existingMatches, ...proposed.map((match) => ({ subjectRefs: match.subjectRefs }))].flatMap((match) =>
        match.subjectRefs.filter((subject) => subject.startsWith('invoice:')).map((subject) => subject.slice('invoice:'.length)),
      ),
    )
    proposed.push(...matchReceipts(snapshot, candidates, taken, matchedInvoices))

    // Statement balances.
    const periods = balancePeriods(snapshot.balances)
    const sums = await store.movementSums(tx, tenantId, periods.map((period) => ({ accountId: period.end.accountId, from: period.from, to: period.to })))
    periods.forEach((period, index) => proposed.push(statementBalanceMatch(period, sums[index]!)))

    // Card processor payouts and the bank credits they become.
    const processorAccounts = [...snapshot.accounts.values()].filter((account) => account.accountType === 'payment_processor').map((account) => account.id)
    const payouts = (await store.outflowsOf(tx, tenantId, processorAccounts)).filter((payout) => !taken.has(payout.id))
    const credits = await store.transactionsByAmount(
      tx,
      tenantId,
      payouts.map((payout) => ({ currency: payout.currency, amount: decimalNegate(payout.amount), from: payout.transactionDate, to: addDays(payout.transactionDate, payoutWindowDays) })),
    )
    proposed.push(...matchProcessorPayouts(payouts, credits, snapshot.accounts, taken))

    // Transfers between own wallets, and possible duplicates.
    proposed.push(...matchWalletTransfers(await store.sharedHashTransactions(tx, tenantId), snapshot.accounts, taken))
    proposed.push(...matchPossibleDuplicates(await store.ambiguousTransactions(tx, tenantId)))
    proposed.push(...matchDuplicateObligations(snapshot.obligations))

    const counts: Partial<Record<LedgerKind, KindCounts>> = {}
    const { current: matchRows, retired } = await writeMatches(tx, store, tenantId, snapshot, proposed, released, at, counts)
    const redecidedPayments = new Set(released.flatMap((match) => transactionIdsOf(match)))
    await applyToTransactions(tx, store, tenantId, matchRows, transfers, redecidedPayments, at, counts)
    const hadPayments = new Set(released.flatMap((match) => match.subjectRefs.filter((subject) => subject.startsWith('obligation:'))))
    await applyToInvoicesAndObligations(tx, store, tenantId, snapshot, matchRows, hadPayments, at, counts)

    const matches: Record<string, number> = {}
    for (const match of proposed) matches[`${match.matchType}:${match.status}`] = (matches[`${match.matchType}:${match.status}`] ?? 0) + 1
    const written = retired > 0 || transfers.length > 0 || Object.values(counts).some((tally) => tally.created + tally.updated > 0)
    if (written) {
      await deps.commands.commit(tx, tenantId, {
        audit: [
          {
            tenantId,
            layer: 'ledger',
            actor: options.actor,
            action: 'ledger.reconciled',
            entity: { type: 'ledger_job', id: options.jobId ?? 'reconcile' },
            inputs: options.jobId === undefined ? {} : { job_id: options.jobId },
            outputs: {
              ...flatCounts(counts),
              matches_found: proposed.length,
              ...(retired > 0 ? { reconciliation_match_retired: retired } : {}),
              ...(transfers.length > 0 ? { transfers_recognized: transfers.length } : {}),
            },
          },
        ],
      })
    }
    return { matches, counts, retired, transfers: transfers.length }
  })
}

async function loadSnapshot(tx: Tx, store: LedgerStore, tenantId: string): Promise<Snapshot> {
  const [accounts, balances, counterparties, invoices, obligations, existingMatches] = [
    await store.allCurrent(tx, 'account', tenantId),
    await store.allCurrent(tx, 'balance', tenantId),
    await store.allCurrent(tx, 'counterparty', tenantId),
    await store.allCurrent(tx, 'invoice', tenantId),
    await store.allCurrent(tx, 'obligation', tenantId),
    await store.allCurrent(tx, 'reconciliation_match', tenantId),
  ]
  return {
    accounts: new Map(accounts.map((row) => [row.id, row])),
    balances,
    counterparties: new Map(counterparties.map((row) => [row.id, row])),
    invoices: new Map(invoices.map((row) => [row.id, row])),
    obligations,
    existingMatches,
  }
}

/**
 * Transactions that could pay an open obligation or be documented by a receipt: by amount (a recurring
 * amount, or any amount that could settle a one-off obligation: payments.ts `settlingAmounts`), citing
 * the reference, or already matched to an obligation decided again this run (`released`).
 */
async function paymentCandidates(tx: Tx, store: LedgerStore, tenantId: string, snapshot: Snapshot, released: readonly MatchRow[]): Promise<TransactionRow[]> {
  const open: Array<{ obligation: ObligationRow; window: { from: string; to: string }; reference: string }> = []
  for (const obligation of snapshot.obligations) {
    if (obligation.status !== 'open' || obligation.direction === null || obligationMatchType[obligation.obligationType] === undefined) continue
    const invoice = obligation.invoiceId === null ? undefined : snapshot.invoices.get(obligation.invoiceId)
    const window = paymentWindowOf(obligation, invoice)
    if (window !== undefined) open.push({ obligation, window, reference: invoice?.invoiceNumber ?? obligation.reference })
  }
  const citingProbes = open.flatMap(({ window, reference }) => {
    const text = normalizeText(reference).replace(/ /g, '')
    return text.length >= 3 ? [{ text, ...window }] : []
  })
  const citing = await store.transactionsCiting(tx, tenantId, citingProbes)

  const amountProbes: Array<{ currency: string; amount: string; from: string; to: string }> = []
  for (const { obligation, window, reference } of open) {
    if (isRecurring(obligation)) {
      amountProbes.push({ currency: obligation.currency, amount: signedAmount(obligation), ...window })
      continue
    }
    const sign = decimalSign(signedAmount(obligation))
    const cited = citing
      .filter((transaction) => transaction.currency === obligation.currency && transaction.transactionDate >= window.from && transaction.transactionDate <= window.to && decimalSign(transaction.amount) === sign && citesReference(transaction, reference))
      .map((transaction) => ({ id: transaction.id, date: transaction.transactionDate, amount: decimalAbs(transaction.amount), citesReference: true }))
    for (const amount of settlingAmounts(amountDue(obligation), cited)) amountProbes.push({ currency: obligation.currency, amount: signedAmount(obligation, amount), ...window })
  }
  for (const invoice of snapshot.invoices.values()) {
    if (invoice.direction !== 'payable' || invoice.status !== 'paid' || invoice.issueDate === null) continue
    amountProbes.push({
      currency: invoice.currency,
      amount: decimalNegate(invoice.total),
      from: addDays(invoice.issueDate, -receiptWindowDays.before),
      to: addDays(invoice.issueDate, receiptWindowDays.after),
    })
  }
  const matched = await store.currentVersions(tx, 'transaction', tenantId, [...new Set(released.flatMap((match) => transactionIdsOf(match)))].sort())
  const rows = [...(await store.transactionsByAmount(tx, tenantId, amountProbes)), ...citing, ...matched.values()]
  return [...new Map(rows.map((row) => [row.id, row])).values()]
}

/** The transactions a match names. */
function transactionIdsOf(match: Pick<MatchRow, 'subjectRefs'>): string[] {
  return match.subjectRefs.filter((subject) => subject.startsWith('transaction:')).map((subject) => subject.slice('transaction:'.length))
}

function tally(counts: Partial<Record<LedgerKind, KindCounts>>, kind: LedgerKind): KindCounts {
  return (counts[kind] ??= { created: 0, updated: 0, unchanged: 0 })
}

/** Writes what changed among `drafts` (each against its current version) and counts outcomes. */
async function writeDrafts<K extends LedgerKind>(
  tx: Tx,
  store: LedgerStore,
  kind: K,
  tenantId: string,
  entries: ReadonlyArray<{ current: LedgerRowByKind[K] | undefined; draft: LedgerRowByKind[K] }>,
  at: Date,
  counts: Partial<Record<LedgerKind, KindCounts>>,
): Promise<Array<LedgerRowByKind[K]>> {
  const rows: Array<LedgerRowByKind[K]> = []
  const superseded: string[] = []
  const result: Array<LedgerRowByKind[K]> = []
  const fields = new ContentFields()
  for (const { current, draft } of entries) {
    const next = nextVersion(current, draft, at, fields)
    if (next === undefined) {
      tally(counts, kind).unchanged += 1
      result.push(current!)
      continue
    }
    tally(counts, kind)[current === undefined ? 'created' : 'updated'] += 1
    if (current !== undefined) superseded.push(current.versionId)
    rows.push(next)
    result.push(next)
  }
  await store.supersede(tx, kind, tenantId, superseded, at)
  await store.insertVersions(tx, kind, rows)
  return result
}

async function writeMatches(
  tx: Tx,
  store: LedgerStore,
  tenantId: string,
  snapshot: Snapshot,
  proposed: readonly ProposedMatch[],
  released: readonly MatchRow[],
  at: Date,
  counts: Partial<Record<LedgerKind, KindCounts>>,
): Promise<{ current: MatchRow[]; retired: number }> {
  const existing = new Map(snapshot.existingMatches.map((row) => [row.id, row]))
  const entries = new Map<string, { current: MatchRow | undefined; draft: MatchRow }>()
  for (const match of proposed) {
    const subjects = [...match.subjectRefs].sort()
    const id = deterministicId('reconciliationMatch', tenantId, match.matchType, ...subjects)
    const current = existing.get(id)
    entries.set(id, {
      current,
      draft: {
        versionId: '',
        id,
        tenantId,
        version: 0,
        supersedes: null,
        sourceIds: [],
        evidenceIds: match.subjectRefs.map((subject) => subject.slice(subject.indexOf(':') + 1)),
        provenance: 'inferred',
        confidence: match.confidence,
        metadata: match.metadata,
        createdAt: at,
        updatedAt: at,
        supersededAt: null,
        matchType: match.matchType,
        status: match.status,
        subjectRefs: [...match.subjectRefs],
        amount: match.amount === null || match.currency === null ? match.amount : ledgerAmount(match.amount, match.currency),
        currency: match.currency,
        difference: match.difference === null || match.currency === null ? match.difference : ledgerAmount(match.difference, match.currency),
        explanation: match.explanation,
      },
    })
  }
  const written = await writeDrafts(tx, store, 'reconciliation_match', tenantId, [...entries.values()], at, counts)
  // This run checked every period the current balances make; a check of any other period is stale. And
  // it decided again the payments of the obligations it released; a payment it no longer names is stale.
  const stale = [...snapshot.existingMatches.filter((row) => row.matchType === 'statement_balance'), ...released].filter((row) => !entries.has(row.id))
  await store.supersede(tx, 'reconciliation_match', tenantId, stale.map((row) => row.versionId), at)
  // Every current match counts for the consequences, including those of earlier runs.
  const all = new Map(snapshot.existingMatches.map((row) => [row.id, row]))
  for (const row of stale) all.delete(row.id)
  for (const row of written) all.set(row.id, row)
  return { current: [...all.values()], retired: stale.length }
}

/**
 * A transaction's reconciliation status (the strongest status among the matches that name it) and, for
 * `transfers`, its direction: one new version per transaction that changes. A status only rises, except
 * for the payments of obligations decided again this run (`redecided`), whose status is what the
 * current matches say now (a part payment that was taken as the full one, a payment no longer taken),
 * among the statuses reconciliation gives; a status a source gave (cleared, disputed, failed, reversed)
 * stays.
 */
async function applyToTransactions(
  tx: Tx,
  store: LedgerStore,
  tenantId: string,
  matches: readonly MatchRow[],
  transfers: readonly TransactionRow[],
  redecided: ReadonlySet<string>,
  at: Date,
  counts: Partial<Record<LedgerKind, KindCounts>>,
) {
  const wanted = new Map<string, TransactionRow['reconciliationStatus']>()
  for (const match of matches) {
    if (match.matchType === 'statement_balance') continue
    const status: TransactionRow['reconciliationStatus'] | undefined =
      match.status === 'matched' ? 'matched' : match.status === 'partially_matched' ? 'partially_matched' : match.status === 'duplicate_possible' ? 'duplicate_possible' : undefined
    if (status === undefined) continue
    for (const subject of match.subjectRefs) {
      if (!subject.startsWith('transaction:')) continue
      const id = subject.slice('transaction:'.length)
      const previous = wanted.get(id)
      if (previous === undefined || statusPrecedence[status] > statusPrecedence[previous]) wanted.set(id, status)
    }
  }
  const transferIds = new Set(transfers.map((transaction) => transaction.id))
  const currents = await store.currentVersions(tx, 'transaction', tenantId, [...new Set([...wanted.keys(), ...transferIds, ...redecided])].sort())
  const entries: Array<{ current: TransactionRow; draft: TransactionRow }> = []
  for (const current of [...currents.values()].sort((left, right) => (left.id < right.id ? -1 : 1))) {
    const decidedAgain = redecided.has(current.id) && reconciliationGiven.has(current.reconciliationStatus)
    const status = decidedAgain ? (wanted.get(current.id) ?? 'unmatched') : wanted.get(current.id)
    const raised = status !== undefined && (decidedAgain ? status !== current.reconciliationStatus : statusPrecedence[status] > statusPrecedence[current.reconciliationStatus])
    const redirected = transferIds.has(current.id) && current.direction !== 'transfer'
    if (!raised && !redirected) continue
    entries.push({
      current,
      draft: { ...current, ...(raised ? { reconciliationStatus: status } : {}), ...(redirected ? { direction: 'transfer' as const } : {}) },
    })
  }
  await writeDrafts(tx, store, 'transaction', tenantId, entries, at, counts)
}

/** Paid amounts from the matches: an invoice's amount_paid and status, a one-off obligation's outstanding amount and settlement. */
async function applyToInvoicesAndObligations(
  tx: Tx,
  store: LedgerStore,
  tenantId: string,
  snapshot: Snapshot,
  matches: readonly MatchRow[],
  hadPayments: ReadonlySet<string>,
  at: Date,
  counts: Partial<Record<LedgerKind, KindCounts>>,
) {
  const paidTo = new Map<string, string[]>()
  for (const match of matches) {
    if (match.matchType !== 'invoice_payment' && match.matchType !== 'card_charge' && match.matchType !== 'payroll_bank_debit') continue
    if ((match.status !== 'matched' && match.status !== 'partially_matched') || match.amount === null) continue
    for (const subject of match.subjectRefs) {
      if (subject.startsWith('invoice:') || subject.startsWith('obligation:')) paidTo.set(subject, [...(paidTo.get(subject) ?? []), match.amount])
    }
  }

  const invoiceEntries: Array<{ current: InvoiceRow; draft: InvoiceRow }> = []
  for (const invoice of snapshot.invoices.values()) {
    const payments = paidTo.get(`invoice:${invoice.id}`)
    if (payments === undefined) continue
    // What the sources said was paid, and what reconciliation found paid since.
    const sourcePaid = snapshot.obligations.filter((obligation) => obligation.invoiceId === invoice.id).map(sourcePaidOf).reduce((most, value) => (decimalCompare(value, most) > 0 ? value : most), '0')
    const paid = ledgerAmount(decimalSum([sourcePaid, ...payments]), invoice.currency)
    if (decimalCompare(paid, invoice.amountPaid) <= 0) continue // paid amounts only grow
    const full = decimalCompare(paid, invoice.total) >= 0
    const status: InvoiceRow['status'] = invoice.status === 'cancelled' || invoice.status === 'disputed' ? invoice.status : full ? 'paid' : 'partial'
    invoiceEntries.push({ current: invoice, draft: { ...invoice, amountPaid: paid, status, metadata: { ...(invoice.metadata as Record<string, unknown>), paid_by_reconciliation: true } } })
  }
  await writeDrafts(tx, store, 'invoice', tenantId, invoiceEntries, at, counts)

  const obligationEntries: Array<{ current: ObligationRow; draft: ObligationRow }> = []
  for (const obligation of snapshot.obligations) {
    const payments = paidTo.get(`obligation:${obligation.id}`)
    if (obligation.recurrence !== null || obligation.status !== 'open') continue
    // Written when it has payments, or had some that its new decision no longer names.
    if (payments === undefined && !hadPayments.has(`obligation:${obligation.id}`)) continue
    const outstanding = decimalSubtract(amountDue(obligation), decimalSum(payments ?? []))
    const settled = decimalSign(outstanding) <= 0
    obligationEntries.push({
      current: obligation,
      draft: {
        ...obligation,
        status: settled ? 'settled' : 'open',
        metadata: { ...(obligation.metadata as Record<string, unknown>), outstanding: settled ? '0' : ledgerAmount(outstanding, obligation.currency) },
      },
    })
  }
  await writeDrafts(tx, store, 'obligation', tenantId, obligationEntries, at, counts)
}
