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

/** An endpoint subscribes to the types it lists; an empty list means every type of the allowlist. */
export function endpointAccepts(subscribedTypes: readonly string[], eventType: string): boolean {
  return subscribedTypes.length === 0 || subscribedTypes.includes(eventType)
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
