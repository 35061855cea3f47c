/**
 * The Ledger's business events (spec, "Outbound webhook event types"): an entity's first version fires
 * `ledger.transaction.created`, `ledger.obligation.created` or `ledger.counterparty.created`; a
 * counterparty's later version (its identity or trust changed) fires `ledger.counterparty.updated`.
 * Which events a new version fires, and their payloads; ledger.events.ts checks the types against the
 * outbox's catalogue. Amounts are written as the API writes them, at their currency's scale.
 */
import { formatAmount } from '../../../kernel/money.ts'
import type { Counterparty, LedgerEntityByKind, LedgerKind, Obligation, Transaction } from './entities.ts'

export type LedgerEventType = 'ledger.transaction.created' | 'ledger.obligation.created' | 'ledger.counterparty.created' | 'ledger.counterparty.updated'

export interface LedgerEvent {
  readonly type: LedgerEventType
  readonly payload: Record<string, unknown>
  /** The audit event of the write that recorded the version. */
  readonly auditEventId: string
}

/** The spec's Ledger events of a version: an entity's first version, and a counterparty's changed identity. */
export function ledgerEventsOf(change: 'created' | 'updated', kind: LedgerKind, row: LedgerEntityByKind[LedgerKind], auditEventId: string): LedgerEvent[] {
  if (kind === 'transaction' && change === 'created') {
    const transaction = row as Transaction
    return [
      {
        type: 'ledger.transaction.created',
        payload: {
          transaction_id: transaction.id,
          account_id: transaction.accountId,
          amount: formatAmount(transaction.amount, transaction.currency),
          currency: transaction.currency,
          direction: transaction.direction,
          status: transaction.status,
          transaction_date: transaction.transactionDate,
          counterparty_id: transaction.counterpartyId,
          source_ids: transaction.sourceIds,
        },
        auditEventId,
      },
    ]
  }
  if (kind === 'obligation' && change === 'created') {
    const obligation = row as Obligation
    return [
      {
        type: 'ledger.obligation.created',
        payload: {
          obligation_id: obligation.id,
          type: obligation.obligationType,
          direction: obligation.direction,
          amount: formatAmount(obligation.amount, obligation.currency),
          currency: obligation.currency,
          due_date: obligation.dueDate,
          counterparty_id: obligation.counterpartyId,
          invoice_id: obligation.invoiceId,
        },
        auditEventId,
      },
    ]
  }
  if (kind === 'counterparty') {
    return [{ type: change === 'created' ? 'ledger.counterparty.created' : 'ledger.counterparty.updated', payload: counterpartyEventPayload(row as Counterparty), auditEventId }]
  }
  return []
}

/** A counterparty's event payload (also the trust-change event's). */
export function counterpartyEventPayload(counterparty: Counterparty): Record<string, unknown> {
  return {
    counterparty_id: counterparty.id,
    name: counterparty.name,
    type: counterparty.type,
    aliases: counterparty.aliases,
    linked_accounts: counterparty.linkedAccounts,
    trust_state: counterparty.trustState,
    version: counterparty.version,
  }
}
