/**
 * Proofs (issue 17, item 4): GET /v1/proof/{action_id} for every outcome — executed on bank_ach, failed,
 * rejected by a member, shadow_completed, and a partial proof while dispatching — each accepted by the
 * standalone verifier (as a function and as `npm run audit:verify-proof`), and rejected, naming a field,
 * after any byte of it is changed. The page at /view shows the same data, escaped. 404 across tenants.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { providerSignatureHeader } from '../../../src/modules/raw/index.ts'
import { queryRows } from '../../../src/platform/db/database.ts'
import { verifyActionProof, type Proof } from '../../../src/modules/proofs/index.ts'
import { explain } from '../../../src/modules/proofs/domain/proof.ts'
import { createTestApp, expectError, signupOwner, type TestApp } from '../../support/harness.ts'
import { getOk } from '../../support/ledger.ts'
import { approvedIntent, business, type Business } from '../../support/payments.ts'

const achSecret = 'test-ach-webhook-secret-0123456789abcdef0123'
let test: TestApp
let b: Business
beforeAll(async () => {
  test = await createTestApp({ env: { ACH_WEBHOOK_SECRET: achSecret } })
  b = await business(test, '100000.00')
})
afterAll(async () => test?.close())

const proofOf = async (id: string, token = b.owner.token) => (await getOk(test, token, `/v1/proof/${id}`)) as unknown as Proof
/** Links every event and closes every open batch, so a proof's events are all under a Merkle root. */
const seal = () => test.runtime.settleAudit({ closeOpenBatch: true })

async function execute(id: string, token = b.agent) {
  const response = await test.request({ method: 'POST', url: `/v1/payment-intents/${id}/execute`, token })
  expect(response.statusCode, response.body).toBe(202)
  return response.json() as { outbox_id: string | null; status: string }
}

describe('the proof of an executed payment', () => {
  let id: string
  let proof: Proof
  beforeAll(async () => {
    // The sandbox settles through its own job; without workers, the test settles it by calling the rail.
    id = await approvedIntent(test, b, { amount: '30.00' })
    const { outbox_id: outboxId } = await execute(id)
    expect(await test.runtime.execution.dispatcher.dispatch(b.owner.tenantId, outboxId!)).toBe('awaiting')
    await settleByWebhook(id)
    await seal()
    proof = await proofOf(id)
  })

  it('has every field of the spec, bound to its events', async () => {
    expect(proof).toMatchObject({
      action_id: id,
      tenant_id: b.owner.tenantId,
      outcome: 'executed',
      status: 'executed',
      partial: false,
      payment: { action_type: 'ach_outbound', amount: '30.00', currency: 'EUR', source_account_id: b.account, destination_counterparty_id: b.supplier },
      policy_version: 2,
      policy_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      matched_rule_id: 'small',
      approvals: [],
      ledger_snapshot_hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      rail_receipt: { type: 'ach', provider: 'sandbox_ach', transfer_id: expect.stringMatching(/^ach_/), amount: '30.00', currency: 'EUR', settled_at: expect.any(String) },
      rail_return: null,
      merkle_root: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      chain_anchor: null,
    })
    expect(proof.agent_id).toMatch(/^svt_/)
    expect(proof.gate_checks).toHaveLength(23)
    expect(proof.gate_checks.every((check) => check.passed)).toBe(true)
    expect(proof.gate_checks.map((check) => check.index).slice(0, 2)).toEqual([1, 1.5])
    expect(proof.events.map((record) => record.event.action)).toEqual(
      expect.arrayContaining(['payment_intent.proposed', 'payment_intent.execute.before', 'payment_intent.dispatched', 'execution.created', 'execution.completed', 'payment_intent.executed']),
    )
    expect(proof.audit_events).toEqual(proof.events.map((record) => record.event.id))
    expect(proof.events.every((record) => record.inclusion.status === 'included')).toBe(true)
    expect(proof.merkle_root).toBe(proof.events.at(-1)!.inclusion.merkle_root)
    expect(proof.human_explanation).toContain(`proposed a ach_outbound of 30.00 EUR from account ${b.account}`)
    expect(proof.human_explanation).toContain('ran 23 checks and all passed')
    expect(proof.human_explanation).toContain(`It was executed by ACH transfer ${String(proof.rail_receipt!.transfer_id)}`)
    // The same proof, asked again, is the same document.
    expect(await proofOf(id)).toEqual(proof)
  })

  it('verifies offline, and names the first field that does not hold after any byte of it is changed', async () => {
    const report = await verifyActionProof(proof)
    expect(report).toMatchObject({ ok: true, complete: true, failed_field: null })
    const text = JSON.stringify(proof)
    let rejected = 0
    for (let position = 0; position < text.length; position += 1) {
      // Each byte in turn, changed to another printable character.
      const changed = text.slice(0, position) + String.fromCharCode(text.charCodeAt(position) ^ 1) + text.slice(position + 1)
      let document: unknown
      try {
        document = JSON.parse(changed)
      } catch {
        rejected += 1 // not JSON any more: nothing to verify
        continue
      }
      const result = await verifyActionProof(document)
      if (result.ok) throw new Error(`a proof changed at byte ${position} (${JSON.stringify(text.slice(Math.max(0, position - 40), position + 40))}) still verifies`)
      expect(result.failed_field, `byte ${position}`).toEqual(expect.any(String))
      rejected += 1
    }
    expect(rejected).toBe(text.length)
  }, 300_000)

  it('names the field: a changed amount, gate check, evidence, receipt, explanation or Merkle node', async () => {
    const altered = (change: (copy: any) => void) => {
      const copy = structuredClone(proof) as any
      change(copy)
      return verifyActionProof(copy)
    }
    expect((await altered((copy) => (copy.payment.amount = '3000.00'))).failed_field).toBe('payment')
    expect((await altered((copy) => (copy.gate_checks[4].passed = false))).failed_field).toBe('gate_checks')
    expect((await altered((copy) => (copy.outcome = 'failed'))).failed_field).toBe('outcome')
    expect((await altered((copy) => (copy.rail_receipt.amount = '31.00'))).failed_field).toBe('rail_receipt')
    expect((await altered((copy) => (copy.human_explanation += ' '))).failed_field).toBe('human_explanation')
    expect((await altered((copy) => (copy.events[0].event.outputs.amount = '1.00'))).failed_field).toBe('events[0].event')
    expect((await altered((copy) => (copy.merkle_proof = [...copy.merkle_proof].reverse().concat([`0x${'ab'.repeat(32)}`])))).failed_field).toBe('merkle_proof')
    expect((await altered((copy) => (copy.extra = 1))).failed_field).toBe('extra')
    expect((await altered((copy) => delete copy.policy_hash)).failed_field).toBe('policy_hash')
  })

  it('verifies with `npm run audit:verify-proof`, which exits 1 and names the field for an altered proof', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'proof-'))
    const good = join(directory, 'proof.json')
    const bad = join(directory, 'altered.json')
    writeFileSync(good, JSON.stringify(proof))
    writeFileSync(bad, JSON.stringify({ ...proof, matched_rule_id: 'other' }))
    const run = (file: string) => spawnSync(process.execPath, ['--import', 'tsx', 'scripts/audit-verify-proof.ts', file], { encoding: 'utf8' })
    const passed = run(good)
    expect(passed.status, passed.stderr).toBe(0)
    expect(passed.stdout).toContain(`Proof of ${id} verifies. It rests on these Merkle roots`)
    const failed = run(bad)
    expect(failed.status).toBe(1)
    expect(failed.stdout).toContain('does NOT verify: matched_rule_id does not hold')
  }, 60_000)

  it('renders the same data as an escaped HTML page', async () => {
    const page = await test.request({ method: 'GET', url: `/v1/proof/${id}/view`, token: b.owner.token })
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-type']).toMatch(/^text\/html/)
    expect(page.headers['content-security-policy']).toContain("default-src 'none'")
    expect(page.body).toContain(`Proof of action <code>${id}</code>`)
    expect(page.body).toContain('Executed')
    expect(page.body).toContain('23 of 23 checks passed')
    expect(page.body).toContain('source_balance_sufficient')
    expect(page.body).toContain(String(proof.rail_receipt!.transfer_id))
    expect(page.body).toContain('npm run audit:verify-proof')
    // The same data as the JSON: the tenant, every audit event's id and the Merkle proof too.
    expect(page.body).toContain(proof.tenant_id)
    for (const eventId of proof.audit_events) expect(page.body).toContain(eventId)
    for (const node of proof.merkle_proof) expect(page.body).toContain(node)
    expect(page.body).not.toMatch(/<script/i)
  })
})

/** The sandbox provider's signed settlement webhook for the transfer of the intent's execution. */
async function settleByWebhook(id: string) {
  const [execution] = await queryRows<{ idempotency_key: string; rail_reference: string }>(
    test.runtime.db.orm,
    sql`select idempotency_key, rail_reference from executions where tenant_id = ${b.owner.tenantId} and payment_intent_id = ${id}`,
  )
  const body = Buffer.from(
    JSON.stringify({
      id: `evt_${execution!.rail_reference}_settled`,
      type: 'transfer.settled',
      transfer_id: execution!.rail_reference,
      idempotency_key: execution!.idempotency_key,
      metadata: { tenant_id: b.owner.tenantId, payment_intent_id: id },
      amount: '30.00',
      currency: 'EUR',
      return_code: null,
      settled_at: '2026-11-26T12:00:00.000Z',
      occurred_at: '2026-11-26T12:00:00.000Z',
    }),
  )
  const signature = providerSignatureHeader(achSecret, Math.floor(Date.now() / 1000), body)
  const response = await test.request({ method: 'POST', url: '/v1/rails/bank_ach/webhooks', headers: { 'content-type': 'application/json', 'x-provider-signature': signature }, payload: body })
  expect(response.json()).toMatchObject({ applied: true, execution_status: 'completed' })
}

describe('proofs of the other outcomes', () => {
  it('failed at the rail (a declined transfer)', async () => {
    const id = await approvedIntent(test, b, { amount: '30.91' })
    const { outbox_id: outboxId } = await execute(id)
    expect(await test.runtime.execution.dispatcher.dispatch(b.owner.tenantId, outboxId!)).toBe('failed')
    await seal()
    const proof = await proofOf(id)
    expect(proof).toMatchObject({ outcome: 'failed', status: 'failed', partial: false, rail_receipt: null })
    expect(proof.human_explanation).toContain('It failed at the rail')
    expect(await verifyActionProof(proof)).toMatchObject({ ok: true, complete: true })
  })

  it('confirmed (waiting for a member), then rejected by a member', async () => {
    const response = await test.request({
      method: 'POST',
      url: '/v1/payment-intents',
      token: b.agent,
      payload: { action_type: 'ach_outbound', source_account_id: b.account, destination_counterparty_id: b.supplier, amount: '80.00', currency: 'EUR' },
    })
    expect(response.json().status).toBe('pending_approval')
    const id = response.json().id as string
    // Waiting for a member: the policy's decision (confirm), partial.
    const waiting = await proofOf(id)
    expect(waiting).toMatchObject({ outcome: 'confirmed', status: 'pending_approval', partial: true, approvals: [], gate_checks: [] })
    expect(await verifyActionProof(waiting)).toMatchObject({ ok: true, complete: false })
    const rejected = await test.request({ method: 'POST', url: `/v1/payment-intents/${id}/reject`, token: b.admin.token, payload: { reason: 'not this month' } })
    expect(rejected.statusCode, rejected.body).toBe(200)
    await seal()
    const proof = await proofOf(id)
    expect(proof).toMatchObject({ outcome: 'rejected', status: 'rejected', matched_rule_id: 'other', gate_checks: [], ledger_snapshot_hash: null, rail_receipt: null })
    expect(proof.approvals).toEqual([expect.objectContaining({ decision: 'reject', member_id: expect.any(String), user_id: expect.any(String) })])
    expect(proof.human_explanation).toContain('rejected it')
    expect(await verifyActionProof(proof)).toMatchObject({ ok: true, complete: true })
  })

  it('shadow_completed: an agent not promoted', async () => {
    const shadow = await business(test, '100000.00', { promoted: false })
    const id = await approvedIntent(test, shadow)
    expect((await execute(id, shadow.agent)).status).toBe('shadow_completed')
    await seal()
    const proof = await proofOf(id, shadow.owner.token)
    expect(proof).toMatchObject({ outcome: 'shadow_completed', status: 'shadow_completed', partial: false, rail_receipt: null })
    expect(proof.gate_checks).toHaveLength(23)
    expect(proof.human_explanation).toContain('shadow mode')
    expect(await verifyActionProof(proof)).toMatchObject({ ok: true, complete: true })
    // Another tenant's action is not found, as a missing one.
    expectError(await test.request({ method: 'GET', url: `/v1/proof/${id}`, token: b.owner.token }), 'proof_not_found')
    expectError(await test.request({ method: 'GET', url: `/v1/proof/${id}/view`, token: b.owner.token }), 'proof_not_found')
  })

  it('a partial proof while dispatching: gate checks present, merkle_root empty until the batch closes', async () => {
    const id = await approvedIntent(test, b, { amount: '30.02' })
    await execute(id)
    const proof = await proofOf(id)
    expect(proof).toMatchObject({ status: 'dispatching', outcome: 'allowed', partial: true, merkle_root: '', merkle_proof: [], rail_receipt: null, chain_anchor: null })
    expect(proof.gate_checks).toHaveLength(23)
    expect(proof.human_explanation).toContain('this proof is partial')
    // Consistent, but not complete, and not verified: the events under no root yet are bound to nothing.
    expect(await verifyActionProof(proof)).toMatchObject({ ok: true, complete: false, sealed: false })
  })

  it('never calls a proof whose events are under no Merkle root verified: a forger can write one (exit 3)', async () => {
    const id = await approvedIntent(test, b, { amount: '30.03' })
    await seal()
    const real = await proofOf(id)
    // A forgery: every event rewritten as not yet linked, the amount raised, the explanation written again.
    const forged = structuredClone(real) as any
    for (const record of forged.events) {
      Object.assign(record.event, { seq: null, prev_hash: null, hash: null })
      record.inclusion = { status: 'pending_sequence', leaf: null, merkle_root: null, proof: [] }
      if (record.event.action === 'payment_intent.proposed') record.event.outputs.amount = '1000000.00'
    }
    Object.assign(forged, { merkle_root: '', merkle_proof: [], partial: true, payment: { ...forged.payment, amount: '1000000.00' } })
    const { human_explanation: _explanation, events: _events, ...rest } = forged
    forged.human_explanation = explain(rest)
    const report = await verifyActionProof(forged)
    expect(report).toMatchObject({ ok: true, sealed: false, roots: [] })
    // The real one rests on its roots.
    expect(await verifyActionProof(real)).toMatchObject({ ok: true, sealed: true, roots: [...new Set(real.events.map((record) => record.inclusion.merkle_root))] })

    const directory = mkdtempSync(join(tmpdir(), 'forged-'))
    const file = join(directory, 'forged.json')
    writeFileSync(file, JSON.stringify(forged))
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/audit-verify-proof.ts', file], { encoding: 'utf8' })
    expect(run.status, run.stdout + run.stderr).toBe(3)
    expect(run.stdout).toContain('is consistent but NOT verified')
    // A usage error is 2, not a verdict.
    expect(spawnSync(process.execPath, ['--import', 'tsx', 'scripts/audit-verify-proof.ts', file, '--bogus', 'x'], { encoding: 'utf8' }).status).toBe(2)
    expect(spawnSync(process.execPath, ['--import', 'tsx', 'scripts/audit-verify-proof.ts', join(directory, 'missing.json')], { encoding: 'utf8' }).status).toBe(2)
  }, 60_000)

  it('rejects events out of chain order', async () => {
    const id = await approvedIntent(test, b, { amount: '30.04' })
    await execute(id)
    await seal()
    const proof = structuredClone(await proofOf(id)) as any
    expect(proof.events.length).toBeGreaterThan(1)
    proof.events.reverse()
    expect((await verifyActionProof(proof)).failed_field).toMatch(/^events\[\d+\]\.event\.seq$/)
  })

  it('404 proof_not_found for an id that names nothing, whatever its shape', async () => {
    const other = await signupOwner(test)
    for (const id of ['pi_01JZZZZZZZZZZZZZZZZZZZZZZZ', 'x', '00000000-0000-4000-8000-000000000000']) {
      expectError(await test.request({ method: 'GET', url: `/v1/proof/${id}`, token: other.token }), 'proof_not_found')
    }
  })
})

