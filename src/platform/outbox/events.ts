/**
 * Business events: the spec's fixed outbound vocabulary, written in the transaction of the change they
 * describe so that an event exists exactly when its change committed. The same transaction enqueues
 * the `webhook-fanout` job that delivers it to the tenant's webhook endpoints (when one takes it), so no
 * committed event is ever left undelivered and no rolled-back one is ever sent.
 */
import { sql, type SQL } from 'drizzle-orm'
import { queryRows, type Tx } from '../db/database.ts'
import { copyMany } from '../db/bulk.ts'
import { webhookEndpoints } from '../../modules/webhooks/webhooks.tables.ts'
import { events } from './outbox.tables.ts'
import type { JobQueue } from '../jobs/job-queue.ts'
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
  record(tx: Tx, event: BusinessEvent): Promise<{ id: string }>
  /**
   * Records many events of one tenant (a normalization run's created entities) with one insert and one
   * fanout job per `fanoutChunk` events, in the caller's transaction.
   */
  recordMany(tx: Tx, tenantId: string, batch: ReadonlyArray<Omit<BusinessEvent, 'tenantId'>>): Promise<void>
}

/** Events per `webhook-fanout` job. */
export const fanoutChunk = 500

/**
 * Whether an enabled endpoint of the tenant takes any of `types` (an empty `event_types` takes every
 * type, as `endpointAccepts` decides at fan-out), as one SQL boolean. An endpoint receives only the
 * events recorded after it is registered, so when none takes an event the fan-out job could deliver
 * nothing: the event is still recorded, but no job is queued (one indexed read instead of a job written,
 * claimed and completed — most tenants have no endpoint).
 */
function anyEndpointTakes(tenantId: string, types: readonly string[]): SQL {
  return sql`exists (
    select 1 from ${webhookEndpoints}
     where ${webhookEndpoints.tenantId} = ${tenantId} and ${webhookEndpoints.status} = 'enabled'
       and (cardinality(${webhookEndpoints.eventTypes}) = 0 or ${webhookEndpoints.eventTypes} && ${sql.param([...types])}::text[]))`
}

export function createEventRecorder(deps: { ids: IdSource; clock: Clock; jobs: Pick<JobQueue, 'enqueue'> }): EventRecorder {
  return {
    async record(tx, event) {
      const id = deps.ids.newId('event')
      // The insert and the endpoint check in one round trip (this runs on every audited single change).
      const [recorded] = await queryRows<{ fan_out: boolean }>(
        tx,
        sql`with inserted as (
              insert into ${events} (${sql.identifier(events.id.name)}, ${sql.identifier(events.tenantId.name)}, ${sql.identifier(events.eventType.name)},
                                     ${sql.identifier(events.payload.name)}, ${sql.identifier(events.auditEventId.name)}, ${sql.identifier(events.createdAt.name)})
              values (${id}, ${event.tenantId}, ${event.type}, ${JSON.stringify(event.payload)}::jsonb, ${event.auditEventId}, ${deps.clock.now().toISOString()}::timestamptz)
              returning 1)
            select ${anyEndpointTakes(event.tenantId, [event.type])} as fan_out from inserted`,
      )
      if (recorded?.fan_out === true) {
        await deps.jobs.enqueue(tx, 'webhook-fanout', { tenant_id: event.tenantId, event_ids: [id] })
      }
      return { id }
    },
    async recordMany(tx, tenantId, batch) {
      if (batch.length === 0) return
      const createdAt = deps.clock.now()
      const [subscribed] = await queryRows<{ fan_out: boolean }>(tx, sql`select ${anyEndpointTakes(tenantId, [...new Set(batch.map((event) => event.type))])} as fan_out`)
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
      if (subscribed?.fan_out !== true) return
      for (let offset = 0; offset < rows.length; offset += fanoutChunk) {
        await deps.jobs.enqueue(tx, 'webhook-fanout', { tenant_id: tenantId, event_ids: rows.slice(offset, offset + fanoutChunk).map((row) => row.id) })
      }
    },
  }
}
