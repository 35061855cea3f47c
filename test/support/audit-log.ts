/**
 * The one way tests read the audit log: a tenant's events, in the order they were recorded, filtered by
 * what the test cares about. (The audit module's `audit_event_log` view is its public read model; tests
 * of other modules read it only through here.)
 */
import { sql, type SQL } from 'drizzle-orm'
import { queryRows } from '../../src/platform/db/database.ts'
import type { TestApp } from './harness.ts'

export interface LoggedAuditEvent {
  readonly id: string
  readonly layer: string
  readonly actor_type: string
  readonly actor_id: string
  readonly action: string
  readonly entity_type: string
  readonly entity_id: string
  readonly inputs: Record<string, unknown>
  readonly outputs: Record<string, unknown>
  readonly evidence_ids: string[]
  readonly request_id: string | null
  readonly created_at: Date
}

export interface AuditLogFilter {
  readonly action?: string
  readonly actions?: readonly string[]
  readonly layer?: string
  readonly entityType?: string
  readonly entityId?: string
}

/** The tenant's audit events matching `filter`, oldest first. */
export async function auditEvents(test: Pick<TestApp, 'runtime'>, tenantId: string, filter: AuditLogFilter = {}): Promise<LoggedAuditEvent[]> {
  const conditions: SQL[] = [sql`tenant_id = ${tenantId}`]
  if (filter.action !== undefined) conditions.push(sql`action = ${filter.action}`)
  if (filter.actions !== undefined) conditions.push(sql`action = any(${sql.param([...filter.actions])}::text[])`)
  if (filter.layer !== undefined) conditions.push(sql`layer = ${filter.layer}`)
  if (filter.entityType !== undefined) conditions.push(sql`entity_type = ${filter.entityType}`)
  if (filter.entityId !== undefined) conditions.push(sql`entity_id = ${filter.entityId}`)
  return queryRows<LoggedAuditEvent>(
    test.runtime.db.orm,
    sql`select id, layer, actor_type, actor_id, action, entity_type, entity_id, inputs, outputs, evidence_ids, request_id, created_at
          from audit_event_log where ${sql.join(conditions, sql` and `)} order by recorded_order`,
  )
}

/** The actions of the tenant's audit events matching `filter`, oldest first. */
export async function auditActions(test: Pick<TestApp, 'runtime'>, tenantId: string, filter: AuditLogFilter = {}): Promise<string[]> {
  return (await auditEvents(test, tenantId, filter)).map((event) => event.action)
}
