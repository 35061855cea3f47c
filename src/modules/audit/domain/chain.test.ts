import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { assertAuditFields } from '../../../kernel/audit-record.ts'
import { canonicalAuditEvent, genesisHash, hashAuditEvent, type AuditEventBody } from './chain.ts'

const event: AuditEventBody = {
  id: 'aev_01JD0000000000000000000000',
  tenantId: '01930000-0000-7000-8000-000000000001',
  seq: 1,
  layer: 'audit',
  actor: { type: 'user', id: 'usr_1' },
  action: 'tenant.signed_up',
  entity: { type: 'tenant', id: '01930000-0000-7000-8000-000000000001' },
  inputs: { request: 'sha256:abc' },
  outputs: { user_id: 'usr_1', count: 2, flag: true, none: null, ids: ['a', 'b'] },
  evidenceIds: ['raw_1'],
  requestId: 'req_1',
  createdAt: new Date('2026-11-21T10:00:00.123Z'),
  prevHash: genesisHash,
}

describe('the audit hash', () => {
  it('is SHA-256 of the documented canonical form, recomputable without this code', () => {
    // Written out by hand, as a third party following docs/audit.md would.
    const expected =
      '{"action":"tenant.signed_up","actor":{"id":"usr_1","type":"user"},"created_at":"2026-11-21T10:00:00.123Z",' +
      '"entity":{"id":"01930000-0000-7000-8000-000000000001","type":"tenant"},"evidence_ids":["raw_1"],' +
      '"id":"aev_01JD0000000000000000000000","inputs":{"request":"sha256:abc"},"layer":"audit",' +
      '"outputs":{"count":2,"flag":true,"ids":["a","b"],"none":null,"user_id":"usr_1"},' +
      `"prev_hash":"${'0'.repeat(64)}","request_id":"req_1","seq":1,"tenant_id":"01930000-0000-7000-8000-000000000001","v":1}`
    expect(canonicalAuditEvent(event)).toBe(expected)
    expect(hashAuditEvent(event)).toBe(createHash('sha256').update(expected).digest('hex'))
  })

  it('changes when any field changes, including the link to the previous event', () => {
    const base = hashAuditEvent(event)
    expect(hashAuditEvent({ ...event, prevHash: 'f'.repeat(64) })).not.toBe(base)
    expect(hashAuditEvent({ ...event, seq: 2 })).not.toBe(base)
    expect(hashAuditEvent({ ...event, outputs: { ...event.outputs, count: 3 } })).not.toBe(base)
  })

  it('refuses nested payloads and long strings in inputs and outputs', () => {
    expect(() => assertAuditFields({ body: { nested: true } } as never, 'inputs')).toThrow(/scalar/)
    expect(() => assertAuditFields({ blob: 'x'.repeat(257) }, 'outputs')).toThrow(/too long/)
    expect(() => assertAuditFields({ ids: ['a', 'b'], n: 1 }, 'outputs')).not.toThrow()
  })
})
