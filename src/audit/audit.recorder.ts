/**
 * Appends an event to a tenant's audit chain inside the caller's transaction, so the record and the
 * change it describes commit or roll back together.
 *
 * Locks: the tenant's `audit_chain_heads` row (an upsert takes it), held until the caller commits. Every
 * append for one tenant therefore sees the previous one's hash: the chain never forks and `seq` never
 * skips, across requests and across processes. Tenants do not contend with each other.
 */
import { sql } from 'drizzle-orm'
import { queryRows, type Tx } from '../db/database.ts'
import type { IdSource } from '../kernel/ids.ts'
import type { Clock } from '../kernel/clock.ts'
import {
  assertAuditFields,
  genesisHash,
  hashAuditEvent,
  type ActorType,
  type AuditFields,
  type AuditLayer,
} from './domain/chain.ts'

export interface AuditActor {
  readonly type: ActorType
  readonly id: string
}

export interface AuditRecord {
  readonly tenantId: string
  readonly layer: AuditLayer
  readonly actor: AuditActor
  readonly action: string
  readonly entity: { readonly type: string; readonly id: string }
  readonly inputs?: AuditFields
  readonly outputs?: AuditFields
  readonly evidenceIds?: readonly string[]
  readonly requestId?: string | null
}

export interface RecordedAuditEvent {
  readonly id: string
  readonly seq: number
  readonly hash: string
}

export interface AuditRecorder {
  record(tx: Tx, record: AuditRecord): Promise<RecordedAuditEvent>
}

export function createAuditRecorder(deps: { ids: IdSource; clock: Clock }): AuditRecorder {
  return {
    async record(tx, record) {
      const inputs = record.inputs ?? {}
      const outputs = record.outputs ?? {}
      assertAuditFields(inputs, 'inputs')
      assertAuditFields(outputs, 'outputs')

      // One statement creates the head on first use and locks it in every case.
      const [current] = await queryRows<{ seq: string | number; hash: string }>(tx, sql`
        insert into audit_chain_heads (tenant_id, seq, hash, updated_at)
        values (${record.tenantId}, 0, ${genesisHash}, now())
        on conflict (tenant_id) do update set tenant_id = excluded.tenant_id
        returning seq, hash`)
      if (current === undefined) throw new Error('audit chain head upsert returned no row')

      const event = {
        id: deps.ids.newId('auditEvent'),
        tenantId: record.tenantId,
        seq: Number(current.seq) + 1,
        layer: record.layer,
        actor: record.actor,
        action: record.action,
        entity: record.entity,
        inputs,
        outputs,
        evidenceIds: record.evidenceIds ?? [],
        requestId: record.requestId ?? null,
        // Millisecond precision: the hash covers the ISO string, and timestamptz keeps microseconds.
        createdAt: new Date(Math.floor(deps.clock.now().getTime())),
        prevHash: current.hash,
      }
      const hash = hashAuditEvent(event)

      await tx.execute(sql`
        with appended as (
          insert into audit_events (id, tenant_id, seq, layer, actor_type, actor_id, action, entity_type, entity_id,
                                    inputs, outputs, evidence_ids, request_id, prev_hash, hash, created_at)
          values (${event.id}, ${event.tenantId}, ${event.seq}, ${event.layer}, ${event.actor.type}, ${event.actor.id},
                  ${event.action}, ${event.entity.type}, ${event.entity.id}, ${JSON.stringify(inputs)}::jsonb,
                  ${JSON.stringify(outputs)}::jsonb, ${sql.param(event.evidenceIds)}::text[], ${event.requestId},
                  ${event.prevHash}, ${hash}, ${event.createdAt.toISOString()})
          returning tenant_id, seq, hash
        )
        update audit_chain_heads set seq = appended.seq, hash = appended.hash, updated_at = now()
        from appended where audit_chain_heads.tenant_id = appended.tenant_id`)

      return { id: event.id, seq: event.seq, hash }
    },
  }
}
