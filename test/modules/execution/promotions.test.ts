/**
 * Shadow mode and promotion (issue 17, item 3; governing rule 7): an un-promoted agent's payment runs the
 * whole pipeline and ends shadow_completed with no rail call, pass or fail; promotion is refused unless the
 * shadow scorecard meets the request's thresholds; a promoted agent's payments go out within its caps,
 * rails and counterparties (gate check 10); demotion sends it back to shadow.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../../../src/platform/db/database.ts'
import { auditEvents } from '../../support/audit-log.ts'
import { createTestApp, expectError, mintServiceToken, subjectOf, type TestApp } from '../../support/harness.ts'
import { getOk } from '../../support/ledger.ts'
import { approvedIntent, business, promoteAgent, promotionRequest, type Business } from '../../support/payments.ts'

let test: TestApp
beforeAll(async () => {
  test = await createTestApp()
})
afterAll(async () => test?.close())

const execute = (b: Business, id: string) => test.request({ method: 'POST', url: `/v1/payment-intents/${id}/execute`, token: b.agent })
const statusOf = async (b: Business, id: string) => (await getOk(test, b.owner.token, `/v1/payment-intents/${id}`)).status as string
const count = async (table: 'payment_outbox' | 'payment_reservations' | 'sandbox_ach_transfers', b: Business, id: string) => {
  const [row] = await queryRows<{ n: number }>(test.runtime.db.orm, sql`select count(*)::int as n from ${sql.identifier(table)} where tenant_id = ${b.owner.tenantId} and payment_intent_id = ${id}`)
  return row!.n
}
const standing = (b: Business, agentId = subjectOf(b.agent)) => test.request({ method: 'GET', url: `/v1/execution/agents/${agentId}/promotion`, token: b.owner.token })
const promote = (b: Business, overrides: Record<string, unknown> = {}) =>
  test.request({
    method: 'POST',
    url: `/v1/execution/agents/${subjectOf(b.agent)}/promote`,
    token: b.admin.token,
    payload: promotionRequest({
      per_payment_cap: '40',
      per_day_cap: '60',
      reason: 'shadow record reviewed',
      thresholds: { min_shadow_runs: 2, min_approval_rate: 0.5, max_gate_failure_rate: 0.5 },
      ...overrides,
    }),
  })

describe('shadow mode, promotion and the caps', () => {
  let b: Business
  beforeAll(async () => {
    b = await business(test, '1000.00', { promoted: false })
    await test.runtime.settleAudit()
  })

  it('an un-promoted agent\'s payment runs the whole gate and ends shadow_completed: no outbox row, no reservation, no rail call', async () => {
    const id = await approvedIntent(test, b, { amount: '10.00' })
    await test.runtime.settleAudit()
    const response = await execute(b, id)
    expect(response.statusCode, response.body).toBe(202)
    expect(response.json()).toEqual({
      payment_intent_id: id,
      outbox_id: null,
      execution_id: null,
      rail: 'bank_ach',
      status: 'shadow_completed',
      gate_run_id: expect.stringMatching(/^gtr_/),
      shadow: { gate_passed: true, failed_checks: [] },
    })
    expect(await statusOf(b, id)).toBe('shadow_completed')
    expect(await count('payment_outbox', b, id)).toBe(0)
    expect(await count('payment_reservations', b, id)).toBe(0)
    expect(await count('sandbox_ach_transfers', b, id)).toBe(0)
    const [run] = await queryRows<{ checks: Array<{ name: string; passed: boolean; reason: string }> }>(test.runtime.db.orm, sql`select checks from payment_gate_runs where tenant_id = ${b.owner.tenantId} and payment_intent_id = ${id}`)
    expect(run!.checks).toHaveLength(23)
    expect(run!.checks.find((check) => check.name === 'amount_within_caps')!.reason).toMatch(/shadow run/)
    const [audited] = await auditEvents(test, b.owner.tenantId, { action: 'payment_intent.shadow_completed', entityId: id })
    expect(audited!.outputs).toMatchObject({ status: 'shadow_completed', gate_passed: true, rail_called: false, rail: 'bank_ach' })
    expectError(await execute(b, id), 'action_already_executed')
  })

  it('a shadow run whose gate fails still completes as a shadow, and says which checks failed', async () => {
    const id = await approvedIntent(test, b, { amount: '11.00', destination_counterparty_id: b.unverified })
    await test.runtime.settleAudit()
    const response = await execute(b, id)
    expect(response.statusCode, response.body).toBe(202)
    expect(response.json()).toMatchObject({ status: 'shadow_completed', shadow: { gate_passed: false, failed_checks: ['9:counterparty_verified'] } })
    expect(await statusOf(b, id)).toBe('shadow_completed')
  })

  it('reads the scorecard; refuses a promotion whose thresholds the scorecard misses, naming each', async () => {
    const read = await standing(b)
    expect(read.statusCode, read.body).toBe(200)
    expect(read.json()).toEqual({
      agent_id: subjectOf(b.agent),
      promotion: null,
      scorecard: { shadow_runs: 2, decided: 2, approved: 2, gate_would_fail: 1, approval_rate: 1, gate_failure_rate: 0.5 },
    })
    const tooFew = expectError(await promote(b, { thresholds: { min_shadow_runs: 3, min_approval_rate: 0, max_gate_failure_rate: 1 } }), 'agent_promotion_refused')
    expect(tooFew.details).toMatchObject({ unmet: ['shadow_runs 2 < min_shadow_runs 3'], scorecard: { shadow_runs: 2 } })
    const tooRisky = expectError(await promote(b, { thresholds: { min_shadow_runs: 0, min_approval_rate: 0, max_gate_failure_rate: 0.25 } }), 'agent_promotion_refused')
    expect(tooRisky.details!.unmet).toEqual(['gate_failure_rate 0.5 > max_gate_failure_rate 0.25'])
    expect((await standing(b)).json().promotion).toBeNull()
    expect(await auditEvents(test, b.owner.tenantId, { action: 'agent.promoted' })).toEqual([])
  })

  it('refuses an expiry in the past, caps out of order, an unknown agent, and a viewer', async () => {
    expectError(await promote(b, { expires_at: new Date(Date.now() - 1000).toISOString() }), 'validation_failed')
    expectError(await promote(b, { per_payment_cap: '70', per_day_cap: '60' }), 'validation_failed')
    expectError(await promote(b, { per_payment_cap: '1.001' }), 'validation_failed')
    const unknown = await test.request({ method: 'POST', url: '/v1/execution/agents/svt_unknown/promote', token: b.admin.token, payload: promotionRequest() })
    expectError(unknown, 'agent_not_found')
    expectError(await test.request({ method: 'GET', url: '/v1/execution/agents/svt_unknown/promotion', token: b.owner.token }), 'agent_not_found')
  })

  it('promotes on a passing scorecard (audited with it); the agent\'s payments then go out within its caps', async () => {
    const promoted = await promote(b)
    expect(promoted.statusCode, promoted.body).toBe(201)
    expect(promoted.json()).toMatchObject({
      id: expect.stringMatching(/^prm_/),
      agent_id: subjectOf(b.agent),
      currency: 'EUR',
      per_payment_cap: '40.00',
      per_day_cap: '60.00',
      rails: ['bank_ach'],
      counterparty_ids: null,
      active: true,
      scorecard: { shadow_runs: 2, gate_would_fail: 1, approval_rate: 1, gate_failure_rate: 0.5 },
      thresholds: { min_shadow_runs: 2, min_approval_rate: 0.5, max_gate_failure_rate: 0.5 },
    })
    const [audited] = await auditEvents(test, b.owner.tenantId, { action: 'agent.promoted' })
    expect(audited).toMatchObject({ layer: 'agent', entity_type: 'agent', entity_id: subjectOf(b.agent), actor_id: b.admin.userId })
    expect(audited!.outputs).toMatchObject({ promotion_id: promoted.json().id, shadow_runs: 2, gate_would_fail: 1, approval_rate: 1, gate_failure_rate: 0.5, per_payment_cap: '40', per_day_cap: '60', rails: ['bank_ach'] })

    // Within the caps: dispatched for real.
    const first = await approvedIntent(test, b, { amount: '35.00' })
    await test.runtime.settleAudit()
    const dispatched = await execute(b, first)
    expect(dispatched.statusCode, dispatched.body).toBe(202)
    expect(dispatched.json()).toMatchObject({ status: 'dispatching', outbox_id: expect.stringMatching(/^pob_/) })
    expect(dispatched.json().shadow).toBeUndefined()

    // 35 + 30 in 24 hours is over the per-day cap of 60.
    const second = await approvedIntent(test, b, { amount: '30.00' })
    await test.runtime.settleAudit()
    const overDay = expectError(await execute(b, second), 'payment_intent_gate_failed')
    expect(overDay.details).toMatchObject({ failed_check: { index: 10, name: 'amount_within_caps', reason: expect.stringContaining('per-day cap of 60') } })
    expect(await statusOf(b, second)).toBe('approved')
  })

  it('check 10 refuses an amount over the per-payment cap, a rail and a counterparty the promotion does not allow', async () => {
    const other = { ...b, agent: await mintServiceToken(test, b.owner.tenantId) }
    await promoteAgent(test, b.admin, other.agent, { per_payment_cap: '20', per_day_cap: '1000', rails: ['bank_ach'], counterparty_ids: ['cpy_someone_else'] })
    const toSupplier = await approvedIntent(test, other, { amount: '5.00' })
    await test.runtime.settleAudit()
    expect(expectError(await execute(other, toSupplier), 'payment_intent_gate_failed').details).toMatchObject({ failed_check: { name: 'amount_within_caps', reason: expect.stringContaining('not among the agent\'s promoted counterparties') } })

    await promoteAgent(test, b.admin, other.agent, { per_payment_cap: '20', per_day_cap: '1000', rails: ['onchain_base'] })
    expect(expectError(await execute(other, toSupplier), 'payment_intent_gate_failed').details).toMatchObject({ failed_check: { name: 'amount_within_caps', reason: expect.stringContaining('rail bank_ach is not among') } })

    await promoteAgent(test, b.admin, other.agent, { per_payment_cap: '20', per_day_cap: '1000', rails: ['bank_ach'] })
    const large = await approvedIntent(test, other, { amount: '25.00' })
    await test.runtime.settleAudit()
    expect(expectError(await execute(other, large), 'payment_intent_gate_failed').details).toMatchObject({ failed_check: { name: 'amount_within_caps', reason: expect.stringContaining('per-payment cap of 20') } })
    expect((await execute(other, toSupplier)).json()).toMatchObject({ status: 'dispatching' })
    // Each promotion replaced the one before: one open promotion, the others closed as superseded.
    const rows = await queryRows<{ demotion_reason: string | null }>(test.runtime.db.orm, sql`select demotion_reason from agent_promotions where tenant_id = ${b.owner.tenantId} and agent_id = ${subjectOf(other.agent)} order by created_at`)
    expect(rows.map((row) => row.demotion_reason)).toEqual([expect.stringMatching(/^superseded by prm_/), expect.stringMatching(/^superseded by prm_/), null])
  })

  it('demotion sends the agent back to shadow; demoting again is 404', async () => {
    const demoted = await test.request({ method: 'POST', url: `/v1/execution/agents/${subjectOf(b.agent)}/demote`, token: b.admin.token, payload: { reason: 'spending pattern changed' } })
    expect(demoted.statusCode, demoted.body).toBe(200)
    expect(demoted.json()).toMatchObject({ active: false, demoted_by: b.admin.userId, demotion_reason: 'spending pattern changed' })
    expect(await auditEvents(test, b.owner.tenantId, { action: 'agent.demoted', entityId: subjectOf(b.agent) })).toHaveLength(1)
    const id = await approvedIntent(test, b, { amount: '12.00' })
    await test.runtime.settleAudit()
    expect((await execute(b, id)).json()).toMatchObject({ status: 'shadow_completed', outbox_id: null })
    expectError(await test.request({ method: 'POST', url: `/v1/execution/agents/${subjectOf(b.agent)}/demote`, token: b.admin.token, payload: { reason: 'again' } }), 'agent_promotion_not_found')
    expect((await standing(b)).json()).toMatchObject({ promotion: null, scorecard: { shadow_runs: 3 } })
  })
})
