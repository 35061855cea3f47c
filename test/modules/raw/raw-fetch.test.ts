/**
 * POST /v1/raw/ingest with a URL: the service fetches the file itself, under the egress rules.
 *
 * Two apps: one with RAW_FETCH_ALLOW_LOOPBACK=true (the documented sandbox setting) so that files can be
 * served from local test servers on 127.0.0.1, and one with the default (off), against which the SSRF
 * corpus is run. DNS is always a fake resolver: `files.test` and `other.test` name 127.0.0.1, the rest
 * name private or metadata addresses.
 */
import { createHash } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../../src/main/config.ts'
import { queryRows } from '../../../src/platform/db/database.ts'
import { rawFetchPolicy, urlRedirectsMax } from '../../../src/modules/raw/url-fetch.ts'
import { artifactBytesMax } from '../../../src/modules/raw/ingest-rules.ts'
import { createTestApp, expectError, signupOwner, type TenantOwner, type TestApp } from '../../support/harness.ts'
import { artifactRow, auditActions, fakeResolver, startFileServer, uniqueCsv, type FileServer } from '../../fixtures/raw/ingest/raw-test-kit.ts'

const sha256 = (content: Buffer | string) => createHash('sha256').update(content).digest('hex')
const resolver = fakeResolver({
  'files.test': ['127.0.0.1'],
  'other.test': ['127.0.0.1'],
  localhost: ['127.0.0.1', '::1'],
  'internal.test': ['10.0.0.5'],
  'metadata.test': ['169.254.169.254'],
  'mixed.test': ['93.184.216.34', '192.168.0.10'],
  'mapped.test': ['::ffff:10.1.2.3'],
  'cgnat.test': ['100.64.0.9'],
})

let loopbackApp: TestApp
let strictApp: TestApp
let owner: TenantOwner
let strictOwner: TenantOwner
let server: FileServer
let otherServer: FileServer

beforeAll(async () => {
  ;[loopbackApp, strictApp, server, otherServer] = await Promise.all([
    createTestApp({ env: { RAW_FETCH_ALLOW_LOOPBACK: 'true' }, runtime: { raw: { resolver, fetchTotalMs: 1_500, selectParser: () => undefined } } }),
    createTestApp({ runtime: { raw: { resolver, selectParser: () => undefined } } }),
    startFileServer(),
    startFileServer(),
  ])
  owner = await signupOwner(loopbackApp)
  strictOwner = await signupOwner(strictApp)
})
afterAll(async () => {
  await Promise.all([loopbackApp?.close(), strictApp?.close(), server?.close(), otherServer?.close()])
})

const ingestUrl = (app: TestApp, token: string, body: Record<string, unknown>) =>
  app.request({ method: 'POST', url: '/v1/raw/ingest', token, payload: { source_type: 'csv_upload', ...body } })

/** files.test on the first server's port: a name (not a literal address) that resolves to loopback. */
const filesUrl = (path: string) => `http://files.test:${server.port}${path}`

describe('fetching by URL (loopback allowed in this sandbox)', () => {
  it('fetches, stores and records the file: 201, then 200 deduplicated; the stored source_ref keeps no secret', async () => {
    const csv = uniqueCsv()
    server.serve('/statements/march.csv', { body: csv, headers: { 'content-type': 'text/csv; charset=utf-8' } })
    const response = await ingestUrl(loopbackApp, owner.token, {
      url: `${filesUrl('/statements/march.csv')}?token=query-secret-123`,
      source_ref: { account: 'Main EUR' },
      auth_header: 'Bearer header-secret-456',
    })
    expect(response.statusCode, response.body).toBe(201)
    expect(response.json()).toMatchObject({ sha256: sha256(csv), bytes: Buffer.byteLength(csv), source_type: 'csv_upload', deduplicated: false })
    const rawId = response.json().raw_id
    const [request] = server.requestsTo('/statements/march.csv')
    expect(request!.headers.authorization).toBe('Bearer header-secret-456')
    expect(request!.headers['user-agent']).toMatch(/^Steward-Raw-Fetch\//)

    const row = (await artifactRow(loopbackApp, rawId))!
    expect(row).toMatchObject({ mime_type: 'text/csv; charset=utf-8', filename: 'march.csv' })
    expect(row.source_ref).toEqual({
      account: 'Main EUR',
      fetched: {
        url: `http://files.test:${server.port}/statements/march.csv`,
        query_omitted: true,
        final_url: `http://files.test:${server.port}/statements/march.csv`,
        redirects: 0,
        auth_header_used: true,
      },
    })
    // Neither secret is anywhere in the artifact, its audit trail or its events.
    const stored = await queryRows<{ text: string }>(
      loopbackApp.runtime.db.orm,
      sql`select source_ref::text as text from raw_artifacts where tenant_id = ${owner.tenantId}
          union all select payload::text from events where tenant_id = ${owner.tenantId}`,
    )
    for (const event of await auditActions(loopbackApp, owner.tenantId)) stored.push({ text: JSON.stringify([event.inputs, event.outputs]) })
    expect(stored.length).toBeGreaterThan(2)
    for (const { text } of stored) {
      expect(text).not.toContain('header-secret-456')
      expect(text).not.toContain('query-secret-123')
    }
    expect((await auditActions(loopbackApp, owner.tenantId, rawId))[0]!.action).toBe('raw.artifact_ingested')

    const again = await ingestUrl(loopbackApp, owner.token, { url: filesUrl('/statements/march.csv') })
    expect(again.statusCode, again.body).toBe(200)
    expect(again.json()).toMatchObject({ raw_id: rawId, deduplicated: true })
  })

  it('sends auth_header to the URL\'s origin only: a redirect to another origin never carries it', async () => {
    const csv = uniqueCsv()
    otherServer.serve('/elsewhere.csv', { body: csv, headers: { 'content-type': 'text/csv' } })
    server.serve('/start', { redirect: `http://other.test:${otherServer.port}/elsewhere.csv` })
    const response = await ingestUrl(loopbackApp, owner.token, { url: filesUrl('/start'), auth_header: 'Bearer only-for-files-test' })
    expect(response.statusCode, response.body).toBe(201)
    expect(server.requestsTo('/start').at(-1)!.headers.authorization).toBe('Bearer only-for-files-test')
    const [forwarded] = otherServer.requestsTo('/elsewhere.csv')
    expect(forwarded!.headers.authorization).toBeUndefined()
    expect(forwarded!.headers.cookie).toBeUndefined()
    expect((await artifactRow(loopbackApp, response.json().raw_id))!.source_ref).toMatchObject({
      fetched: { url: filesUrl('/start'), final_url: `http://other.test:${otherServer.port}/elsewhere.csv`, redirects: 1, auth_header_used: true },
    })

    // The same host on another port is another origin too; a redirect within the origin keeps the header.
    const second = uniqueCsv()
    server.serve('/same-origin.csv', { body: second, headers: { 'content-type': 'text/csv' } })
    server.serve('/hop', { redirect: '/same-origin.csv', status: 307 })
    expect((await ingestUrl(loopbackApp, owner.token, { url: filesUrl('/hop'), auth_header: 'Bearer same-origin' })).statusCode).toBe(201)
    expect(server.requestsTo('/same-origin.csv').at(-1)!.headers.authorization).toBe('Bearer same-origin')
  })

  it('refuses a redirect from an allowed host to an internal one, re-checking every hop', async () => {
    const cases: Array<[string, string]> = [
      ['http://169.254.169.254/latest/meta-data/iam/security-credentials/', 'address_not_public'],
      ['http://metadata.test/latest/meta-data/', 'address_not_public'],
      ['http://internal.test/admin', 'address_not_public'],
      ['http://10.0.0.1/', 'address_not_public'],
      ['http://[::ffff:10.0.0.1]/', 'address_not_public'],
      ['http://[fd00::1]/', 'address_not_public'],
      ['http://mapped.test/', 'address_not_public'],
      ['ftp://files.test/statement.csv', 'scheme_not_allowed'],
      ['file:///etc/passwd', 'scheme_not_allowed'],
      [`http://user:pass@files.test:${server.port}/x`, 'credentials_in_url'],
    ]
    for (const [index, [target, reason]] of cases.entries()) {
      server.serve(`/bounce-${index}`, { redirect: target })
      const error = expectError(await ingestUrl(loopbackApp, owner.token, { url: filesUrl(`/bounce-${index}`) }), 'raw_fetch_refused')
      expect(error.details?.reason, target).toBe(reason)
    }
  })

  it('refuses a redirect loop and more than 5 redirects', async () => {
    server.serve('/loop-a', { redirect: '/loop-b' })
    server.serve('/loop-b', { redirect: '/loop-a' })
    expect(expectError(await ingestUrl(loopbackApp, owner.token, { url: filesUrl('/loop-a') }), 'raw_fetch_refused').details?.reason).toBe('redirect_loop')
    server.serve('/self', { redirect: '/self', status: 301 })
    expect(expectError(await ingestUrl(loopbackApp, owner.token, { url: filesUrl('/self') }), 'raw_fetch_refused').details?.reason).toBe('redirect_loop')

    for (let hop = 0; hop <= urlRedirectsMax + 1; hop += 1) server.serve(`/chain-${hop}`, { redirect: `/chain-${hop + 1}` })
    const csv = uniqueCsv()
    server.serve(`/chain-${urlRedirectsMax + 2}`, { body: csv, headers: { 'content-type': 'text/csv' } })
    expect(expectError(await ingestUrl(loopbackApp, owner.token, { url: filesUrl('/chain-0') }), 'raw_fetch_refused').details?.reason).toBe('redirect_limit_exceeded')
    expect(server.requestsTo(`/chain-${urlRedirectsMax + 1}`)).toHaveLength(0)
    // Exactly five redirects are followed.
    const response = await ingestUrl(loopbackApp, owner.token, { url: filesUrl('/chain-2') })
    expect(response.statusCode, response.body).toBe(201)
    expect((await artifactRow(loopbackApp, response.json().raw_id))!.source_ref).toMatchObject({ fetched: { redirects: urlRedirectsMax } })
  })

  it('answers 400 raw_fetch_failed for remote failures: an error status, a bad redirect, the time limit, a closed port', async () => {
    server.serve('/missing.csv', { status: 404, body: 'nope' })
    expect(expectError(await ingestUrl(loopbackApp, owner.token, { url: filesUrl('/missing.csv') }), 'raw_fetch_failed').details).toEqual({ reason: 'http_status', status: 404 })
    server.serve('/no-location', { status: 302, body: '' })
    expect(expectError(await ingestUrl(loopbackApp, owner.token, { url: filesUrl('/no-location') }), 'raw_fetch_failed').details?.reason).toBe('redirect_invalid')
    server.serve('/slow.csv', 'hang')
    expect(expectError(await ingestUrl(loopbackApp, owner.token, { url: filesUrl('/slow.csv') }), 'raw_fetch_failed').details?.reason).toBe('timeout')
    server.serve('/empty.csv', { body: '', headers: { 'content-type': 'text/csv' } })
    expect(expectError(await ingestUrl(loopbackApp, owner.token, { url: filesUrl('/empty.csv') }), 'raw_fetch_failed').details?.reason).toBe('empty_body')
    expect(expectError(await ingestUrl(loopbackApp, owner.token, { url: 'http://files.test:9/closed.csv' }), 'raw_fetch_failed').details?.reason).toBe('connection_failed')
    expect(expectError(await ingestUrl(loopbackApp, owner.token, { url: 'http://nowhere.test/a.csv' }), 'raw_fetch_refused').details?.reason).toBe('host_unresolvable')
  })

  it('applies the media-type and size rules to fetched files', async () => {
    server.serve('/logo.png', { body: 'png bytes', headers: { 'content-type': 'image/png' } })
    expectError(await ingestUrl(loopbackApp, owner.token, { url: filesUrl('/logo.png') }), 'request_media_type_unsupported')
    const ofx = `OFXHEADER:100 ${uniqueCsv(1)}`
    server.serve('/download/statement.ofx', { body: ofx, headers: { 'content-type': 'application/octet-stream' } })
    const byExtension = await ingestUrl(loopbackApp, owner.token, { url: filesUrl('/download/statement.ofx') })
    expect(byExtension.statusCode, byExtension.body).toBe(201)
    expect((await artifactRow(loopbackApp, byExtension.json().raw_id))!.mime_type).toBe('application/x-ofx')
    const declared = `<Document/> ${uniqueCsv(1)}`
    server.serve('/export', { body: declared, headers: { 'content-type': 'application/octet-stream' } })
    const withMimeType = await ingestUrl(loopbackApp, owner.token, { url: filesUrl('/export'), mime_type: 'application/xml' })
    expect(withMimeType.statusCode, withMimeType.body).toBe(201)
    expect((await artifactRow(loopbackApp, withMimeType.json().raw_id))!.mime_type).toBe('application/xml')

    server.serve('/declared-huge.csv', { body: 'a,b\n', headers: { 'content-type': 'text/csv', 'content-length': String(artifactBytesMax + 1) } })
    expectError(await ingestUrl(loopbackApp, owner.token, { url: filesUrl('/declared-huge.csv') }), 'raw_artifact_too_large')
    server.serve('/streamed-huge.csv', { generate: artifactBytesMax + 1, headers: { 'content-type': 'text/csv' } })
    const streamed = await ingestUrl(loopbackApp, owner.token, { url: filesUrl('/streamed-huge.csv') })
    // Either the size limit or the (short, in this app) time limit stops it; never a stored artifact.
    expect(['raw_artifact_too_large', 'raw_fetch_failed']).toContain(streamed.json().error.code)
  }, 60_000)

  it('validates the JSON body and the source type first', async () => {
    expectError(await ingestUrl(loopbackApp, owner.token, { url: filesUrl('/a.csv'), source_type: 'bank_provider' }), 'raw_source_reserved')
    expectError(await ingestUrl(loopbackApp, owner.token, { url: filesUrl('/a.csv'), source_type: 'statement' }), 'raw_source_unsupported')
    expectError(await ingestUrl(loopbackApp, owner.token, { url: filesUrl('/a.csv'), extra: true }), 'request_body_invalid')
    expectError(await ingestUrl(loopbackApp, owner.token, { url: filesUrl('/a.csv'), auth_header: 'Bearer a\r\nX-Injected: 1' }), 'request_body_invalid')
    expectError(await ingestUrl(loopbackApp, owner.token, { url: filesUrl('/a.csv'), mime_type: 'image/png' }), 'request_media_type_unsupported')
    expectError(await loopbackApp.request({ method: 'POST', url: '/v1/raw/ingest', token: owner.token, payload: { source_type: 'csv_upload' } }), 'request_body_invalid')
    expect(expectError(await ingestUrl(loopbackApp, owner.token, { url: 'not a url' }), 'raw_fetch_refused').details?.reason).toBe('url_invalid')
    expect(server.requestsTo('/a.csv')).toHaveLength(0)
  })
})

describe('the SSRF corpus (default sandbox: no private address, not even loopback)', () => {
  it.each([
    // Loopback, by every spelling: the URL parser normalizes decimal, octal and hex to 127.0.0.1.
    ['http://127.0.0.1:{port}/a.csv', 'address_not_public', '127.0.0.1'],
    ['http://localhost:{port}/a.csv', 'address_not_public', '127.0.0.1'],
    ['http://files.test:{port}/a.csv', 'address_not_public', '127.0.0.1'],
    ['http://2130706433:{port}/a.csv', 'address_not_public', '127.0.0.1'],
    ['http://0177.0.0.1:{port}/a.csv', 'address_not_public', '127.0.0.1'],
    ['http://0x7f.1:{port}/a.csv', 'address_not_public', '127.0.0.1'],
    ['http://0x7f000001:{port}/a.csv', 'address_not_public', '127.0.0.1'],
    ['http://127.1:{port}/a.csv', 'address_not_public', '127.0.0.1'],
    ['http://[::1]:{port}/a.csv', 'address_not_public', '::1'],
    ['http://[::ffff:127.0.0.1]:{port}/a.csv', 'address_not_public', '127.0.0.1'],
    ['http://[0:0:0:0:0:ffff:7f00:1]:{port}/a.csv', 'address_not_public', '127.0.0.1'],
    // Private, link-local (cloud metadata), CGNAT, unspecified, multicast, unique-local.
    ['http://10.0.0.1/a.csv', 'address_not_public', '10.0.0.1'],
    ['http://172.16.0.1/a.csv', 'address_not_public', '172.16.0.1'],
    ['http://192.168.1.1/a.csv', 'address_not_public', '192.168.1.1'],
    ['http://169.254.169.254/latest/meta-data/', 'address_not_public', '169.254.169.254'],
    ['http://[::ffff:169.254.169.254]/latest/meta-data/', 'address_not_public', '169.254.169.254'],
    ['http://metadata.test/computeMetadata/v1/', 'address_not_public', '169.254.169.254'],
    ['http://100.64.0.1/a.csv', 'address_not_public', '100.64.0.1'],
    ['http://cgnat.test/a.csv', 'address_not_public', '100.64.0.9'],
    ['http://0.0.0.0:{port}/a.csv', 'address_not_public', '0.0.0.0'],
    ['http://0/a.csv', 'address_not_public', '0.0.0.0'],
    ['http://224.0.0.1/a.csv', 'address_not_public', '224.0.0.1'],
    ['http://[fe80::1]/a.csv', 'address_not_public', 'fe80::1'],
    ['http://[fd12:3456::1]/a.csv', 'address_not_public', 'fd12:3456::1'],
    ['http://internal.test/a.csv', 'address_not_public', '10.0.0.5'],
    ['http://mixed.test/a.csv', 'address_not_public', '192.168.0.10'],
    ['http://mapped.test/a.csv', 'address_not_public', '10.1.2.3'],
    // Schemes and credentials.
    ['ftp://files.test/a.csv', 'scheme_not_allowed', undefined],
    ['file:///etc/passwd', 'scheme_not_allowed', undefined],
    ['gopher://files.test:70/_a', 'scheme_not_allowed', undefined],
    ['http://user:pw@files.test/a.csv', 'credentials_in_url', undefined],
  ])('refuses %s (%s)', async (template, reason, address) => {
    server.serve('/a.csv', { body: uniqueCsv(), headers: { 'content-type': 'text/csv' } })
    const before = server.requests.length
    const error = expectError(await ingestUrl(strictApp, strictOwner.token, { url: template.replace('{port}', String(server.port)) }), 'raw_fetch_refused')
    expect(error.details?.reason).toBe(reason)
    // An IP literal's refusal names the address; a host name's only its range (no internal DNS oracle).
    if (address !== undefined) expect(error.details?.address).toBe(/^http:\/\/[\d.[]/.test(template) ? address : undefined)
    // Nothing was requested: the check comes before any connection.
    expect(server.requests.length).toBe(before)
  })

  it('leaves no artifact behind for a refused fetch', async () => {
    const [row] = await queryRows<{ n: number }>(strictApp.runtime.db.orm, sql`select count(*)::int as n from raw_artifacts where tenant_id = ${strictOwner.tenantId}`)
    expect(row!.n).toBe(0)
  })
})

describe('the private-host setting', () => {
  it('is off by default and refused in production', () => {
    const base = { JWT_SECRET: 'j'.repeat(32), API_KEY_PEPPER: 'p'.repeat(32), SMTP_URL: 'smtp://127.0.0.1:2525', PUBLIC_BASE_URL: 'https://steward.example' }
    expect(loadConfig({}).rawFetchAllowLoopback).toBe(false)
    expect(loadConfig({ RAW_FETCH_ALLOW_LOOPBACK: 'true' }).rawFetchAllowLoopback).toBe(true)
    expect(() => loadConfig({ ...base, STEWARD_ENV: 'production', RAW_FETCH_ALLOW_LOOPBACK: 'true' })).toThrow(ConfigError)
    expect(loadConfig({ ...base, STEWARD_ENV: 'production' }).rawFetchAllowLoopback).toBe(false)
    // Even if it were set, the production policy would not allow loopback, and requires https.
    expect(rawFetchPolicy('production', { allowLoopback: true })).toEqual({ httpsOnly: true, allowNonPublicAddresses: false, allowLoopback: false })
    expect(rawFetchPolicy('sandbox', { allowLoopback: false })).toEqual({ httpsOnly: false, allowNonPublicAddresses: false, allowLoopback: false })
  })
})
