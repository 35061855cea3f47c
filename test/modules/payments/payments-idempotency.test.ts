/**
 * Idempotency-Key on every PaymentIntent command (propose, approve, reject, pause, resume, cancel,
 * execute): a repeat replays the first outcome and the command ran once; the key with another input is
 * 409 idempotency_key_reused; a malformed key is 400 before anything runs.
 */
import { afterAll, beforeAll, describe } from 'vitest'
import { auditActions } from '../../support/audit-log.ts'
import { createTestApp, type TestApp } from '../../support/harness.ts'
import { describeKeyedRoutes, type KeyedRoute } from '../../support/idempotency-cases.ts'
import { approvedIntent, business, type Business } from '../../support/payments.ts'

let test: TestApp
beforeAll(async () => {
  test = await createTestApp()
})
afterAll(async () => test?.close())

/** How many audit events of `action` the tenant has: each run of a command records one. */
const runsOf = (b: Business, action: string) => async () => (await auditActions(test, b.owner.tenantId, { action })).length

/** Two intents above the autonomous cap, waiting for approval. */
async function heldIntents(b: Business): Promise<[string, string]> {
  const ids: string[] = []
  for (const amount of ['60.00', '61.00']) {
    const response = await test.request({ method: 'POST', url: '/v1/payment-intents', token: b.agent, payload: { action_type: 'ach_outbound', source_account_id: b.account, destination_counterparty_id: b.supplier, amount, currency: 'EUR' } })
    ids.push(response.json().id)
  }
  return ids as [string, string]
}

const move = (b: Business, id: string, action: string, token = b.owner.token, payload?: Record<string, unknown>) => ({
  method: 'POST' as const,
  url: `/v1/payment-intents/${id}/${action}`,
  token,
  ...(payload === undefined ? {} : { payload }),
})

const keyedRoutes: ReadonlyArray<KeyedRoute> = [
  [
    'POST /v1/payment-intents',
    async () => {
      const b = await business(test)
      const body = { action_type: 'ach_outbound', source_account_id: b.account, destination_counterparty_id: b.supplier, amount: '10.00', currency: 'EUR' }
      return {
        request: { method: 'POST', url: '/v1/payment-intents', token: b.agent, payload: body },
        other: { method: 'POST', url: '/v1/payment-intents', token: b.agent, payload: { ...body, amount: '11.00' } },
        status: 201,
        runs: runsOf(b, 'payment_intent.proposed'),
      }
    },
  ],
  [
    'POST /v1/payment-intents/{id}/approve',
    async () => {
      const b = await business(test)
      const [first, second] = await heldIntents(b)
      return { request: move(b, first, 'approve'), other: move(b, second, 'approve'), status: 200, runs: runsOf(b, 'payment_intent.approval_recorded') }
    },
  ],
  [
    'POST /v1/payment-intents/{id}/reject',
    async () => {
      const b = await business(test)
      const [first] = await heldIntents(b)
      return { request: move(b, first, 'reject', b.owner.token, { reason: 'no' }), other: move(b, first, 'reject', b.owner.token, { reason: 'not now' }), status: 200, runs: runsOf(b, 'payment_intent.rejection_recorded') }
    },
  ],
  [
    'POST /v1/payment-intents/{id}/pause',
    async () => {
      const b = await business(test)
      const first = await approvedIntent(test, b, { amount: '12.00' })
      const second = await approvedIntent(test, b, { amount: '13.00' })
      return { request: move(b, first, 'pause'), other: move(b, second, 'pause'), status: 200, runs: runsOf(b, 'payment_intent.paused') }
    },
  ],
  [
    'POST /v1/payment-intents/{id}/resume',
    async () => {
      const b = await business(test)
      const first = await approvedIntent(test, b, { amount: '14.00' })
      const second = await approvedIntent(test, b, { amount: '15.00' })
      for (const id of [first, second]) await test.request(move(b, id, 'pause'))
      await test.runtime.settleAudit()
      return { request: move(b, first, 'resume'), other: move(b, second, 'resume'), status: 200, runs: runsOf(b, 'payment_intent.resumed') }
    },
  ],
  [
    'POST /v1/payment-intents/{id}/cancel',
    async () => {
      const b = await business(test)
      const [first, second] = await heldIntents(b)
      return { request: move(b, first, 'cancel'), other: move(b, second, 'cancel'), status: 200, runs: runsOf(b, 'payment_intent.cancelled') }
    },
  ],
  [
    'POST /v1/payment-intents/{id}/execute',
    async () => {
      const b = await business(test)
      const first = await approvedIntent(test, b, { amount: '16.00' })
      const second = await approvedIntent(test, b, { amount: '17.00' })
      await test.runtime.settleAudit()
      return { request: move(b, first, 'execute', b.agent), other: move(b, second, 'execute', b.agent), status: 202, runs: runsOf(b, 'payment_intent.dispatched') }
    },
  ],
]

describe('Idempotency-Key on the PaymentIntent commands', () => {
  describeKeyedRoutes(() => test, keyedRoutes)
})
