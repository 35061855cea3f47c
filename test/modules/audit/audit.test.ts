/**
 * The audit routes: Merkle batches that close on count or on wait, inclusion proofs that the standalone
 * verifier and the public verify route accept, listings, entity timelines and exports.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifyEventProof, type ProofDocument } from '../../../src/modules/audit/verifier.ts'
import { auditActions, auditEvents } from '../../support/audit-log.ts'
import { addMember, createTestApp, expectError, fixedClock, issueApiKey, signupOwner, type TenantOwner, type TestApp } from '../../support/harness.ts'

const clock = fixedClock(new Date('2026-11-21T10:00:00.000Z'))
let test: TestApp
beforeAll(async () => {
  // Small batches so tests fill them; the wait is long so only the count or the clock closes them.
  test = await createTestApp({ clock, env: { AUDIT_BATCH_EVENTS_MAX: '4', AUDIT_BATCH_WAIT_SECONDS: '60' }, workers: true })
})
afterAll(async () => test?.close())

const get = (url: string, token: string) => test.request({ method: 'GET', url, token })

async function eventIds(tenantId: string): Promise<string[]> {
  return (await auditEvents(test, tenantId)).map((event) => event.id)
}

/** A tenant with `extra` more events than signup's three (each an API key issued). */
async function tenantWithEvents(extra: number): Promise<TenantOwner> {
  const owner = await signupOwner(test)
  for (let index = 0; index < extra; index += 1) await issueApiKey(test, owner, { name: `key ${index}` })
  return owner
}

describe('Merkle batches', () => {
  it('close on the event count: 8 events make two anchors of 4, and the latest is the second', async () => {
    const owner = await tenantWithEvents(5)
    await test.runtime.settleAudit()
    const latest = await get('/v1/audit/anchor/latest', owner.token)
    expect(latest.statusCode, latest.body).toBe(200)
    expect(latest.json()).toMatchObject({
      tenant_id: owner.tenantId,
      event_count: 4,
      seq_from: 5,
      seq_to: 8,
      anchoring_mode: 'database_hash_chain',
      publication_status: 'not_applicable',
      onchain_tx_hash: null,
      onchain_block_number: null,
    })
    expect(latest.json().merkle_root).toMatch(/^0x[0-9a-f]{64}$/)
    expect(latest.json().guarantee).toMatch(/does not prove that Steward did not rewrite the chain/)
  })

  it('close on the maximum wait: a partial batch closes once its oldest event has waited', async () => {
    const owner = await signupOwner(test)
    await test.runtime.settleAudit()
    expectError(await get('/v1/audit/anchor/latest', owner.token), 'audit_anchor_not_found')
    clock.advance(61_000)
    try {
      await test.runtime.settleAudit()
      expect((await get('/v1/audit/anchor/latest', owner.token)).json()).toMatchObject({ seq_from: 1, seq_to: 3, event_count: 3 })
    } finally {
      clock.advance(-61_000)
    }
  })

  it('are closed by the running sequencer itself, with no manual settle', async () => {
    const owner = await tenantWithEvents(1)
    await expect.poll(async () => (await get('/v1/audit/anchor/latest', owner.token)).statusCode, { timeout: 15_000, interval: 100 }).toBe(200)
  })
})

describe('GET /v1/audit/event/{event_id}', () => {
  it('says pending before the event is linked or batched, then returns a proof the standalone verifier accepts', async () => {
    const owner = await tenantWithEvents(2)
    const [first] = await eventIds(owner.tenantId)
    // The worker links events within moments; this test reads before and after a full settle.
    const early = (await get(`/v1/audit/event/${first}`, owner.token)).json()
    expect(['pending_sequence', 'pending_batch', 'included']).toContain(early.inclusion.status)

    await test.runtime.settleAudit({ closeOpenBatch: true })
    for (const id of await eventIds(owner.tenantId)) {
      const response = await get(`/v1/audit/event/${id}`, owner.token)
      expect(response.statusCode, response.body).toBe(200)
      const document = response.json() as ProofDocument & { inclusion: { anchor: { merkle_root: string } } }
      expect(document.inclusion.status).toBe('included')
      expect(document.inclusion.anchor.merkle_root).toBe(document.inclusion.merkle_root)
      const report = await verifyEventProof(document)
      expect(report, JSON.stringify(report.checks)).toMatchObject({ ok: true })

      // A single changed byte anywhere fails the check that covers it.
      const tampered = { ...document, event: { ...document.event, action: 'tampered' } }
      expect((await verifyEventProof(tampered)).checks.find((check) => check.name === 'event_hash')?.passed).toBe(false)
      const wrongProof = { ...document, inclusion: { ...document.inclusion, proof: [`0x${'1'.repeat(64)}`, ...document.inclusion.proof.slice(1)] } }
      if (document.inclusion.proof.length > 0) expect((await verifyEventProof(wrongProof)).ok).toBe(false)
    }
  })

  it('answers 404 audit_event_not_found for an unknown id and for another tenant\'s event', async () => {
    const owner = await signupOwner(test)
    const other = await signupOwner(test)
    const [foreign] = await eventIds(other.tenantId)
    expectError(await get(`/v1/audit/event/${foreign}`, owner.token), 'audit_event_not_found')
    expectError(await get('/v1/audit/event/aev_00000000000000000000000000', owner.token), 'audit_event_not_found')
    // Whatever its shape (issue 15, item 2).
    expectError(await get('/v1/audit/event/nope', owner.token), 'audit_event_not_found')
  })
})

describe('POST /v1/audit/verify (public)', () => {
  it('answers whether the proof lands on the root and whether the root is anchored', async () => {
    const owner = await tenantWithEvents(1)
    await test.runtime.settleAudit()
    const [id] = await eventIds(owner.tenantId)
    const { event, inclusion } = (await get(`/v1/audit/event/${id}`, owner.token)).json()
    const verify = (payload: Record<string, unknown>) => test.request({ method: 'POST', url: '/v1/audit/verify', payload })

    const good = await verify({ event_hash: event.hash, proof: inclusion.proof, merkle_root: inclusion.merkle_root, tenant_id: owner.tenantId })
    expect(good.statusCode, good.body).toBe(200)
    expect(good.json()).toMatchObject({ valid: true, anchored: true, onchain_published: null, computed_root: inclusion.merkle_root })
    expect(good.json().anchors).toEqual([expect.objectContaining({ tenant_id: owner.tenantId, merkle_root: inclusion.merkle_root })])

    const wrongLeaf = (await verify({ event_hash: 'ab'.repeat(32), proof: inclusion.proof, merkle_root: inclusion.merkle_root })).json()
    expect(wrongLeaf).toMatchObject({ valid: false, anchored: true })
    const unknownRoot = (await verify({ event_hash: event.hash, proof: inclusion.proof, merkle_root: `0x${'cd'.repeat(32)}` })).json()
    expect(unknownRoot).toMatchObject({ valid: false, anchored: false, anchors: [] })
    const otherTenant = (await verify({ event_hash: event.hash, proof: inclusion.proof, merkle_root: inclusion.merkle_root, tenant_id: (await signupOwner(test)).tenantId })).json()
    expect(otherTenant).toMatchObject({ valid: true, anchored: false, anchors: [] })

    expectError(await verify({ event_hash: 'zz', proof: [], merkle_root: inclusion.merkle_root }), 'request_body_invalid')
    expectError(await verify({ event_hash: event.hash, proof: Array(65).fill(event.hash), merkle_root: inclusion.merkle_root }), 'request_body_invalid')
  })
})

describe('GET /v1/audit/events and /v1/audit/entity/{type}/{id}', () => {
  it('lists events in recorded order with filters and an opaque cursor', async () => {
    const owner = await tenantWithEvents(3)
    const first = (await get('/v1/audit/events?limit=2', owner.token)).json()
    expect(first.events.map((event: { action: string }) => event.action)).toEqual(['tenant.signed_up', 'user.email_verified'])
    const rest = (await get(`/v1/audit/events?limit=10&cursor=${encodeURIComponent(first.next_cursor)}`, owner.token)).json()
    expect(rest.events).toHaveLength(4)
    expect(rest.next_cursor).toBeNull()
    const issued = (await get(`/v1/audit/events?actor=user:${owner.userId}&layer=audit`, owner.token)).json()
    expect(issued.events).toHaveLength(6)
    expect((await get('/v1/audit/events?actor=service:nobody', owner.token)).json().events).toEqual([])
    const later = (await get(`/v1/audit/events?since=${encodeURIComponent(new Date(clock.now().getTime() + 1).toISOString())}`, owner.token)).json()
    expect(later.events).toEqual([])
    // A cursor belongs to its listing: reused with other filters it is refused.
    expectError(await get(`/v1/audit/events?layer=audit&cursor=${encodeURIComponent(first.next_cursor)}`, owner.token), 'invalid_cursor')
    expectError(await get('/v1/audit/events?limit=1001', owner.token), 'request_params_invalid')
    expectError(await get('/v1/audit/events?layer=finance', owner.token), 'request_params_invalid')
    expect((await get('/v1/audit/events?limit=1000', owner.token)).statusCode).toBe(200)
  })

  it('reads an entity\'s events in causal order; another tenant\'s entity is 404', async () => {
    const owner = await signupOwner(test)
    const member = await addMember(test, owner, 'viewer')
    await test.request({ method: 'PATCH', url: `/v1/tenants/${owner.tenantId}/members/${member.memberId}`, token: owner.token, payload: { role: 'approver' } })
    const timeline = (await get(`/v1/audit/entity/member/${member.memberId}`, owner.token)).json()
    expect(timeline).toMatchObject({ entity_type: 'member', entity_id: member.memberId })
    expect(timeline.events.map((event: { action: string }) => event.action)).toEqual(['member.invited', 'member.joined', 'member.updated'])
    const other = await signupOwner(test)
    expectError(await get(`/v1/audit/entity/member/${member.memberId}`, other.token), 'audit_entity_not_found')
    expectError(await get(`/v1/audit/entity/spaceship/${member.memberId}`, owner.token), 'request_params_invalid')
  })

  it('is readable with a read-only API key but not by a tenant without audit:read', async () => {
    const owner = await tenantWithEvents(0)
    const key = await issueApiKey(test, owner, { scopes: ['ledger:read'] })
    expectError(await get('/v1/audit/events', key.secret), 'auth_scope_insufficient')
    const auditKey = await issueApiKey(test, owner, { scopes: ['audit:read'] })
    expect((await get('/v1/audit/events', auditKey.secret)).statusCode).toBe(200)
  })
})

describe('POST /v1/audit/export', () => {
  it.each(['jsonl', 'csv'] as const)('exports %s: 202 with a status_url that reports progress, then serves the file', async (format) => {
    const owner = await tenantWithEvents(2)
    await test.runtime.settleAudit()
    const requested = await test.request({ method: 'POST', url: '/v1/audit/export', token: owner.token, payload: { format } })
    expect(requested.statusCode, requested.body).toBe(202)
    const exported = requested.json()
    expect(exported).toMatchObject({ status: 'queued', format, download_url: null })
    expect(exported.status_url).toBe(`http://steward.test/v1/audit/exports/${exported.export_id}`)
    const statusPath = new URL(exported.status_url).pathname
    await expect.poll(async () => (await get(statusPath, owner.token)).json().status, { timeout: 15_000, interval: 100 }).toBe('completed')
    const done = (await get(statusPath, owner.token)).json()
    // The export's own request is an audit event too, recorded before the job ran.
    expect(done).toMatchObject({ events_total: 6, events_written: 6, error: null })
    expect(done.sha256).toMatch(/^[0-9a-f]{64}$/)

    const file = await get(new URL(done.download_url).pathname, owner.token)
    expect(file.statusCode).toBe(200)
    expect(file.headers['content-type']).toMatch(format === 'csv' ? /^text\/csv/ : /^application\/x-ndjson/)
    expect(file.headers['content-disposition']).toBe(`attachment; filename="${exported.export_id}.${format}"`)
    expect(Number(file.headers['content-length'])).toBe(done.bytes)
    if (format === 'jsonl') {
      const lines = file.body.trim().split('\n').map((line) => JSON.parse(line))
      expect(lines.map((line: { action: string }) => line.action)).toEqual([
        'tenant.signed_up',
        'user.email_verified',
        'auth.login_succeeded',
        'api_key.issued',
        'api_key.issued',
        'audit.export_requested',
      ])
      expect(lines[0].seq).toBe(1)
    } else {
      const [header, ...rows] = file.body.trim().split('\n')
      expect(header).toBe('id,seq,created_at,layer,actor_type,actor_id,action,entity_type,entity_id,inputs,outputs,evidence_ids,request_id,prev_hash,hash')
      expect(rows).toHaveLength(6)
      expect(rows[0]).toContain('tenant.signed_up')
    }
  })

  it('filters by layer and period, refuses bad bodies, and hides another tenant\'s export', async () => {
    const owner = await tenantWithEvents(0)
    expectError(await test.request({ method: 'POST', url: '/v1/audit/export', token: owner.token, payload: { format: 'xml' } }), 'request_body_invalid')
    expectError(await test.request({ method: 'POST', url: '/v1/audit/export', token: owner.token, payload: { format: 'csv', everything: true } }), 'request_body_invalid')
    const requested = (await test.request({ method: 'POST', url: '/v1/audit/export', token: owner.token, payload: { format: 'jsonl', layer: 'ledger' } })).json()
    const statusPath = `/v1/audit/exports/${requested.export_id}`
    await expect.poll(async () => (await get(statusPath, owner.token)).json().status, { timeout: 15_000, interval: 100 }).toBe('completed')
    expect((await get(statusPath, owner.token)).json()).toMatchObject({ events_total: 0, events_written: 0, filters: { layer: 'ledger', since: null, until: null } })
    const other = await signupOwner(test)
    expectError(await get(statusPath, other.token), 'audit_export_not_found')
    expectError(await get(`${statusPath}/download`, other.token), 'audit_export_not_found')
  })

  it('queues one export for a repeated Idempotency-Key, replaying the first response; another body is 409', async () => {
    const owner = await tenantWithEvents(0)
    const key = `export-${owner.tenantId}`
    const exportWith = (payload: Record<string, unknown>) =>
      test.request({ method: 'POST', url: '/v1/audit/export', token: owner.token, headers: { 'idempotency-key': key }, payload })
    const first = await exportWith({ format: 'csv', layer: 'audit' })
    expect(first.statusCode, first.body).toBe(202)
    expect(first.headers['idempotent-replayed']).toBeUndefined()

    const again = await exportWith({ format: 'csv', layer: 'audit' })
    expect(again.statusCode, again.body).toBe(202)
    expect(again.headers['idempotent-replayed']).toBe('true')
    // The first response as it was (queued), whatever the job has done since.
    expect(again.json()).toEqual(first.json())
    expect(await auditActions(test, owner.tenantId, { action: 'audit.export_requested' })).toEqual(['audit.export_requested'])
    const statusPath = `/v1/audit/exports/${first.json().export_id}`
    await expect.poll(async () => (await get(statusPath, owner.token)).json().status, { timeout: 15_000, interval: 100 }).toBe('completed')

    expectError(await exportWith({ format: 'jsonl', layer: 'audit' }), 'idempotency_key_reused')
    expectError(await exportWith({ format: 'csv' }), 'idempotency_key_reused')
    expect(await auditActions(test, owner.tenantId, { action: 'audit.export_requested' })).toHaveLength(1)
  })

  it('answers 409 audit_export_not_ready before the file exists', async () => {
    const paused = await createTestApp()
    try {
      const owner = await signupOwner(paused)
      const requested = (await paused.request({ method: 'POST', url: '/v1/audit/export', token: owner.token, payload: { format: 'csv' } })).json()
      expectError(await paused.request({ method: 'GET', url: `/v1/audit/exports/${requested.export_id}/download`, token: owner.token }), 'audit_export_not_ready')
    } finally {
      await paused.close()
    }
  })
})

