/**
 * Records an audit event inside the caller's transaction, so the record and the change it describes
 * commit or roll back together.
 *
 * Recording takes no lock: it is one INSERT of the event's content into `audit_inbox` (two indexes).
 * The sequencer moves it into the tenant's hash chain moments later (see sequencer.ts); that split is
 * what lets a busy tenant write at close to the speed of plain inserts while its chain stays dense and
 * fork-free. The event is readable at once, through the `audit_event_log` view.
 *
 * The INSERT also sends a wake-up NOTIFY (delivered on commit), at most once per `wakeIntervalMs` per
 * process: PostgreSQL serializes the commits of notifying transactions on one global lock, so notifying
 * on every event halves write throughput under load, while the sequencer needs only one wake-up to
 * sweep every tenant's backlog (and sweeps on a timer anyway).
 */
import { statement } from '../../platform/db/statements.ts'
import type { IdSource } from '../../kernel/ids.ts'
import type { Clock } from '../../kernel/clock.ts'
import { assertAuditFields, type AuditRecord } from '../../kernel/audit-record.ts'
import type { AuditRecorder } from '../../platform/commands/audit-sink.ts'

export type { AuditRecorder, RecordedAuditEvent } from '../../platform/commands/audit-sink.ts'

/** The notification channel the sequencer listens on; the payload is the tenant id. */
export const auditAppendedChannel = 'steward_audit_appended'

/** The event's INSERT: written once (platform/db/statements.ts), since every command of every module runs it. */
const insertEventText = `insert into audit_inbox (id, tenant_id, layer, actor_type, actor_id, action, entity_type, entity_id,
                                                  inputs, outputs, evidence_ids, request_id, created_at)
                         values ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10::jsonb, $11::text[], $12, $13)`
const insertEvent = statement(insertEventText)
/** One round trip: the insert, and a notification PostgreSQL delivers only if the transaction commits. */
const insertEventAndNotify = statement(
  `with inserted as (${insertEventText} returning tenant_id) select pg_notify('${auditAppendedChannel}', tenant_id::text) from inserted`,
)
/**
 * Several events in one statement: the rows as one JSON array ($1), inserted in its order (their
 * recorded order), whatever their number; the notifying variant wakes the sequencer once per tenant.
 */
const insertEventsText = `insert into audit_inbox (id, tenant_id, layer, actor_type, actor_id, action, entity_type, entity_id,
                                                   inputs, outputs, evidence_ids, request_id, created_at)
                          select id, tenant_id, layer, actor_type, actor_id, action, entity_type, entity_id, inputs, outputs, evidence_ids, request_id, created_at
                            from rows from (jsonb_to_recordset($1::jsonb) as (id text, tenant_id uuid, layer text, actor_type text, actor_id text, action text,
                                                                              entity_type text, entity_id text, inputs jsonb, outputs jsonb, evidence_ids text[],
                                                                              request_id text, created_at timestamptz))
                                 with ordinality as event(id, tenant_id, layer, actor_type, actor_id, action, entity_type, entity_id, inputs, outputs,
                                                          evidence_ids, request_id, created_at, position)
                           order by position`
const insertEvents = statement(insertEventsText)
const insertEventsAndNotify = statement(
  `with inserted as (${insertEventsText} returning tenant_id)
   select pg_notify('${auditAppendedChannel}', tenant_id::text) from (select distinct tenant_id from inserted) tenants`,
)
/** At most one wake-up notification per process in this interval. */
export const wakeIntervalMs = 100

export function createAuditRecorder(deps: { ids: IdSource; clock: Clock }): AuditRecorder {
  // Real elapsed time, not the injected clock: this paces notifications, it records nothing.
  let lastWakeAtMs = Number.NEGATIVE_INFINITY
  /** Whether this write should wake the sequencer (at most once per `wakeIntervalMs`). */
  const wake = () => {
    const nowMs = performance.now()
    if (nowMs - lastWakeAtMs < wakeIntervalMs) return false
    lastWakeAtMs = nowMs
    return true
  }
  /** The inbox row of a record, checked; its id made now. */
  const rowOf = (record: AuditRecord) => {
    const inputs = record.inputs ?? {}
    const outputs = record.outputs ?? {}
    assertAuditFields(inputs, 'inputs')
    assertAuditFields(outputs, 'outputs')
    return {
      id: deps.ids.newId('auditEvent'),
      tenant_id: record.tenantId,
      layer: record.layer,
      actor_type: record.actor.type,
      actor_id: record.actor.id,
      action: record.action,
      entity_type: record.entity.type,
      entity_id: record.entity.id,
      inputs,
      outputs,
      evidence_ids: record.evidenceIds ?? [],
      request_id: record.requestId ?? null,
      // Millisecond precision: the chain hash covers the ISO string, and timestamptz keeps microseconds.
      created_at: new Date(Math.floor(deps.clock.now().getTime())).toISOString(),
    }
  }
  const recorder: AuditRecorder = {
    async record(tx, record) {
      const sent = recorder.send(tx, record)
      await sent.written
      return { id: sent.id }
    },
    send(tx, record) {
      const row = rowOf(record)
      const insert = wake() ? insertEventAndNotify : insertEvent
      return { id: row.id, written: insert.rows(tx, [row.id, row.tenant_id, row.layer, row.actor_type, row.actor_id, row.action, row.entity_type, row.entity_id, JSON.stringify(row.inputs), JSON.stringify(row.outputs), row.evidence_ids, row.request_id, row.created_at]).then(() => undefined) }
    },
    sendMany(tx, records) {
      if (records.length === 1) {
        const sent = recorder.send(tx, records[0]!)
        return { ids: [sent.id], written: sent.written }
      }
      const rows = records.map(rowOf)
      if (rows.length === 0) return { ids: [], written: Promise.resolve() }
      const insert = wake() ? insertEventsAndNotify : insertEvents
      return { ids: rows.map((row) => row.id), written: insert.rows(tx, [JSON.stringify(rows)]).then(() => undefined) }
    },
  }
  return recorder
}
