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
/** At most one wake-up notification per process in this interval. */
export const wakeIntervalMs = 100

export function createAuditRecorder(deps: { ids: IdSource; clock: Clock }): AuditRecorder {
  // Real elapsed time, not the injected clock: this paces notifications, it records nothing.
  let lastWakeAtMs = Number.NEGATIVE_INFINITY
  const recorder: AuditRecorder = {
    async record(tx, record) {
      const sent = recorder.send(tx, record)
      await sent.written
      return { id: sent.id }
    },
    send(tx, record) {
      const inputs = record.inputs ?? {}
      const outputs = record.outputs ?? {}
      assertAuditFields(inputs, 'inputs')
      assertAuditFields(outputs, 'outputs')
      const id = deps.ids.newId('auditEvent')
      // Millisecond precision: the chain hash covers the ISO string, and timestamptz keeps microseconds.
      const createdAt = new Date(Math.floor(deps.clock.now().getTime()))
      const parameters = [
        id,
        record.tenantId,
        record.layer,
        record.actor.type,
        record.actor.id,
        record.action,
        record.entity.type,
        record.entity.id,
        JSON.stringify(inputs),
        JSON.stringify(outputs),
        record.evidenceIds ?? [],
        record.requestId ?? null,
        createdAt.toISOString(),
      ]
      const nowMs = performance.now()
      let insert = insertEvent
      if (nowMs - lastWakeAtMs >= wakeIntervalMs) {
        lastWakeAtMs = nowMs
        insert = insertEventAndNotify
      }
      return { id, written: insert.rows(tx, parameters).then(() => undefined) }
    },
  }
  return recorder
}
