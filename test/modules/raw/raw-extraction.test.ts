/**
 * The `raw-extract` job, with test parsers registered through the runtime's `raw.selectParser` seam (the
 * real parsers are not under test here). Statuses, events and audit, one transaction per artifact, no
 * partial writes, idempotent re-runs, new parser versions beside old rows, e-mail attachments as child
 * artifacts, and the parsed-rows listing.
 */
import { createInterface } from 'node:readline'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../../../src/platform/db/database.ts'
import { deterministicId } from '../../../src/kernel/ids.ts'
import type { TransactionRecord } from '../../../src/modules/raw/domain/extracted.ts'
import { parsedRowBatchRows, recordProblem } from '../../../src/modules/raw/extraction.job.ts'
import { ParseError, type Parser, type ParserInput, type ParserOutput } from '../../../src/modules/raw/parsers/parser.ts'
import { createTestApp, expectError, signupOwner, testDatabaseUrl, type TenantOwner, type TestApp } from '../../support/harness.ts'
import { artifactRow, auditActions, eventsOf, fixture, ingestFile, settledExtraction, uniqueCsv } from '../../fixtures/raw/ingest/raw-test-kit.ts'
import { rawExtractQueue } from '../../../src/modules/raw/raw.jobs.ts'

/** Reads `Date,Description,Amount,Currency` lines one at a time from the artifact's stream. */
function csvParser(version: string): Parser {
  return {
    name: 'test_csv',
    version,
    accepts: (input) => input.mimeType.startsWith('text/csv') && input.head.toString('utf8').startsWith('Date,Description,Amount,Currency'),
    async *parse(input: ParserInput): AsyncIterable<ParserOutput> {
      let header = true
      for await (const line of createInterface({ input: input.stream(), crlfDelay: Infinity })) {
        if (header) {
          header = false
          continue
        }
        if (line.trim() === '') continue
        const [date, description, amount, currency] = line.split(',')
        const record: TransactionRecord = {
          kind: 'transaction',
          account: { name: 'Test account', currency: currency! },
          amount: amount!,
          currency: currency!,
          transaction_date: date!,
          status: 'posted',
          description: description!,
        }
        yield { type: 'record', record, confidence: 0.9 }
      }
    },
  }
}

const valid: TransactionRecord = { kind: 'transaction', account: { name: 'A' }, amount: '-1.00', currency: 'EUR', transaction_date: '2024-01-01', status: 'posted', description: 'x' }

/** Two good records, then a line it cannot read. */
const brokenParser: Parser = {
  name: 'test_broken',
  version: '1.0.0',
  accepts: (input) => input.filename?.endsWith('.broken') === true,
  async *parse() {
    yield { type: 'record', record: valid, confidence: 1 }
    yield { type: 'record', record: { ...valid, amount: '-2.00' }, confidence: 1 }
    throw new ParseError('unreadable amount "12,34,56"', 'line 3')
  },
}

/** A parser bug: a record that breaks the ExtractedRecord contract. */
const buggyParser: Parser = {
  name: 'test_bug',
  version: '0.1.0',
  accepts: (input) => input.filename?.endsWith('.bug') === true,
  async *parse() {
    yield { type: 'record', record: valid, confidence: 1 }
    yield { type: 'record', record: { ...valid, amount: 12.5 } as unknown as TransactionRecord, confidence: 1 }
  },
}

let infraCalls = 0
/** Fails the way storage or a database fails (not the file's fault): retried. */
const infraParser: Parser = {
  name: 'test_infra',
  version: '1.0.0',
  accepts: (input) => input.filename?.endsWith('.infra') === true,
  async *parse() {
    infraCalls += 1
    throw new Error('the disk is on fire')
  },
}

/** An e-mail: its attachments are listed in the message body as `name|type|content` lines after a blank line. */
const mailParser: Parser = {
  name: 'test_mail',
  version: '2.0.0',
  accepts: (input) => input.mimeType === 'message/rfc822',
  async *parse(input: ParserInput): AsyncIterable<ParserOutput> {
    const text = (await input.buffer()).toString('utf8')
    const body = text.slice(text.indexOf('\n\n') + 2)
    for (const line of body.split('\n')) {
      if (line === 'FAIL') throw new ParseError('the message is cut off')
      const [filename, mimeType, content] = line.split('|')
      if (filename === undefined || mimeType === undefined || content === undefined) continue
      yield { type: 'attachment', filename, mimeType, content: Buffer.from(content.replaceAll('\\n', '\n')) }
    }
    yield { type: 'record', record: { kind: 'obligation', obligation_type: 'invoice', direction: 'payable', reference: 'INV-1', amount: '10.00', currency: 'EUR' }, confidence: 0.5 }
  },
}

let csvVersion = '1.0.0'
const parsers = () => [brokenParser, buggyParser, infraParser, mailParser, csvParser(csvVersion)]

let test: TestApp
let owner: TenantOwner
beforeAll(async () => {
  test = await createTestApp({ workers: true, runtime: { raw: { selectParser: (input) => parsers().find((parser) => parser.accepts(input)) } } })
  owner = await signupOwner(test)
})
afterAll(async () => test?.close())

const upload = async (content: string, filename: string, contentType: string, sourceType = 'csv_upload') => {
  const response = await ingestFile(test, owner.token, { sourceType, file: { filename, contentType, content } })
  expect(response.statusCode, response.body).toBe(201)
  return response.json() as { raw_id: string; sha256: string }
}

const statusEvents = async (rawId: string) =>
  (await eventsOf(test, owner.tenantId, 'raw.extraction.status_changed')).filter((event) => event.payload.raw_id === rawId).map((event) => [event.payload.previous_status, event.payload.status])

const parsedCount = async (rawId: string) =>
  (await queryRows<{ n: number }>(test.runtime.db.orm, sql`select count(*)::int as n from raw_parsed_rows where raw_artifact_id = ${rawId}`))[0]!.n

/** Enqueues another raw-extract job for the artifact (after setting it back to pending, with `reset`) and waits until the job has run. */
const reRun = async (rawId: string, options: { reset: boolean }) => {
  if (options.reset) await test.runtime.db.orm.execute(sql`update raw_artifacts set extraction_status = 'pending' where id = ${rawId}`)
  const jobId = await test.runtime.db.transaction((tx) => test.runtime.jobs.enqueue(tx, rawExtractQueue, { tenant_id: owner.tenantId, artifact_id: rawId }))
  const state = async () => (await queryRows<{ state: string }>(test.runtime.db.orm, sql`select state from ${sql.identifier(test.jobSchema)}.job where id = ${jobId}`))[0]?.state
  await expect.poll(state, { timeout: 30_000, interval: 100 }).toBe('completed')
}

describe('recordProblem (the ExtractedRecord contract)', () => {
  it.each([
    [valid, undefined],
    [{ ...valid, amount: 1 }, /\/amount/],
    [{ ...valid, kind: 'payment' }, /kind "payment"/],
    [{ ...valid, currency: 'euro' }, /\/currency/],
    [{ ...valid, surprise: true }, /.+/],
    [null, /kind undefined/],
  ])('%j → %s', (record, problem) => {
    const found = recordProblem(record)
    if (problem === undefined) expect(found).toBeUndefined()
    else expect(found).toMatch(problem)
  })
})

describe('raw-extract', () => {
  it('succeeds: every row in order with deterministic ids, running → succeeded events, and a Ledger normalization job', async () => {
    const rows = parsedRowBatchRows * 2 + 500
    const created = await upload(uniqueCsv(rows), 'big.csv', 'text/csv')
    const done = await settledExtraction(test, created.raw_id, 60_000)
    expect(done).toMatchObject({ extraction_status: 'succeeded', parser: 'test_csv', parser_version: '1.0.0', extraction_error: null })
    const parsed = await queryRows<{ id: string; row_index: number; confidence: number; parser: string }>(
      test.runtime.db.orm,
      sql`select id, row_index, confidence, parser from raw_parsed_rows where raw_artifact_id = ${created.raw_id} order by row_index`,
    )
    expect(parsed).toHaveLength(rows)
    expect(parsed.map((row) => row.row_index)).toEqual([...Array(rows).keys()])
    expect(parsed[7]!.id).toBe(deterministicId('parsedRow', created.raw_id, 'test_csv', '1.0.0', '7'))
    expect(await statusEvents(created.raw_id)).toEqual([
      ['pending', 'running'],
      ['running', 'succeeded'],
    ])
    const succeeded = (await eventsOf(test, owner.tenantId, 'raw.extraction.status_changed')).find((event) => event.payload.raw_id === created.raw_id && event.payload.status === 'succeeded')!
    expect(succeeded.payload).toMatchObject({ parser: 'test_csv', parser_version: '1.0.0', parsed_rows: rows, ledger_job_id: expect.stringMatching(/^ljb_/) })
    const audit = (await auditActions(test, owner.tenantId, created.raw_id)).filter((event) => event.action === 'raw.extraction_status_changed')
    expect(audit.map((event) => event.outputs.status)).toEqual(['running', 'succeeded'])
    expect(audit.every((event) => event.layer === 'raw' && event.actor_type === 'system')).toBe(true)
    const jobs = await queryRows<{ id: string; kind: string; input: unknown; created_by: string }>(test.runtime.db.orm, sql`select id, kind, input, created_by from ledger_jobs where tenant_id = ${owner.tenantId} and input->>'artifact_id' = ${created.raw_id}`)
    expect(jobs).toEqual([{ id: succeeded.payload.ledger_job_id, kind: 'normalize', input: { artifact_id: created.raw_id }, created_by: 'system:raw-extract' }])
  }, 90_000)

  it('skips an artifact no parser accepts', async () => {
    const created = await upload(fixture('tiny.pdf').toString('latin1') + uniqueCsv(1), 'invoice.pdf', 'application/pdf', 'pdf_upload')
    expect((await settledExtraction(test, created.raw_id)).extraction_status).toBe('skipped')
    expect(await statusEvents(created.raw_id)).toEqual([['pending', 'skipped']])
    expect(await parsedCount(created.raw_id)).toBe(0)
  })

  it('fails on a ParseError with the reason, writes nothing, and does not retry', async () => {
    const created = await upload(uniqueCsv(1), 'statement.broken', 'text/plain', 'other')
    const failed = await settledExtraction(test, created.raw_id)
    expect(failed.extraction_status).toBe('failed')
    expect(failed.extraction_error).toBe('test_broken 1.0.0 could not read the file: unreadable amount "12,34,56" (at line 3)')
    expect(await parsedCount(created.raw_id)).toBe(0)
    expect(await statusEvents(created.raw_id)).toEqual([
      ['pending', 'running'],
      ['running', 'failed'],
    ])
    const [jobs] = await queryRows<{ n: number }>(test.runtime.db.orm, sql`select count(*)::int as n from ledger_jobs where input->>'artifact_id' = ${created.raw_id}`)
    expect(jobs!.n).toBe(0)
    // Not retried: the job completed (it did not fail into a retry), and no new running event follows.
    const jobStates = async () =>
      (await queryRows<{ state: string; retry_count: number }>(test.runtime.db.orm, sql`select state, retry_count from ${sql.identifier(test.jobSchema)}.job where name = 'raw-extract' and data->>'artifact_id' = ${created.raw_id}`))
    await expect.poll(jobStates, { timeout: 10_000, interval: 100 }).toEqual([{ state: 'completed', retry_count: 0 }])
    expect(await statusEvents(created.raw_id)).toHaveLength(2)
    const read = (await test.request({ method: 'GET', url: `/v1/raw/${created.raw_id}`, token: owner.token })).json()
    expect(read).toMatchObject({ extraction_status: 'failed', extraction_error: failed.extraction_error, parser: 'test_broken' })
  })

  it('fails on an invalid record, naming it a parser bug', async () => {
    const created = await upload(uniqueCsv(1), 'data.bug', 'text/plain', 'other')
    const failed = await settledExtraction(test, created.raw_id)
    expect(failed.extraction_status).toBe('failed')
    expect(failed.extraction_error).toMatch(/^parser bug: test_bug 0\.1\.0 yielded an invalid record at row 1: \/amount/)
    expect(await parsedCount(created.raw_id)).toBe(0)
  })

  it('fails on an infrastructure error with the reason, and retries it', async () => {
    const before = infraCalls
    const created = await upload(uniqueCsv(1), 'data.infra', 'text/plain', 'other')
    await expect.poll(() => infraCalls - before, { timeout: 30_000, interval: 200 }).toBeGreaterThanOrEqual(2)
    const row = (await artifactRow(test, created.raw_id))!
    expect(row.extraction_status).toMatch(/^(failed|running)$/)
    await expect.poll(async () => (await artifactRow(test, created.raw_id))!.extraction_error, { timeout: 10_000 }).toMatch(/the disk is on fire/)
    expect(await statusEvents(created.raw_id)).toEqual(expect.arrayContaining([['running', 'failed'], ['failed', 'running']]))
    expect(await parsedCount(created.raw_id)).toBe(0)
  }, 60_000)

  it('adds nothing when re-run, and adds rows beside the old ones for a new parser version', async () => {
    const created = await upload(uniqueCsv(5), 'rerun.csv', 'text/csv')
    await settledExtraction(test, created.raw_id)
    const ids = async () => (await queryRows<{ id: string }>(test.runtime.db.orm, sql`select id from raw_parsed_rows where raw_artifact_id = ${created.raw_id} order by parser_version, row_index`)).map((row) => row.id)
    const first = await ids()
    expect(first).toHaveLength(5)

    // A duplicate job for an extracted artifact does nothing at all.
    await reRun(created.raw_id, { reset: false })
    expect(await statusEvents(created.raw_id)).toHaveLength(2)
    // A forced re-run of the same parser version writes the same rows, which already exist.
    await reRun(created.raw_id, { reset: true })
    expect((await artifactRow(test, created.raw_id))!.extraction_status).toBe('succeeded')
    expect(await statusEvents(created.raw_id)).toHaveLength(4)
    expect(await ids()).toEqual(first)

    csvVersion = '1.1.0'
    try {
      await reRun(created.raw_id, { reset: true })
      expect(await ids()).toHaveLength(10)
      expect((await ids()).slice(0, 5)).toEqual(first)
      const filtered = await test.request({ method: 'GET', url: `/v1/raw/${created.raw_id}/parsed?parser_version=1.1.0`, token: owner.token })
      expect(filtered.json().parsed.map((row: { parser_version: string }) => row.parser_version)).toEqual(Array(5).fill('1.1.0'))
      expect((await artifactRow(test, created.raw_id))!.parser_version).toBe('1.1.0')
    } finally {
      csvVersion = '1.0.0'
    }
  }, 60_000)

  /** Starts two extraction jobs of one artifact while its row is held, lets them go at once, waits for both. */
  async function runTwoExtractionsAtOnce(rawId: string) {
    const jobIds: string[] = []
    // Hold the artifact's row so that both jobs start and wait, then let them go at once.
    await test.runtime.db.dedicatedConnection!(async (connection) => {
      await connection.transaction(async (tx) => {
        await tx.execute(sql`select 1 from raw_artifacts where id = ${rawId} for update`)
        const [holder] = await queryRows<{ pid: number }>(tx, sql`select pg_backend_pid() as pid`)
        for (let run = 0; run < 2; run += 1) {
          jobIds.push(await test.runtime.db.transaction((enqueue) => test.runtime.jobs.enqueue(enqueue, rawExtractQueue, { tenant_id: owner.tenantId, artifact_id: rawId })))
        }
        // Both jobs wait for this connection, the second behind the first (other test files share the
        // database: count only these).
        const waiting = async () =>
          (
            await queryRows<{ n: number }>(
              test.runtime.db.orm,
              sql`with direct as (select pid from pg_stat_activity where ${holder!.pid}::int = any(pg_blocking_pids(pid)))
                  select count(*)::int as n from pg_stat_activity a
                   where a.pid in (select pid from direct) or exists (select 1 from direct d where d.pid = any(pg_blocking_pids(a.pid)))`,
            )
          )[0]!.n
        await expect.poll(waiting, { timeout: 30_000, interval: 50 }).toBe(2)
      })
    })
    const states = async () =>
      (await queryRows<{ state: string }>(test.runtime.db.orm, sql`select state from ${sql.identifier(test.jobSchema)}.job where id = any(${sql.param(jobIds)}::uuid[]) order by state`)).map((row) => row.state)
    await expect.poll(states, { timeout: 30_000, interval: 100 }).toEqual(['completed', 'completed'])
  }

  // PGlite has one connection: two extractions cannot run at once there.
  it.skipIf(testDatabaseUrl() === undefined)('runs two extractions of one artifact one after the other: the second finds it done and changes nothing', async () => {
    const created = await upload(uniqueCsv(4), 'twice.csv', 'text/csv')
    await settledExtraction(test, created.raw_id)
    const eventsBefore = (await statusEvents(created.raw_id)).length
    const normalizeJobs = async () =>
      (await queryRows<{ n: number }>(test.runtime.db.orm, sql`select count(*)::int as n from ledger_jobs where kind = 'normalize' and input->>'artifact_id' = ${created.raw_id}`))[0]!.n
    const normalizeJobsBefore = await normalizeJobs()
    // As if never extracted: no rows of the parser version (the first run then writes without conflict handling).
    await test.runtime.db.orm.execute(sql`delete from raw_parsed_rows where raw_artifact_id = ${created.raw_id}`)
    await test.runtime.db.orm.execute(sql`update raw_artifacts set extraction_status = 'pending' where id = ${created.raw_id}`)
    await runTwoExtractionsAtOnce(created.raw_id)
    expect(await parsedCount(created.raw_id)).toBe(4)
    const row = (await artifactRow(test, created.raw_id))!
    expect([row.extraction_status, row.extraction_error]).toEqual(['succeeded', null])
    // One run's transitions and one normalization, whichever job got the artifact first: the other found
    // it done, under the artifact's row lock, and left its status and the Ledger alone.
    expect((await statusEvents(created.raw_id)).slice(eventsBefore)).toEqual([
      ['pending', 'running'],
      ['running', 'succeeded'],
    ])
    expect(await normalizeJobs()).toBe(normalizeJobsBefore + 1)
  }, 60_000)

  it.skipIf(testDatabaseUrl() === undefined)('skips an artifact no parser accepts once when two extractions of it run at once', async () => {
    const created = await upload(fixture('tiny.pdf').toString('latin1') + uniqueCsv(1), 'twice.pdf', 'application/pdf', 'pdf_upload')
    await settledExtraction(test, created.raw_id)
    await test.runtime.db.orm.execute(sql`update raw_artifacts set extraction_status = 'pending' where id = ${created.raw_id}`)
    await runTwoExtractionsAtOnce(created.raw_id)
    expect((await artifactRow(test, created.raw_id))!.extraction_status).toBe('skipped')
    // The first upload's transition and one more: the job that waited found the artifact skipped.
    expect(await statusEvents(created.raw_id)).toEqual([
      ['pending', 'skipped'],
      ['pending', 'skipped'],
    ])
  }, 60_000)

  it('records an e-mail\'s attachments as child artifacts, each extracted on its own', async () => {
    const already = await upload(uniqueCsv(2), 'known.csv', 'text/csv')
    const alreadyContent = (await queryRows<{ sha256: string }>(test.runtime.db.orm, sql`select sha256 from raw_artifacts where id = ${already.raw_id}`))[0]!
    const knownCsv = await (async () => {
      const stream = await test.runtime.blobs.open(owner.tenantId, alreadyContent.sha256)
      const chunks: Buffer[] = []
      for await (const chunk of stream!) chunks.push(chunk as Buffer)
      return Buffer.concat(chunks).toString()
    })()
    const attachedCsv = uniqueCsv(3)
    const message = [
      'From: billing@vendor.example',
      'Subject: statements',
      '',
      `march.csv|text/csv|${attachedCsv.replaceAll('\n', '\\n')}`,
      `invoice.pdf|application/pdf|%PDF-1.4 ${Date.now()}`,
      'logo.png|image/png|png-bytes',
      `known.csv|text/csv|${knownCsv.replaceAll('\n', '\\n')}`,
    ].join('\n')
    const mail = await upload(message, 'statements.eml', 'message/rfc822', 'email_inbound')
    const done = await settledExtraction(test, mail.raw_id)
    expect(done).toMatchObject({ extraction_status: 'succeeded', parser: 'test_mail', parser_version: '2.0.0' })
    expect(await parsedCount(mail.raw_id)).toBe(1)

    const children = await queryRows<{ id: string; filename: string; mime_type: string; source_type: string; source_ref: Record<string, unknown> }>(
      test.runtime.db.orm,
      sql`select id, filename, mime_type, source_type, source_ref from raw_artifacts where parent_artifact_id = ${mail.raw_id} order by filename`,
    )
    // The PNG is not a Raw media type (its bytes stay inside the message); the known CSV deduplicates to the existing artifact.
    expect(children.map((child) => [child.filename, child.mime_type, child.source_type])).toEqual([
      ['invoice.pdf', 'application/pdf', 'email_inbound'],
      ['march.csv', 'text/csv', 'email_inbound'],
    ])
    expect(children[1]!.source_ref).toEqual({ parent_raw_id: mail.raw_id, attachment_filename: 'march.csv' })
    const csvChild = children.find((child) => child.filename === 'march.csv')!
    expect((await settledExtraction(test, csvChild.id)).extraction_status).toBe('succeeded')
    expect(await parsedCount(csvChild.id)).toBe(3)
    expect((await settledExtraction(test, children.find((child) => child.filename === 'invoice.pdf')!.id)).extraction_status).toBe('skipped')
    expect((await artifactRow(test, already.raw_id))!.parent_artifact_id).toBeNull()
    // Each child was announced and audited as an ingest by the extraction.
    expect((await eventsOf(test, owner.tenantId, 'raw.ingest.new')).filter((event) => event.payload.parent_raw_id === mail.raw_id)).toHaveLength(2)
    expect((await auditActions(test, owner.tenantId, csvChild.id))[0]).toMatchObject({ action: 'raw.artifact_ingested', actor_type: 'system', actor_id: 'raw-extract' })
    const read = (await test.request({ method: 'GET', url: `/v1/raw/${csvChild.id}`, token: owner.token })).json()
    expect(read.parent_raw_id).toBe(mail.raw_id)
  }, 60_000)

  it('keeps nothing of an e-mail whose parsing fails after yielding attachments', async () => {
    const attached = uniqueCsv(2)
    const message = ['Subject: cut off', '', `early.csv|text/csv|${attached.replaceAll('\n', '\\n')}`, 'FAIL'].join('\n')
    const mail = await upload(message, 'cut.eml', 'message/rfc822', 'email_inbound')
    expect((await settledExtraction(test, mail.raw_id)).extraction_status).toBe('failed')
    const [children] = await queryRows<{ n: number }>(test.runtime.db.orm, sql`select count(*)::int as n from raw_artifacts where parent_artifact_id = ${mail.raw_id}`)
    expect(children!.n).toBe(0)
    const { createHash } = await import('node:crypto')
    expect(await test.runtime.blobs.open(owner.tenantId, createHash('sha256').update(attached).digest('hex'))).toBeUndefined()
  })

  it('does nothing for a tombstoned artifact', async () => {
    const created = await upload(uniqueCsv(2), 'gone.csv', 'text/csv')
    await settledExtraction(test, created.raw_id)
    expect((await test.request({ method: 'DELETE', url: `/v1/raw/${created.raw_id}`, token: owner.token })).statusCode).toBe(204)
    const events = (await statusEvents(created.raw_id)).length
    await reRun(created.raw_id, { reset: true })
    expect((await statusEvents(created.raw_id)).length).toBe(events)
  })
})

describe('GET /v1/raw/{raw_id}/parsed', () => {
  it('lists parsed rows with the spec fields, paginated by cursor, filtered by parser', async () => {
    const created = await upload(uniqueCsv(7), 'paged.csv', 'text/csv')
    await settledExtraction(test, created.raw_id)
    const first = await test.request({ method: 'GET', url: `/v1/raw/${created.raw_id}/parsed?limit=3`, token: owner.token })
    expect(first.statusCode, first.body).toBe(200)
    const page = first.json()
    expect(page.raw_id).toBe(created.raw_id)
    expect(page.parsed).toHaveLength(3)
    expect(page.parsed[0]).toEqual({
      id: deterministicId('parsedRow', created.raw_id, 'test_csv', '1.0.0', '0'),
      raw_artifact_id: created.raw_id,
      parser: 'test_csv',
      parser_version: '1.0.0',
      row_index: 0,
      extracted: expect.objectContaining({ kind: 'transaction', currency: 'EUR', amount: '-1.00' }),
      confidence: 0.9,
      extracted_at: expect.any(String),
    })
    const seen = [...page.parsed]
    let cursor = page.next_cursor
    while (cursor !== null) {
      const next = (await test.request({ method: 'GET', url: `/v1/raw/${created.raw_id}/parsed?limit=3&cursor=${encodeURIComponent(cursor)}`, token: owner.token })).json()
      seen.push(...next.parsed)
      cursor = next.next_cursor
    }
    expect(seen.map((row: { row_index: number }) => row.row_index)).toEqual([0, 1, 2, 3, 4, 5, 6])
    expect((await test.request({ method: 'GET', url: `/v1/raw/${created.raw_id}/parsed?parser=test_mail`, token: owner.token })).json().parsed).toEqual([])
    expect((await test.request({ method: 'GET', url: `/v1/raw/${created.raw_id}/parsed?parser=test_csv&parser_version=1.0.0`, token: owner.token })).json().parsed).toHaveLength(7)
    // A cursor is bound to its artifact and filters.
    expectError(await test.request({ method: 'GET', url: `/v1/raw/${created.raw_id}/parsed?parser=test_csv&cursor=${encodeURIComponent(page.next_cursor)}`, token: owner.token }), 'invalid_cursor')
    expectError(await test.request({ method: 'GET', url: `/v1/raw/${created.raw_id}/parsed?limit=1001`, token: owner.token }), 'request_params_invalid')
  })
})
