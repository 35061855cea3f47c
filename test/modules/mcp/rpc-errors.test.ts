/**
 * The codes the services raise once dispatch has started (issue 20): a tool, resource or prompt that throws
 * a catalogue error is answered with the spec's JSON-RPC code through the SDK's server, never an
 * `isError` result: -32001 token, -32002 scope or tenant, -32003 agent not registered or inactive (an agent
 * halted between the checks before dispatch and the service's own transaction), -32004 the gate with its
 * gate_* sub-code, -32005 scope hash, -32602 for every other caller error with its catalogue code, -32603
 * for a server error with a generic message. The SDK client talks to the per-request server in memory.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { McpError } from '@modelcontextprotocol/sdk/types.js'
import pino from 'pino'
import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { AppError, type ErrorCode } from '../../../src/kernel/errors.ts'
import type { Principal } from '../../../src/kernel/principal.ts'
import { createMcpCatalogue, createMcpServer } from '../../../src/modules/mcp/mcp.server.ts'
import { rpcTool } from '../../../src/platform/rpc/contributions.ts'

const principal: Principal = {
  id: 'agt_x',
  type: 'agent',
  tenantId: '00000000-0000-4000-8000-000000000001',
  scopes: ['ledger:read'],
  credentialId: 'agt_x',
  rateLimit: { perMinute: 60, burst: 60 },
}

const gateFailure = new AppError('payment_intent_gate_failed', 'The pre-execution gate failed at check 7 (counterparty_verified): unverified.', {
  payment_intent_id: 'pi_1',
  failed_check: { index: 7, name: 'counterparty_verified', code: 'gate_counterparty_unverified', reason: 'unverified' },
  failed_checks: [],
})

const throwing = (error: unknown) =>
  rpcTool({ name: 'test.throws', title: 't', description: 't', scopes: ['ledger:read'], input: Type.Object({}), output: Type.Object({}), readOnly: true, call: async () => Promise.reject(error) })

async function callWith(error: unknown): Promise<McpError> {
  const catalogue = createMcpCatalogue([
    {
      tools: [throwing(error)],
      resourceTemplates: [{ name: 'r', title: 'r', uriTemplate: 'svc://test/{id}', description: 'r', mimeType: 'application/json', scopes: [], read: async () => Promise.reject(error) }],
      prompts: [{ name: 'p', title: 'p', description: 'p', arguments: [], scopes: [], get: async () => Promise.reject(error) }],
    },
  ])
  const server = createMcpServer(catalogue, { context: { requestId: 'req_1', principal }, log: pino({ level: 'silent' }) })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new Client({ name: 'test', version: '1' })
  await client.connect(clientSide)
  try {
    const outcomes = await Promise.allSettled([client.callTool({ name: 'test.throws', arguments: {} }), client.readResource({ uri: 'svc://test/1' }), client.getPrompt({ name: 'p' })])
    const errors = outcomes.map((outcome) => {
      expect(outcome.status).toBe('rejected')
      return (outcome as PromiseRejectedResult).reason as McpError
    })
    // The tool, the resource and the prompt fail alike.
    expect(new Set(errors.map((found) => found.code)).size).toBe(1)
    return errors[0]!
  } finally {
    await client.close()
  }
}

describe('catalogue errors thrown by a contribution become the spec\'s JSON-RPC codes', () => {
  const cases: Array<[ErrorCode, number]> = [
    ['auth_token_missing', -32001],
    ['auth_token_invalid', -32001],
    ['auth_token_expired', -32001],
    ['auth_scope_insufficient', -32002],
    ['auth_tenant_mismatch', -32002],
    ['scope_expired', -32002],
    ['actor_unresolved', -32002],
    ['agent_not_registered', -32003],
    ['agent_inactive', -32003],
    ['agent_not_registered_onchain', -32003],
    ['agent_scope_hash_mismatch', -32005],
    ['agent_scope_hash_missing', -32005],
    ['ledger_transaction_not_found', -32602],
    ['payment_intent_invalid_state', -32602],
    ['validation_failed', -32602],
  ]
  it.each(cases)('%s → %i', async (code, expected) => {
    const error = await callWith(new AppError(code))
    expect(error).toBeInstanceOf(McpError)
    expect(error.code).toBe(expected)
    expect(error.data).toMatchObject({ error_code: code })
  })

  it('a gate failure is -32004 with the gate_* check in data.code', async () => {
    const error = await callWith(gateFailure)
    expect(error.code).toBe(-32004)
    expect(error.data).toMatchObject({ code: 'gate_counterparty_unverified', gate_codes: ['gate_counterparty_unverified'], error_code: 'payment_intent_gate_failed', details: { failed_check: { index: 7 } } })
  })

  it('a gate failure whose first failed check has no gate_* code names the first that has one, or the catalogue code', async () => {
    const failedCheck = (index: number | string, name: string, code: string | null) => ({ index, name, code, reason: 'no' })
    const withChecks = (checks: ReturnType<typeof failedCheck>[]) =>
      new AppError('payment_intent_gate_failed', 'The pre-execution gate failed.', { payment_intent_id: 'pi_1', failed_check: checks[0], failed_checks: checks })
    const mixed = await callWith(withChecks([failedCheck(1.5, 'agent_behavior_pinned', null), failedCheck(9, 'counterparty_verified', 'gate_counterparty_unverified'), failedCheck(13, 'audit_chain_healthy', 'gate_audit_chain_stale')]))
    expect(mixed.code).toBe(-32004)
    expect(mixed.data).toMatchObject({ code: 'gate_counterparty_unverified', gate_codes: ['gate_counterparty_unverified', 'gate_audit_chain_stale'], error_code: 'payment_intent_gate_failed' })
    const none = await callWith(withChecks([failedCheck(6.5, 'currency_matches_account', null)]))
    expect(none.data).toMatchObject({ code: 'payment_intent_gate_failed', gate_codes: [], error_code: 'payment_intent_gate_failed' })
  })

  it('an unknown error is -32603 with a generic message that hides it', async () => {
    const error = await callWith(new Error('secret connection string'))
    expect(error.code).toBe(-32603)
    expect(error.message).not.toContain('secret')
    expect(error.data).toEqual({ error_code: 'internal_error' })
  })
})
