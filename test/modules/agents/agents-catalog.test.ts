/**
 * The first-party catalog (issue 18, item 3): GET /v1/agents lists every agent that has a working
 * program, with its category, capabilities and behaviour hash, filtered as the spec says; GET
 * /v1/agents/{agent_id} gives the definition with shadow_mode (true until an admin promotes the agent for
 * the tenant) and a null registration. An unknown id is 404 agent_not_found.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { catalog } from '../../../src/modules/agents/index.ts'
import { addMember, createTestApp, expectError, signupOwner, type TenantOwner, type TestApp } from '../../support/harness.ts'
import { getOk } from '../../support/ledger.ts'
import { promotionRequest } from '../../support/payments.ts'

let test: TestApp
let owner: TenantOwner
beforeAll(async () => {
  test = await createTestApp()
  owner = await signupOwner(test)
})
afterAll(async () => test?.close())

const keys = ['bill_payment', 'collections', 'reconciliation', 'subscriptions', 'fraud_anomaly', 'vendor_risk', 'cash_forecast']

describe('GET /v1/agents', () => {
  it('lists every first-party agent, each with a working program and its behaviour hash', async () => {
    const { agents } = await getOk(test, owner.token, '/v1/agents')
    expect(agents.map((agent: { agent_key: string }) => agent.agent_key)).toEqual(keys)
    for (const agent of agents) {
      expect(agent).toMatchObject({ provenance: 'first_party', kind: 'internal', version: expect.any(String), behavior_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) })
      expect(agent.capabilities.length).toBeGreaterThan(0)
    }
    expect(new Set(agents.map((agent: { behavior_hash: string }) => agent.behavior_hash)).size).toBe(keys.length)
  })

  it('filters by kind, capability, category and state', async () => {
    const capability = catalog[0]!.capabilities[0]!
    const withCapability = await getOk(test, owner.token, `/v1/agents?capability=${encodeURIComponent(capability)}`)
    expect(withCapability.agents.length).toBeGreaterThan(0)
    expect(withCapability.agents.every((agent: { capabilities: string[] }) => agent.capabilities.includes(capability))).toBe(true)
    expect((await getOk(test, owner.token, '/v1/agents?kind=external')).agents).toEqual([])
    expect((await getOk(test, owner.token, '/v1/agents?kind=internal')).agents).toHaveLength(keys.length)
    expect((await getOk(test, owner.token, '/v1/agents?state=disabled')).agents).toEqual(catalog.filter((entry) => !entry.enabled_by_default))
    const business = (await getOk(test, owner.token, '/v1/agents?category=business')).agents
    expect(business).toEqual(catalog.filter((entry) => entry.category === 'business'))
    expectError(await test.request({ method: 'GET', url: '/v1/agents?category=nope', token: owner.token }), 'request_params_invalid')
  })
})

describe('GET /v1/agents/{agent_id}', () => {
  it('gives the definition with shadow_mode, which a promotion for the tenant turns off, and a null registration', async () => {
    const detail = await getOk(test, owner.token, '/v1/agents/bill_payment')
    expect(detail).toEqual({ agent_id: 'bill_payment', definition: { ...catalog.find((entry) => entry.agent_key === 'bill_payment'), shadow_mode: true }, registration: null, state: 'active', contribution_hold: false })
    const admin = await addMember(test, owner, 'admin')
    const promoted = await test.request({ method: 'POST', url: '/v1/execution/agents/bill_payment/promote', token: admin.token, payload: promotionRequest({ reason: 'bills agent live' }) })
    expect(promoted.statusCode, promoted.body).toBe(201)
    expect((await getOk(test, owner.token, '/v1/agents/bill_payment')).definition.shadow_mode).toBe(false)
    // Another tenant's promotion is its own.
    const other = await signupOwner(test)
    expect((await getOk(test, other.token, '/v1/agents/bill_payment')).definition.shadow_mode).toBe(true)
  })

  it('404 agent_not_found for an id that is not in the catalog', async () => {
    for (const id of ['nope', 'svt_01JZZZZZZZZZZZZZZZZZZZZZZZ', 'BILL_PAYMENT']) expectError(await test.request({ method: 'GET', url: `/v1/agents/${id}`, token: owner.token }), 'agent_not_found')
  })
})
