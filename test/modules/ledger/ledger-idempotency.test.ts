/**
 * Idempotency-Key on the Ledger's commands: every POST (normalize, reconcile, the trust transitions)
 * replays the first outcome for a repeat (header Idempotent-Replayed: true, the command run once) and
 * refuses the key with another input (409 idempotency_key_reused); a malformed key is 400 before anything
 * runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditActions } from '../../support/audit-log.ts'
import { addMember, createTestApp, expectError, signupOwner, type TestApp } from '../../support/harness.ts'
import { describeKeyedRoutes, keyed, newIdempotencyKey, type KeyedRequest, type KeyedRoute } from '../../support/idempotency-cases.ts'
import { bankTransaction, getOk, normalize, seedArtifact } from '../../support/ledger.ts'

let test: TestApp
beforeAll(async () => {
  // Workers on: a reconciliation request enqueues its job inside its transaction, and on PGlite that
  // hangs unless pg-boss already has the queue cached, which starting its worker does.
  test = await createTestApp({ workers: true })
})
afterAll(async () => test?.close())

const newKey = newIdempotencyKey
type Request = KeyedRequest

/** A tenant with an admin (ledger:write) and two parsed rows not yet normalized. */
async function tenantWithRows() {
  const owner = await signupOwner(test)
  const admin = await addMember(test, owner, 'admin')
  const seeded = await seedArtifact(test, owner.tenantId, [
    bankTransaction({ amount: '-12.00', transaction_date: '2026-03-02', description: 'PAPER SHOP', counterparty: { name: 'Paper Shop' } }),
    bankTransaction({ amount: '-30.00', transaction_date: '2026-03-03', description: 'INK SHOP', counterparty: { name: 'Ink Shop' } }),
  ])
  return { owner, admin, ...seeded }
}

/** A tenant whose rows are normalized, and one of its counterparties (unreviewed). */
async function tenantWithCounterparty() {
  const tenant = await tenantWithRows()
  await normalize(test, tenant.owner.tenantId, tenant.artifactId)
  const { counterparties } = await getOk(test, tenant.owner.token, '/v1/ledger/counterparties')
  const counterparty = counterparties.find((row: { name: string }) => row.name === 'Paper Shop') as { id: string; trust_state: string }
  expect(counterparty.trust_state).toBe('unreviewed')
  return { ...tenant, counterpartyId: counterparty.id }
}


const keyedRoutes: ReadonlyArray<KeyedRoute> = [
  [
    'POST /v1/ledger/normalize',
    async () => {
      const { owner, admin, rowIds } = await tenantWithRows()
      const url = '/v1/ledger/normalize'
      return {
        request: { method: 'POST', url, token: admin.token, payload: { raw_parsed_id: rowIds[0] } },
        other: { method: 'POST', url, token: admin.token, payload: { raw_parsed_id: rowIds[1] } },
        status: 200,
        // A run that writes audits ledger.normalized; a second real run would write nothing and answer `unchanged`.
        runs: async () => (await auditActions(test, owner.tenantId, { action: 'ledger.normalized' })).length,
      }
    },
  ],
  [
    'POST /v1/ledger/reconcile',
    async () => {
      const { owner, admin } = await tenantWithRows()
      return {
        request: { method: 'POST', url: '/v1/ledger/reconcile', token: admin.token },
        // The route has no input: no other request can share the key.
        other: undefined,
        status: 202,
        runs: async () => (await auditActions(test, owner.tenantId, { action: 'ledger.reconcile_requested' })).length,
      }
    },
  ],
  [
    'POST /v1/ledger/counterparties/{counterparty_id}/trust/{action}',
    async () => {
      const { owner, admin, counterpartyId } = await tenantWithCounterparty()
      const url = (action: string) => `/v1/ledger/counterparties/${counterpartyId}/trust/${action}`
      return {
        // A second grant would be 409 (trusted cannot be granted): a 200 replay ran nothing.
        request: { method: 'POST', url: url('grant'), token: admin.token, payload: { reason: 'known supplier' } },
        // The action is part of the input: the key on another transition is another request.
        other: { method: 'POST', url: url('pause'), token: admin.token, payload: { reason: 'known supplier' } },
        status: 200,
        runs: async () => (await auditActions(test, owner.tenantId, { entityId: counterpartyId })).length,
      }
    },
  ],
]

describe('Idempotency-Key on the Ledger\'s commands', () => {
  describeKeyedRoutes(() => test, keyedRoutes)

  it('replays a normalization as first answered: the entities it created, not the unchanged of a fresh run', async () => {
    const { admin, rowIds } = await tenantWithRows()
    const request: Request = { method: 'POST', url: '/v1/ledger/normalize', token: admin.token, payload: { raw_parsed_id: rowIds[0] } }
    const key = newKey()
    const first = await test.request(keyed(request, key))
    expect(first.json().entities.map((entity: { outcome: string }) => entity.outcome)).toEqual(['created', 'created', 'created'])
    // Without the key the command runs again and finds nothing to write.
    const fresh = await test.request(request)
    expect(fresh.json().entities.map((entity: { outcome: string }) => entity.outcome)).toEqual(['unchanged', 'unchanged', 'unchanged'])
    // target_entities is accepted and ignored: no part of the request the key is compared with.
    const replay = await test.request(keyed({ ...request, payload: { raw_parsed_id: rowIds[0], target_entities: ['transaction'] } }, key))
    expect(replay.headers['idempotent-replayed']).toBe('true')
    expect(replay.json()).toEqual(first.json())
  })

  it('replays a reconciliation request with the same job, and queues no other run', async () => {
    const { owner, admin } = await tenantWithRows()
    const request = keyed({ method: 'POST', url: '/v1/ledger/reconcile', token: admin.token, payload: {} }, newKey())
    const first = await test.request(request)
    const replay = await test.request(request)
    expect(replay.json().job_id).toBe(first.json().job_id)
    await expect.poll(async () => (await getOk(test, owner.token, `/v1/ledger/jobs/${first.json().job_id}`)).status, { timeout: 20_000, interval: 100 }).toBe('succeeded')
    expect(await auditActions(test, owner.tenantId, { actions: ['ledger.reconcile_requested', 'ledger.reconcile_succeeded'] })).toEqual([
      'ledger.reconcile_requested',
      'ledger.reconcile_succeeded',
    ])
  })

  it('does not undo a later trust change: a replayed grant answers trusted, the counterparty stays paused', async () => {
    const { owner, admin, counterpartyId } = await tenantWithCounterparty()
    const grant = keyed({ method: 'POST', url: `/v1/ledger/counterparties/${counterpartyId}/trust/grant`, token: admin.token }, newKey())
    expect((await test.request(grant)).json().trust_state).toBe('trusted')
    const paused = await test.request({ method: 'POST', url: `/v1/ledger/counterparties/${counterpartyId}/trust/pause`, token: admin.token })
    expect(paused.json().trust_state).toBe('paused')
    const replay = await test.request(grant)
    expect(replay.headers['idempotent-replayed']).toBe('true')
    expect(replay.json().trust_state).toBe('trusted')
    expect((await getOk(test, owner.token, `/v1/ledger/counterparties/${counterpartyId}`)).trust_state).toBe('paused')
    expect(await auditActions(test, owner.tenantId, { entityId: counterpartyId })).toEqual(['ledger.counterparty.trust_grant', 'ledger.counterparty.trust_pause'])
  })

  it('keys are per tenant: the same key normalizes another tenant\'s row', async () => {
    const key = newKey()
    for (const { admin, rowIds } of [await tenantWithRows(), await tenantWithRows()]) {
      const response = await test.request(keyed({ method: 'POST', url: '/v1/ledger/normalize', token: admin.token, payload: { raw_parsed_id: rowIds[0] } }, key))
      expect(response.statusCode, response.body).toBe(200)
      expect(response.headers['idempotent-replayed']).toBeUndefined()
      expect(response.json().raw_parsed_id).toBe(rowIds[0])
    }
  })
})
