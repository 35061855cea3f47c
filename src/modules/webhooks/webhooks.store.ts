/**
 * What the webhook services need from storage. Every method takes the tenant id and filters by it: an
 * endpoint, delivery or dead letter of another tenant is, to the caller, one that does not exist.
 */
import type { Executor, Tx } from '../../platform/db/database.ts'
import type { webhookDeadLetters, webhookDeliveries, webhookEndpoints } from './webhooks.tables.ts'
import type { RecordedEvent } from '../../platform/outbox/events.ts'

export type EndpointRow = typeof webhookEndpoints.$inferSelect
export type DeliveryRow = typeof webhookDeliveries.$inferSelect
export type DeadLetterRow = typeof webhookDeadLetters.$inferSelect
/** A new dead letter carries no replay claim. */
export type NewDeadLetter = Omit<DeadLetterRow, 'claimToken' | 'claimedUntil'>
export type EventRow = RecordedEvent

export type EndpointChanges = Partial<
  Pick<EndpointRow, 'url' | 'description' | 'eventTypes' | 'status' | 'disabledAt' | 'secret' | 'previousSecret' | 'previousSecretExpiresAt' | 'updatedAt'>
>
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
  /** Hands these events back to the outbox, whose sweep hands them over again (a new fan-out job). */
  returnEventsToPending(executor: Executor, tenantId: string, eventIds: readonly string[]): Promise<number>
  /**
   * The endpoints registered no later than `registeredBy` that a fan-out can concern: the enabled ones,
   * and the disabled ones with a `disabled_at` (events recorded before it are parked for them). The type
   * filter and the times are applied by the caller (`fanoutDecision`).
   */
  listFanoutEndpoints(executor: Executor, tenantId: string, registeredBy: Date): Promise<EndpointRow[]>
  /** Inserts deliveries, skipping any (endpoint, event) pair that exists; returns the ids inserted. */
  insertDeliveries(tx: Tx, deliveries: readonly DeliveryRow[]): Promise<string[]>
  findDelivery(executor: Executor, tenantId: string, deliveryId: string, options?: { forUpdate?: boolean }): Promise<DeliveryRow | undefined>
  /**
   * Counts attempt `attemptCount + 1` on a pending delivery that still has `attemptCount` attempts, fewer
   * than `attemptsMax`, in one UPDATE (last attempted `at`, lost after `lostAfter` if no outcome is
   * written); returns the row after the increment, or undefined if the delivery may not be attempted
   * (finished, dead-lettered, at the cap, gone, or this attempt already counted by another job). Two
   * jobs can never both take the same attempt, nor two workers the last one.
   */
  claimAttempt(executor: Executor, tenantId: string, deliveryId: string, claim: AttemptClaim): Promise<DeliveryRow | undefined>
  updateDelivery(tx: Tx, tenantId: string, deliveryId: string, changes: DeliveryChanges): Promise<void>
  /**
   * Pending deliveries of every tenant that `selection` finds overdue, most overdue first, at most
   * `limit`: the delivery sweep's probe (it reads across tenants, and locks per tenant below).
   */
  listOverdueDeliveries(executor: Executor, selection: OverdueSelection, limit: number): Promise<Array<{ tenantId: string; id: string }>>
  /** Locks those of the tenant's deliveries `deliveryIds` that are still pending and overdue, skipping rows another transaction holds. */
  lockOverdueDeliveries(tx: Tx, tenantId: string, deliveryIds: readonly string[], selection: OverdueSelection): Promise<DeliveryRow[]>
  /** Makes the next attempt of these pending deliveries due `at` (a job for it was queued then). */
  rescheduleDeliveries(tx: Tx, tenantId: string, deliveryIds: readonly string[], at: Date): Promise<void>

  /** Inserts the dead letters, skipping any delivery that already has one. */
  insertDeadLetters(tx: Tx, deadLetters: readonly NewDeadLetter[]): Promise<void>
  listDeadLetters(executor: Executor, tenantId: string, endpointId: string, page: { afterId?: string | undefined; limit: number }): Promise<DeadLetterRow[]>
  /**
   * Claims the oldest of the endpoint's dead letters that `selection` admits (see ReplaySelection),
   * locking it with SKIP LOCKED so that concurrent callers never take the same row: it gets the claim's
   * token until `claim.until`, and one more attempt is counted on it and on its delivery (last attempted
   * at `selection.at`) before any request leaves. `expiredClaim` says an earlier claim on it ran out
   * without an outcome. Undefined when no dead letter is left to claim.
   */
  claimDeadLetter(
    tx: Tx,
    tenantId: string,
    endpointId: string,
    selection: ReplaySelection,
    claim: { token: string; until: Date },
  ): Promise<{ deadLetter: DeadLetterRow; expiredClaim: boolean } | undefined>
  /** How many dead letters `claimDeadLetter` could still take with this selection. */
  countClaimableDeadLetters(executor: Executor, tenantId: string, endpointId: string, selection: ReplaySelection): Promise<number>
  /** Deletes the dead letter if the claim `token` still holds it; false if not (it expired and another replay took it, or the endpoint is gone). */
  deleteClaimedDeadLetter(tx: Tx, tenantId: string, deadLetterId: string, token: string): Promise<boolean>
  /** Records the failure of the claimed attempt and releases the claim, if `token` still holds it; false if not. */
  releaseClaimedDeadLetter(tx: Tx, tenantId: string, deadLetterId: string, token: string, failure: Pick<DeadLetterRow, 'lastError'>): Promise<boolean>
}

/** One automatic attempt, as a job claims it. */
export interface AttemptClaim {
  /** The attempts the delivery must have now (the job's `attempt_count`): this claims the next one. */
  readonly attemptCount: number
  readonly attemptsMax: number
  readonly at: Date
  /** When the attempt counts as lost if no outcome has been written by then (`next_attempt_at` meanwhile). */
  readonly lostAfter: Date
}

/** Which pending deliveries the sweep takes up. */
export interface OverdueSelection {
  /** Those whose next attempt was due before this (now less the sweep's margin). */
  readonly dueBefore: Date
  /**
   * Those with no `next_attempt_at` (an attempt counted by an earlier release, which cleared it while the
   * attempt was out) last changed before this: such an attempt's outcome is lost by then.
   */
  readonly unscheduledChangedBefore: Date
}

/** The dead letters a replay may claim. */
export interface ReplaySelection {
  /** Only dead letters with fewer attempts in all than this (the replay cap). */
  readonly attemptsMax: number
  /** Now: only dead letters without a claim in force at this time. */
  readonly at: Date
  /** Only dead letters last attempted before this time (before the replay call began). */
  readonly attemptedBefore: Date
  /** Never these (the ones the replay call attempted already). */
  readonly excludedIds: readonly string[]
}
