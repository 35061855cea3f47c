import { describe, expect, it } from 'vitest'
import type { Balance, Counterparty, LedgerEntityByKind, LedgerKind, Obligation, Transaction } from './entities.ts'
import { ledgerEventsOf } from './events.ts'

const version = { versionId: 'ver_1', tenantId: 't', version: 1, supersedes: null, sourceIds: ['raw_1'], evidenceIds: ['prw_1'], provenance: 'extracted' as const, confidence: 1, metadata: {}, createdAt: new Date(0), updatedAt: new Date(0), supersededAt: null }
const transaction: Transaction = {
  ...version,
  id: 'txn_1',
  accountId: 'acc_1',
  externalTransactionId: null,
  amount: '-1.00',
  currency: 'EUR',
  direction: 'outflow',
  transactionDate: '2026-01-01',
  postedDate: null,
  counterpartyId: 'cpy_1',
  categoryId: null,
  status: 'pending',
  description: 'x',
  descriptionNormalized: 'X',
  reconciliationStatus: 'unmatched',
}
const obligation: Obligation = { ...version, id: 'obl_1', obligationType: 'bill', direction: 'payable', reference: 'R', description: null, amount: '5.00', currency: 'EUR', dueDate: null, recurrence: null, status: 'open', counterpartyId: null, invoiceId: 'inv_1' }
const counterparty: Counterparty = { ...version, id: 'cpy_1', name: 'Acme', type: 'vendor', verifiedStatus: 'unverified', riskLevel: 'medium', trustState: 'unreviewed', aliases: ['Acme'], linkedAccounts: [] }
const balance: Balance = { ...version, id: 'bal_1', accountId: 'acc_1', balanceType: 'closing', asOf: '2026-01-31', amount: '1.00', currency: 'EUR' }

describe('ledgerEventsOf', () => {
  it.each<{ change: 'created' | 'updated'; kind: LedgerKind; row: LedgerEntityByKind[LedgerKind]; types: string[] }>([
    { change: 'created', kind: 'transaction', row: transaction, types: ['ledger.transaction.created'] },
    { change: 'updated', kind: 'transaction', row: transaction, types: [] },
    { change: 'created', kind: 'obligation', row: obligation, types: ['ledger.obligation.created'] },
    { change: 'updated', kind: 'obligation', row: obligation, types: [] },
    { change: 'created', kind: 'counterparty', row: counterparty, types: ['ledger.counterparty.created'] },
    { change: 'updated', kind: 'counterparty', row: counterparty, types: ['ledger.counterparty.updated'] },
    { change: 'created', kind: 'balance', row: balance, types: [] },
  ])('$kind $change: $types', ({ change, kind, row, types }) => {
    const events = ledgerEventsOf(change, kind, row, 'aud_1')
    expect(events.map((event) => event.type)).toEqual(types)
    for (const event of events) expect(event.auditEventId).toBe('aud_1')
  })

  it('carries the spec payloads', () => {
    expect(ledgerEventsOf('created', 'transaction', transaction, 'aud_1')[0]!.payload).toEqual({
      transaction_id: 'txn_1',
      account_id: 'acc_1',
      amount: '-1.00',
      currency: 'EUR',
      direction: 'outflow',
      status: 'pending',
      transaction_date: '2026-01-01',
      counterparty_id: 'cpy_1',
      source_ids: ['raw_1'],
    })
    expect(ledgerEventsOf('created', 'obligation', obligation, 'aud_1')[0]!.payload).toEqual({
      obligation_id: 'obl_1',
      type: 'bill',
      direction: 'payable',
      amount: '5.00',
      currency: 'EUR',
      due_date: null,
      counterparty_id: null,
      invoice_id: 'inv_1',
    })
    expect(ledgerEventsOf('updated', 'counterparty', counterparty, 'aud_1')[0]!.payload).toEqual({
      counterparty_id: 'cpy_1',
      name: 'Acme',
      type: 'vendor',
      aliases: ['Acme'],
      linked_accounts: [],
      trust_state: 'unreviewed',
      version: 1,
    })
  })
})
