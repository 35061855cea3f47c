/**
 * The Policy routes around signing: the default policy of a new tenant, evaluate (audited, emitted),
 * lint, simulate, diff and simulate-historical against real stored Ledger data, the published content
 * schema, and tenant isolation on every route.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../../../src/platform/db/database.ts'
import { defaultPolicyContent, policyContentHash } from '../../../src/modules/policy/domain/index.ts'
import { auditActions, auditEvents } from '../../support/audit-log.ts'
import { addMember, createTestApp, expectError, issueApiKey, signupOwner, testPlatformSecret, testServiceTokenSecret, type TenantOwner, type TestApp } from '../../support/harness.ts'
import { bankTransaction, normalize, seedArtifact } from '../../support/ledger.ts'
import { addSigner, compose, samplePolicy, sign, signatureOf } from '../../support/policy.ts'

let test: TestApp
beforeAll(async () => {
  test = await createTestApp()
})
afterAll(async () => test?.close())

const post = (owner: Pick<TenantOwner, 'tenantId' | 'token'>, path: string, payload: object, token = owner.token) =>
  test.request({ method: 'POST', url: `/v1/policy/${owner.tenantId}/${path}`, token, payload })

/** A tenant whose version 2 (samplePolicy) is active, signed by one approver. */
async function tenantWithSamplePolicy(): Promise<{ owner: TenantOwner; policyId: string }> {
  const owner = await signupOwner(test)
  const signer = await addSigner(test, owner)
  const composed = await compose(test, owner, samplePolicy())
  const signed = await sign(test, owner, signer.member.token, composed.policy_id, [await signatureOf(signer, composed)])
  expect(signed.json().activated, signed.body).toBe(true)
  return { owner, policyId: composed.policy_id }
}

describe('the default policy', () => {
  it('is active for a new tenant (signup and platform provisioning): version 1, by system, unsigned, recorded in the provisioning event', async () => {
    const owner = await signupOwner(test)
    const response = await test.request({ method: 'GET', url: `/v1/policy/${owner.tenantId}`, token: owner.token })
    expect(response.statusCode, response.body).toBe(200)
    const policy = response.json()
    expect(policy).toMatchObject({
      id: expect.stringMatching(/^pol_/),
      version: 1,
      state: 'active',
      content: JSON.parse(JSON.stringify(defaultPolicyContent)),
      content_hash: policyContentHash(defaultPolicyContent),
      signers: [],
      quorum_required: 1,
      deactivated_at: null,
      created_by: 'system',
    })
    expect(policy.activated_at).toBe(policy.created_at)
    const [signedUp] = await auditEvents(test, owner.tenantId, { action: 'tenant.signed_up' })
    expect(signedUp!.outputs).toMatchObject({ default_policy_id: policy.id, default_policy_version: 1, default_policy_content_hash: policy.content_hash })

    const provisioned = await test.request({ method: 'POST', url: '/v1/tenants', headers: { 'x-platform-service-auth': testPlatformSecret }, payload: { name: 'Platform tenant' } })
    expect(provisioned.statusCode, provisioned.body).toBe(201)
    const tenantId = provisioned.json().tenant.id
    const rows = await queryRows<{ version: number; state: string; created_by: string }>(test.runtime.db.orm, sql`select version, state, created_by from policies where tenant_id = ${tenantId}`)
    expect(rows).toEqual([{ version: 1, state: 'active', created_by: 'system' }])
  })

  it('never lets money through without a signer and allows non-money actions', async () => {
    const owner = await signupOwner(test)
    const evaluate = async (action: Record<string, unknown>) => {
      const response = await post(owner, 'evaluate', { action })
      expect(response.statusCode, response.body).toBe(200)
      return response.json()
    }
    for (const kind of ['outbound_payment', 'onchain_tx']) {
      const decision = await evaluate({ kind, amount: { currency: 'USD', value: '10.00' }, counterparty_id: 'cpy_1' })
      expect(decision).toMatchObject({ outcome: 'confirm', matched_rule_id: 'money_needs_signer', required_approvers: ['signer'], covered_by_autonomous_cap: false, policy_version: 1 })
    }
    for (const kind of ['inbound_payment', 'ledger_write', 'agent_action']) {
      expect(await evaluate({ kind })).toMatchObject({ outcome: 'allow', matched_rule_id: 'non_money_auto', required_approvers: [], covered_by_autonomous_cap: false })
    }
  })

  it('is given at start-up to tenants that have none (the backfill), once', async () => {
    const owner = await signupOwner(test)
    await test.runtime.db.orm.execute(sql`delete from policies where tenant_id = ${owner.tenantId}`)
    expectError(await test.request({ method: 'GET', url: `/v1/policy/${owner.tenantId}`, token: owner.token }), 'policy_not_found')
    expect(await test.runtime.policy.defaultPolicy.backfill()).toBeGreaterThanOrEqual(1)
    expect(await test.runtime.policy.defaultPolicy.backfill()).toBe(0)
    expect((await test.request({ method: 'GET', url: `/v1/policy/${owner.tenantId}`, token: owner.token })).json()).toMatchObject({ version: 1, state: 'active', created_by: 'system' })
    expect(await auditActions(test, owner.tenantId, { layer: 'policy' })).toEqual(['policy.default_activated'])
  })
})

describe('POST /v1/policy/{tenant_id}/evaluate', () => {
  it('evaluates against the active policy, records a policy.evaluate audit event with hashes only, and emits the webhook event in the same transaction', async () => {
    const { owner, policyId } = await tenantWithSamplePolicy()
    const viewer = await addMember(test, owner, 'viewer')
    // [action, outcome, matched rule, covered by the matched rule's autonomous cap]
    const cases: Array<[Record<string, unknown>, string, string | null, boolean]> = [
      [{ kind: 'outbound_payment', amount: { currency: 'EUR', value: '20.00' }, counterparty_id: 'cpy_paper' }, 'allow', 'small-payments', true],
      [{ kind: 'outbound_payment', amount: { currency: 'EUR', value: '5000' } }, 'reject', 'large-payments', false],
      [{ kind: 'outbound_payment', amount: { currency: 'USD', value: '20.00' } }, 'confirm', 'other-payments', false],
      [{ kind: 'ledger_write', timestamp: '2026-03-01T10:00:00Z', agent_role: 'collections' }, 'allow', 'non-money', false],
    ]
    for (const [action, outcome, rule, covered] of cases) {
      const response = await post(owner, 'evaluate', { action }, viewer.token)
      expect(response.statusCode, response.body).toBe(200)
      const body = response.json()
      expect(body, JSON.stringify(action)).toMatchObject({ outcome, matched_rule_id: rule, covered_by_autonomous_cap: covered, policy_id: policyId, policy_version: 2 })
      expect(body.trace.length).toBeGreaterThan(0)
      expect(body.trace[0]).toEqual({ rule_id: expect.any(String), matched: expect.any(Boolean), checks: expect.any(Array) })
    }
    const audit = await auditEvents(test, owner.tenantId, { action: 'policy.evaluate' })
    expect(audit).toHaveLength(4)
    expect(audit[0]).toMatchObject({ layer: 'policy', actor_id: viewer.userId, entity_id: policyId, outputs: { outcome: 'allow', matched_rule_id: 'small-payments', policy_version: 2 } })
    expect(Object.keys(audit[0]!.inputs).sort()).toEqual(['action_hash', 'kind'])
    expect(audit[0]!.inputs.action_hash).toMatch(/^sha256:[0-9a-f]{64}$/)
    expect(JSON.stringify(audit)).not.toContain('cpy_paper')
    const events = await queryRows<{ event_type: string; audit_event_id: string; payload: Record<string, unknown> }>(
      test.runtime.db.orm,
      sql`select event_type, audit_event_id, payload from events where tenant_id = ${owner.tenantId} and event_type = 'policy.evaluate' order by id`,
    )
    expect(events.map((event) => event.audit_event_id)).toEqual(audit.map((event) => event.id))
    expect(events[0]!.payload).toMatchObject({ policy_id: policyId, policy_version: 2, outcome: 'allow', matched_rule_id: 'small-payments', action_hash: audit[0]!.inputs.action_hash })
  })

  it('accepts only the five action fields, and is open to policy:read holders', async () => {
    const owner = await signupOwner(test)
    for (const action of [
      { kind: 'outbound_payment', confidence: 0.9 },
      { kind: 'outbound_payment', agent_id: 'agt_1' },
      { kind: 'any' },
      { kind: 'outbound_payment', amount: { currency: 'EUR', value: '-5' } },
      { kind: 'outbound_payment', amount: { currency: 'EUR', value: 5 } },
      {},
    ]) {
      expectError(await post(owner, 'evaluate', { action }), 'request_body_invalid')
    }
    expectError(await post(owner, 'evaluate', { action: { kind: 'ledger_write' }, extra: true }), 'request_body_invalid')
    // More fraction digits than the currency has: refused, not evaluated as an amount that fails every check (and nothing audited).
    const before = (await auditEvents(test, owner.tenantId, { action: 'policy.evaluate' })).length
    const overPrecise = expectError(await post(owner, 'evaluate', { action: { kind: 'outbound_payment', amount: { currency: 'USD', value: '50000.001' } } }), 'validation_failed')
    expect(overPrecise.details).toEqual({ issues: [{ path: '/action/amount/value', message: 'USD has 2 fraction digits; 50000.001 has 3.' }] })
    expect(await auditEvents(test, owner.tenantId, { action: 'policy.evaluate' })).toHaveLength(before)
    // A currency outside the table keeps the evaluator's rule (no rule in another currency holds for it).
    expect((await post(owner, 'evaluate', { action: { kind: 'outbound_payment', amount: { currency: 'ZZZ', value: '1.12345' } } })).statusCode).toBe(200)
    const service = await test.request({ method: 'POST', url: '/v1/auth/service-token', headers: { authorization: `Bearer ${testServiceTokenSecret}` }, payload: { tenant_id: owner.tenantId, reason: 'policy test' } })
    expect((await post(owner, 'evaluate', { action: { kind: 'ledger_write' } }, service.json().access_token)).statusCode).toBe(200)
    const key = await issueApiKey(test, owner)
    expectError(await post(owner, 'evaluate', { action: { kind: 'ledger_write' } }, key.secret), 'auth_scope_insufficient')
  })
})

describe('a confirm rule\'s approvals: distinct approvers', () => {
  const eur = (value: string) => ({ currency: 'EUR', value })
  const twoApprovers = {
    version: 7,
    rules: [
      { id: 'large-payments', applies_to: ['outbound_payment'], when: { 'amount.gt': eur('1000') }, require: 'finance', approvals: 2, execute: 'confirm' },
      { id: 'other-payments', applies_to: ['outbound_payment', 'onchain_tx'], when: {}, approvals: 2, execute: 'confirm' },
      { id: 'non-money', applies_to: ['inbound_payment', 'ledger_write', 'agent_action'], when: {}, execute: 'auto' },
    ],
  }

  it('asks the label once per approval once the policy is signed, in the answer, the audit event and the webhook event', async () => {
    const owner = await signupOwner(test)
    const signer = await addSigner(test, owner)
    const composed = await compose(test, owner, twoApprovers)
    expect(composed.warnings).toEqual([])
    const signed = await sign(test, owner, signer.member.token, composed.policy_id, [await signatureOf(signer, composed)])
    expect(signed.json().activated, signed.body).toBe(true)
    // [action, matched rule, required approvers]
    const cases: Array<[Record<string, unknown>, string | null, string[]]> = [
      [{ kind: 'outbound_payment', amount: eur('5000') }, 'large-payments', ['finance', 'finance']],
      [{ kind: 'outbound_payment', amount: eur('20') }, 'other-payments', ['signer', 'signer']],
      [{ kind: 'agent_action', agent_role: 'collections' }, 'non-money', []],
    ]
    for (const [action, rule, approvers] of cases) {
      const response = await post(owner, 'evaluate', { action })
      expect(response.statusCode, response.body).toBe(200)
      expect(response.json(), JSON.stringify(action)).toMatchObject({ outcome: approvers.length > 0 ? 'confirm' : 'allow', matched_rule_id: rule, policy_id: composed.policy_id, policy_version: 2 })
      expect(response.json().required_approvers).toEqual(approvers)
    }
    const audit = await auditEvents(test, owner.tenantId, { action: 'policy.evaluate' })
    expect(audit.map((event) => event.outputs.required_approvers)).toEqual(cases.map(([, , approvers]) => approvers))
    const events = await queryRows<{ payload: { required_approvers: string[] } }>(
      test.runtime.db.orm,
      sql`select payload from events where tenant_id = ${owner.tenantId} and event_type = 'policy.evaluate' order by id`,
    )
    expect(events.map((event) => event.payload.required_approvers)).toEqual(cases.map(([, , approvers]) => approvers))
    // Simulate against the stored version answers the same.
    const simulated = await post(owner, 'simulate', { action: { kind: 'onchain_tx' }, version: 2 })
    expect(simulated.json().decision).toMatchObject({ outcome: 'confirm', matched_rule_id: 'other-payments', required_approvers: ['signer', 'signer'] })
  })

  it('refuses approvals on an auto rule as compose refuses a cap on a confirm rule, and out-of-range approvals by the schema', async () => {
    const owner = await signupOwner(test)
    const url = `/v1/policy/${owner.tenantId}/compose`
    const refuse = async (content: unknown) => expectError(await test.request({ method: 'POST', url, token: owner.token, payload: { content } }), 'request_body_invalid')
    const withRule = (index: number, extra: Record<string, unknown>) => ({ ...twoApprovers, rules: twoApprovers.rules.map((rule, at) => (at === index ? { ...rule, ...extra } : rule)) })

    const approvalsOnAuto = await refuse(withRule(2, { approvals: 2 }))
    const capOnConfirm = await refuse(withRule(1, { autonomous_cap: eur('50') }))
    expect(approvalsOnAuto.message).toBe(capOnConfirm.message)
    expect(approvalsOnAuto.details).toEqual({
      issues: [{ path: '/content/rules/2/approvals', message: 'approvals is allowed only on a confirm rule; this rule executes auto', keyword: 'approvals_on_non_confirm' }],
    })
    expect(capOnConfirm.details).toEqual({
      issues: [{ path: '/content/rules/1/autonomous_cap', message: 'autonomous_cap is allowed only on an auto rule; this rule executes confirm', keyword: 'cap_on_non_auto' }],
    })
    expect((await refuse(withRule(1, { execute: 'reject' }))).details).toMatchObject({ issues: [expect.objectContaining({ path: '/content/rules/1/approvals', keyword: 'approvals_on_non_confirm' })] })
    for (const approvals of [0, 6, 1.5, '2']) {
      const refused = await refuse(withRule(0, { approvals }))
      expect(JSON.stringify(refused.details), String(approvals)).toContain('approvals')
    }
    // Nothing was stored by the refusals: the default policy is still the only version.
    const versions = await test.request({ method: 'GET', url: `/v1/policy/${owner.tenantId}/versions`, token: owner.token })
    expect(versions.json().versions.map((row: { version: number }) => row.version)).toEqual([1])
  })
})

describe('lint, simulate and diff', () => {
  it('lints any content without refusing it, counting errors and warnings', async () => {
    const owner = await signupOwner(test)
    const clean = (await post(owner, 'lint', { policy_content: samplePolicy() })).json()
    expect(clean).toMatchObject({ tenant_id: owner.tenantId, errors: 0 })
    const flawed = {
      version: 1,
      rules: [
        { id: 'everything', applies_to: ['any'], when: {}, execute: 'confirm' },
        { id: 'shadowed', applies_to: ['outbound_payment'], when: { 'amount.lt': { currency: 'EUR', value: '5' } }, execute: 'auto' },
        { id: 'listed', applies_to: ['outbound_payment'], when: { 'counterparty.in': 'nowhere' }, execute: 'auto' },
      ],
    }
    const response = await post(owner, 'lint', { policy_content: flawed })
    expect(response.statusCode, response.body).toBe(200)
    const body = response.json()
    expect(body.errors).toBeGreaterThan(0)
    expect(body.errors + body.warnings).toBeLessThanOrEqual(body.findings.length)
    expect(body.errors).toBe(body.findings.filter((finding: { severity: string }) => finding.severity === 'error').length)
    for (const finding of body.findings) expect(Object.keys(finding).sort()).toEqual(['code', 'message', 'rule_id', 'severity'])
    const notAnObject = (await post(owner, 'lint', { policy_content: 'rules' })).json()
    expect(notAnObject.errors).toBeGreaterThan(0)
    expectError(await post(owner, 'lint', {}), 'request_body_invalid')
  })

  it('simulates an action against any stored version, gate-populated fields included; 404 for an unknown version', async () => {
    const owner = await signupOwner(test)
    const composed = await compose(test, owner, samplePolicy())
    const small = { kind: 'outbound_payment', amount: { currency: 'EUR', value: '10' } }
    const pending = (await post(owner, 'simulate', { action: small, version: composed.version })).json()
    expect(pending).toMatchObject({ policy_version: 2, decision: { outcome: 'allow', matched_rule_id: 'small-payments', covered_by_autonomous_cap: true } })
    expect(pending.decision.trace.at(-1)).toEqual({ rule_id: '[autonomous_cap]', matched: true, checks: [{ key: 'autonomous_cap', passed: true, detail: '10 EUR ≤ cap 50 EUR' }] })
    expect((await post(owner, 'simulate', { action: small, version: 1 })).json()).toMatchObject({
      policy_version: 1,
      decision: { outcome: 'confirm', matched_rule_id: 'money_needs_signer', covered_by_autonomous_cap: false },
    })
    // The default policy's confidence floor only shows when confidence is populated, as in the gate.
    const lowConfidence = (await post(owner, 'simulate', { action: { ...small, confidence: 0.3 }, version: 1 })).json()
    expect(lowConfidence.decision).toMatchObject({ outcome: 'reject', matched_rule_id: 'money_below_confidence_floor' })
    expectError(await post(owner, 'simulate', { action: small, version: 3 }), 'policy_not_found')
    expectError(await post(owner, 'simulate', { action: small }), 'request_body_invalid')
    expectError(await post(owner, 'simulate', { action: { ...small, unknown: 1 }, version: 1 }), 'request_body_invalid')
    expectError(await post(owner, 'simulate', { action: { ...small, spend_in_window: { currency: 'JPY', value: '10.5' } }, version: 1 }), 'validation_failed')
  })

  it('allows a matched auto on money whatever its cap, and reports whether the matched rule\'s cap covers it (the floor is the gate\'s)', async () => {
    const owner = await signupOwner(test)
    const content = {
      version: 1,
      rules: [
        { id: 'uncapped', applies_to: ['onchain_tx'], when: {}, execute: 'auto' },
        { id: 'capped', applies_to: ['outbound_payment'], when: { 'amount.lte': { currency: 'USD', value: '1000' } }, execute: 'auto', autonomous_cap: { currency: 'USD', value: '100.00' } },
      ],
    }
    const composed = await compose(test, owner, content)
    expect(composed.warnings).toContainEqual(expect.objectContaining({ code: 'money_auto_without_cap', severity: 'warning', rule_id: 'uncapped' }))
    const simulate = async (action: Record<string, unknown>) => {
      const response = await post(owner, 'simulate', { action, version: composed.version })
      expect(response.statusCode, response.body).toBe(200)
      return response.json().decision as { outcome: string; covered_by_autonomous_cap: boolean; trace: Array<{ rule_id: string; matched: boolean; checks: Array<{ detail: string }> }> }
    }
    const cases: Array<[Record<string, unknown>, boolean, string]> = [
      [{ kind: 'onchain_tx', amount: { currency: 'USDC', value: '1' } }, false, "no cap on the matched rule: the gate's human-approval floor applies"],
      [{ kind: 'outbound_payment', amount: { currency: 'USD', value: '12.00' } }, true, '12.00 USD ≤ cap 100.00 USD'],
      [{ kind: 'outbound_payment', amount: { currency: 'USD', value: '100.01' } }, false, '100.01 USD > cap 100.00 USD'],
      [{ kind: 'outbound_payment', amount: { currency: 'USD', value: '5' }, action_type: 'escrow_release' }, false, "the gate's human-approval floor always applies to escrow_release: no autonomous cap lifts it"],
    ]
    for (const [action, covered, detail] of cases) {
      const decision = await simulate(action)
      expect(decision, JSON.stringify(action)).toMatchObject({ outcome: 'allow', covered_by_autonomous_cap: covered })
      expect(decision.trace.at(-1)).toMatchObject({ rule_id: '[autonomous_cap]', matched: covered, checks: [{ detail }] })
    }
  })

  it('diffs two stored versions rule by rule; 404 for an unknown version', async () => {
    const owner = await signupOwner(test)
    const base = samplePolicy()
    await compose(test, owner, base)
    const changed = {
      ...base,
      rules: [
        { ...base.rules[0]!, when: { 'amount.lte': { currency: 'EUR', value: '25' } }, autonomous_cap: { currency: 'EUR', value: '25' } },
        base.rules[1]!,
        { id: 'new-rule', applies_to: ['onchain_tx'], when: {}, execute: 'reject' },
        base.rules[3]!,
      ],
    }
    await compose(test, owner, changed)
    const response = await post(owner, 'diff', { from_version: 2, to_version: 3 })
    expect(response.statusCode, response.body).toBe(200)
    const diff = response.json()
    expect(diff.from_version).toBe(2)
    expect(diff.to_version).toBe(3)
    expect(diff.added).toEqual([expect.objectContaining({ id: 'new-rule' })])
    expect(diff.removed).toEqual([expect.objectContaining({ id: 'other-payments' })])
    expect(diff.modified).toContainEqual(expect.objectContaining({ rule_id: 'small-payments', field: expect.stringContaining('when') }))
    expect(diff.modified).toContainEqual({ rule_id: 'small-payments', field: 'autonomous_cap', before: { currency: 'EUR', value: '50' }, after: { currency: 'EUR', value: '25' } })
    const same = (await post(owner, 'diff', { from_version: 2, to_version: 2 })).json()
    expect(same).toMatchObject({ added: [], removed: [], modified: [] })
    expectError(await post(owner, 'diff', { from_version: 2, to_version: 9 }), 'policy_not_found')
    expectError(await post(owner, 'diff', { from_version: 0, to_version: 2 }), 'request_body_invalid')
  })
})

describe('POST /v1/policy/{tenant_id}/simulate-historical', () => {
  async function tenantWithOutflows() {
    const owner = await signupOwner(test)
    const { artifactId } = await seedArtifact(test, owner.tenantId, [
      bankTransaction({ amount: '-25.00', transaction_date: '2026-03-02', description: 'PAPER SUPPLY CO', counterparty: { name: 'Paper Supply Co' } }),
      bankTransaction({ amount: '-500.00', transaction_date: '2026-03-05', description: 'ROASTERY EQUIPMENT', counterparty: { name: 'Roastery Equipment' } }),
      bankTransaction({ amount: '-2000.00', transaction_date: '2026-03-09', description: 'GREEN BEANS IMPORT', counterparty: { name: 'Green Beans Import' } }),
      bankTransaction({ amount: '300.00', transaction_date: '2026-03-10', description: 'CAFE CUSTOMER', counterparty: { name: 'Cafe Customer' } }),
      bankTransaction({ amount: '-10.00', transaction_date: '2026-04-20', description: 'LATER PAPER', counterparty: { name: 'Paper Supply Co' } }),
    ])
    await normalize(test, owner.tenantId, artifactId)
    const transactions = await queryRows<{ id: string; amount: string; counterparty_id: string }>(
      test.runtime.db.orm,
      sql`select id, amount::text as amount, counterparty_id from ledger_transactions where tenant_id = ${owner.tenantId} and superseded_at is null`,
    )
    const byAmount = (amount: string) => transactions.find((row) => Number(row.amount) === Number(amount))!
    return { owner, byAmount }
  }

  it('replays the period\'s Ledger outflows through the candidate and the active policy', async () => {
    const { owner, byAmount } = await tenantWithOutflows()
    const response = await post(owner, 'simulate-historical', { policy_content: samplePolicy(), period_start: '2026-03-01', period_end: '2026-03-31T23:59:59Z' })
    expect(response.statusCode, response.body).toBe(200)
    const body = response.json()
    expect(body).toMatchObject({
      total: 3,
      would_allow: 1,
      would_confirm: 1,
      would_reject: 1,
      source: 'ledger_outflows',
      active_policy_version: 1,
      period_start: '2026-03-01',
      period_end: '2026-03-31',
      truncated: false,
    })
    const small = byAmount('-25')
    const large = byAmount('-2000')
    expect(body.diff_vs_active).toEqual({
      newly_allowed: [
        {
          transaction_id: small.id,
          transaction_date: '2026-03-02',
          amount: { currency: 'EUR', value: '25.00' },
          counterparty_id: small.counterparty_id,
          before: 'confirm',
          after: 'allow',
          matched_rule_before: 'money_needs_signer',
          matched_rule_after: 'small-payments',
        },
      ],
      newly_rejected: [expect.objectContaining({ transaction_id: large.id, amount: { currency: 'EUR', value: '2000.00' }, before: 'confirm', after: 'reject', matched_rule_after: 'large-payments' })],
      changed_other: [],
      unchanged: 1,
      items_truncated: false,
    })

    // Against the candidate itself once active, nothing changes.
    const signer = await addSigner(test, owner)
    const composed = await compose(test, owner, samplePolicy())
    await sign(test, owner, signer.member.token, composed.policy_id, [await signatureOf(signer, composed)])
    const again = (await post(owner, 'simulate-historical', { policy_content: samplePolicy(), period_start: '2026-03-01', period_end: '2026-04-30' })).json()
    expect(again).toMatchObject({ total: 4, would_allow: 2, active_policy_version: 2, diff_vs_active: { newly_allowed: [], newly_rejected: [], changed_other: [], unchanged: 4 } })
    // A stricter candidate moves the allowed ones to confirm: changed_other.
    const strict = { version: 9, rules: [{ id: 'all-money', applies_to: ['outbound_payment'], when: {}, execute: 'confirm' }] }
    const stricter = (await post(owner, 'simulate-historical', { policy_content: strict, period_start: '2026-03-01', period_end: '2026-04-30' })).json()
    expect(stricter).toMatchObject({ total: 4, would_confirm: 4 })
    expect(stricter.diff_vs_active.changed_other.map((item: { before: string; after: string }) => `${item.before}->${item.after}`).sort()).toEqual(['allow->confirm', 'allow->confirm', 'reject->confirm'])
  })

  it('validates the period and the content, and sees only the caller\'s Ledger', async () => {
    const { owner } = await tenantWithOutflows()
    const body = (start: string, end: string, content: unknown = samplePolicy()) => ({ policy_content: content, period_start: start, period_end: end })
    const reversed = expectError(await post(owner, 'simulate-historical', body('2026-03-31', '2026-03-01')), 'request_body_invalid')
    expect(reversed.details?.issues).toEqual([expect.objectContaining({ path: '/period_end' })])
    expectError(await post(owner, 'simulate-historical', body('2025-01-01', '2026-03-01')), 'request_body_invalid')
    expect((await post(owner, 'simulate-historical', body('2025-03-01', '2026-03-01'))).statusCode).toBe(200) // 365 days
    expectError(await post(owner, 'simulate-historical', body('2026-02-30', '2026-03-01')), 'request_body_invalid')
    expectError(await post(owner, 'simulate-historical', body('March 1', '2026-03-01')), 'request_body_invalid')
    const content = expectError(await post(owner, 'simulate-historical', body('2026-03-01', '2026-03-31', { version: 1, rules: [{ id: 'x' }] })), 'request_body_invalid')
    expect(JSON.stringify(content.details?.issues)).toContain('/policy_content/rules/0')

    const other = await signupOwner(test)
    const foreign = (await post(other, 'simulate-historical', body('2026-03-01', '2026-03-31'))).json()
    expect(foreign).toMatchObject({ total: 0, would_allow: 0, diff_vs_active: { unchanged: 0 } })
    // It lists Ledger transactions: it needs ledger:read as well as policy:read.
    const reader = await addMember(test, owner, 'viewer')
    expect((await post(owner, 'simulate-historical', body('2026-03-01', '2026-03-31'), reader.token)).statusCode).toBe(200)
  })
})

describe('the published content schema and tenant isolation', () => {
  it('serves the policy content JSON Schema publicly, with its address as $id', async () => {
    const response = await test.request({ method: 'GET', url: '/v1/schemas/policy-content.json' })
    expect(response.statusCode).toBe(200)
    const schema = response.json()
    expect(schema).toMatchObject({ $id: 'http://steward.test/v1/schemas/policy-content.json', type: 'object', required: expect.arrayContaining(['version', 'rules']) })
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['version', 'rules', 'lists', 'agent_actions']))
  })

  it('answers 403 for another tenant\'s path on every policy route, and 404 for the active policy of none', async () => {
    const owner = await signupOwner(test)
    const other = await signupOwner(test)
    const action = { kind: 'ledger_write' }
    const routes: Array<[string, string, object | undefined]> = [
      ['GET', '', undefined],
      ['GET', '/versions', undefined],
      ['POST', '/compose', { content: samplePolicy() }],
      ['POST', '/evaluate', { action }],
      ['POST', '/lint', { policy_content: samplePolicy() }],
      ['POST', '/simulate', { action, version: 1 }],
      ['POST', '/simulate-historical', { policy_content: samplePolicy(), period_start: '2026-01-01', period_end: '2026-01-31' }],
      ['POST', '/diff', { from_version: 1, to_version: 1 }],
    ]
    for (const [method, path, payload] of routes) {
      const response = await test.request({ method: method as 'GET', url: `/v1/policy/${owner.tenantId}${path}`, token: other.token, ...(payload === undefined ? {} : { payload }) })
      expect(response.json().error?.code, `${method} ${path}`).toBe('auth_tenant_mismatch')
    }
    // The guard compares the path with the token's tenant before the path is even validated.
    expectError(await test.request({ method: 'GET', url: '/v1/policy/not-a-uuid', token: owner.token }), 'auth_tenant_mismatch')
    // Version 2 exists only in the owner's tenant: the other tenant cannot simulate or diff it.
    await compose(test, owner, samplePolicy())
    expectError(await post(other, 'simulate', { action, version: 2 }), 'policy_not_found')
    expectError(await post(other, 'diff', { from_version: 1, to_version: 2 }), 'policy_not_found')
    // A tenant whose active policy is gone reads 404, and evaluate records nothing.
    await test.runtime.db.orm.execute(sql`update policies set state = 'superseded', deactivated_at = activated_at where tenant_id = ${other.tenantId}`)
    expectError(await test.request({ method: 'GET', url: `/v1/policy/${other.tenantId}`, token: other.token }), 'policy_not_found')
    expectError(await post(other, 'evaluate', { action }), 'policy_not_found')
    expect(await auditEvents(test, other.tenantId, { action: 'policy.evaluate' })).toEqual([])
  })
})
