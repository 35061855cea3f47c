/**
 * The operator's commands against a running server, on either engine: `steward connectors …` (what
 * `npm run connectors` runs) through /v1/platform/connectors…, and `npm run audit:verify` through
 * /v1/platform/audit/chain. On PGlite these are the cases that failed before: the commands opened the
 * embedded database the server holds.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { providerSignatureHeader } from '../../src/modules/raw/index.ts'
import { testDatabaseUrl, testPassword, uniqueEmail } from '../support/harness.ts'
import { runCli, runScript } from '../support/cli-process.ts'
import { postJson, startServer, waitUntilServing, type RunningServer } from '../support/server-process.ts'

const platformSecret = 'cli-test-platform-service-secret-0123456789abcdef'
const scratch = mkdtempSync(join(tmpdir(), 'steward-cli-operator-'))
let server: RunningServer
let tenantId: string
let ownerToken: string
let accountCounter = 0
const uniqueAccount = () => `acct_cli_${Date.now()}_${(accountCounter += 1)}`

beforeAll(async () => {
  server = await startServer({ DATA_DIR: join(scratch, 'data'), PLATFORM_SERVICE_SECRET: platformSecret, SANDBOX_DEMO_DATA: 'false', LOG_LEVEL: 'warn' })
  // A loaded machine (2 cores shared by parallel runs) can take a minute to start a server.
  await waitUntilServing(server, { timeoutMs: 170_000 })
  const email = uniqueEmail('cli-operator')
  const signup = (await (await postJson(`${server.url}/v1/signup`, { email, password: testPassword })).json()) as { tenant_id: string; verification_token: string }
  tenantId = signup.tenant_id
  await postJson(`${server.url}/v1/auth/verify-email`, { tenant_id: tenantId, token: signup.verification_token })
  ownerToken = ((await (await postJson(`${server.url}/v1/auth/login`, { email, password: testPassword })).json()) as { access_token: string }).access_token
}, 240_000)

afterAll(async () => {
  if (server !== undefined) {
    server.child.kill('SIGTERM')
    await server.exited
  }
  rmSync(scratch, { recursive: true, force: true })
})

/** The operator's environment: the server's URL and platform secret, and nothing of its database. */
const operator = (extra: Record<string, string> = {}) => ({ STEWARD_URL: server.url, PLATFORM_SERVICE_SECRET: platformSecret, ...extra })

function deliver(provider: string, account: string, secret: string) {
  const body = Buffer.from(JSON.stringify({ account, transactions: [{ id: `tx_${Math.random()}`, amount: '-12.50', currency: 'EUR' }] }))
  return fetch(`${server.url}/v1/raw/webhooks/${provider}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-provider-account': account, 'x-provider-signature': providerSignatureHeader(secret, Math.floor(Date.now() / 1000), body) },
    body,
  })
}

describe('steward connectors (npm run connectors) while the server runs', () => {
  it('adds, lists, pauses, rotates, resumes and revokes, each audited; the secrets verify webhooks; the webhook URL is the server\'s', async () => {
    const account = uniqueAccount()
    const args = (command: string) => ['connectors', command, '--tenant', tenantId, '--provider', 'bank_provider', '--account', account]

    const added = await runCli([...args('add'), '--json'], operator())
    expect(added.status, added.stderr).toBe(0)
    const addedJson = JSON.parse(added.stdout)
    expect(addedJson).toMatchObject({
      connection: { tenant_id: tenantId, provider: 'bank_provider', account_ref: account, status: 'active' },
      secret: expect.stringMatching(/^psk_[A-Za-z0-9_-]{43}$/),
      // The server's own base URL (PUBLIC_BASE_URL defaults to its real port), not localhost:8080.
      webhook_url: `http://localhost:${new URL(server.url).port}/v1/raw/webhooks/bank_provider`,
    })
    const firstSecret = addedJson.secret as string
    expect((await deliver('bank_provider', account, firstSecret)).status).toBe(202)

    // A second add of the account is refused with the envelope's message, and prints no secret.
    const again = await runCli(args('add'), operator())
    expect(again.status).toBe(1)
    expect(again.stderr).toMatch(/already connected.*\[source_already_connected/)
    expect(`${again.stdout}${again.stderr}`).not.toContain(firstSecret)

    const rotated = await runCli([...args('rotate-secret'), '--json'], operator())
    expect(rotated.status, rotated.stderr).toBe(0)
    const secondSecret = JSON.parse(rotated.stdout).secret as string
    expect(secondSecret).not.toBe(firstSecret)
    expect((await deliver('bank_provider', account, firstSecret)).status).toBe(401)

    const paused = await runCli(args('pause'), operator())
    expect(paused.status, paused.stderr).toBe(0)
    expect(paused.stdout).toMatch(/^Now pcn_\S+ {2}bank_provider {2}\S+ {2}paused/)
    expect((await runCli(args('pause'), operator())).stdout).toMatch(/^Already /)
    const listed = await runCli(['connectors', 'list', '--tenant', tenantId, '--json'], operator())
    expect(listed.status, listed.stderr).toBe(0)
    expect(JSON.parse(listed.stdout).connections).toEqual([expect.objectContaining({ account_ref: account, status: 'paused' })])
    expect(listed.stdout).not.toContain(secondSecret)
    expect((await deliver('bank_provider', account, secondSecret)).status).toBe(401)

    expect((await runCli(args('resume'), operator())).status).toBe(0)
    expect((await deliver('bank_provider', account, secondSecret)).status).toBe(202)
    const revoked = await runCli(args('revoke'), operator())
    expect(revoked.status, revoked.stderr).toBe(0)
    expect(revoked.stdout).toMatch(/revoked/)
    const resumeRevoked = await runCli(args('resume'), operator())
    expect(resumeRevoked.status).toBe(1)
    expect(resumeRevoked.stderr).toMatch(/is revoked.*\[source_revoked/)
    expect((await deliver('bank_provider', account, secondSecret)).status).toBe(401)

    // Each change is one audit event of the platform's, with the request that made it (no-ops record nothing).
    const { events } = (await (await fetch(`${server.url}/v1/audit/events?layer=raw&limit=1000`, { headers: { authorization: `Bearer ${ownerToken}` } })).json()) as {
      events: Array<{ action: string; actor: { type: string; id: string }; request_id: string | null; outputs: Record<string, unknown> }>
    }
    const changes = events.filter((event) => event.action === 'raw.source_status_changed' && event.outputs.account_ref === account)
    expect(changes.map((event) => event.outputs.change)).toEqual(['added', 'secret_rotated', 'paused', 'resumed', 'revoked'])
    expect(changes.every((event) => event.actor.type === 'platform' && event.actor.id === 'platform-service' && event.request_id !== null)).toBe(true)
    for (const event of changes) expect(JSON.stringify(event)).not.toContain(firstSecret)
    const verified = await runCli(['audit', 'verify', '--tenant', tenantId], operator())
    expect(verified.status, verified.stderr).toBe(0)
    expect(verified.stdout).toMatch(/is whole: \d+ events/)
  }, 180_000)

  it('replays an add with the same Idempotency-Key, secret included', async () => {
    const account = uniqueAccount()
    const args = ['connectors', 'add', '--tenant', tenantId, '--provider', 'erp_provider', '--account', account, '--idempotency-key', `cli-${account}`, '--json']
    const first = await runCli(args, operator())
    const second = await runCli(args, operator())
    expect(first.status, first.stderr).toBe(0)
    expect(second.status, second.stderr).toBe(0)
    expect(JSON.parse(second.stdout)).toEqual(JSON.parse(first.stdout))
  }, 60_000)

  it('prints the envelope\'s message and exits non-zero on a wrong secret, an unknown tenant or bad input; 78 without a secret; 69 without a server', async () => {
    const list = ['connectors', 'list', '--tenant', tenantId]
    const wrong = await runCli(list, operator({ PLATFORM_SERVICE_SECRET: `${platformSecret}x` }))
    expect(wrong.status).toBe(1)
    expect(wrong.stderr).toContain('The platform service credential is not valid. [auth_token_invalid')
    expect(wrong.stderr).not.toMatch(/\n\s+at /)

    const unknown = await runCli(['connectors', 'add', '--tenant', '00000000-0000-7000-8000-000000000000', '--provider', 'bank_provider', '--account', uniqueAccount()], operator())
    expect(unknown.status).toBe(1)
    expect(unknown.stderr).toMatch(/\[tenant_not_found/)
    const badProvider = await runCli(['connectors', 'add', '--tenant', tenantId, '--provider', 'bank', '--account', 'a'], operator())
    expect(badProvider.status).toBe(1)
    expect(badProvider.stderr).toMatch(/\[request_body_invalid/)

    expect((await runCli(['connectors', 'add', '--tenant', 'not-a-uuid', '--provider', 'bank_provider', '--account', 'a'], operator())).status).toBe(2)
    expect((await runCli(['connectors', 'explode', '--tenant', tenantId], operator())).status).toBe(2)
    const noSecret = await runCli(list, { STEWARD_URL: server.url })
    expect(noSecret.status).toBe(78)
    expect(noSecret.stderr).toMatch(/PLATFORM_SERVICE_SECRET is not set/)
    const noServer = await runCli(list, operator({ STEWARD_URL: 'http://127.0.0.1:9' }))
    expect(noServer.status).toBe(69)
    expect(noServer.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:9/)
  }, 120_000)
})

describe('npm run audit:verify while the server runs', () => {
  it('verifies through the server with the platform secret, and otherwise says in one line that the database is in use', async () => {
    const through = await runScript('src/main/audit-verify.ts', ['--tenant', tenantId], operator())
    expect(through.status, through.stderr).toBe(0)
    expect(JSON.parse(through.stdout)).toMatchObject({ tenant_id: tenantId, ok: true, first_break: null })
    expect(JSON.parse(through.stdout).events_checked).toBeGreaterThan(0)

    const wrong = await runScript('src/main/audit-verify.ts', ['--tenant', tenantId], operator({ PLATFORM_SERVICE_SECRET: `${platformSecret}x` }))
    expect(wrong.status).toBe(1)
    expect(wrong.stderr).toContain('[auth_token_invalid]')

    if (testDatabaseUrl() === undefined) {
      // Without the secret it opens the database itself: the server holds the embedded one.
      const direct = await runScript('src/main/audit-verify.ts', ['--tenant', tenantId], { DATA_DIR: join(scratch, 'data'), LOG_LEVEL: 'silent' })
      expect(direct.status, direct.stderr).toBe(75)
      expect(direct.stderr.trim().split('\n')).toHaveLength(1)
      expect(direct.stderr).toMatch(/in use by another process \(pid \d+\)/)
    } else {
      const direct = await runScript('src/main/audit-verify.ts', ['--tenant', tenantId, '--direct'], { DATABASE_URL: testDatabaseUrl()!, LOG_LEVEL: 'silent' })
      expect(direct.status, direct.stderr).toBe(0)
      expect(JSON.parse(direct.stdout)).toMatchObject({ tenant_id: tenantId, ok: true })
    }
  }, 120_000)
})
