/**
 * Reconciliation (issue 18, item 3): the posted transactions that the Ledger's automatic reconciliation
 * left unmatched, each with the open invoice or obligation it most likely pays (or is paid by).
 *
 * What the automatic reconciliation already decided (src/modules/ledger/reconcile/) is not proposed
 * again: it matches a payment to an obligation when it is in the window around the due date and evidently
 * with its counterparty or citing its reference, and marks the transaction `matched` (or
 * `partially_matched` for a part payment). `duplicate_possible` means the transaction may be another
 * one recorded twice: matching it to an invoice could pay the invoice twice, so it is left to a person.
 * What is left here: transactions with reconciliation_status `unmatched`, status `posted` or `cleared`,
 * direction inflow or outflow (transfers and adjustments pay no invoice), amount not zero.
 *
 * Candidates of a transaction: in its currency, direction consistent (an outflow pays a payable, an
 * inflow settles a receivable), and whose open amount equals the transaction's absolute amount exactly:
 * - open obligations (status `open`, a direction): the outstanding amount (`outstanding`, else `amount`;
 *   a recurring obligation's `amount` is one charge); an obligation naming an invoice is one candidate
 *   with its invoice;
 * - open invoices (status sent, partial or overdue; a draft is not yet owed) that no candidate obligation
 *   names: `amount_due`.
 *
 * Score of a candidate, 0..1 (rounded to four places):
 *   0.4 · max(0, 1 − |days from its due date (else the invoice's issue date)| / dateWindowDays)
 *   + 0.3 · [same counterparty id on both]
 *   + 0.3 · [its invoice number or reference, in letters and digits, ≥ 3 of them, found in the description]
 *
 * Decision: the best candidate (highest score; ties by kind then id) is proposed as `propose_match` when
 * its score is at least `minScore` and exceeds the second best's by at least `margin`; else the
 * transaction is a `review_match` finding listing the top `maxListed` candidates (a person decides). A
 * one-off candidate (an invoice, or an obligation that does not recur) pays once: when it is the proposed
 * match of several transactions, the one whose score exceeds every other's by `margin` keeps it and the
 * others become `review_match`; with no such winner all of them do. A transaction with no candidate is
 * not proposed (there is nothing to match it to).
 *
 * confidence = propose_match: min(0.99, best · (1 − second / 2)); review_match: best / 2 (rounded to four
 *   places; `second` is 0 when there is one candidate).
 * evidence_score = the share of cited Ledger records (the transaction, each candidate obligation and
 *   invoice) that name at least one parsed row, rounded to four places.
 *
 * key `reconciliation:<transaction id>`; details: transaction_id, amount (unsigned, at the currency's
 * scale), currency, transaction_date; for propose_match candidate_kind, candidate_id, obligation_id,
 * invoice_id, due_date, score, runner_up_score, signals; for review_match candidates (`obligation:obl_…`,
 * `invoice:inv_…`), candidate_scores (same order), best_score, runner_up_score.
 */
import { decimalAbs, decimalCompare, decimalSign, formatAmount } from '../../../../kernel/money.ts'
import { daysBetween } from '../../../../kernel/dates.ts'
import type { AgentProgram, AgentProposal, LedgerInvoiceView, LedgerObligationView, LedgerSnapshot, LedgerTransactionView } from './program.ts'
import { byKey, citedEvidence, compact, compareText, round4, type CitedRecord } from './shared.ts'

export interface ReconciliationConfig {
  /** The best candidate must exceed the second by at least this score to be proposed as the match. */
  readonly margin: number
  /** A candidate scoring below this is never proposed as the match, only listed for review. */
  readonly minScore: number
  /** Days from the due date at which the date-proximity part of the score reaches 0. */
  readonly dateWindowDays: number
  /** Candidates listed in a review finding. */
  readonly maxListed: number
}

export const reconciliationDefaultConfig: ReconciliationConfig = { margin: 0.2, minScore: 0.3, dateWindowDays: 60, maxListed: 3 }

interface Candidate {
  readonly kind: 'obligation' | 'invoice'
  readonly id: string
  readonly obligation: LedgerObligationView | null
  readonly invoice: LedgerInvoiceView | null
  /** Pays once (an invoice, or an obligation that does not recur). */
  readonly oneOff: boolean
  readonly counterpartyId: string | null
  readonly anchorDate: string | null
  readonly references: readonly string[]
}

interface Scored {
  readonly candidate: Candidate
  readonly score: number
  readonly signals: readonly string[]
}

interface Assessment {
  readonly transaction: LedgerTransactionView
  readonly ranked: readonly Scored[]
  proposed: boolean
}

const openInvoiceStatuses: ReadonlySet<LedgerInvoiceView['status']> = new Set(['sent', 'partial', 'overdue'])

const candidateRef = (candidate: Candidate): string => `${candidate.kind}:${candidate.id}`

function candidatesOf(ledger: LedgerSnapshot): Candidate[] {
  const invoices = new Map(ledger.invoices.map((invoice) => [invoice.id, invoice]))
  const candidates: Candidate[] = []
  const named = new Set<string>()
  for (const obligation of [...ledger.obligations].sort((a, b) => compareText(a.id, b.id))) {
    if (obligation.status !== 'open' || obligation.direction === null) continue
    const invoice = obligation.invoice_id === null ? null : (invoices.get(obligation.invoice_id) ?? null)
    if (invoice !== null) named.add(invoice.id)
    candidates.push({
      kind: 'obligation',
      id: obligation.id,
      obligation,
      invoice,
      oneOff: obligation.recurrence === null && obligation.type !== 'subscription',
      counterpartyId: obligation.counterparty_id ?? invoice?.counterparty_id ?? null,
      anchorDate: obligation.due_date ?? invoice?.due_date ?? invoice?.issue_date ?? null,
      references: [obligation.reference, ...(invoice === null ? [] : [invoice.invoice_number])],
    })
  }
  for (const invoice of [...ledger.invoices].sort((a, b) => compareText(a.id, b.id))) {
    if (!openInvoiceStatuses.has(invoice.status) || named.has(invoice.id)) continue
    candidates.push({
      kind: 'invoice',
      id: invoice.id,
      obligation: null,
      invoice,
      oneOff: true,
      counterpartyId: invoice.counterparty_id,
      anchorDate: invoice.due_date ?? invoice.issue_date,
      references: [invoice.invoice_number],
    })
  }
  return candidates
}

/** The amount a candidate still expects, unsigned; undefined when nothing is open. */
function openAmount(candidate: Candidate): string | undefined {
  const amount = candidate.obligation !== null ? (candidate.obligation.outstanding ?? candidate.obligation.amount) : candidate.invoice!.amount_due
  return decimalSign(amount) > 0 ? amount : undefined
}

function candidateDirection(candidate: Candidate): 'payable' | 'receivable' | null {
  return candidate.obligation !== null ? candidate.obligation.direction : candidate.invoice!.direction
}

function candidateCurrency(candidate: Candidate): string {
  return candidate.obligation !== null ? candidate.obligation.currency : candidate.invoice!.currency
}

function score(transaction: LedgerTransactionView, candidate: Candidate, config: ReconciliationConfig): Scored {
  let total = 0
  const signals: string[] = []
  if (candidate.anchorDate !== null) {
    const apart = Math.abs(daysBetween(candidate.anchorDate, transaction.transaction_date))
    const proximity = config.dateWindowDays > 0 ? Math.max(0, 1 - apart / config.dateWindowDays) : apart === 0 ? 1 : 0
    if (proximity > 0) signals.push('date')
    total += 0.4 * proximity
  }
  if (candidate.counterpartyId !== null && candidate.counterpartyId === transaction.counterparty_id) {
    total += 0.3
    signals.push('counterparty')
  }
  const description = compact(transaction.description)
  if (candidate.references.some((reference) => compact(reference).length >= 3 && description.includes(compact(reference)))) {
    total += 0.3
    signals.push('reference')
  }
  return { candidate, score: round4(total), signals }
}

function rank(transaction: LedgerTransactionView, candidates: readonly Candidate[], config: ReconciliationConfig): Scored[] {
  const wanted = decimalSign(transaction.amount) < 0 ? 'payable' : 'receivable'
  const amount = decimalAbs(transaction.amount)
  return candidates
    .filter((candidate) => {
      if (candidateCurrency(candidate) !== transaction.currency || candidateDirection(candidate) !== wanted) return false
      const open = openAmount(candidate)
      return open !== undefined && decimalCompare(open, amount) === 0
    })
    .map((candidate) => score(transaction, candidate, config))
    .sort((a, b) => b.score - a.score || compareText(a.candidate.kind, b.candidate.kind) || compareText(a.candidate.id, b.candidate.id))
}


function candidateRecords(candidate: Candidate): CitedRecord[] {
  return [
    ...(candidate.obligation === null ? [] : [{ kind: 'obligation' as const, id: candidate.obligation.id, evidence_ids: candidate.obligation.evidence_ids }]),
    ...(candidate.invoice === null ? [] : [{ kind: 'invoice' as const, id: candidate.invoice.id, evidence_ids: candidate.invoice.evidence_ids }]),
  ]
}

function describe(candidate: Candidate): string {
  if (candidate.invoice !== null) return `${candidate.invoice.direction} invoice ${candidate.invoice.invoice_number}`
  return `${candidate.obligation!.type} ${candidate.obligation!.reference}`
}

function proposalOf(assessment: Assessment, config: ReconciliationConfig): AgentProposal {
  const { transaction, ranked } = assessment
  const amount = formatAmount(decimalAbs(transaction.amount), transaction.currency)
  const flow = decimalSign(transaction.amount) < 0 ? 'outflow' : 'inflow'
  const best = ranked[0]!
  const second = ranked[1]?.score ?? 0
  const common = { transaction_id: transaction.id, amount, currency: transaction.currency, transaction_date: transaction.transaction_date }
  const transactionRecord = { kind: 'transaction' as const, id: transaction.id, evidence_ids: transaction.evidence_ids }
  if (assessment.proposed) {
    const { evidence, evidence_score } = citedEvidence([transactionRecord, ...candidateRecords(best.candidate)])
    const candidate = best.candidate
    return {
      proposal_type: 'reconciliation',
      action_type: 'propose_match',
      key: `reconciliation:${transaction.id}`,
      confidence: round4(Math.min(0.99, best.score * (1 - second / 2))),
      evidence_score,
      narrative: `The unmatched ${flow} of ${amount} ${transaction.currency} on ${transaction.transaction_date} is most likely ${describe(candidate)}${candidate.anchorDate === null ? '' : ` (due ${candidate.anchorDate})`}: same amount${best.signals.length === 0 ? '' : `, ${best.signals.join(', ')}`} (score ${best.score}).`,
      evidence,
      details: {
        ...common,
        candidate_kind: candidate.kind,
        candidate_id: candidate.id,
        obligation_id: candidate.obligation?.id ?? null,
        invoice_id: candidate.invoice?.id ?? null,
        due_date: candidate.anchorDate,
        score: best.score,
        runner_up_score: second,
        signals: best.signals,
      },
    }
  }
  const listed = ranked.slice(0, Math.max(1, config.maxListed))
  const { evidence, evidence_score } = citedEvidence([transactionRecord, ...listed.flatMap((scored) => candidateRecords(scored.candidate))])
  return {
    proposal_type: 'reconciliation',
    action_type: 'review_match',
    key: `reconciliation:${transaction.id}`,
    confidence: round4(best.score / 2),
    evidence_score,
    narrative: `The unmatched ${flow} of ${amount} ${transaction.currency} on ${transaction.transaction_date} has ${ranked.length} candidate${ranked.length === 1 ? '' : 's'} of the same amount and none clearly best: ${listed.map((scored) => `${describe(scored.candidate)} (${scored.score})`).join(', ')}. A person decides.`,
    evidence,
    details: {
      ...common,
      candidates: listed.map((scored) => candidateRef(scored.candidate)),
      candidate_scores: listed.map((scored) => String(scored.score)),
      best_score: best.score,
      runner_up_score: second,
    },
  }
}

export function runReconciliation(ledger: LedgerSnapshot, config: ReconciliationConfig): AgentProposal[] {
  const candidates = candidatesOf(ledger)
  const assessments: Assessment[] = []
  for (const transaction of [...ledger.transactions].sort((a, b) => compareText(a.id, b.id))) {
    if (transaction.reconciliation_status !== 'unmatched') continue
    if (transaction.status !== 'posted' && transaction.status !== 'cleared') continue
    if (transaction.direction !== 'inflow' && transaction.direction !== 'outflow') continue
    if (decimalSign(transaction.amount) === 0) continue
    const ranked = rank(transaction, candidates, config)
    if (ranked.length === 0) continue
    const best = ranked[0]!
    const second = ranked[1]?.score ?? 0
    assessments.push({ transaction, ranked, proposed: best.score >= config.minScore && best.score - second >= config.margin - 1e-9 })
  }

  // A one-off candidate pays once: several transactions claiming it keep it only with a clear winner.
  const claims = new Map<string, Assessment[]>()
  for (const assessment of assessments) {
    const best = assessment.ranked[0]!
    if (!assessment.proposed || !best.candidate.oneOff) continue
    const ref = candidateRef(best.candidate)
    claims.set(ref, [...(claims.get(ref) ?? []), assessment])
  }
  for (const claimants of claims.values()) {
    if (claimants.length < 2) continue
    const ordered = [...claimants].sort((a, b) => b.ranked[0]!.score - a.ranked[0]!.score)
    const winner = ordered[0]!.ranked[0]!.score - ordered[1]!.ranked[0]!.score >= config.margin - 1e-9 ? ordered[0] : undefined
    for (const claimant of claimants) if (claimant !== winner) claimant.proposed = false
  }

  return byKey(assessments.map((assessment) => proposalOf(assessment, config)))
}

export const reconciliationProgram: AgentProgram<ReconciliationConfig> = {
  agentKey: 'reconciliation',
  version: '1',
  category: 'business',
  capabilities: ['propose_match', 'review_match'],
  defaultConfig: reconciliationDefaultConfig,
  run: runReconciliation,
}
