/**
 * The execution worker and the bank_ach sandbox rail (issue 17): an outbox row taken to its rail, the
 * transfer settled or returned by the provider's signed webhook, declines, transient failures retried and
 * parked reconciling, a lost answer recovered by asking the rail, erp_writeback failing closed — with the
 * intent, its reservation, its receipts and the audit chain checked at each step.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { executionQueues, railRegistry } from '../../../src/modules/execution/index.ts'
import { queryRows } from '../../../src/platform/db/database.ts'
import { providerSignatureHeader } from '../../../src/modules/raw/index.ts'
import { auditActions as auditActionsOf } from '../../support/audit-log.ts'
import { createTestApp, expectError, type TestApp } from '../../support/harness.ts'
import { getOk } from '../../support/ledger.ts'
import { approvedIntent as approvedIntentIn, business as businessIn, type Business } from '../../support/payments.ts'

const achSecret = 'test-ach-webhook-secret-0123456789abcdef0123'

let test: TestApp
let b: Business
beforeAll(async () => {
  test = await createTestApp({
    env: { ACH_WEBHOOK_SECRET: achSecret },
    // Retries due at once and three attempts in all, so a test walks the whole retry path by calling dispatch.
    runtime: { execution: { retry: { attemptsMax: 3, firstDelaySeconds: 0, delaySecondsMax: 0 } } },
  })
  b = await businessIn(test, '100000.00')
  await test.runtime.settleAudit()
})
afterAll(async () => test?.close())

const db = () => test.runtime.db.orm
const dispatcher = () => test.runtime.execution.dispatcher

/** An approved intent of `amount` of the business (b unless named), executed: its outbox row. */
async function dispatched(amount: string, overrides: Record<string, unknown> = {}, of: Business = b) {
  const id = await approvedIntentIn(test, of, { amount, ...overrides })
  await test.runtime.settleAudit()
  const response = await test.request({ method: 'POST', url: `/v1/payment-intents/${id}/execute`, token: of.agent })
  expect(response.statusCode, response.body).toBe(202)
  return { id, outboxId: response.json().outbox_id as string }
}

const intentOf = (id: string) => getOk(test, b.owner.token, `/v1/payment-intents/${id}`)

async function executionOf(outboxId: string) {
  const [row] = await queryRows<{ id: string; status: string; attempts: number; rail_reference: string | null; parked_reason: string | null; failure_code: string | null; idempotency_key: string }>(
    db(),
    sql`select id, status, attempts, rail_reference, parked_reason, failure_code, idempotency_key from executions where tenant_id = ${b.owner.tenantId} and outbox_id = ${outboxId}`,
  )
  return row!
}

async function reservationOf(intentId: string) {
  const [row] = await queryRows<{ status: string }>(db(), sql`select status from payment_reservations where tenant_id = ${b.owner.tenantId} and payment_intent_id = ${intentId}`)
  return row?.status
}

async function outboxStatusOf(outboxId: string) {
  const [row] = await queryRows<{ status: string }>(db(), sql`select status from payment_outbox where tenant_id = ${b.owner.tenantId} and id = ${outboxId}`)
  return row!.status
}

async function transferOf(key: string) {
  const [row] = await queryRows<{ id: string; status: string; duplicate_submits: number }>(db(), sql`select id, status, duplicate_submits from sandbox_ach_transfers where idempotency_key = ${key}`)
  return row
}

const auditActions = (entityId: string) => auditActionsOf(test, b.owner.tenantId, { entityId })

async function eventTypes(intentId: string) {
  const rows = await queryRows<{ event_type: string }>(db(), sql`select event_type from events where tenant_id = ${b.owner.tenantId} and payload->>'payment_intent_id' = ${intentId} order by created_at, id`)
  return rows.map((row) => row.event_type)
}

/** The fields a 400 request_body_invalid names, each once (a field breaking a union is named by each branch). */
function issuePaths(response: Awaited<ReturnType<TestApp['request']>>) {
  const issues = expectError(response, 'request_body_invalid').details?.issues as Array<{ path: string }>
  return [...new Set(issues.map((issue) => issue.path))]
}

/**
 * Runs `run` as a process where no rail is registered would (a deployment missing a rail's configuration):
 * the worker's registry hands out its fail-closed stand-in for every rail meanwhile.
 */
async function withoutRails(run: () => Promise<void>) {
  const registry = test.runtime.execution.rails
  const adapterFor = registry.adapterFor
  registry.adapterFor = railRegistry([]).adapterFor
  try {
    await run()
  } finally {
    registry.adapterFor = adapterFor
  }
}

/** The provider's webhook for the transfer of `key`, signed with `secret` at `atSeconds`. */
function webhook(key: string, transferId: string, intentId: string, type: 'transfer.settled' | 'transfer.returned', fields: { amount: string; return_code?: string | null; settled_at?: string | null; occurred_at?: string }, options: { secret?: string; atSeconds?: number; tenantId?: string } = {}) {
  const body = Buffer.from(
    JSON.stringify({
      id: `evt_${transferId}_${type}`,
      type,
      transfer_id: transferId,
      idempotency_key: key,
      metadata: { tenant_id: options.tenantId ?? b.owner.tenantId, payment_intent_id: intentId },
      amount: fields.amount,
      currency: 'EUR',
      return_code: fields.return_code ?? null,
      settled_at: fields.settled_at === undefined ? (type === 'transfer.settled' ? '2026-11-26T12:00:00.000Z' : null) : fields.settled_at,
      occurred_at: fields.occurred_at ?? '2026-11-26T12:00:00.000Z',
    }),
  )
  const signature = providerSignatureHeader(options.secret ?? achSecret, options.atSeconds ?? Math.floor(Date.now() / 1000), body)
  return test.request({ method: 'POST', url: '/v1/rails/bank_ach/webhooks', headers: { 'content-type': 'application/json', 'x-provider-signature': signature }, payload: body })
}

describe('bank_ach: settlement by the provider\'s signed webhook', () => {
  it('creates the transfer and waits (dispatching); the settled webhook executes the intent, consumes the reservation and appends the receipt', async () => {
    const { id, outboxId } = await dispatched('30.00')
    expect(await dispatcher().dispatch(b.owner.tenantId, outboxId)).toBe('awaiting')
    const execution = await executionOf(outboxId)
    expect(execution).toMatchObject({ status: 'in_flight', attempts: 1, rail_reference: expect.stringMatching(/^ach_/), parked_reason: null })
    expect((await intentOf(id)).status).toBe('dispatching')
    expect(await reservationOf(id)).toBe('active')
    expect(await outboxStatusOf(outboxId)).toBe('claimed')
    // Another dispatch of the same row (a duplicate job) does nothing while the settlement is awaited.
    expect(await dispatcher().dispatch(b.owner.tenantId, outboxId)).toBe('awaiting_settlement')

    const settled = await webhook(execution.idempotency_key, execution.rail_reference!, id, 'transfer.settled', { amount: '30.00' })
    expect(settled.statusCode, settled.body).toBe(202)
    expect(settled.json()).toEqual({ accepted: true, applied: true, execution_id: execution.id, execution_status: 'completed' })
    const intent = await intentOf(id)
    expect(intent.status).toBe('executed')
    expect(intent.execution_receipt_ids).toEqual([expect.stringMatching(/^rcp_/)])
    expect(await reservationOf(id)).toBe('consumed')
    expect(await outboxStatusOf(outboxId)).toBe('done')
    expect((await executionOf(outboxId)).status).toBe('completed')

    const replay = await getOk(test, b.owner.token, `/v1/payment-intents/${id}/replay-investigation`)
    expect(replay.executions).toEqual([
      { id: execution.id, rail: 'bank_ach', status: 'completed', rail_receipt: { type: 'ach', provider: 'sandbox_ach', transfer_id: execution.rail_reference, amount: '30.00', currency: 'EUR', settled_at: '2026-11-26T12:00:00.000Z' } },
    ])
    expect(await auditActions(execution.id)).toEqual(['execution.created', 'execution.awaiting_settlement', 'execution.completed'])
    expect(await auditActions(id)).toEqual(expect.arrayContaining(['payment_intent.dispatched', 'payment_intent.executed']))
    expect(await eventTypes(id)).toEqual(expect.arrayContaining(['payment_intent.execute.after', 'payment_intent.executed']))

    // A redelivery changes nothing.
    const again = await webhook(execution.idempotency_key, execution.rail_reference!, id, 'transfer.settled', { amount: '30.00' })
    expect(again.json()).toMatchObject({ applied: false, execution_status: 'completed' })
    expect((await intentOf(id)).execution_receipt_ids).toHaveLength(1)
    expect(await dispatcher().dispatch(b.owner.tenantId, outboxId)).toBe('settled')
  })

  it('a return before settlement fails the intent and releases the reservation', async () => {
    const { id, outboxId } = await dispatched('30.92')
    expect(await dispatcher().dispatch(b.owner.tenantId, outboxId)).toBe('awaiting')
    const execution = await executionOf(outboxId)
    const returned = await webhook(execution.idempotency_key, execution.rail_reference!, id, 'transfer.returned', { amount: '30.92', return_code: 'R01' })
    expect(returned.json()).toMatchObject({ applied: true, execution_status: 'failed' })
    expect((await intentOf(id)).status).toBe('failed')
    expect(await reservationOf(id)).toBe('released')
    expect(await executionOf(outboxId)).toMatchObject({ status: 'failed', failure_code: 'ach_returned_R01' })
    expect(await eventTypes(id)).toContain('payment_intent.failed')
  })

  it('a return after settlement is recorded beside it and audited; the intent stays executed', async () => {
    const { id, outboxId } = await dispatched('30.93')
    expect(await dispatcher().dispatch(b.owner.tenantId, outboxId)).toBe('awaiting')
    const execution = await executionOf(outboxId)
    expect((await webhook(execution.idempotency_key, execution.rail_reference!, id, 'transfer.settled', { amount: '30.93' })).json()).toMatchObject({ applied: true })
    const returned = await webhook(execution.idempotency_key, execution.rail_reference!, id, 'transfer.returned', { amount: '30.93', return_code: 'R10', settled_at: '2026-11-26T12:00:00.000Z' })
    expect(returned.json()).toMatchObject({ applied: true, execution_status: 'completed' })
    const intent = await intentOf(id)
    expect(intent.status).toBe('executed')
    expect(intent.execution_receipt_ids).toHaveLength(2)
    expect(await auditActions(execution.id)).toContain('execution.returned_after_settlement')
    const [receipt] = await queryRows<{ receipt: Record<string, unknown> }>(db(), sql`select receipt from execution_receipts where tenant_id = ${b.owner.tenantId} and execution_id = ${execution.id} and kind = 'return'`)
    expect(receipt!.receipt).toMatchObject({ type: 'ach', status: 'returned', return_code: 'R10' })
    // The return redelivered: recorded once.
    expect((await webhook(execution.idempotency_key, execution.rail_reference!, id, 'transfer.returned', { amount: '30.93', return_code: 'R10', settled_at: '2026-11-26T12:00:00.000Z' })).json()).toMatchObject({ applied: false })
    expect((await intentOf(id)).execution_receipt_ids).toHaveLength(2)
  })

  it('refuses a webhook with a wrong or stale signature, an unknown key and a malformed body', async () => {
    const { id, outboxId } = await dispatched('30.01')
    expect(await dispatcher().dispatch(b.owner.tenantId, outboxId)).toBe('awaiting')
    const execution = await executionOf(outboxId)
    expectError(await webhook(execution.idempotency_key, execution.rail_reference!, id, 'transfer.settled', { amount: '30.01' }, { secret: 'another-secret-0123456789abcdef0123456789' }), 'rail_webhook_signature_invalid')
    expectError(await webhook(execution.idempotency_key, execution.rail_reference!, id, 'transfer.settled', { amount: '30.01' }, { atSeconds: Math.floor(Date.now() / 1000) - 3600 }), 'rail_webhook_signature_invalid')
    const unsigned = await test.request({ method: 'POST', url: '/v1/rails/bank_ach/webhooks', headers: { 'content-type': 'application/json' }, payload: '{}' })
    expectError(unsigned, 'rail_webhook_signature_invalid')
    expectError(await webhook('sha256:unknown', 'ach_unknown', 'pi_unknown', 'transfer.settled', { amount: '30.01' }), 'rail_transfer_unknown')
    // The right key under another tenant, or naming another intent, is unknown too.
    expectError(await webhook(execution.idempotency_key, execution.rail_reference!, id, 'transfer.settled', { amount: '30.01' }, { tenantId: '00000000-0000-4000-8000-000000000000' }), 'rail_transfer_unknown')
    expectError(await webhook(execution.idempotency_key, execution.rail_reference!, 'pi_other', 'transfer.settled', { amount: '30.01' }), 'rail_transfer_unknown')
    const body = Buffer.from(JSON.stringify({ type: 'transfer.settled' }))
    const malformed = await test.request({
      method: 'POST',
      url: '/v1/rails/bank_ach/webhooks',
      headers: { 'content-type': 'application/json', 'x-provider-signature': providerSignatureHeader(achSecret, Math.floor(Date.now() / 1000), body) },
      payload: body,
    })
    expect(expectError(malformed, 'request_body_invalid').details?.issues).toBeDefined()
    expect((await executionOf(outboxId)).status).toBe('in_flight')
  })

  it('refuses a return without its return code, before or after settlement, moving nothing; the proof still reads', async () => {
    const before = await dispatched('35.92')
    expect(await dispatcher().dispatch(b.owner.tenantId, before.outboxId)).toBe('awaiting')
    const pending = await executionOf(before.outboxId)
    const uncodedBefore = await webhook(pending.idempotency_key, pending.rail_reference!, before.id, 'transfer.returned', { amount: '35.92', return_code: null })
    expect(issuePaths(uncodedBefore)).toEqual(['/return_code'])
    expect(await executionOf(before.outboxId)).toMatchObject({ status: 'in_flight', failure_code: null })
    expect((await intentOf(before.id)).status).toBe('dispatching')
    expect(await reservationOf(before.id)).toBe('active')

    const after = await dispatched('35.93')
    expect(await dispatcher().dispatch(b.owner.tenantId, after.outboxId)).toBe('awaiting')
    const execution = await executionOf(after.outboxId)
    expect((await webhook(execution.idempotency_key, execution.rail_reference!, after.id, 'transfer.settled', { amount: '35.93' })).json()).toMatchObject({ applied: true })
    const uncodedAfter = await webhook(execution.idempotency_key, execution.rail_reference!, after.id, 'transfer.returned', { amount: '35.93', return_code: null, settled_at: '2026-11-26T12:00:00.000Z' })
    expect(issuePaths(uncodedAfter)).toEqual(['/return_code'])
    expect((await intentOf(after.id)).execution_receipt_ids).toHaveLength(1)
    expect(await auditActions(execution.id)).not.toContain('execution.returned_after_settlement')

    // The proof and its page read (a stored return without a code made both 500 on every fetch).
    await test.runtime.settleAudit()
    expect((await getOk(test, b.owner.token, `/v1/proof/${after.id}`)).rail_return).toBeNull()
    expect((await test.request({ method: 'GET', url: `/v1/proof/${after.id}/view`, token: b.owner.token })).statusCode).toBe(200)
    // The provider's corrected return is taken, and the proof shows it.
    expect((await webhook(execution.idempotency_key, execution.rail_reference!, after.id, 'transfer.returned', { amount: '35.93', return_code: 'R10', settled_at: '2026-11-26T12:00:00.000Z' })).json()).toMatchObject({ applied: true })
    await test.runtime.settleAudit()
    expect((await getOk(test, b.owner.token, `/v1/proof/${after.id}`)).rail_return).toMatchObject({ status: 'returned', return_code: 'R10' })
    const view = await test.request({ method: 'GET', url: `/v1/proof/${after.id}/view`, token: b.owner.token })
    expect(view.statusCode).toBe(200)
    expect(view.body).toContain('R10')

    // A return stored without its code before the webhook required one (a legacy row) still reads: the
    // proof names no code rather than answering 500 on every fetch.
    await db().execute(sql`update execution_receipts set receipt = jsonb_set(receipt, '{return_code}', 'null'::jsonb) where tenant_id = ${b.owner.tenantId} and execution_id = ${execution.id} and kind = 'return'`)
    const legacy = await getOk(test, b.owner.token, `/v1/proof/${after.id}`)
    expect(legacy.rail_return).toMatchObject({ status: 'returned', return_code: null })
    expect(legacy.human_explanation).toContain('The bank returned it after settlement (no return code was recorded).')
    expect((await test.request({ method: 'GET', url: `/v1/proof/${after.id}/view`, token: b.owner.token })).statusCode).toBe(200)
  })

  it('refuses a settled or returned timestamp that is no instant (a leap second passes the date-time pattern), moving nothing', async () => {
    const { id, outboxId } = await dispatched('36.93')
    expect(await dispatcher().dispatch(b.owner.tenantId, outboxId)).toBe('awaiting')
    const execution = await executionOf(outboxId)
    const leapSecond = '2026-01-01T23:59:60Z'
    const settled = await webhook(execution.idempotency_key, execution.rail_reference!, id, 'transfer.settled', { amount: '36.93', settled_at: leapSecond })
    expect(issuePaths(settled)).toEqual(['/settled_at'])
    const occurred = await webhook(execution.idempotency_key, execution.rail_reference!, id, 'transfer.settled', { amount: '36.93', occurred_at: leapSecond })
    expect(issuePaths(occurred)).toEqual(['/occurred_at'])
    const returnedBefore = await webhook(execution.idempotency_key, execution.rail_reference!, id, 'transfer.returned', { amount: '36.93', return_code: 'R01', occurred_at: leapSecond })
    expect(issuePaths(returnedBefore)).toEqual(['/occurred_at'])
    const yearZero = await webhook(execution.idempotency_key, execution.rail_reference!, id, 'transfer.returned', { amount: '36.93', return_code: 'R01', settled_at: '0000-01-01T00:00:00Z' })
    expect(issuePaths(yearZero)).toEqual(['/settled_at'])
    // A NUL in a string is refused as in every other body (this one is read as bytes, for its signature).
    const withNul = await webhook(execution.idempotency_key, execution.rail_reference!, id, 'transfer.settled', { amount: '36.93\u0000' })
    expect(withNul.statusCode, withNul.body).toBe(400)
    expect(withNul.json().error.code).toBe('request_body_invalid')
    expect(await executionOf(outboxId)).toMatchObject({ status: 'in_flight', failure_code: null })
    expect((await intentOf(id)).status).toBe('dispatching')

    // Settled, then a return whose timestamp is no instant: refused, the settlement stands alone.
    expect((await webhook(execution.idempotency_key, execution.rail_reference!, id, 'transfer.settled', { amount: '36.93' })).json()).toMatchObject({ applied: true })
    const returnedAfter = await webhook(execution.idempotency_key, execution.rail_reference!, id, 'transfer.returned', { amount: '36.93', return_code: 'R10', settled_at: '2026-11-26T12:00:00.000Z', occurred_at: leapSecond })
    expect(issuePaths(returnedAfter)).toEqual(['/occurred_at'])
    expect((await intentOf(id)).execution_receipt_ids).toHaveLength(1)
    await test.runtime.settleAudit()
    expect((await getOk(test, b.owner.token, `/v1/proof/${id}`)).rail_receipt).toMatchObject({ type: 'ach', settled_at: '2026-11-26T12:00:00.000Z' })
  })
})

describe('the worker on the rail\'s other answers', () => {
  it('a decline fails the intent at once and releases the reservation', async () => {
    const { id, outboxId } = await dispatched('30.91')
    expect(await dispatcher().dispatch(b.owner.tenantId, outboxId)).toBe('failed')
    expect((await intentOf(id)).status).toBe('failed')
    expect(await reservationOf(id)).toBe('released')
    expect(await outboxStatusOf(outboxId)).toBe('done')
    expect(await executionOf(outboxId)).toMatchObject({ status: 'failed', failure_code: 'ach_authorization_declined', attempts: 1 })
  })

  it('a provider that stays unavailable is retried, then the intent is parked reconciling with its reservation kept — never guessed', async () => {
    const { id, outboxId } = await dispatched('30.94')
    expect(await dispatcher().dispatch(b.owner.tenantId, outboxId)).toBe('retry_scheduled')
    expect(await executionOf(outboxId)).toMatchObject({ status: 'dispatched', attempts: 1 })
    expect((await intentOf(id)).status).toBe('dispatching')
    expect(await dispatcher().dispatch(b.owner.tenantId, outboxId)).toBe('retry_scheduled')
    expect(await dispatcher().dispatch(b.owner.tenantId, outboxId)).toBe('reconciling')
    expect(await executionOf(outboxId)).toMatchObject({ status: 'in_flight', attempts: 3, parked_reason: expect.stringContaining('no answer after 3 attempts') })
    expect((await intentOf(id)).status).toBe('reconciling')
    expect(await reservationOf(id)).toBe('active')
    expect(await eventTypes(id)).toContain('payment_intent.reconciling')
    // Parked: nothing calls the rail again.
    expect(await dispatcher().dispatch(b.owner.tenantId, outboxId)).toBe('parked')
    const execution = await executionOf(outboxId)
    expect(await auditActions(execution.id)).toEqual([
      'execution.created',
      'execution.retry_scheduled',
      'execution.attempt_started',
      'execution.retry_scheduled',
      'execution.attempt_started',
      'execution.parked',
    ])
  })

  it('an answer lost after the provider acted: the retry asks the rail for the key and never submits it again', async () => {
    const { id, outboxId } = await dispatched('30.95')
    expect(await dispatcher().dispatch(b.owner.tenantId, outboxId)).toBe('retry_scheduled')
    const key = (await executionOf(outboxId)).idempotency_key
    expect(await transferOf(key)).toMatchObject({ status: 'pending', duplicate_submits: 0 })
    expect(await dispatcher().dispatch(b.owner.tenantId, outboxId)).toBe('awaiting')
    const execution = await executionOf(outboxId)
    expect(execution.rail_reference).toBe((await transferOf(key))!.id)
    expect(await transferOf(key)).toMatchObject({ duplicate_submits: 0 })
    expect((await webhook(key, execution.rail_reference!, id, 'transfer.settled', { amount: '30.95' })).json()).toMatchObject({ applied: true })
    expect((await intentOf(id)).status).toBe('executed')
  })

  it('a retry in a process where the rail is not registered is never a failure: retried, then parked reconciling with the reservation kept', async () => {
    // The first attempt's transfer exists at the provider, but its answer was lost: money may move.
    const { id, outboxId } = await dispatched('35.95')
    expect(await dispatcher().dispatch(b.owner.tenantId, outboxId)).toBe('retry_scheduled')
    const key = (await executionOf(outboxId)).idempotency_key
    expect(await transferOf(key)).toMatchObject({ status: 'pending' })
    // The retries run where bank_ach is not registered: the registry's stand-in answers.
    await withoutRails(async () => {
      expect(await dispatcher().dispatch(b.owner.tenantId, outboxId)).toBe('retry_scheduled')
      expect(await dispatcher().dispatch(b.owner.tenantId, outboxId)).toBe('reconciling')
    })
    const execution = await executionOf(outboxId)
    expect(execution).toMatchObject({ status: 'in_flight', attempts: 3, failure_code: null, parked_reason: expect.stringContaining('rail bank_ach is not registered') })
    expect((await intentOf(id)).status).toBe('reconciling')
    expect(await reservationOf(id)).toBe('active')
    expect(await outboxStatusOf(outboxId)).toBe('claimed')
    expect(await eventTypes(id)).not.toContain('payment_intent.failed')
    expect(await auditActions(execution.id)).not.toContain('execution.failed')
    expect(await transferOf(key)).toMatchObject({ duplicate_submits: 0 })
    // The transfer settles after all: the parked intent is executed and its reservation consumed, as it should be.
    expect((await webhook(key, (await transferOf(key))!.id, id, 'transfer.settled', { amount: '35.95' })).json()).toMatchObject({ applied: true, execution_status: 'completed' })
    expect((await intentOf(id)).status).toBe('executed')
    expect(await reservationOf(id)).toBe('consumed')
  })

  it('a retry the stand-in answered is answered from the rail\'s book by the next attempt in a process that has the rail', async () => {
    const { outboxId } = await dispatched('36.95')
    expect(await dispatcher().dispatch(b.owner.tenantId, outboxId)).toBe('retry_scheduled')
    await withoutRails(async () => expect(await dispatcher().dispatch(b.owner.tenantId, outboxId)).toBe('retry_scheduled'))
    expect(await dispatcher().dispatch(b.owner.tenantId, outboxId)).toBe('awaiting')
    const key = (await executionOf(outboxId)).idempotency_key
    expect(await executionOf(outboxId)).toMatchObject({ status: 'in_flight', rail_reference: (await transferOf(key))!.id })
    expect(await transferOf(key)).toMatchObject({ duplicate_submits: 0 })
  })

  it('a first attempt in a process where the rail is not registered still fails closed', async () => {
    const { id, outboxId } = await dispatched('35.03')
    await withoutRails(async () => expect(await dispatcher().dispatch(b.owner.tenantId, outboxId)).toBe('failed'))
    expect(await executionOf(outboxId)).toMatchObject({ status: 'failed', attempts: 1, failure_code: 'rail_unavailable' })
    expect((await intentOf(id)).status).toBe('failed')
    expect(await reservationOf(id)).toBe('released')
    expect(await transferOf((await executionOf(outboxId)).idempotency_key)).toBeUndefined()
  })

  it('erp_writeback fails closed with the reason, moving nothing', async () => {
    const { id, outboxId } = await dispatched('5.00', { action_type: 'erp_writeback' })
    expect(await dispatcher().dispatch(b.owner.tenantId, outboxId)).toBe('failed')
    expect((await intentOf(id)).status).toBe('failed')
    expect(await executionOf(outboxId)).toMatchObject({ status: 'failed', failure_code: 'rail_unavailable' })
  })

  it('a dispatch of an outbox row of another tenant, or none, finds nothing', async () => {
    const { outboxId } = await dispatched('30.02')
    expect(await dispatcher().dispatch('00000000-0000-4000-8000-000000000000', outboxId)).toBe('missing')
    expect(await dispatcher().dispatch(b.owner.tenantId, 'pob_00000000000000000000000000')).toBe('missing')
  })
})

describe('a batch of rows', () => {
  it('claims, calls the rail once and applies the answers of rows of several tenants together, each row with its own result', async () => {
    const c = await businessIn(test, '1000.00')
    await test.runtime.settleAudit()
    const fresh = await dispatched('32.00')
    const declined = await dispatched('32.91')
    const unavailable = await dispatched('32.94')
    const awaiting = await dispatched('32.01')
    expect(await dispatcher().dispatch(b.owner.tenantId, awaiting.outboxId)).toBe('awaiting')
    const otherTenant = await dispatched('32.02', {}, c)
    const rows = [
      { tenantId: c.owner.tenantId, outboxId: otherTenant.outboxId },
      { tenantId: b.owner.tenantId, outboxId: fresh.outboxId },
      { tenantId: b.owner.tenantId, outboxId: declined.outboxId },
      { tenantId: b.owner.tenantId, outboxId: unavailable.outboxId },
      { tenantId: b.owner.tenantId, outboxId: awaiting.outboxId },
      // Another tenant's row under this tenant, and no row at all.
      { tenantId: b.owner.tenantId, outboxId: otherTenant.outboxId },
      { tenantId: b.owner.tenantId, outboxId: 'pob_00000000000000000000000000' },
      // The same row twice in one batch (two jobs of one row): the second finds the first's work.
      { tenantId: b.owner.tenantId, outboxId: fresh.outboxId },
    ]
    const adapter = test.runtime.execution.rails.adapterFor('bank_ach')
    const submitMany = adapter.submitMany!
    const calls: string[][] = []
    ;(adapter as { submitMany: typeof submitMany }).submitMany = async (requests) => (calls.push(requests.map((request) => request.outboxId)), submitMany(requests))
    try {
      expect(await dispatcher().dispatchBatch(rows)).toEqual(['awaiting', 'awaiting', 'failed', 'retry_scheduled', 'awaiting_settlement', 'missing', 'missing', 'awaiting_settlement'])
    } finally {
      ;(adapter as { submitMany: typeof submitMany }).submitMany = submitMany
    }
    // One call for the four rows to submit (the awaiting one is not asked again).
    expect(calls.map((outboxIds) => [...outboxIds].sort())).toEqual([[fresh.outboxId, declined.outboxId, unavailable.outboxId, otherTenant.outboxId].sort()])

    const freshExecution = await executionOf(fresh.outboxId)
    expect(freshExecution).toMatchObject({ status: 'in_flight', attempts: 1, rail_reference: expect.stringMatching(/^ach_/) })
    expect(await transferOf(freshExecution.idempotency_key)).toMatchObject({ status: 'pending', duplicate_submits: 0 })
    expect(await auditActions(freshExecution.id)).toEqual(['execution.created', 'execution.awaiting_settlement'])
    expect(await executionOf(declined.outboxId)).toMatchObject({ status: 'failed', failure_code: 'ach_authorization_declined' })
    expect((await intentOf(declined.id)).status).toBe('failed')
    expect(await reservationOf(declined.id)).toBe('released')
    expect(await executionOf(unavailable.outboxId)).toMatchObject({ status: 'dispatched', attempts: 1, rail_reference: null })
    expect(await outboxStatusOf(unavailable.outboxId)).toBe('claimed')
    expect((await executionOf(awaiting.outboxId)).attempts).toBe(1)

    // The other tenant's row: its execution, transfer and audit events are its own.
    const [theirs] = await queryRows<{ id: string; status: string; idempotency_key: string }>(db(), sql`select id, status, idempotency_key from executions where tenant_id = ${c.owner.tenantId} and outbox_id = ${otherTenant.outboxId}`)
    expect(theirs).toMatchObject({ status: 'in_flight' })
    expect(await transferOf(theirs!.idempotency_key)).toMatchObject({ status: 'pending', duplicate_submits: 0 })
    expect(await auditActionsOf(test, c.owner.tenantId, { entityId: theirs!.id })).toEqual(['execution.created', 'execution.awaiting_settlement'])
    expect(await auditActions(theirs!.id)).toEqual([])
  })

  it('the rail takes a batch with a key it already has: that transfer is answered, counted a duplicate, and not made again', async () => {
    const first = await dispatched('33.00')
    expect(await dispatcher().dispatch(b.owner.tenantId, first.outboxId)).toBe('awaiting')
    const second = await dispatched('33.01')
    const known = await executionOf(first.outboxId)
    const [order] = await test.runtime.payments.dispatch.orders(db(), [{ tenantId: b.owner.tenantId, outboxId: second.outboxId }])
    const { requestOf } = await import('../../../src/modules/execution/dispatch.service.ts')
    const knownRequest = { ...requestOf(order!), paymentIntentId: first.id, outboxId: first.outboxId, idempotencyKey: known.idempotency_key, amount: '33.00' }
    const answers = await test.runtime.execution.rails.adapterFor('bank_ach').submitMany!([knownRequest, requestOf(order!)])
    expect(answers).toEqual([
      { kind: 'pending', reference: known.rail_reference },
      { kind: 'pending', reference: expect.stringMatching(/^ach_/) },
    ])
    expect(await transferOf(known.idempotency_key)).toMatchObject({ id: known.rail_reference, duplicate_submits: 1 })
    expect(await transferOf(order!.idempotencyKey)).toMatchObject({ status: 'pending', duplicate_submits: 0 })
  })
})

describe('the workers end to end', () => {
  it('the gate\'s job dispatches the row and the sandbox provider settles it by its own signed webhook', async () => {
    const running = await createTestApp({ workers: true, env: { ACH_WEBHOOK_SECRET: achSecret }, runtime: { execution: { sandboxAch: { settleAfterSeconds: 0, returnAfterSeconds: 0 }, sweepIntervalMs: 200 } } })
    try {
      const other = await businessIn(running, '1000.00')
      await running.runtime.settleAudit()
      const id = await approvedIntentIn(running, other, { amount: '12.00' })
      await running.runtime.settleAudit()
      const executed = await running.request({ method: 'POST', url: `/v1/payment-intents/${id}/execute`, token: other.agent })
      expect(executed.statusCode, executed.body).toBe(202)
      let status = ''
      for (let waited = 0; waited < 200 && status !== 'executed'; waited += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100))
        const [row] = await queryRows<{ status: string }>(running.runtime.db.orm, sql`select status from payment_intents where tenant_id = ${other.owner.tenantId} and id = ${id}`)
        status = row!.status
      }
      expect(status).toBe('executed')
    } finally {
      await running.close()
    }
  })

  it('the sandbox provider\'s own returns, before (R01) and after (R10) settlement, pass the webhook\'s checks; the proof shows the return', async () => {
    const running = await createTestApp({ workers: true, env: { ACH_WEBHOOK_SECRET: achSecret }, runtime: { execution: { sandboxAch: { settleAfterSeconds: 0, returnAfterSeconds: 0 }, sweepIntervalMs: 200 } } })
    try {
      const other = await businessIn(running, '1000.00')
      await running.runtime.settleAudit()
      const returnedBefore = await approvedIntentIn(running, other, { amount: '12.92' })
      const returnedAfter = await approvedIntentIn(running, other, { amount: '12.93' })
      await running.runtime.settleAudit()
      for (const id of [returnedBefore, returnedAfter]) {
        const executed = await running.request({ method: 'POST', url: `/v1/payment-intents/${id}/execute`, token: other.agent })
        expect(executed.statusCode, executed.body).toBe(202)
      }
      const stateOf = async (id: string) => {
        const [row] = await queryRows<{ status: string; receipts: number }>(
          running.runtime.db.orm,
          sql`select status, cardinality(execution_receipt_ids)::int as receipts from payment_intents where tenant_id = ${other.owner.tenantId} and id = ${id}`,
        )
        return row!
      }
      let before = await stateOf(returnedBefore)
      let after = await stateOf(returnedAfter)
      for (let waited = 0; waited < 200 && (before.status !== 'failed' || after.receipts < 2); waited += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100))
        ;[before, after] = await Promise.all([stateOf(returnedBefore), stateOf(returnedAfter)])
      }
      expect(before.status).toBe('failed')
      expect(after).toEqual({ status: 'executed', receipts: 2 })
      const [failure] = await queryRows<{ failure_code: string }>(running.runtime.db.orm, sql`select failure_code from executions where tenant_id = ${other.owner.tenantId} and payment_intent_id = ${returnedBefore}`)
      expect(failure!.failure_code).toBe('ach_returned_R01')
      await running.runtime.settleAudit()
      const proof = await getOk(running, other.owner.token, `/v1/proof/${returnedAfter}`)
      expect(proof.rail_return).toMatchObject({ type: 'ach', status: 'returned', return_code: 'R10' })
    } finally {
      await running.close()
    }
  })

  it('the gate wakes the dispatch worker when it commits: the row is taken up at once, not at the next poll', async () => {
    // Workers poll every 60 s and the sweeper waits 60 s for an unclaimed row: only the wake-up can explain a claim within 15 s.
    const running = await createTestApp({ workers: true, env: { ACH_WEBHOOK_SECRET: achSecret }, runtime: { jobPollingIntervalSeconds: 60, execution: { pendingGraceSeconds: 60 } } })
    try {
      const other = await businessIn(running, '1000.00')
      await running.runtime.settleAudit()
      const id = await approvedIntentIn(running, other, { amount: '13.00' })
      await running.runtime.settleAudit()
      // The workers' first poll (at start) has passed; the next is a minute away.
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      const executed = await running.request({ method: 'POST', url: `/v1/payment-intents/${id}/execute`, token: other.agent })
      expect(executed.statusCode, executed.body).toBe(202)
      const outboxId = executed.json().outbox_id as string
      let claimed: string | undefined
      for (let waited = 0; waited < 150 && claimed === undefined; waited += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100))
        const [row] = await queryRows<{ status: string }>(running.runtime.db.orm, sql`select status from executions where tenant_id = ${other.owner.tenantId} and outbox_id = ${outboxId}`)
        claimed = row?.status
      }
      expect(claimed).toBe('in_flight')
    } finally {
      await running.close()
    }
  })

  it('batches in flight together (concurrency 3) take each row to the rail once, whatever the number of jobs naming it', async () => {
    // Settlement an hour away: each row ends its dispatch awaiting it, with the one transfer its key made.
    const running = await createTestApp({
      env: { ACH_WEBHOOK_SECRET: achSecret },
      runtime: { execution: { batchSize: 2, concurrency: 3, sandboxAch: { settleAfterSeconds: 3600, returnAfterSeconds: 0 } } },
    })
    try {
      const other = await businessIn(running, '1000.00')
      await running.runtime.settleAudit()
      const outboxIds: string[] = []
      for (const amount of ['21.00', '22.00', '23.00', '24.00', '25.00', '26.00']) {
        const id = await approvedIntentIn(running, other, { amount })
        await running.runtime.settleAudit()
        const executed = await running.request({ method: 'POST', url: `/v1/payment-intents/${id}/execute`, token: other.agent })
        expect(executed.statusCode, executed.body).toBe(202)
        outboxIds.push(executed.json().outbox_id as string)
      }
      // Two more jobs for every row beside the gate's (a redelivery, the sweeper), queued before any worker runs.
      const [dispatchQueue] = executionQueues
      expect(dispatchQueue.name).toBe('execution-dispatch')
      await running.runtime.db.transaction((tx) =>
        running.runtime.jobs.enqueueMany(tx, dispatchQueue, [...outboxIds, ...outboxIds].map((outboxId) => ({ data: { tenant_id: other.owner.tenantId, outbox_id: outboxId } }))),
      )
      await running.runtime.startWorkers()
      const awaiting = async () =>
        queryRows<{ outbox_id: string; attempts: number; transfers: number; duplicate_submits: number }>(
          running.runtime.db.orm,
          sql`select e.outbox_id, e.attempts, count(t.id)::int as transfers, coalesce(sum(t.duplicate_submits), 0)::int as duplicate_submits
                from executions e left join sandbox_ach_transfers t on t.tenant_id = e.tenant_id and t.idempotency_key = e.idempotency_key
               where e.tenant_id = ${other.owner.tenantId} and e.status = 'in_flight' and e.rail_reference is not null
               group by e.outbox_id, e.attempts order by e.outbox_id`,
        )
      await expect.poll(async () => (await awaiting()).length, { timeout: 20_000, interval: 100 }).toBe(outboxIds.length)
      // Every job done (none left to make a second attempt), then: one execution a row, one attempt, one transfer, no second submit.
      await expect
        .poll(async () => (await queryRows<{ open: number }>(running.runtime.db.orm, sql`select count(*)::int as open from ${sql.identifier(running.jobSchema)}.job where name = 'execution-dispatch' and state in ('created', 'retry', 'active') and data->>'tenant_id' = ${other.owner.tenantId}`))[0]!.open, { timeout: 20_000, interval: 100 })
        .toBe(0)
      expect(await awaiting()).toEqual([...outboxIds].sort().map((outboxId) => ({ outbox_id: outboxId, attempts: 1, transfers: 1, duplicate_submits: 0 })))
      const [executions] = await queryRows<{ count: number }>(running.runtime.db.orm, sql`select count(*)::int as count from executions where tenant_id = ${other.owner.tenantId}`)
      expect(executions!.count).toBe(outboxIds.length)
    } finally {
      await running.close()
    }
  })
})
