/**
 * Where commands record their audit events: inside their own transaction, so the record and the change
 * it describes commit or roll back together. The audit module implements it (its recorder writes the
 * inbox its sequencer chains); composition plugs it in, so no module needs the audit module to record.
 */
import type { AuditRecord } from '../../kernel/audit-record.ts'
import type { Tx } from '../db/database.ts'

export interface RecordedAuditEvent {
  readonly id: string
}

export interface AuditRecorder {
  record(tx: Tx, record: AuditRecord): Promise<RecordedAuditEvent>
  /**
   * The same, without waiting: the event's id at once and the write under way, so what cites the event
   * (business events) can go out beside it. The caller awaits `written` before its transaction commits.
   */
  send(tx: Tx, record: AuditRecord): RecordedAuditEvent & { readonly written: Promise<void> }
  /** `send` for several records, in order, in one statement: their ids at once and the one write under way. */
  sendMany(tx: Tx, records: readonly AuditRecord[]): { readonly ids: readonly string[]; readonly written: Promise<void> }
}
