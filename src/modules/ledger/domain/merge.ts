/**
 * How a record changes the draft of the entity it resolved to (docs/raw-and-ledger.md: "Merging keeps
 * what is known"): a new entity's first draft, and what a record adds to an existing one. An account or
 * counterparty only gains identifiers and aliases; a transaction gains sources, evidence, an external
 * id, a counterparty named by a source over one guessed, and a later status; a balance takes a later
 * statement's figure; an invoice the latest source's fields, its paid amount never decreasing.
 *
 * Drafts are the writer's own objects: these functions fill and change them in place (no copy per
 * Ledger row); whether a draft became a new version is `nextVersion`'s decision (versions.ts).
 */
import { decimalCompare, decimalSign, decimalSubtract } from '../../../kernel/money.ts'
import type { AccountRecord, AccountRef, BalanceRecord, CounterpartyRef, InvoiceRecord, ObligationRecord } from '../../../kernel/extracted-record.ts'
import { transactionStatusRank, type TransactionMatch } from './dedupe.ts'
import type {
  Account,
  Balance,
  Counterparty,
  CounterpartyType,
  Evidence,
  Invoice,
  InvoiceStatus,
  LedgerVersion,
  Obligation,
  Provenance,
  Transaction,
  TransactionDirection,
} from './entities.ts'
import { ledgerAmount, normalizeIban, normalizeWallet } from './keys.ts'
import type { AccountReference, CounterpartyMention, TransactionFacts } from './records.ts'
import { withAdded } from './versions.ts'
import { directionFor } from './transfers.ts'

/** Confidence of a counterparty guessed from a bank description rather than named by the source. */
export const inferredCounterpartyConfidence = 0.6
/** Confidence ceiling of a transaction merged by a rule (pending → posted, cross-source match). */
export const ruleMergeConfidence = 0.9
/** Entries kept in a counterparty's alias list and in its linked accounts. */
export const aliasesMax = 20
/** Line items an invoice keeps in its metadata. */
export const lineItemsMax = 200

/** Counterparty types from weakest to strongest evidence: an invoice's vendor beats a card merchant. */
export const counterpartyTypeRank: Readonly<Record<CounterpartyType, number>> = {
  other: 0,
  merchant: 1,
  bank: 2,
  exchange: 2,
  agent: 2,
  wallet: 2,
  vendor: 3,
  customer: 3,
  employer: 3,
  employee: 3,
  tax_authority: 3,
}

/** For whom and when drafts are made: the tenant, and the batch's time (a new entity's created_at and updated_at). */
export interface DraftContext {
  readonly tenantId: string
  readonly at: Date
}

/** The bookkeeping and provenance of a new entity's first draft, citing the row it comes from. */
export function firstDraft(context: DraftContext, id: string, evidence: Evidence, provenance: Provenance, confidence: number, metadata: Record<string, unknown> = {}) {
  return {
    versionId: '',
    id,
    tenantId: context.tenantId,
    version: 0,
    supersedes: null,
    sourceIds: [evidence.rawArtifactId],
    evidenceIds: [evidence.id],
    provenance,
    confidence,
    metadata,
    createdAt: context.at,
    updatedAt: context.at,
    supersededAt: null,
  }
}

/** Adds a row as evidence of a draft (its artifact to `source_ids`, the row to `evidence_ids`). */
export function cite(draft: Pick<LedgerVersion, 'sourceIds' | 'evidenceIds'>, evidence: Evidence): void {
  draft.sourceIds = withAdded(draft.sourceIds, [evidence.rawArtifactId])
  draft.evidenceIds = withAdded(draft.evidenceIds, [evidence.id])
}

// ——— accounts ———

/** An account number as shown: its last four digits. */
export function maskAccountNumber(number: string): string {
  const digits = number.replace(/[\s-]+/g, '')
  return digits.length <= 4 ? digits : `••••${digits.slice(-4)}`
}

/** An account's name: the one the source gives, else its wallet, else its institution and number's last four digits. */
export function accountDisplayName(ref: AccountRef, institution: string | undefined): string {
  if (ref.name !== undefined && ref.name.trim() !== '') return ref.name.trim()
  if (ref.wallet_address !== undefined) return `Wallet ${normalizeWallet(ref.wallet_address).slice(0, 10)}…`
  const number = ref.iban ?? ref.account_number ?? ref.external_account_id ?? ''
  const tail = number.replace(/[\s-]+/g, '').slice(-4)
  return [institution, `account ${tail}`].filter((part) => part !== undefined && part !== '').join(' ')
}

/** A new account's first draft, from the first record that names it (an account record sets its type and status). */
export function newAccount(context: DraftContext, id: string, evidence: Evidence, reference: AccountReference, accountRecord: AccountRecord | undefined): Account {
  return {
    ...firstDraft(context, id, evidence, 'extracted', evidence.confidence),
    accountType: accountRecord?.account_type ?? (reference.ref.wallet_address === undefined ? 'bank_checking' : 'onchain'),
    status: accountRecord?.status ?? 'active',
    name: accountDisplayName(reference.ref, accountRecord?.institution),
    institution: accountRecord?.institution ?? null,
    currency: reference.ref.currency ?? reference.currency ?? 'XXX',
    externalAccountId: null,
    iban: null,
    accountNumberMasked: null,
    walletAddress: null,
    chainId: null,
  } satisfies Account
}

/**
 * Fills what the account does not know yet (identifiers, chain, a currency for `XXX`); an account record
 * also sets its type, status, institution and name. The account cites the rows that defined it, not
 * every transaction that names it.
 */
export function mergeAccount(draft: Account, ref: AccountRef, accountRecord: AccountRecord | undefined, evidence: Evidence): void {
  let changed = false
  const fill = <K extends 'externalAccountId' | 'iban' | 'accountNumberMasked' | 'walletAddress'>(field: K, value: string | undefined) => {
    if (draft[field] !== null || value === undefined) return
    draft[field] = value
    changed = true
  }
  fill('externalAccountId', ref.external_account_id)
  fill('iban', ref.iban === undefined ? undefined : normalizeIban(ref.iban))
  fill('accountNumberMasked', ref.account_number === undefined ? undefined : maskAccountNumber(ref.account_number))
  fill('walletAddress', ref.wallet_address === undefined ? undefined : normalizeWallet(ref.wallet_address))
  if (draft.chainId === null && ref.chain_id !== undefined) {
    draft.chainId = ref.chain_id
    changed = true
  }
  if (draft.currency === 'XXX' && ref.currency !== undefined) {
    draft.currency = ref.currency
    changed = true
  }
  if (accountRecord !== undefined) {
    if (accountRecord.account_type !== undefined) draft.accountType = accountRecord.account_type
    if (accountRecord.status !== undefined) draft.status = accountRecord.status
    if (accountRecord.institution !== undefined) draft.institution = accountRecord.institution
    if (ref.name !== undefined && ref.name.trim() !== '') draft.name = ref.name.trim()
  }
  if (changed || accountRecord !== undefined) cite(draft, evidence)
}

// ——— counterparties ———

/** A counterparty's name: the one the source gives (single spaces), else its wallet, IBAN, e-mail, tax id or number. */
export function counterpartyDisplayName(ref: CounterpartyRef): string {
  if (ref.name !== undefined && ref.name.trim() !== '') return ref.name.trim().replace(/\s+/g, ' ')
  if (ref.wallet_address !== undefined) return normalizeWallet(ref.wallet_address)
  if (ref.iban !== undefined) return normalizeIban(ref.iban)
  return ref.email ?? ref.tax_id ?? ref.account_number ?? 'Unknown'
}

/** The accounts a counterparty reference names (`iban:`, `wallet:`, `account:`), as a counterparty lists them. */
export function linkedAccountsOf(ref: CounterpartyRef): string[] {
  return [
    ref.iban === undefined ? undefined : `iban:${normalizeIban(ref.iban)}`,
    ref.wallet_address === undefined ? undefined : `wallet:${normalizeWallet(ref.wallet_address)}`,
    ref.account_number === undefined ? undefined : `account:${ref.account_number.replace(/[\s-]+/g, '')}`,
  ].filter((value): value is string => value !== undefined)
}

/** A new counterparty's first draft: unverified, unreviewed, and of medium risk until screened or reviewed. */
export function newCounterparty(context: DraftContext, id: string, evidence: Evidence, mention: CounterpartyMention): Counterparty {
  return {
    ...firstDraft(context, id, evidence, mention.inferred ? 'inferred' : 'extracted', mention.inferred ? inferredCounterpartyConfidence : evidence.confidence),
    name: counterpartyDisplayName(mention.ref),
    type: mention.type,
    verifiedStatus: 'unverified',
    // Not assessed is not low risk: screening or a member's review lowers it.
    riskLevel: 'medium',
    trustState: 'unreviewed',
    aliases: [],
    linkedAccounts: [],
  } satisfies Counterparty
}

/**
 * New aliases, linked accounts, a stronger type, or a source naming a counterparty that was guessed
 * from a description change its identity: the draft changes (a new version) and cites the row.
 */
export function mergeCounterparty(draft: Counterparty, mention: CounterpartyMention, evidence: Evidence): void {
  const name = counterpartyDisplayName(mention.ref)
  const linked = linkedAccountsOf(mention.ref)
  const strongerType = counterpartyTypeRank[mention.type] > counterpartyTypeRank[draft.type]
  const named = draft.provenance === 'inferred' && !mention.inferred
  // The common case, a counterparty seen again as it is known: nothing to change, nothing to allocate.
  if (!strongerType && !named && draft.aliases.includes(name) && linked.every((account) => draft.linkedAccounts.includes(account))) return
  const aliases = withAdded(draft.aliases, [name], aliasesMax)
  const linkedAccounts = withAdded(draft.linkedAccounts, linked, aliasesMax)
  if (aliases.length === draft.aliases.length && linkedAccounts.length === draft.linkedAccounts.length && !strongerType && !named) return
  draft.aliases = aliases
  draft.linkedAccounts = linkedAccounts
  if (strongerType) draft.type = mention.type
  if (named) {
    // A source that names the counterparty replaces a guess from a description.
    draft.provenance = 'extracted'
    draft.confidence = Math.max(draft.confidence, evidence.confidence)
    draft.name = name
  }
  cite(draft, evidence)
}

// ——— transactions ———

/** Slug of a source's category label: `Software & SaaS` → `software_saas`; null for none. */
export function categoryId(category: string | undefined): string | null {
  if (category === undefined) return null
  const slug = category
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
  return slug === '' ? null : slug
}

/**
 * A new transaction's direction: a transfer when its counterparty is another of the tenant's accounts
 * (`ownAccountId`, found by ownAccountKeysOf), otherwise by the amount's sign.
 */
export function transactionDirection(amount: string, accountId: string, ownAccountId: string | undefined): TransactionDirection {
  // The one rule (domain/transfers.ts), which reconciliation applies again once later accounts exist.
  return directionFor(amount, accountId, [ownAccountId])
}

/**
 * A new transaction's first draft. An ambiguous one (more than one candidate it could be a copy of) is
 * kept apart with the candidates in `possible_duplicate_of`; a counterparty guessed from the description
 * is marked `counterparty_inferred`.
 */
export function newTransaction(
  context: DraftContext,
  id: string,
  evidence: Evidence,
  facts: TransactionFacts,
  accountId: string,
  counterpartyId: string | undefined,
  direction: TransactionDirection,
  resolution: { readonly match: TransactionMatch; readonly candidates: readonly string[] },
): Transaction {
  const ambiguous = resolution.match === 'ambiguous'
  const metadata: Record<string, unknown> = {}
  if (facts.details !== undefined) metadata.details = facts.details
  if (facts.category !== undefined) metadata.category = facts.category
  if (facts.counterparty === undefined && counterpartyId !== undefined) metadata.counterparty_inferred = true
  if (ambiguous) metadata.possible_duplicate_of = resolution.candidates
  // One literal (no spreads): this runs for every new transaction, and the shape stays fast.
  return {
    versionId: '',
    id,
    tenantId: context.tenantId,
    version: 0,
    supersedes: null,
    sourceIds: [evidence.rawArtifactId],
    evidenceIds: [evidence.id],
    provenance: ambiguous ? 'ambiguous' : 'extracted',
    confidence: evidence.confidence,
    metadata,
    createdAt: context.at,
    updatedAt: context.at,
    supersededAt: null,
    accountId,
    externalTransactionId: facts.externalId ?? null,
    amount: facts.amount,
    currency: facts.currency,
    direction,
    transactionDate: facts.transactionDate,
    postedDate: facts.postedDate ?? (facts.status === 'pending' ? null : facts.transactionDate),
    counterpartyId: counterpartyId ?? null,
    categoryId: categoryId(facts.category),
    status: facts.status,
    description: facts.description,
    descriptionNormalized: facts.descriptionNormalized,
    reconciliationStatus: 'unmatched',
  }
}

/**
 * What a record adds to a transaction it resolved to: its source and evidence, an external id, a later
 * status (the posted record of a pending one also brings its description, posted date and external id),
 * a counterparty named by a source over one guessed, details and category when missing. A merge by rule
 * (pending → posted, cross-source) is `inferred` with its confidence capped at `ruleMergeConfidence`, and
 * stays capped however its sources are found again, so the outcome does not depend on the order they are
 * normalized in.
 */
export function mergeTransaction(draft: Transaction, facts: TransactionFacts, evidence: Evidence, counterpartyId: string | undefined, match: TransactionMatch): void {
  const counterpartyInferred = facts.counterparty === undefined
  cite(draft, evidence)
  if (draft.externalTransactionId === null && facts.externalId !== undefined) draft.externalTransactionId = facts.externalId
  if (transactionStatusRank[facts.status] > transactionStatusRank[draft.status]) {
    const settles = draft.status === 'pending'
    draft.status = facts.status
    if (settles) {
      // The posted record is the final word on how the bank describes it and when it settled.
      draft.postedDate = facts.postedDate ?? facts.transactionDate
      draft.description = facts.description
      draft.descriptionNormalized = facts.descriptionNormalized
      if (facts.externalId !== undefined) draft.externalTransactionId = facts.externalId
    }
  }
  draft.postedDate ??= facts.postedDate ?? null
  const metadata = { ...(draft.metadata as Record<string, unknown>) }
  if (counterpartyId !== undefined && (draft.counterpartyId === null || (metadata.counterparty_inferred === true && !counterpartyInferred))) {
    draft.counterpartyId = counterpartyId
    if (!counterpartyInferred) delete metadata.counterparty_inferred
  }
  draft.categoryId ??= categoryId(facts.category)
  if (metadata.details === undefined && facts.details !== undefined) metadata.details = facts.details
  if (metadata.category === undefined && facts.category !== undefined) metadata.category = facts.category
  if (match === 'pending' || match === 'fuzzy') {
    draft.provenance = draft.provenance === 'human_confirmed' ? draft.provenance : 'inferred'
    draft.confidence = Math.min(Math.max(draft.confidence, evidence.confidence), ruleMergeConfidence)
    metadata.merged_by = withAdded(Array.isArray(metadata.merged_by) ? (metadata.merged_by as string[]) : [], [match === 'pending' ? 'pending_to_posted' : 'cross_source_match'])
  } else {
    // A merged transaction stays capped however its sources are found again, so the outcome does not
    // depend on the order they are normalized in (re-normalizing the pending statement changes nothing).
    const confidence = Math.max(draft.confidence, evidence.confidence)
    draft.confidence = draft.provenance === 'inferred' && Array.isArray(metadata.merged_by) ? Math.min(confidence, ruleMergeConfidence) : confidence
  }
  draft.metadata = metadata
}

// ——— balances, invoices, obligations ———

/**
 * A balance record applied to its draft (undefined: the balance is new): a later statement stating
 * another figure for the same day is the correction. Returns the draft, the new one when there was none.
 */
export function applyBalance(existing: Balance | undefined, context: DraftContext, id: string, evidence: Evidence, record: BalanceRecord, accountId: string): Balance {
  const amount = ledgerAmount(record.amount, record.currency)
  const draft =
    existing ??
    ({
      ...firstDraft(context, id, evidence, 'extracted', evidence.confidence),
      accountId,
      balanceType: record.balance_type,
      asOf: record.as_of,
      amount,
      currency: record.currency,
    } satisfies Balance)
  if (draft.amount !== amount || draft.currency !== record.currency) {
    draft.amount = amount
    draft.currency = record.currency
    draft.provenance = 'extracted'
    draft.confidence = evidence.confidence
  }
  cite(draft, evidence)
  return draft
}

/**
 * An invoice's paid amount and status. A document marked paid without a paid amount was paid in full;
 * paid amounts only grow (an older copy of the invoice does not undo a payment recorded since).
 * Payments decide paid and partial; otherwise the source's status (draft, sent, overdue, disputed,
 * cancelled) stands, and cancelled or disputed always does.
 */
export function invoicePayment(record: InvoiceRecord, knownAmountPaid: string | undefined): { total: string; amountPaid: string; outstanding: string; status: InvoiceStatus } {
  const currency = record.currency
  const total = ledgerAmount(record.total, currency)
  const statedPaid = record.amount_paid !== undefined ? ledgerAmount(record.amount_paid, currency) : record.status === 'paid' ? total : ledgerAmount('0', currency)
  const amountPaid = knownAmountPaid !== undefined && decimalCompare(knownAmountPaid, statedPaid) > 0 ? knownAmountPaid : statedPaid
  const outstanding = decimalSubtract(total, amountPaid)
  const byPayments: InvoiceStatus | undefined = decimalSign(outstanding) <= 0 ? 'paid' : decimalSign(amountPaid) > 0 ? 'partial' : undefined
  const status: InvoiceStatus =
    record.status === 'cancelled' || record.status === 'disputed' ? record.status : (byPayments ?? (record.status === 'paid' || record.status === 'partial' ? 'sent' : (record.status ?? 'sent')))
  return { total, amountPaid, outstanding, status }
}

/**
 * An invoice record applied to its draft and to the obligation every invoice also is (a bill to pay, an
 * invoice to collect): the latest source is the invoice's current state (a due date moved, a payment
 * recorded), and the obligation follows it (settled when paid, cancelled when cancelled, with what is
 * outstanding). Returns both drafts, new ones where there were none.
 */
export function applyInvoice(
  existing: Invoice | undefined,
  existingObligation: Obligation | undefined,
  context: DraftContext,
  ids: { readonly invoiceId: string; readonly obligationId: string },
  evidence: Evidence,
  record: InvoiceRecord,
  counterpartyId: string | undefined,
): { invoice: Invoice; obligation: Obligation } {
  const currency = record.currency
  const { total, amountPaid, outstanding, status } = invoicePayment(record, existing?.amountPaid)
  const scenario = record.direction === 'receivable' ? 'ar' : 'ap'
  const fields = {
    direction: record.direction,
    invoiceNumber: record.invoice_number.trim(),
    issueDate: record.issue_date ?? null,
    dueDate: record.due_date ?? null,
    currency,
    total,
    subtotal: record.subtotal === undefined ? null : ledgerAmount(record.subtotal, currency),
    tax: record.tax === undefined ? null : ledgerAmount(record.tax, currency),
    amountPaid,
    status,
    counterpartyId: counterpartyId ?? null,
  }
  const metadata = { scenario, ...(record.line_items === undefined ? {} : { line_items: record.line_items.slice(0, lineItemsMax) }) }
  let invoice: Invoice
  if (existing === undefined) {
    invoice = { ...firstDraft(context, ids.invoiceId, evidence, 'extracted', evidence.confidence, metadata), ...fields } satisfies Invoice
  } else {
    invoice = existing
    Object.assign(invoice, fields)
    invoice.metadata = { ...(invoice.metadata as Record<string, unknown>), ...metadata }
    invoice.confidence = evidence.confidence
    cite(invoice, evidence)
  }

  const obligationFields = {
    obligationType: record.direction === 'payable' ? ('bill' as const) : ('invoice' as const),
    direction: record.direction,
    reference: fields.invoiceNumber,
    description: `${record.direction === 'payable' ? 'Bill' : 'Invoice'} ${fields.invoiceNumber}`,
    amount: total,
    currency,
    dueDate: fields.dueDate,
    recurrence: null,
    status: status === 'paid' ? ('settled' as const) : status === 'cancelled' ? ('cancelled' as const) : ('open' as const),
    counterpartyId: counterpartyId ?? null,
    invoiceId: ids.invoiceId,
  }
  // What the sources themselves say was paid (the most any copy said), apart from what reconciliation
  // finds: reconciliation decides the obligation's payments against the rest (payments.ts).
  const sourcePaid = [invoicePayment(record, undefined).amountPaid, sourcePaidOf(existingObligation)].reduce((most, paid) => (decimalCompare(paid, most) > 0 ? paid : most))
  const obligationMetadata = {
    scenario,
    // `0` when nothing is outstanding, as reconciliation writes it (reconcile.ts): the same Ledger whichever
    // settled it first (an invoice marked paid or a matched payment). A cancelled invoice owes nothing (its
    // amount_due is 0 too).
    outstanding: decimalSign(outstanding) <= 0 || status === 'cancelled' ? '0' : ledgerAmount(outstanding, currency),
    ...(decimalSign(sourcePaid) > 0 ? { source_paid: ledgerAmount(sourcePaid, currency) } : {}),
  }
  let obligation: Obligation
  if (existingObligation === undefined) {
    obligation = { ...firstDraft(context, ids.obligationId, evidence, 'extracted', evidence.confidence, obligationMetadata), ...obligationFields } satisfies Obligation
  } else {
    obligation = existingObligation
    Object.assign(obligation, obligationFields)
    obligation.metadata = { ...(obligation.metadata as Record<string, unknown>), ...obligationMetadata }
    cite(obligation, evidence)
  }
  return { invoice, obligation }
}

/** What the sources of an invoice's obligation said was paid (`metadata.source_paid`; `0` when none did). */
export function sourcePaidOf(obligation: { readonly metadata: unknown } | undefined): string {
  const stated = (obligation?.metadata as Record<string, unknown> | undefined)?.source_paid
  return typeof stated === 'string' ? stated : '0'
}

/**
 * An obligation record applied to its draft (undefined: new). `invoiceId`: the invoice the record names,
 * when that invoice exists, else null. A later source updates the obligation's terms, but its status
 * (settled by reconciliation) and a link to an invoice stay.
 */
export function applyObligation(
  existing: Obligation | undefined,
  context: DraftContext,
  id: string,
  evidence: Evidence,
  record: ObligationRecord,
  counterpartyId: string | undefined,
  invoiceId: string | null,
): Obligation {
  const fields = {
    obligationType: record.obligation_type,
    direction: record.direction,
    reference: record.reference,
    description: record.description ?? null,
    amount: ledgerAmount(record.amount, record.currency),
    currency: record.currency,
    dueDate: record.due_date ?? null,
    recurrence: record.recurrence ?? null,
    status: 'open' as const,
    counterpartyId: counterpartyId ?? null,
    invoiceId,
  }
  const metadata = record.direction === null ? {} : { scenario: record.direction === 'receivable' ? 'ar' : 'ap' }
  if (existing === undefined) return { ...firstDraft(context, id, evidence, 'extracted', evidence.confidence, metadata), ...fields } satisfies Obligation
  Object.assign(existing, { ...fields, status: existing.status, invoiceId: fields.invoiceId ?? existing.invoiceId })
  existing.metadata = { ...(existing.metadata as Record<string, unknown>), ...metadata }
  existing.confidence = evidence.confidence
  cite(existing, evidence)
  return existing
}
