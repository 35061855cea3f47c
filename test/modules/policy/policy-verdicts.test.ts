/**
 * Policy verdicts, called as the gate will call them (inside its transaction): single use, 60 seconds,
 * bound to one action and to the policy version that decided; every failure is a typed reason and
 * consumes nothing.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows, type Tx } from '../../../src/platform/db/database.ts'
import type { PolicyAction } from '../../../src/modules/policy/domain/index.ts'
import { actionHash, type EvaluatedDecision } from '../../../src/modules/policy/index.ts'
import { createTestApp, fixedClock, signupOwner, type TenantOwner, type TestApp } from '../../support/harness.ts'
import { addSigner, compose, samplePolicy, sign, signatureOf } from '../../support/policy.ts'

const clock = fixedClock(new Date())
let test: TestApp
beforeAll(async () => {
  test = await createTestApp({ clock })
})
afterAll(async () => test?.close())

const payment: PolicyAction = { kind: 'outbound_payment', amount: { currency: 'EUR', value: '120.00' }, counterparty_id: 'cpy_roaster' }

const verdicts = () => test.runtime.policy.verdicts
const inTx = <T>(work: (tx: Tx) => Promise<T>) => test.runtime.db.transaction(work)

async function issue(owner: TenantOwner, action: PolicyAction = payment) {
  return inTx(async (tx) => {
    const decision = (await verdicts().evaluateActive(tx, owner.tenantId, action)) as EvaluatedDecision
    return { decision, issued: await verdicts().issueVerdict(tx, owner.tenantId, decision, action) }
  })
}

const consume = (owner: TenantOwner, token: string, action: PolicyAction = payment) => inTx((tx) => verdicts().consumeVerdict(tx, owner.tenantId, token, action))

describe('policy verdicts', () => {
  it('bind the decision of the active version to the action; succeed once; are stored only as a digest', async () => {
    const owner = await signupOwner(test)
    const { decision, issued } = await issue(owner)
    expect(decision).toMatchObject({ outcome: 'confirm', matched_rule_id: 'money_needs_signer', policy_version: 1 })
    expect(issued.token).toMatch(/^pvt_[A-Za-z0-9_-]{43}$/)
    expect(issued.expires_at.getTime() - clock.now().getTime()).toBe(60_000)
    const [row] = await queryRows<{ token_digest: string; action_hash: string; policy_version: number; decision: Record<string, unknown> }>(
      test.runtime.db.orm,
      sql`select token_digest, action_hash, policy_version, decision from policy_verdicts where id = ${issued.verdict_id}`,
    )
    expect(row!.token_digest).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.stringify(row)).not.toContain(issued.token)
    expect(row).toMatchObject({ action_hash: actionHash(payment), policy_version: 1, decision: { outcome: 'confirm', matched_rule_id: 'money_needs_signer', covered_by_autonomous_cap: false } })

    // The same action with fields in another order and absent ones spelled null is the same action.
    const reordered: PolicyAction = { counterparty_id: 'cpy_roaster', agent_role: null, amount: { value: '120.00', currency: 'EUR' }, kind: 'outbound_payment' }
    const consumed = await consume(owner, issued.token, reordered)
    expect(consumed).toMatchObject({ ok: true, verdict: { id: issued.verdict_id, policyVersion: 1, decision: { outcome: 'confirm' } } })
    expect(await consume(owner, issued.token)).toEqual({ ok: false, reason: 'consumed' })
  })

  it('expire after 60 seconds', async () => {
    const owner = await signupOwner(test)
    const early = await issue(owner)
    const late = await issue(owner)
    clock.advance(59_000)
    expect((await consume(owner, early.issued.token)).ok).toBe(true)
    clock.advance(1_000)
    expect(await consume(owner, late.issued.token)).toEqual({ ok: false, reason: 'expired' })
  })

  it('refuse another action without consuming the verdict', async () => {
    const owner = await signupOwner(test)
    const { issued } = await issue(owner)
    for (const other of [
      { ...payment, amount: { currency: 'EUR', value: '1200.00' } },
      { ...payment, counterparty_id: 'cpy_other' },
      { ...payment, kind: 'onchain_tx' as const },
      { ...payment, agent_id: 'agt_1' },
    ]) {
      expect(await consume(owner, issued.token, other)).toEqual({ ok: false, reason: 'action_mismatch' })
    }
    expect((await consume(owner, issued.token)).ok).toBe(true)
  })

  it('are stale once another version is activated', async () => {
    const owner = await signupOwner(test)
    const signer = await addSigner(test, owner)
    const { issued } = await issue(owner)
    const composed = await compose(test, owner, samplePolicy())
    expect((await sign(test, owner, signer.member.token, composed.policy_id, [await signatureOf(signer, composed)])).json().activated).toBe(true)
    expect(await consume(owner, issued.token)).toEqual({ ok: false, reason: 'policy_stale' })
    // One issued under the new version is good.
    const fresh = await issue(owner)
    expect(fresh.decision).toMatchObject({ policy_version: 2, outcome: 'confirm', matched_rule_id: 'other-payments' })
    expect((await consume(owner, fresh.issued.token)).ok).toBe(true)
  })

  it('are unknown to another tenant and for a made-up token', async () => {
    const owner = await signupOwner(test)
    const other = await signupOwner(test)
    const { issued } = await issue(owner)
    expect(await consume(other, issued.token)).toEqual({ ok: false, reason: 'not_found' })
    expect(await consume(owner, `pvt_${'A'.repeat(43)}`)).toEqual({ ok: false, reason: 'not_found' })
    expect((await consume(owner, issued.token)).ok).toBe(true)
  })

  it('cannot be consumed twice by concurrent consumers', async () => {
    const owner = await signupOwner(test)
    const { issued } = await issue(owner)
    const outcomes = await Promise.all(Array.from({ length: 4 }, () => consume(owner, issued.token)))
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1)
    expect(outcomes.filter((outcome) => !outcome.ok).map((outcome) => (outcome.ok ? '' : outcome.reason))).toEqual(['consumed', 'consumed', 'consumed'])
  })

  it('refuse to bind a decision to a version of another tenant (a programming error)', async () => {
    const owner = await signupOwner(test)
    const other = await signupOwner(test)
    const { decision } = await issue(owner)
    await expect(inTx((tx) => verdicts().issueVerdict(tx, other.tenantId, decision, payment))).rejects.toThrow(/not this tenant's/)
    await expect(inTx((tx) => verdicts().bindVerdict(tx, other.tenantId, decision, payment))).rejects.toThrow(/not this tenant's/)
  })

  it('bind a decision as the gate does: issued and consumed in one call, the row stored consumed', async () => {
    const owner = await signupOwner(test)
    const bound = await inTx(async (tx) => {
      const decision = (await verdicts().evaluateActive(tx, owner.tenantId, payment)) as EvaluatedDecision
      return verdicts().bindVerdict(tx, owner.tenantId, decision, payment)
    })
    expect(bound).toMatchObject({ ok: true, verdict: { policyVersion: 1, decision: { outcome: 'confirm', matched_rule_id: 'money_needs_signer' } } })
    const rows = await queryRows<{ id: string; action_hash: string; consumed_at: unknown }>(
      test.runtime.db.orm,
      sql`select id, action_hash, consumed_at from policy_verdicts where tenant_id = ${owner.tenantId}`,
    )
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ id: bound.ok ? bound.verdict.id : '', action_hash: actionHash(payment) })
    expect(rows[0]!.consumed_at).not.toBeNull()
    // A decision whose policy is no longer active binds nothing: the verdict is written, and its consumption refused as stale.
    const stale = await inTx(async (tx) => {
      const decision = (await verdicts().evaluateActive(tx, owner.tenantId, payment)) as EvaluatedDecision
      await tx.execute(sql`update policies set state = 'superseded', deactivated_at = now() where tenant_id = ${owner.tenantId} and id = ${decision.policy_id}`)
      return verdicts().bindVerdict(tx, owner.tenantId, decision, payment)
    })
    expect(stale).toEqual({ ok: false, reason: 'policy_stale' })
  })
})
