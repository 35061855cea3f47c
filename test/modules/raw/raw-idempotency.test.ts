/**
 * Idempotency-Key on the Raw module's commands: both ingests (an upload, a fetch by URL) and the
 * tombstone replay the first outcome for a repeat (header Idempotent-Replayed: true, the command run
 * once) and refuse the key with another input (409 idempotency_key_reused); a malformed key is 400 before
 * anything runs. Ingest stays idempotent by content as well: the same bytes without the key, or with
 * another, are 200 deduplicated. The provider webhook takes no key.
 */
import { createHash, randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditActions } from '../../support/audit-log.ts'
import { createTestApp, expectError, signupOwner, type TestApp } from '../../support/harness.ts'
import { describeKeyedRoutes, keyed, newIdempotencyKey, type KeyedRequest, type KeyedRoute } from '../../support/idempotency-cases.ts'
import { fakeResolver, multipartBody, startFileServer, uniqueCsv, type FileServer } from '../../fixtures/raw/ingest/raw-test-kit.ts'
import { providerSignatureHeader } from '../../../src/modules/raw/domain/provider-signature.ts'

let test: TestApp
let server: FileServer
beforeAll(async () => {
  ;[test, server] = await Promise.all([
    createTestApp({
      env: { RAW_FETCH_ALLOW_LOOPBACK: 'true' },
      runtime: { raw: { resolver: fakeResolver({ 'files.test': ['127.0.0.1'] }), selectParser: () => undefined } },
    }),
    startFileServer(),
  ])
})
afterAll(async () => Promise.all([test?.close(), server?.close()]))

const sha256 = (content: Buffer | string) => createHash('sha256').update(content).digest('hex')
const newKey = newIdempotencyKey
type Request = KeyedRequest
const ingestActions = ['raw.artifact_ingested', 'raw.artifact_deduplicated', 'raw.artifact_restored']

function upload(token: string, csv: string, sourceRef = '{"account":"Main EUR"}'): Request {
  const { payload, headers } = multipartBody([['source_type', 'csv_upload'], ['source_ref', sourceRef]], { filename: 'march.csv', contentType: 'text/csv', content: csv })
  return { method: 'POST', url: '/v1/raw/ingest', token, headers, payload }
}

async function ingested(token: string, csv = uniqueCsv()): Promise<string> {
  const response = await test.request(upload(token, csv))
  expect(response.statusCode, response.body).toBe(201)
  return response.json().raw_id as string
}


const keyedRoutes: ReadonlyArray<KeyedRoute> = [
  [
    'POST /v1/raw/ingest (multipart upload)',
    async () => {
      const owner = await signupOwner(test)
      const csv = uniqueCsv()
      return {
        request: upload(owner.token, csv),
        other: upload(owner.token, uniqueCsv()),
        status: 201,
        runs: async () => (await auditActions(test, owner.tenantId, { actions: ingestActions })).length,
      }
    },
  ],
  [
    'POST /v1/raw/ingest (fetch by URL)',
    async () => {
      const owner = await signupOwner(test)
      const path = `/statements/${randomBytes(6).toString('hex')}.csv`
      server.serve(path, { body: uniqueCsv(), headers: { 'content-type': 'text/csv' } })
      const request = (sourceRef: Record<string, unknown>): Request => ({
        method: 'POST',
        url: '/v1/raw/ingest',
        token: owner.token,
        payload: { source_type: 'csv_upload', url: `http://files.test:${server.port}${path}`, source_ref: sourceRef },
      })
      return {
        request: request({ account: 'Main EUR' }),
        other: request({ account: 'Savings' }),
        status: 201,
        // Counts the fetches too: a replay fetches nothing.
        runs: async () => {
          const recorded = (await auditActions(test, owner.tenantId, { actions: ingestActions })).length
          expect(server.requestsTo(path)).toHaveLength(recorded)
          return recorded
        },
      }
    },
  ],
  [
    'DELETE /v1/raw/{raw_id}',
    async () => {
      const owner = await signupOwner(test)
      const [rawId, otherId] = [await ingested(owner.token), await ingested(owner.token)]
      return {
        request: { method: 'DELETE', url: `/v1/raw/${rawId}`, token: owner.token },
        other: { method: 'DELETE', url: `/v1/raw/${otherId}`, token: owner.token },
        status: 204,
        runs: async () => (await auditActions(test, owner.tenantId, { action: 'raw.artifact_tombstoned' })).length,
      }
    },
  ],
]

describe('Idempotency-Key on the Raw module\'s commands', () => {
  describeKeyedRoutes(() => test, keyedRoutes)

  it('keeps ingest idempotent by content beside the key: the same bytes without it or with another key are 200 deduplicated', async () => {
    const owner = await signupOwner(test)
    const csv = uniqueCsv()
    const first = await test.request(keyed(upload(owner.token, csv), newKey()))
    expect(first.statusCode, first.body).toBe(201)
    for (const request of [upload(owner.token, csv), keyed(upload(owner.token, csv), newKey())]) {
      const again = await test.request(request)
      expect(again.statusCode, again.body).toBe(200)
      expect(again.headers['idempotent-replayed']).toBeUndefined()
      expect(again.json()).toMatchObject({ raw_id: first.json().raw_id, deduplicated: true })
    }
    expect(await auditActions(test, owner.tenantId, { actions: ingestActions })).toEqual(['raw.artifact_ingested', 'raw.artifact_deduplicated', 'raw.artifact_deduplicated'])
  })

  it('does not keep the bytes of an upload refused for its reused key', async () => {
    const owner = await signupOwner(test)
    const key = newKey()
    expect((await test.request(keyed(upload(owner.token, uniqueCsv()), key))).statusCode).toBe(201)
    const refused = uniqueCsv()
    expectError(await test.request(keyed(upload(owner.token, refused), key)), 'idempotency_key_reused')
    expect(await test.runtime.blobs.open(owner.tenantId, sha256(refused))).toBeUndefined()
  })

  it('replays a tombstone for its key where a keyless repeat is 410', async () => {
    const owner = await signupOwner(test)
    const rawId = await ingested(owner.token)
    const request: Request = { method: 'DELETE', url: `/v1/raw/${rawId}`, token: owner.token }
    const key = newKey()
    expect((await test.request(keyed(request, key))).statusCode).toBe(204)
    expectError(await test.request(request), 'raw_artifact_tombstoned')
    expect((await test.request(keyed(request, key))).statusCode).toBe(204)
    expectError(await test.request(keyed(request, newKey())), 'raw_artifact_tombstoned')
  })
})

describe('the provider webhook takes no Idempotency-Key', () => {
  it('records each delivery by its bytes whatever key it carries', async () => {
    const owner = await signupOwner(test)
    const accountRef = `acct_idem_${randomBytes(6).toString('hex')}`
    const { secret } = (await test.runtime.services.connectors.add({ requestId: 'connectors-cli-test' }, { tenantId: owner.tenantId, provider: 'bank_provider', accountRef })).outcome
    const key = newKey()
    const deliver = (body: string) =>
      test.request({
        method: 'POST',
        url: '/v1/raw/webhooks/bank_provider',
        headers: {
          'content-type': 'application/json',
          'idempotency-key': key,
          'x-provider-account': accountRef,
          'x-provider-signature': providerSignatureHeader(secret, Math.floor(Date.now() / 1000), Buffer.from(body)),
        },
        payload: body,
      })
    for (const body of [JSON.stringify({ id: randomBytes(6).toString('hex') }), JSON.stringify({ id: randomBytes(6).toString('hex') })]) {
      const response = await deliver(body)
      expect(response.statusCode, response.body).toBe(202)
      expect(response.headers['idempotent-replayed']).toBeUndefined()
      expect(response.json().artifacts).toBe(1)
    }
  })
})
