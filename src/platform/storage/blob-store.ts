/**
 * Stored bytes (Raw artifacts, audit exports) behind a small interface with two implementations: this
 * file's filesystem store, the embedded default, and the S3-compatible store (`s3-blob-store.ts`) that
 * several hosts can share. Both are content-addressed under `<tenant_id>/<sha256[0:2]>/<sha256>`, so the
 * same bytes are stored once per tenant and a tenant's bytes can be purged by that prefix.
 */
import { createHash, randomBytes } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, open as openFile, readdir, rename, rm, unlink, type FileHandle } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { Transform, type Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'

export interface StoredBlob {
  readonly sha256: string
  readonly bytes: number
}

export class BlobTooLargeError extends Error {
  constructor(readonly bytesMax: number) {
    super(`blob exceeds ${bytesMax} bytes`)
    this.name = 'BlobTooLargeError'
  }
}

/** What a direct download URL is signed for. */
export interface DownloadGrant {
  /** The signing time: the URL works from then for `expiresInSeconds`. */
  readonly signedAt: Date
  readonly expiresInSeconds: number
  /** Headers the store answers the download with. */
  readonly contentType: string
  readonly contentDisposition: string
}

export interface BlobStore {
  /** Which implementation this is (`fs` or `s3`), for logs and health. */
  readonly kind: 'fs' | 's3'
  /** Streams `source` into the store, hashing on the way; refuses past `bytesMax` without buffering it in memory. */
  put(tenantId: string, source: Readable, options: { bytesMax: number }): Promise<StoredBlob>
  open(tenantId: string, sha256: string): Promise<Readable | undefined>
  /** Removes the blob (on a versioned bucket, every version of it); false when there was nothing to remove. */
  delete(tenantId: string, sha256: string): Promise<boolean>
  /** Removes every blob of the tenant (every object version); returns how many objects were removed. */
  purgeTenant(tenantId: string): Promise<{ objectsDeleted: number }>
  /**
   * A URL that downloads the blob straight from the store without a bearer (S3: a presigned GET), or
   * undefined when the store has none: the caller then serves the bytes through its own signed route
   * (the filesystem store). Signing is local: it neither checks that the blob exists nor reaches the store.
   */
  downloadUrl(tenantId: string, sha256: string, grant: DownloadGrant): Promise<string | undefined>
  /** Releases connections (S3); the runtime calls it once at shutdown. */
  close(): Promise<void>
}

export const tenantIdPattern = /^[0-9a-f-]{36}$/
export const sha256Pattern = /^[0-9a-f]{64}$/

/** The store-relative name of a blob, `<tenant_id>/<sha256[0:2]>/<sha256>`; asserts both parts' shapes. */
export function blobName(tenantId: string, sha256: string): string {
  return `${tenantName(tenantId)}/${checkedSha256(sha256).slice(0, 2)}/${sha256}`
}

/** The store-relative folder of a tenant's blobs; asserts the id's shape (it becomes part of a path). */
export function tenantName(tenantId: string): string {
  if (!tenantIdPattern.test(tenantId)) throw new TypeError(`not a tenant id: ${tenantId}`)
  return tenantId
}

function checkedSha256(sha256: string): string {
  if (!sha256Pattern.test(sha256)) throw new TypeError(`not a sha256: ${sha256}`)
  return sha256
}

/**
 * Streams `source` into a new file at `path` (which must not exist), hashing and counting on the way;
 * past `bytesMax` it stops with BlobTooLargeError and removes the partial file.
 */
export async function writeHashed(source: Readable, path: string, bytesMax: number): Promise<StoredBlob> {
  const hash = createHash('sha256')
  let bytes = 0
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length
      if (bytes > bytesMax) return callback(new BlobTooLargeError(bytesMax))
      hash.update(chunk)
      callback(null, chunk)
    },
  })
  try {
    await pipeline(source, meter, createWriteStream(path, { flags: 'wx' }))
  } catch (error) {
    await unlink(path).catch(() => {})
    throw error
  }
  return { sha256: hash.digest('hex'), bytes }
}

export function createFileBlobStore(root: string): BlobStore {
  const tenantDir = (tenantId: string) => join(root, tenantName(tenantId))
  const blobPath = (tenantId: string, sha256: string) => join(root, blobName(tenantId, sha256))

  return {
    kind: 'fs',
    async put(tenantId, source, { bytesMax }) {
      const directory = tenantDir(tenantId)
      const temporary = join(directory, `.incoming-${randomBytes(8).toString('hex')}`)
      await mkdir(directory, { recursive: true })
      const { sha256, bytes } = await writeHashed(source, temporary, bytesMax)
      const destination = blobPath(tenantId, sha256)
      await mkdir(dirname(destination), { recursive: true })
      // Same bytes, same name: a rename over an existing blob replaces it with identical content.
      await rename(temporary, destination)
      return { sha256, bytes }
    },
    async open(tenantId, sha256) {
      // Opened here, not lazily by the stream: a blob deleted or purged once it is open is still read whole
      // (the descriptor keeps it), where a stream opening it later would emit ENOENT, and with no listener
      // attached yet, crash the process with an uncaught exception.
      let handle: FileHandle
      try {
        handle = await openFile(blobPath(tenantId, sha256), 'r')
      } catch (error) {
        if (['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) return undefined
        throw error
      }
      return handle.createReadStream()
    },
    async delete(tenantId, sha256) {
      try {
        await unlink(blobPath(tenantId, sha256))
        return true
      } catch {
        return false
      }
    },
    async purgeTenant(tenantId) {
      const directory = tenantDir(tenantId)
      const objectsDeleted = await countFiles(directory)
      await rm(directory, { recursive: true, force: true })
      return { objectsDeleted }
    },
    async downloadUrl() {
      // No server of its own: the bytes go out through the service's signed content route.
      return undefined
    },
    async close() {},
  }
}

async function countFiles(directory: string): Promise<number> {
  let count = 0
  let entries
  try {
    entries = await readdir(directory, { withFileTypes: true })
  } catch {
    return 0
  }
  for (const entry of entries) {
    count += entry.isDirectory() ? await countFiles(join(directory, entry.name)) : 1
  }
  return count
}
