/**
 * Real S3-protocol servers for the tests, on ephemeral loopback ports with temporary storage:
 *
 * - s3rver (npm, in-process): objects, listings, multi-object delete, presigned URLs whose expiry it
 *   enforces (it does not check SigV4 signatures themselves, and has no versioning).
 * - moto's server (Python, a child process; moto is installed on this project's machines): versioned
 *   buckets, ListObjectVersions and version deletes (it enforces no presigned expiry and ignores the
 *   signed response-content-type and -disposition).
 *
 * Together they cover what the S3 store relies on; a test names the server whose behaviour it needs.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CreateBucketCommand, PutBucketVersioningCommand, S3Client } from '@aws-sdk/client-s3'
import S3rver from 's3rver'

export interface S3TestServer {
  readonly name: 's3rver' | 'moto'
  readonly endpoint: string
  readonly accessKeyId: string
  readonly secretAccessKey: string
  /** Whether the server refuses a presigned URL past its expiry (s3rver does, moto does not). */
  readonly enforcesPresignedExpiry: boolean
  /** Whether the server answers a presigned GET with the signed response-content-type and -disposition (moto ignores both). */
  readonly honoursResponseOverrides: boolean
  /** A client for the tests' own checks (listing versions, writing extra versions). */
  readonly client: S3Client
  /** Creates a fresh bucket (versioned when asked; moto only) and returns its name. */
  createBucket(options?: { versioned?: boolean }): Promise<string>
  /** The environment that points Steward at `bucket` on this server, as an operator would set it. */
  env(bucket: string, extra?: Record<string, string>): Record<string, string>
  close(): Promise<void>
}

const region = 'us-east-1'

function testClient(endpoint: string, accessKeyId: string, secretAccessKey: string): S3Client {
  return new S3Client({
    region,
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId, secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  })
}

function describeServer(fields: Omit<S3TestServer, 'client' | 'createBucket' | 'env'>): S3TestServer {
  const client = testClient(fields.endpoint, fields.accessKeyId, fields.secretAccessKey)
  return {
    ...fields,
    client,
    async createBucket(options = {}) {
      const bucket = `steward-test-${randomBytes(6).toString('hex')}`
      await client.send(new CreateBucketCommand({ Bucket: bucket }))
      if (options.versioned === true) {
        if (fields.name !== 'moto') throw new Error(`${fields.name} has no versioning; use moto for a versioned bucket`)
        await client.send(new PutBucketVersioningCommand({ Bucket: bucket, VersioningConfiguration: { Status: 'Enabled' } }))
      }
      return bucket
    },
    env(bucket, extra = {}) {
      return {
        BLOB_STORE: 's3',
        S3_BUCKET: bucket,
        S3_ENDPOINT: fields.endpoint,
        S3_REGION: region,
        S3_ACCESS_KEY_ID: fields.accessKeyId,
        S3_SECRET_ACCESS_KEY: fields.secretAccessKey,
        S3_FORCE_PATH_STYLE: 'true',
        ...extra,
      }
    },
    async close() {
      client.destroy()
      await fields.close()
    },
  }
}

/** s3rver in this process, storing under a fresh temporary directory. */
export async function startS3rver(): Promise<S3TestServer> {
  const directory = mkdtempSync(join(tmpdir(), 'steward-s3rver-'))
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, resetOnClose: true })
  const { port } = await server.run()
  return describeServer({
    name: 's3rver',
    endpoint: `http://127.0.0.1:${port}`,
    // s3rver's built-in account.
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    enforcesPresignedExpiry: true,
    honoursResponseOverrides: true,
    async close() {
      await server.close()
      rmSync(directory, { recursive: true, force: true })
    },
  })
}

const motoStartMs = 30_000

/**
 * Whether the versioned-bucket tests run: moto is a Python package, not an npm dependency, so a fresh
 * clone with only Node and npm may lack it. Without it those tests are skipped, and `npm test` says so;
 * CI sets TEST_REQUIRE_MOTO=true, so there they always run (and a missing moto fails them loudly).
 */
export const motoAvailable: boolean =
  process.env.TEST_REQUIRE_MOTO === 'true' || spawnSync('python3', ['-c', 'import moto.server'], { stdio: 'ignore', timeout: 30_000 }).status === 0

/** moto's S3 server as a child process (`python3 -m moto.server`), in memory. */
export async function startMoto(): Promise<S3TestServer> {
  const port = await freePort()
  const endpoint = `http://127.0.0.1:${port}`
  let output = ''
  const child: ChildProcess = spawn('python3', ['-m', 'moto.server', '-H', '127.0.0.1', '-p', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] })
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const deadline = Date.now() + motoStartMs
  for (;;) {
    const early = await Promise.race([exited, new Promise<'running'>((resolve) => setTimeout(() => resolve('running'), 200))])
    if (early !== 'running') throw new Error(`moto's server (python3 -m moto.server) exited with ${early}: is moto installed (pip install 'moto[server]')?\n${output}`)
    try {
      const response = await fetch(`${endpoint}/moto-api/`)
      if (response.ok) break
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill('SIGTERM')
      throw new Error(`moto's server did not answer within ${motoStartMs} ms\n${output}`)
    }
  }
  return describeServer({
    name: 'moto',
    endpoint,
    // moto accepts any credentials.
    accessKeyId: 'steward-test',
    secretAccessKey: 'steward-test-secret',
    enforcesPresignedExpiry: false,
    honoursResponseOverrides: false,
    async close() {
      child.kill('SIGTERM')
      await exited
    },
  })
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}
