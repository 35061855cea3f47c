/**
 * What the webhook services need from storage. Every method takes the tenant id and filters by it: an
 * endpoint, delivery or dead letter of another tenant is, to the caller, one that does not exist.
 */
import type { Executor, Tx } from '../db/database.ts'
import type { events, webhookDeadLetters, webhookDeliveries, webhookEndpoints } from '../db/schema.ts'

export type EndpointRow = typeof webhookEndpoints.$inferSelect
export type DeliveryRow = typeof webhookDeliveries.$inferSelect
export type DeadLetterRow = typeof webhookDeadLetters.$inferSelect
export type EventRow = typeof events.$inferSelect

export type EndpointChanges = Partial<Pick<EndpointRow, 'url' | 'description' | 'eventTypes' | 'status' | 'secret' | 'previousSecret' | 'previousSecretExpiresAt' | 'updatedAt'>>
export type DeliveryChanges = Partial<Pick<DeliveryRow, 'status' | 'attemptCount' | 'nextAttemptAt' | 'lastAttemptAt' | 'lastStatusCode' | 'lastError' | 'updatedAt'>>

export interface WebhooksStore {
  /** Serializes endpoint creation per tenant (transaction-scoped), so the per-tenant cap holds under races. */
  lockTenantEndpoints(tx: Tx, tenantId: string): Promise<void>
  countEndpoints(executor: Executor, tenantId: string): Promise<number>
  insertEndpoint(tx: Tx, endpoint: EndpointRow): Promise<void>
  findEndpoint(executor: Executor, tenantId: string, endpointId: string, options?: { forUpdate?: boolean }): Promise<EndpointRow | undefined>
  listEndpoints(executor: Executor, tenantId: string, page: { afterId?: string | undefined; limit: number }): Promise<EndpointRow[]>
  updateEndpoint(tx: Tx, tenantId: string, endpointId: string, changes: EndpointChanges): Promise<void>
  /** Deletes the endpoint with its deliveries and dead letters; returns how many of each went. */
  deleteEndpoint(tx: Tx, tenantId: string, endpointId: string): Promise<{ deliveries: number; deadLetters: number }>

  findEvent(executor: Executor, tenantId: string, eventId: string): Promise<EventRow | undefined>
  /** The events among these ids that exist (in no particular order). */
  findEvents(executor: Executor, tenantId: string, eventIds: readonly string[]): Promise<EventRow[]>
  /** Enabled endpoints registered no later than `registeredBy`; the type filter is applied by the caller. */
  listEnabledEndpoints(executor: Executor, tenantId: string, registeredBy: Date): Promise<EndpointRow[]>
  /** Inserts deliveries, skipping any (endpoint, event) pair that exists; returns the ids inserted. */
  insertDeliveries(tx: Tx, deliveries: readonly DeliveryRow[]): Promise<string[]>
  findDelivery(executor: Executor, tenantId: string, deliveryId: string, options?: { forUpdate?: boolean }): Promise<DeliveryRow | undefined>
  /**
   * Counts one more attempt on a pending delivery that has fewer than `attemptsMax`, in one UPDATE;
   * returns the row after the increment, or undefined if the delivery may not be attempted (finished,
   * dead-lettered, at the cap, or gone). Two workers can never both take the last attempt.
   */
  claimAttempt(executor: Executor, tenantId: string, deliveryId: string, at: Date, attemptsMax: number): Promise<DeliveryRow | undefined>
  /** `incrementAttempts` adds one to attempt_count in the same UPDATE (a manual replay's attempt). */
  updateDelivery(tx: Tx, tenantId: string, deliveryId: string, changes: DeliveryChanges, options?: { incrementAttempts?: boolean }): Promise<void>

  /** Inserts the dead letter unless the delivery already has one. */
  insertDeadLetter(tx: Tx, deadLetter: DeadLetterRow): Promise<void>
  listDeadLetters(executor: Executor, tenantId: string, endpointId: string, page: { afterId?: string | undefined; limit: number }): Promise<DeadLetterRow[]>
  /** Oldest first, only rows with fewer than `attemptsMax` attempts. */
  listReplayableDeadLetters(executor: Executor, tenantId: string, endpointId: string, options: { attemptsMax: number; limit: number }): Promise<DeadLetterRow[]>
  countReplayableDeadLetters(executor: Executor, tenantId: string, endpointId: string, attemptsMax: number): Promise<number>
  /** Deletes the dead letter; false if it was already gone (a concurrent replay cleared it). */
  deleteDeadLetter(tx: Tx, tenantId: string, deadLetterId: string): Promise<boolean>
  /** Records one more failed attempt on the dead letter; returns its new attempt count, or undefined if it is gone. */
  recordDeadLetterFailure(tx: Tx, tenantId: string, deadLetterId: string, failure: Pick<DeadLetterRow, 'lastError' | 'lastAttemptAt'>): Promise<number | undefined>
}
