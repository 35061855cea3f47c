/**
 * The Ledger's business events, as the outbox records them: which events a version fires and their
 * payloads are the domain's (domain/events.ts); here the event types are checked against the outbox's
 * catalogue at compile time.
 */
import type { EventType } from '../../platform/outbox/events.ts'
import type { LedgerEventType } from './domain/events.ts'

export { counterpartyEventPayload, ledgerEventsOf, type LedgerEvent } from './domain/events.ts'

type Holds<T extends true> = T
/** Every Ledger event type is one the outbox knows (checked at compile time). */
export type LedgerEventTypesAreKnown = Holds<[LedgerEventType] extends [EventType] ? true : false>
