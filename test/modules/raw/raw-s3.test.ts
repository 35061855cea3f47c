/**
 * Raw on the S3-compatible blob store (BLOB_STORE=s3), against real S3-protocol servers the test starts,
 * on both engines: ingest writes the object to the bucket, the signed URL is a presigned GET that
 * downloads the same bytes (and is refused once expired), tombstones keep the bytes until retention
 * purges them, and a deleted tenant's objects go, every version of them on a versioned bucket.
 */
import { readdirSync } from 'node:fs'
import { GetObjectCommand, ListObjectVersionsCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tombstoneRetentionDays } from '../../../src/modules/raw/retention.job.ts'
import { rawRetentionPurgeQueue } from '../../../src/modules/raw/raw.jobs.ts'
import { createTestApp, expectError, fixedClock, login, signupOwner, type TenantOwner, type TestApp } from '../../support/harness.ts'
import { motoAvailable, startMoto, startS3rver, type S3TestServer } from '../../support/s3-server.ts'
import { artifactRow, ingestFile, uniqueCsv } from '../../fixtures/raw/ingest/raw-test-kit.ts'

const prefix = 'steward/'
const dayMs = 24 * 60 * 60 * 1000

let s3rver: S3TestServer
let bucket: string
let test: TestApp
let owner: TenantOwner
const clock = fixedClock(new Date())

const keyOf = (tenantId: string, sha256: string) => `${prefix}${tenantId}/${sha256.slice(0, 2)}/${sha256}`

async function objectText(server: S3TestServer, inBucket: string, key: string): Promise<string | undefined> {
  try {
    const object = await server.client.send(new GetObjectCommand({ Bucket: inBucket, Key: key }))
    return await object.Body!.transformToString()
  } catch (error) {
    if ((error as { name?: string }).name === 'NoSuchKey') return undefined
    throw error
  }
}

async function keysUnder(server: S3TestServer, inBucket: string, keyPrefix: string): Promise<string[]> {
  const listing = await server.client.send(new ListObjectsV2Command({ Bucket: inBucket, Prefix: keyPrefix }))
  return (listing.Contents ?? []).map((object) => object.Key!)
}

beforeAll(async () => {
  s3rver = await startS3rver()
  bucket = await s3rver.createBucket()
  test = await createTestApp({ clock, workers: true, env: s3rver.env(bucket, { S3_PREFIX: prefix }), runtime: { raw: { selectParser: () => undefined } } })
  owner = await signupOwner(test)
})
afterAll(async () => {
  await test?.close()
  await s3rver?.close()
})

describe('Raw on an S3 bucket', () => {
  it('ingest stores the bytes as an object in the bucket, not on the filesystem', async () => {
    expect(test.runtime.blobs.kind).toBe('s3')
    const csv = uniqueCsv()
    const created = await ingestFile(test, owner.token, { file: { filename: 'statement.csv', contentType: 'text/csv', content: csv } })
    expect(created.statusCode, created.body).toBe(201)
    const { sha256 } = created.json()
    expect(await objectText(s3rver, bucket, keyOf(owner.tenantId, sha256))).toBe(csv)
    expect(readdirSync(test.config.dataDir)).not.toContain('blobs')
    // The same bytes again: deduplicated, still one object.
    expect((await ingestFile(test, owner.token, { file: { filename: 'again.csv', contentType: 'text/csv', content: csv } })).json()).toMatchObject({ deduplicated: true })
    expect(await keysUnder(s3rver, bucket, `${prefix}${owner.tenantId}/${sha256.slice(0, 2)}/`)).toEqual([keyOf(owner.tenantId, sha256)])
  })

  it('the signed URL is a presigned GET on the bucket that downloads the same bytes as an attachment for 10 minutes', async () => {
    const csv = uniqueCsv()
    const created = (await ingestFile(test, owner.token, { file: { filename: 'März statement.csv', contentType: 'text/csv', content: csv } })).json()
    const read = await test.request({ method: 'GET', url: `/v1/raw/${created.raw_id}`, token: owner.token })
    expect(read.statusCode, read.body).toBe(200)
    const body = read.json()
    const signed = new URL(body.signed_url)
    expect(signed.origin).toBe(s3rver.endpoint)
    expect(signed.pathname).toBe(`/${bucket}/${keyOf(owner.tenantId, created.sha256)}`)
    expect(signed.searchParams.get('X-Amz-Expires')).toBe('600')
    expect(Date.parse(body.expires_at) - clock.now().getTime()).toBeGreaterThan(9 * 60 * 1000)
    expect(Date.parse(body.expires_at) - clock.now().getTime()).toBeLessThanOrEqual(10 * 60 * 1000)

    // No credentials: the signature is the credential.
    const download = await fetch(signed)
    expect(download.status).toBe(200)
    expect(await download.text()).toBe(csv)
    expect(download.headers.get('content-type')).toBe('text/csv')
    expect(download.headers.get('content-disposition')).toBe(`attachment; filename="M_rz statement.csv"; filename*=UTF-8''M%C3%A4rz%20statement.csv`)
  })

  it('a presigned URL issued more than 10 minutes ago is refused by the store', async () => {
    const created = (await ingestFile(test, owner.token, { file: { filename: 'a.csv', contentType: 'text/csv', content: uniqueCsv() } })).json()
    const realNow = new Date()
    clock.set(new Date(realNow.getTime() - 11 * 60 * 1000))
    try {
      const token = await login(test, owner.email)
      const stale = (await test.request({ method: 'GET', url: `/v1/raw/${created.raw_id}`, token })).json()
      expect(Date.parse(stale.expires_at)).toBeLessThan(Date.now())
      const refused = await fetch(stale.signed_url)
      expect(refused.status).toBe(403)
      expect(await refused.text()).toMatch(/expired/)
    } finally {
      clock.set(realNow)
    }
    const fresh = (await test.request({ method: 'GET', url: `/v1/raw/${created.raw_id}`, token: owner.token })).json()
    expect((await fetch(fresh.signed_url)).status).toBe(200)
  })

  it(`a tombstone keeps the object until ${tombstoneRetentionDays} days have passed, then retention purges it from the bucket`, async () => {
    const tenant = await signupOwner(test)
    const oldCsv = uniqueCsv()
    const old = (await ingestFile(test, tenant.token, { file: { filename: 'old.csv', contentType: 'text/csv', content: oldCsv } })).json()
    const kept = (await ingestFile(test, tenant.token, { file: { filename: 'kept.csv', contentType: 'text/csv', content: uniqueCsv() } })).json()
    expect((await test.request({ method: 'DELETE', url: `/v1/raw/${old.raw_id}`, token: tenant.token })).statusCode).toBe(204)
    expectError(await test.request({ method: 'GET', url: `/v1/raw/${old.raw_id}`, token: tenant.token }), 'raw_artifact_tombstoned')
    // Retained: the object is still in the bucket.
    expect(await objectText(s3rver, bucket, keyOf(tenant.tenantId, old.sha256))).toBe(oldCsv)

    const start = clock.now()
    clock.advance((tombstoneRetentionDays + 1) * dayMs)
    try {
      await test.runtime.db.transaction((tx) => test.runtime.jobs.enqueue(tx, rawRetentionPurgeQueue, {}))
      await expect.poll(async () => (await artifactRow(test, old.raw_id))?.bytes_purged_at ?? null, { timeout: 20_000, interval: 100 }).not.toBeNull()
      expect(await objectText(s3rver, bucket, keyOf(tenant.tenantId, old.sha256))).toBeUndefined()
      expect(await objectText(s3rver, bucket, keyOf(tenant.tenantId, kept.sha256))).toBeDefined()
      expect((await artifactRow(test, old.raw_id))!.status).toBe('tombstoned')
      // The same bytes uploaded again restore the artifact and put the object back.
      const token = await login(test, tenant.email)
      expect((await ingestFile(test, token, { file: { filename: 'old.csv', contentType: 'text/csv', content: oldCsv } })).json()).toMatchObject({ raw_id: old.raw_id, deduplicated: true })
      expect(await objectText(s3rver, bucket, keyOf(tenant.tenantId, old.sha256))).toBe(oldCsv)
    } finally {
      clock.set(new Date(start.getTime() + (Date.now() - start.getTime())))
    }
  })

  it('deleting the tenant purges every object under its prefix, and no one else\'s', async () => {
    const tenant = await signupOwner(test)
    for (let index = 0; index < 3; index += 1) {
      expect((await ingestFile(test, tenant.token, { file: { filename: `f${index}.csv`, contentType: 'text/csv', content: uniqueCsv() } })).statusCode).toBe(201)
    }
    expect(await keysUnder(s3rver, bucket, `${prefix}${tenant.tenantId}/`)).toHaveLength(3)
    const ownersKeys = await keysUnder(s3rver, bucket, `${prefix}${owner.tenantId}/`)
    const deleted = await test.request({ method: 'DELETE', url: `/v1/tenants/${tenant.tenantId}`, token: tenant.token })
    expect(deleted.statusCode, deleted.body).toBe(200)
    await expect.poll(async () => (await keysUnder(s3rver, bucket, `${prefix}${tenant.tenantId}/`)).length, { timeout: 20_000, interval: 200 }).toBe(0)
    expect(await keysUnder(s3rver, bucket, `${prefix}${owner.tenantId}/`)).toEqual(ownersKeys)
  })
})

describe.skipIf(!motoAvailable)('Raw on a versioned S3 bucket (moto)', () => {
  let moto: S3TestServer
  let versioned: string
  let app: TestApp
  beforeAll(async () => {
    moto = await startMoto()
    versioned = await moto.createBucket({ versioned: true })
    app = await createTestApp({ workers: true, env: moto.env(versioned), runtime: { raw: { selectParser: () => undefined } } })
  })
  afterAll(async () => {
    await app?.close()
    await moto?.close()
  })

  it('deleting the tenant purges every version and delete marker of its objects', async () => {
    const tenant = await signupOwner(app)
    const created = (await ingestFile(app, tenant.token, { file: { filename: 'a.csv', contentType: 'text/csv', content: uniqueCsv() } })).json()
    await ingestFile(app, tenant.token, { file: { filename: 'b.csv', contentType: 'text/csv', content: uniqueCsv() } })
    // History on one key: older versions beneath the current one, as a versioned bucket accumulates.
    const key = `${tenant.tenantId}/${created.sha256.slice(0, 2)}/${created.sha256}`
    await moto.client.send(new PutObjectCommand({ Bucket: versioned, Key: key, Body: 'an older version' }))
    await moto.client.send(new PutObjectCommand({ Bucket: versioned, Key: key, Body: 'the current version' }))
    const versionsOf = async (tenantId: string) => {
      const listing = await moto.client.send(new ListObjectVersionsCommand({ Bucket: versioned, Prefix: `${tenantId}/` }))
      return [...(listing.Versions ?? []), ...(listing.DeleteMarkers ?? [])].length
    }
    expect(await versionsOf(tenant.tenantId)).toBe(4)
    const neighbour = await signupOwner(app)
    await ingestFile(app, neighbour.token, { file: { filename: 'n.csv', contentType: 'text/csv', content: uniqueCsv() } })

    expect((await app.request({ method: 'DELETE', url: `/v1/tenants/${tenant.tenantId}`, token: tenant.token })).statusCode).toBe(200)
    await expect.poll(() => versionsOf(tenant.tenantId), { timeout: 20_000, interval: 200 }).toBe(0)
    expect(await versionsOf(neighbour.tenantId)).toBe(1)
  })
})
