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
import { decimalCompare, decimalNegate, decimalSign, decimalSubtract, decimalSum } from '../../../kernel/money.ts'
import { deterministicId } from '../../../kernel/ids.ts'
import { addDays } from '../../../kernel/dates.ts'
import { ledgerAmount, normalizeText } from '../domain/keys.ts'
import { ContentFields, nextVersion } from '../domain/versions.ts'
import type { InvoiceRow, LedgerKind, LedgerRowByKind, LedgerStore, MatchRow, ObligationRow, TransactionRow } from '../ledger.store.ts'
import { flatCounts, type KindCounts } from '../domain/outcomes.ts'
import {
  balancePeriods,
  expectedPayment,
  matchDuplicateObligations,
  matchObligationPayments,
  matchPossibleDuplicates,
  matchProcessorPayouts,
  matchReceipts,
  matchWalletTransfers,
  obligationMatchType,
  paymentWindowOf,
  payoutWindowDays,
  receiptWindowDays,
  settledTransactionIds,
  statementBalanceMatch,
  type ProposedMatch,
  type Snapshot,
} from './matchers.ts'
import { ownAccountTransfers } from './transfers.ts'

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
  /** Statement balance checks retired because their period no longer exists. */
  readonly retired: number
  /** Transactions recorded as transfers between own accounts this run (they were inflows or outflows). */
  readonly transfers: number
}

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

    const taken = settledTransactionIds(snapshot.existingMatches)
    const proposed: ProposedMatch[] = []

    // Obligations and receipts, over the transactions that could pay them.
    const candidates = await paymentCandidates(tx, store, tenantId, snapshot)
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
    const { current: matchRows, retired } = await writeMatches(tx, store, tenantId, snapshot, proposed, at, counts)
    await applyToTransactions(tx, store, tenantId, matchRows, transfers, at, counts)
    await applyToInvoicesAndObligations(tx, store, tenantId, snapshot, matchRows, at, counts)

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

/** Transactions that could pay an open obligation or be documented by a receipt: by amount, or citing the reference. */
async function paymentCandidates(tx: Tx, store: LedgerStore, tenantId: string, snapshot: Snapshot): Promise<TransactionRow[]> {
  const amountProbes: Array<{ currency: string; amount: string; from: string; to: string }> = []
  const citingProbes: Array<{ text: string; from: string; to: string }> = []
  for (const obligation of snapshot.obligations) {
    if (obligation.status !== 'open' || obligation.direction === null || obligationMatchType[obligation.obligationType] === undefined) continue
    const invoice = obligation.invoiceId === null ? undefined : snapshot.invoices.get(obligation.invoiceId)
    const window = paymentWindowOf(obligation, invoice)
    if (window === undefined) continue
    const recurringAmount = obligation.direction === 'receivable' ? obligation.amount : decimalNegate(obligation.amount)
    amountProbes.push({ currency: obligation.currency, amount: expectedPayment(obligation), ...window })
    if (decimalCompare(recurringAmount, expectedPayment(obligation)) !== 0) amountProbes.push({ currency: obligation.currency, amount: recurringAmount, ...window })
    const text = normalizeText(invoice?.invoiceNumber ?? obligation.reference).replace(/ /g, '')
    if (text.length >= 3) citingProbes.push({ text, ...window })
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
  const rows = [...(await store.transactionsByAmount(tx, tenantId, amountProbes)), ...(await store.transactionsCiting(tx, tenantId, citingProbes))]
  return [...new Map(rows.map((row) => [row.id, row])).values()]
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
  // This run checked every period the current balances make; a check of any other period is stale.
  const stale = snapshot.existingMatches.filter((row) => row.matchType === 'statement_balance' && !entries.has(row.id))
  await store.supersede(tx, 'reconciliation_match', tenantId, stale.map((row) => row.versionId), at)
  // Every current match counts for the consequences, including those of earlier runs.
  const all = new Map(snapshot.existingMatches.map((row) => [row.id, row]))
  for (const row of stale) all.delete(row.id)
  for (const row of written) all.set(row.id, row)
  return { current: [...all.values()], retired: stale.length }
}

/**
 * A transaction's reconciliation status (the strongest status among the matches that name it) and, for
 * `transfers`, its direction: one new version per transaction that changes.
 */
async function applyToTransactions(
  tx: Tx,
  store: LedgerStore,
  tenantId: string,
  matches: readonly MatchRow[],
  transfers: readonly TransactionRow[],
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
  const currents = await store.currentVersions(tx, 'transaction', tenantId, [...new Set([...wanted.keys(), ...transferIds])].sort())
  const entries: Array<{ current: TransactionRow; draft: TransactionRow }> = []
  for (const current of [...currents.values()].sort((left, right) => (left.id < right.id ? -1 : 1))) {
    const status = wanted.get(current.id)
    const raised = status !== undefined && statusPrecedence[status] > statusPrecedence[current.reconciliationStatus]
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
    const paid = ledgerAmount(decimalSum(payments), invoice.currency)
    if (decimalCompare(paid, invoice.amountPaid) <= 0) continue // paid amounts only grow
    const full = decimalCompare(paid, invoice.total) >= 0
    const status: InvoiceRow['status'] = invoice.status === 'cancelled' || invoice.status === 'disputed' ? invoice.status : full ? 'paid' : 'partial'
    invoiceEntries.push({ current: invoice, draft: { ...invoice, amountPaid: paid, status, metadata: { ...(invoice.metadata as Record<string, unknown>), paid_by_reconciliation: true } } })
  }
  await writeDrafts(tx, store, 'invoice', tenantId, invoiceEntries, at, counts)

  const obligationEntries: Array<{ current: ObligationRow; draft: ObligationRow }> = []
  for (const obligation of snapshot.obligations) {
    const payments = paidTo.get(`obligation:${obligation.id}`)
    if (payments === undefined || obligation.recurrence !== null || obligation.status !== 'open') continue
    const paid = decimalSum(payments)
    const outstanding = decimalSubtract(obligation.amount, paid)
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
