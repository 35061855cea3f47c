/**
 * GET /v1/ledger/reconcile/{job_id} (issue 15, item 9): the status of the run POST /v1/ledger/reconcile
 * answers with — queued, then, once the worker ran it, its times and outcome (matches found, retired
 * statement checks, entities created, unchanged and superseded). Any id that names no reconciliation of
 * the caller's tenant is 404, whatever its shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, createTestApp, expectError, signupOwner, type TenantOwner, type TestApp } from '../../support/harness.ts'
import { bankTransaction, getOk, normalize, seedArtifact } from '../../support/ledger.ts'

let test: TestApp
beforeAll(async () => {
  test = await createTestApp({ workers: true })
})
afterAll(async () => test?.close())

async function requestReconcile(owner: TenantOwner): Promise<string> {
  const admin = await addMember(test, owner, 'admin')
  const response = await test.request({ method: 'POST', url: '/v1/ledger/reconcile', token: admin.token })
  expect(response.statusCode, response.body).toBe(202)
  return response.json().job_id as string
}

async function finished(owner: TenantOwner, jobId: string): Promise<Record<string, any>> {
  const deadline = Date.now() + 30_000
  for (;;) {
    const job = await getOk(test, owner.token, `/v1/ledger/reconcile/${jobId}`)
    if (job.status === 'succeeded' || job.status === 'failed') return job
    if (Date.now() > deadline) throw new Error(`reconciliation ${jobId} did not finish`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe('GET /v1/ledger/reconcile/{job_id}', () => {
  it('shows a run queued, then its times and outcome once it succeeded', async () => {
    const owner = await signupOwner(test)
    const invoice = await seedArtifact(
      test,
      owner.tenantId,
      [{ kind: 'invoice', direction: 'receivable', invoice_number: 'INV-7', issue_date: '2026-03-01', due_date: '2026-03-31', currency: 'EUR', total: '1200', counterparty: { name: 'Northwind Traders' } }],
      { sourceType: 'pdf_upload' },
    )
    await normalize(test, owner.tenantId, invoice.artifactId)
    const payment = await seedArtifact(test, owner.tenantId, [
      bankTransaction({ amount: '1200.00', transaction_date: '2026-03-25', description: 'SEPA CREDIT NORTHWIND TRADERS INV-7', counterparty: { name: 'Northwind Traders' } }),
    ])
    await normalize(test, owner.tenantId, payment.artifactId)

    const jobId = await requestReconcile(owner)
    const job = await finished(owner, jobId)
    expect(job).toMatchObject({ job_id: jobId, status: 'succeeded', created_by: expect.stringMatching(/^usr_/), started_at: expect.any(String), finished_at: expect.any(String), error: null })
    expect(Date.parse(job.finished_at)).toBeGreaterThanOrEqual(Date.parse(job.started_at))
    // The same run as the generic job route reports it, in the reconciliation's own terms.
    const generic = await getOk(test, owner.token, `/v1/ledger/jobs/${jobId}`)
    const totals = { created: 0, unchanged: 0, updated: 0 }
    for (const tally of Object.values(generic.result.counts) as Array<typeof totals>) for (const key of Object.keys(totals) as Array<keyof typeof totals>) totals[key] += tally[key]
    expect(job.outcome).toEqual({
      matches: 1,
      matches_by_type: { 'invoice_payment:matched': 1 },
      retired: 0,
      created: totals.created,
      unchanged: totals.unchanged,
      superseded: totals.updated,
    })
    // The match is new, and the invoice and the transaction got new versions (paid; matched).
    expect(job.outcome.created).toBeGreaterThanOrEqual(1)
    expect(job.outcome.superseded).toBeGreaterThanOrEqual(2)

    // A second run has nothing left to match (the invoice is paid) and writes nothing.
    const again = await finished(owner, await requestReconcile(owner))
    expect(again.outcome).toMatchObject({ matches: 0, matches_by_type: {}, retired: 0, created: 0, superseded: 0 })
  }, 60_000)

  it('shows a queued run with no times and no outcome yet, and a failed one with its error', async () => {
    const owner = await signupOwner(test)
    // Rows as a request writes them, without queue entries (the workers must not run them).
    const at = test.runtime.clock.now()
    const row = (id: string, values: Record<string, unknown>) => ({
      id,
      tenantId: owner.tenantId,
      kind: 'reconcile' as const,
      status: 'queued' as const,
      input: {},
      result: null,
      error: null,
      createdBy: 'usr_test',
      createdAt: at,
      startedAt: null,
      finishedAt: null,
      ...values,
    })
    await test.runtime.db.transaction(async (tx) => {
      await test.runtime.ledger.store.insertJob(tx, row('ljb_queuedreconcile0000000000', {}))
      await test.runtime.ledger.store.insertJob(tx, row('ljb_failedreconcile0000000000', { status: 'failed', error: 'the database went away', startedAt: at, finishedAt: at }))
    })
    expect(await getOk(test, owner.token, '/v1/ledger/reconcile/ljb_queuedreconcile0000000000')).toEqual({
      job_id: 'ljb_queuedreconcile0000000000',
      status: 'queued',
      created_by: 'usr_test',
      created_at: at.toISOString(),
      started_at: null,
      finished_at: null,
      error: null,
      outcome: null,
    })
    expect(await getOk(test, owner.token, '/v1/ledger/reconcile/ljb_failedreconcile0000000000')).toMatchObject({
      status: 'failed',
      started_at: at.toISOString(),
      finished_at: at.toISOString(),
      error: 'the database went away',
      outcome: null,
    })
  })

  it('is 404 ledger_job_not_found for ids of any shape that name no reconciliation of the tenant', async () => {
    const owner = await signupOwner(test)
    const stranger = await signupOwner(test)
    const theirs = await requestReconcile(stranger)
    // A normalization job of the owner's own tenant is no reconciliation.
    const seeded = await seedArtifact(test, owner.tenantId, [bankTransaction({ amount: '-5.00', transaction_date: '2026-03-02', description: 'COFFEE' })])
    const normalization = await test.runtime.db.transaction((tx) =>
      test.runtime.ledger.intake.requestNormalization(tx, { tenantId: owner.tenantId, artifactId: seeded.artifactId, createdBy: 'system:raw-extract' }),
    )
    for (const id of [theirs, normalization, 'ljb_00000000000000000000000000', 'x', 'not-an-id', '%20', 'ljb_%2F..%2F', 'a'.repeat(200)]) {
      const response = await test.request({ method: 'GET', url: `/v1/ledger/reconcile/${id}`, token: owner.token })
      expect(expectError(response, 'ledger_job_not_found').code, id).toBe('ledger_job_not_found')
    }
    // Its owner reads it.
    expect((await getOk(test, stranger.token, `/v1/ledger/reconcile/${theirs}`)).job_id).toBe(theirs)
    // Reading needs ledger:read, which API keys hold too; POST's ledger:write is not needed.
    const viewer = await addMember(test, stranger, 'viewer')
    expect((await getOk(test, viewer.token, `/v1/ledger/reconcile/${theirs}`)).job_id).toBe(theirs)
  }, 60_000)
})
