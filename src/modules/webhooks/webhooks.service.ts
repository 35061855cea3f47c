/**
 * Webhook endpoints: where a tenant wants its business events delivered, which types, and the secret
 * deliveries are signed with; plus the dead letters of an endpoint and their manual replay.
 *
 * Every URL is checked by the egress rules (src/platform/net/egress.ts) at registration and again on every
 * attempt. Every change is a command (`name(context, input)`, platform/commands/command.ts): one
 * transaction whose commit carries its audit event and, with an Idempotency-Key, its outcome. Audit
 * events hold hashes and ids only: the URL appears as a digest and its host, the signing secret never.
 * (The stored outcome of a keyed create or rotation holds the new secret, so that a retry after a lost
 * response gets it: a copy of what the endpoint row holds, deleted with the tenant.)
 */
import { randomUUID } from 'node:crypto'
import { digestOf } from '../../kernel/audit-record.ts'
import type { Clock } from '../../kernel/clock.ts'
import { type CommandContext, auditedBy, requirePrincipal } from '../../kernel/context.ts'
import type { CursorCodec } from '../../kernel/cursor.ts'
import { AppError } from '../../kernel/errors.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { CommandResult, CommandRunner } from '../../platform/commands/command.ts'
import type { Database, Tx } from '../../platform/db/database.ts'
import { EgressRefusedError, resolveEgressTarget, type EgressPolicy, type HostResolver } from '../../platform/net/egress.ts'
import { boundedError, replayAttemptsMax } from './domain/delivery.ts'
import type { EventType } from '../../platform/outbox/events.ts'
import { listEvents, type EventsPage, type EventsQuery } from './events.service.ts'
import type { WebhookSender } from './sender.ts'
import { newSigningSecret } from './signing.ts'
import type { DeadLetterRow, EndpointRow, ReplaySelection, WebhooksStore } from './webhooks.store.ts'
import { assert } from '../../kernel/assert.ts'

export const endpointPageRows = { defaultRows: 50, maxRows: 500 } as const
export const deadLetterPageRows = { defaultRows: 50, maxRows: 500 } as const
/** Endpoints per tenant: each event is fanned out to all of them in one transaction. */
export const endpointsPerTenantMax = 20
export const descriptionCharsMax = 500
export const urlCharsMax = 2048
/** Longest overlap during which the previous signing secret still signs deliveries. */
export const secretOverlapSecondsMax = 7 * 24 * 60 * 60
/** Dead letters one replay call re-attempts; call again for the rest (the response says how many remain). */
export const replayRowsMax = 50
/** Requests a replay call has in flight at once. */
export const replayConcurrency = 4
/**
 * How long a replay's claim on a dead letter outlasts the request's own timeout: long enough to load the
 * event before the request and write the outcome after it (milliseconds each), short enough that a
 * replay that stopped mid-attempt frees the dead letter about a minute later.
 */
export const replayClaimMarginMs = 60_000

export type EndpointStatus = EndpointRow['status']

export interface EndpointView {
  id: string
  tenant_id: string
  url: string
  description: string | null
  event_types: string[]
  status: EndpointStatus
  previous_secret_expires_at: string | null
  created_by: string
  created_at: string
  updated_at: string
}

export interface EndpointWithSecret {
  endpoint: EndpointView
  /** The signing secret (`whsec_…`): returned by create and rotate only. */
  secret: string
}

export interface DeadLetterView {
  id: string
  event_id: string
  event_type: string
  last_error: string
  attempt_count: number
  created_at: string
  last_attempt_at: string
}

export interface ReplayResult {
  endpoint_id: string
  attempted: number
  redelivered: number
  still_failing: number
  /**
   * Dead letters under the cap that this call did not reach (more than replayRowsMax); call again. Those
   * another replay holds, or attempted while this call ran, are not counted.
   */
  remaining: number
}

export interface CreateEndpointInput {
  readonly url: string
  readonly event_types?: EventType[] | undefined
  readonly description?: string | undefined
}

/** The changes of an update (at least one), as the wire names them. */
export interface EndpointChangesInput {
  readonly url?: string | undefined
  readonly event_types?: EventType[] | undefined
  readonly description?: string | null | undefined
  readonly status?: EndpointStatus | undefined
}

export interface UpdateEndpointInput extends EndpointChangesInput {
  readonly endpointId: string
}

export interface RotateSecretInput {
  readonly endpointId: string
  readonly previous_secret_expires_in_seconds?: number | undefined
}

export interface DeletedEndpoint {
  endpoint_id: string
  deleted: true
}

/**
 * The commands (create, update, remove, rotateSecret, replay) act on the tenant of the context's
 * principal and replay their outcome for a repeated Idempotency-Key; the queries take the tenant.
 */
export interface WebhooksService {
  create(context: CommandContext, input: CreateEndpointInput): Promise<CommandResult<EndpointWithSecret>>
  list(tenantId: string, query: { limit?: number | undefined; cursor?: string | undefined }): Promise<{ endpoints: EndpointView[]; next_cursor: string | null }>
  get(tenantId: string, endpointId: string): Promise<EndpointView>
  update(context: CommandContext, input: UpdateEndpointInput): Promise<CommandResult<EndpointView>>
  remove(context: CommandContext, input: { endpointId: string }): Promise<CommandResult<DeletedEndpoint>>
  rotateSecret(context: CommandContext, input: RotateSecretInput): Promise<CommandResult<EndpointWithSecret>>
  listDeadLetters(
    tenantId: string,
    endpointId: string,
    query: { limit?: number | undefined; cursor?: string | undefined },
  ): Promise<{ endpoint_id: string; dead_letters: DeadLetterView[]; next_cursor: string | null }>
  /**
   * Claims and re-attempts the endpoint's replayable dead letters (see the route). With the context's
   * Idempotency-Key the whole call runs once per key: its key is reserved before and completed after,
   * since its attempts are network calls between short transactions.
   */
  replay(context: CommandContext, input: { endpointId: string }): Promise<{ outcome: ReplayResult; replayed: boolean }>
  /** The tenant's business events, in id order (events.service.ts). */
  events(tenantId: string, query: EventsQuery): Promise<EventsPage>
}

export function toEndpointView(endpoint: EndpointRow): EndpointView {
  return {
    id: endpoint.id,
    tenant_id: endpoint.tenantId,
    url: endpoint.url,
    description: endpoint.description,
    event_types: endpoint.eventTypes,
    status: endpoint.status,
    previous_secret_expires_at: endpoint.previousSecretExpiresAt?.toISOString() ?? null,
    created_by: endpoint.createdBy,
    created_at: endpoint.createdAt.toISOString(),
    updated_at: endpoint.updatedAt.toISOString(),
  }
}

export function toDeadLetterView(row: DeadLetterRow): DeadLetterView {
  return {
    id: row.id,
    event_id: row.eventId,
    event_type: row.eventType,
    last_error: row.lastError,
    attempt_count: row.attemptCount,
    created_at: row.createdAt.toISOString(),
    last_attempt_at: row.lastAttemptAt.toISOString(),
  }
}

/** Who records the lost outcome of a replay that stopped mid-attempt: not the caller who finds it. */
const replayActor = { type: 'system', id: 'webhook-replay' } as const

function replayInputs(endpoint: EndpointRow, deadLetter: DeadLetterRow) {
  return { endpoint_id: endpoint.id, event_id: deadLetter.eventId, delivery_id: deadLetter.deliveryId }
}

export interface WebhooksServiceDeps {
  readonly db: Database
  readonly commands: CommandRunner
  readonly store: WebhooksStore
  readonly cursors: CursorCodec
  readonly ids: IdSource
  readonly clock: Clock
  readonly sender: WebhookSender
  readonly egressPolicy: EgressPolicy
  readonly resolver: HostResolver
  /** The sender's timeout for one request: a replay's claim on a dead letter lasts this plus replayClaimMarginMs. */
  readonly requestTimeoutMs: number
}

export function createWebhooksService(deps: WebhooksServiceDeps): WebhooksService {
  const { db, commands, store, ids, clock, cursors, sender } = deps
  const replayClaimMs = deps.requestTimeoutMs + replayClaimMarginMs

  /** The registration-time URL check: the same rules as every delivery, reported as 400 webhook_url_refused. */
  async function checkUrl(url: string): Promise<{ host: string }> {
    try {
      const target = await resolveEgressTarget(url, deps.egressPolicy, deps.resolver)
      return { host: target.hostname }
    } catch (error) {
      if (error instanceof EgressRefusedError) throw new AppError('webhook_url_refused', error.message, { reason: error.reason, ...error.details })
      throw error
    }
  }

  async function loadForChange(tx: Tx, tenantId: string, endpointId: string): Promise<EndpointRow> {
    const endpoint = await store.findEndpoint(tx, tenantId, endpointId, { forUpdate: true })
    if (endpoint === undefined) throw new AppError('webhook_endpoint_not_found')
    return endpoint
  }

  async function reload(tx: Tx, tenantId: string, endpointId: string): Promise<EndpointRow> {
    const endpoint = await store.findEndpoint(tx, tenantId, endpointId)
    assert(endpoint !== undefined, `webhook endpoint ${endpointId} vanished inside its own transaction`)
    return endpoint
  }

  async function findOrFail(tenantId: string, endpointId: string): Promise<EndpointRow> {
    const endpoint = await store.findEndpoint(db.orm, tenantId, endpointId)
    if (endpoint === undefined) throw new AppError('webhook_endpoint_not_found')
    return endpoint
  }

  /**
   * Claims the next dead letter of `selection` for one attempt (counted now, before the request), in
   * one transaction. A claim that had run out without an outcome is audited here as outcome_lost
   * (committed with the claim), so every counted attempt has its audit event.
   */
  async function claimNext(endpoint: EndpointRow, selection: ReplaySelection, token: string): Promise<DeadLetterRow | undefined> {
    return db.transaction(async (tx) => {
      const claimed = await store.claimDeadLetter(tx, endpoint.tenantId, endpoint.id, selection, { token, until: new Date(selection.at.getTime() + replayClaimMs) })
      if (claimed === undefined) return undefined
      if (claimed.expiredClaim) {
        await commands.commit(tx, endpoint.tenantId, {
          audit: [
            {
              tenantId: endpoint.tenantId,
              layer: 'audit',
              actor: replayActor,
              action: 'webhook.dead_letter_replayed',
              entity: { type: 'webhook_dead_letter', id: claimed.deadLetter.id },
              inputs: replayInputs(endpoint, claimed.deadLetter),
              outputs: { outcome: 'outcome_lost', status_code: null },
            },
          ],
        })
      }
      return claimed.deadLetter
    })
  }

  /**
   * Sends one claimed dead letter and commits the outcome with its audit event in one transaction. The
   * outcome changes the rows only while the claim still holds (a replay slower than its claim finds
   * another owner and leaves the rows to it); the attempt is audited either way, since it was made.
   */
  async function attemptClaimed(endpoint: EndpointRow, deadLetter: DeadLetterRow, token: string, context: CommandContext): Promise<boolean> {
    const tenantId = endpoint.tenantId
    const event = await store.findEvent(db.orm, tenantId, deadLetter.eventId)
    const outcome = event === undefined ? ({ ok: false, statusCode: null, error: 'the event no longer exists' } as const) : await sender.send(endpoint, event)
    const now = clock.now()
    await db.transaction(async (tx) => {
      let recorded: boolean
      if (outcome.ok) {
        recorded = await store.deleteClaimedDeadLetter(tx, tenantId, deadLetter.id, token)
        if (recorded) {
          await store.updateDelivery(tx, tenantId, deadLetter.deliveryId, {
            status: 'succeeded',
            lastStatusCode: outcome.statusCode,
            lastError: null,
            nextAttemptAt: null,
            updatedAt: now,
          })
        }
      } else {
        const lastError = boundedError(outcome.error)
        recorded = await store.releaseClaimedDeadLetter(tx, tenantId, deadLetter.id, token, { lastError })
        if (recorded) await store.updateDelivery(tx, tenantId, deadLetter.deliveryId, { lastStatusCode: outcome.statusCode, lastError, updatedAt: now })
      }
      await commands.commit(tx, tenantId, {
        audit: [
          auditedBy(context, {
            action: 'webhook.dead_letter_replayed',
            entity: { type: 'webhook_dead_letter', id: deadLetter.id },
            inputs: replayInputs(endpoint, deadLetter),
            outputs: { outcome: outcome.ok ? 'redelivered' : 'still_failing', status_code: outcome.statusCode, ...(recorded ? {} : { claim_lost: true }) },
          }),
        ],
      })
    })
    return outcome.ok
  }

  return {
    events: (tenantId, query) => listEvents(db, tenantId, query),

    /**
     * Registers an endpoint with a new signing secret (returned once, and in the stored outcome of a keyed
     * request). The URL is checked (DNS included) before the transaction. Locks the tenant's endpoint
     * set. Audits webhook_endpoint.created; emits nothing.
     */
    async create(context, input) {
      const principal = requirePrincipal(context)
      const tenantId = principal.tenantId
      const { host } = await checkUrl(input.url)
      return commands.run(context, { name: 'webhooks.create', tenantId, input }, async (tx) => {
        const secret = newSigningSecret()
        const endpointId = ids.newId('webhookEndpoint')
        const now = clock.now()
        await store.lockTenantEndpoints(tx, tenantId)
        if ((await store.countEndpoints(tx, tenantId)) >= endpointsPerTenantMax) throw new AppError('webhook_endpoint_limit_reached', undefined, { limit: endpointsPerTenantMax })
        await store.insertEndpoint(tx, {
          id: endpointId,
          tenantId,
          url: input.url,
          description: input.description ?? null,
          eventTypes: [...(input.event_types ?? [])],
          status: 'enabled',
          disabledAt: null,
          secret,
          previousSecret: null,
          previousSecretExpiresAt: null,
          createdBy: principal.id,
          createdAt: now,
          updatedAt: now,
        })
        const row = await reload(tx, tenantId, endpointId)
        return {
          outcome: { endpoint: toEndpointView(row), secret },
          audit: [
            auditedBy(context, {
              action: 'webhook_endpoint.created',
              entity: { type: 'webhook_endpoint', id: endpointId },
              inputs: { request: digestOf(input) },
              outputs: { url_digest: digestOf(row.url), url_host: host, event_types: row.eventTypes, status: row.status },
            }),
          ],
        }
      })
    },

    async list(tenantId, query) {
      const limit = query.limit ?? endpointPageRows.defaultRows
      const listing = `webhook_endpoints:${tenantId}`
      const afterId = query.cursor === undefined ? undefined : String(cursors.decode(listing, query.cursor).after_id)
      const rows = await store.listEndpoints(db.orm, tenantId, { afterId, limit: limit + 1 })
      const page = rows.slice(0, limit)
      const last = page.at(-1)
      return {
        endpoints: page.map(toEndpointView),
        next_cursor: rows.length > limit && last !== undefined ? cursors.encode(listing, { after_id: last.id }) : null,
      }
    },

    async get(tenantId, endpointId) {
      return toEndpointView(await findOrFail(tenantId, endpointId))
    },

    /**
     * Changes URL (checked again, before the transaction), event types, description or status (a disable
     * records when, so the fan-out parks the events recorded before it; an enable clears it). Locks the
     * endpoint. Audits webhook_endpoint.updated; emits nothing.
     */
    async update(context, input) {
      const tenantId = requirePrincipal(context).tenantId
      const { endpointId, ...changes } = input
      const checked = changes.url === undefined ? undefined : await checkUrl(changes.url)
      return commands.run(context, { name: 'webhooks.update', tenantId, input }, async (tx) => {
        const before = await loadForChange(tx, tenantId, endpointId)
        const now = clock.now()
        await store.updateEndpoint(tx, tenantId, endpointId, {
          ...(changes.url === undefined ? {} : { url: changes.url }),
          ...(changes.event_types === undefined ? {} : { eventTypes: [...changes.event_types] }),
          ...(changes.description === undefined ? {} : { description: changes.description }),
          ...(changes.status === undefined ? {} : { status: changes.status }),
          // Disabling again keeps the first instant: events recorded since were recorded while disabled.
          ...(changes.status === 'disabled' && before.status === 'enabled' ? { disabledAt: now } : {}),
          ...(changes.status === 'enabled' ? { disabledAt: null } : {}),
          updatedAt: now,
        })
        const row = await reload(tx, tenantId, endpointId)
        return {
          outcome: toEndpointView(row),
          audit: [
            auditedBy(context, {
              action: 'webhook_endpoint.updated',
              entity: { type: 'webhook_endpoint', id: endpointId },
              inputs: { request: digestOf(changes) },
              outputs: {
                url_digest: digestOf(row.url),
                ...(checked === undefined ? {} : { url_host: checked.host }),
                event_types: row.eventTypes,
                status: row.status,
              },
            }),
          ],
        }
      })
    },

    /**
     * Deletes the endpoint with its deliveries and dead letters (pending attempts then find nothing to
     * send). Locks the endpoint. Audits webhook_endpoint.deleted with the counts; emits nothing.
     */
    async remove(context, input) {
      const tenantId = requirePrincipal(context).tenantId
      const { endpointId } = input
      return commands.run(context, { name: 'webhooks.remove', tenantId, input }, async (tx) => {
        await loadForChange(tx, tenantId, endpointId)
        const removed = await store.deleteEndpoint(tx, tenantId, endpointId)
        return {
          outcome: { endpoint_id: endpointId, deleted: true as const },
          audit: [
            auditedBy(context, {
              action: 'webhook_endpoint.deleted',
              entity: { type: 'webhook_endpoint', id: endpointId },
              outputs: { deliveries_deleted: removed.deliveries, dead_letters_deleted: removed.deadLetters },
            }),
          ],
        }
      })
    },

    /**
     * Replaces the signing secret (the new one is returned once, and in the stored outcome of a keyed
     * request). With an overlap, the old secret keeps signing alongside the new one until it ends; a
     * rotation during an overlap drops the older secret. Locks the endpoint. Audits
     * webhook_endpoint.secret_rotated; emits nothing.
     */
    async rotateSecret(context, input) {
      const tenantId = requirePrincipal(context).tenantId
      const { endpointId } = input
      const overlapSeconds = input.previous_secret_expires_in_seconds ?? 0
      return commands.run(context, { name: 'webhooks.rotateSecret', tenantId, input }, async (tx) => {
        const secret = newSigningSecret()
        const now = clock.now()
        const current = await loadForChange(tx, tenantId, endpointId)
        await store.updateEndpoint(tx, tenantId, endpointId, {
          secret,
          previousSecret: overlapSeconds > 0 ? current.secret : null,
          previousSecretExpiresAt: overlapSeconds > 0 ? new Date(now.getTime() + overlapSeconds * 1000) : null,
          updatedAt: now,
        })
        const row = await reload(tx, tenantId, endpointId)
        return {
          outcome: { endpoint: toEndpointView(row), secret },
          audit: [
            auditedBy(context, {
              action: 'webhook_endpoint.secret_rotated',
              entity: { type: 'webhook_endpoint', id: endpointId },
              outputs: { previous_secret_overlap_seconds: overlapSeconds },
            }),
          ],
        }
      })
    },

    async listDeadLetters(tenantId, endpointId, query) {
      await findOrFail(tenantId, endpointId)
      const limit = query.limit ?? deadLetterPageRows.defaultRows
      const listing = `webhook_dead_letters:${tenantId}:${endpointId}`
      const afterId = query.cursor === undefined ? undefined : String(cursors.decode(listing, query.cursor).after_id)
      const rows = await store.listDeadLetters(db.orm, tenantId, endpointId, { afterId, limit: limit + 1 })
      const page = rows.slice(0, limit)
      const last = page.at(-1)
      return {
        endpoint_id: endpointId,
        dead_letters: page.map(toDeadLetterView),
        next_cursor: rows.length > limit && last !== undefined ? cursors.encode(listing, { after_id: last.id }) : null,
      }
    },

    /**
     * Re-attempts the endpoint's dead letters under the cap (replayAttemptsMax attempts in all), oldest
     * first, at most replayRowsMax per call and replayConcurrency at a time, synchronously. Each attempt
     * first claims its dead letter (row lock with SKIP LOCKED for the claim's own short transaction,
     * then a claim token with an expiry) and counts the attempt, so concurrent replays never send one
     * dead letter at once and never pass the cap. A call skips dead letters another replay holds or
     * attempted after the call began. A success deletes the dead letter and marks the delivery
     * succeeded; a failure records the error and releases the claim. Holds no lock across a request.
     * Audits every attempt as webhook.dead_letter_replayed, with its outcome in the same transaction.
     */
    async replay(context, input) {
      const tenantId = requirePrincipal(context).tenantId
      return commands.runReserved(context, { name: 'webhooks.replay', tenantId, input }, () => replayDeadLetters(context, tenantId, input.endpointId))
    },
  }

  async function replayDeadLetters(context: CommandContext, tenantId: string, endpointId: string): Promise<ReplayResult> {
    const endpoint = await findOrFail(tenantId, endpointId)
    if (endpoint.status === 'disabled') throw new AppError('webhook_endpoint_disabled')
    const token = randomUUID()
    const startedAt = clock.now()
    const attemptedIds: string[] = []
    const selection = (): ReplaySelection => ({ attemptsMax: replayAttemptsMax, at: clock.now(), attemptedBefore: startedAt, excludedIds: attemptedIds })
    let reserved = 0
    let redelivered = 0
    const lane = async () => {
      // A slot is reserved before the claim, so the lanes together never claim more than replayRowsMax.
      while (reserved < replayRowsMax) {
        reserved += 1
        const deadLetter = await claimNext(endpoint, selection(), token)
        if (deadLetter === undefined) {
          reserved -= 1
          return
        }
        attemptedIds.push(deadLetter.id)
        if (await attemptClaimed(endpoint, deadLetter, token, context)) redelivered += 1
      }
    }
    await Promise.all(Array.from({ length: replayConcurrency }, lane))
    const remaining = await store.countClaimableDeadLetters(db.orm, tenantId, endpointId, selection())
    return {
      endpoint_id: endpointId,
      attempted: attemptedIds.length,
      redelivered,
      still_failing: attemptedIds.length - redelivered,
      remaining,
    }
  }
}
