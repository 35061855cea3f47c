/**
 * x402_base and escrow_base are not registered at boot (issue 17, item 2): an approved x402_settle or
 * escrow_release intent of a promoted agent fails gate check 11 (rail_available) and nothing is written to
 * the outbox; an un-promoted agent's run of the same payment completes as a shadow (the whole pipeline ran,
 * no rail was called), with its proof. USDC accounts and payees, on both engines.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifyActionProof } from '../../../src/modules/proofs/index.ts'
import { queryRows } from '../../../src/platform/db/database.ts'
import { createTestApp, expectError, type TestApp } from '../../support/harness.ts'
import { bankTransaction, getOk, normalize, seedArtifact } from '../../support/ledger.ts'
import { business, promoteAgent, type Business } from '../../support/payments.ts'

let test: TestApp
beforeAll(async () => {
  test = await createTestApp()
})
afterAll(async () => test?.close())

/** A business with a USDC wallet account holding 10,000 USDC and a trusted payee with a wallet; its agent promoted for USDC unless `promoted: false`. */
async function usdcBusiness(options: { promoted: boolean }) {
  const b = await business(test, '100.00', { promoted: false })
  if (options.promoted) await promoteAgent(test, b.admin, b.agent, { currency: 'USDC', rails: ['x402_base', 'escrow_base', 'bank_ach'] })
  const wallet = { wallet_address: `0x${'5a'.repeat(20)}`, name: 'USDC wallet', currency: 'USDC' } as const
  const seeded = await seedArtifact(test, b.owner.tenantId, [
    bankTransaction({ account: wallet, currency: 'USDC', amount: '-1.00', transaction_date: '2026-03-04', description: 'API PROVIDER', counterparty: { name: 'API Provider', wallet_address: `0x${'6b'.repeat(20)}` } }),
    { kind: 'balance', account: wallet, balance_type: 'closing', as_of: '2026-03-31', amount: '10000.00', currency: 'USDC' },
  ])
  await normalize(test, b.owner.tenantId, seeded.artifactId)
  const accounts = (await getOk(test, b.owner.token, '/v1/ledger/accounts')).accounts as Array<Record<string, any>>
  const usdcAccount = accounts.find((row) => row.currency === 'USDC')!.id as string
  const counterparties = (await getOk(test, b.owner.token, '/v1/ledger/counterparties')).counterparties as Array<Record<string, any>>
  const payee = counterparties.find((row) => row.name === 'API Provider')!.id as string
  expect((await test.request({ method: 'POST', url: `/v1/ledger/counterparties/${payee}/trust/grant`, token: b.admin.token })).statusCode).toBe(200)
  return { ...b, usdcAccount, payee }
}

/** A USDC payment of `actionType` proposed by the agent and approved by the admin. */
async function approved(b: Business & { usdcAccount: string; payee: string }, actionType: 'x402_settle' | 'escrow_release') {
  const proposed = await test.request({
    method: 'POST',
    url: '/v1/payment-intents',
    token: b.agent,
    payload: { action_type: actionType, source_account_id: b.usdcAccount, destination_counterparty_id: b.payee, amount: '12.50', currency: 'USDC' },
  })
  expect(proposed.statusCode, proposed.body).toBe(201)
  const id = proposed.json().id as string
  if (proposed.json().status !== 'approved') {
    const approval = await test.request({ method: 'POST', url: `/v1/payment-intents/${id}/approve`, token: b.admin.token })
    expect(approval.statusCode, approval.body).toBe(200)
    expect(approval.json().status).toBe('approved')
  }
  await test.runtime.settleAudit()
  return id
}

describe('x402_base and escrow_base, unregistered at boot', () => {
  it.each(['x402_settle', 'escrow_release'] as const)('%s of a promoted agent fails check 11 and writes no outbox row', async (actionType) => {
    const b = await usdcBusiness({ promoted: true })
    const id = await approved(b, actionType)
    const response = await test.request({ method: 'POST', url: `/v1/payment-intents/${id}/execute`, token: b.agent })
    const details = expectError(response, 'payment_intent_gate_failed').details as Record<string, any>
    expect(details.failed_checks.map((check: { name: string }) => check.name)).toContain('rail_available')
    expect(details.failed_checks.find((check: { name: string }) => check.name === 'rail_available').reason).toMatch(/not registered|unavailable|not available/)
    expect((await getOk(test, b.owner.token, `/v1/payment-intents/${id}`)).status).toBe('approved')
    const [outbox] = await queryRows<{ n: number }>(test.runtime.db.orm, sql`select count(*)::int as n from payment_outbox where tenant_id = ${b.owner.tenantId} and payment_intent_id = ${id}`)
    expect(outbox!.n).toBe(0)
  })

  it.each(['x402_settle', 'escrow_release'] as const)('%s of an agent in shadow mode completes as a shadow, with its proof', async (actionType) => {
    const b = await usdcBusiness({ promoted: false })
    const id = await approved(b, actionType)
    const response = await test.request({ method: 'POST', url: `/v1/payment-intents/${id}/execute`, token: b.agent })
    expect(response.statusCode, response.body).toBe(202)
    expect(response.json()).toMatchObject({ status: 'shadow_completed', outbox_id: null, shadow: { gate_passed: false } })
    expect(response.json().shadow.failed_checks).toContain('11:rail_available')
    await test.runtime.settleAudit({ closeOpenBatch: true })
    const proof = await getOk(test, b.owner.token, `/v1/proof/${id}`)
    expect(proof).toMatchObject({ outcome: 'shadow_completed', partial: false, rail_receipt: null })
    expect(proof.gate_checks.find((check: { name: string }) => check.name === 'rail_available').passed).toBe(false)
    expect(await verifyActionProof(proof)).toMatchObject({ ok: true, complete: true })
  })
})
