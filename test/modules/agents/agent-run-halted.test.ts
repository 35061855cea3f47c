/**
 * A halted agent does not run (issue 18, items 4 and 5): once vendor_risk is halted in a tenant, a run
 * routed to it is 409 agent_inactive and records nothing; restored, it runs again. Another tenant's
 * vendor_risk is untouched by the halt.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { auditEvents } from '../../support/audit-log.ts'
import { createTestApp, expectError, type TestApp } from '../../support/harness.ts'
import { business, type Business } from '../../support/payments.ts'

let test: TestApp
let b: Business
let other: Business
beforeAll(async () => {
  test = await createTestApp()
  b = await business(test)
  other = await business(test)
})
afterAll(async () => test?.close())

const run = (owner: Business['owner']) => test.request({ method: 'POST', url: '/v1/agents/run', token: owner.token, payload: { event: 'ledger.counterparty.created' } })

it('refuses to run a halted agent until it is restored, in its tenant only', async () => {
  expect((await run(b.owner)).statusCode).toBe(200)
  const halted = await test.request({ method: 'POST', url: '/v1/agents/vendor_risk/halt', token: b.owner.token })
  expect(halted.statusCode, halted.body).toBe(200)
  const before = (await auditEvents(test, b.owner.tenantId, { action: 'agent.run.completed' })).length

  const refused = await run(b.owner)
  expectError(refused, 'agent_inactive')
  expect(refused.json().error.details).toEqual({ agent_id: 'vendor_risk', state: 'quarantined' })
  expect(await auditEvents(test, b.owner.tenantId, { action: 'agent.run.completed' })).toHaveLength(before)
  // The halt is the tenant's: another tenant's vendor_risk runs.
  expect((await run(other.owner)).statusCode).toBe(200)

  expect((await test.request({ method: 'POST', url: '/v1/agents/vendor_risk/restore', token: b.owner.token })).statusCode).toBe(200)
  const again = await run(b.owner)
  expect(again.statusCode, again.body).toBe(200)
  expect(again.json().selected_agent_id).toBe('vendor_risk')
})
