/**
 * The blob store contract, one suite run against every implementation: the filesystem store, the S3 store
 * on s3rver (unversioned, enforces presigned expiry) and the S3 store on moto with a versioned bucket.
 * Then what only S3 has: presigned downloads, and purges that remove every object version.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { text } from 'node:stream/consumers'
import { ListObjectVersionsCommand, PutObjectCommand, DeleteObjectCommand } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BlobTooLargeError, createFileBlobStore, type BlobStore } from '../../src/platform/storage/blob-store.ts'
import { createS3BlobStore } from '../../src/platform/storage/s3-blob-store.ts'
import { motoAvailable, startMoto, startS3rver, type S3TestServer } from '../support/s3-server.ts'

const sha256 = (content: string) => createHash('sha256').update(content).digest('hex')
const put = (store: BlobStore, tenantId: string, content: string, bytesMax = 1024) => store.put(tenantId, Readable.from([Buffer.from(content)]), { bytesMax })
const read = async (store: BlobStore, tenantId: string, hash: string) => {
  const stream = await store.open(tenantId, hash)
  return stream === undefined ? undefined : text(stream)
}
const unique = (label: string) => `${label} ${randomBytes(8).toString('hex')}\n`

interface StoreUnderTest {
  readonly store: BlobStore
  readonly server: S3TestServer | undefined
  readonly bucket: string | undefined
  readonly prefix: string
}

let s3rver: S3TestServer
let moto: S3TestServer | undefined
const fsRoot = mkdtempSync(join(tmpdir(), 'steward-blobs-'))
const stores = new Map<string, StoreUnderTest>()

function s3Store(server: S3TestServer, bucket: string, prefix: string): BlobStore {
  return createS3BlobStore({
    bucket,
    region: 'us-east-1',
    endpoint: server.endpoint,
    publicEndpoint: undefined,
    forcePathStyle: true,
    credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
    prefix,
  })
}

beforeAll(async () => {
  ;[s3rver, moto] = await Promise.all([startS3rver(), motoAvailable ? startMoto() : undefined])
  stores.set('filesystem', { store: createFileBlobStore(fsRoot), server: undefined, bucket: undefined, prefix: '' })
  const plain = await s3rver.createBucket()
  stores.set('s3 (s3rver)', { store: s3Store(s3rver, plain, 'steward/'), server: s3rver, bucket: plain, prefix: 'steward/' })
  if (moto !== undefined) {
    const versioned = await moto.createBucket({ versioned: true })
    stores.set('s3 (moto, versioned bucket)', { store: s3Store(moto, versioned, ''), server: moto, bucket: versioned, prefix: '' })
  }
})
afterAll(async () => {
  await Promise.all([s3rver?.close(), moto?.close()])
  rmSync(fsRoot, { recursive: true, force: true })
})

describe.each(['filesystem', 's3 (s3rver)', ...(motoAvailable ? ['s3 (moto, versioned bucket)'] : [])])('the blob store contract: %s', (name) => {
  const subject = () => stores.get(name)!.store

  it('stores bytes under their SHA-256 and streams them back; the same bytes twice are one blob', async () => {
    const tenantId = randomUUID()
    const content = unique('statement')
    const stored = await put(subject(), tenantId, content)
    expect(stored).toEqual({ sha256: sha256(content), bytes: Buffer.byteLength(content) })
    expect(await read(subject(), tenantId, stored.sha256)).toBe(content)
    expect(await put(subject(), tenantId, content)).toEqual(stored)
    // Another tenant does not see it.
    expect(await subject().open(randomUUID(), stored.sha256)).toBeUndefined()
    expect(await subject().purgeTenant(tenantId)).toEqual({ objectsDeleted: 1 })
  })

  it('streams a large upload through without holding it (1 MiB in 64 KiB chunks)', async () => {
    const tenantId = randomUUID()
    const chunk = randomBytes(64 * 1024)
    const chunks = Array.from({ length: 16 }, () => chunk)
    const stored = await subject().put(tenantId, Readable.from(chunks), { bytesMax: 1024 * 1024 })
    expect(stored).toEqual({ sha256: createHash('sha256').update(Buffer.concat(chunks)).digest('hex'), bytes: 1024 * 1024 })
    const back = await subject().open(tenantId, stored.sha256)
    let bytes = 0
    for await (const part of back!) bytes += (part as Buffer).length
    expect(bytes).toBe(1024 * 1024)
  })

  it('refuses an upload past bytesMax and stores nothing of it', async () => {
    const tenantId = randomUUID()
    const content = 'x'.repeat(2048)
    await expect(put(subject(), tenantId, content, 2047)).rejects.toBeInstanceOf(BlobTooLargeError)
    expect(await subject().open(tenantId, sha256(content))).toBeUndefined()
    expect(await subject().purgeTenant(tenantId)).toEqual({ objectsDeleted: 0 })
  })

  it('deletes one blob: true, then false when it is gone', async () => {
    const tenantId = randomUUID()
    const kept = await put(subject(), tenantId, unique('kept'))
    const gone = await put(subject(), tenantId, unique('gone'))
    expect(await subject().delete(tenantId, gone.sha256)).toBe(true)
    expect(await subject().open(tenantId, gone.sha256)).toBeUndefined()
    expect(await subject().delete(tenantId, gone.sha256)).toBe(false)
    expect(await subject().open(tenantId, kept.sha256)).toBeDefined()
    // Stored again after a delete, the bytes are back.
    expect(await put(subject(), tenantId, (await read(subject(), tenantId, kept.sha256))!)).toEqual(kept)
  })

  it('reads a blob opened before it was deleted and its tenant purged, whole', async () => {
    const tenantId = randomUUID()
    const content = unique('opened')
    const stored = await put(subject(), tenantId, content)
    const stream = await subject().open(tenantId, stored.sha256)
    expect(await subject().delete(tenantId, stored.sha256)).toBe(true)
    await subject().purgeTenant(tenantId)
    expect(await text(stream!)).toBe(content)
  })

  it('purges every blob of one tenant and nothing of another', async () => {
    const [tenantId, neighbour] = [randomUUID(), randomUUID()]
    const hashes = []
    for (let index = 0; index < 5; index += 1) hashes.push((await put(subject(), tenantId, unique(`row ${index}`))).sha256)
    const theirs = await put(subject(), neighbour, unique('neighbour'))
    expect(await subject().purgeTenant(tenantId)).toEqual({ objectsDeleted: 5 })
    for (const hash of hashes) expect(await subject().open(tenantId, hash)).toBeUndefined()
    expect(await read(subject(), neighbour, theirs.sha256)).toBeDefined()
    expect(await subject().purgeTenant(tenantId)).toEqual({ objectsDeleted: 0 })
  })

  it('refuses names that are not a tenant id and a SHA-256 (they become paths and keys)', async () => {
    await expect(put(subject(), '../other', 'x')).rejects.toThrow(TypeError)
    await expect(subject().open(randomUUID(), '../../etc/passwd')).rejects.toThrow(TypeError)
    await expect(subject().purgeTenant('')).rejects.toThrow(TypeError)
  })
})

describe('direct download URLs', () => {
  const grant = (signedAt: Date) => ({ signedAt, expiresInSeconds: 600, contentType: 'text/csv', contentDisposition: 'attachment; filename="a.csv"' })

  it('the filesystem store has none: the service serves its own signed route', async () => {
    const { store } = stores.get('filesystem')!
    expect(await store.downloadUrl(randomUUID(), sha256('x'), grant(new Date()))).toBeUndefined()
  })

  it.each(['s3 (s3rver)', ...(motoAvailable ? ['s3 (moto, versioned bucket)'] : [])])('%s: a presigned GET serves the bytes as an attachment, no credentials needed', async (name) => {
    const { store, server, bucket, prefix } = stores.get(name)!
    const tenantId = randomUUID()
    const content = unique('presigned')
    const stored = await put(store, tenantId, content)
    const url = new URL((await store.downloadUrl(tenantId, stored.sha256, grant(new Date())))!)
    expect(url.pathname).toBe(`/${bucket}/${prefix}${tenantId}/${stored.sha256.slice(0, 2)}/${stored.sha256}`)
    expect(url.searchParams.get('X-Amz-Expires')).toBe('600')
    const response = await fetch(url)
    expect(response.status).toBe(200)
    expect(await response.text()).toBe(content)
    expect(url.searchParams.get('response-content-disposition')).toBe('attachment; filename="a.csv"')
    if (server!.honoursResponseOverrides) {
      expect(response.headers.get('content-type')).toBe('text/csv')
      expect(response.headers.get('content-disposition')).toBe('attachment; filename="a.csv"')
    }
  })

  it('s3rver: a presigned URL signed more than its lifetime ago is refused (403 AccessDenied, expired)', async () => {
    const { store } = stores.get('s3 (s3rver)')!
    const tenantId = randomUUID()
    const stored = await put(store, tenantId, unique('expiring'))
    const expired = await fetch((await store.downloadUrl(tenantId, stored.sha256, grant(new Date(Date.now() - 601_000))))!)
    expect(expired.status).toBe(403)
    expect(await expired.text()).toMatch(/expired/)
    const fresh = await fetch((await store.downloadUrl(tenantId, stored.sha256, grant(new Date(Date.now() - 590_000))))!)
    expect(fresh.status).toBe(200)
  })

  it('points presigned URLs at the public endpoint when one is configured, signing offline', async () => {
    const store = createS3BlobStore({
      bucket: 'any-bucket',
      region: 'eu-west-1',
      endpoint: 'http://minio:9000',
      publicEndpoint: 'https://blobs.example.com',
      forcePathStyle: true,
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
      prefix: '',
    })
    const url = new URL((await store.downloadUrl(randomUUID(), sha256('x'), grant(new Date())))!)
    expect(url.origin).toBe('https://blobs.example.com')
    expect(url.searchParams.get('X-Amz-Credential')).toMatch(/^AKIDEXAMPLE\/\d{8}\/eu-west-1\/s3\/aws4_request$/)
    expect(url.searchParams.get('response-content-disposition')).toBe('attachment; filename="a.csv"')
  })
})

describe.skipIf(!motoAvailable)('object versions (moto, versioned bucket)', () => {
  async function versionsUnder(prefix: string) {
    const { server, bucket } = stores.get('s3 (moto, versioned bucket)')!
    const listing = await server!.client.send(new ListObjectVersionsCommand({ Bucket: bucket, Prefix: prefix }))
    return { versions: listing.Versions ?? [], markers: listing.DeleteMarkers ?? [] }
  }

  /** Gives the blob's key older versions and a delete marker, as a bucket with history would have. */
  async function addHistory(tenantId: string, hash: string) {
    const { server, bucket } = stores.get('s3 (moto, versioned bucket)')!
    const key = `${tenantId}/${hash.slice(0, 2)}/${hash}`
    await server!.client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: 'an older version' }))
    await server!.client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }))
    await server!.client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: 'the current version' }))
  }

  it('tenant purge deletes every version and delete marker of every object', async () => {
    const { store } = stores.get('s3 (moto, versioned bucket)')!
    const tenantId = randomUUID()
    const first = await put(store, tenantId, unique('first'))
    const second = await put(store, tenantId, unique('second'))
    await addHistory(tenantId, first.sha256)
    const before = await versionsUnder(`${tenantId}/`)
    expect(before.versions).toHaveLength(4)
    expect(before.markers).toHaveLength(1)
    // Four object versions removed (the marker is not an object), nothing left behind.
    expect(await store.purgeTenant(tenantId)).toEqual({ objectsDeleted: 4 })
    expect(await versionsUnder(`${tenantId}/`)).toEqual({ versions: [], markers: [] })
    expect(await store.open(tenantId, second.sha256)).toBeUndefined()
  })

  it('deleting one blob deletes every version of it, and only of it', async () => {
    const { store } = stores.get('s3 (moto, versioned bucket)')!
    const tenantId = randomUUID()
    const target = await put(store, tenantId, unique('target'))
    const other = await put(store, tenantId, unique('other'))
    await addHistory(tenantId, target.sha256)
    expect(await store.delete(tenantId, target.sha256)).toBe(true)
    const after = await versionsUnder(`${tenantId}/`)
    expect(after.markers).toEqual([])
    expect(after.versions.map((version) => version.Key)).toEqual([`${tenantId}/${other.sha256.slice(0, 2)}/${other.sha256}`])
  })
})
