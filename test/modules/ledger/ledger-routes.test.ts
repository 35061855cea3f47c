/**
 * Ledger routes: filters, cursors and limits; 404s; synchronous normalization; counterparty trust
 * transitions; the job route; the automatic normalize → reconcile chain through the job queue.
 */
import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../../../src/platform/db/database.ts'
import { ledgerJobs } from '../../../src/modules/ledger/ledger.tables.ts'
import { deterministicId } from '../../../src/kernel/ids.ts'
import { auditActions } from '../../support/audit-log.ts'
import {
  addMember,
  createTestApp,
  expectError,
  issueApiKey,
  signupOwner,
  testServiceTokenSecret,
  type JoinedMember,
  type TenantOwner,
  type TestApp,
} from '../../support/harness.ts'
import { bankTransaction, getOk, normalize, seedArtifact } from '../../support/ledger.ts'
import { ledgerNormalizeQueue } from '../../../src/modules/ledger/ledger.jobs.ts'

let test: TestApp
beforeAll(async () => {
  test = await createTestApp({ workers: true })
})
afterAll(async () => test?.close())

const get = (token: string, url: string) => test.request({ method: 'GET', url, token })
const ok = (token: string, url: string) => getOk(test, token, url)

/** A tenant with 12 transactions on two accounts over March, normalized. */
async function tenantWithTransactions(): Promise<{ owner: TenantOwner; admin: JoinedMember; rowIds: string[] }> {
  const owner = await signupOwner(test)
  const admin = await addMember(test, owner, 'admin')
  const savings = { iban: 'FR7630006000011234567890189', name: 'Savings', currency: 'EUR' }
  const records = Array.from({ length: 12 }, (_, index) =>
    bankTransaction({
      ...(index % 3 === 0 ? { account: savings } : {}),
      amount: index % 2 === 0 ? `-${10 + index}.00` : `${100 + index}.00`,
      transaction_date: `2026-03-${String(1 + index).padStart(2, '0')}`,
      description: `ROW ${index}`,
      ...(index === 11 ? { status: 'pending' as const } : {}),
    }),
  )
  const { artifactId, rowIds } = await seedArtifact(test, owner.tenantId, records)
  await normalize(test, owner.tenantId, artifactId)
  return { owner, admin, rowIds }
}

describe('GET /v1/ledger/transactions', () => {
  it('pages newest first with a cursor bound to its filters, and applies every filter', async () => {
    const { owner } = await tenantWithTransactions()
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const page: { transactions: Array<{ transaction_date: string }>; next_cursor: string | null } = await ok(
        owner.token,
        `/v1/ledger/transactions?limit=5${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
      )
      seen.push(...page.transactions.map((row) => row.transaction_date))
      cursor = page.next_cursor
    } while (cursor !== null)
    expect(seen).toEqual(Array.from({ length: 12 }, (_, index) => `2026-03-${String(12 - index).padStart(2, '0')}`))

    const first = await ok(owner.token, '/v1/ledger/transactions?limit=5')
    expectError(await get(owner.token, `/v1/ledger/transactions?limit=5&direction=inflow&cursor=${encodeURIComponent(first.next_cursor)}`), 'invalid_cursor')
    expect((await ok(owner.token, '/v1/ledger/transactions')).transactions).toHaveLength(12) // default 100

    const accounts = (await ok(owner.token, '/v1/ledger/accounts')).accounts as Array<{ id: string; name: string }>
    const savings = accounts.find((row) => row.name === 'Savings')!
    expect((await ok(owner.token, `/v1/ledger/transactions?account_id=${savings.id}`)).transactions).toHaveLength(4)
    expect((await ok(owner.token, '/v1/ledger/transactions?direction=inflow')).transactions).toHaveLength(6)
    expect((await ok(owner.token, '/v1/ledger/transactions?status=pending')).transactions).toHaveLength(1)
    const window = (await ok(owner.token, '/v1/ledger/transactions?since=2026-03-03&until=2026-03-05T23:00:00Z')).transactions as Array<{ transaction_date: string }>
    expect(window.map((row) => row.transaction_date)).toEqual(['2026-03-05', '2026-03-04', '2026-03-03'])
    const [one] = (await ok(owner.token, '/v1/ledger/transactions?limit=1')).transactions
    expect((await ok(owner.token, `/v1/ledger/transactions?counterparty_id=${one.counterparty_id}`)).transactions.map((row: { id: string }) => row.id)).toContain(one.id)
  })

  it('refuses limits beyond the spec and malformed filters with 400', async () => {
    const owner = await signupOwner(test)
    for (const url of [
      '/v1/ledger/transactions?limit=1001',
      '/v1/ledger/transactions?limit=0',
      '/v1/ledger/transactions?direction=sideways',
      '/v1/ledger/transactions?since=yesterday',
      '/v1/ledger/transactions?as_of=not-a-time',
      '/v1/ledger/accounts?limit=501',
      '/v1/ledger/counterparties?limit=501',
      '/v1/ledger/obligations?scenario=xx',
      '/v1/ledger/invoices?direction=both',
      '/v1/ledger/reconciliation-matches?subject=txn_1',
    ]) {
      expectError(await get(owner.token, url), 'request_params_invalid')
    }
    expect((await ok(owner.token, '/v1/ledger/transactions?limit=1000')).transactions).toEqual([])
    expect((await ok(owner.token, '/v1/ledger/accounts?limit=500')).accounts).toEqual([])
  })

  it('answers 404 for unknown records of every kind', async () => {
    const owner = await signupOwner(test)
    expectError(await get(owner.token, '/v1/ledger/transactions/txn_00000000000000000000000000'), 'ledger_transaction_not_found')
    expectError(await get(owner.token, '/v1/ledger/accounts/acc_00000000000000000000000000'), 'ledger_account_not_found')
    expectError(await get(owner.token, '/v1/ledger/counterparties/cpy_00000000000000000000000000'), 'ledger_counterparty_not_found')
    expectError(await get(owner.token, '/v1/ledger/invoices/inv_00000000000000000000000000'), 'ledger_invoice_not_found')
    expectError(await get(owner.token, '/v1/ledger/obligations/obl_00000000000000000000000000'), 'obligation_not_found')
    expectError(await get(owner.token, '/v1/ledger/jobs/ljb_00000000000000000000000000'), 'ledger_job_not_found')
  })

  it('reads the Ledger as of a past instant: nothing existed before the first normalization', async () => {
    const { owner } = await tenantWithTransactions()
    const [row] = (await ok(owner.token, '/v1/ledger/transactions?limit=1')).transactions
    const before = new Date(new Date(row.created_at).getTime() - 1).toISOString()
    expect((await ok(owner.token, `/v1/ledger/transactions?as_of=${before}`)).transactions).toEqual([])
    expectError(await get(owner.token, `/v1/ledger/transactions/${row.id}?as_of=${before}`), 'ledger_transaction_not_found')
    expect(await ok(owner.token, `/v1/ledger/transactions/${row.id}?as_of=${row.created_at}`)).toEqual(row)
  })
})

describe('POST /v1/ledger/normalize', () => {
  it('normalizes one parsed row synchronously and idempotently, for ledger:write callers only', async () => {
    const { owner, admin, rowIds } = await tenantWithTransactions()
    const normalizeRow = (token: string, payload: unknown) => test.request({ method: 'POST', url: '/v1/ledger/normalize', token, payload: payload as Record<string, unknown> })

    const response = await normalizeRow(admin.token, { raw_parsed_id: rowIds[3], target_entities: ['transaction'] })
    expect(response.statusCode, response.body).toBe(200)
    const body = response.json()
    expect(body).toMatchObject({ raw_parsed_id: rowIds[3], raw_artifact_id: expect.stringMatching(/^raw_/), parser: 'test_records', parser_version: '1.0.0' })
    expect(body.entities.map((entity: { kind: string; outcome: string }) => [entity.kind, entity.outcome]).sort()).toEqual([
      ['account', 'unchanged'],
      ['counterparty', 'unchanged'],
      ['transaction', 'unchanged'],
    ])
    const transaction = body.entities.find((entity: { kind: string }) => entity.kind === 'transaction')
    expect((await ok(owner.token, `/v1/ledger/transactions/${transaction.id}`)).evidence_ids).toEqual([rowIds[3]])
    expect((await normalizeRow(admin.token, { raw_parsed_id: rowIds[3] })).json()).toEqual(body)

    expectError(await normalizeRow(owner.token, { raw_parsed_id: rowIds[3] }), 'auth_scope_insufficient')
    const apiKey = await issueApiKey(test, owner, { scopes: ['ledger:read'] })
    expectError(await normalizeRow(apiKey.secret, { raw_parsed_id: rowIds[3] }), 'auth_scope_insufficient')
    expectError(await normalizeRow(admin.token, { raw_parsed_id: 'rpr_00000000000000000000000000' }), 'ledger_parsed_row_not_found')
    expectError(await normalizeRow(admin.token, { raw_parsed_id: 'nope' }), 'request_body_invalid')
    expectError(await normalizeRow(admin.token, {}), 'request_body_invalid')

    // Another tenant's parsed row is a missing one.
    const other = await tenantWithTransactions()
    expectError(await normalizeRow(other.admin.token, { raw_parsed_id: rowIds[3] }), 'ledger_parsed_row_not_found')
  })

  it('creates what a new row describes, and refuses a row that holds no known record', async () => {
    const owner = await signupOwner(test)
    const admin = await addMember(test, owner, 'admin')
    const { rowIds } = await seedArtifact(test, owner.tenantId, [
      bankTransaction({ amount: '-1.00', transaction_date: '2026-03-02', description: 'FIRST' }),
      { kind: 'receipt', total: '5' } as never,
    ])
    const created = await test.request({ method: 'POST', url: '/v1/ledger/normalize', token: admin.token, payload: { raw_parsed_id: rowIds[0] } })
    expect(created.json().entities.map((entity: { outcome: string }) => entity.outcome)).toEqual(['created', 'created', 'created'])
    expectError(await test.request({ method: 'POST', url: '/v1/ledger/normalize', token: admin.token, payload: { raw_parsed_id: rowIds[1] } }), 'ledger_parsed_row_unsupported')
  })
})

describe('counterparty trust', () => {
  it('moves through grant, pause, restore and acknowledge; refuses other moves with 409', async () => {
    const { owner, admin } = await tenantWithTransactions()
    const [counterparty] = (await ok(owner.token, '/v1/ledger/counterparties?limit=1')).counterparties
    const url = (action: string) => `/v1/ledger/counterparties/${counterparty.id}/trust/${action}`
    const act = (action: string, token = admin.token, payload: Record<string, unknown> = {}) => test.request({ method: 'POST', url: url(action), token, payload })

    const acknowledged = await act('acknowledge')
    expect(acknowledged.statusCode, acknowledged.body).toBe(200)
    expect(acknowledged.json()).toMatchObject({ trust_state: 'acknowledged', version: 2, provenance: 'human_confirmed', supersedes: counterparty.version_id })
    expect((await act('grant', admin.token, { reason: 'long-standing supplier' })).json()).toMatchObject({ trust_state: 'trusted', metadata: { trust_changed: { action: 'grant', reason: 'long-standing supplier' } } })
    const refused = expectError(await act('grant'), 'ledger_counterparty_trust_transition_invalid')
    expect(refused.details).toEqual({ trust_state: 'trusted', action: 'grant', allowed_actions: ['pause'] })
    expect((await act('pause')).json()).toMatchObject({ trust_state: 'paused' })
    expect((await act('restore')).json()).toMatchObject({ trust_state: 'trusted', version: 5 })
    expectError(await act('acknowledge'), 'ledger_counterparty_trust_transition_invalid')

    // Only a user with ledger:write: not the owner (spec owner list), not an API key, not a service token.
    expectError(await act('pause', owner.token), 'auth_scope_insufficient')
    const apiKey = await issueApiKey(test, owner, { scopes: ['ledger:read'] })
    expectError(await act('pause', apiKey.secret), 'auth_scope_insufficient')
    const minted = await test.request({ method: 'POST', url: '/v1/auth/service-token', token: testServiceTokenSecret, payload: { tenant_id: owner.tenantId, reason: 'trust test' } })
    expectError(await act('pause', minted.json().access_token), 'auth_scope_insufficient')
    expectError(await act('pause', admin.token, { reason: 'x'.repeat(501) }), 'request_body_invalid')
    expectError(
      await test.request({ method: 'POST', url: '/v1/ledger/counterparties/cpy_00000000000000000000000000/trust/grant', token: admin.token }),
      'ledger_counterparty_not_found',
    )

    const events = await queryRows<{ event_type: string; payload: { trust_state: string } }>(
      test.runtime.db.orm,
      sql`select event_type, payload from events where tenant_id = ${owner.tenantId} and event_type = 'ledger.counterparty.updated' order by created_at, id`,
    )
    expect(events.map((event) => event.payload.trust_state)).toEqual(['acknowledged', 'trusted', 'paused', 'trusted'])
    expect(await auditActions(test, owner.tenantId, { entityId: counterparty.id })).toEqual([
      'ledger.counterparty.trust_acknowledge',
      'ledger.counterparty.trust_grant',
      'ledger.counterparty.trust_pause',
      'ledger.counterparty.trust_restore',
    ])
    // History: as of the first version, the counterparty was unreviewed.
    expect(await ok(owner.token, `/v1/ledger/counterparties/${counterparty.id}?as_of=${counterparty.updated_at}`)).toMatchObject({ trust_state: 'unreviewed' })
  })
})

describe('jobs', () => {
  it('runs a queued normalization, then the reconciliation it queues, both visible on the job route', async () => {
    const owner = await signupOwner(test)
    const { artifactId } = await seedArtifact(test, owner.tenantId, [
      { kind: 'invoice', direction: 'receivable', invoice_number: 'INV-9', issue_date: '2026-03-01', due_date: '2026-03-15', currency: 'EUR', total: '50', counterparty: { name: 'Tiny Client' } },
      bankTransaction({ amount: '50.00', transaction_date: '2026-03-14', description: 'TINY CLIENT INV-9' }),
    ])
    const jobId = deterministicId('ledgerJob', randomUUID())
    await test.runtime.db.transaction(async (tx) => {
      await tx.insert(ledgerJobs).values({ id: jobId, tenantId: owner.tenantId, kind: 'normalize', status: 'queued', input: { artifact_id: artifactId }, createdBy: 'test', createdAt: new Date() })
      await test.runtime.jobs.enqueue(tx, ledgerNormalizeQueue, { tenant_id: owner.tenantId, job_id: jobId, artifact_id: artifactId })
    })
    await expect.poll(async () => (await ok(owner.token, `/v1/ledger/jobs/${jobId}`)).status, { timeout: 20_000, interval: 100 }).toBe('succeeded')
    const job = await ok(owner.token, `/v1/ledger/jobs/${jobId}`)
    expect(job).toMatchObject({ kind: 'normalize', result: { parsed_rows: 2, counts: { transaction: { created: 1 }, invoice: { created: 1 } } }, error: null })

    await expect
      .poll(async () => (await ok(owner.token, '/v1/ledger/reconciliation-matches')).matches.map((match: { match_type: string }) => match.match_type), { timeout: 20_000, interval: 100 })
      .toEqual(['invoice_payment'])
    const [reconcileJob] = await queryRows<{ id: string; status: string; created_by: string }>(
      test.runtime.db.orm,
      sql`select id, status, created_by from ledger_jobs where tenant_id = ${owner.tenantId} and kind = 'reconcile'`,
    )
    expect(reconcileJob).toMatchObject({ created_by: 'ledger-normalize' })
    await expect.poll(async () => (await ok(owner.token, `/v1/ledger/jobs/${reconcileJob!.id}`)).status, { timeout: 20_000, interval: 100 }).toBe('succeeded')

    // Another tenant's job is a missing one.
    const other = await signupOwner(test)
    expectError(await get(other.token, `/v1/ledger/jobs/${jobId}`), 'ledger_job_not_found')
  })
})
