/**
 * What the execution module needs from other modules; composition plugs the implementations in. The
 * outbox, the intents and their reservations are the payments module's: the worker reads and moves them
 * only through its dispatch port, inside the worker's own transactions. The Ledger is read through its
 * query port.
 */
import type { LedgerQueries } from '../ledger/index.ts'
import type { PaymentsAgents, PaymentsDispatch } from '../payments/index.ts'

export type ExecutionPayments = Pick<PaymentsDispatch, 'orders' | 'pendingOrders' | 'claim' | 'settle' | 'appendReceipt' | 'shadowCounts'>

/**
 * The Ledger, as the onchain_base wiring reads it (its query port): the account a registration names
 * (it must be the tenant's, in USD) and the counterparty an outbox row pays, with its wallets.
 */
export type ExecutionLedger = Pick<LedgerQueries, 'findAccount' | 'findCounterparty'>

/** The agents that propose, as promotion sees them (service tokens until the agent registry, issue 18). */
export type ExecutionAgents = Pick<PaymentsAgents, 'standing'>
