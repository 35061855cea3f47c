/**
 * Agent-protocol test helpers: an external agent of a role registered, activated (the sandbox's governance
 * resume, no chain) and signed in with SIWX, and a raw JSON-RPC call over app.inject.
 */
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import { expect } from 'vitest'
import { buildSiwxMessage } from '../../src/modules/auth/domain/siwx.ts'
import { addMember, type TenantOwner, type TestApp } from './harness.ts'

export interface SignedInAgent {
  readonly agentId: string
  readonly account: PrivateKeyAccount
  readonly token: string
}

let agentCounter = 0

/** Registers an external agent with `role`, links its wallet, activates it and signs it in (SIWX). */
export async function signInAgent(test: TestApp, owner: TenantOwner, role: 'reader' | 'contributor' | 'proposer', admin?: { token: string }): Promise<SignedInAgent> {
  const registrar = admin ?? (await addMember(test, owner, 'admin'))
  const account = privateKeyToAccount(generatePrivateKey())
  const agentId = `agt_mcp_${role}_${++agentCounter}_${Date.now().toString(36)}`
  const registered = await test.request({ method: 'POST', url: '/v1/execution/agents/register', token: registrar.token, payload: { agent_id: agentId, role, display_name: `MCP ${role}`, onchain_address: account.address } })
  expect(registered.statusCode, registered.body).toBe(201)
  const linked = await test.request({ method: 'POST', url: `/v1/tenants/${owner.tenantId}/wallets`, token: owner.token, payload: { address: account.address, principal_type: 'agent', principal_id: agentId } })
  expect(linked.statusCode, linked.body).toBe(201)
  await test.runtime.agents.registry.resume({ requestId: 'mcp-test' }, { tenantId: owner.tenantId, agentId, actor: { type: 'platform', id: 'governance' } })
  return { agentId, account, token: await siwxToken(test, account) }
}

/** An access token from the SIWX exchange for the wallet. */
export async function siwxToken(test: TestApp, account: PrivateKeyAccount): Promise<string> {
  const challenge = (await test.request({ method: 'POST', url: '/v1/auth/siwx/challenge', payload: { address: account.address } })).json()
  const message = buildSiwxMessage({ domain: challenge.domain, address: account.address, uri: challenge.uri, chainId: 8453, nonce: challenge.nonce, issuedAt: new Date(challenge.issued_at), expirationTime: new Date(challenge.expiration_time) })
  const signedIn = await test.request({ method: 'POST', url: '/v1/auth/siwx', payload: { message, signature: await account.signMessage({ message }), session_id: 'mcp' } })
  expect(signedIn.statusCode, signedIn.body).toBe(200)
  return signedIn.json().access_token as string
}

let rpcId = 0

/** One JSON-RPC request to POST /v1/agents/mcp (a string payload is sent as is). */
export async function rpc(test: TestApp, token: string | undefined, method: string, params?: Record<string, unknown>) {
  const response = await test.request({ method: 'POST', url: '/v1/agents/mcp', token, payload: { jsonrpc: '2.0', id: ++rpcId, method, ...(params === undefined ? {} : { params }) } })
  return response
}

/** A tools/call that must succeed: its structured content. */
export async function callTool(test: TestApp, token: string, name: string, args: Record<string, unknown>): Promise<any> {
  const response = await rpc(test, token, 'tools/call', { name, arguments: args })
  expect(response.statusCode, response.body).toBe(200)
  const body = response.json()
  expect(body.error, JSON.stringify(body.error)).toBeUndefined()
  return body.result.structuredContent
}

/** Asserts a refusal before dispatch: the flat variant `{error_code, message}` with this status and code. */
export function expectRefusal(response: { statusCode: number; body: string; headers: Record<string, unknown>; json(): any }, status: number, code: string): void {
  expect(response.statusCode, response.body).toBe(status)
  expect(String(response.headers['content-type'])).toMatch(/^application\/json/)
  const body = response.json()
  expect(Object.keys(body).sort()).toEqual(['error_code', 'message'])
  expect(body.error_code).toBe(code)
  expect(typeof body.message).toBe('string')
}
