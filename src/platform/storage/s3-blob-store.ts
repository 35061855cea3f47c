/**
 * The S3-compatible blob store: the same content-addressed layout as the filesystem store, as object keys
 * `<prefix><tenant_id>/<sha256[0:2]>/<sha256>` in one bucket, so several API and worker hosts share one
 * store. Works with AWS S3 and S3-protocol servers (MinIO, Ceph RGW, the tests' s3rver and moto).
 *
 * - put: the bytes stream to a scratch file while they are hashed and counted (the key is their SHA-256,
 *   known only at the end), then stream from that file into one PutObject with its length; identical
 *   bytes already stored are not uploaded again. Memory stays flat whatever the size.
 * - delete and purgeTenant remove every object version when the bucket keeps versions (ListObjectVersions),
 *   and fall back to plain listings on a server without version listings (s3rver refuses `?versions`).
 * - downloadUrl: a presigned GET with the response's content type and disposition signed in.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { createReadStream } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  ListObjectVersionsCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'
import { blobName, tenantName, writeHashed, type BlobStore } from './blob-store.ts'

export interface S3BlobStoreOptions {
  readonly bucket: string
  readonly region: string
  /** Unset means AWS S3 itself; set for an S3-protocol server (`http://minio:9000`). */
  readonly endpoint: string | undefined
  /**
   * Where presigned download URLs point, when clients reach the store by another address than this
   * service does (a compose network's `http://minio:9000` is not the browser's); defaults to `endpoint`.
   */
  readonly publicEndpoint: string | undefined
  /** Path-style URLs (`endpoint/bucket/key`), which most S3-protocol servers need. */
  readonly forcePathStyle: boolean
  /** Both or neither: neither uses the SDK's default chain (AWS_* variables, instance or task role). */
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string } | undefined
  /** Prepended to every key (`steward/`), so one bucket can hold more than this service; '' for none. */
  readonly prefix: string
  /** Where uploads are hashed before they are sent; defaults to the OS temporary directory. */
  readonly scratchDirectory?: string
}

/** Keys per ListObjects/ListObjectVersions page and per DeleteObjects request (S3's own maximum). */
const keysPerRequestMax = 1000
/**
 * Listing passes of one tenant purge: each pass lists and deletes up to `keysPerRequestMax` versions, so
 * this bounds a purge at ten million object versions before it reports failure (the job then retries).
 */
const purgePassesMax = 10_000

export function createS3BlobStore(options: S3BlobStoreOptions): BlobStore {
  const base: S3ClientConfig = {
    region: options.region,
    forcePathStyle: options.forcePathStyle,
    ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
    // Checksums only where S3 requires one: the SDK's default trailing CRC32 on every upload
    // (aws-chunked encoding) is refused by several S3-protocol servers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
  }
  const client = new S3Client({ ...base, ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }) })
  const publicEndpoint = options.publicEndpoint ?? options.endpoint
  const signer = publicEndpoint === options.endpoint ? client : new S3Client({ ...base, ...(publicEndpoint === undefined ? {} : { endpoint: publicEndpoint }) })
  const bucket = options.bucket
  const scratchRoot = options.scratchDirectory ?? tmpdir()
  const keyOf = (tenantId: string, sha256: string) => `${options.prefix}${blobName(tenantId, sha256)}`
  /** Whether the server lists object versions; learnt from its first answer. */
  let versionListing: 'unknown' | 'supported' | 'unsupported' = 'unknown'

  async function exists(key: string): Promise<boolean> {
    try {
      await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }))
      return true
    } catch (error) {
      if (isMissing(error)) return false
      throw error
    }
  }

  /** One page of what lies under `prefix`: every version and delete marker where the server keeps them. */
  async function listPage(prefix: string): Promise<Array<{ Key: string; VersionId?: string; marker: boolean }>> {
    if (versionListing !== 'unsupported') {
      try {
        const page = await client.send(new ListObjectVersionsCommand({ Bucket: bucket, Prefix: prefix, MaxKeys: keysPerRequestMax }))
        versionListing = 'supported'
        return [
          ...(page.Versions ?? []).map((version) => ({ Key: version.Key!, VersionId: version.VersionId, marker: false })),
          ...(page.DeleteMarkers ?? []).map((marker) => ({ Key: marker.Key!, VersionId: marker.VersionId, marker: true })),
        ]
      } catch (error) {
        if (!isNotImplemented(error) || versionListing === 'supported') throw error
        versionListing = 'unsupported'
      }
    }
    const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, MaxKeys: keysPerRequestMax }))
    return (page.Contents ?? []).map((object) => ({ Key: object.Key!, marker: false }))
  }

  /**
   * Deletes what `listPage(prefix)` finds that `select` keeps, page after page, until nothing is left;
   * returns how many object versions (not delete markers) were removed.
   */
  async function deleteAll(prefix: string, select: (key: string) => boolean): Promise<number> {
    let deleted = 0
    for (let pass = 0; pass < purgePassesMax; pass += 1) {
      const entries = (await listPage(prefix)).filter((entry) => select(entry.Key))
      if (entries.length === 0) return deleted
      const answer = await client.send(
        new DeleteObjectsCommand({
          Bucket: bucket,
          Delete: {
            // A listed version id, 'null' included (an object written while versioning was off), names that version exactly.
            Objects: entries.map((entry) => ({ Key: entry.Key, ...(entry.VersionId === undefined ? {} : { VersionId: entry.VersionId }) })),
            Quiet: true,
          },
        }),
      )
      const failed = answer.Errors ?? []
      if (failed.length > 0) {
        throw new Error(`S3 refused to delete ${failed.length} object(s) under ${prefix}: ${failed[0]?.Code ?? 'unknown'} ${failed[0]?.Message ?? ''}`.trim())
      }
      deleted += entries.filter((entry) => !entry.marker).length
    }
    throw new Error(`S3 purge of ${prefix} did not finish in ${purgePassesMax} listing passes`)
  }

  return {
    kind: 's3',
    async put(tenantId, source, { bytesMax }) {
      tenantName(tenantId)
      const scratch = await mkdtemp(join(scratchRoot, 'steward-blob-'))
      try {
        const path = join(scratch, 'incoming')
        const stored = await writeHashed(source, path, bytesMax)
        const key = keyOf(tenantId, stored.sha256)
        // Same key, same bytes: an object already there is the upload (a versioned bucket keeps one version).
        if (!(await exists(key))) {
          await client.send(
            new PutObjectCommand({ Bucket: bucket, Key: key, Body: createReadStream(path), ContentLength: stored.bytes, ContentType: 'application/octet-stream' }),
          )
        }
        return stored
      } finally {
        await rm(scratch, { recursive: true, force: true })
      }
    },

    async open(tenantId, sha256) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: keyOf(tenantId, sha256) }))
        return object.Body as Readable
      } catch (error) {
        if (isMissing(error)) return undefined
        throw error
      }
    },

    async delete(tenantId, sha256) {
      const key = keyOf(tenantId, sha256)
      // The key's versions are listed by prefix: keep only the key itself (no other key starts with a full SHA-256 name, but be exact).
      return (await deleteAll(key, (listed) => listed === key)) > 0
    },

    async purgeTenant(tenantId) {
      const objectsDeleted = await deleteAll(`${options.prefix}${tenantName(tenantId)}/`, () => true)
      return { objectsDeleted }
    },

    async downloadUrl(tenantId, sha256, grant) {
      const command = new GetObjectCommand({
        Bucket: bucket,
        Key: keyOf(tenantId, sha256),
        ResponseContentType: grant.contentType,
        ResponseContentDisposition: grant.contentDisposition,
      })
      return getSignedUrl(signer, command, { expiresIn: grant.expiresInSeconds, signingDate: grant.signedAt })
    },

    async close() {
      client.destroy()
      if (signer !== client) signer.destroy()
    },
  }
}

function errorName(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'name' in error ? String((error as { name: unknown }).name) : undefined
}

/** A missing object (GetObject's NoSuchKey, HeadObject's bodiless 404); a missing bucket is a fault, not a miss. */
function isMissing(error: unknown): boolean {
  const status = (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode
  return errorName(error) !== 'NoSuchBucket' && (errorName(error) === 'NoSuchKey' || errorName(error) === 'NotFound' || status === 404)
}

/** A server without version listings: NotImplemented (501), or s3rver's MethodNotAllowed (405) for `?versions`. */
function isNotImplemented(error: unknown): boolean {
  const status = (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode
  return errorName(error) === 'NotImplemented' || errorName(error) === 'MethodNotAllowed' || status === 501 || status === 405
}
