/**
 * Stored bytes (Raw artifacts) behind a small interface. The filesystem implementation keeps each
 * tenant's blobs under `<root>/<tenant_id>/<sha256[0:2]>/<sha256>`: content-addressed, so the same
 * bytes are stored once per tenant, and a tenant's bytes can be purged as one directory.
 */
import { createHash, randomBytes } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, readdir, rename, rm, stat, unlink } from 'node:fs/promises'
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

export interface BlobStore {
  /** Streams `source` into the store, hashing on the way; refuses past `bytesMax` without buffering. */
  put(tenantId: string, source: Readable, options: { bytesMax: number }): Promise<StoredBlob>
  open(tenantId: string, sha256: string): Promise<Readable | undefined>
  delete(tenantId: string, sha256: string): Promise<boolean>
  /** Removes every blob of the tenant; returns how many objects were removed. */
  purgeTenant(tenantId: string): Promise<{ objectsDeleted: number }>
}

const tenantIdPattern = /^[0-9a-f-]{36}$/
const sha256Pattern = /^[0-9a-f]{64}$/

export function createFileBlobStore(root: string): BlobStore {
  const tenantDir = (tenantId: string) => {
    if (!tenantIdPattern.test(tenantId)) throw new TypeError(`not a tenant id: ${tenantId}`)
    return join(root, tenantId)
  }
  const blobPath = (tenantId: string, sha256: string) => {
    if (!sha256Pattern.test(sha256)) throw new TypeError(`not a sha256: ${sha256}`)
    return join(tenantDir(tenantId), sha256.slice(0, 2), sha256)
  }

  return {
    async put(tenantId, source, { bytesMax }) {
      const directory = tenantDir(tenantId)
      const temporary = join(directory, `.incoming-${randomBytes(8).toString('hex')}`)
      await mkdir(directory, { recursive: true })
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
        await pipeline(source, meter, createWriteStream(temporary, { flags: 'wx' }))
      } catch (error) {
        await unlink(temporary).catch(() => {})
        throw error
      }
      const sha256 = hash.digest('hex')
      const destination = blobPath(tenantId, sha256)
      await mkdir(dirname(destination), { recursive: true })
      // Same bytes, same name: a rename over an existing blob replaces it with identical content.
      await rename(temporary, destination)
      return { sha256, bytes }
    },
    async open(tenantId, sha256) {
      const path = blobPath(tenantId, sha256)
      try {
        await stat(path)
      } catch {
        return undefined
      }
      return createReadStream(path)
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
