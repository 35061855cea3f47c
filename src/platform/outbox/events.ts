/**
 * Business events: the spec's fixed outbound vocabulary, written in the transaction of the change they
 * describe so that an event exists exactly when its change committed. The same transaction hands it to
 * the subscriber (the webhooks module, which queues its fan-out to the tenant's endpoints when one takes
 * it), so no committed event is ever left undelivered and no rolled-back one is ever sent.
 */
import { and, asc, eq, getTableName, gt, gte, inArray, sql, type SQL } from 'drizzle-orm'
import { queryRows, type Database, type Executor, type Tx } from '../db/database.ts'
import { statement } from '../db/statements.ts'
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
   * one round trip: this runs on every audited change), in order, and hands them over in the same
   * transaction when a subscriber takes them; returns their ids.
   */
  recordEach(tx: Tx, tenantId: string, batch: ReadonlyArray<Omit<BusinessEvent, 'tenantId'>>): Promise<string[]>
  /**
   * Records a command's events of one tenant with one statement that needs no other in the transaction:
   * when a subscriber takes them they are marked `fanout_pending`, and the caller hands them over with
   * `relay` once the transaction has committed (a crash in between leaves them to `sweep`). So the
   * transaction's COMMIT can go out with the insert. `ids` are known at once; `written` settles with the
   * insert, true when the events await `relay`.
   */
  send(tx: Tx, tenantId: string, batch: ReadonlyArray<Omit<BusinessEvent, 'tenantId'>>): { ids: string[]; written: Promise<boolean> }
  /**
   * After the commit of `send`'s transaction: hands the events still pending over to the subscriber, in a
   * transaction of its own that clears their mark (an event is handed over once, by this or by `sweep`).
   */
  relay(tenantId: string, eventIds: readonly string[]): Promise<void>
  /**
   * Hands over events left pending longer than `olderThanMs` (their relay never ran: the process stopped
   * between the commit and the relay), at most `limit`; returns how many.
   */
  sweep(options: { olderThanMs: number; limit: number }): Promise<number>
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
   * Whether anything takes one of the event types for the tenant, as the text of one SQL boolean over two
   * placeholders the recorder names (`tenant`: a uuid, `types`: a text[]): it is read in the same round
   * trip as the insert, so an event nobody takes costs one statement (most tenants take none). The text
   * is asked for once and kept: the statement around it is fixed, prepared once per connection.
   */
  takesAny(placeholders: { readonly tenant: string; readonly types: string }): string
  /** In the recording transaction, when `takesAny` was true: hands the events over (queues their fan-out). */
  handOver(tx: Tx, tenantId: string, eventIds: readonly string[]): Promise<void>
}

export function createEventRecorder(deps: { db: Database; ids: IdSource; clock: Clock; subscriber: EventSubscriber }): EventRecorder {
  const takes = deps.subscriber.takesAny({ tenant: '$1::uuid', types: '$4::text[]' })
  /**
   * One INSERT of a batch, fixed text: $1 tenant, $2 the events as a JSON array of {id, type, payload,
   * audit_event_id}, $3 when, $4 their distinct types. With `pending`, the rows a subscriber takes are
   * marked for the hand-over after the commit; without, none is (they are handed over in the transaction).
   * Answers whether a subscriber takes them.
   */
  const insertText = (pending: boolean) =>
    statement<{ takes: boolean }>(
      `with subscribed as (select ${takes} as takes),
            inserted as (
              insert into ${getTableName(events)} (${[events.id, events.tenantId, events.eventType, events.payload, events.auditEventId, events.createdAt, events.fanoutPending].map((column) => `"${column.name}"`).join(', ')})
              select e->>'id', $1::uuid, e->>'type', e->'payload', e->>'audit_event_id', $3::timestamptz, ${pending ? 'subscribed.takes' : 'false'}
                from jsonb_array_elements($2::jsonb) as r(e), subscribed
              returning 1)
       select (select takes from subscribed) as takes from inserted limit 1`,
    )
  const insertPending = insertText(true)
  const insertHandedOver = insertText(false)
  const takesStatement = statement<{ takes: boolean }>(`select ${deps.subscriber.takesAny({ tenant: '$1::uuid', types: '$2::text[]' })} as takes`)
  function insertParameters(tenantId: string, batch: ReadonlyArray<Omit<BusinessEvent, 'tenantId'>>, ids: readonly string[]): unknown[] {
    const rows = batch.map((event, index) => ({ id: ids[index], type: event.type, payload: event.payload, audit_event_id: event.auditEventId }))
    return [tenantId, JSON.stringify(rows), deps.clock.now().toISOString(), [...new Set(batch.map((event) => event.type))]]
  }
  /** Clears the mark of these pending events and hands them over, in `tx`. */
  async function handOverPending(tx: Tx, tenantId: string, eventIds: readonly string[]): Promise<number> {
    const claimed = await queryRows<{ id: string }>(
      tx,
      sql`update ${events} set ${sql.identifier(events.fanoutPending.name)} = false
           where ${events.tenantId} = ${tenantId} and ${events.id} = any(${sql.param([...eventIds])}::text[]) and ${events.fanoutPending}
           returning ${events.id} as id`,
    )
    // In id order, the order they were recorded in.
    const ids = claimed.map((row) => row.id).sort()
    if (ids.length > 0) await deps.subscriber.handOver(tx, tenantId, ids)
    return ids.length
  }
  return {
    async recordEach(tx, tenantId, batch) {
      if (batch.length === 0) return []
      const ids = batch.map(() => deps.ids.newId('event'))
      // Handed over in this transaction, so never marked pending; the subscriber check answers with the insert.
      const recorded = await insertHandedOver.first(tx, insertParameters(tenantId, batch, ids))
      if (recorded?.takes === true) await deps.subscriber.handOver(tx, tenantId, ids)
      return ids
    },
    send(tx, tenantId, batch) {
      if (batch.length === 0) return { ids: [], written: Promise.resolve(false) }
      const ids = batch.map(() => deps.ids.newId('event'))
      const written = insertPending.first(tx, insertParameters(tenantId, batch, ids)).then((row) => row?.takes === true)
      return { ids, written }
    },
    async relay(tenantId, eventIds) {
      if (eventIds.length === 0) return
      await deps.db.transaction((tx) => handOverPending(tx, tenantId, eventIds))
    },
    async sweep({ olderThanMs, limit }) {
      const before = new Date(deps.clock.now().getTime() - olderThanMs)
      const stale = await queryRows<{ tenant_id: string; id: string }>(
        deps.db.orm,
        sql`select ${events.tenantId} as tenant_id, ${events.id} as id from ${events}
             where ${events.fanoutPending} and ${events.createdAt} < ${before.toISOString()}::timestamptz
             order by ${events.createdAt} limit ${limit}`,
      )
      const byTenant = new Map<string, string[]>()
      for (const row of stale) byTenant.set(row.tenant_id, [...(byTenant.get(row.tenant_id) ?? []), row.id])
      let handed = 0
      for (const [tenantId, ids] of byTenant) handed += await deps.db.transaction((tx) => handOverPending(tx, tenantId, ids))
      return handed
    },
    async recordMany(tx, tenantId, batch) {
      if (batch.length === 0) return
      const createdAt = deps.clock.now()
      const subscribed = await takesStatement.first(tx, [tenantId, [...new Set(batch.map((event) => event.type))]])
      const rows = batch.map((event) => ({
        id: deps.ids.newId('event'),
        tenantId,
        eventType: event.type,
        payload: event.payload,
        auditEventId: event.auditEventId,
        createdAt,
        fanoutPending: false, // handed over below, in this transaction
      }))
      // One statement for the whole batch (a COPY on a server, see db/bulk.ts): every statement more is
      // a round trip the caller's transaction waits for.
      await copyMany(tx, events, rows)
      if (subscribed?.takes === true) await deps.subscriber.handOver(tx, tenantId, rows.map((row) => row.id))
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

/**
 * Marks events as awaiting their hand-over again, so that `EventRecorder.sweep` hands them over anew (a
 * new fan-out with a fresh set of retries): for a subscriber whose job for them failed for good. Returns
 * how many of them exist.
 */
export async function returnToPending(executor: Executor, tenantId: string, eventIds: readonly string[]): Promise<number> {
  if (eventIds.length === 0) return 0
  const marked = await queryRows<{ id: string }>(
    executor,
    sql`update ${events} set ${sql.identifier(events.fanoutPending.name)} = true
         where ${events.tenantId} = ${tenantId} and ${events.id} = any(${sql.param([...eventIds])}::text[])
         returning ${events.id} as id`,
  )
  return marked.length
}

/**
 * Hands over, every `intervalMs`, the events whose relay never ran (`EventRecorder.sweep`): the process
 * that committed them stopped before handing them over. Events pending less than `olderThanMs` are left
 * to their own relay. Returns a function that stops the loop and waits for a sweep under way.
 */
export function startEventSweeper(
  recorder: Pick<EventRecorder, 'sweep'>,
  options: { intervalMs: number; olderThanMs: number; limit: number; onError: (error: unknown) => void },
): () => Promise<void> {
  let running: Promise<void> | undefined
  const timer = setInterval(() => {
    if (running !== undefined) return
    running = (async () => {
      try {
        // A full page means more may wait: take the next at once.
        while ((await recorder.sweep({ olderThanMs: options.olderThanMs, limit: options.limit })) === options.limit) {}
      } catch (error) {
        options.onError(error)
      } finally {
        running = undefined
      }
    })()
  }, options.intervalMs)
  timer.unref()
  return async () => {
    clearInterval(timer)
    await running
  }
}
