/**
 * Which source types the generic ingest route accepts, and which are reserved for authenticated
 * provider integrations (spec, "Raw artifact and parsed row"). Pure.
 */

/** The spec's source_type values (src/platform/db/schema.ts uses this list for the column's enum). */
export const sourceTypes = [
  'bank_provider',
  'card_processor',
  'erp_provider',
  'accounting_provider',
  'payroll_provider',
  'email_inbound',
  'csv_upload',
  'pdf_upload',
  'chain_indexer_wallet',
  'eth_address',
  'agent_contributed',
  'wiki_annotation',
  'other',
] as const
export type SourceType = (typeof sourceTypes)[number]

/**
 * Never accepted by POST /v1/raw/ingest (403 raw_source_reserved): the spec's five provider-authenticated
 * values plus the chain indexer arrive only through signed provider webhooks, and `wiki_annotation` is
 * written by the Wiki layer itself.
 */
export const reservedSourceTypes: readonly SourceType[] = [
  'bank_provider',
  'card_processor',
  'erp_provider',
  'accounting_provider',
  'payroll_provider',
  'chain_indexer_wallet',
  'wiki_annotation',
]

export const ingestibleSourceTypes: readonly SourceType[] = sourceTypes.filter((type) => !reservedSourceTypes.includes(type))

export type SourceTypeCheck =
  | { readonly ok: true; readonly sourceType: SourceType }
  | { readonly ok: false; readonly problem: 'unsupported' | 'reserved' }

export function checkIngestSourceType(value: string): SourceTypeCheck {
  if (!(sourceTypes as readonly string[]).includes(value)) return { ok: false, problem: 'unsupported' }
  const sourceType = value as SourceType
  return reservedSourceTypes.includes(sourceType) ? { ok: false, problem: 'reserved' } : { ok: true, sourceType }
}

/** The providers of POST /v1/raw/webhooks/{provider} (spec enum). */
export const providers = ['bank_provider', 'card_processor', 'chain_indexer', 'erp_provider', 'generic_hmac'] as const
export type Provider = (typeof providers)[number]

/** The source_type of an artifact a provider webhook delivers (generic_hmac: see `genericSourceType`). */
export const providerSourceTypes: Readonly<Record<Provider, SourceType>> = {
  bank_provider: 'bank_provider',
  card_processor: 'card_processor',
  chain_indexer: 'chain_indexer_wallet',
  erp_provider: 'erp_provider',
  generic_hmac: 'other',
}

/**
 * The source_type of a generic_hmac delivery: the reserved types that have no webhook of their own
 * (payroll_provider, accounting_provider) arrive through generic_hmac, named by the payload's `schema`
 * (docs/provider-payloads.md), which the HMAC covers. Anything else is `other`.
 */
export function genericSourceType(payload: unknown): SourceType {
  const schema = typeof payload === 'object' && payload !== null ? (payload as { schema?: unknown }).schema : undefined
  if (schema === 'steward.payroll_provider.v1') return 'payroll_provider'
  if (schema === 'steward.accounting_provider.v1') return 'accounting_provider'
  return 'other'
}
