/**
 * The agent registry and halt (issue 18, items 2 and 5) with no chain configured (a sandbox):
 * registration (201 pending_onchain, audited, Idempotency-Key), the sandbox resume that activates it,
 * registered agents in GET /v1/agents, the agent-protocol guard's refusals, and halt — an agent signed in
 * with its wallet proposes, is halted, and its in-flight intent is paused — restore, halt-category and
 * the contribution-hold release.
 */
import { decodeJwt } from 'jose'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Principal } from '../../../src/kernel/principal.ts'
import { buildSiwxMessage } from '../../../src/modules/auth/domain/siwx.ts'
import { catalog, scopeHashOfRole } from '../../../src/modules/agents/index.ts'
import { auditEvents } from '../../support/audit-log.ts'
import { addMember, createTestApp, expectError, signupOwner, type TestApp } from '../../support/harness.ts'
import { getOk } from '../../support/ledger.ts'
import { business, type Business } from '../../support/payments.ts'

let test: TestApp
let b: Business
beforeAll(async () => {
  test = await createTestApp()
  b = await business(test)
})
afterAll(async () => test?.close())

let sequence = 0
const newAgentId = () => `agt_${Date.now()}_${(sequence += 1)}`
const register = (token: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) => test.request({ method: 'POST', url: '/v1/execution/agents/register', token, payload, headers })
const resume = (tenantId: string, agentId: string) => test.runtime.agents.registry.resume({ requestId: 'req_test' }, { tenantId, agentId, actor: { type: 'platform', id: 'governance' } })

/** Registers a proposer agent with a fresh wallet, links the wallet, activates it (sandbox resume) and signs it in. */
async function signedInAgent() {
  const account = privateKeyToAccount(generatePrivateKey())
  const agentId = newAgentId()
  expect((await register(b.admin.token, { agent_id: agentId, role: 'proposer', display_name: 'Payer', onchain_address: account.address })).statusCode).toBe(201)
  const linked = await test.request({ method: 'POST', url: `/v1/tenants/${b.owner.tenantId}/wallets`, token: b.owner.token, payload: { address: account.address, principal_type: 'agent', principal_id: agentId } })
  expect(linked.statusCode, linked.body).toBe(201)
  await resume(b.owner.tenantId, agentId)
  const challenge = (await test.request({ method: 'POST', url: '/v1/auth/siwx/challenge', payload: { address: account.address } })).json()
  const message = buildSiwxMessage({ domain: challenge.domain, address: account.address, uri: challenge.uri, chainId: 8453, nonce: challenge.nonce, issuedAt: new Date(challenge.issued_at), expirationTime: new Date(challenge.expiration_time) })
  const signedIn = await test.request({ method: 'POST', url: '/v1/auth/siwx', payload: { message, signature: await account.signMessage({ message }), session_id: 'halt' } })
  expect(signedIn.statusCode, signedIn.body).toBe(200)
  return { agentId, token: signedIn.json().access_token as string }
}

const agentPrincipal = (tenantId: string, agentId: string, scopeHash: string | undefined): Principal => ({
  id: agentId,
  type: 'agent',
  tenantId,
  scopes: [],
  credentialId: agentId,
  rateLimit: { perMinute: 1, burst: 1 },
  ...(scopeHash === undefined ? {} : { scopeHash }),
})

describe('POST /v1/execution/agents/register', () => {
  it('registers an external agent: 201 kind external, state pending_onchain, registered_at null, audited, replayed by its Idempotency-Key', async () => {
    const agentId = newAgentId()
    const body = { agent_id: agentId, role: 'reader', display_name: 'Reader', scope_hash: scopeHashOfRole('reader').toUpperCase().replace('0X', '0x') }
    const response = await register(b.admin.token, body, { 'idempotency-key': `reg-${agentId}` })
    expect(response.statusCode, response.body).toBe(201)
    expect(response.json()).toEqual({
      id: agentId,
      kind: 'external',
      role: 'reader',
      display_name: 'Reader',
      state: 'pending_onchain',
      scope_hash: scopeHashOfRole('reader'),
      onchain_address: null,
      registered_tx: null,
      registered_at: null,
      created_at: expect.any(String),
      contribution_hold: false,
    })
    const replay = await register(b.admin.token, body, { 'idempotency-key': `reg-${agentId}` })
    expect(replay.statusCode).toBe(201)
    expect(replay.json()).toEqual(response.json())
    expectError(await register(b.admin.token, body), 'agent_already_registered')
    expect(await auditEvents(test, b.owner.tenantId, { action: 'agent.registered', entityId: agentId })).toHaveLength(1)
  })

  it('refuses a scope hash that is not the role\'s, a catalog agent\'s id, a service token\'s prefix, and a caller without execution:admin', async () => {
    expectError(await register(b.admin.token, { agent_id: newAgentId(), role: 'reader', display_name: 'x', scope_hash: scopeHashOfRole('proposer') }), 'validation_failed')
    expectError(await register(b.admin.token, { agent_id: 'bill_payment', role: 'reader', display_name: 'x' }), 'agent_already_registered')
    // svt_… names service tokens (Steward's internal agents): an agent registered so would be two agents under one id.
    const reserved = await register(b.admin.token, { agent_id: 'svt_01JDZ4EXAMPLE', role: 'proposer', display_name: 'x' })
    expectError(reserved, 'validation_failed')
    expect(reserved.json().error.details).toMatchObject({ field: '/agent_id', reserved_prefix: 'svt_' })
    expectError(await register(b.owner.token, { agent_id: newAgentId(), role: 'reader', display_name: 'x' }), 'auth_scope_insufficient')
    expectError(await register(b.admin.token, { agent_id: newAgentId(), role: 'executor', display_name: 'x' }), 'request_body_invalid')
  })

  it('shows registered agents in GET /v1/agents and GET /v1/agents/{agent_id}, to their own tenant only', async () => {
    const agentId = newAgentId()
    await register(b.admin.token, { agent_id: agentId, role: 'contributor', display_name: 'Contributor' })
    const { agents } = await getOk(test, b.owner.token, '/v1/agents')
    expect(agents.filter((agent: { kind: string }) => agent.kind === 'internal')).toHaveLength(catalog.length)
    expect(agents.find((agent: { id?: string }) => agent.id === agentId)).toMatchObject({ kind: 'external', state: 'pending_onchain' })
    expect((await getOk(test, b.owner.token, '/v1/agents?kind=internal')).agents.some((agent: { id?: string }) => agent.id === agentId)).toBe(false)
    expect((await getOk(test, b.owner.token, '/v1/agents?state=disabled')).agents.some((agent: { id?: string }) => agent.id === agentId)).toBe(true)
    const detail = await getOk(test, b.owner.token, `/v1/agents/${agentId}`)
    expect(detail).toMatchObject({ agent_id: agentId, definition: null, registration: { id: agentId, kind: 'external', role: 'contributor' }, state: 'pending_onchain', contribution_hold: false })
    const other = await signupOwner(test)
    expectError(await test.request({ method: 'GET', url: `/v1/agents/${agentId}`, token: other.token }), 'agent_not_found')
    expect((await getOk(test, other.token, '/v1/agents')).agents.some((agent: { id?: string }) => agent.id === agentId)).toBe(false)
  })

  it('activates in a sandbox by the governance resume (registered_at set, audited); the chain path is refused without a chain', async () => {
    const agentId = newAgentId()
    await register(b.admin.token, { agent_id: agentId, role: 'reader', display_name: 'Reader' })
    await expect(test.runtime.agents.registry.confirmOnchain({ requestId: 'r' }, { tenantId: b.owner.tenantId, agentId })).rejects.toMatchObject({ code: 'agent_not_registered_onchain' })
    const active = await resume(b.owner.tenantId, agentId)
    expect(active).toMatchObject({ state: 'active', registered_at: expect.any(String), registered_tx: null })
    expect(await auditEvents(test, b.owner.tenantId, { action: 'agent.activated', entityId: agentId })).toHaveLength(1)
    await expect(resume(b.owner.tenantId, agentId)).rejects.toMatchObject({ code: 'agent_inactive' })
  })
})

describe('the agent-protocol guard (no chain: the registration\'s hash stands in)', () => {
  it('lets an active agent with its scope hash through, and refuses each failing check with the spec\'s error', async () => {
    const guard = test.runtime.agents.protocolGuard
    const agentId = newAgentId()
    await register(b.admin.token, { agent_id: agentId, role: 'reader', display_name: 'Reader' })
    const hash = scopeHashOfRole('reader')
    await expect(guard.check(agentPrincipal(b.owner.tenantId, agentId, hash))).rejects.toMatchObject({ code: 'agent_inactive' })
    await resume(b.owner.tenantId, agentId)
    await expect(guard.check(agentPrincipal(b.owner.tenantId, agentId, hash))).resolves.toBeUndefined()
    await expect(guard.check(agentPrincipal(b.owner.tenantId, agentId, undefined))).rejects.toMatchObject({ code: 'agent_scope_hash_missing' })
    await expect(guard.check(agentPrincipal(b.owner.tenantId, agentId, scopeHashOfRole('proposer')))).rejects.toMatchObject({ code: 'agent_scope_hash_mismatch' })
    await expect(guard.check(agentPrincipal(b.owner.tenantId, 'agt_unknown', hash))).rejects.toMatchObject({ code: 'agent_not_registered' })
    // Another tenant's token naming this agent: the agent is not registered there.
    const other = await signupOwner(test)
    await expect(guard.check(agentPrincipal(other.tenantId, agentId, hash))).rejects.toMatchObject({ code: 'agent_not_registered' })
    await expect(guard.check({ ...agentPrincipal(b.owner.tenantId, agentId, hash), type: 'user' })).rejects.toMatchObject({ code: 'agent_not_registered' })
  })
})

describe('the agent-protocol guard for a principal authenticated in the request (issue 20)', () => {
  it('reads the registration through the 60-second cache once active; check() reads it every time', async () => {
    const guard = test.runtime.agents.protocolGuard
    const agentId = newAgentId()
    await register(b.admin.token, { agent_id: agentId, role: 'reader', display_name: 'Reader' })
    const principal = agentPrincipal(b.owner.tenantId, agentId, scopeHashOfRole('reader'))
    // Not active: refused, and nothing is cached.
    await expect(guard.checkAuthenticated(principal)).rejects.toMatchObject({ code: 'agent_inactive' })
    await resume(b.owner.tenantId, agentId)
    await expect(guard.checkAuthenticated(principal)).resolves.toBeUndefined()
    await expect(guard.checkAuthenticated({ ...principal, scopeHash: scopeHashOfRole('proposer') })).rejects.toMatchObject({ code: 'agent_scope_hash_mismatch' })
    expect((await test.request({ method: 'POST', url: `/v1/agents/${agentId}/halt`, token: b.admin.token })).statusCode).toBe(200)
    // The uncached check sees the halt at once; the cached one relies on authentication, which re-reads the state.
    await expect(guard.check(principal)).rejects.toMatchObject({ code: 'agent_inactive' })
    await expect(guard.checkAuthenticated(principal)).resolves.toBeUndefined()
    await expect(test.runtime.services.auth.authenticate(await test.tokens.sign({ sub: agentId, tenantId: b.owner.tenantId, type: 'agent', scopes: ['ledger:read', 'wiki:read'], scopeHash: scopeHashOfRole('reader') }, 3600, new Date(), 'tok_guard_cache'))).rejects.toMatchObject({ code: 'agent_inactive' })
  })
})

describe('halt, restore, halt-category and the contribution hold', () => {
  it('halts an agent: its in-flight intent is paused, it is quarantined and held, its token stops; restore and release undo it', async () => {
    const agent = await signedInAgent()
    expect(decodeJwt(agent.token).scope_hash).toBe(scopeHashOfRole('proposer'))
    const proposed = await test.request({
      method: 'POST',
      url: '/v1/payment-intents',
      token: agent.token,
      payload: { action_type: 'ach_outbound', source_account_id: b.account, destination_counterparty_id: b.supplier, amount: '30.00', currency: 'EUR' },
    })
    expect(proposed.statusCode, proposed.body).toBe(201)
    expect(proposed.json().status).toBe('approved')
    const intentId = proposed.json().id as string

    const halted = await test.request({ method: 'POST', url: `/v1/agents/${agent.agentId}/halt`, token: b.admin.token, headers: { 'idempotency-key': `halt-${agent.agentId}` } })
    expect(halted.statusCode, halted.body).toBe(200)
    expect(halted.json()).toEqual({ agent_id: agent.agentId, state: 'quarantined', contribution_hold: true, paused_payment_intent_ids: [intentId] })
    expect((await getOk(test, b.owner.token, `/v1/payment-intents/${intentId}`)).status).toBe('paused')
    expect(await auditEvents(test, b.owner.tenantId, { action: 'agent.halted', entityId: agent.agentId })).toHaveLength(1)
    expect(await auditEvents(test, b.owner.tenantId, { action: 'payment_intent.paused', entityId: intentId })).toHaveLength(1)
    // A replay of the halt answers the first response; a new halt of a quarantined agent is 409.
    const replay = await test.request({ method: 'POST', url: `/v1/agents/${agent.agentId}/halt`, token: b.admin.token, headers: { 'idempotency-key': `halt-${agent.agentId}` } })
    expect(replay.json()).toEqual(halted.json())
    expectError(await test.request({ method: 'POST', url: `/v1/agents/${agent.agentId}/halt`, token: b.admin.token }), 'agent_inactive')
    // The halted agent's token stops at once.
    expectError(await test.request({ method: 'GET', url: '/v1/auth/whoami', token: agent.token }), 'agent_inactive')
    expect((await getOk(test, b.owner.token, `/v1/agents/${agent.agentId}`)).registration).toMatchObject({ state: 'quarantined', contribution_hold: true })

    const restored = await test.request({ method: 'POST', url: `/v1/agents/${agent.agentId}/restore`, token: b.admin.token })
    expect(restored.statusCode, restored.body).toBe(200)
    expect(restored.json()).toEqual({ agent_id: agent.agentId, state: 'active', contribution_hold: true })
    expectError(await test.request({ method: 'POST', url: `/v1/agents/${agent.agentId}/restore`, token: b.admin.token }), 'agent_inactive')
    expect((await getOk(test, b.owner.token, `/v1/payment-intents/${intentId}`)).status).toBe('paused')

    const released = await test.request({ method: 'POST', url: `/v1/agents/${agent.agentId}/contribution-hold/release`, token: b.admin.token })
    expect(released.json()).toEqual({ agent_id: agent.agentId, state: 'active', contribution_hold: false, released: true, released_raw_ids: [] })
    const again = await test.request({ method: 'POST', url: `/v1/agents/${agent.agentId}/contribution-hold/release`, token: b.admin.token })
    expect(again.json()).toMatchObject({ released: false })
    expect(await auditEvents(test, b.owner.tenantId, { action: 'agent.contribution_hold_released', entityId: agent.agentId })).toHaveLength(1)
  })

  it('answers 404 agent_not_found for an agent not registered in the tenant, and needs payment_intent:approve', async () => {
    expectError(await test.request({ method: 'POST', url: '/v1/agents/agt_nowhere/restore', token: b.admin.token }), 'agent_not_found')
    expectError(await test.request({ method: 'POST', url: '/v1/agents/agt_nowhere/halt', token: b.admin.token }), 'agent_not_found')
    const viewer = await addMember(test, b.owner, 'viewer')
    expectError(await test.request({ method: 'POST', url: '/v1/agents/bill_payment/halt', token: viewer.token }), 'auth_scope_insufficient')
  })

  it('halts a whole category of catalog agents in the tenant, and only there; a halted catalog agent is refused by the gate\'s standing', async () => {
    const owner = await signupOwner(test)
    const admin = await addMember(test, owner, 'admin')
    const response = await test.request({ method: 'POST', url: '/v1/agents/halt-category', token: admin.token, payload: { category: 'business' } })
    expect(response.statusCode, response.body).toBe(200)
    const business = catalog.filter((entry) => entry.category === 'business').map((entry) => entry.agent_key)
    expect(response.json().halted.map((halted: { agent_id: string }) => halted.agent_id)).toEqual(business)
    for (const agentId of business) expect((await getOk(test, owner.token, `/v1/agents/${agentId}`)).state).toBe('quarantined')
    expect((await getOk(test, b.owner.token, `/v1/agents/${business[0]}`)).state).toBe('active')
    // Already quarantined agents are left as they are.
    expect((await test.request({ method: 'POST', url: '/v1/agents/halt-category', token: admin.token, payload: { category: 'business' } })).json().halted).toEqual([])
    expect(await test.runtime.agents.stateOf(owner.tenantId, business[0]!)).toBe('quarantined')
  })
})
