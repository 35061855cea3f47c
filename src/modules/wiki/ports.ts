/**
 * What the wiki module needs from others, plugged in by the composition root: the Ledger's query port
 * (read only; the Wiki never writes a Ledger row) and Raw's parsed rows (which artifact each came from).
 */
import type { LedgerQueries } from '../ledger/index.ts'

/** The Ledger reads a question runs (ledger/queries.ts): tenant-scoped, as of an instant. */
export type WikiLedger = Pick<
  LedgerQueries,
  'transactionTotals' | 'citedTransactions' | 'invoiceTotals' | 'citedInvoices' | 'obligationTotals' | 'citedObligations' | 'namedIn' | 'citedEntities' | 'dataPresence'
>

export interface WikiRaw {
  /** The raw artifact each of these parsed rows (of the tenant) was parsed from; absent ids are left out. */
  artifactsOfParsedRows(tenantId: string, parsedRowIds: readonly string[]): Promise<ReadonlyMap<string, string>>
}
