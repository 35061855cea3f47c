/**
 * The agent protocol as raw JSON-RPC over app.inject (issue 20): the refusals before dispatch (HTTP 401 and
 * 403, the flat `{error_code, message}` variant) and, once dispatch starts, status 200 with the spec's
 * JSON-RPC codes: -32700, -32600, -32601, -32602, -32002 (scope and tenant), and the catalogue codes in
 * error.data. The codes the services raise after dispatch (-32001, -32003, -32004, -32005) are proved
 * through the SDK in rpc-errors.test.ts; docs/mcp.md says which failures are HTTP and which JSON-RPC.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { errorCatalogue, type ErrorCode } from '../../../src/kernel/errors.ts'
import { scopeHashOfRole, scopesOfRole } from '../../../src/modules/agents/index.ts'
import { addMember, createTestApp, signupOwner, type TenantOwner, type TestApp } from '../../support/harness.ts'
import { expectRefusal, rpc, signInAgent, type SignedInAgent } from '../../support/mcp.ts'

const sourceRoot = fileURLToPath(new URL('../../../src/modules', import.meta.url))

let test: TestApp
let owner: TenantOwner
let admin: { token: string }
let reader: SignedInAgent
let proposer: SignedInAgent
beforeAll(async () => {
  test = await createTestApp()
  owner = await signupOwner(test)
  admin = await addMember(test, owner, 'admin')
  reader = await signInAgent(test, owner, 'reader', admin)
  proposer = await signInAgent(test, owner, 'proposer', admin)
})
afterAll(async () => test?.close())

const post = (token: string | undefined, payload: string | object, headers: Record<string, string> = {}) =>
  test.request({ method: 'POST', url: '/v1/agents/mcp', token, payload, headers: { 'content-type': 'application/json', ...headers } })

function rpcError(response: { statusCode: number; body: string; json(): any }, code: number) {
  expect(response.statusCode, response.body).toBe(200)
  const body = response.json()
  expect(body.jsonrpc).toBe('2.0')
  expect(body.result).toBeUndefined()
  expect(body.error.code, response.body).toBe(code)
  expect(typeof body.error.message).toBe('string')
  return body as { id: unknown; error: { code: number; message: string; data?: Record<string, any> } }
}

describe('before dispatch: HTTP 401 or 403 with the flat variant', () => {
  it('refuses a missing, invalid or expired token (401)', async () => {
    expectRefusal(await post(undefined, { jsonrpc: '2.0', id: 1, method: 'ping' }), 401, 'auth_token_missing')
    expectRefusal(await post('not.a.jwt', { jsonrpc: '2.0', id: 1, method: 'ping' }), 401, 'auth_token_invalid')
    const expired = await test.tokens.sign(
      { sub: reader.agentId, tenantId: owner.tenantId, type: 'agent', scopes: scopesOfRole('reader'), scopeHash: scopeHashOfRole('reader') },
      60,
      new Date(Date.now() - 3_600_000),
      `tok_${randomBytes(8).toString('hex')}`,
    )
    expectRefusal(await post(expired, { jsonrpc: '2.0', id: 1, method: 'ping' }), 401, 'auth_token_expired')
  })

  it('refuses a token that is not an agent\'s (401 agent_not_registered)', async () => {
    expectRefusal(await post(owner.token, { jsonrpc: '2.0', id: 1, method: 'ping' }), 401, 'agent_not_registered')
  })

  it('refuses a token whose scope_hash is not the registered one (401 agent_scope_hash_mismatch)', async () => {
    const forged = await test.tokens.sign(
      { sub: reader.agentId, tenantId: owner.tenantId, type: 'agent', scopes: scopesOfRole('reader'), scopeHash: `0x${'ab'.repeat(32)}` },
      3600,
      new Date(),
      `tok_${randomBytes(8).toString('hex')}`,
    )
    expectRefusal(await post(forged, { jsonrpc: '2.0', id: 1, method: 'ping' }), 401, 'agent_scope_hash_mismatch')
  })

  it('refuses a halted agent (403 agent_inactive, 409 elsewhere) and serves it again once restored', async () => {
    const halted = await signInAgent(test, owner, 'reader', admin)
    expect((await rpc(test, halted.token, 'ping')).json().result).toEqual({})
    expect((await test.request({ method: 'POST', url: `/v1/agents/${halted.agentId}/halt`, token: admin.token })).statusCode).toBe(200)
    expectRefusal(await post(halted.token, { jsonrpc: '2.0', id: 1, method: 'ping' }), 403, 'agent_inactive')
    // Even a body that is not JSON: the checks before dispatch come first.
    expectRefusal(await post(halted.token, '{not json'), 403, 'agent_inactive')
    expect((await test.request({ method: 'POST', url: `/v1/agents/${halted.agentId}/restore`, token: admin.token })).statusCode).toBe(200)
    expect((await rpc(test, halted.token, 'ping')).json().result).toEqual({})
  })
})

describe('after dispatch: status 200 and JSON-RPC errors', () => {
  it('-32700 for a body that is not JSON', async () => {
    expect(rpcError(await post(reader.token, '{"jsonrpc": "2.0", "id": 1,'), -32700).id).toBeNull()
    rpcError(await post(reader.token, ''), -32700)
  })

  it('-32600 for a message that is not a JSON-RPC request, and for a batch', async () => {
    expect(rpcError(await post(reader.token, { jsonrpc: '1.0', id: 7, method: 'ping' }), -32600).id).toBe(7)
    rpcError(await post(reader.token, { jsonrpc: '2.0', id: 1 }), -32600)
    rpcError(await post(reader.token, { jsonrpc: '2.0', id: { nested: true }, method: 'ping' }), -32600)
    rpcError(await post(reader.token, [{ jsonrpc: '2.0', id: 1, method: 'ping' }]), -32600)
    rpcError(await post(reader.token, 'null'), -32600)
    expect(rpcError(await post(reader.token, { jsonrpc: '2.0', id: 9, method: 'ping', surprise: 1 }), -32600).id).toBe(9)
  })

  it('answers only error codes of the one catalogue as data.error_code', () => {
    // The protocol's own module and every module's RPC tools.
    const sources = readdirSync(sourceRoot, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((module) => readdirSync(join(sourceRoot, module.name)).filter((file) => file.endsWith('.ts')).map((file) => join(sourceRoot, module.name, file)))
      .filter((file) => file.includes('/mcp/') || file.endsWith('.rpc.ts'))
    const codes = new Set(sources.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/(?:error_code: |notFound\()'([a-z0-9_]+)'/g)].map((match) => match[1]!)))
    for (const code of ['tool_not_found', 'resource_not_found', 'prompt_not_found', 'auth_scope_insufficient']) expect(codes.has(code), code).toBe(true)
    for (const code of codes) expect(errorCatalogue[code as ErrorCode], code).toBeDefined()
  })

  it('-32601 for an unknown method', async () => {
    const body = rpcError(await rpc(test, reader.token, 'tools/execute', { name: 'x' }), -32601)
    expect(body.id).toEqual(expect.any(Number))
  })

  it('-32602 for invalid params: an unknown tool, arguments that fail the schema, an unknown resource or prompt', async () => {
    expect(rpcError(await rpc(test, reader.token, 'tools/call', { name: 'payment_intent.execute', arguments: {} }), -32602).error.data).toEqual({ error_code: 'tool_not_found', status: 404 })
    const invalid = rpcError(await rpc(test, reader.token, 'tools/call', { name: 'ledger.transactions.list', arguments: { limit: 0, surprise: true } }), -32602)
    expect(invalid.error.data).toMatchObject({ error_code: 'request_params_invalid' })
    expect(invalid.error.data!.issues.map((issue: { path: string }) => issue.path).sort()).toEqual(['/limit', '/surprise'])
    rpcError(await rpc(test, reader.token, 'tools/call', { name: 'ledger.accounts.list', arguments: { limit: '5' } }), -32602)
    rpcError(await rpc(test, reader.token, 'tools/call', { arguments: {} }), -32602)
    rpcError(await rpc(test, reader.token, 'tools/call', { name: 'ledger.accounts.list', arguments: [] }), -32602)
    expect(rpcError(await rpc(test, reader.token, 'resources/read', { uri: 'svc://ledger/nothing/1' }), -32602).error.data).toEqual({ error_code: 'resource_not_found', status: 404 })
    expect(rpcError(await rpc(test, reader.token, 'prompts/get', { name: 'wiki.question.weather' }), -32602).error.data).toEqual({ error_code: 'prompt_not_found', status: 404 })
    expect(rpcError(await rpc(test, reader.token, 'prompts/get', { name: 'wiki.question.bills_due', arguments: { days: '9999' } }), -32602).error.data).toMatchObject({ error_code: 'request_params_invalid' })
    expect(rpcError(await rpc(test, reader.token, 'prompts/get', { name: 'wiki.question.subscriptions', arguments: { colour: 'red' } }), -32602).error.data).toMatchObject({ error_code: 'request_params_invalid' })
    rpcError(await rpc(test, reader.token, 'initialize', { protocolVersion: '2025-06-18' }), -32602)
  })

  it('-32602 with the catalogue code for a record the tenant does not have (not found, whatever the id\'s shape)', async () => {
    for (const id of ['txn_00000000000000000000000000', 'anything']) {
      const body = rpcError(await rpc(test, reader.token, 'tools/call', { name: 'ledger.transactions.get', arguments: { transaction_id: id } }), -32602)
      expect(body.error.data).toMatchObject({ error_code: 'ledger_transaction_not_found', status: 404 })
    }
    expect(rpcError(await rpc(test, reader.token, 'resources/read', { uri: 'svc://ledger/accounts/acct_missing' }), -32602).error.data).toMatchObject({ error_code: 'ledger_account_not_found' })
  })

  it('-32002 for a scope the tool needs and the agent lacks, and for a tenant_id that is not the token\'s', async () => {
    const propose = rpcError(await rpc(test, reader.token, 'tools/call', { name: 'payment_intent.propose', arguments: {} }), -32002)
    expect(propose.error.data).toMatchObject({ error_code: 'auth_scope_insufficient', missing: ['payment_intent:propose'] })
    expect(rpcError(await rpc(test, reader.token, 'tools/call', { name: 'raw.contribute', arguments: { content: 'x', mime_type: 'text/plain' } }), -32002).error.data).toMatchObject({ missing: ['raw:write'] })
    rpcError(await rpc(test, reader.token, 'resources/read', { uri: 'svc://proofs/pi_x' }), -32002)
    const other = await signupOwner(test)
    const tenant = rpcError(await rpc(test, reader.token, 'tools/call', { name: 'wiki.question', arguments: { tenant_id: other.tenantId, question: 'What was our cash flow last month?' } }), -32002)
    expect(tenant.error.data).toMatchObject({ error_code: 'auth_tenant_mismatch' })
    rpcError(await rpc(test, reader.token, 'tools/call', { name: 'wiki.question', arguments: { tenant_id: randomUUID(), question: 'x' } }), -32002)
  })

  it('answers a notification with 202 and no body, and ping with an empty result', async () => {
    const notification = await post(reader.token, { jsonrpc: '2.0', method: 'notifications/initialized' })
    expect(notification.statusCode).toBe(202)
    expect(notification.body).toBe('')
    const ping = await rpc(test, proposer.token, 'ping')
    expect(ping.statusCode).toBe(200)
    expect(ping.json()).toMatchObject({ jsonrpc: '2.0', result: {} })
  })

  it('answers whatever Accept header the caller sent (the answer is always JSON)', async () => {
    const response = await post(reader.token, { jsonrpc: '2.0', id: 3, method: 'ping' }, { accept: 'text/html' })
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toEqual({ jsonrpc: '2.0', id: 3, result: {} })
  })
})
