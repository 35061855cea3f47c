/**
 * Evidence refs (spec, "Proposals and evidence"): which kinds resolve, which are known but unsupported,
 * and which refs are malformed. Pure; the service looks the well-formed supported refs up.
 */
import { idPrefixes } from '../../../kernel/ids.ts'

/** Kinds POST /v1/evidence/resolve looks up, with the id prefix their refs carry. */
export const resolvableEvidenceKinds = ['account', 'counterparty', 'invoice', 'obligation', 'transaction', 'wiki_entity'] as const
export type ResolvableEvidenceKind = (typeof resolvableEvidenceKinds)[number]

/** Refs per call, at most (spec, Limits). */
export const evidenceRefsMax = 50

const ledgerPrefixes: Readonly<Record<Exclude<ResolvableEvidenceKind, 'wiki_entity'>, string>> = {
  account: idPrefixes.account,
  counterparty: idPrefixes.counterparty,
  invoice: idPrefixes.invoice,
  obligation: idPrefixes.obligation,
  transaction: idPrefixes.transaction,
}
/** A Wiki entity is a Ledger record seen through the Wiki: any Ledger record's id. */
const wikiEntityPrefixes = [idPrefixes.account, idPrefixes.balance, idPrefixes.counterparty, idPrefixes.transaction, idPrefixes.invoice, idPrefixes.obligation, idPrefixes.reconciliationMatch]

const idBody = /^[0-9A-Za-z][0-9A-Za-z_-]{0,127}$/

export type RefClass = { readonly ok: true; readonly kind: ResolvableEvidenceKind } | { readonly ok: false; readonly reason: 'unsupported_kind' | 'malformed_ref' }

function hasPrefix(ref: string, prefix: string): boolean {
  return ref.startsWith(`${prefix}_`) && idBody.test(ref.slice(prefix.length + 1))
}

export function isResolvableKind(kind: string): kind is ResolvableEvidenceKind {
  return (resolvableEvidenceKinds as readonly string[]).includes(kind)
}

/**
 * A ref of a kind the service does not resolve (document, payment_intent, policy, raw_artifact,
 * parsed_row, any other) is unsupported_kind, whatever the ref; a supported kind whose ref is not an id
 * of that kind (wrong prefix, empty, control characters, over 160 characters) is malformed_ref.
 */
export function classifyRef(kind: string, ref: string): RefClass {
  if (!isResolvableKind(kind)) return { ok: false, reason: 'unsupported_kind' }
  if (ref.length === 0 || ref.length > 160) return { ok: false, reason: 'malformed_ref' }
  const wellFormed = kind === 'wiki_entity' ? wikiEntityPrefixes.some((prefix) => hasPrefix(ref, prefix)) : hasPrefix(ref, ledgerPrefixes[kind])
  return wellFormed ? { ok: true, kind } : { ok: false, reason: 'malformed_ref' }
}

/** Where a resolved ref is read in full (a path of this API). */
export function deepLinkOf(kind: ResolvableEvidenceKind, ref: string): string {
  const id = encodeURIComponent(ref)
  switch (kind) {
    case 'account':
      return `/v1/ledger/accounts/${id}`
    case 'counterparty':
      return `/v1/ledger/counterparties/${id}`
    case 'invoice':
      return `/v1/ledger/invoices/${id}`
    case 'obligation':
      return `/v1/ledger/obligations/${id}`
    case 'transaction':
      return `/v1/ledger/transactions/${id}`
    case 'wiki_entity':
      return `/v1/wiki/entity/${id}`
  }
}

const text = (record: Readonly<Record<string, unknown>>, key: string): string | undefined => {
  const value = record[key]
  return typeof value === 'string' && value.length > 0 ? value : typeof value === 'number' ? String(value) : undefined
}

/** One line a person reads about a Ledger record (its wire view, as the Ledger's read API shows it). */
export function summaryOf(kind: string, record: Readonly<Record<string, unknown>>): string {
  const currency = text(record, 'currency') ?? ''
  switch (kind) {
    case 'account':
      return `Account ${text(record, 'name') ?? text(record, 'id')} (${text(record, 'account_type') ?? 'account'}, ${currency}, ${text(record, 'status') ?? 'unknown status'})`
    case 'counterparty':
      return `Counterparty ${text(record, 'name') ?? text(record, 'id')} (${text(record, 'type') ?? 'other'}, ${text(record, 'verified_status') ?? 'unverified'}, risk ${text(record, 'risk_level') ?? 'unknown'})`
    case 'invoice':
      return `Invoice ${text(record, 'invoice_number') ?? text(record, 'id')} (${text(record, 'direction') ?? ''}): ${text(record, 'amount_due') ?? text(record, 'total') ?? '?'} ${currency} due ${text(record, 'due_date') ?? 'no due date'}, ${text(record, 'status') ?? ''}`.trim()
    case 'obligation':
      return `Obligation ${text(record, 'description') ?? text(record, 'reference') ?? text(record, 'id')} (${text(record, 'type') ?? 'other'}): ${text(record, 'amount') ?? '?'} ${currency} due ${text(record, 'due_date') ?? 'no due date'}, ${text(record, 'status') ?? ''}`.trim()
    case 'transaction':
      return `Transaction of ${text(record, 'amount') ?? '?'} ${currency} on ${text(record, 'transaction_date') ?? '?'}: ${text(record, 'description_normalized') ?? text(record, 'description') ?? ''} (${text(record, 'status') ?? ''})`.trim()
    default:
      return `${kind} ${text(record, 'id') ?? ''}`.trim()
  }
}
