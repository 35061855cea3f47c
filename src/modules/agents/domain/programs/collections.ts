/**
 * Collections (issue 18, item 3): receivables past their due date, each a `collections` finding with the
 * stored action `remind` and a stage by how long it is overdue.
 *
 * Found:
 * - receivable invoices past due (today after due_date), amount_due > 0, status not paid, cancelled or
 *   disputed, nor a draft (an invoice never sent has nothing to remind of), whose obligation (when one
 *   names the invoice) is still open with something outstanding; key `collections:<invoice id>`;
 * - open receivable obligations with no invoice (none named, or one the snapshot does not show) past
 *   due with something outstanding (metadata.outstanding, else the amount); key `collections:<obligation id>`.
 *   Recurring ones are left out: the Ledger does not settle their past occurrences, so an overdue one
 *   cannot be told from a paid one.
 * Nothing without a due date is overdue.
 *
 * Stage by days overdue: `friendly` from 1 day, `firm` from config.firmAfterDays (15), `final` from
 * config.finalAfterDays (45); only findings at least config.minimumDaysOverdue (1) days overdue.
 *
 * confidence = 0.55 + 0.20·[an invoice, not a bare obligation] + 0.10·[the customer is a counterparty
 *   the snapshot shows] + 0.10·[every cited record has evidence], at most 0.95, rounded to two places.
 * evidence_score = the share of cited Ledger records (invoice, obligation, counterparty) that name at
 *   least one parsed row, rounded to two places.
 */
import { decimalSign, formatAmount } from '../../../../kernel/money.ts'
import { daysBetween } from '../../../../kernel/dates.ts'
import {
  byKey,
  compareText,
  displayAmount,
  evidenceOf,
  evidenceShare,
  isOpenInvoice,
  obligationDirection,
  obligationOutstanding,
  score,
} from './shared.ts'
import type { AgentProgram, AgentProposal, Amount, CalendarDate, EvidenceRef, LedgerCounterpartyView, LedgerInvoiceView, LedgerObligationView, LedgerSnapshot } from './program.ts'

export interface CollectionsConfig {
  /** Findings start at this many days overdue. */
  readonly minimumDaysOverdue: number
  /** From this many days overdue the reminder is firm. */
  readonly firmAfterDays: number
  /** From this many days overdue it is a final notice. */
  readonly finalAfterDays: number
}

export type CollectionsStage = 'friendly' | 'firm' | 'final'

/** The stage of a reminder `daysOverdue` days after the due date. */
export function collectionsStage(daysOverdue: number, config: CollectionsConfig): CollectionsStage {
  if (daysOverdue >= config.finalAfterDays) return 'final'
  if (daysOverdue >= config.firmAfterDays) return 'firm'
  return 'friendly'
}

const stageWords: Readonly<Record<CollectionsStage, string>> = {
  friendly: 'Send a friendly reminder.',
  firm: 'Send a firm reminder.',
  final: 'Send a final notice.',
}

interface Receivable {
  readonly key: string
  readonly invoice: LedgerInvoiceView | undefined
  readonly obligation: LedgerObligationView | undefined
  readonly reference: string
  readonly amountDue: Amount
  readonly currency: string
  readonly due: CalendarDate
  readonly counterpartyId: string | null
}

function receivablesOf(ledger: LedgerSnapshot): Receivable[] {
  const found: Receivable[] = []
  const obligationsByInvoice = new Map<string, LedgerObligationView[]>()
  for (const obligation of ledger.obligations) {
    if (obligation.invoice_id !== null) obligationsByInvoice.set(obligation.invoice_id, [...(obligationsByInvoice.get(obligation.invoice_id) ?? []), obligation])
  }
  for (const invoice of ledger.invoices) {
    // Not paid, cancelled, disputed or a draft, and amount_due > 0.
    if (invoice.direction !== 'receivable' || invoice.due_date === null || !isOpenInvoice(invoice)) continue
    const obligations = (obligationsByInvoice.get(invoice.id) ?? []).slice().sort((a, b) => compareText(a.id, b.id))
    // Reconciliation settles the obligation when it finds the payment: that is collected.
    if (obligations.some((obligation) => decimalSign(obligationOutstanding(obligation)) <= 0)) continue
    found.push({
      key: `collections:${invoice.id}`,
      invoice,
      obligation: obligations[0],
      reference: invoice.invoice_number,
      amountDue: invoice.amount_due,
      currency: invoice.currency,
      due: invoice.due_date,
      counterpartyId: invoice.counterparty_id ?? obligations[0]?.counterparty_id ?? null,
    })
  }
  const invoiceIds = new Set(ledger.invoices.map((invoice) => invoice.id))
  for (const obligation of ledger.obligations) {
    if (obligationDirection(obligation) !== 'receivable' || obligation.recurrence !== null || obligation.due_date === null) continue
    if (obligation.invoice_id !== null && invoiceIds.has(obligation.invoice_id)) continue // the invoice speaks for it
    const outstanding = obligationOutstanding(obligation)
    if (decimalSign(outstanding) <= 0) continue
    found.push({
      key: `collections:${obligation.id}`,
      invoice: undefined,
      obligation,
      reference: obligation.reference,
      amountDue: outstanding,
      currency: obligation.currency,
      due: obligation.due_date,
      counterpartyId: obligation.counterparty_id,
    })
  }
  return found
}

function runCollections(ledger: LedgerSnapshot, given: CollectionsConfig): AgentProposal[] {
  const config = { ...collectionsProgram.defaultConfig, ...given }
  const counterparties = new Map(ledger.counterparties.map((counterparty) => [counterparty.id, counterparty]))
  const proposals: AgentProposal[] = []
  for (const receivable of receivablesOf(ledger)) {
    const daysOverdue = daysBetween(receivable.due, ledger.today)
    if (daysOverdue < Math.max(1, config.minimumDaysOverdue)) continue
    const stage = collectionsStage(daysOverdue, config)
    const counterparty: LedgerCounterpartyView | undefined = receivable.counterpartyId === null ? undefined : counterparties.get(receivable.counterpartyId)
    const cited: Array<{ kind: EvidenceRef['kind']; record: { id: string; evidence_ids: readonly string[] } }> = [
      ...(receivable.invoice === undefined ? [] : [{ kind: 'invoice' as const, record: receivable.invoice }]),
      ...(receivable.obligation === undefined ? [] : [{ kind: 'obligation' as const, record: receivable.obligation }]),
      ...(counterparty === undefined ? [] : [{ kind: 'counterparty' as const, record: counterparty }]),
    ]
    const everyCited = cited.every(({ record }) => record.evidence_ids.length > 0)
    const confidence = score(0.55 + (receivable.invoice !== undefined ? 0.2 : 0) + (counterparty !== undefined ? 0.1 : 0) + (everyCited ? 0.1 : 0), 0, 0.95)
    const what = receivable.invoice !== undefined ? `Invoice ${receivable.reference}` : `Receivable ${receivable.reference}`
    const whom = counterparty === undefined ? '' : ` to ${counterparty.name}`
    const days = daysOverdue === 1 ? '1 day' : `${daysOverdue} days`
    proposals.push({
      proposal_type: 'collections',
      action_type: 'remind',
      key: receivable.key,
      confidence,
      evidence_score: evidenceShare(cited.map(({ record }) => record)),
      narrative: `${what}${whom} is ${days} overdue: ${displayAmount(receivable.amountDue, receivable.currency)} ${receivable.currency} was due ${receivable.due}. ${stageWords[stage]}`,
      evidence: evidenceOf(cited),
      details: {
        invoice_id: receivable.invoice?.id ?? null,
        obligation_id: receivable.obligation?.id ?? null,
        days_overdue: daysOverdue,
        amount_due: formatAmount(receivable.amountDue, receivable.currency),
        currency: receivable.currency,
        counterparty_id: counterparty?.id ?? receivable.counterpartyId,
        due_date: receivable.due,
        stage,
      },
    })
  }
  return byKey(proposals)
}

export const collectionsProgram: AgentProgram<CollectionsConfig> = {
  agentKey: 'collections',
  version: '1',
  category: 'business',
  capabilities: ['remind'],
  defaultConfig: { minimumDaysOverdue: 1, firmAfterDays: 15, finalAfterDays: 45 },
  run: runCollections,
}
