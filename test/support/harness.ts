/**
 * The integration-test harness: a real runtime (database, job queue, services) and the app built on it,
 * on in-memory PGlite or on the run's PostgreSQL database. Create one per test file (PGlite takes a few
 * seconds to open); every test makes its own tenants, so tests need no cleanup and never collide.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import pino from 'pino'
import { expect, inject } from 'vitest'
import { createTokenSigner, tokenIssuer, type TokenSigner } from '../../src/modules/auth/tokens.ts'
import { loadConfig } from '../../src/main/config.ts'
import type { ErrorCode } from '../../src/kernel/errors.ts'
import { errorCatalogue } from '../../src/kernel/errors.ts'
import { fixedClock } from '../../src/kernel/clock.ts'
import type { Mailer, MailMessage } from '../../src/platform/mail/mailer.ts'
import { createRuntime, type ResolvedConfig, type Runtime, type RuntimeOptions } from '../../src/main/compose.ts'
import { createFileBlobStore, type BlobStore } from '../../src/platform/storage/blob-store.ts'

export const testPublicBaseUrl = 'http://steward.test'
export const testServiceTokenSecret = 'test-service-token-secret-0123456789abcdef'
export const testPlatformSecret = 'test-platform-service-secret-0123456789abcdef'
export const testPassword = 'correct horse battery staple'

export interface TestAppOptions {
  /** Environment overrides, as an operator would set them. */
  readonly env?: Readonly<Record<string, string>>
  readonly clock?: RuntimeOptions['clock']
  readonly rateLimits?: RuntimeOptions['rateLimits']
  /** Wraps the filesystem blob store (to simulate a failing storage backend). */
  readonly wrapBlobs?: (store: BlobStore) => BlobStore
  /** Run the job workers (off by default: tests that need a job run it deliberately). */
  readonly workers?: boolean
  /**
   * Further runtime options (webhook timings, a fake resolver, a chain, a given pg-boss schema, Raw's
   * parser and resolver, a PGlite data directory another process can open…).
   */
  readonly runtime?: Partial<Pick<RuntimeOptions, 'webhooks' | 'jobSchema' | 'anchorChain' | 'agentRegistry' | 'raw' | 'pgliteDataDir' | 'execution' | 'wiki' | 'jobPollingIntervalSeconds'>>
}

export interface TestApp {
  readonly app: FastifyInstance
  readonly runtime: Runtime
  readonly config: ResolvedConfig
  readonly tokens: TokenSigner
  /** Mail the `mail-send` job delivered. */
  readonly mail: MailMessage[]
  /** The runtime's pg-boss schema (a second runtime given the same one shares its jobs). */
  readonly jobSchema: string
  request(options: InjectOptions & { token?: string }): Promise<LightMyRequestResponse>
  close(): Promise<void>
}

/** The database this run uses: the run's PostgreSQL database, or undefined for PGlite. */
export function testDatabaseUrl(): string | undefined {
  return inject('testDatabaseUrl') ?? undefined
}

export const engineName = () => (testDatabaseUrl() === undefined ? 'pglite' : 'postgres')

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const databaseUrl = testDatabaseUrl()
  const dataDir = mkdtempSync(join(tmpdir(), 'steward-test-'))
  const config = loadConfig({
    STEWARD_ENV: 'sandbox',
    PUBLIC_BASE_URL: testPublicBaseUrl,
    DATA_DIR: dataDir,
    SERVICE_TOKEN_SECRET: testServiceTokenSecret,
    PLATFORM_SERVICE_SECRET: testPlatformSecret,
    JWT_SECRET: randomBytes(32).toString('hex'),
    API_KEY_PEPPER: randomBytes(32).toString('hex'),
    // Tests share one client address; the public budget is raised except where a test lowers it.
    PUBLIC_RATE_LIMIT_PER_MINUTE: '100000',
    PUBLIC_RATE_LIMIT_BURST: '100000',
    LOG_LEVEL: 'silent',
    SHUTDOWN_TIMEOUT_MS: '2000',
    // Webhook tests deliver to receivers on 127.0.0.1 (the documented local-development setting, which
    // production refuses).
    ...(options.env?.STEWARD_ENV === 'production' ? {} : { WEBHOOK_ALLOW_LOOPBACK: 'true' }),
    ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }),
    ...options.env,
  }) as ResolvedConfig
  const mail: MailMessage[] = []
  const mailer: Mailer = {
    async send(message) {
      mail.push(message)
    },
    async close() {},
  }
  const jobSchema = options.runtime?.jobSchema ?? `pgboss_${randomBytes(4).toString('hex')}`
  const runtime = await createRuntime({
    config,
    logger: pino({ level: config.logLevel }),
    pgliteDataDir: undefined,
    blobRoot: join(dataDir, 'blobs'),
    // 2^12 instead of 2^16: the same code path at a sixteenth of the cost (a test pins the default).
    scrypt: { log2N: 12, r: 8, p: 1 },
    mailer,
    jobPollingIntervalSeconds: 0.5,
    auditSweepIntervalMs: 200,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.rateLimits === undefined ? {} : { rateLimits: options.rateLimits }),
    ...(options.wrapBlobs === undefined ? {} : { blobs: options.wrapBlobs(createFileBlobStore(join(dataDir, 'blobs'))) }),
    ...options.runtime,
    jobSchema,
  })
  if (options.workers === true) await runtime.startWorkers()
  const app = await runtime.buildApp()
  const tokens = createTokenSigner(config.jwtSecret, tokenIssuer(config.environment))

  return {
    app,
    runtime,
    config,
    tokens,
    mail,
    jobSchema,
    request: ({ token, headers, ...rest }) =>
      app.inject({ ...rest, headers: { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), ...headers } }),
    async close() {
      await app.close()
      await runtime.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

export { fixedClock }

let emailCounter = 0
export function uniqueEmail(label = 'user'): string {
  emailCounter += 1
  return `${label}.${Date.now()}.${emailCounter}.${randomBytes(3).toString('hex')}@example.com`
}

export interface TenantOwner {
  readonly tenantId: string
  readonly userId: string
  readonly email: string
  readonly token: string
}

/** Signs up, verifies and logs in a fresh tenant owner. */
export async function signupOwner(test: TestApp, email = uniqueEmail('owner')): Promise<TenantOwner> {
  const signup = await test.request({ method: 'POST', url: '/v1/signup', payload: { email, password: testPassword } })
  expect(signup.statusCode, signup.body).toBe(201)
  const { tenant_id: tenantId, user_id: userId, verification_token: verificationToken } = signup.json()
  const verify = await test.request({ method: 'POST', url: '/v1/auth/verify-email', payload: { tenant_id: tenantId, token: verificationToken } })
  expect(verify.statusCode, verify.body).toBe(200)
  const token = await login(test, email)
  return { tenantId, userId, email, token }
}

export async function login(test: TestApp, email: string, password = testPassword): Promise<string> {
  const response = await test.request({ method: 'POST', url: '/v1/auth/login', payload: { email, password } })
  expect(response.statusCode, response.body).toBe(200)
  return response.json().access_token as string
}

export interface JoinedMember {
  readonly memberId: string
  readonly userId: string
  readonly email: string
  readonly token: string
}

/** Invites a member with `role` into the owner's tenant, accepts the invitation and logs in. */
export async function addMember(
  test: TestApp,
  owner: TenantOwner,
  role: 'admin' | 'approver' | 'viewer',
  extra: Record<string, unknown> = {},
): Promise<JoinedMember> {
  const email = uniqueEmail(role)
  const invite = await test.request({
    method: 'POST',
    url: `/v1/tenants/${owner.tenantId}/members`,
    token: owner.token,
    payload: { email, role, ...extra },
  })
  expect(invite.statusCode, invite.body).toBe(201)
  const { member, invitation_token: invitationToken } = invite.json()
  const accept = await test.request({
    method: 'POST',
    url: '/v1/auth/accept-invitation',
    payload: { tenant_id: owner.tenantId, token: invitationToken, password: testPassword },
  })
  expect(accept.statusCode, accept.body).toBe(200)
  return { memberId: member.id, userId: member.user_id, email, token: await login(test, email) }
}

/** Issues a sandbox API key for the owner's tenant. */
export async function issueApiKey(test: TestApp, owner: TenantOwner, body: Record<string, unknown> = {}): Promise<{ id: string; secret: string }> {
  const response = await test.request({
    method: 'POST',
    url: `/v1/tenants/${owner.tenantId}/api-keys`,
    token: owner.token,
    payload: { name: 'test key', ...body },
  })
  expect(response.statusCode, response.body).toBe(201)
  return { id: response.json().api_key.id, secret: response.json().secret }
}

/** Asserts the response is the error envelope with this status and code, and returns its error object. */
export function expectError(response: LightMyRequestResponse, code: ErrorCode): { code: string; message: string; details?: Record<string, unknown>; request_id: string; docs_url: string } {
  const status = errorCatalogue[code].status
  expect(response.statusCode, response.body).toBe(status)
  expect(response.headers['content-type']).toMatch(/^application\/json/)
  const body = response.json()
  expect(Object.keys(body)).toEqual(['error'])
  expect(body.error.code).toBe(code)
  expect(typeof body.error.message).toBe('string')
  expect(body.error.request_id).toBe(response.headers['x-request-id'])
  expect(body.error.docs_url).toBe(`${testPublicBaseUrl}/docs/errors#${code}`)
  for (const key of Object.keys(body.error)) expect(['code', 'message', 'details', 'request_id', 'docs_url']).toContain(key)
  return body.error
}

/** The credential id a bearer token names (its `sub`): for a service token, the agent id it proposes as. */
export function subjectOf(token: string): string {
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sub?: unknown }
  expect(typeof payload.sub).toBe('string')
  return payload.sub as string
}

/** Mints a break-glass service token for the tenant (the stand-in for Steward's internal agents: it proposes payments). */
export async function mintServiceToken(test: TestApp, tenantId: string, reason = 'test'): Promise<string> {
  const minted = await test.request({ method: 'POST', url: '/v1/auth/service-token', token: testServiceTokenSecret, payload: { tenant_id: tenantId, reason } })
  expect(minted.statusCode, minted.body).toBe(200)
  return minted.json().access_token as string
}
