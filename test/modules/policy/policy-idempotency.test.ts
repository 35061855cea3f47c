/**
 * Idempotency-Key on the policy module's commands: every route that writes (compose, sign, evaluate,
 * wallet link) replays the first outcome for a repeat (header Idempotent-Replayed: true, the command run
 * once) and refuses the key with another input (409 idempotency_key_reused); a malformed key is 400
 * before anything runs. The computations that write nothing (lint, simulate, simulate-historical, diff)
 * take no key: a repeat computes again and nothing is stored.
 */
import { sql } from 'drizzle-orm'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../../../src/platform/db/database.ts'
import { auditActions, auditEvents } from '../../support/audit-log.ts'
import { createTestApp, expectError, signupOwner, type TenantOwner, type TestApp } from '../../support/harness.ts'
import { describeKeyedRoutes, keyed, newIdempotencyKey, type KeyedRequest, type KeyedRoute } from '../../support/idempotency-cases.ts'
import { addSigner, compose, samplePolicy, signatureOf } from '../../support/policy.ts'

let test: TestApp
beforeAll(async () => {
  test = await createTestApp()
})
afterAll(async () => test?.close())

const newKey = newIdempotencyKey
type Request = KeyedRequest
const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address
const policyUrl = (owner: TenantOwner, path: string) => `/v1/policy/${owner.tenantId}/${path}`
const runsOf = (owner: TenantOwner, action: string) => async () => (await auditActions(test, owner.tenantId, { action })).length

const storedKeys = async (tenantId: string) =>
  (await queryRows<{ n: number }>(test.runtime.db.orm, sql`select count(*)::int as n from idempotency_keys where tenant_id = ${tenantId}`))[0]!.n
const evaluateEvents = async (tenantId: string) =>
  (await queryRows<{ n: number }>(test.runtime.db.orm, sql`select count(*)::int as n from events where tenant_id = ${tenantId} and event_type = 'policy.evaluate'`))[0]!.n


const keyedRoutes: ReadonlyArray<KeyedRoute> = [
  [
    'POST /v1/policy/{tenant_id}/compose',
    async () => {
      const owner = await signupOwner(test)
      const url = policyUrl(owner, 'compose')
      return {
        request: { method: 'POST', url, token: owner.token, payload: { content: samplePolicy() } },
        other: { method: 'POST', url, token: owner.token, payload: { content: samplePolicy(3) } },
        status: 201,
        runs: runsOf(owner, 'policy.composed'),
      }
    },
  ],
  [
    'POST /v1/policy/{tenant_id}/sign',
    async () => {
      const owner = await signupOwner(test)
      const [first, second] = [await addSigner(test, owner), await addSigner(test, owner)]
      // Quorum 2: the first signature leaves the version pending, so another signature could still run.
      const composed = await compose(test, owner, samplePolicy(), 2)
      const url = policyUrl(owner, 'sign')
      return {
        request: { method: 'POST', url, token: first.member.token, payload: { policy_id: composed.policy_id, signatures: [await signatureOf(first, composed)] } },
        other: { method: 'POST', url, token: first.member.token, payload: { policy_id: composed.policy_id, signatures: [await signatureOf(second, composed)] } },
        status: 200,
        runs: runsOf(owner, 'policy.signed'),
      }
    },
  ],
  [
    'POST /v1/policy/{tenant_id}/evaluate',
    async () => {
      const owner = await signupOwner(test)
      const url = policyUrl(owner, 'evaluate')
      return {
        request: { method: 'POST', url, token: owner.token, payload: { action: { kind: 'outbound_payment', amount: { currency: 'EUR', value: '10.00' } } } },
        other: { method: 'POST', url, token: owner.token, payload: { action: { kind: 'outbound_payment', amount: { currency: 'EUR', value: '11.00' } } } },
        status: 200,
        runs: runsOf(owner, 'policy.evaluate'),
      }
    },
  ],
  [
    'POST /v1/tenants/{tenant_id}/wallets',
    async () => {
      const owner = await signupOwner(test)
      const url = `/v1/tenants/${owner.tenantId}/wallets`
      return {
        request: { method: 'POST', url, token: owner.token, payload: { address: freshAddress(), principal_type: 'human' } },
        other: { method: 'POST', url, token: owner.token, payload: { address: freshAddress(), principal_type: 'human' } },
        status: 201,
        runs: runsOf(owner, 'wallet.linked'),
      }
    },
  ],
]

describe('Idempotency-Key on the policy module\'s commands', () => {
  describeKeyedRoutes(() => test, keyedRoutes)
})

describe('what a replay means for each policy command', () => {
  it('sign: a retry of the signature that activated the version replays 200 where a new call is 409', async () => {
    const owner = await signupOwner(test)
    const signer = await addSigner(test, owner)
    const composed = await compose(test, owner, samplePolicy())
    const request: Request = { method: 'POST', url: policyUrl(owner, 'sign'), token: signer.member.token, payload: { policy_id: composed.policy_id, signatures: [await signatureOf(signer, composed)] } }
    const key = newKey()
    const first = await test.request(keyed(request, key))
    expect(first.statusCode, first.body).toBe(200)
    expect(first.json()).toMatchObject({ activated: true, policy: { state: 'active' } })

    const replay = await test.request(keyed(request, key))
    expect(replay.statusCode, replay.body).toBe(200)
    expect(replay.headers['idempotent-replayed']).toBe('true')
    expect(replay.json()).toEqual(first.json())
    expectError(await test.request(request), 'policy_quorum_not_met')
    expect(await auditActions(test, owner.tenantId, { entityId: composed.policy_id })).toEqual(['policy.composed', 'policy.signed', 'policy.activated'])
  })

  it('sign: a refused call stores no outcome, so a retry with the key runs (and is refused and audited) again', async () => {
    const owner = await signupOwner(test)
    const composed = await compose(test, owner, samplePolicy())
    const stranger = privateKeyToAccount(generatePrivateKey())
    const approver = await addSigner(test, owner)
    const signature = { address: stranger.address, signature: await stranger.signTypedData(composed.signing_payload) }
    const request = keyed({ method: 'POST', url: policyUrl(owner, 'sign'), token: approver.member.token, payload: { policy_id: composed.policy_id, signatures: [signature] } }, newKey())
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const refused = await test.request(request)
      expect(expectError(refused, 'policy_signature_invalid').details).toMatchObject({ reason: 'not_authorized' })
      expect(refused.headers['idempotent-replayed']).toBeUndefined()
    }
    expect(await auditActions(test, owner.tenantId, { action: 'policy.signature_refused' })).toHaveLength(2)
    expect(await storedKeys(owner.tenantId)).toBe(0)
  })

  it('evaluate: a retry gets the first decision and audit_event_id, with one audit event and one webhook event', async () => {
    const owner = await signupOwner(test)
    const request = keyed({ method: 'POST', url: policyUrl(owner, 'evaluate'), token: owner.token, payload: { action: { kind: 'ledger_write' } } }, newKey())
    const first = await test.request(request)
    expect(first.statusCode, first.body).toBe(200)
    const replay = await test.request(request)
    expect(replay.headers['idempotent-replayed']).toBe('true')
    expect(replay.json().audit_event_id).toBe(first.json().audit_event_id)
    const audited = await auditEvents(test, owner.tenantId, { action: 'policy.evaluate' })
    expect(audited.map((event) => event.id)).toEqual([first.json().audit_event_id])
    expect(await evaluateEvents(owner.tenantId)).toBe(1)
    // Without a key, every call is an evaluation of its own.
    const unkeyed = { method: 'POST' as const, url: policyUrl(owner, 'evaluate'), token: owner.token, payload: { action: { kind: 'ledger_write' } } }
    expect((await test.request(unkeyed)).json().audit_event_id).not.toBe(first.json().audit_event_id)
    expect(await evaluateEvents(owner.tenantId)).toBe(2)
  })

  it('wallet link: a retry of a link that committed gets the wallet, where a new call is 409 wallet_already_linked', async () => {
    const owner = await signupOwner(test)
    const request: Request = { method: 'POST', url: `/v1/tenants/${owner.tenantId}/wallets`, token: owner.token, payload: { address: freshAddress(), principal_type: 'human' } }
    const key = newKey()
    const first = await test.request(keyed(request, key))
    expect(first.statusCode, first.body).toBe(201)
    const replay = await test.request(keyed(request, key))
    expect(replay.statusCode).toBe(201)
    expect(replay.headers['idempotent-replayed']).toBe('true')
    expect(replay.json()).toEqual(first.json())
    expectError(await test.request(request), 'wallet_already_linked')
  })
})

describe('computations that take no Idempotency-Key', () => {
  it('lint, simulate, simulate-historical and diff compute again for a repeated key and store nothing', async () => {
    const owner = await signupOwner(test)
    const requests: Array<[string, object]> = [
      ['lint', { policy_content: samplePolicy() }],
      ['simulate', { action: { kind: 'ledger_write' }, version: 1 }],
      ['simulate-historical', { policy_content: samplePolicy(), period_start: '2026-01-01', period_end: '2026-01-31' }],
      ['diff', { from_version: 1, to_version: 1 }],
    ]
    const key = newKey()
    for (const [path, payload] of requests) {
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const response = await test.request(keyed({ method: 'POST', url: policyUrl(owner, path), token: owner.token, payload }, key))
        expect(response.statusCode, `${path}: ${response.body}`).toBe(200)
        expect(response.headers['idempotent-replayed'], path).toBeUndefined()
      }
    }
    expect(await storedKeys(owner.tenantId)).toBe(0)
    expect(await auditActions(test, owner.tenantId, { layer: 'policy' })).toEqual([])
  })
})
