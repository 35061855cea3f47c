/**
 * Questions other modules ask of the Ledger (its query port): they read the Ledger through these, never
 * its tables. Policy replays a period's outflows through simulate-historical.
 */
import { and, asc, eq, gt, gte, isNull, lte, or } from 'drizzle-orm'
import type { Executor } from '../../platform/db/database.ts'
import { ledgerTransactions } from './ledger.tables.ts'

export interface OutflowRecord {
  readonly id: string
  /** Signed, as the Ledger records it (negative for an outflow). */
  readonly amount: string
  readonly currency: string
  readonly counterpartyId: string | null
  readonly transactionDate: string
}

export interface LedgerQueries {
  /**
   * Current outflows dated from..to inclusive, oldest first, strictly after `after` (transaction_date,
   * id), at most `limit`.
   */
  outflowsInPeriod(
    executor: Executor,
    tenantId: string,
    options: { from: string; to: string; after?: { transactionDate: string; id: string } | undefined; limit: number },
  ): Promise<OutflowRecord[]>
}

export function createLedgerQueries(): LedgerQueries {
  return {
    async outflowsInPeriod(executor, tenantId, options) {
      const t = ledgerTransactions
      return executor
        .select({ id: t.id, amount: t.amount, currency: t.currency, counterpartyId: t.counterpartyId, transactionDate: t.transactionDate })
        .from(t)
        .where(
          and(
            eq(t.tenantId, tenantId),
            isNull(t.supersededAt),
            eq(t.direction, 'outflow'),
            gte(t.transactionDate, options.from),
            lte(t.transactionDate, options.to),
            options.after === undefined
              ? undefined
              : or(gt(t.transactionDate, options.after.transactionDate), and(eq(t.transactionDate, options.after.transactionDate), gt(t.id, options.after.id))),
          ),
        )
        // Served by ledger_transactions_date_idx (tenant_id, transaction_date, id) where superseded_at is null.
        .orderBy(asc(t.transactionDate), asc(t.id))
        .limit(options.limit)
    },
  }
}
