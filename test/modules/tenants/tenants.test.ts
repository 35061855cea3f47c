import { Readable } from 'node:stream'
import { allTables } from '../../support/schema.ts'
import { getTableColumns, sql } from 'drizzle-orm'
import { PgTable } from 'drizzle-orm/pg-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../../../src/platform/db/database.ts'
import { tableName } from '../../../src/platform/db/tenant-data.ts'
import { tenantDataPlans } from '../../../src/main/compose.ts'

const tenantTablesInDeletionOrder = tenantDataPlans.flatMap((plan) => plan.deleted)
const preservedTenantTables = tenantDataPlans.flatMap((plan) => plan.preserved ?? [])
import { addMember, createTestApp, expectError, issueApiKey, signupOwner, testPassword, testPlatformSecret, testServiceTokenSecret, uniqueEmail, type TestApp } from '../../support/harness.ts'
import { auditActions, auditEvents } from '../../support/audit-log.ts'
import { bankTransaction, normalize, normalizerActor, seedArtifact } from '../../support/ledger.ts'

let test: TestApp
beforeAll(async () => {
  test = await createTestApp({ workers: true })
})
afterAll(async () => test?.close())

const platform = { 'x-platform-service-auth': testPlatformSecret }

describe('platform provisioning (POST /v1/tenants, POST /v1/orgs/{orgId}/tenants)', () => {
  it('creates a tenant with an invited owner who can accept and log in', async () => {
    const email = uniqueEmail('provisioned')
    const response = await test.request({ method: 'POST', url: '/v1/tenants', headers: platform, payload: { name: 'Acme Ltd', owner_email: email } })
    expect(response.statusCode, response.body).toBe(201)
    const body = response.json()
    expect(body.tenant).toMatchObject({ name: 'Acme Ltd', status: 'active', environment: 'sandbox', org_id: null, identity: null, rate_limit_tier: 'free' })
    expect(body.owner).toEqual({ user_id: expect.stringMatching(/^usr_/), member_id: expect.stringMatching(/^mem_/), invitation_token: expect.stringMatching(/^inv_/) })
    const accept = await test.request({ method: 'POST', url: '/v1/auth/accept-invitation', payload: { tenant_id: body.tenant.id, token: body.owner.invitation_token, password: testPassword } })
    expect(accept.statusCode, accept.body).toBe(200)
    const login = await test.request({ method: 'POST', url: '/v1/auth/login', payload: { email, password: testPassword } })
    expect(login.json().principal).toMatchObject({ tenantId: body.tenant.id, type: 'user' })
  })

  it('creates a tenant in an org without an owner', async () => {
    const response = await test.request({ method: 'POST', url: '/v1/orgs/org_42/tenants', headers: platform, payload: { name: 'Branch' } })
    expect(response.statusCode).toBe(201)
    expect(response.json()).toMatchObject({ tenant: { org_id: 'org_42' }, owner: null })
  })

  it('answers 409 tenant_identity_already_linked with the existing tenant id', async () => {
    const identity = { issuer: 'https://idp.example', subject: `acct_${Date.now()}` }
    const first = await test.request({ method: 'POST', url: '/v1/tenants', headers: platform, payload: { name: 'One', identity } })
    expect(first.statusCode).toBe(201)
    const existingId = first.json().tenant.id
    const again = await test.request({ method: 'POST', url: '/v1/orgs/org_7/tenants', headers: platform, payload: { name: 'Two', identity } })
    const error = expectError(again, 'tenant_identity_already_linked')
    expect(error.details).toEqual({ tenant_id: existingId })
    // The same subject under another issuer is another identity.
    expect((await test.request({ method: 'POST', url: '/v1/tenants', headers: platform, payload: { name: 'Three', identity: { ...identity, issuer: 'https://other.example' } } })).statusCode).toBe(201)
  })

  it('answers concurrent provisioning of one identity with one tenant and one 409', async () => {
    const identity = { issuer: 'https://idp.example', subject: `race_${Date.now()}` }
    const responses = await Promise.all(
      [1, 2, 3].map((index) => test.request({ method: 'POST', url: '/v1/tenants', headers: platform, payload: { name: `Race ${index}`, identity } })),
    )
    const created = responses.filter((response) => response.statusCode === 201)
    expect(created).toHaveLength(1)
    for (const response of responses.filter((candidate) => candidate.statusCode !== 201)) {
      expect(expectError(response, 'tenant_identity_already_linked').details).toEqual({ tenant_id: created[0]!.json().tenant.id })
    }
  })

  it('refuses bad bodies: unknown fields, empty names, an owner email already in use', async () => {
    expectError(await test.request({ method: 'POST', url: '/v1/tenants', headers: platform, payload: { name: 'X', plan: 'enterprise' } }), 'request_body_invalid')
    expectError(await test.request({ method: 'POST', url: '/v1/tenants', headers: platform, payload: { name: '' } }), 'request_body_invalid')
    expectError(await test.request({ method: 'POST', url: '/v1/orgs/bad org/tenants', headers: platform, payload: { name: 'X' } }), 'request_params_invalid')
    const owner = await signupOwner(test)
    expectError(await test.request({ method: 'POST', url: '/v1/tenants', headers: platform, payload: { name: 'X', owner_email: owner.email } }), 'signup_email_taken')
  })
})

describe('GET /v1/tenants/{tenant_id}', () => {
  it('returns the caller\'s tenant', async () => {
    const owner = await signupOwner(test)
    const response = await test.request({ method: 'GET', url: `/v1/tenants/${owner.tenantId}`, token: owner.token })
    expect(response.json()).toMatchObject({ id: owner.tenantId, name: 'Sandbox tenant', environment: 'sandbox' })
  })
})

describe('DELETE /v1/tenants/{tenant_id}', () => {
  it('removes every tenant-scoped row, reports counts per table, keeps the audit chain and purges blobs', async () => {
    const owner = await signupOwner(test)
    await addMember(test, owner, 'viewer')
    await issueApiKey(test, owner)
    // A statement's worth of Raw and Ledger: one transaction and one invoice (with its obligation).
    const { artifactId } = await seedArtifact(test, owner.tenantId, [
      bankTransaction({ amount: '-25.00', transaction_date: '2026-03-02', description: 'PAPER SUPPLY CO', counterparty: { name: 'Paper Supply Co' } }),
      { kind: 'invoice', direction: 'payable', invoice_number: 'PS-1', due_date: '2026-03-20', currency: 'EUR', total: '25', counterparty: { name: 'Paper Supply Co' } },
    ])
    await normalize(test, owner.tenantId, artifactId)
    await test.runtime.ledger.reconcile(owner.tenantId, { actor: normalizerActor })
    // Registered after the member events, so no delivery is due to it and the counts below are exact.
    expect((await test.request({ method: 'POST', url: '/v1/webhooks', token: owner.token, payload: { url: 'http://127.0.0.1:9/hook' } })).statusCode).toBe(201)
    expect((await test.request({ method: 'POST', url: '/v1/audit/export', token: owner.token, payload: { format: 'jsonl' } })).statusCode).toBe(202)
    const blobs = await test.runtime.blobs.put(owner.tenantId, Readable.from([Buffer.from('statement bytes')]), { bytesMax: 1024 })
    expect(blobs.bytes).toBe(15)
    const bystander = await signupOwner(test)
    // A halted catalog agent: the tenant's agent state row.
    expect((await test.request({ method: 'POST', url: '/v1/agents/bill_payment/halt', token: owner.token })).statusCode).toBe(200)
    // Memory pages: one per first-party agent (seven), whether the halt's own regeneration job made them first or this call does.
    expect((await test.request({ method: 'POST', url: '/v1/memory/regenerate', token: owner.token, payload: { page_types: ['agent'] } })).json()).toMatchObject({ pages: 7 })

    // A question record (the wiki module).
    expect((await test.request({ method: 'POST', url: '/v1/wiki/question', token: owner.token, payload: { question: 'How much did we spend in March 2026?' } })).statusCode).toBe(200)

    const response = await test.request({ method: 'DELETE', url: `/v1/tenants/${owner.tenantId}`, token: owner.token })
    expect(response.statusCode, response.body).toBe(200)
    const body = response.json()
    expect(body.tenantId).toBe(owner.tenantId)
    expect(body.deletedRows).toEqual({
      proposal_decisions: 0,
      governance_report_snapshots: 0,
      wiki_questions: 1,
      memory_pages: 7,
      agent_proposals: 0,
      agent_runs: 0,
      agent_routing_decisions: 0,
      agent_states: 1,
      agent_registrations: 0,
      execution_receipts: 0,
      executions: 0,
      sandbox_ach_transfers: 0,
      agent_promotions: 0,
      onchain_submissions: 0,
      onchain_accounts: 0,
      payment_reservations: 0,
      payment_outbox: 0,
      payment_gate_runs: 0,
      payment_approvals: 0,
      payment_policy_decisions: 0,
      payment_intents: 0,
      wiki_annotations: 0,
      wiki_search_embeddings: 0,
      ledger_reconciliation_matches: 1,
      ledger_transactions: 2, // the payment's first version and the one reconciliation marked matched
      ledger_balances: 0,
      ledger_obligations: 2, // open, then settled
      ledger_invoices: 2, // sent, then paid
      ledger_counterparties: 1,
      ledger_accounts: 1,
      ledger_entity_keys: 3, // account iban and name, counterparty name (a transaction's id derives from its only key)
      ledger_jobs: 0,
      raw_parsed_rows: 2,
      raw_artifacts: 1,
      provider_connections: 0,
      provider_accounts: 0,
      webhook_dead_letters: 0,
      webhook_deliveries: 0,
      webhook_endpoints: 1,
      idempotency_keys: 0,
      audit_exports: 1,
      verification_tokens: 2,
      api_key_digests: 1,
      api_keys: 1,
      service_tokens: 0,
      events: 6, // 3 member and key events, and ledger.counterparty.created, ledger.transaction.created, ledger.obligation.created
      policy_verdicts: 0,
      policy_signatures: 0,
      policies: 1, // the default policy
      tenant_wallets: 0,
      wallet_addresses: 0,
      members: 2,
      users: 2,
      login_emails: 2,
      tenants: 1,
    })
    expect(body.totalRows).toBe(44)

    for (const { table, tenantColumn } of tenantTablesInDeletionOrder) {
      const [row] = await queryRows<{ count: number }>(test.runtime.db.orm, sql`select count(*)::int as count from ${table} where ${tenantColumn} = ${owner.tenantId}`)
      expect(row!.count, tableName(table)).toBe(0)
    }
    // The audit chain survives, ending with the deletion record.
    const audit = await auditEvents(test, owner.tenantId)
    const deleted = audit.find((row) => row.action === 'tenant.deleted')
    expect(deleted?.outputs).toMatchObject({
      'deleted_rows.members': 2,
      total_rows: 44,
      preserved: ['audit_inbox', 'audit_events', 'audit_chain_heads', 'audit_anchors', 'audit_anchor_publications'],
    })
    expect(audit.map((row) => row.action)).toContain('tenant_blob.purge_requested')

    // The owner's token no longer works, and the tenant reads as missing.
    expectError(await test.request({ method: 'GET', url: `/v1/tenants/${owner.tenantId}`, token: owner.token }), 'auth_token_invalid')
    expectError(await test.request({ method: 'POST', url: '/v1/auth/login', payload: { email: owner.email, password: testPassword } }), 'auth_invalid_credentials')
    // Another tenant is untouched.
    expect((await test.request({ method: 'GET', url: `/v1/tenants/${bystander.tenantId}`, token: bystander.token })).statusCode).toBe(200)

    // The purge job runs (durably, after commit) and is audited.
    await expect.poll(async () => (await test.runtime.blobs.open(owner.tenantId, blobs.sha256)) === undefined, { timeout: 15_000, interval: 200 }).toBe(true)
    await expect
      .poll(async () => (await auditEvents(test, owner.tenantId, { action: 'tenant_blob.purge_completed' })).length, { timeout: 15_000, interval: 200 })
      .toBe(1)
    // The purge request cites the job that ran (its id is named before the runner enqueues it).
    const [requested] = await auditEvents(test, owner.tenantId, { action: 'tenant_blob.purge_requested' })
    const [completed] = await auditEvents(test, owner.tenantId, { action: 'tenant_blob.purge_completed' })
    expect(requested!.outputs.job_id).toEqual(expect.stringMatching(/^[0-9a-f-]{36}$/))
    expect(completed!.outputs.job_id).toBe(requested!.outputs.job_id)
    // The email can be used again.
    expect((await test.request({ method: 'POST', url: '/v1/signup', payload: { email: owner.email, password: testPassword } })).statusCode).toBe(201)
  })

  it('is for the owner only: admins, other members, API keys and service tokens get 403', async () => {
    const owner = await signupOwner(test)
    const admin = await addMember(test, owner, 'admin')
    const key = await issueApiKey(test, owner)
    const service = await test.request({
      method: 'POST',
      url: '/v1/auth/service-token',
      headers: { authorization: `Bearer ${testServiceTokenSecret}` },
      payload: { tenant_id: owner.tenantId, reason: 'test' },
    })
    const url = `/v1/tenants/${owner.tenantId}`
    expectError(await test.request({ method: 'DELETE', url, token: admin.token }), 'auth_scope_insufficient')
    expectError(await test.request({ method: 'DELETE', url, token: key.secret }), 'auth_scope_insufficient')
    expectError(await test.request({ method: 'DELETE', url, token: service.json().access_token }), 'auth_scope_insufficient')
    const other = await signupOwner(test)
    expectError(await test.request({ method: 'DELETE', url, token: other.token }), 'auth_tenant_mismatch')
    expect((await test.request({ method: 'GET', url, token: owner.token })).statusCode).toBe(200)
  })

  it('covers every tenant-scoped table of the schema: each is deleted or deliberately preserved', async () => {
    const listed = new Set([...tenantTablesInDeletionOrder.map(({ table }) => table), ...preservedTenantTables])
    const tables = await allTables()
    // Tenant-scoped tables, and the reference tables that map a global key to its tenant (docs/scaling.md).
    const tenantScoped = tables.filter((table) => 'tenantId' in getTableColumns(table) || 'ownerTenantId' in getTableColumns(table) || tableName(table) === 'tenants')
    expect(tenantScoped.filter((table) => !listed.has(table)).map(tableName)).toEqual([])
  })
})

describe('enqueueing a job inside a transaction', () => {
  it('works on a fresh database with no workers running (no deadlock on the one PGlite connection)', async () => {
    const fresh = await createTestApp({ workers: false })
    try {
      const owner = await signupOwner(fresh)
      const response = await fresh.request({ method: 'DELETE', url: `/v1/tenants/${owner.tenantId}`, token: owner.token })
      expect(response.statusCode, response.body).toBe(200)
    } finally {
      await fresh.close()
    }
  })
})

describe('the blob purge job', () => {
  it('retries a failed purge, recording purge_retried, then purge_completed', async () => {
    let failuresLeft = 1
    const flaky = await createTestApp({
      workers: true,
      wrapBlobs: (store) => ({
        ...store,
        async purgeTenant(tenantId) {
          if (failuresLeft > 0) {
            failuresLeft -= 1
            throw new Error('storage backend unavailable')
          }
          return store.purgeTenant(tenantId)
        },
      }),
    })
    try {
      const owner = await signupOwner(flaky)
      expect((await flaky.request({ method: 'DELETE', url: `/v1/tenants/${owner.tenantId}`, token: owner.token })).statusCode).toBe(200)
      const purgeActions = async () => (await auditActions(flaky, owner.tenantId)).filter((action) => action.startsWith('tenant_blob.'))
      await expect.poll(purgeActions, { timeout: 40_000, interval: 250 }).toEqual([
        'tenant_blob.purge_requested',
        'tenant_blob.purge_retried',
        'tenant_blob.purge_completed',
      ])
    } finally {
      await flaky.close()
    }
  }, 60_000)
})
