/**
 * The section 6 gate over HTTP (issue 16, item 5): execute dispatches an approved intent with its outbox
 * row and reservation when all 23 checks pass; a failure is 409 payment_intent_gate_failed naming the
 * check and leaves the intent as it was; resume re-runs the live gate; reservations keep two intents from
 * spending one balance.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../../../src/platform/db/database.ts'
import { createTestApp, expectError, mintServiceToken, type TestApp } from '../../support/harness.ts'
import { getOk } from '../../support/ledger.ts'
import { approvedIntent as approvedIntentIn, business as businessIn, promoteAgent, type Business } from '../../support/payments.ts'

let test: TestApp
beforeAll(async () => {
  test = await createTestApp()
})
afterAll(async () => test?.close())

const business = (balance?: string) => businessIn(test, balance)
const approvedIntent = (b: Business, overrides: Record<string, unknown> = {}) => approvedIntentIn(test, b, overrides)

const execute = (b: Business, id: string, token = b.agent) => test.request({ method: 'POST', url: `/v1/payment-intents/${id}/execute`, token })
const statusOf = async (b: Business, id: string) => (await getOk(test, b.owner.token, `/v1/payment-intents/${id}`)).status as string

async function gateFailed(response: Awaited<ReturnType<typeof execute>>, name: string) {
  const details = expectError(response, 'payment_intent_gate_failed').details as Record<string, any>
  expect(details.failed_check.name).toBe(name)
  return details
}

describe('POST /v1/payment-intents/{id}/execute', () => {
  let b: Business
  beforeAll(async () => {
    b = await business()
    await test.runtime.settleAudit()
  })

  it('dispatches an approved intent: 202, dispatching, one outbox row and the reservation, every check recorded', async () => {
    const id = await approvedIntent(b)
    await test.runtime.settleAudit()
    const response = await execute(b, id)
    expect(response.statusCode, response.body).toBe(202)
    expect(response.json()).toEqual({ payment_intent_id: id, outbox_id: expect.stringMatching(/^pob_/), execution_id: null, rail: 'bank_ach', status: 'dispatching', gate_run_id: expect.stringMatching(/^gtr_/) })
    expect(await statusOf(b, id)).toBe('dispatching')
    const [run] = await queryRows<{ passed: boolean; checks: Array<{ name: string; passed: boolean }> }>(test.runtime.db.orm, sql`select passed, checks from payment_gate_runs where tenant_id = ${b.owner.tenantId} and payment_intent_id = ${id}`)
    expect(run!.passed).toBe(true)
    expect(run!.checks).toHaveLength(23)
    const [reservation] = await queryRows<{ amount: string; status: string }>(test.runtime.db.orm, sql`select amount::text as amount, status from payment_reservations where tenant_id = ${b.owner.tenantId} and payment_intent_id = ${id}`)
    expect(reservation).toEqual({ amount: '30.00', status: 'active' })
    expectError(await execute(b, id), 'action_already_executed')
  })

  it('refuses an owner (payment_intent:execute is no person\'s scope) and an intent that is not approved', async () => {
    const id = await approvedIntent(b, { amount: '1.00' })
    expectError(await execute(b, id, b.owner.token), 'auth_scope_insufficient')
    const held = await test.request({ method: 'POST', url: '/v1/payment-intents', token: b.agent, payload: { action_type: 'ach_outbound', source_account_id: b.account, destination_counterparty_id: b.supplier, amount: '60.00', currency: 'EUR' } })
    expect(held.json().status).toBe('pending_approval')
    expectError(await execute(b, held.json().id), 'payment_intent_invalid_state')
  })

  it('fails on an unverified counterparty and leaves the intent approved', async () => {
    const id = await approvedIntent(b, { destination_counterparty_id: b.unverified, amount: '2.00' })
    const details = await gateFailed(await execute(b, id), 'counterparty_verified')
    expect(details.failed_check).toMatchObject({ index: 9, code: 'gate_counterparty_unverified' })
    expect(details.failed_checks.map((check: any) => check.name)).toEqual(['counterparty_verified'])
    expect(await statusOf(b, id)).toBe('approved')
    const [outbox] = await queryRows<{ n: number }>(test.runtime.db.orm, sql`select count(*)::int as n from payment_outbox where tenant_id = ${b.owner.tenantId} and payment_intent_id = ${id}`)
    expect(outbox!.n).toBe(0)
  })

  it('fails on a duplicate payment to the same destination', async () => {
    const first = await approvedIntent(b, { amount: '3.00' })
    await test.runtime.settleAudit()
    expect((await execute(b, first)).statusCode).toBe(202)
    // Another agent (another service token) proposes the same payment: not a duplicate proposal, but a duplicate payment.
    const other = { ...b, agent: await mintServiceToken(test, b.owner.tenantId) }
    await promoteAgent(test, b.admin, other.agent)
    const second = await approvedIntent(other, { amount: '3.00' })
    await gateFailed(await execute(b, second), 'duplicate_payment_or_destination_recently_changed')
  })
})

describe('reservations', () => {
  it('keeps two intents from spending one balance: the second fails reservation_net_balance', async () => {
    const b = await business('50.00')
    const first = await approvedIntent(b, { amount: '30.00' })
    const second = await approvedIntent(b, { amount: '25.00' })
    await test.runtime.settleAudit()
    expect((await execute(b, first)).statusCode).toBe(202)
    const details = await gateFailed(await execute(b, second), 'reservation_net_balance')
    expect(details.failed_check).toMatchObject({ index: 8, code: 'gate_balance_insufficient' })
    expect(await statusOf(b, second)).toBe('approved')
  })

  it('fails source_balance_sufficient when the balance itself is short', async () => {
    const b = await business('20.00')
    const id = await approvedIntent(b, { amount: '30.00' })
    await test.runtime.settleAudit()
    const details = await gateFailed(await execute(b, id), 'source_balance_sufficient')
    expect(details.failed_checks.map((check: any) => check.name)).toEqual(['source_balance_sufficient', 'reservation_net_balance'])
  })
})

describe('resume', () => {
  it('resumes a paused intent when the live gate passes, and refuses (409, unchanged) when a check now fails', async () => {
    const b = await business()
    const id = await approvedIntent(b, { amount: '4.00' })
    expect((await test.request({ method: 'POST', url: `/v1/payment-intents/${id}/pause`, token: b.owner.token })).json().status).toBe('paused')
    await test.runtime.settleAudit()
    const resumed = await test.request({ method: 'POST', url: `/v1/payment-intents/${id}/resume`, token: b.owner.token })
    expect(resumed.statusCode, resumed.body).toBe(200)
    expect(resumed.json().status).toBe('approved')

    expect((await test.request({ method: 'POST', url: `/v1/payment-intents/${id}/pause`, token: b.owner.token })).json().status).toBe('paused')
    const paused = await test.request({ method: 'POST', url: `/v1/ledger/counterparties/${b.supplier}/trust/pause`, token: b.admin.token })
    expect(paused.statusCode, paused.body).toBe(200)
    await test.runtime.settleAudit()
    await gateFailed(await test.request({ method: 'POST', url: `/v1/payment-intents/${id}/resume`, token: b.owner.token }), 'counterparty_verified')
    expect(await statusOf(b, id)).toBe('paused')
    expectError(await test.request({ method: 'POST', url: `/v1/payment-intents/${id}/resume`, token: b.agent }), 'auth_scope_insufficient')
  })
})

describe('payment_intent events at their transitions', () => {
  it('emits created and policy.evaluate on a proposal, approved when the policy or a person allows, execute.after on dispatch, rejected on a rejection', async () => {
    const b = await business()
    const eventsOf = async (id: string) =>
      ((await getOk(test, b.owner.token, '/v1/events?limit=500')).events as Array<{ type: string; data: Record<string, unknown> }>)
        .filter((event) => event.data.payment_intent_id === id)
        .map((event) => event.type)
        // Ids order events to the millisecond only: one command's events may come in either order.
        .sort()

    const allowed = await approvedIntent(b, { amount: '5.00' })
    await test.runtime.settleAudit()
    expect((await execute(b, allowed)).statusCode).toBe(202)
    expect(await eventsOf(allowed)).toEqual(['payment_intent.approved', 'payment_intent.created', 'payment_intent.execute.after', 'policy.evaluate'])

    const held = await test.request({ method: 'POST', url: '/v1/payment-intents', token: b.agent, payload: { action_type: 'ach_outbound', source_account_id: b.account, destination_counterparty_id: b.supplier, amount: '70.00', currency: 'EUR' } })
    const id = held.json().id as string
    expect((await test.request({ method: 'POST', url: `/v1/payment-intents/${id}/approve`, token: b.owner.token })).json().status).toBe('approved')
    expect(await eventsOf(id)).toEqual(['payment_intent.approved', 'payment_intent.created', 'policy.evaluate'])

    const rejected = (await test.request({ method: 'POST', url: '/v1/payment-intents', token: b.agent, payload: { action_type: 'ach_outbound', source_account_id: b.account, destination_counterparty_id: b.supplier, amount: '71.00', currency: 'EUR' } })).json().id as string
    expect((await test.request({ method: 'POST', url: `/v1/payment-intents/${rejected}/reject`, token: b.owner.token })).statusCode).toBe(200)
    expect(await eventsOf(rejected)).toEqual(['payment_intent.created', 'payment_intent.rejected', 'policy.evaluate'])
  })
})
