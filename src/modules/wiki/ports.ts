/**
 * What the wiki module needs from others; the composition root plugs the implementations in through their
 * index.ts. The Wiki reads the Ledger through its query port and Raw through its records port, never
 * their tables, and never writes either.
 */
import type { Executor } from '../../platform/db/database.ts'
import type { LedgerQueries } from '../ledger/index.ts'

/** The Ledger as the Wiki reads it (ledger/queries.ts): tenant-scoped, as of an instant. */
export type WikiLedger = Pick<
  LedgerQueries,
  | 'transactionTotals'
  | 'citedTransactions'
  | 'invoiceTotals'
  | 'citedInvoices'
  | 'obligationTotals'
  | 'citedObligations'
  | 'namedIn'
  | 'citedEntities'
  | 'dataPresence'
  | 'recordAsOf'
  | 'recordVersions'
>

/** A parsed row as evidence: its artifact, parser and extraction confidence. */
export interface WikiParsedRow {
  readonly id: string
  readonly rawArtifactId: string
  readonly parser: string
  readonly confidence: number
}

/** A Raw artifact as evidence. */
export interface WikiArtifact {
  readonly id: string
  readonly sourceType: string
  readonly sha256: string
  readonly mimeType: string
  readonly status: 'stored' | 'tombstoned'
  /** When Raw received it. */
  readonly ingestedAt: Date
}

/** Raw's records as the Wiki reads them (raw/records.ts, RawRecords). */
export interface WikiRaw {
  /** The raw artifact each of these parsed rows (of the tenant) was parsed from; absent ids are left out. */
  artifactsOfParsedRows(tenantId: string, parsedRowIds: readonly string[]): Promise<ReadonlyMap<string, string>>
  /** These parsed rows (those of the tenant that exist), in no particular order. */
  parsedRows(executor: Executor, tenantId: string, parsedRowIds: readonly string[]): Promise<WikiParsedRow[]>
  /** These artifacts (those of the tenant that exist), in no particular order. */
  artifacts(executor: Executor, tenantId: string, artifactIds: readonly string[]): Promise<WikiArtifact[]>
}

/** A document the Wiki search reads at request time: a policy version or an agent. */
export interface SearchDocument {
  readonly kind: 'policy' | 'agent'
  /** pol_… for a policy version; the agent's key or id for an agent. */
  readonly id: string
  readonly title: string
  /** The searchable text: the title is searched with it. */
  readonly body: string
  /** When it last changed (since / until filter on this); null for a catalog agent, which has no time. */
  readonly updatedAt: Date | null
}

/**
 * The searchable documents of a tenant (the policy module's versions, the agents module's catalog and
 * registered agents), at most `max` of each kind (the newest policy versions; the catalog, then registered
 * agents in id order).
 */
export interface WikiSearchSources {
  policies(tenantId: string, max: number): Promise<SearchDocument[]>
  agents(tenantId: string, max: number): Promise<SearchDocument[]>
}
