/**
 * Business events: the spec's fixed outbound vocabulary, written in the transaction of the change they
 * describe so that an event exists exactly when its change committed. The same transaction hands it to
 * the subscriber (the webhooks module, which queues its fan-out to the tenant's endpoints when one takes
 * it), so no committed event is ever left undelivered and no rolled-back one is ever sent.
 */
import { and, asc, eq, gt, gte, inArray, sql, type SQL } from 'drizzle-orm'
import { queryRows, type Executor, type Tx } from '../db/database.ts'
import { copyMany } from '../db/bulk.ts'
import { events } from './outbox.tables.ts'
import type { Clock } from '../../kernel/clock.ts'
import type { IdSource } from '../../kernel/ids.ts'

/** The fixed allowlist (spec, "Outbound webhook event types"). Nothing else is ever emitted. */
export const eventTypes = [
  'agent.action.proposed',
  'payment_intent.created',
  'payment_intent.approved',
  'payment_intent.awaiting_second_approval',
  'proposal.awaiting_second_approval',
  'proposal.decided',
  'payment_intent.rejected',
  'payment_intent.executed',
  'payment_intent.failed',
  'payment_intent.reconciling',
  'member.changed',
  'payment_intent.execute.after',
  'ledger.counterparty.created',
  'ledger.counterparty.updated',
  'ledger.transaction.created',
  'ledger.obligation.created',
  'policy.evaluate',
  'raw.ingest.new',
  'raw.ingest.deduplicated',
  'raw.extraction.status_changed',
  'raw.source.status_changed',
] as const

export type EventType = (typeof eventTypes)[number]

export interface BusinessEvent {
  readonly tenantId: string
  readonly type: EventType
  readonly payload: Readonly<Record<string, unknown>>
  /** The audit event recording the same change. */
  readonly auditEventId: string
}

export interface EventRecorder {
  /**
   * Records a command's events of one tenant with one statement (the insert and the subscriber check in
   * one round trip: this runs on every audited change), in order; returns their ids.
   */
  recordEach(tx: Tx, tenantId: string, batch: ReadonlyArray<Omit<BusinessEvent, 'tenantId'>>): Promise<string[]>
  /**
   * Records many events of one tenant (a normalization run's created entities) with one insert and one
   * hand-over to the subscriber, in the caller's transaction.
   */
  recordMany(tx: Tx, tenantId: string, batch: ReadonlyArray<Omit<BusinessEvent, 'tenantId'>>): Promise<void>
}

/**
 * Who takes recorded events further (the webhooks module: its endpoints and fan-out job). The outbox
 * knows no module; composition plugs the subscriber in.
 */
export interface EventSubscriber {
  /**
   * Whether anything takes one of `types` for the tenant, as one SQL boolean: it is read in the same
   * round trip as the insert, so an event nobody takes costs one statement (most tenants take none).
   */
  takesAny(tenantId: string, types: readonly string[]): SQL
  /** In the recording transaction, when `takesAny` was true: hands the events over (queues their fan-out). */
  handOver(tx: Tx, tenantId: string, eventIds: readonly string[]): Promise<void>
}

export function createEventRecorder(deps: { ids: IdSource; clock: Clock; subscriber: EventSubscriber }): EventRecorder {
  return {
    async recordEach(tx, tenantId, batch) {
      if (batch.length === 0) return []
      const createdAt = deps.clock.now().toISOString()
      const ids = batch.map(() => deps.ids.newId('event'))
      const rows = batch.map(
        (event, index) => sql`(${ids[index]}, ${tenantId}, ${event.type}, ${JSON.stringify(event.payload)}::jsonb, ${event.auditEventId}, ${createdAt}::timestamptz)`,
      )
      const [recorded] = await queryRows<{ fan_out: boolean }>(
        tx,
        sql`with inserted as (
              insert into ${events} (${sql.identifier(events.id.name)}, ${sql.identifier(events.tenantId.name)}, ${sql.identifier(events.eventType.name)},
                                     ${sql.identifier(events.payload.name)}, ${sql.identifier(events.auditEventId.name)}, ${sql.identifier(events.createdAt.name)})
              values ${sql.join(rows, sql`, `)}
              returning 1)
            select ${deps.subscriber.takesAny(tenantId, [...new Set(batch.map((event) => event.type))])} as fan_out from inserted limit 1`,
      )
      if (recorded?.fan_out === true) await deps.subscriber.handOver(tx, tenantId, ids)
      return ids
    },
    async recordMany(tx, tenantId, batch) {
      if (batch.length === 0) return
      const createdAt = deps.clock.now()
      const [subscribed] = await queryRows<{ fan_out: boolean }>(tx, sql`select ${deps.subscriber.takesAny(tenantId, [...new Set(batch.map((event) => event.type))])} as fan_out`)
      const rows = batch.map((event) => ({
        id: deps.ids.newId('event'),
        tenantId,
        eventType: event.type,
        payload: event.payload,
        auditEventId: event.auditEventId,
        createdAt,
      }))
      // One statement for the whole batch (a COPY on a server, see db/bulk.ts): every statement more is
      // a round trip the caller's transaction waits for.
      await copyMany(tx, events, rows)
      if (subscribed?.fan_out === true) await deps.subscriber.handOver(tx, tenantId, rows.map((row) => row.id))
    },
  }
}

/** A recorded business event, as its subscriber reads it back. */
export type RecordedEvent = typeof events.$inferSelect

/** Reading recorded events back (the webhooks module delivers them): the outbox's table stays its own. */
export interface EventReader {
  findEvent(executor: Executor, tenantId: string, eventId: string): Promise<RecordedEvent | undefined>
  /** The events among these ids that exist (in no particular order). */
  findEvents(executor: Executor, tenantId: string, eventIds: readonly string[]): Promise<RecordedEvent[]>
  /** The tenant's events in id order (time order to the millisecond), after an id and from an instant, of some types. */
  listEvents(
    executor: Executor,
    tenantId: string,
    filter: { readonly afterId?: string | undefined; readonly since?: Date | undefined; readonly types?: readonly string[] | undefined; readonly limit: number },
  ): Promise<RecordedEvent[]>
}

export const eventReader: EventReader = {
  async findEvent(executor, tenantId, eventId) {
    const [row] = await executor
      .select()
      .from(events)
      .where(and(eq(events.tenantId, tenantId), eq(events.id, eventId)))
      .limit(1)
    return row
  },
  async findEvents(executor, tenantId, eventIds) {
    if (eventIds.length === 0) return []
    return executor
      .select()
      .from(events)
      .where(and(eq(events.tenantId, tenantId), inArray(events.id, [...eventIds])))
  },
  async listEvents(executor, tenantId, filter) {
    return executor
      .select()
      .from(events)
      .where(
        and(
          eq(events.tenantId, tenantId),
          filter.afterId === undefined ? undefined : gt(events.id, filter.afterId),
          filter.since === undefined ? undefined : gte(events.createdAt, filter.since),
          filter.types === undefined || filter.types.length === 0 ? undefined : inArray(events.eventType, [...filter.types]),
        ),
      )
      .orderBy(asc(events.id))
      .limit(filter.limit)
  },
}
