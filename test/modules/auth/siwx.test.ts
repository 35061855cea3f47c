/**
 * Sign-in with a wallet (issue 18, item 1): a challenge's nonce, a signed EIP-4361 message, and a token
 * for whoever the wallet is — an owner-equivalent token for a wallet linked as human, an agent token (1
 * hour, plain scopes, scope_hash claim) for an active registered agent's wallet. Every refusal is 401
 * auth_siwx_invalid with the reason in the audit log only; a nonce is consumed once, even under
 * concurrency. No chain is configured here: the agent is activated by the sandbox resume.
 */
import { sql } from 'drizzle-orm'
import { decodeJwt } from 'jose'
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSiwxMessage } from '../../../src/modules/auth/domain/siwx.ts'
import { scopeHashOfRole, scopesOfRole } from '../../../src/modules/agents/index.ts'
import { auditEvents } from '../../support/audit-log.ts'
import { addMember, createTestApp, expectError, fixedClock, signupOwner, type TenantOwner, type TestApp } from '../../support/harness.ts'

let test: TestApp
let owner: TenantOwner
let human: PrivateKeyAccount
beforeAll(async () => {
  test = await createTestApp()
  owner = await signupOwner(test)
  human = privateKeyToAccount(generatePrivateKey())
  await link(owner, human.address, 'human')
})
afterAll(async () => test?.close())

async function link(tenantOwner: TenantOwner, address: string, principalType: 'human' | 'agent', principalId?: string) {
  const response = await test.request({
    method: 'POST',
    url: `/v1/tenants/${tenantOwner.tenantId}/wallets`,
    token: tenantOwner.token,
    payload: { address, principal_type: principalType, ...(principalId === undefined ? {} : { principal_id: principalId }) },
  })
  expect(response.statusCode, response.body).toBe(201)
}

async function challenge(address: string) {
  const response = await test.request({ method: 'POST', url: '/v1/auth/siwx/challenge', payload: { address } })
  expect(response.statusCode, response.body).toBe(200)
  return response.json() as { nonce: string; address: string; domain: string; uri: string; version: string; chain_id: number; issued_at: string; expiration_time: string; message: string }
}

/** A signed sign-in for `account`, from a fresh challenge, with any field overridden. */
async function signed(account: PrivateKeyAccount, overrides: Partial<Parameters<typeof buildSiwxMessage>[0]> = {}) {
  const issued = await challenge(account.address)
  const message = buildSiwxMessage({
    domain: issued.domain,
    address: account.address,
    uri: issued.uri,
    chainId: issued.chain_id,
    nonce: issued.nonce,
    issuedAt: new Date(issued.issued_at),
    expirationTime: new Date(issued.expiration_time),
    ...overrides,
  })
  return { message, signature: await account.signMessage({ message }), session_id: 'sess_test' }
}

const signIn = (body: { message: string; signature: string; session_id: string }) => test.request({ method: 'POST', url: '/v1/auth/siwx', payload: body })

describe('POST /v1/auth/siwx/challenge', () => {
  it('answers a fresh nonce bound to the address, with the message fields of PUBLIC_BASE_URL', async () => {
    const first = await challenge(human.address.toLowerCase())
    const second = await challenge(human.address)
    expect(first.nonce).not.toBe(second.nonce)
    expect(first).toMatchObject({ address: human.address, domain: 'steward.test', uri: 'http://steward.test', version: '1', chain_id: 8453 })
    expect(Date.parse(first.expiration_time) - Date.parse(first.issued_at)).toBe(300_000)
    expect(first.message).toContain(`Nonce: ${first.nonce}`)
    expectError(await test.request({ method: 'POST', url: '/v1/auth/siwx/challenge', payload: { address: 'nope' } }), 'request_body_invalid')
  })
})

describe('POST /v1/auth/siwx', () => {
  it('gives a wallet linked as human an owner-equivalent token (900 s) for its member, audited', async () => {
    const body = await signed(human)
    const response = await signIn(body)
    expect(response.statusCode, response.body).toBe(200)
    const token = response.json()
    expect(token).toMatchObject({ token_type: 'Bearer', expires_in: 900, principal: { id: owner.userId, type: 'user', tenantId: owner.tenantId } })
    expect(token.principal.scopes).toContain('payment_intent:approve')
    const whoami = await test.request({ method: 'GET', url: '/v1/auth/whoami', token: token.access_token })
    expect(whoami.json()).toMatchObject({ id: owner.userId, type: 'user', tenantId: owner.tenantId })
    const events = await auditEvents(test, owner.tenantId, { action: 'auth.siwx_succeeded' })
    expect(events.at(-1)).toMatchObject({ actor_type: 'user', actor_id: owner.userId, outputs: { address: human.address.toLowerCase(), principal_type: 'user' } })
  })

  it('gives an active registered agent wallet an agent token: 1 hour, its plain scopes, a scope_hash claim', async () => {
    const agentAccount = privateKeyToAccount(generatePrivateKey())
    const agentId = `agt_siwx_${Date.now()}`
    const registered = await test.request({
      method: 'POST',
      url: '/v1/execution/agents/register',
      token: (await addMember(test, owner, 'admin')).token,
      payload: { agent_id: agentId, role: 'proposer', display_name: 'Signer', onchain_address: agentAccount.address },
    })
    expect(registered.statusCode, registered.body).toBe(201)
    await link(owner, agentAccount.address, 'agent', agentId)
    // Pending: not yet an agent that may sign in.
    expectError(await signIn(await signed(agentAccount)), 'auth_siwx_invalid')
    expect((await auditEvents(test, owner.tenantId, { action: 'auth.siwx_refused' })).at(-1)?.outputs).toMatchObject({ reason: 'agent_inactive' })

    await test.runtime.agents.registry.resume({ requestId: 'req_test' }, { tenantId: owner.tenantId, agentId, actor: { type: 'platform', id: 'governance' } })
    const response = await signIn(await signed(agentAccount))
    expect(response.statusCode, response.body).toBe(200)
    const token = response.json()
    expect(token).toMatchObject({ expires_in: 3600, principal: { id: agentId, type: 'agent', tenantId: owner.tenantId } })
    expect([...token.principal.scopes].sort()).toEqual(scopesOfRole('proposer'))
    const claims = decodeJwt(token.access_token)
    expect(claims.scope_hash).toBe(scopeHashOfRole('proposer'))
    expect((claims.exp as number) - (claims.iat as number)).toBe(3600)
    const whoami = await test.request({ method: 'GET', url: '/v1/auth/whoami', token: token.access_token })
    expect(whoami.json()).toMatchObject({ id: agentId, type: 'agent' })
    // The agent protocol's guard lets it through.
    await expect(test.runtime.agents.protocolGuard.check({ id: agentId, type: 'agent', tenantId: owner.tenantId, scopeHash: claims.scope_hash as string })).resolves.toBeUndefined()
  })

  it('never signs in a key a member linked for an agent whose registration declares another wallet or none (the link proves nothing of the key)', async () => {
    const admin = await addMember(test, owner, 'admin')
    for (const declared of [undefined, privateKeyToAccount(generatePrivateKey()).address]) {
      const agentId = `agt_siwx_claimed_${Date.now()}_${declared === undefined ? 'none' : 'other'}`
      const registered = await test.request({
        method: 'POST',
        url: '/v1/execution/agents/register',
        token: admin.token,
        payload: { agent_id: agentId, role: 'proposer', display_name: 'Payer', ...(declared === undefined ? {} : { onchain_address: declared }) },
      })
      expect(registered.statusCode, registered.body).toBe(201)
      await test.runtime.agents.registry.resume({ requestId: 'req_test' }, { tenantId: owner.tenantId, agentId, actor: { type: 'platform', id: 'governance' } })
      // The admin links a key of their own as the agent's wallet: it must not sign in as the agent.
      const adminKey = privateKeyToAccount(generatePrivateKey())
      await link(owner, adminKey.address, 'agent', agentId)
      expectError(await signIn(await signed(adminKey)), 'auth_siwx_invalid')
      expect((await auditEvents(test, owner.tenantId, { action: 'auth.siwx_refused' })).at(-1)?.outputs).toMatchObject({ address: adminKey.address.toLowerCase(), reason: 'wallet_unknown' })
    }
  })

  const refusals: Array<[string, (account: PrivateKeyAccount) => Promise<{ message: string; signature: string; session_id: string }>, string]> = [
    ['a bad signature', async (account) => ({ ...(await signed(account)), signature: await privateKeyToAccount(generatePrivateKey()).signMessage({ message: 'other' }) }), 'signer_mismatch'],
    ['a malformed signature', async (account) => ({ ...(await signed(account)), signature: '0x1234' }), 'signature_invalid'],
    ['another domain', (account) => signed(account, { domain: 'evil.test' }), 'domain_mismatch'],
    ['another URI', (account) => signed(account, { uri: 'http://evil.test' }), 'uri_mismatch'],
    ['another chain id', (account) => signed(account, { chainId: 1 }), 'chain_id_mismatch'],
    ['an expired message', (account) => signed(account, { issuedAt: new Date(Date.now() - 200_000), expirationTime: new Date(Date.now() - 100_000) }), 'expired'],
  ]
  for (const [name, make, reason] of refusals) {
    it(`refuses ${name}: 401 auth_siwx_invalid, reason ${reason} in the audit log only`, async () => {
      const response = await signIn(await make(human))
      const error = expectError(response, 'auth_siwx_invalid')
      expect(JSON.stringify(error)).not.toContain(reason)
      expect((await auditEvents(test, owner.tenantId, { action: 'auth.siwx_refused' })).at(-1)).toMatchObject({ actor_type: 'anonymous', outputs: { address: human.address.toLowerCase(), reason } })
    })
  }

  it('refuses a wallet that another member linked for the one it names (an earlier version allowed it): its maker may hold the key', async () => {
    // As an admin once could: their own wallet, linked to the owner's user id.
    const admin = await addMember(test, owner, 'admin')
    const adminsKey = privateKeyToAccount(generatePrivateKey())
    const refusedLink = await test.request({ method: 'POST', url: `/v1/tenants/${owner.tenantId}/wallets`, token: admin.token, payload: { address: adminsKey.address, principal_type: 'human', principal_id: owner.userId } })
    expect(expectError(refusedLink, 'request_body_invalid').details?.issues).toEqual([expect.objectContaining({ path: '/principal_id' })])
    await test.runtime.db.orm.execute(
      sql`insert into tenant_wallets (id, tenant_id, address, principal_type, principal_id, created_by, created_at)
          values (${`wal_legacy${Date.now()}`}, ${owner.tenantId}, ${adminsKey.address.toLowerCase()}, 'human', ${owner.userId}, ${admin.userId}, now())`,
    )
    await test.runtime.db.orm.execute(sql`insert into wallet_addresses (address, owner_tenant_id, created_at) values (${adminsKey.address.toLowerCase()}, ${owner.tenantId}, now())`)
    expectError(await signIn(await signed(adminsKey)), 'auth_siwx_invalid')
    expect((await auditEvents(test, owner.tenantId, { action: 'auth.siwx_refused' })).at(-1)?.outputs).toMatchObject({ reason: 'wallet_not_self_linked', address: adminsKey.address.toLowerCase() })
    // The owner's own wallet still signs in as the owner.
    expect((await signIn(await signed(human))).statusCode).toBe(200)
  })

  it('refuses a reused nonce', async () => {
    const body = await signed(human)
    expect((await signIn(body)).statusCode).toBe(200)
    expectError(await signIn(body), 'auth_siwx_invalid')
    expect((await auditEvents(test, owner.tenantId, { action: 'auth.siwx_refused' })).at(-1)?.outputs).toMatchObject({ reason: 'nonce_reused' })
  })

  it('consumes a nonce once under concurrency: of 8 simultaneous sign-ins, exactly one succeeds', async () => {
    const body = await signed(human)
    const responses = await Promise.all(Array.from({ length: 8 }, () => signIn(body)))
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 401, 401, 401, 401, 401, 401, 401])
  })

  it('refuses a nonce issued to another address (logged: no tenant knows that address), and an unknown nonce', async () => {
    const before = (await auditEvents(test, owner.tenantId, { action: 'auth.siwx_refused' })).length
    const other = privateKeyToAccount(generatePrivateKey())
    const issued = await challenge(other.address)
    const message = buildSiwxMessage({ domain: issued.domain, address: human.address, uri: issued.uri, chainId: 8453, nonce: issued.nonce, issuedAt: new Date(issued.issued_at), expirationTime: new Date(issued.expiration_time) })
    expectError(await signIn({ message, signature: await human.signMessage({ message }), session_id: 's' }), 'auth_siwx_invalid')
    const unknown = buildSiwxMessage({ domain: issued.domain, address: human.address, uri: issued.uri, chainId: 8453, nonce: 'a'.repeat(32), issuedAt: new Date(), expirationTime: new Date(Date.now() + 60_000) })
    expectError(await signIn({ message: unknown, signature: await human.signMessage({ message: unknown }), session_id: 's' }), 'auth_siwx_invalid')
    const reasons = (await auditEvents(test, owner.tenantId, { action: 'auth.siwx_refused' })).slice(before).map((event) => event.outputs.reason)
    expect(reasons).toEqual(['nonce_unknown'])
  })

  it('refuses an unknown wallet (linked nowhere, no registered agent), with nothing for any tenant to audit', async () => {
    const stranger = privateKeyToAccount(generatePrivateKey())
    const before = (await auditEvents(test, owner.tenantId, { action: 'auth.siwx_refused' })).length
    expectError(await signIn(await signed(stranger)), 'auth_siwx_invalid')
    expect((await auditEvents(test, owner.tenantId, { action: 'auth.siwx_refused' })).length).toBe(before)
  })
})

describe('a challenge older than 5 minutes', () => {
  it('is refused as nonce_expired, even with a message that is itself still valid', async () => {
    const clock = fixedClock(new Date())
    const timed = await createTestApp({ clock })
    try {
      const tenantOwner = await signupOwner(timed)
      const account = privateKeyToAccount(generatePrivateKey())
      const linked = await timed.request({ method: 'POST', url: `/v1/tenants/${tenantOwner.tenantId}/wallets`, token: tenantOwner.token, payload: { address: account.address, principal_type: 'human' } })
      expect(linked.statusCode, linked.body).toBe(201)
      const issued = (await timed.request({ method: 'POST', url: '/v1/auth/siwx/challenge', payload: { address: account.address } })).json()
      clock.advance(301_000)
      // Issued now, valid for a minute: only the nonce is stale.
      const message = buildSiwxMessage({ domain: issued.domain, address: account.address, uri: issued.uri, chainId: 8453, nonce: issued.nonce, issuedAt: clock.now(), expirationTime: new Date(clock.now().getTime() + 60_000) })
      expectError(await timed.request({ method: 'POST', url: '/v1/auth/siwx', payload: { message, signature: await account.signMessage({ message }), session_id: 's' } }), 'auth_siwx_invalid')
      expect((await auditEvents(timed, tenantOwner.tenantId, { action: 'auth.siwx_refused' })).map((event) => event.outputs.reason)).toEqual(['nonce_expired'])
    } finally {
      await timed.close()
    }
  })
})

describe('a wallet address is claimed once, by links and registrations alike', () => {
  const register = async (tenantOwner: TenantOwner, agentId: string, address: string) =>
    test.request({
      method: 'POST',
      url: '/v1/execution/agents/register',
      token: (await addMember(test, tenantOwner, 'admin')).token,
      payload: { agent_id: agentId, role: 'proposer', display_name: 'Claimer', onchain_address: address },
    })
  const linkResponse = (tenantOwner: TenantOwner, address: string, principalType: 'human' | 'agent', principalId?: string) =>
    test.request({
      method: 'POST',
      url: `/v1/tenants/${tenantOwner.tenantId}/wallets`,
      token: tenantOwner.token,
      payload: { address, principal_type: principalType, ...(principalId === undefined ? {} : { principal_id: principalId }) },
    })

  it("keeps another tenant from linking a registered agent's wallet, so the agent still signs in", async () => {
    const victim = await signupOwner(test)
    const squatter = await signupOwner(test)
    const agentAccount = privateKeyToAccount(generatePrivateKey())
    const agentId = `agt_claimed_${Date.now()}`
    expect((await register(victim, agentId, agentAccount.address)).statusCode).toBe(201)
    await test.runtime.agents.registry.resume({ requestId: 'req_test' }, { tenantId: victim.tenantId, agentId, actor: { type: 'platform', id: 'governance' } })

    // Neither as a person's wallet nor as an agent's, in upper or lower case, and not in the agent's own tenant as a person's.
    expectError(await linkResponse(squatter, agentAccount.address, 'human'), 'wallet_already_linked')
    expectError(await linkResponse(squatter, agentAccount.address.toLowerCase(), 'agent', agentId), 'wallet_already_linked')
    expectError(await linkResponse(victim, agentAccount.address, 'human'), 'wallet_already_linked')
    expectError(await linkResponse(victim, agentAccount.address, 'agent', 'agt_someone_else'), 'wallet_already_linked')
    // Another tenant cannot register an agent with it either.
    expectError(await register(squatter, `${agentId}_copy`, agentAccount.address), 'wallet_already_linked')

    // The agent's own link is still allowed, and the agent signs in to its tenant.
    expect((await linkResponse(victim, agentAccount.address, 'agent', agentId)).statusCode).toBe(201)
    const response = await signIn(await signed(agentAccount))
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json().principal).toMatchObject({ id: agentId, type: 'agent', tenantId: victim.tenantId })
  })

  it('refuses to register an agent with a wallet linked to a person or to another tenant, and accepts its own earlier link', async () => {
    const first = await signupOwner(test)
    const second = await signupOwner(test)
    const person = privateKeyToAccount(generatePrivateKey())
    await link(first, person.address, 'human')
    expectError(await register(first, `agt_person_${Date.now()}`, person.address), 'wallet_already_linked')
    expectError(await register(second, `agt_person_${Date.now()}`, person.address), 'wallet_already_linked')

    const agentAccount = privateKeyToAccount(generatePrivateKey())
    const agentId = `agt_linked_first_${Date.now()}`
    await link(first, agentAccount.address, 'agent', agentId)
    expectError(await register(second, agentId, agentAccount.address), 'wallet_already_linked')
    expectError(await register(first, `${agentId}_other`, agentAccount.address), 'wallet_already_linked')
    expect((await register(first, agentId, agentAccount.address)).statusCode).toBe(201)
    // The person's sign-in is unchanged.
    expect((await signIn(await signed(person))).json().principal).toMatchObject({ id: first.userId, type: 'user', tenantId: first.tenantId })
  })

  it('settles a link and a registration of one address racing from two tenants: exactly one claims it', async () => {
    const linker = await signupOwner(test)
    const registrar = await signupOwner(test)
    const admin = await addMember(test, registrar, 'admin')
    for (let trial = 0; trial < 5; trial += 1) {
      const address = privateKeyToAccount(generatePrivateKey()).address
      const [linked, registered] = await Promise.all([
        linkResponse(linker, address, 'human'),
        test.request({ method: 'POST', url: '/v1/execution/agents/register', token: admin.token, payload: { agent_id: `agt_race_${trial}_${Date.now()}`, role: 'proposer', display_name: 'Racer', onchain_address: address } }),
      ])
      expect([linked.statusCode, registered.statusCode].sort(), `${linked.body} ${registered.body}`).toEqual([201, 409])
    }
  })
})
