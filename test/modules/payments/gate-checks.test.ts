/**
 * Each gate check failing alone over HTTP (issue 16, "Done when"): for each check that the state of a
 * tenant can make fail, a business is set up, one thing about it is changed, and execute answers 409
 * payment_intent_gate_failed naming that check, with no other check failed, the intent still approved
 * and no outbox row. Checks 1 and 12.5 are answered by the state table before the gate
 * (payment_intent_invalid_state, action_already_executed: gate.test.ts); check 5 cannot fail without
 * check 8 (a short balance is short after reservations too: gate.test.ts); 6.6 and 11 concern the
 * escrow and x402 rails, which need USDC accounts and fail closed (domain/gate.test.ts covers all 23).
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { actionHash, type PolicyAction } from '../../../src/modules/policy/index.ts'
import { queryRows } from '../../../src/platform/db/database.ts'
import { createTestApp, expectError, fixedClock, mintServiceToken, type TestApp } from '../../support/harness.ts'
import { getOk, normalize, seedArtifact } from '../../support/ledger.ts'
import { approvedIntent as approvedIntentIn, business as businessIn, businessPolicy, type Business } from '../../support/payments.ts'

const approvedIntent = (app: TestApp, b: Business, overrides: Record<string, unknown> = {}) => approvedIntentIn(app, b, overrides)
const business = (app: TestApp) => businessIn(app)
import { compose, sign, signatureOf } from '../../support/policy.ts'

let test: TestApp
beforeAll(async () => {
  // The onchain_base rail is registered (check 11 passes on-chain transfers), on a chain nobody serves: the
  // session_key_valid case registers no smart account, so check 12 fails without asking the chain.
  test = await createTestApp({ env: { ONCHAIN_RAIL_RPC_URL: 'http://127.0.0.1:9', ONCHAIN_RAIL_CHAIN_ID: '31337' } })
})
afterAll(async () => test?.close())

const run = (statement: ReturnType<typeof sql>) => test.runtime.db.orm.execute(statement)

/**
 * Records a new version of a Ledger entity with `changes` (Ledger rows are immutable: the current version
 * is superseded and a copy with the changes inserted, as the Ledger itself does).
 */
async function newLedgerVersion(table: 'ledger_accounts' | 'ledger_counterparties' | 'ledger_invoices', tenantId: string, id: string, changes: Record<string, unknown>) {
  await test.runtime.db.transaction(async (tx) => {
    const [current] = await queryRows<{ row: Record<string, any> }>(
      tx,
      sql`update ${sql.identifier(table)} set superseded_at = now() where tenant_id = ${tenantId} and id = ${id} and superseded_at is null returning to_jsonb(${sql.identifier(table)}.*) as row`,
    )
    const next = { ...current!.row, ...changes, version_id: `ver_${Date.now()}${Math.random().toString(36).slice(2, 8)}`, version: current!.row.version + 1, supersedes: current!.row.version_id, superseded_at: null, created_at: new Date().toISOString() }
    await tx.execute(sql`insert into ${sql.identifier(table)} select * from jsonb_populate_record(null::${sql.identifier(table)}, ${JSON.stringify(next)}::jsonb)`)
  })
}

/** A payment above the autonomous cap, approved by the business's admin. */
async function heldThenApproved(b: Business, overrides: Record<string, unknown> = {}) {
  const proposed = await test.request({
    method: 'POST',
    url: '/v1/payment-intents',
    token: b.agent,
    payload: { action_type: 'ach_outbound', source_account_id: b.account, destination_counterparty_id: b.supplier, amount: '60.00', currency: 'EUR', ...overrides },
  })
  expect(proposed.statusCode, proposed.body).toBe(201)
  expect(proposed.json().status).toBe('pending_approval')
  const approved = await test.request({ method: 'POST', url: `/v1/payment-intents/${proposed.json().id}/approve`, token: b.admin.token })
  expect(approved.statusCode, approved.body).toBe(200)
  expect(approved.json().status).toBe('approved')
  return proposed.json().id as string
}

/** Rewrites the stored action of an intent's decision, and its hash, so that only what `change` does differs. */
async function rewriteAction(b: Business, id: string, change: (action: PolicyAction) => PolicyAction) {
  const [row] = await queryRows<{ id: string; action: PolicyAction }>(test.runtime.db.orm, sql`select d.id, d.action from payment_policy_decisions d where d.tenant_id = ${b.owner.tenantId} and d.payment_intent_id = ${id}`)
  const action = change(row!.action)
  await run(sql`update payment_policy_decisions set action = ${JSON.stringify(action)}::jsonb, action_hash = ${actionHash(action)} where tenant_id = ${b.owner.tenantId} and id = ${row!.id}`)
}

let invoiceSeed = 0
/** A payable invoice of `total` EUR from the business's trusted supplier, nothing paid; answers its id. */
async function supplierInvoice(b: Business, total: string): Promise<string> {
  invoiceSeed += 1
  const number = `GATE-${invoiceSeed}`
  const seeded = await seedArtifact(test, b.owner.tenantId, [
    { kind: 'invoice', direction: 'payable', invoice_number: number, issue_date: '2026-03-05', due_date: '2026-04-05', currency: 'EUR', total, amount_paid: '0.00', counterparty: { name: 'Paper Supply Co', iban: 'DE02120300000000202051' } },
  ])
  await normalize(test, b.owner.tenantId, seeded.artifactId)
  const invoices = (await getOk(test, b.owner.token, '/v1/ledger/invoices?direction=payable')).invoices as Array<Record<string, any>>
  return invoices.find((row) => row.invoice_number === number)!.id as string
}

const cases: ReadonlyArray<readonly [string, string, (b: Business) => Promise<string>]> = [
  ['agent_behavior_pinned', "the agent's behaviour hash is not the one it proposed with", async (b) => {
    const id = await approvedIntent(test, b)
    await rewriteAction(b, id, (action) => ({ ...action, behavior_hash: '0xabc' }))
    return id
  }],
  ['policy_decision_present', 'the attached decision says reject', async (b) => {
    const id = await approvedIntent(test, b)
    await run(sql`update payment_policy_decisions set outcome = 'reject' where tenant_id = ${b.owner.tenantId} and payment_intent_id = ${id}`)
    return id
  }],
  ['policy_verdict_single_use', 'the stored action does not match the hash its verdict binds to', async (b) => {
    const id = await approvedIntent(test, b)
    await run(sql`update payment_policy_decisions set action_hash = ${`sha256:${'0'.repeat(64)}`} where tenant_id = ${b.owner.tenantId} and payment_intent_id = ${id}`)
    return id
  }],
  ['policy_version_current', 'a newer policy version was signed since', async (b) => {
    const id = await approvedIntent(test, b)
    const composed = await compose(test, b.owner, businessPolicy(3))
    expect((await sign(test, b.owner, b.signer.member.token, composed.policy_id, [await signatureOf(b.signer, composed)])).statusCode).toBe(200)
    return id
  }],
  ['policy_signatures_valid', "the active policy's only signer was deactivated", async (b) => {
    const id = await approvedIntent(test, b)
    const response = await test.request({ method: 'POST', url: `/v1/tenants/${b.owner.tenantId}/members/${b.signer.member.memberId}/deactivate`, token: b.owner.token })
    expect(response.statusCode, response.body).toBe(200)
    return id
  }],
  ['approvals_complete', 'the member who approved was deactivated', async (b) => {
    const id = await heldThenApproved(b)
    const response = await test.request({ method: 'POST', url: `/v1/tenants/${b.owner.tenantId}/members/${b.admin.memberId}/deactivate`, token: b.owner.token })
    expect(response.statusCode, response.body).toBe(200)
    return id
  }],
  ['approver_not_payee', 'the approver turned out to be the payee (their email is a key of the supplier)', async (b) => {
    const id = await heldThenApproved(b)
    await run(sql`insert into ledger_entity_keys (tenant_id, kind, key, entity_id, created_at) values (${b.owner.tenantId}, 'counterparty', ${`email:${b.admin.email.toLowerCase()}`}, ${b.supplier}, now())`)
    return id
  }],
  ['source_account_active', 'the source account was frozen', async (b) => {
    const id = await approvedIntent(test, b)
    await newLedgerVersion('ledger_accounts', b.owner.tenantId, b.account, { status: 'frozen' })
    return id
  }],
  ['currency_matches_account', 'the account of a EUR collection holds USD now', async (b) => {
    // A proposal in another currency than its account's is refused at once (payments.test.ts), so the account
    // changes after the approval. Money comes in, so checks 5 and 8 compare no balance (a payment out fails
    // them too: gate.test.ts).
    const id = await heldThenApproved(b, { action_type: 'ach_inbound' })
    await newLedgerVersion('ledger_accounts', b.owner.tenantId, b.account, { currency: 'USD' })
    return id
  }],
  ['counterparty_not_sanctioned', 'the supplier is sanctioned now', async (b) => {
    const id = await approvedIntent(test, b)
    await newLedgerVersion('ledger_counterparties', b.owner.tenantId, b.supplier, { risk_level: 'sanctioned' })
    return id
  }],
  ['ledger_snapshot_revalidated', 'the supplier became high risk, which the policy rejects', async (b) => {
    const id = await approvedIntent(test, b)
    await newLedgerVersion('ledger_counterparties', b.owner.tenantId, b.supplier, { risk_level: 'high' })
    return id
  }],
  ['ledger_snapshot_revalidated', 'the invoice it pays was paid in full since it was proposed', async (b) => {
    const invoiceId = await supplierInvoice(b, '40.00')
    const id = await approvedIntent(test, b, { invoice_id: invoiceId })
    await newLedgerVersion('ledger_invoices', b.owner.tenantId, invoiceId, { amount_paid: '40.00', status: 'paid' })
    return id
  }],
  ['ledger_snapshot_revalidated', 'the invoice it pays has less outstanding now than the payment', async (b) => {
    const invoiceId = await supplierInvoice(b, '40.00')
    const id = await approvedIntent(test, b, { invoice_id: invoiceId })
    await newLedgerVersion('ledger_invoices', b.owner.tenantId, invoiceId, { amount_paid: '20.00', status: 'partial' })
    return id
  }],
  ['reservation_net_balance', 'other intents reserved most of the balance', async (b) => {
    for (const amount of ['40.00', '35.00']) {
      const earlier = await approvedIntent(test, b, { amount })
      await test.runtime.settleAudit()
      expect((await test.request({ method: 'POST', url: `/v1/payment-intents/${earlier}/execute`, token: b.agent })).statusCode).toBe(202)
    }
    return approvedIntent(test, b, { amount: '45.00' })
  }],
  ['counterparty_verified', 'the payee is not verified', async (b) => approvedIntent(test, b, { destination_counterparty_id: b.unverified })],
  ['agent_active_and_scoped', "the proposing agent's token expired", async (b) => {
    const id = await approvedIntent(test, b)
    const proposer = (await getOk(test, b.owner.token, `/v1/payment-intents/${id}`)).created_by_agent_id as string
    await run(sql`update service_tokens set expires_at = now() - interval '1 second' where tenant_id = ${b.owner.tenantId} and id = ${proposer}`)
    // Executed by another (live) service token: the check is about the agent that proposed.
    b.agent = await mintServiceToken(test, b.owner.tenantId)
    return id
  }],
  ['amount_within_caps', "the approver's per-item limit was lowered below the amount", async (b) => {
    const id = await heldThenApproved(b)
    const response = await test.request({ method: 'PATCH', url: `/v1/tenants/${b.owner.tenantId}/members/${b.admin.memberId}`, token: b.owner.token, payload: { approval_limit: { currency: 'EUR', value: '10.00' } } })
    expect(response.statusCode, response.body).toBe(200)
    return id
  }],
  ['duplicate_payment_or_destination_recently_changed', "the supplier's IBAN changed since it was first seen", async (b) => {
    const id = await approvedIntent(test, b)
    await run(sql`insert into ledger_entity_keys (tenant_id, kind, key, entity_id, created_at) values (${b.owner.tenantId}, 'counterparty', 'iban:DE75512108001245126199', ${b.supplier}, now() + interval '1 second')`)
    return id
  }],
  ['session_key_valid', 'an on-chain transfer, and no session key is registered', async (b) => heldThenApproved(b, { action_type: 'onchain_transfer', amount: '30.00' })],
]

describe('each gate check, failing alone over HTTP', () => {
  it.each(cases)('%s: %s', async (name, _why, arrange) => {
    const b = { ...(await business(test)) }
    await test.runtime.settleAudit()
    const id = await arrange(b)
    await test.runtime.settleAudit()
    const before = (await getOk(test, b.owner.token, `/v1/payment-intents/${id}`)).status
    expect(before).toBe('approved')
    const response = await test.request({ method: 'POST', url: `/v1/payment-intents/${id}/execute`, token: b.agent })
    const details = expectError(response, 'payment_intent_gate_failed').details as Record<string, any>
    expect(details.failed_checks.map((check: { name: string }) => check.name)).toEqual([name])
    expect(details.failed_check.name).toBe(name)
    expect((await getOk(test, b.owner.token, `/v1/payment-intents/${id}`)).status).toBe('approved')
    const [outbox] = await queryRows<{ n: number }>(test.runtime.db.orm, sql`select count(*)::int as n from payment_outbox where tenant_id = ${b.owner.tenantId} and payment_intent_id = ${id}`)
    expect(outbox!.n).toBe(0)
  })
})

describe('audit_chain_healthy, failing alone over HTTP', () => {
  it('fails when an audit event has waited more than 300 s to be linked', async () => {
    const clock = fixedClock(new Date())
    const clocked = await createTestApp({ clock })
    try {
      const b = await businessIn(clocked)
      await clocked.runtime.settleAudit()
      const id = await approvedIntentIn(clocked, b)
      // The intent's audit events are recorded, not yet linked (no sequencer runs here); ten minutes pass.
      clock.advance(10 * 60 * 1000)
      const response = await clocked.request({ method: 'POST', url: `/v1/payment-intents/${id}/execute`, token: b.agent })
      const details = expectError(response, 'payment_intent_gate_failed').details as Record<string, any>
      expect(details.failed_checks.map((check: { name: string }) => check.name)).toEqual(['audit_chain_healthy'])
      expect(details.failed_check).toMatchObject({ index: 13, code: 'gate_audit_chain_stale' })
      expect((await getOk(clocked, b.owner.token, `/v1/payment-intents/${id}`)).status).toBe('approved')
    } finally {
      await clocked.close()
    }
  })
})
