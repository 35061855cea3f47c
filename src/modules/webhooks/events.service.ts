/**
 * The tenant's business events, read back through the API (GET /v1/events): the same events, in the same
 * body, that registered endpoints receive (domain/delivery.ts `webhookPayload`), for a client that
 * cannot be reached by a webhook — `steward webhooks listen` polls it and forwards each event to a
 * local URL, signed, as `stripe listen` does. A query: it locks, audits and emits nothing.
 *
 * Paging is by event id (`after`): ids sort by creation time to the millisecond, so a client resumes
 * after the last event it handled. Ids are given when an event is recorded, not when its transaction
 * commits, so an event of a long transaction can commit after a later id was read: a client that must
 * not miss one re-reads a trailing window (`since`) and deduplicates on the id, as `listen` does.
 */
import type { Database } from '../../platform/db/database.ts'
import { eventReader } from '../../platform/outbox/events.ts'
import { webhookPayload, type WebhookPayload } from './domain/delivery.ts'

export const eventPageRows = { defaultRows: 100, maxRows: 1000 } as const

export interface EventsQuery {
  readonly after?: string | undefined
  readonly since?: string | undefined
  readonly types?: readonly string[] | undefined
  readonly limit?: number | undefined
}

export interface EventsPage {
  readonly events: WebhookPayload[]
  /** More events follow the last one of this page: ask again with `after` = its id. */
  readonly has_more: boolean
}

export async function listEvents(db: Database, tenantId: string, query: EventsQuery): Promise<EventsPage> {
  const limit = query.limit ?? eventPageRows.defaultRows
  const rows = await eventReader.listEvents(db.orm, tenantId, {
    afterId: query.after,
    since: query.since === undefined ? undefined : new Date(query.since),
    types: query.types,
    limit: limit + 1,
  })
  return { events: rows.slice(0, limit).map(webhookPayload), has_more: rows.length > limit }
}
