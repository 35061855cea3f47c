/**
 * What the execution module needs from other modules; composition plugs the implementations in. The
 * outbox, the intents and their reservations are the payments module's: the worker reads and moves them
 * only through its dispatch port, inside the worker's own transactions.
 */
import type { PaymentsDispatch } from '../payments/index.ts'

export type ExecutionPayments = Pick<PaymentsDispatch, 'order' | 'pendingOrders' | 'claim' | 'settle' | 'appendReceipt'>
