/**
 * The pure rules of webhook delivery: which endpoints an event goes to, the payload a receiver gets,
 * when a failed attempt is retried, and when a delivery stops being retried. No I/O, no clock.
 */

/** Automatic attempts per delivery (spec, "Limits": webhook delivery attempts 5). The fifth failure dead-letters. */
export const deliveryAttemptsMax = 5

/**
 * Total attempts (automatic plus manual) after which a dead letter is no longer replayed: the spec's
 * "replay re-attempts every dead letter still under the cap". Fifteen manual replays on top of the five
 * automatic attempts is generous for an operator fixing a receiver, and stops a permanently broken
 * receiver from being hammered by scripted replays forever. Rows at the cap stay listed.
 */
export const replayAttemptsMax = 20

/** Delay before the second attempt when nothing else is configured; each later one is four times longer. */
export const retryBaseSecondsDefault = 30
export const retryBackoffFactor = 4
/** No single wait is longer than this, whatever the base. */
export const retryDelaySecondsMax = 60 * 60

/**
 * Seconds to wait after failed attempt number `attempt` (1-based) before the next one:
 * base × 4^(attempt − 1), capped. With the default base of 30 s: 30 s, 2 min, 8 min, 32 min, so the
 * fifth and last automatic attempt comes about 42 minutes after the first.
 */
export function retryDelaySeconds(attempt: number, baseSeconds: number): number {
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError(`attempt must be a positive integer, got ${attempt}`)
  if (!(baseSeconds > 0)) throw new RangeError(`baseSeconds must be positive, got ${baseSeconds}`)
  return Math.min(baseSeconds * retryBackoffFactor ** (attempt - 1), retryDelaySecondsMax)
}

/** What to do after a failed automatic attempt that brought the delivery to `attemptCount` attempts. */
export type AfterFailure = { readonly kind: 'retry'; readonly delaySeconds: number } | { readonly kind: 'dead_letter' }

export function afterFailedAttempt(attemptCount: number, baseSeconds: number): AfterFailure {
  return attemptCount >= deliveryAttemptsMax ? { kind: 'dead_letter' } : { kind: 'retry', delaySeconds: retryDelaySeconds(attemptCount, baseSeconds) }
}

/**
 * Seconds after attempt number `attempt` (1-based) leaves until, with no outcome recorded, it counts as
 * lost: when its failure would have made the next attempt due (so a lost outcome keeps the backoff
 * schedule instead of being retried at once), and never before the request could have ended and its
 * outcome been written (`leaseSeconds`: the request timeout and a margin), so a slow attempt is not
 * overtaken by the next one.
 */
export function attemptLostAfterSeconds(attempt: number, baseSeconds: number, leaseSeconds: number): number {
  if (!Number.isInteger(attempt) || attempt < 1 || attempt > deliveryAttemptsMax) throw new RangeError(`attempt must be an integer from 1 to ${deliveryAttemptsMax}, got ${attempt}`)
  if (!(leaseSeconds > 0)) throw new RangeError(`leaseSeconds must be positive, got ${leaseSeconds}`)
  const failureDelaySeconds = attempt < deliveryAttemptsMax ? retryDelaySeconds(attempt, baseSeconds) : 0
  return Math.max(leaseSeconds, failureDelaySeconds)
}

/**
 * What the delivery sweep does with a pending delivery left overdue (its job, or the outcome of its
 * last attempt, was lost): another job for its next attempt, or, once every automatic attempt has been
 * counted, its dead letter (there is no sixth automatic attempt).
 */
export function afterLostProgress(attemptCount: number): 'requeue' | 'dead_letter' {
  return attemptCount >= deliveryAttemptsMax ? 'dead_letter' : 'requeue'
}

/** An endpoint subscribes to the types it lists; an empty list means every type of the allowlist. */
export function endpointAccepts(subscribedTypes: readonly string[], eventType: string): boolean {
  return subscribedTypes.length === 0 || subscribedTypes.includes(eventType)
}

/** What the fan-out makes of one event for one endpoint of its tenant. */
export type FanoutDecision = 'deliver' | 'park' | 'skip'

/**
 * An endpoint receives the events recorded after it was registered that its filter accepts: an enabled
 * one gets a delivery; a disabled one gets the event parked as a dead letter (replayable once it is
 * enabled again) if the event was recorded before the endpoint was disabled, as a delivery queued before
 * the disable is parked, and nothing if it was recorded later (a disabled endpoint gets no new
 * deliveries). An event recorded in the very millisecond of the disable is parked: nothing is lost.
 */
export function fanoutDecision(
  endpoint: { readonly status: 'enabled' | 'disabled'; readonly createdAt: Date; readonly disabledAt: Date | null; readonly eventTypes: readonly string[] },
  event: { readonly createdAt: Date; readonly eventType: string },
): FanoutDecision {
  if (endpoint.createdAt.getTime() > event.createdAt.getTime() || !endpointAccepts(endpoint.eventTypes, event.eventType)) return 'skip'
  if (endpoint.status === 'enabled') return 'deliver'
  return endpoint.disabledAt !== null && event.createdAt.getTime() <= endpoint.disabledAt.getTime() ? 'park' : 'skip'
}

/** The JSON body every receiver gets (docs/webhooks.md). */
export interface WebhookPayload {
  /** The event type, one of the spec's allowlist. */
  readonly type: string
  /** The event id; also the `webhook-id` header, the same on every attempt so receivers can deduplicate. */
  readonly id: string
  readonly created_at: string
  readonly tenant_id: string
  /** The audit event recording the same change, to look up its proof; null if there is none. */
  readonly audit_event_id: string | null
  readonly data: Readonly<Record<string, unknown>>
}

export function webhookPayload(event: {
  readonly id: string
  readonly tenantId: string
  readonly eventType: string
  readonly payload: unknown
  readonly auditEventId: string | null
  readonly createdAt: Date
}): WebhookPayload {
  return {
    type: event.eventType,
    id: event.id,
    created_at: event.createdAt.toISOString(),
    tenant_id: event.tenantId,
    audit_event_id: event.auditEventId,
    data: (event.payload ?? {}) as Record<string, unknown>,
  }
}

/** Stored error text is bounded: it names the cause (status, timeout, refusal), never the response body. */
export const lastErrorCharsMax = 500

export function boundedError(message: string): string {
  return message.length <= lastErrorCharsMax ? message : `${message.slice(0, lastErrorCharsMax - 1)}…`
}
