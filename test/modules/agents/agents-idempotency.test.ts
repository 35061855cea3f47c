/**
 * The Idempotency-Key contract (test/support/idempotency-cases.ts) on the agents module's keyed routes:
 * register, halt, restore, halt-category and the contribution-hold release. Each case has its own tenant.
 */
import { afterAll, beforeAll, describe } from 'vitest'
import { catalog } from '../../../src/modules/agents/index.ts'
import { auditEvents } from '../../support/audit-log.ts'
import { addMember, createTestApp, signupOwner, type TestApp } from '../../support/harness.ts'
import { describeKeyedRoutes, type KeyedCase } from '../../support/idempotency-cases.ts'

let test: TestApp
beforeAll(async () => {
  test = await createTestApp()
})
afterAll(async () => test?.close())

async function tenant() {
  const owner = await signupOwner(test)
  const admin = await addMember(test, owner, 'admin')
  const count = async (action: string, entityId?: string) => (await auditEvents(test, owner.tenantId, { action, ...(entityId === undefined ? {} : { entityId }) })).length
  const halt = async (agentId: string) => {
    const response = await test.request({ method: 'POST', url: `/v1/agents/${agentId}/halt`, token: admin.token })
    if (response.statusCode !== 200) throw new Error(response.body)
  }
  return { owner, admin, count, halt }
}

const businessAgents = catalog.filter((entry) => entry.category === 'business').length

describe('agents: keyed routes', () => {
  describeKeyedRoutes(() => test, [
    [
      'POST /v1/execution/agents/register',
      async (): Promise<KeyedCase> => {
        const { admin, count } = await tenant()
        const body = { agent_id: 'agt_keyed', role: 'reader', display_name: 'Keyed' }
        return {
          request: { method: 'POST', url: '/v1/execution/agents/register', token: admin.token, payload: body },
          other: { method: 'POST', url: '/v1/execution/agents/register', token: admin.token, payload: { ...body, display_name: 'Other' } },
          status: 201,
          runs: () => count('agent.registered', 'agt_keyed'),
        }
      },
    ],
    [
      'POST /v1/agents/{agent_id}/halt',
      async (): Promise<KeyedCase> => {
        const { admin, count } = await tenant()
        return {
          request: { method: 'POST', url: '/v1/agents/bill_payment/halt', token: admin.token },
          other: { method: 'POST', url: '/v1/agents/collections/halt', token: admin.token },
          status: 200,
          runs: () => count('agent.halted'),
        }
      },
    ],
    [
      'POST /v1/agents/{agent_id}/restore',
      async (): Promise<KeyedCase> => {
        const { admin, count, halt } = await tenant()
        await halt('bill_payment')
        await halt('collections')
        return {
          request: { method: 'POST', url: '/v1/agents/bill_payment/restore', token: admin.token },
          other: { method: 'POST', url: '/v1/agents/collections/restore', token: admin.token },
          status: 200,
          runs: () => count('agent.restored'),
        }
      },
    ],
    [
      'POST /v1/agents/halt-category',
      async (): Promise<KeyedCase> => {
        const { admin, count } = await tenant()
        return {
          request: { method: 'POST', url: '/v1/agents/halt-category', token: admin.token, payload: { category: 'business' } },
          other: { method: 'POST', url: '/v1/agents/halt-category', token: admin.token, payload: { category: 'consumer' } },
          status: 200,
          runs: async () => (await count('agent.halted')) / businessAgents,
        }
      },
    ],
    [
      'POST /v1/agents/{agent_id}/contribution-hold/release',
      async (): Promise<KeyedCase> => {
        const { admin, count, halt } = await tenant()
        await halt('bill_payment')
        await halt('collections')
        return {
          request: { method: 'POST', url: '/v1/agents/bill_payment/contribution-hold/release', token: admin.token },
          other: { method: 'POST', url: '/v1/agents/collections/contribution-hold/release', token: admin.token },
          status: 200,
          runs: () => count('agent.contribution_hold_released'),
        }
      },
    ],
  ])
})
