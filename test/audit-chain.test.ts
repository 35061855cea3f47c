/**
 * The audit chain as every write so far leaves it: dense, linked, recomputable, append-only, and
 * unforked under concurrent writers (really concurrent on PostgreSQL; serialized by the engine on PGlite).
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashAuditEvent, genesisHash, type AuditEventBody } from '../src/audit/domain/chain.ts'
import { queryRows } from '../src/db/database.ts'
import { createTestApp, signupOwner, uniqueEmail, type TestApp } from './support/harness.ts'

let test: TestApp
beforeAll(async () => {
  test = await createTestApp()
})
afterAll(async () => test?.close())

interface AuditRow {
  id: string
  tenant_id: string
  seq: string | number
  layer: AuditEventBody['layer']
  actor_type: AuditEventBody['actor']['type']
  actor_id: string
  action: string
  entity_type: string
  entity_id: string
  inputs: Record<string, never>
  outputs: Record<string, never>
  evidence_ids: string[]
  request_id: string | null
  prev_hash: string
  hash: string
  created_at: string | Date
}

async function walk(tenantId: string) {
  const rows = await queryRows<AuditRow>(test.runtime.db.orm, sql`select * from audit_events where tenant_id = ${tenantId} order by seq`)
  let previous = genesisHash
  rows.forEach((row, index) => {
    expect(Number(row.seq)).toBe(index + 1)
    expect(row.prev_hash).toBe(previous)
    const recomputed = hashAuditEvent({
      id: row.id,
      tenantId: row.tenant_id,
      seq: Number(row.seq),
      layer: row.layer,
      actor: { type: row.actor_type, id: row.actor_id },
      action: row.action,
      entity: { type: row.entity_type, id: row.entity_id },
      inputs: row.inputs,
      outputs: row.outputs,
      evidenceIds: row.evidence_ids,
      requestId: row.request_id,
      createdAt: new Date(row.created_at),
      prevHash: row.prev_hash,
    })
    expect(recomputed, `event ${row.seq} (${row.action})`).toBe(row.hash)
    previous = row.hash
  })
  const [head] = await queryRows<{ seq: string | number; hash: string }>(test.runtime.db.orm, sql`select seq, hash from audit_chain_heads where tenant_id = ${tenantId}`)
  expect(Number(head!.seq)).toBe(rows.length)
  expect(head!.hash).toBe(previous)
  return rows
}

describe('the audit chain', () => {
  it('records every write of a tenant as a dense, linked, recomputable chain', async () => {
    const owner = await signupOwner(test)
    await test.request({ method: 'POST', url: `/v1/tenants/${owner.tenantId}/members`, token: owner.token, payload: { email: uniqueEmail(), role: 'viewer' } })
    await test.request({ method: 'POST', url: `/v1/tenants/${owner.tenantId}/api-keys`, token: owner.token, payload: { name: 'k' } })
    const rows = await walk(owner.tenantId)
    expect(rows.map((row) => row.action)).toEqual(['tenant.signed_up', 'user.email_verified', 'auth.login_succeeded', 'member.invited', 'api_key.issued'])
    // Attribution: the request that made each change.
    expect(rows.every((row) => row.request_id?.startsWith('req_'))).toBe(true)
  })

  it('never forks or skips under concurrent writers to one tenant', async () => {
    const owner = await signupOwner(test)
    const responses = await Promise.all(
      Array.from({ length: 12 }, () =>
        test.request({ method: 'POST', url: `/v1/tenants/${owner.tenantId}/members`, token: owner.token, payload: { email: uniqueEmail(), role: 'viewer' } }),
      ),
    )
    expect(responses.map((response) => response.statusCode)).toEqual(Array(12).fill(201))
    const rows = await walk(owner.tenantId)
    expect(rows.filter((row) => row.action === 'member.invited')).toHaveLength(12)
  })

  it('is append-only in the database itself: UPDATE, DELETE and TRUNCATE are refused', async () => {
    const owner = await signupOwner(test)
    const db = test.runtime.db.orm
    await expect(db.execute(sql`update audit_events set action = 'forged' where tenant_id = ${owner.tenantId}`)).rejects.toThrow()
    await expect(db.execute(sql`delete from audit_events where tenant_id = ${owner.tenantId}`)).rejects.toThrow()
    await expect(db.execute(sql`truncate audit_events`)).rejects.toThrow()
    await walk(owner.tenantId)
  })
})
