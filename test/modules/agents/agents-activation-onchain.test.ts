/**
 * Registration through activation on a real local chain (anvil, the compiled AgentRegistry): an agent
 * registered by POST /v1/execution/agents/register becomes active when the chain holds its registration
 * with its role's scope hash (from the given registered_tx, or from the contract's record), and stays
 * pending_onchain when the chain's hash differs or it is not on chain; an agent wallet known only to the
 * chain signs in with SIWX, which activates it first; and the agent-protocol guard reads the chain
 * (mismatch, revoked, a scope changed under the token), on the agent protocol and, for an agent token, on
 * every other route and at SIWX too.
 */
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import type { Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Principal } from '../../../src/kernel/principal.ts'
import { createAgentRegistryChain, deployAgentRegistry, type AgentRegistryChain } from '../../../src/modules/agents/chain/agent-registry.ts'
import { scopeHashOfRole } from '../../../src/modules/agents/index.ts'
import { createAgentProtocolGuard } from '../../../src/modules/agents/protocol-guard.ts'
import { createRegistryStore } from '../../../src/modules/agents/registry.store.pg.ts'
import { buildSiwxMessage } from '../../../src/modules/auth/domain/siwx.ts'
import { startAnvil, type Anvil } from '../../support/anvil.ts'
import { auditEvents } from '../../support/audit-log.ts'
import { addMember, createTestApp, signupOwner, type JoinedMember, type TenantOwner, type TestApp } from '../../support/harness.ts'

let anvil: Anvil
let chain: AgentRegistryChain
/** The app's clock runs with the system's, moved ahead by hand past the guard's 60-second cache. */
let clockOffsetMs = 0
const clock = { now: () => new Date(Date.now() + clockOffsetMs) }
let test: TestApp
let owner: TenantOwner
let admin: JoinedMember
beforeAll(async () => {
  anvil = await startAnvil()
  const registrarKey = anvil.privateKeys[0]!
  const { address } = await deployAgentRegistry({ rpcUrl: anvil.rpcUrl, privateKey: registrarKey })
  chain = createAgentRegistryChain({ rpcUrl: anvil.rpcUrl, contractAddress: address, privateKey: registrarKey })
  // Configured as an operator would (the env), not handed in: the runtime builds its read-only client from it.
  test = await createTestApp({ env: { AGENT_REGISTRY_RPC_URL: anvil.rpcUrl, AGENT_REGISTRY_ADDRESS: address }, clock })
  owner = await signupOwner(test)
  admin = await addMember(test, owner, 'admin')
}, 180_000)
afterAll(async () => {
  await test?.close()
  await anvil?.stop()
})

let sequence = 0
const newAgentId = () => `agt_chain_${Date.now()}_${(sequence += 1)}`
const newAccount = () => privateKeyToAccount(generatePrivateKey())

async function register(body: Record<string, unknown>) {
  const response = await test.request({ method: 'POST', url: '/v1/execution/agents/register', token: admin.token, payload: body })
  expect(response.statusCode, response.body).toBe(201)
  expect(response.json()).toMatchObject({ state: 'pending_onchain', registered_at: null })
}

const confirm = (agentId: string) => test.runtime.agents.registry.confirmOnchain({ requestId: 'req_test' }, { tenantId: owner.tenantId, agentId })

const principal = (agentId: string, scopeHash: string): Principal => ({ id: agentId, type: 'agent', tenantId: owner.tenantId, scopes: [], credentialId: agentId, rateLimit: { perMinute: 1, burst: 1 }, scopeHash })

async function activeAgent(account: PrivateKeyAccount) {
  const agentId = newAgentId()
  await chain.register({ tenantId: owner.tenantId, agentId, wallet: account.address, scopeHash: scopeHashOfRole('reader') as Hex })
  await register({ agent_id: agentId, role: 'reader', display_name: 'Reader', onchain_address: account.address })
  expect((await confirm(agentId)).activated).toBe(true)
  return agentId
}

describe('activation from the chain', () => {
  it('activates an agent whose registered_tx registered it with its role\'s scope hash', async () => {
    const account = newAccount()
    const agentId = newAgentId()
    const registered = await chain.register({ tenantId: owner.tenantId, agentId, wallet: account.address, scopeHash: scopeHashOfRole('proposer') as Hex })
    await register({ agent_id: agentId, role: 'proposer', display_name: 'Payer', onchain_address: account.address, registered_tx: registered.txHash })
    const outcome = await confirm(agentId)
    expect(outcome).toMatchObject({ activated: true, agent: { state: 'active', registered_tx: registered.txHash.toLowerCase(), registered_at: expect.any(String) } })
    const record = await chain.agent(owner.tenantId, agentId)
    expect(outcome.agent.registered_at).toBe(new Date(Number(record!.registeredAt) * 1000).toISOString())
    expect(await auditEvents(test, owner.tenantId, { action: 'agent.activated', entityId: agentId })).toHaveLength(1)
    // Once active, a second confirmation changes nothing.
    expect(await confirm(agentId)).toMatchObject({ activated: false, reason: 'not_pending' })
  })

  it('activates from the contract\'s record when no registered_tx was given', async () => {
    const account = newAccount()
    const agentId = newAgentId()
    const registered = await chain.register({ tenantId: owner.tenantId, agentId, wallet: account.address, scopeHash: scopeHashOfRole('reader') as Hex })
    await register({ agent_id: agentId, role: 'reader', display_name: 'Reader' })
    expect(await confirm(agentId)).toMatchObject({ activated: true, agent: { state: 'active', registered_tx: registered.txHash.toLowerCase() } })
  })

  it('leaves the agent pending_onchain when the chain\'s scope hash is not its role\'s, audited with the reason', async () => {
    const account = newAccount()
    const agentId = newAgentId()
    const registered = await chain.register({ tenantId: owner.tenantId, agentId, wallet: account.address, scopeHash: scopeHashOfRole('reader') as Hex })
    await register({ agent_id: agentId, role: 'proposer', display_name: 'Payer', registered_tx: registered.txHash })
    expect(await confirm(agentId)).toMatchObject({ activated: false, reason: 'scope_hash_mismatch', agent: { state: 'pending_onchain', registered_at: null } })
    expect((await auditEvents(test, owner.tenantId, { action: 'agent.activation_refused', entityId: agentId })).map((event) => event.outputs)).toEqual([{ reason: 'scope_hash_mismatch' }])
    // The governance resume cannot bypass the chain when one is configured.
    await expect(test.runtime.agents.registry.resume({ requestId: 'r' }, { tenantId: owner.tenantId, agentId, actor: { type: 'platform', id: 'governance' } })).rejects.toMatchObject({ code: 'agent_inactive' })
  })

  it('leaves it pending when it is not on chain, or the registered_tx registered another agent, or the wallet differs', async () => {
    const missing = newAgentId()
    await register({ agent_id: missing, role: 'reader', display_name: 'Reader' })
    expect(await confirm(missing)).toMatchObject({ activated: false, reason: 'not_registered_onchain' })

    const other = newAgentId()
    const otherTx = await chain.register({ tenantId: owner.tenantId, agentId: other, wallet: newAccount().address, scopeHash: scopeHashOfRole('reader') as Hex })
    const wrongTx = newAgentId()
    await register({ agent_id: wrongTx, role: 'reader', display_name: 'Reader', registered_tx: otherTx.txHash })
    expect(await confirm(wrongTx)).toMatchObject({ activated: false, reason: 'no_registration' })

    const wallet = newAgentId()
    await chain.register({ tenantId: owner.tenantId, agentId: wallet, wallet: newAccount().address, scopeHash: scopeHashOfRole('reader') as Hex })
    await register({ agent_id: wallet, role: 'reader', display_name: 'Reader', onchain_address: newAccount().address })
    expect(await confirm(wallet)).toMatchObject({ activated: false, reason: 'wallet_mismatch' })
  })
})

describe('SIWX for an agent wallet known to the chain', () => {
  it('finds the agent through agentOfWallet, activates it from the chain and mints its agent token', async () => {
    const account = newAccount()
    const agentId = newAgentId()
    await chain.register({ tenantId: owner.tenantId, agentId, wallet: account.address, scopeHash: scopeHashOfRole('proposer') as Hex })
    await register({ agent_id: agentId, role: 'proposer', display_name: 'Payer', onchain_address: account.address })
    const challenge = (await test.request({ method: 'POST', url: '/v1/auth/siwx/challenge', payload: { address: account.address } })).json()
    const message = buildSiwxMessage({ domain: challenge.domain, address: account.address, uri: challenge.uri, chainId: 8453, nonce: challenge.nonce, issuedAt: new Date(challenge.issued_at), expirationTime: new Date(challenge.expiration_time) })
    const response = await test.request({ method: 'POST', url: '/v1/auth/siwx', payload: { message, signature: await account.signMessage({ message }), session_id: 'chain' } })
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toMatchObject({ expires_in: 3600, principal: { id: agentId, type: 'agent', tenantId: owner.tenantId } })
    expect((await test.runtime.agents.registry.agentById(owner.tenantId, agentId))?.state).toBe('active')
  })
})

async function siwx(account: PrivateKeyAccount) {
  const challenge = (await test.request({ method: 'POST', url: '/v1/auth/siwx/challenge', payload: { address: account.address } })).json()
  const message = buildSiwxMessage({ domain: challenge.domain, address: account.address, uri: challenge.uri, chainId: 8453, nonce: challenge.nonce, issuedAt: new Date(challenge.issued_at), expirationTime: new Date(challenge.expiration_time) })
  return test.request({ method: 'POST', url: '/v1/auth/siwx', payload: { message, signature: await account.signMessage({ message }), session_id: 'chain' } })
}

describe('SIWX for an agent registered without a declared wallet', () => {
  it('finds the agent by the key the chain names for the wallet; a wallet of another tenant\'s agent is refused', async () => {
    const account = newAccount()
    const agentId = newAgentId()
    await chain.register({ tenantId: owner.tenantId, agentId, wallet: account.address, scopeHash: scopeHashOfRole('reader') as Hex })
    await register({ agent_id: agentId, role: 'reader', display_name: 'Reader' })
    const response = await siwx(account)
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json().principal).toMatchObject({ id: agentId, type: 'agent' })

    // The chain registered this wallet for an agent of a tenant that never registered it with Steward.
    const stranger = newAccount()
    const elsewhere = await signupOwner(test)
    await chain.register({ tenantId: elsewhere.tenantId, agentId: newAgentId(), wallet: stranger.address, scopeHash: scopeHashOfRole('reader') as Hex })
    expect((await siwx(stranger)).statusCode).toBe(401)
  })
})

describe('the agent-protocol guard on chain', () => {
  it('passes an active agent whose claim is the on-chain hash, and refuses another hash', async () => {
    const agentId = await activeAgent(newAccount())
    await expect(test.runtime.agents.protocolGuard.check(principal(agentId, scopeHashOfRole('reader')))).resolves.toBeUndefined()
    await expect(test.runtime.agents.protocolGuard.check(principal(agentId, scopeHashOfRole('proposer')))).rejects.toMatchObject({ code: 'agent_scope_hash_mismatch' })
  })

  it('at SIWX, refuses a signer that is not the wallet the chain registers for the agent', async () => {
    const account = newAccount()
    const agentId = await activeAgent(account)
    await expect(test.runtime.agents.protocolGuard.check({ ...principal(agentId, scopeHashOfRole('reader')), signer: account.address.toLowerCase() })).resolves.toBeUndefined()
    await expect(test.runtime.agents.protocolGuard.check({ ...principal(agentId, scopeHashOfRole('reader')), signer: newAccount().address.toLowerCase() })).rejects.toMatchObject({ code: 'agent_not_registered_onchain' })
  })

  it('refuses an agent revoked on chain (agent_not_registered_onchain)', async () => {
    const agentId = await activeAgent(newAccount())
    await chain.revoke(owner.tenantId, agentId)
    await expect(test.runtime.agents.protocolGuard.check(principal(agentId, scopeHashOfRole('reader')))).rejects.toMatchObject({ code: 'agent_not_registered_onchain' })
  })

  it('fails closed when the chain cannot be read and nothing fresh is cached: 503 service_unavailable, retryable', async () => {
    const agentId = await activeAgent(newAccount())
    const unreachable: AgentRegistryChain = { ...chain, agent: () => Promise.reject(new Error('connect ECONNREFUSED')) }
    const guard = createAgentProtocolGuard({ db: test.runtime.db, store: createRegistryStore(), clock, chain: unreachable })
    await expect(guard.checkAuthenticated(principal(agentId, scopeHashOfRole('reader')))).rejects.toMatchObject({ code: 'service_unavailable', status: 503, details: { dependency: 'agent_registry' } })
  })

  it('refuses a token whose hash the chain now holds but the agent\'s role no longer has (scope_expired)', async () => {
    const agentId = await activeAgent(newAccount())
    await chain.updateScopeHash(owner.tenantId, agentId, scopeHashOfRole('contributor') as Hex)
    await expect(test.runtime.agents.protocolGuard.check(principal(agentId, scopeHashOfRole('contributor')))).rejects.toMatchObject({ code: 'scope_expired' })
  })
})

describe('an agent token on the REST routes and at SIWX (the same guard)', () => {
  const ledgerRead = (token: string) => test.request({ method: 'GET', url: '/v1/ledger/accounts', token })

  it('stops working once the chain revokes the agent (past the 60-second cache), and the wallet no longer signs in', async () => {
    const account = newAccount()
    const agentId = await activeAgent(account)
    const signedIn = await siwx(account)
    expect(signedIn.statusCode, signedIn.body).toBe(200)
    const token = signedIn.json().access_token as string
    expect((await ledgerRead(token)).statusCode).toBe(200)

    await chain.revoke(owner.tenantId, agentId)
    // Within the cache the chain's earlier answer stands, as on the agent protocol.
    expect((await ledgerRead(token)).statusCode).toBe(200)
    clockOffsetMs += 61_000
    const refused = await ledgerRead(token)
    expect(refused.statusCode, refused.body).toBe(401)
    expect(refused.json().error.code).toBe('agent_not_registered_onchain')

    expect((await siwx(account)).statusCode).toBe(401)
    const refusals = await auditEvents(test, owner.tenantId, { action: 'auth.siwx_refused' })
    expect(refusals.at(-1)?.outputs).toMatchObject({ reason: 'agent_not_registered_onchain', address: account.address.toLowerCase() })
  })

  it('refuses a token and a sign-in once the chain holds another scope hash for the agent', async () => {
    const account = newAccount()
    const agentId = await activeAgent(account)
    const token = (await siwx(account)).json().access_token as string
    await chain.updateScopeHash(owner.tenantId, agentId, scopeHashOfRole('proposer') as Hex)
    clockOffsetMs += 61_000
    const refused = await ledgerRead(token)
    expect(refused.statusCode, refused.body).toBe(401)
    expect(refused.json().error.code).toBe('agent_scope_hash_mismatch')
    expect((await siwx(account)).statusCode).toBe(401)
    expect((await auditEvents(test, owner.tenantId, { action: 'auth.siwx_refused' })).at(-1)?.outputs).toMatchObject({ reason: 'agent_scope_hash_mismatch' })
  })
})
