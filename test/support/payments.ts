/**
 * Payments test helpers: a business ready to pay (a funded account with a recorded balance, a trusted
 * supplier and an unverified one, a signed policy that lets payments up to 50 EUR through on their own),
 * and approved intents proposed by its service token.
 */
import { expect } from 'vitest'
import { addMember, mintServiceToken, signupOwner, type TestApp } from './harness.ts'
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
 * on their own (autonomous cap 50; others need one approval), with a funded account and two suppliers.
 */
export async function business(test: TestApp, balance = '100.00') {
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
  return { owner, admin, signer, account, supplier, unverified, agent }
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

