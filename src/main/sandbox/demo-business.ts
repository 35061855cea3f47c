/**
 * The sandbox's demo business (issue 4): on the first start of a sandbox, a tenant for "Juniper & Finch
 * Coffee Roasters GmbH" is signed up, and the sample files in sandbox/demo/ are loaded through the real
 * pipeline — uploads through POST /v1/raw/ingest, provider payloads through signed
 * POST /v1/raw/webhooks/{provider} deliveries on connectors configured for the tenant — so extraction,
 * normalization and reconciliation run exactly as for a customer's files. The owner's login is written
 * to DATA_DIR/sandbox-demo.json (and logged), so a new user can query at once.
 *
 * Runs once per data directory: the credentials file marks it done. Loading only queues work; the
 * Ledger fills in over the next seconds, in the worker.
 */
import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import type { Logger } from 'pino'
import { providerSignatureHeader, type Provider } from '../../modules/raw/index.ts'
import type { Runtime } from '../compose.ts'

export const demoDirectory = fileURLToPath(new URL('../../../sandbox/demo/', import.meta.url))
export const demoCredentialsFile = 'sandbox-demo.json'
export const demoBusinessName = 'Juniper & Finch Coffee Roasters GmbH'

interface ManifestEntry {
  readonly file: string
  readonly mime_type: string
  readonly source_type: string
  readonly ingest: 'upload' | 'webhook'
  readonly provider_webhook?: Provider
  readonly source_ref?: Record<string, unknown>
}

export interface DemoCredentials {
  readonly tenant_id: string
  readonly email: string
  readonly password: string
  readonly business: string
  readonly created_at: string
}

export interface DemoLoad {
  readonly credentials: DemoCredentials
  /** Raw ids of the artifacts the load created, in manifest order. */
  readonly artifacts: string[]
}

/** A multipart/form-data body: the fields, then the file as the last part (as POST /v1/raw/ingest wants). */
function multipart(fields: Record<string, string>, file: { name: string; type: string; content: Buffer }) {
  const boundary = `steward-demo-${randomBytes(8).toString('hex')}`
  const parts: Buffer[] = []
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`))
  }
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`))
  parts.push(file.content, Buffer.from(`\r\n--${boundary}--\r\n`))
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` }
}

async function expectStatus(response: { statusCode: number; body: string }, expected: number[], what: string) {
  if (!expected.includes(response.statusCode)) throw new Error(`demo business: ${what} answered ${response.statusCode}: ${response.body.slice(0, 500)}`)
}

/**
 * Creates the demo business unless this data directory has one. Returns what it created, or undefined
 * when it was there already.
 */
export async function loadDemoBusiness(runtime: Runtime, app: FastifyInstance, logger: Logger, options: { directory?: string } = {}): Promise<DemoLoad | undefined> {
  const directory = options.directory ?? demoDirectory
  const credentialsPath = join(runtime.config.dataDir, demoCredentialsFile)
  if (existsSync(credentialsPath)) return undefined

  const email = `demo+${randomBytes(4).toString('hex')}@juniper-finch.example`
  const password = randomBytes(18).toString('base64url')
  const signup = await app.inject({ method: 'POST', url: '/v1/signup', payload: { email, password, tenant_name: demoBusinessName } })
  await expectStatus(signup, [201], 'signup')
  const { tenant_id: tenantId, verification_token: verificationToken } = signup.json() as { tenant_id: string; verification_token: string }
  await expectStatus(await app.inject({ method: 'POST', url: '/v1/auth/verify-email', payload: { tenant_id: tenantId, token: verificationToken } }), [200], 'verify-email')
  const login = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email, password } })
  await expectStatus(login, [200], 'login')
  const token = (login.json() as { access_token: string }).access_token

  const manifest = JSON.parse(readFileSync(join(directory, 'manifest.json'), 'utf8')) as { load_in_order: ManifestEntry[] }
  const secrets = new Map<Provider, { accountRef: string; secret: string }>()
  const artifacts: string[] = []
  for (const entry of manifest.load_in_order) {
    const content = readFileSync(join(directory, entry.file))
    if (entry.ingest === 'upload') {
      const form = multipart(
        { source_type: entry.source_type, mime_type: entry.mime_type, ...(entry.source_ref === undefined ? {} : { source_ref: JSON.stringify(entry.source_ref) }) },
        { name: entry.file, type: entry.mime_type, content },
      )
      const response = await app.inject({
        method: 'POST',
        url: '/v1/raw/ingest',
        headers: { authorization: `Bearer ${token}`, 'content-type': form.contentType },
        payload: form.body,
      })
      await expectStatus(response, [201, 200], `ingest of ${entry.file}`)
      artifacts.push((response.json() as { raw_id: string }).raw_id)
      continue
    }
    const provider = entry.provider_webhook!
    let connection = secrets.get(provider)
    if (connection === undefined) {
      // Connectors are configured out of band (npm run connectors); the demo configures its own.
      // The whole tenant id: provider accounts are unique across tenants, and sandboxes may share a database.
      const accountRef = `juniper-finch-${tenantId}-${provider}`
      const { outcome: added } = await runtime.services.connectors.add({ requestId: 'sandbox-demo-business' }, { tenantId, provider, accountRef })
      connection = { accountRef, secret: added.secret }
      secrets.set(provider, connection)
    }
    const response = await app.inject({
      method: 'POST',
      url: `/v1/raw/webhooks/${provider}`,
      headers: {
        'content-type': 'application/json',
        'x-provider-account': connection.accountRef,
        'x-provider-signature': providerSignatureHeader(connection.secret, Math.floor(runtime.clock.now().getTime() / 1000), content),
      },
      payload: content,
    })
    await expectStatus(response, [202], `webhook delivery of ${entry.file}`)
  }

  const credentials: DemoCredentials = { tenant_id: tenantId, email, password, business: demoBusinessName, created_at: runtime.clock.now().toISOString() }
  writeFileSync(credentialsPath, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 })
  logger.info(
    { tenant_id: tenantId, email, credentials_file: credentialsPath, files: manifest.load_in_order.length },
    `sandbox demo business "${demoBusinessName}" created: log in with the email and password in ${credentialsPath}; its files are being extracted and normalized now`,
  )
  return { credentials, artifacts }
}
