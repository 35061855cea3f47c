/**
 * Wallets linked to a tenant: POST, GET and DELETE /v1/tenants/{tenant_id}/wallets. An address is linked to at
 * most one tenant in the service; a human wallet belongs to a member; an agent wallet names its agent.
 */
import { sql } from 'drizzle-orm'
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../../../src/platform/db/database.ts'
import { buildSiwxMessage } from '../../../src/modules/auth/domain/siwx.ts'
import { auditEvents } from '../../support/audit-log.ts'
import { addMember, createTestApp, expectError, signupOwner, type TestApp } from '../../support/harness.ts'
import { addSigner, compose, linkWallet, samplePolicy, sign, signatureOf, type Signer } from '../../support/policy.ts'

let test: TestApp
beforeAll(async () => {
  test = await createTestApp()
})
afterAll(async () => test?.close())

const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address
const post = (tenantId: string, token: string, payload: object) => test.request({ method: 'POST', url: `/v1/tenants/${tenantId}/wallets`, token, payload })

describe('POST /v1/tenants/{tenant_id}/wallets', () => {
  it('links a human wallet to the caller by default, stores it lower-cased, audits it, and lists it', async () => {
    const owner = await signupOwner(test)
    const address = freshAddress() // EIP-55 mixed case
    const response = await post(owner.tenantId, owner.token, { address, principal_type: 'human' })
    expect(response.statusCode, response.body).toBe(201)
    const wallet = response.json()
    expect(wallet).toEqual({
      id: expect.stringMatching(/^wal_[0-9A-Z]{26}$/),
      tenant_id: owner.tenantId,
      address: address.toLowerCase(),
      principal_type: 'human',
      principal_id: owner.userId,
      created_by: owner.userId,
      created_at: expect.any(String),
    })
    const audit = await auditEvents(test, owner.tenantId, { action: 'wallet.linked' })
    expect(audit.map(({ action, entity_id, inputs }) => ({ action, entity_id, inputs }))).toEqual([{ action: 'wallet.linked', entity_id: wallet.id, inputs: { address: address.toLowerCase(), principal_type: 'human', principal_id: owner.userId } }])

    const agent = await linkWallet(test, owner, { address: freshAddress().toLowerCase(), principal_type: 'agent', principal_id: 'agt_collections_1' })
    expect(agent.principal_id).toBe('agt_collections_1')
    const listed = await test.request({ method: 'GET', url: `/v1/tenants/${owner.tenantId}/wallets?limit=1`, token: owner.token })
    expect(listed.statusCode, listed.body).toBe(200)
    expect(listed.json().wallets.map((row: { id: string }) => row.id)).toEqual([wallet.id])
    const next = await test.request({ method: 'GET', url: `/v1/tenants/${owner.tenantId}/wallets?cursor=${encodeURIComponent(listed.json().next_cursor)}`, token: owner.token })
    expect(next.json()).toEqual({ wallets: [expect.objectContaining({ id: agent.id })], next_cursor: null })
  })

  it('links a human wallet only to the caller: never for another member (its maker would sign in and sign policies as them), nor for a stranger', async () => {
    const owner = await signupOwner(test)
    const admin = await addMember(test, owner, 'admin')
    const approver = await addMember(test, owner, 'approver')
    const stranger = await signupOwner(test)
    for (const [caller, principalId] of [
      [owner, approver.userId],
      [admin, owner.userId],
      [owner, stranger.userId],
    ] as const) {
      const refused = expectError(await post(owner.tenantId, caller.token, { address: freshAddress(), principal_type: 'human', principal_id: principalId }), 'request_body_invalid')
      expect(refused.details?.issues).toEqual([expect.objectContaining({ path: '/principal_id', message: "must be the caller's own user id (a member links their own wallet)" })])
    }
    const rows = await queryRows<{ count: number }>(test.runtime.db.orm, sql`select count(*)::int as count from tenant_wallets where tenant_id = ${owner.tenantId}`)
    expect(rows[0]!.count).toBe(0)
    // Their own id, named, is theirs: the admin's wallet, linked by the admin.
    const own = await linkWallet(test, { tenantId: owner.tenantId, token: admin.token }, { address: freshAddress(), principal_type: 'human', principal_id: admin.userId })
    expect(own).toMatchObject({ principal_id: admin.userId, created_by: admin.userId })
    // An approver holds no policy:write, so links no wallet at all.
    expectError(await post(owner.tenantId, approver.token, { address: freshAddress(), principal_type: 'human' }), 'auth_scope_insufficient')
  })

  it('answers 409 wallet_already_linked for an address linked in this tenant or in another, in any case', async () => {
    const owner = await signupOwner(test)
    const other = await signupOwner(test)
    const address = freshAddress()
    await linkWallet(test, owner, { address, principal_type: 'human' })
    expectError(await post(owner.tenantId, owner.token, { address: address.toLowerCase(), principal_type: 'human' }), 'wallet_already_linked')
    expectError(await post(other.tenantId, other.token, { address: `0x${address.slice(2).toUpperCase()}`, principal_type: 'agent', principal_id: 'agt_1' }), 'wallet_already_linked')
    const rows = await queryRows<{ count: number }>(test.runtime.db.orm, sql`select count(*)::int as count from tenant_wallets where address = ${address.toLowerCase()}`)
    expect(rows[0]!.count).toBe(1)
  })

  it('answers 400 for a malformed address, a bad checksum, an agent without principal_id, unknown fields and a signature field', async () => {
    const owner = await signupOwner(test)
    const address = freshAddress()
    const cases: object[] = [
      { address: '0x1234', principal_type: 'human' },
      { address: address.slice(2), principal_type: 'human' },
      { address: `0x${'g'.repeat(40)}`, principal_type: 'human' },
      { address, principal_type: 'robot' },
      { address, principal_type: 'agent' },
      { address, principal_type: 'human', signature: '0xabc' },
      { principal_type: 'human' },
    ]
    for (const payload of cases) expectError(await post(owner.tenantId, owner.token, payload), 'request_body_invalid')
    // Flip the case of one letter: a mixed-case address whose EIP-55 checksum no longer holds.
    const letter = [...address.slice(2)].findIndex((character) => /[a-fA-F]/.test(character)) + 2
    const flipped = address.slice(0, letter) + (address[letter] === address[letter]!.toUpperCase() ? address[letter]!.toLowerCase() : address[letter]!.toUpperCase()) + address.slice(letter + 1)
    const checksum = expectError(await post(owner.tenantId, owner.token, { address: flipped, principal_type: 'human' }), 'request_body_invalid')
    expect(checksum.details?.issues).toEqual([expect.objectContaining({ path: '/address', message: expect.stringMatching(/checksum/) })])
    const agentless = expectError(await post(owner.tenantId, owner.token, { address, principal_type: 'agent' }), 'request_body_invalid')
    expect(agentless.details?.issues).toEqual([expect.objectContaining({ path: '/principal_id' })])
    expect((await test.request({ method: 'GET', url: `/v1/tenants/${owner.tenantId}/wallets`, token: owner.token })).json().wallets).toEqual([])
  })

  it('needs policy:write and a user principal, on the caller\'s own tenant', async () => {
    const owner = await signupOwner(test)
    const viewer = await addMember(test, owner, 'viewer')
    const approver = await addMember(test, owner, 'approver')
    const admin = await addMember(test, owner, 'admin')
    const other = await signupOwner(test)
    expectError(await post(owner.tenantId, viewer.token, { address: freshAddress(), principal_type: 'human' }), 'auth_scope_insufficient')
    expectError(await post(owner.tenantId, approver.token, { address: freshAddress(), principal_type: 'human' }), 'auth_scope_insufficient')
    expectError(await post(owner.tenantId, other.token, { address: freshAddress(), principal_type: 'human' }), 'auth_tenant_mismatch')
    expectError(await test.request({ method: 'GET', url: `/v1/tenants/${owner.tenantId}/wallets`, token: other.token }), 'auth_tenant_mismatch')
    expectError(await test.request({ method: 'POST', url: `/v1/tenants/${owner.tenantId}/wallets`, payload: { address: freshAddress(), principal_type: 'human' } }), 'auth_token_missing')
    // An admin holds policy:write; the viewer may read the list (policy:read).
    expect((await post(owner.tenantId, admin.token, { address: freshAddress(), principal_type: 'human' })).statusCode).toBe(201)
    expect((await test.request({ method: 'GET', url: `/v1/tenants/${owner.tenantId}/wallets`, token: viewer.token })).json().wallets).toHaveLength(1)
    // Another tenant's wallets are not listed.
    expect((await test.request({ method: 'GET', url: `/v1/tenants/${other.tenantId}/wallets`, token: other.token })).json().wallets).toEqual([])
  })
})

describe('DELETE /v1/tenants/{tenant_id}/wallets/{wallet_id}', () => {
  const unlink = (tenantId: string, token: string, walletId: string, idempotencyKey?: string) =>
    test.request({ method: 'DELETE', url: `/v1/tenants/${tenantId}/wallets/${walletId}`, token, ...(idempotencyKey === undefined ? {} : { headers: { 'idempotency-key': idempotencyKey } }) })

  async function siwx(account: PrivateKeyAccount) {
    const challenge = (await test.request({ method: 'POST', url: '/v1/auth/siwx/challenge', payload: { address: account.address } })).json()
    const message = buildSiwxMessage({ domain: challenge.domain, address: account.address, uri: challenge.uri, chainId: 8453, nonce: challenge.nonce, issuedAt: new Date(challenge.issued_at), expirationTime: new Date(challenge.expiration_time) })
    return test.request({ method: 'POST', url: '/v1/auth/siwx', payload: { message, signature: await account.signMessage({ message }), session_id: 'unlink' } })
  }

  it('unlinks: the wallet no longer signs in, is audited with what the link was, and its address may be linked again elsewhere', async () => {
    const owner = await signupOwner(test)
    const account = privateKeyToAccount(generatePrivateKey())
    const wallet = (await post(owner.tenantId, owner.token, { address: account.address, principal_type: 'human' })).json()
    const walletToken = (await siwx(account)).json().access_token as string
    const whoami = () => test.request({ method: 'GET', url: '/v1/auth/whoami', token: walletToken })
    expect((await whoami()).statusCode).toBe(200)

    const response = await unlink(owner.tenantId, owner.token, wallet.id, 'unlink-1')
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toEqual({ wallet_id: wallet.id, address: account.address.toLowerCase(), deleted: true })
    // A retry with the key gets the same answer; without it, the wallet is gone.
    const replayed = await unlink(owner.tenantId, owner.token, wallet.id, 'unlink-1')
    expect(replayed.statusCode).toBe(200)
    expect(replayed.json()).toEqual(response.json())
    expectError(await unlink(owner.tenantId, owner.token, wallet.id), 'wallet_not_found')

    const audit = await auditEvents(test, owner.tenantId, { action: 'wallet.unlinked' })
    expect(audit.map(({ actor_id, entity_id, outputs }) => ({ actor_id, entity_id, outputs }))).toEqual([
      { actor_id: owner.userId, entity_id: wallet.id, outputs: { address: account.address.toLowerCase(), principal_type: 'human', principal_id: owner.userId, created_by: owner.userId, linked_at: wallet.created_at } },
    ])
    expect((await test.request({ method: 'GET', url: `/v1/tenants/${owner.tenantId}/wallets`, token: owner.token })).json().wallets).toEqual([])
    expect((await siwx(account)).statusCode).toBe(401)
    // The token it signed in with stops too; the owner's password login does not.
    expectError(await whoami(), 'auth_token_invalid')
    expect((await test.request({ method: 'GET', url: '/v1/auth/whoami', token: owner.token })).statusCode).toBe(200)
    expect((await queryRows(test.runtime.db.orm, sql`select 1 from wallet_addresses where address = ${account.address.toLowerCase()}`)).length).toBe(0)

    // The address is free: its holder links it in another tenant and signs in there.
    const elsewhere = await signupOwner(test)
    expect((await post(elsewhere.tenantId, elsewhere.token, { address: account.address, principal_type: 'human' })).statusCode).toBe(201)
    const signedIn = await siwx(account)
    expect(signedIn.statusCode, signedIn.body).toBe(200)
    expect(signedIn.json().principal).toMatchObject({ id: elsewhere.userId, tenantId: elsewhere.tenantId })
    // The old token names the first tenant's member: the address is linked again, but not to them.
    expectError(await whoami(), 'auth_token_invalid')
  })

  it('answers 404 wallet_not_found for an id of no wallet of the tenant, whatever its shape, and another tenant\'s wallet is untouched', async () => {
    const owner = await signupOwner(test)
    const other = await signupOwner(test)
    const theirs = (await post(other.tenantId, other.token, { address: freshAddress(), principal_type: 'human' })).json()
    for (const id of [theirs.id, 'wal_01M8HNG2F51K64Q61SPTPW5WNM', 'x', '00000000-0000-0000-0000-000000000000']) {
      expectError(await unlink(owner.tenantId, owner.token, id), 'wallet_not_found')
    }
    expect((await test.request({ method: 'GET', url: `/v1/tenants/${other.tenantId}/wallets`, token: other.token })).json().wallets).toEqual([theirs])
    expect(await auditEvents(test, owner.tenantId, { action: 'wallet.unlinked' })).toEqual([])
  })

  it('needs policy:write on the caller\'s own tenant: an admin unlinks any wallet of the tenant, a viewer or an approver none', async () => {
    const owner = await signupOwner(test)
    const admin = await addMember(test, owner, 'admin')
    const viewer = await addMember(test, owner, 'viewer')
    const approver = await addMember(test, owner, 'approver')
    const wallet = (await post(owner.tenantId, owner.token, { address: freshAddress(), principal_type: 'human' })).json()
    expectError(await unlink(owner.tenantId, viewer.token, wallet.id), 'auth_scope_insufficient')
    expectError(await unlink(owner.tenantId, approver.token, wallet.id), 'auth_scope_insufficient')
    const other = await signupOwner(test)
    expectError(await unlink(owner.tenantId, other.token, wallet.id), 'auth_tenant_mismatch')
    expect((await unlink(owner.tenantId, admin.token, wallet.id)).statusCode).toBe(200)
  })
})

describe('unlinking a wallet the active policy counts', () => {
  it('is 409 wallet_signs_active_policy while its signature holds the quorum, and allowed once a version signed without it is active', async () => {
    const owner = await signupOwner(test)
    const [first, second, third] = [await addSigner(test, owner, 'admin'), await addSigner(test, owner), await addSigner(test, owner, 'admin')]
    const activate = async (signers: readonly Signer[], label: number) => {
      const composed = await compose(test, owner, samplePolicy(label), 2)
      const signed = await sign(test, owner, first.member.token, composed.policy_id, await Promise.all(signers.map((signer) => signatureOf(signer, composed))))
      expect(signed.statusCode, signed.body).toBe(200)
      expect(signed.json()).toMatchObject({ activated: true, policy: { state: 'active' } })
    }
    await activate([first, second], 2)
    const wallets = (await test.request({ method: 'GET', url: `/v1/tenants/${owner.tenantId}/wallets`, token: owner.token })).json().wallets as Array<{ id: string; address: string }>
    const firstWallet = wallets.find((wallet) => wallet.address === first.address)!
    const refused = expectError(await test.request({ method: 'DELETE', url: `/v1/tenants/${owner.tenantId}/wallets/${firstWallet.id}`, token: owner.token }), 'wallet_signs_active_policy')
    expect(refused.details).toMatchObject({ quorum_required: 2, valid_signatures: 2 })
    expect((await test.request({ method: 'GET', url: `/v1/tenants/${owner.tenantId}/wallets`, token: owner.token })).json().wallets).toHaveLength(3)
    // The third signer's wallet holds nothing: it unlinks; then a version signed by the other two frees the first.
    const thirdWallet = wallets.find((wallet) => wallet.address === third.address)!
    expect((await test.request({ method: 'DELETE', url: `/v1/tenants/${owner.tenantId}/wallets/${thirdWallet.id}`, token: owner.token })).statusCode).toBe(200)
    const relinked = await post(owner.tenantId, third.member.token, { address: third.account.address, principal_type: 'human' })
    expect(relinked.statusCode, relinked.body).toBe(201)
    await activate([second, third], 3)
    const unlinked = await test.request({ method: 'DELETE', url: `/v1/tenants/${owner.tenantId}/wallets/${firstWallet.id}`, token: owner.token })
    expect(unlinked.statusCode, unlinked.body).toBe(200)
  })
})
