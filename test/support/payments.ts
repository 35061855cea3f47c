/**
 * Payments test helpers: a business ready to pay (a funded account with a recorded balance, a trusted
 * supplier and an unverified one, a signed policy that lets payments up to 50 EUR through on their own),
 * and approved intents proposed by its service token.
 */
import { expect } from 'vitest'
import { addMember, mintServiceToken, signupOwner, subjectOf, type TestApp, type TenantOwner } from './harness.ts'
import { bankTransaction, getOk, normalize, seedArtifact } from './ledger.ts'
import { addSigner, compose, sign, signatureOf } from './policy.ts'

/**
 * The business's policy: payments to high-risk counterparties are rejected, payments up to 50 EUR go
 * through on their own (autonomous cap 50), other payments need one approval, non-money actions are allowed.
 */
export function businessPolicy(version: number) {
  return {
    version,
    rules: [
      { id: 'risky', applies_to: ['outbound_payment', 'onchain_tx'], when: { risk_level: 'high' }, execute: 'reject' },
      { id: 'small', applies_to: ['outbound_payment'], when: { 'amount.lte': { currency: 'EUR', value: '50' } }, execute: 'auto', autonomous_cap: { currency: 'EUR', value: '50' } },
      { id: 'other', applies_to: ['outbound_payment', 'onchain_tx'], when: {}, execute: 'confirm' },
      { id: 'non-money', applies_to: ['inbound_payment', 'ledger_write', 'agent_action'], when: {}, execute: 'auto' },
    ],
  }
}

/** The business's one bank account. */
const operating = { iban: 'DE89370400440532013000', name: 'Operating account', currency: 'EUR' } as const

/**
 * A tenant whose policy rejects payments to high-risk counterparties and lets payments up to 50 EUR through
 * on their own (autonomous cap 50; others need one approval), with a funded account and two suppliers, and
 * its agent promoted out of shadow mode (unless `promoted: false`: then its payments end shadow_completed).
 */
export async function business(test: TestApp, balance = '100.00', options: { promoted?: boolean } = {}) {
  const owner = await signupOwner(test)
  const admin = await addMember(test, owner, 'admin')
  const seeded = await seedArtifact(test, owner.tenantId, [
    bankTransaction({ amount: '-10.00', transaction_date: '2026-03-02', description: 'PAPER SUPPLY', counterparty: { name: 'Paper Supply Co', iban: 'DE02120300000000202051' } }),
    bankTransaction({ amount: '-11.00', transaction_date: '2026-03-03', description: 'INK WORKS', counterparty: { name: 'Ink Works', iban: 'DE02100500000054540402' } }),
    { kind: 'balance', account: operating, balance_type: 'closing', as_of: '2026-03-31', amount: balance, currency: 'EUR' },
  ])
  await normalize(test, owner.tenantId, seeded.artifactId)
  const account = ((await getOk(test, owner.token, '/v1/ledger/accounts')).accounts as Array<Record<string, any>>)[0]!.id as string
  const counterparties = (await getOk(test, owner.token, '/v1/ledger/counterparties')).counterparties as Array<Record<string, any>>
  const supplier = counterparties.find((row) => row.name === 'Paper Supply Co')!.id as string
  const unverified = counterparties.find((row) => row.name === 'Ink Works')!.id as string
  const granted = await test.request({ method: 'POST', url: `/v1/ledger/counterparties/${supplier}/trust/grant`, token: admin.token })
  expect(granted.statusCode, granted.body).toBe(200)
  const signer = await addSigner(test, owner)
  const composed = await compose(test, owner, businessPolicy(2))
  expect((await sign(test, owner, signer.member.token, composed.policy_id, [await signatureOf(signer, composed)])).statusCode).toBe(200)
  const agent = await mintServiceToken(test, owner.tenantId)
  if (options.promoted !== false) await promoteAgent(test, admin, agent)
  return { owner, admin, signer, account, supplier, unverified, agent }
}

/**
 * Promotes the agent of `agentToken` out of shadow mode (governing rule 7) by `admin`: caps of 100,000
 * EUR a payment and a day on every rail, no thresholds, for 30 days (or as overridden). Answers the promotion.
 */
export async function promoteAgent(test: TestApp, admin: Pick<TenantOwner, 'token'>, agentToken: string, overrides: Record<string, unknown> = {}) {
  const response = await test.request({
    method: 'POST',
    url: `/v1/execution/agents/${subjectOf(agentToken)}/promote`,
    token: admin.token,
    payload: promotionRequest({ per_payment_cap: '100000', per_day_cap: '100000', rails: ['bank_ach', 'onchain_base', 'erp_writeback'], reason: 'test business: live payments', ...overrides }),
  })
  expect(response.statusCode, response.body).toBe(201)
  return response.json() as Record<string, any>
}
export type Business = Awaited<ReturnType<typeof business>>

/** A payment of 30 EUR (or as overridden) to the trusted supplier, proposed by the business's service token: approved at creation. */
export async function approvedIntent(test: TestApp, b: Business, overrides: Record<string, unknown> = {}) {
  const response = await test.request({
    method: 'POST',
    url: '/v1/payment-intents',
    token: b.agent,
    payload: { action_type: 'ach_outbound', source_account_id: b.account, destination_counterparty_id: b.supplier, amount: '30.00', currency: 'EUR', ...overrides },
  })
  expect(response.statusCode, response.body).toBe(201)
  expect(response.json().status).toBe('approved')
  return response.json().id as string
}


/** A promotion request body (POST /v1/execution/agents/{agent_id}/promote): 1 EUR caps on bank_ach, no thresholds, 30 days (or as overridden). */
export function promotionRequest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    currency: 'EUR',
    per_payment_cap: '1',
    per_day_cap: '1',
    rails: ['bank_ach'],
    expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    reason: 'test',
    thresholds: { min_shadow_runs: 0, min_approval_rate: 0, max_gate_failure_rate: 1 },
    ...overrides,
  }
}
