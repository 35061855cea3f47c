/**
 * Import visibility (issue 15, item 9): GET /v1/raw lists what a tenant imported — filtered by source
 * type, extraction status and ingest time, paged with a signed cursor, newest first — and every artifact
 * view (the list's and GET /v1/raw/{raw_id}) says how its import went: extraction status, parsed rows,
 * the rows refused with their numbers and reasons, and the Ledger's normalization with its progress
 * (rows done of total, recorded batch by batch) and outcome counts. Another tenant's artifacts are
 * invisible.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createIdSource } from '../../../src/kernel/ids.ts'
import { createAuditRecorder } from '../../../src/modules/audit/audit.recorder.ts'
import { createNormalizeHandler } from '../../../src/modules/ledger/ledger.jobs.ts'
import { outcomeTotals } from '../../../src/modules/ledger/domain/outcomes.ts'
import { createNormalizer, type RunProgress } from '../../../src/modules/ledger/normalize/normalizer.ts'
import type { ExtractedRecord } from '../../../src/modules/raw/domain/extracted.ts'
import { createWebhookSubscriber } from '../../../src/modules/webhooks/index.ts'
import { createCommandRunner } from '../../../src/platform/commands/command.ts'
import { createIdempotencyStore } from '../../../src/platform/commands/idempotency.store.pg.ts'
import { queryRows, type Database } from '../../../src/platform/db/database.ts'
import { createEventRecorder } from '../../../src/platform/outbox/events.ts'
import { ingestFile, uniqueCsv } from '../../fixtures/raw/ingest/raw-test-kit.ts'
import { createTestApp, expectError, signupOwner, type TenantOwner, type TestApp } from '../../support/harness.ts'
import { bankTransaction, getOk, seedArtifact, settledPipeline } from '../../support/ledger.ts'

const fixtures = fileURLToPath(new URL('../../fixtures/raw/', import.meta.url))
const fixture = (path: string) => readFileSync(join(fixtures, path))

let test: TestApp
beforeAll(async () => {
  test = await createTestApp({ workers: true })
})
afterAll(async () => test?.close())

type Artifact = Record<string, any>

const settled = (tenantId: string) => settledPipeline(test, tenantId)

/** Uploads a file; waits first for the clock to move on, so every artifact has its own ingest time. */
async function upload(owner: TenantOwner, content: Buffer | string, filename: string, options: { sourceType: string; mimeType?: string; sourceRef?: Record<string, unknown> }) {
  const start = Date.now()
  while (Date.now() <= start + 1) await new Promise((resolve) => setTimeout(resolve, 1))
  const response = await ingestFile(test, owner.token, {
    sourceType: options.sourceType,
    file: { filename, content, ...(options.mimeType === undefined ? {} : { contentType: options.mimeType }) },
    ...(options.mimeType === undefined ? {} : { mimeType: options.mimeType }),
    ...(options.sourceRef === undefined ? {} : { sourceRef: JSON.stringify(options.sourceRef) }),
  })
  expect(response.statusCode, response.body).toBe(201)
  return response.json() as { raw_id: string; ingested_at: string }
}

const list = async (owner: TenantOwner, query = ''): Promise<{ artifacts: Artifact[]; next_cursor: string | null }> => getOk(test, owner.token, `/v1/raw${query}`)
const listedIds = async (owner: TenantOwner, query = '') => (await list(owner, query)).artifacts.map((artifact) => artifact.raw_id)
const view = async (owner: TenantOwner, rawId: string): Promise<Artifact> => getOk(test, owner.token, `/v1/raw/${rawId}`)

describe('GET /v1/raw: filters', () => {
  let owner: TenantOwner
  let good: { raw_id: string; ingested_at: string }
  let broken: { raw_id: string; ingested_at: string }
  let note: { raw_id: string; ingested_at: string }
  let other: { raw_id: string; ingested_at: string }

  beforeAll(async () => {
    owner = await signupOwner(test)
    good = await upload(owner, uniqueCsv(2), 'good.csv', { sourceType: 'csv_upload' })
    broken = await upload(owner, fixture('bank/csv/malformed-non-numeric-amount-row7.csv'), 'broken.csv', { sourceType: 'csv_upload', sourceRef: { currency: 'USD' } })
    note = await upload(owner, JSON.stringify({ note: `not a statement ${Date.now()}` }), 'note.json', { sourceType: 'other', mimeType: 'application/json' })
    other = await upload(owner, uniqueCsv(3), 'other.csv', { sourceType: 'other' })
    await settled(owner.tenantId)
  }, 90_000)

  it('lists every stored artifact, newest first, each with its import state', async () => {
    const { artifacts, next_cursor } = await list(owner)
    expect(artifacts.map((artifact) => artifact.raw_id)).toEqual([other.raw_id, note.raw_id, broken.raw_id, good.raw_id])
    expect(next_cursor).toBeNull()
    expect(artifacts.map((artifact) => artifact.extraction_status)).toEqual(['succeeded', 'skipped', 'failed', 'succeeded'])
    // The list shows each artifact exactly as its own read does (but for the signed URL's moment).
    for (const artifact of artifacts) {
      const { signed_url: _url, expires_at: _expires, ...rest } = await view(owner, artifact.raw_id)
      expect(artifact).toMatchObject(rest)
      expect(artifact.signed_url).toContain(`/v1/raw/${artifact.raw_id}/content?`)
    }
  })

  it('filters by source_type, extraction_status and both', async () => {
    expect(await listedIds(owner, '?source_type=csv_upload')).toEqual([broken.raw_id, good.raw_id])
    expect(await listedIds(owner, '?source_type=other')).toEqual([other.raw_id, note.raw_id])
    expect(await listedIds(owner, '?source_type=pdf_upload')).toEqual([])
    expect(await listedIds(owner, '?extraction_status=succeeded')).toEqual([other.raw_id, good.raw_id])
    expect(await listedIds(owner, '?extraction_status=failed')).toEqual([broken.raw_id])
    expect(await listedIds(owner, '?extraction_status=skipped')).toEqual([note.raw_id])
    expect(await listedIds(owner, '?extraction_status=pending')).toEqual([])
    expect(await listedIds(owner, '?source_type=csv_upload&extraction_status=succeeded')).toEqual([good.raw_id])
  })

  it('filters by ingest time: since inclusive, until exclusive', async () => {
    const at = (artifact: { ingested_at: string }) => encodeURIComponent(artifact.ingested_at)
    expect(await listedIds(owner, `?since=${at(broken)}`)).toEqual([other.raw_id, note.raw_id, broken.raw_id])
    expect(await listedIds(owner, `?until=${at(broken)}`)).toEqual([good.raw_id])
    expect(await listedIds(owner, `?since=${at(broken)}&until=${at(other)}`)).toEqual([note.raw_id, broken.raw_id])
    expect(await listedIds(owner, `?since=${at(other)}&until=${at(other)}`)).toEqual([])
    expect(await listedIds(owner, `?since=${at(good)}&source_type=csv_upload&extraction_status=failed`)).toEqual([broken.raw_id])
  })

  it('refuses bad filters with 400 request_params_invalid, and a forged cursor with 400 invalid_cursor', async () => {
    for (const query of ['?source_type=spreadsheet', '?extraction_status=done', '?since=yesterday', '?until=2026-02-30T00:00:00Z', '?limit=0', '?limit=1001', '?limit=ten', '?sort=asc']) {
      const response = await test.request({ method: 'GET', url: `/v1/raw${query}`, token: owner.token })
      expect(expectError(response, 'request_params_invalid').details, query).toBeDefined()
    }
    expectError(await test.request({ method: 'GET', url: '/v1/raw?cursor=not-a-cursor', token: owner.token }), 'invalid_cursor')
  })

  it('leaves tombstoned artifacts out', async () => {
    const tombstoned = await upload(owner, uniqueCsv(1), 'gone.csv', { sourceType: 'csv_upload' })
    await settled(owner.tenantId)
    expect(await listedIds(owner, '?source_type=csv_upload')).toEqual([tombstoned.raw_id, broken.raw_id, good.raw_id])
    expect((await test.request({ method: 'DELETE', url: `/v1/raw/${tombstoned.raw_id}`, token: owner.token })).statusCode).toBe(204)
    expect(await listedIds(owner, '?source_type=csv_upload')).toEqual([broken.raw_id, good.raw_id])
  }, 60_000)
})

describe('GET /v1/raw: paging and tenants', () => {
  it('pages newest first with a cursor, breaking ties of ingest time by id, bound to its filters and tenant', async () => {
    const owner = await signupOwner(test)
    // Five artifacts ingested at the same instant: their order is the id's, descending.
    const at = new Date('2026-01-05T10:00:00.000Z')
    const seeded: string[] = []
    for (let index = 0; index < 5; index += 1) seeded.push((await seedArtifact(test, owner.tenantId, [])).artifactId)
    await queryRows(test.runtime.db.orm, sql`update raw_artifacts set ingested_at = ${at.toISOString()}::timestamptz where tenant_id = ${owner.tenantId}`)
    const expected = [...seeded].sort().reverse()

    const pages: string[][] = []
    let cursor: string | null = null
    do {
      const page: { artifacts: Artifact[]; next_cursor: string | null } = await list(owner, `?limit=2${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`)
      pages.push(page.artifacts.map((artifact) => artifact.raw_id))
      cursor = page.next_cursor
    } while (cursor !== null && pages.length < 10)
    expect(pages).toEqual([expected.slice(0, 2), expected.slice(2, 4), expected.slice(4)])

    const first = await list(owner, '?limit=2')
    // A cursor continues only the listing it came from: other filters, or another tenant, refuse it.
    expectError(await test.request({ method: 'GET', url: `/v1/raw?limit=2&source_type=csv_upload&cursor=${encodeURIComponent(first.next_cursor!)}`, token: owner.token }), 'invalid_cursor')
    const stranger = await signupOwner(test)
    expectError(await test.request({ method: 'GET', url: `/v1/raw?limit=2&cursor=${encodeURIComponent(first.next_cursor!)}`, token: stranger.token }), 'invalid_cursor')
    // The default page holds them all.
    expect(await listedIds(owner)).toEqual(expected)
  })

  it("never shows another tenant's artifacts, and their ids are 404 as missing ones are", async () => {
    const owner = await signupOwner(test)
    const stranger = await signupOwner(test)
    const mine = (await seedArtifact(test, owner.tenantId, [])).artifactId
    const theirs = (await seedArtifact(test, stranger.tenantId, [])).artifactId
    expect(await listedIds(owner)).toEqual([mine])
    expect(await listedIds(stranger)).toEqual([theirs])
    expect(await listedIds(stranger, '?source_type=csv_upload&extraction_status=succeeded')).toEqual([theirs])
    expectError(await test.request({ method: 'GET', url: `/v1/raw/${mine}`, token: stranger.token }), 'raw_artifact_not_found')
    expectError(await test.request({ method: 'GET', url: '/v1/raw/raw_00000000000000000000000000', token: stranger.token }), 'raw_artifact_not_found')
  })
})

/**
 * The Ledger's normalization job as extraction hands it over, run by the real job handler with a
 * normalizer of three-row batches, one after another (both engines), whose database reads the
 * artifact's view through the API after every committed transaction.
 */
async function normalizeObserved(owner: TenantOwner, artifactId: string, observe: () => Promise<void>) {
  const { runtime } = test
  const ids = createIdSource(() => runtime.clock.now().getTime())
  const audit = createAuditRecorder({ ids, clock: runtime.clock })
  const events = createEventRecorder({ db: runtime.db, ids, clock: runtime.clock, subscriber: createWebhookSubscriber({ jobs: runtime.jobs }) })
  const commands = createCommandRunner({ db: runtime.db, clock: runtime.clock, audit, events, jobs: runtime.jobs, idempotency: createIdempotencyStore() })
  const observed: Database = {
    ...runtime.db,
    transaction: async (work, config) => {
      const result = await runtime.db.transaction(work, config)
      await observe()
      return result
    },
  }
  const normalizer = createNormalizer({ db: observed, store: runtime.ledger.store, clock: runtime.clock, audit, events, batchRows: 3, pipeline: false })
  // The job row as Raw's extraction creates it, without its queue entry (this test runs it, not the workers).
  const jobId = ids.newId('ledgerJob')
  await runtime.db.transaction((tx) =>
    runtime.ledger.store.insertJob(tx, {
      id: jobId,
      tenantId: owner.tenantId,
      kind: 'normalize',
      status: 'queued',
      input: { artifact_id: artifactId },
      result: null,
      error: null,
      createdBy: 'system:raw-extract',
      createdAt: runtime.clock.now(),
      startedAt: null,
      finishedAt: null,
    }),
  )
  const handler = createNormalizeHandler({ db: runtime.db, store: runtime.ledger.store, commands, jobs: runtime.jobs, ids, clock: runtime.clock, normalizer })
  await handler({ id: 'observed', data: { tenant_id: owner.tenantId, job_id: jobId, artifact_id: artifactId }, retryCount: 0 } as never)
  return jobId
}

describe('an artifact view: progress, outcome and refused rows', () => {
  it('shows the normalization moving batch by batch, then its final counts', async () => {
    const owner = await signupOwner(test)
    const records = Array.from({ length: 8 }, (_, index) =>
      bankTransaction({ amount: `-${index + 1}.00`, transaction_date: `2026-02-0${index + 1}`, description: `PROGRESS ROW ${index}`, counterparty: { name: index % 2 === 0 ? 'Alder Bakery' : 'Birch Hardware' } }),
    )
    const { artifactId } = await seedArtifact(test, owner.tenantId, records)
    expect((await view(owner, artifactId)).normalization).toBeNull()

    const seen: Array<Record<string, unknown>> = []
    const jobId = await normalizeObserved(owner, artifactId, async () => {
      seen.push((await view(owner, artifactId)).normalization)
    })
    // One snapshot per batch's commit (three rows each).
    expect(seen).toHaveLength(3)
    const moving = seen
    expect(moving.map((progress) => progress?.rows_done)).toEqual([3, 6, 8])
    expect(moving.every((progress) => progress?.rows_total === 8 && progress?.status === 'running' && progress?.job_id === jobId)).toBe(true)
    const created = moving.map((progress) => progress?.created as number)
    expect(created[0]).toBeGreaterThan(0)
    expect(created[1]).toBeGreaterThan(created[0]!)
    expect(created[2]).toBeGreaterThan(created[1]!)

    const final = await view(owner, artifactId)
    const job = await getOk(test, owner.token, `/v1/ledger/jobs/${jobId}`)
    const totals = { created: 0, unchanged: 0, updated: 0 }
    for (const tally of Object.values(job.result.counts) as Array<typeof totals>) for (const key of Object.keys(totals) as Array<keyof typeof totals>) totals[key] += tally[key]
    expect(final).toMatchObject({
      parsed_rows: 8,
      refused_rows: [],
      refused_rows_total: 0,
      normalization: {
        job_id: jobId,
        status: 'succeeded',
        rows_done: 8,
        rows_total: 8,
        created: totals.created,
        unchanged: totals.unchanged,
        superseded: totals.updated,
        refused_rows: 0,
        error: null,
        started_at: expect.any(String),
        finished_at: expect.any(String),
      },
    })
    // 8 transactions, one account, two counterparties.
    expect(final.normalization.created).toBe(11)

    // Normalizing the same rows again finds every entity unchanged, and the view follows the latest run.
    const again = await normalizeObserved(owner, artifactId, async () => undefined)
    const rerun = (await view(owner, artifactId)).normalization
    expect(rerun).toMatchObject({ job_id: again, status: 'succeeded', rows_done: 8, rows_total: 8, created: 0, superseded: 0 })
    expect(rerun.unchanged).toBeGreaterThanOrEqual(11)
  })

  it('records progress in batch order when the batches are pipelined (PostgreSQL) as when they run one after another', async () => {
    const owner = await signupOwner(test)
    const records = Array.from({ length: 8 }, (_, index) => bankTransaction({ amount: `-${index + 1}.50`, transaction_date: `2026-04-0${index + 1}`, description: `PIPELINED ${index}` }))
    const { artifactId } = await seedArtifact(test, owner.tenantId, records)
    const { runtime } = test
    const ids = createIdSource(() => runtime.clock.now().getTime())
    const normalizer = createNormalizer({
      db: runtime.db,
      store: runtime.ledger.store,
      clock: runtime.clock,
      audit: createAuditRecorder({ ids, clock: runtime.clock }),
      events: createEventRecorder({ db: runtime.db, ids, clock: runtime.clock, subscriber: createWebhookSubscriber({ jobs: runtime.jobs }) }),
      batchRows: 3,
    })
    const seen: RunProgress[] = []
    const summary = await normalizer.normalizeArtifact(owner.tenantId, artifactId, {
      actor: { type: 'system', id: 'test' },
      onProgress: async (_executor, progress) => {
        seen.push(progress)
      },
    })
    expect(seen.map((progress) => progress.rows_done)).toEqual([0, 3, 6, 8])
    expect(seen.every((progress) => progress.rows_total === 8)).toBe(true)
    const created = seen.map((progress) => outcomeTotals(progress.counts).created)
    expect(created).toEqual([...created].sort((a, b) => a - b))
    expect(seen.at(-1)!.counts).toEqual(summary.counts)
  })

  it('lists the parsed rows normalization refused, with their row numbers and reasons', async () => {
    const owner = await signupOwner(test)
    const records = [
      bankTransaction({ amount: '-1.00', transaction_date: '2026-02-01', description: 'FINE ROW' }),
      { ...bankTransaction({ amount: '-2.00', transaction_date: '2026-02-02', description: 'BAD AMOUNT' }), amount: 'TBD' },
      bankTransaction({ amount: '-3.00', transaction_date: '2026-02-03', description: 'FINE ROW 2' }),
      { kind: 'horoscope', text: 'not a record' },
    ] as unknown as ExtractedRecord[]
    const { artifactId, rowIds } = await seedArtifact(test, owner.tenantId, records)
    await normalizeObserved(owner, artifactId, async () => undefined)
    const artifact = await view(owner, artifactId)
    expect(artifact.refused_rows).toEqual([
      { stage: 'normalization', row: 1, parsed_row_id: rowIds[1], reason: expect.stringMatching(/^not a record the Ledger knows: kind "transaction": \/amount /) },
      { stage: 'normalization', row: 3, parsed_row_id: rowIds[3], reason: expect.stringMatching(/^not a record the Ledger knows: kind "horoscope" is not one of account, /) },
    ])
    expect(artifact.refused_rows_total).toBe(2)
    expect(artifact.normalization).toMatchObject({ status: 'succeeded', rows_done: 4, rows_total: 4, refused_rows: 2 })
    expect((await list(owner)).artifacts[0]).toMatchObject({ raw_id: artifactId, refused_rows: artifact.refused_rows, refused_rows_total: 2 })
  })

  it('names the data row that stopped extraction of a file with a bad row, and its reason', async () => {
    const owner = await signupOwner(test)
    const { raw_id: rawId } = await upload(owner, fixture('bank/csv/malformed-non-numeric-amount-row7.csv'), 'row7.csv', { sourceType: 'csv_upload', sourceRef: { currency: 'USD' } })
    await settled(owner.tenantId)
    const artifact = await view(owner, rawId)
    expect(artifact).toMatchObject({
      extraction_status: 'failed',
      parsed_rows: 0,
      refused_rows: [{ stage: 'extraction', row: 7, parsed_row_id: null, reason: expect.stringMatching(/^csv_bank_statement .*amount "TBD" is not a number \(at line 8 \(row 7\)/) }],
      refused_rows_total: 1,
      normalization: null,
    })
    expect(artifact.refused_rows[0].reason).toBe(artifact.extraction_error)
    expect(await listedIds(owner, '?extraction_status=failed')).toEqual([rawId])
  }, 60_000)

  it('after the pipeline normalized a real statement and an overlapping one: final counts, and progress recorded by the job', async () => {
    const owner = await signupOwner(test)
    const dupont = { iban: 'FR7630006000011234567890189', currency: 'EUR' }
    const first = await upload(owner, fixture('bank/csv/dupont-overlap-1.fr.csv'), 'dupont-overlap-1.fr.csv', { sourceType: 'csv_upload', sourceRef: dupont })
    await settled(owner.tenantId)
    const second = await upload(owner, fixture('bank/csv/dupont-overlap-2.fr.csv'), 'dupont-overlap-2.fr.csv', { sourceType: 'csv_upload', sourceRef: dupont })
    await settled(owner.tenantId)

    for (const { raw_id: rawId } of [first, second]) {
      const artifact = await view(owner, rawId)
      const [parsed] = await queryRows<{ n: number }>(test.runtime.db.orm, sql`select count(*)::int as n from raw_parsed_rows where raw_artifact_id = ${rawId}`)
      expect(artifact).toMatchObject({ extraction_status: 'succeeded', parser: 'csv_bank_statement', parsed_rows: parsed!.n, refused_rows: [], refused_rows_total: 0 })
      expect(parsed!.n).toBeGreaterThan(10)
      const job = await getOk(test, owner.token, `/v1/ledger/jobs/${artifact.normalization.job_id}`)
      const totals = { created: 0, unchanged: 0, updated: 0 }
      for (const tally of Object.values(job.result.counts) as Array<typeof totals>) for (const key of Object.keys(totals) as Array<keyof typeof totals>) totals[key] += tally[key]
      expect(artifact.normalization).toMatchObject({
        status: 'succeeded',
        rows_done: parsed!.n,
        rows_total: parsed!.n,
        created: totals.created,
        unchanged: totals.unchanged,
        superseded: totals.updated,
        refused_rows: 0,
      })
      // The job recorded its progress itself (not read back from its result).
      const [progress] = await queryRows<{ progress: { rows_done: number; rows_total: number } | null }>(
        test.runtime.db.orm,
        sql`select progress from ledger_jobs where id = ${artifact.normalization.job_id}`,
      )
      expect(progress!.progress).toMatchObject({ rows_done: parsed!.n, rows_total: parsed!.n })
    }
    const [one, two] = [(await view(owner, first.raw_id)).normalization, (await view(owner, second.raw_id)).normalization]
    expect(one).toMatchObject({ superseded: 0 })
    expect(one.created).toBeGreaterThan(20)
    // The 7 shared lines are found again: each transaction gains the second statement as a source (a new version).
    expect(two.superseded).toBeGreaterThanOrEqual(7)
    expect(two.created).toBeGreaterThan(0)
  }, 90_000)
})
