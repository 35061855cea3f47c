/**
 * The contribution hold's Raw side (issue 18, item 5), with the workers running: an agent that was halted
 * and restored keeps its hold, so its uploaded statement is extracted but kept from the Ledger (its
 * artifact names the agent in held_for_agent_id and no transaction appears); the release hands it to
 * normalization in its transaction, and the transactions appear.
 */
import { readFileSync } from 'node:fs'
import { sql } from 'drizzle-orm'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../../../src/platform/db/database.ts'
import { buildSiwxMessage } from '../../../src/modules/auth/domain/siwx.ts'
import { ingestFile } from '../../fixtures/raw/ingest/raw-test-kit.ts'
import { addMember, createTestApp, signupOwner, type TestApp } from '../../support/harness.ts'
import { getOk, settledPipeline } from '../../support/ledger.ts'

let test: TestApp
beforeAll(async () => {
  test = await createTestApp({ workers: true })
})
afterAll(async () => test?.close())

const statement = readFileSync(new URL('../../fixtures/raw/bank/camt053/lindenhof-2024-03-04.camt053-v08.xml', import.meta.url))

describe('the contribution hold', () => {
  it('keeps a held agent\'s upload from the Ledger until the release hands it to normalization', async () => {
    const owner = await signupOwner(test)
    const admin = await addMember(test, owner, 'admin')
    const account = privateKeyToAccount(generatePrivateKey())
    const agentId = 'agt_contributor'
    expect((await test.request({ method: 'POST', url: '/v1/execution/agents/register', token: admin.token, payload: { agent_id: agentId, role: 'contributor', display_name: 'Contributor', onchain_address: account.address } })).statusCode).toBe(201)
    expect((await test.request({ method: 'POST', url: `/v1/tenants/${owner.tenantId}/wallets`, token: owner.token, payload: { address: account.address, principal_type: 'agent', principal_id: agentId } })).statusCode).toBe(201)
    await test.runtime.agents.registry.resume({ requestId: 'r' }, { tenantId: owner.tenantId, agentId, actor: { type: 'platform', id: 'governance' } })
    // Halted, then restored: active again, its hold still on.
    expect((await test.request({ method: 'POST', url: `/v1/agents/${agentId}/halt`, token: admin.token })).statusCode).toBe(200)
    expect((await test.request({ method: 'POST', url: `/v1/agents/${agentId}/restore`, token: admin.token })).json()).toMatchObject({ state: 'active', contribution_hold: true })

    const challenge = (await test.request({ method: 'POST', url: '/v1/auth/siwx/challenge', payload: { address: account.address } })).json()
    const message = buildSiwxMessage({ domain: challenge.domain, address: account.address, uri: challenge.uri, chainId: 8453, nonce: challenge.nonce, issuedAt: new Date(challenge.issued_at), expirationTime: new Date(challenge.expiration_time) })
    const token = (await test.request({ method: 'POST', url: '/v1/auth/siwx', payload: { message, signature: await account.signMessage({ message }), session_id: 'hold' } })).json().access_token as string

    const uploaded = await ingestFile(test, token, { sourceType: 'other', mimeType: 'application/xml', file: { filename: 'statement.xml', content: statement, contentType: 'application/xml' } })
    expect(uploaded.statusCode, uploaded.body).toBe(201)
    const rawId = uploaded.json().raw_id as string
    await settledPipeline(test, owner.tenantId)
    const state = async () => (await queryRows<{ extraction_status: string; held_for_agent_id: string | null }>(test.runtime.db.orm, sql`select extraction_status, held_for_agent_id from raw_artifacts where id = ${rawId}`))[0]!
    expect(await state()).toEqual({ extraction_status: 'succeeded', held_for_agent_id: agentId })
    expect((await getOk(test, owner.token, '/v1/ledger/transactions')).transactions).toEqual([])

    const released = await test.request({ method: 'POST', url: `/v1/agents/${agentId}/contribution-hold/release`, token: admin.token })
    expect(released.json()).toEqual({ agent_id: agentId, state: 'active', contribution_hold: false, released: true, released_raw_ids: [rawId] })
    await settledPipeline(test, owner.tenantId)
    expect((await state()).held_for_agent_id).toBeNull()
    expect((await getOk(test, owner.token, '/v1/ledger/transactions')).transactions.length).toBeGreaterThan(0)
  })
})
