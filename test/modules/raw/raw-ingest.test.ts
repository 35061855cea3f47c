/**
 * POST /v1/raw/ingest (multipart), reads with signed URLs, tombstones and retention, on both engines.
 * Extraction is not under test here: no parser accepts these artifacts (the registry is replaced by one
 * that accepts nothing), so they end `skipped` whatever the parsers being written elsewhere do.
 */
import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '../../../src/platform/db/database.ts'
import { hmacSha256Hex } from '../../../src/kernel/hashing.ts'
import { contentSignature } from '../../../src/modules/raw/domain/signed-url.ts'
import { artifactBytesMax } from '../../../src/modules/raw/ingest-rules.ts'
import { tombstoneRetentionDays } from '../../../src/modules/raw/retention.job.ts'
import { addMember, createTestApp, expectError, fixedClock, issueApiKey, mintServiceToken, signupOwner, testPassword, testPublicBaseUrl, type TenantOwner, type TestApp } from '../../support/harness.ts'
import {
  artifactRow,
  auditActions,
  eventsOf,
  fixture,
  ingestFile,
  multipartBody,
  settledExtraction,
  streamingMultipart,
  uniqueCsv,
} from '../../fixtures/raw/ingest/raw-test-kit.ts'
import { rawRetentionPurgeQueue } from '../../../src/modules/raw/raw.jobs.ts'

const sha256 = (content: Buffer | string) => createHash('sha256').update(content).digest('hex')

let test: TestApp
let owner: TenantOwner
beforeAll(async () => {
  test = await createTestApp({ workers: true, runtime: { raw: { selectParser: () => undefined } } })
  owner = await signupOwner(test)
})
afterAll(async () => test?.close())

describe('POST /v1/raw/ingest (multipart)', () => {
  it('stores the file, answers 201 with the spec fields, audits it, announces it and queues its extraction', async () => {
    const csv = uniqueCsv()
    const response = await ingestFile(test, owner.token, { sourceType: 'csv_upload', file: { filename: 'march.csv', contentType: 'text/csv', content: csv }, sourceRef: '{"account":"Main EUR"}' })
    expect(response.statusCode, response.body).toBe(201)
    const body = response.json()
    expect(body).toEqual({
      raw_id: expect.stringMatching(/^raw_[0-9A-Z]{26}$/),
      sha256: sha256(csv),
      source_type: 'csv_upload',
      bytes: Buffer.byteLength(csv),
      ingested_at: expect.any(String),
      deduplicated: false,
    })
    const row = (await artifactRow(test, body.raw_id))!
    expect(row).toMatchObject({ status: 'stored', mime_type: 'text/csv', filename: 'march.csv', source_type: 'csv_upload', source_ref: { account: 'Main EUR' }, parent_artifact_id: null })
    // The bytes are in the store under their SHA-256, exactly.
    const stored = await test.runtime.blobs.open(owner.tenantId, body.sha256)
    const chunks: Buffer[] = []
    for await (const chunk of stored!) chunks.push(chunk as Buffer)
    expect(Buffer.concat(chunks).toString()).toBe(csv)

    const audit = await auditActions(test, owner.tenantId, body.raw_id)
    expect(audit[0]).toMatchObject({ action: 'raw.artifact_ingested', layer: 'raw', actor_type: 'user', actor_id: owner.userId, outputs: { sha256: body.sha256, source_type: 'csv_upload', mime_type: 'text/csv' } })
    const events = (await eventsOf(test, owner.tenantId, 'raw.ingest.new')).filter((event) => event.payload.raw_id === body.raw_id)
    expect(events).toHaveLength(1)
    expect(events[0]!.payload).toMatchObject({ raw_id: body.raw_id, sha256: body.sha256, source_type: 'csv_upload', bytes: body.bytes })
    // The extraction job ran (and found no parser, as configured here).
    expect((await settledExtraction(test, body.raw_id)).extraction_status).toBe('skipped')
  })

  it('is idempotent by SHA-256: 201 first, then 200 deduplicated with the original raw_id', async () => {
    const csv = uniqueCsv()
    const first = await ingestFile(test, owner.token, { file: { filename: 'a.csv', contentType: 'text/csv', content: csv } })
    expect(first.statusCode).toBe(201)
    const again = await ingestFile(test, owner.token, { sourceType: 'other', file: { filename: 'renamed.csv', contentType: 'text/csv', content: csv } })
    expect(again.statusCode, again.body).toBe(200)
    expect(again.json()).toEqual({ ...first.json(), deduplicated: true })
    const [count] = await queryRows<{ n: number }>(test.runtime.db.orm, sql`select count(*)::int as n from raw_artifacts where tenant_id = ${owner.tenantId} and sha256 = ${sha256(csv)}`)
    expect(count!.n).toBe(1)
    expect((await eventsOf(test, owner.tenantId, 'raw.ingest.deduplicated')).some((event) => event.payload.raw_id === first.json().raw_id)).toBe(true)
    expect((await auditActions(test, owner.tenantId, first.json().raw_id)).map((event) => event.action)).toContain('raw.artifact_deduplicated')
    // Another tenant's identical bytes are its own artifact.
    const other = await signupOwner(test)
    const theirs = await ingestFile(test, other.token, { file: { filename: 'a.csv', contentType: 'text/csv', content: csv } })
    expect(theirs.statusCode).toBe(201)
    expect(theirs.json().raw_id).not.toBe(first.json().raw_id)
  })

  it('gives two simultaneous identical uploads one artifact (one 201, the rest 200 with the same raw_id)', async () => {
    const csv = uniqueCsv(50)
    const responses = await Promise.all([1, 2, 3, 4].map(() => ingestFile(test, owner.token, { file: { filename: 'race.csv', contentType: 'text/csv', content: csv } })))
    const statuses = responses.map((response) => response.statusCode).sort()
    expect(statuses, responses.map((response) => response.body).join('\n')).toEqual([200, 200, 200, 201])
    expect(new Set(responses.map((response) => response.json().raw_id)).size).toBe(1)
    const [count] = await queryRows<{ n: number }>(test.runtime.db.orm, sql`select count(*)::int as n from raw_artifacts where tenant_id = ${owner.tenantId} and sha256 = ${sha256(csv)}`)
    expect(count!.n).toBe(1)
  })

  it('accepts each documented media type, refining a generic one by the file name', async () => {
    const cases: Array<[string | undefined, string, string | undefined, string]> = [
      ['text/csv', 'a.csv', undefined, 'text/csv'],
      ['application/octet-stream', 'statement.ofx', undefined, 'application/x-ofx'],
      ['application/octet-stream', 'statement.qfx', undefined, 'application/vnd.intu.qfx'],
      ['text/xml', 'camt053.xml', undefined, 'text/xml'],
      ['application/octet-stream', 'mt940.sta', undefined, 'application/x-mt940'],
      ['text/plain', 'statement.txt', undefined, 'text/plain'],
      ['application/pdf', 'invoice.pdf', undefined, 'application/pdf'],
      ['message/rfc822', 'mail.eml', undefined, 'message/rfc822'],
      ['application/json', 'payload.json', undefined, 'application/json'],
      ['text/plain', 'statement.csv', undefined, 'text/csv'],
      ['application/vnd.ms-excel', 'export.csv', undefined, 'text/csv'],
      // A charset given in the mime_type field is kept (a part's own Content-Type reaches us without parameters).
      ['text/csv', 'latin.csv', 'text/csv; charset=ISO-8859-1', 'text/csv; charset=iso-8859-1'],
      // The mime_type field wins over the part's type.
      ['application/octet-stream', 'blob.bin', 'application/x-ofx', 'application/x-ofx'],
    ]
    for (const [partType, filename, mimeType, stored] of cases) {
      const response = await ingestFile(test, owner.token, { file: { filename, contentType: partType, content: `${filename} ${uniqueCsv(1)}` }, ...(mimeType === undefined ? {} : { mimeType }) })
      expect(response.statusCode, `${partType} ${filename}: ${response.body}`).toBe(201)
      expect((await artifactRow(test, response.json().raw_id))!.mime_type, filename).toBe(stored)
    }
    const pdf = await ingestFile(test, owner.token, { sourceType: 'pdf_upload', file: { filename: 'tiny.pdf', contentType: 'application/pdf', content: fixture('tiny.pdf') } })
    expect([200, 201]).toContain(pdf.statusCode)
    const mail = await ingestFile(test, owner.token, { sourceType: 'email_inbound', file: { filename: 'message.eml', contentType: 'message/rfc822', content: fixture('message.eml') } })
    expect([200, 201]).toContain(mail.statusCode)
  })

  it('answers 415 for unsupported media, before storing anything', async () => {
    for (const [contentType, filename] of [['image/png', 'logo.png'], ['application/zip', 'statements.zip'], ['application/octet-stream', 'blob.bin'], ['text/html', 'page.html']] as const) {
      const content = uniqueCsv(1)
      const response = await ingestFile(test, owner.token, { file: { filename, contentType, content } })
      const error = expectError(response, 'request_media_type_unsupported')
      expect(error.details?.accepted).toEqual(expect.arrayContaining(['text/csv', 'application/pdf', 'message/rfc822']))
      expect(await test.runtime.blobs.open(owner.tenantId, sha256(content))).toBeUndefined()
    }
    expectError(await ingestFile(test, owner.token, { file: { filename: 'a.csv', contentType: 'text/csv', content: 'x' }, mimeType: 'image/gif' }), 'request_media_type_unsupported')
    // Neither multipart nor JSON.
    expectError(await test.request({ method: 'POST', url: '/v1/raw/ingest', token: owner.token, headers: { 'content-type': 'text/csv' }, payload: 'a,b\n1,2\n' }), 'request_media_type_unsupported')
  })

  it('answers 400 raw_source_unsupported for an unknown source_type and 403 raw_source_reserved for the provider types', async () => {
    const file = { filename: 'a.csv', contentType: 'text/csv', content: 'date,amount\n2024-01-01,1\n' }
    for (const sourceType of ['bank_statement', 'CSV_UPLOAD', '']) {
      const error = expectError(await ingestFile(test, owner.token, { sourceType, file }), 'raw_source_unsupported')
      expect(error.details).toEqual({ source_type: sourceType })
    }
    for (const sourceType of ['bank_provider', 'card_processor', 'erp_provider', 'accounting_provider', 'payroll_provider', 'chain_indexer_wallet', 'wiki_annotation']) {
      expectError(await ingestFile(test, owner.token, { sourceType, file }), 'raw_source_reserved')
    }
    for (const sourceType of ['email_inbound', 'csv_upload', 'pdf_upload', 'eth_address', 'agent_contributed', 'other']) {
      const response = await ingestFile(test, owner.token, { sourceType, file: { ...file, content: `${sourceType} ${uniqueCsv(1)}` } })
      expect(response.statusCode, `${sourceType}: ${response.body}`).toBe(201)
    }
  })

  it('refuses malformed forms with 400 request_body_invalid naming the part', async () => {
    const file = { filename: 'a.csv', contentType: 'text/csv', content: uniqueCsv(1) }
    const issuePath = async (response: Awaited<ReturnType<typeof ingestFile>>) => (expectError(response, 'request_body_invalid').details?.issues as Array<{ path: string }>)[0]!.path
    expect(await issuePath(await ingestFile(test, owner.token, { fields: [], file }))).toBe('/source_type')
    expect(await issuePath(await ingestFile(test, owner.token, { fields: [['source_type', 'csv_upload'], ['colour', 'blue']], file }))).toBe('/colour')
    expect(await issuePath(await ingestFile(test, owner.token, { sourceRef: '{not json', file }))).toBe('/source_ref')
    expect(await issuePath(await ingestFile(test, owner.token, { sourceRef: '[1,2]', file }))).toBe('/source_ref')
    expect(await issuePath(await ingestFile(test, owner.token, { file: { ...file, name: 'upload' } }))).toBe('/upload')
    const noFile = multipartBody([['source_type', 'csv_upload']])
    expect(await issuePath(await test.request({ method: 'POST', url: '/v1/raw/ingest', token: owner.token, ...noFile }))).toBe('/file')
    expect(await issuePath(await ingestFile(test, owner.token, { file: { ...file, content: '' } }))).toBe('/file')
    // A field after the file: refused, and the bytes written for the file are discarded again.
    const late = multipartBody([['source_type', 'csv_upload']], file, [['mime_type', 'text/csv']])
    expect(await issuePath(await test.request({ method: 'POST', url: '/v1/raw/ingest', token: owner.token, ...late }))).toBe('/mime_type')
    expect(await test.runtime.blobs.open(owner.tenantId, sha256(file.content))).toBeUndefined()
    // A truncated body.
    const cut = multipartBody([['source_type', 'csv_upload']], file)
    const truncated = await test.request({ method: 'POST', url: '/v1/raw/ingest', token: owner.token, headers: cut.headers, payload: cut.payload.subarray(0, cut.payload.length - 20) })
    expectError(truncated, 'request_body_invalid')
    // A multipart type without a boundary, and a file sent as a plain field.
    expectError(await test.request({ method: 'POST', url: '/v1/raw/ingest', token: owner.token, headers: { 'content-type': 'multipart/form-data' }, payload: 'x' }), 'request_body_invalid')
    expect(await issuePath(await test.request({ method: 'POST', url: '/v1/raw/ingest', token: owner.token, ...multipartBody([['source_type', 'csv_upload'], ['file', 'a,b']]) }))).toBe('/file')
    // JSON bodies keep the 1 MiB limit on this route too.
    const huge = await test.request({ method: 'POST', url: '/v1/raw/ingest', token: owner.token, payload: { source_type: 'csv_upload', url: 'http://example.com/a.csv', source_ref: { pad: 'x'.repeat(1_100_000) } } })
    expectError(huge, 'request_body_too_large')
  })

  it('answers 413 raw_artifact_too_large for a file of 50 MB + 1 byte, streamed, and stores nothing', async () => {
    const { payload, headers } = streamingMultipart('csv_upload', artifactBytesMax + 1)
    const response = await test.request({ method: 'POST', url: '/v1/raw/ingest', token: owner.token, headers, payload })
    expect(expectError(response, 'raw_artifact_too_large').details).toEqual({ bytes_max: artifactBytesMax })
    // No stray temporary file, no artifact row.
    const [rows] = await queryRows<{ n: number }>(test.runtime.db.orm, sql`select count(*)::int as n from raw_artifacts where tenant_id = ${owner.tenantId} and bytes > ${artifactBytesMax}`)
    expect(rows!.n).toBe(0)
    // A Content-Length beyond the file limit and the form overhead is refused before the body is read.
    const declared = await test.request({ method: 'POST', url: '/v1/raw/ingest', token: owner.token, headers: { ...headers, 'content-length': String(artifactBytesMax * 2) }, payload: Readable.from([Buffer.from('x')]) })
    expectError(declared, 'raw_artifact_too_large')
  }, 120_000)

  it('needs raw:write: viewers and API keys are refused', async () => {
    const viewer = await addMember(test, owner, 'viewer')
    const file = { filename: 'a.csv', contentType: 'text/csv', content: uniqueCsv(1) }
    expectError(await ingestFile(test, viewer.token, { file }), 'auth_scope_insufficient')
    const key = await issueApiKey(test, owner)
    expectError(await ingestFile(test, key.secret, { file }), 'auth_scope_insufficient')
    expectError(await ingestFile(test, 'not-a-token', { file }), 'auth_token_invalid')
  })
})

describe('GET /v1/raw/{raw_id} and the signed content URL', () => {
  it('answers the spec fields with a signed URL that serves the bytes as an attachment', async () => {
    const csv = uniqueCsv()
    const created = (await ingestFile(test, owner.token, { file: { filename: 'März statement.csv', contentType: 'text/csv', content: csv } })).json()
    const read = await test.request({ method: 'GET', url: `/v1/raw/${created.raw_id}`, token: owner.token })
    expect(read.statusCode, read.body).toBe(200)
    const body = read.json()
    expect(body).toMatchObject({ raw_id: created.raw_id, sha256: created.sha256, mime_type: 'text/csv', bytes: created.bytes, source_type: 'csv_upload', filename: 'März statement.csv' })
    const expiresInMs = Date.parse(body.expires_at) - Date.now()
    expect(expiresInMs).toBeGreaterThan(9 * 60 * 1000)
    expect(expiresInMs).toBeLessThanOrEqual(10 * 60 * 1000)
    const signed = new URL(body.signed_url)
    expect(`${signed.origin}`).toBe(testPublicBaseUrl)
    expect(signed.pathname).toBe(`/v1/raw/${created.raw_id}/content`)

    // No bearer: the signature is the credential.
    const content = await test.request({ method: 'GET', url: `${signed.pathname}${signed.search}` })
    expect(content.statusCode, content.body).toBe(200)
    expect(content.body).toBe(csv)
    expect(content.headers['content-type']).toBe('text/csv')
    expect(content.headers['x-content-type-options']).toBe('nosniff')
    expect(content.headers['content-disposition']).toBe(`attachment; filename="M_rz statement.csv"; filename*=UTF-8''M%C3%A4rz%20statement.csv`)
    expect(content.headers['content-length']).toBe(String(created.bytes))
    expect(content.headers.digest).toBe(`sha-256=${Buffer.from(created.sha256, 'hex').toString('base64')}`)
  })

  it('refuses a tampered signature, another artifact or tenant, and an expired URL with 403 raw_signature_invalid', async () => {
    const a = (await ingestFile(test, owner.token, { file: { filename: 'a.csv', contentType: 'text/csv', content: uniqueCsv() } })).json()
    const b = (await ingestFile(test, owner.token, { file: { filename: 'b.csv', contentType: 'text/csv', content: uniqueCsv() } })).json()
    const signed = new URL((await test.request({ method: 'GET', url: `/v1/raw/${a.raw_id}`, token: owner.token })).json().signed_url)
    const query = Object.fromEntries(signed.searchParams)
    const get = (rawId: string, params: Record<string, string>) => test.request({ method: 'GET', url: `/v1/raw/${rawId}/content?${new URLSearchParams(params).toString()}` })
    const flipped = `${query.signature!.slice(0, -2)}${query.signature!.endsWith('AA') ? 'AB' : 'AA'}`
    expect(expectError(await get(a.raw_id, { ...query, signature: flipped }), 'raw_signature_invalid').details).toEqual({ reason: 'mismatch' })
    expectError(await get(b.raw_id, query), 'raw_signature_invalid')
    expectError(await get(a.raw_id, { ...query, expires: String(Number(query.expires) + 3600) }), 'raw_signature_invalid')
    const other = await signupOwner(test)
    expectError(await get(a.raw_id, { ...query, tenant_id: other.tenantId }), 'raw_signature_invalid')
    expectError(await get(a.raw_id, { tenant_id: query.tenant_id!, expires: query.expires! }), 'request_params_invalid')

    // Expiry: a URL signed with the service's key (derived from JWT_SECRET) for a time now past.
    const key = hmacSha256Hex(test.config.jwtSecret, 'steward:raw-content-url:v1')
    expect(contentSignature(key, { tenantId: owner.tenantId, rawId: a.raw_id, expiresAtSeconds: Number(query.expires) })).toBe(query.signature)
    const past = Math.floor(Date.now() / 1000) - 1
    const expired = await get(a.raw_id, { tenant_id: owner.tenantId, expires: String(past), signature: contentSignature(key, { tenantId: owner.tenantId, rawId: a.raw_id, expiresAtSeconds: past }) })
    expect(expectError(expired, 'raw_signature_invalid').details).toEqual({ reason: 'expired' })
  })

  it('is 404 for an unknown artifact and for another tenant\'s', async () => {
    const mine = (await ingestFile(test, owner.token, { file: { filename: 'a.csv', contentType: 'text/csv', content: uniqueCsv() } })).json()
    const other = await signupOwner(test)
    expectError(await test.request({ method: 'GET', url: `/v1/raw/${mine.raw_id}`, token: other.token }), 'raw_artifact_not_found')
    expectError(await test.request({ method: 'GET', url: '/v1/raw/raw_00000000000000000000000000', token: owner.token }), 'raw_artifact_not_found')
    expectError(await test.request({ method: 'DELETE', url: `/v1/raw/${mine.raw_id}`, token: other.token }), 'raw_artifact_not_found')
    expectError(await test.request({ method: 'GET', url: `/v1/raw/${mine.raw_id}/parsed`, token: other.token }), 'raw_artifact_not_found')
    // Whatever its shape (issue 15, item 2).
    expectError(await test.request({ method: 'GET', url: '/v1/raw/not-an-id', token: owner.token }), 'raw_artifact_not_found')
    // The artifact is untouched by the foreign DELETE.
    expect((await test.request({ method: 'GET', url: `/v1/raw/${mine.raw_id}`, token: owner.token })).statusCode).toBe(200)
  })
})

describe('DELETE /v1/raw/{raw_id}', () => {
  it('tombstones: 204, then 410 for reads, the content URL, parsed rows and a second DELETE', async () => {
    const created = (await ingestFile(test, owner.token, { file: { filename: 'a.csv', contentType: 'text/csv', content: uniqueCsv() } })).json()
    const signed = new URL((await test.request({ method: 'GET', url: `/v1/raw/${created.raw_id}`, token: owner.token })).json().signed_url)
    const deleted = await test.request({ method: 'DELETE', url: `/v1/raw/${created.raw_id}`, token: owner.token })
    expect(deleted.statusCode, deleted.body).toBe(204)
    expect(deleted.body).toBe('')
    expectError(await test.request({ method: 'GET', url: `/v1/raw/${created.raw_id}`, token: owner.token }), 'raw_artifact_tombstoned')
    expectError(await test.request({ method: 'GET', url: `${signed.pathname}${signed.search}` }), 'raw_artifact_tombstoned')
    expectError(await test.request({ method: 'GET', url: `/v1/raw/${created.raw_id}/parsed`, token: owner.token }), 'raw_artifact_tombstoned')
    expectError(await test.request({ method: 'DELETE', url: `/v1/raw/${created.raw_id}`, token: owner.token }), 'raw_artifact_tombstoned')
    expect((await auditActions(test, owner.tenantId, created.raw_id)).map((event) => event.action)).toContain('raw.artifact_tombstoned')
    // The bytes are retained until the retention period ends.
    expect(await test.runtime.blobs.open(owner.tenantId, created.sha256)).toBeDefined()
    // Viewers cannot delete.
    const viewer = await addMember(test, owner, 'viewer')
    const another = (await ingestFile(test, owner.token, { file: { filename: 'b.csv', contentType: 'text/csv', content: uniqueCsv() } })).json()
    expectError(await test.request({ method: 'DELETE', url: `/v1/raw/${another.raw_id}`, token: viewer.token }), 'auth_scope_insufficient')
    expect((await test.request({ method: 'GET', url: `/v1/raw/${another.raw_id}`, token: viewer.token })).statusCode).toBe(200)
  })

  it('lets an agent tombstone only what it contributed; a member tombstones any artifact', async () => {
    const agent = await mintServiceToken(test, owner.tenantId)
    const members = (await ingestFile(test, owner.token, { file: { filename: 'bank.csv', contentType: 'text/csv', content: uniqueCsv() } })).json()
    const refused = expectError(await test.request({ method: 'DELETE', url: `/v1/raw/${members.raw_id}`, token: agent }), 'auth_scope_insufficient')
    expect(refused.details).toMatchObject({ raw_id: members.raw_id, required_principal_types: ['user'] })
    expect((await test.request({ method: 'GET', url: `/v1/raw/${members.raw_id}`, token: owner.token })).statusCode).toBe(200)
    expect((await auditActions(test, owner.tenantId, members.raw_id)).map((event) => event.action)).not.toContain('raw.artifact_tombstoned')

    const contributed = await ingestFile(test, agent, { file: { filename: 'agent.csv', contentType: 'text/csv', content: uniqueCsv() } })
    expect(contributed.statusCode, contributed.body).toBe(201)
    expect((await test.request({ method: 'DELETE', url: `/v1/raw/${contributed.json().raw_id}`, token: agent })).statusCode).toBe(204)
    // Another agent's contribution is not its own either; the member's DELETE takes the first one.
    const other = await mintServiceToken(test, owner.tenantId)
    const othersOwn = (await ingestFile(test, other, { file: { filename: 'other.csv', contentType: 'text/csv', content: uniqueCsv() } })).json()
    expectError(await test.request({ method: 'DELETE', url: `/v1/raw/${othersOwn.raw_id}`, token: agent }), 'auth_scope_insufficient')
    expect((await test.request({ method: 'DELETE', url: `/v1/raw/${members.raw_id}`, token: owner.token })).statusCode).toBe(204)
  })

  it('restores a tombstoned artifact when a member ingests the same bytes again (200, same raw_id)', async () => {
    const csv = uniqueCsv()
    const created = (await ingestFile(test, owner.token, { file: { filename: 'a.csv', contentType: 'text/csv', content: csv } })).json()
    expect((await test.request({ method: 'DELETE', url: `/v1/raw/${created.raw_id}`, token: owner.token })).statusCode).toBe(204)
    const again = await ingestFile(test, owner.token, { file: { filename: 'a.csv', contentType: 'text/csv', content: csv } })
    expect(again.statusCode, again.body).toBe(200)
    expect(again.json()).toMatchObject({ raw_id: created.raw_id, deduplicated: true })
    expect((await test.request({ method: 'GET', url: `/v1/raw/${created.raw_id}`, token: owner.token })).statusCode).toBe(200)
    const actions = (await auditActions(test, owner.tenantId, created.raw_id)).map((event) => event.action)
    expect(actions.indexOf('raw.artifact_restored')).toBeGreaterThan(actions.indexOf('raw.artifact_tombstoned'))
    expect(actions[0]).toBe('raw.artifact_ingested')
  })
})

describe('retention', () => {
  it(`purges tombstoned bytes after ${tombstoneRetentionDays} days (raw-retention-purge), keeping the row`, async () => {
    const clock = fixedClock(new Date())
    const app = await createTestApp({ clock, workers: true, runtime: { raw: { selectParser: () => undefined } } })
    try {
      const tenant = await signupOwner(app)
      const oldCsv = uniqueCsv()
      const old = (await ingestFile(app, tenant.token, { file: { filename: 'old.csv', contentType: 'text/csv', content: oldCsv } })).json()
      const recent = (await ingestFile(app, tenant.token, { file: { filename: 'recent.csv', contentType: 'text/csv', content: uniqueCsv() } })).json()
      const kept = (await ingestFile(app, tenant.token, { file: { filename: 'kept.csv', contentType: 'text/csv', content: uniqueCsv() } })).json()
      expect((await app.request({ method: 'DELETE', url: `/v1/raw/${old.raw_id}`, token: tenant.token })).statusCode).toBe(204)
      clock.advance((tombstoneRetentionDays - 1) * 24 * 60 * 60 * 1000)
      const token = (await app.request({ method: 'POST', url: '/v1/auth/login', payload: { email: tenant.email, password: testPassword } })).json().access_token
      expect((await app.request({ method: 'DELETE', url: `/v1/raw/${recent.raw_id}`, token })).statusCode).toBe(204)
      clock.advance(2 * 24 * 60 * 60 * 1000)

      await app.runtime.db.transaction((tx) => app.runtime.jobs.enqueue(tx, rawRetentionPurgeQueue, {}))
      await expect.poll(async () => (await artifactRow(app, old.raw_id))?.bytes_purged_at ?? null, { timeout: 20_000, interval: 100 }).not.toBeNull()
      expect(await app.runtime.blobs.open(tenant.tenantId, old.sha256)).toBeUndefined()
      expect((await artifactRow(app, old.raw_id))!.status).toBe('tombstoned')
      // Tombstoned 2 days ago: kept. Never tombstoned: kept.
      expect((await artifactRow(app, recent.raw_id))!.bytes_purged_at).toBeNull()
      expect(await app.runtime.blobs.open(tenant.tenantId, recent.sha256)).toBeDefined()
      expect(await app.runtime.blobs.open(tenant.tenantId, kept.sha256)).toBeDefined()
      expect((await auditActions(app, tenant.tenantId, old.raw_id)).at(-1)).toMatchObject({ action: 'raw.artifact_bytes_purged', actor_type: 'system', outputs: { blob_deleted: true } })
      // Reads still answer 410.
      const fresh = (await app.request({ method: 'POST', url: '/v1/auth/login', payload: { email: tenant.email, password: testPassword } })).json().access_token
      expectError(await app.request({ method: 'GET', url: `/v1/raw/${old.raw_id}`, token: fresh }), 'raw_artifact_tombstoned')
      // A member uploading the same bytes again restores the artifact, bytes included.
      const restored = await ingestFile(app, fresh, { file: { filename: 'old.csv', contentType: 'text/csv', content: oldCsv } })
      expect(restored.json()).toMatchObject({ raw_id: old.raw_id, deduplicated: true })
      expect((await artifactRow(app, old.raw_id))!.bytes_purged_at).toBeNull()
      const signed = new URL((await app.request({ method: 'GET', url: `/v1/raw/${old.raw_id}`, token: fresh })).json().signed_url)
      expect((await app.request({ method: 'GET', url: `${signed.pathname}${signed.search}` })).body).toBe(oldCsv)
    } finally {
      await app.close()
    }
  })

  it('purges a deleted tenant\'s raw bytes with the tenant', async () => {
    const tenant = await signupOwner(test)
    const created = (await ingestFile(test, tenant.token, { file: { filename: 'a.csv', contentType: 'text/csv', content: uniqueCsv() } })).json()
    expect(await test.runtime.blobs.open(tenant.tenantId, created.sha256)).toBeDefined()
    const deleted = await test.request({ method: 'DELETE', url: `/v1/tenants/${tenant.tenantId}`, token: tenant.token })
    expect(deleted.statusCode, deleted.body).toBe(200)
    expect(deleted.json().deletedRows.raw_artifacts).toBe(1)
    await expect.poll(async () => (await test.runtime.blobs.open(tenant.tenantId, created.sha256)) === undefined, { timeout: 20_000, interval: 200 }).toBe(true)
  })
})
