/**
 * The steward CLI's tenant commands against a running server, on either engine, each run as a process:
 * login and whoami (the profile file and its mode), raw upload of a fixture and its extraction outcome,
 * the Ledger transactions table, audit tail and verify, and webhooks listen forwarding a real event to a
 * local receiver, where its Standard Webhooks signature verifies.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testPassword, uniqueEmail } from '../support/harness.ts'
import { runCli, startCli } from '../support/cli-process.ts'
import { postJson, repositoryRoot, startServer, waitUntilServing, type RunningServer } from '../support/server-process.ts'
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts'

const scratch = mkdtempSync(join(tmpdir(), 'steward-cli-tenant-'))
const fixture = join(repositoryRoot, 'test/fixtures/raw/ingest/statement.csv')
let server: RunningServer
let receiver: WebhookReceiver
let email: string
let tenantId: string
/** The CLI's environment: its own config directory, and the server's URL. */
let env: Record<string, string>

beforeAll(async () => {
  server = await startServer({ DATA_DIR: join(scratch, 'data'), SANDBOX_DEMO_DATA: 'false', LOG_LEVEL: 'warn' })
  // A loaded machine (2 cores shared by parallel runs) can take a minute to start a server.
  await waitUntilServing(server, { timeoutMs: 170_000 })
  receiver = await startWebhookReceiver()
  email = uniqueEmail('cli-tenant')
  const signup = (await (await postJson(`${server.url}/v1/signup`, { email, password: testPassword })).json()) as { tenant_id: string; verification_token: string }
  tenantId = signup.tenant_id
  expect((await postJson(`${server.url}/v1/auth/verify-email`, { tenant_id: tenantId, token: signup.verification_token })).status).toBe(200)
  env = { XDG_CONFIG_HOME: join(scratch, 'config'), STEWARD_URL: server.url }
}, 240_000)

afterAll(async () => {
  await receiver?.close()
  if (server !== undefined) {
    server.child.kill('SIGTERM')
    await server.exited
  }
  rmSync(scratch, { recursive: true, force: true })
})

describe('the steward CLI against a running server', () => {
  it('logs in (the profile file is 0600) and says who it is; refuses a wrong password with the envelope\'s message; 77 when not logged in', async () => {
    expect((await runCli(['whoami'], env)).status).toBe(77)
    const refused = await runCli(['login', '--email', email], { ...env, STEWARD_PASSWORD: 'not the password at all' })
    expect(refused.status).toBe(1)
    expect(refused.stderr).toMatch(/\[auth_invalid_credentials/)

    const login = await runCli(['login', '--email', email, '--password-stdin'], env, { stdin: `${testPassword}\n` })
    expect(login.status, login.stderr).toBe(0)
    const path = join(scratch, 'config', 'steward', 'config.json')
    expect(statSync(path).mode & 0o777).toBe(0o600)
    expect(statSync(join(scratch, 'config', 'steward')).mode & 0o777).toBe(0o700)
    expect(JSON.parse(readFileSync(path, 'utf8')).profiles.default).toMatchObject({ url: server.url, tenant_id: tenantId, credential: { type: 'access_token' } })

    const whoami = await runCli(['whoami', '--json'], env)
    expect(whoami.status, whoami.stderr).toBe(0)
    expect(JSON.parse(whoami.stdout)).toMatchObject({ tenant_id: tenantId, principal_type: 'user', email, url: server.url })
    expect((await runCli(['whoami'], env)).stdout).toContain(`tenant   ${tenantId}`)
    // Another profile is not logged in.
    expect((await runCli(['whoami', '--profile', 'other'], env)).status).toBe(77)
  }, 60_000)

  it('uploads a fixture, reports its extraction, and lists the Ledger transactions it became as a table', async () => {
    const upload = await runCli(['raw', 'upload', fixture, '--json'], env)
    expect(upload.status, upload.stderr).toBe(0)
    const dataRows = readFileSync(fixture, 'utf8').trim().split('\n').length - 1
    const [outcome] = JSON.parse(upload.stdout).uploads
    expect(outcome).toMatchObject({ file: 'statement.csv', raw_id: expect.stringMatching(/^raw_/), deduplicated: false, extraction_status: 'succeeded', parser: expect.stringMatching(/@/), error: null })
    // The parsed rows it counts are the API's (the statement's transactions and its account).
    const token = JSON.parse(readFileSync(join(scratch, 'config', 'steward', 'config.json'), 'utf8')).profiles.default.credential.token as string
    const parsed = (await (await fetch(`${server.url}/v1/raw/${outcome.raw_id}/parsed?limit=1000`, { headers: { authorization: `Bearer ${token}` } })).json()) as { parsed: unknown[] }
    expect(outcome.parsed_rows).toBe(parsed.parsed.length)
    expect(outcome.parsed_rows).toBeGreaterThanOrEqual(dataRows)
    // The same bytes again: deduplicated, and the table form.
    const again = await runCli(['raw', 'upload', fixture], env)
    expect(again.status, again.stderr).toBe(0)
    expect(again.stdout).toMatch(/^FILE +RAW ID +STORED +EXTRACTION +PARSER +ROWS/)
    expect(again.stdout).toContain(`${outcome.raw_id}  deduplicated  succeeded`)
    const missing = await runCli(['raw', 'upload', join(scratch, 'no-such-file.csv'), '--json'], env)
    expect(missing.status).toBe(1)
    expect(JSON.parse(missing.stdout).uploads[0]).toMatchObject({ raw_id: null, extraction_status: 'not_uploaded', error: expect.stringMatching(/ENOENT/) })

    // Normalization follows extraction in the background.
    const deadline = Date.now() + 60_000
    let transactions: Array<{ description: string; amount: string }> = []
    while (transactions.length < dataRows && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 2000))
      const listed = await runCli(['ledger', 'transactions', '--json'], env)
      expect(listed.status, listed.stderr).toBe(0)
      transactions = JSON.parse(listed.stdout).transactions
    }
    expect(transactions).toHaveLength(dataRows)
    const table = await runCli(['ledger', 'transactions'], env)
    expect(table.status, table.stderr).toBe(0)
    const lines = table.stdout.trim().split('\n')
    expect(lines[0]).toMatch(/^DATE +AMOUNT +CURRENCY +STATUS +DESCRIPTION +RECONCILED +ID$/)
    expect(lines).toHaveLength(dataRows + 1)
    expect(table.stdout).toMatch(/2024-03-03 +-850\.00 +EUR .*Office rent March/)
  }, 120_000)

  it('tails audit events as they are recorded, and verifies the chain', async () => {
    const tail = startCli(['audit', 'tail', '--json', '--max', '1', '--layer', 'audit', '--interval-ms', '1000'], env)
    // Tail takes its start from the server's clock once it runs: the event it must see comes after.
    await tail.waitForStderr(/^Following the audit events of .* since /m)
    const token = JSON.parse(readFileSync(join(scratch, 'config', 'steward', 'config.json'), 'utf8')).profiles.default.credential.token as string
    const invited = await postJson(`${server.url}/v1/tenants/${tenantId}/members`, { email: uniqueEmail('cli-invitee'), role: 'viewer' }, token)
    expect(invited.status).toBe(201)
    const line = await tail.waitForLine((text) => text.includes('"member.invited"'))
    expect(JSON.parse(line)).toMatchObject({ tenant_id: tenantId, layer: 'audit', action: 'member.invited' })
    expect(await tail.exited, tail.stderr()).toBe(0)

    const history = await runCli(['audit', 'tail', '--no-follow', '--since', '2000-01-01T00:00:00Z', '--json'], env)
    expect(history.status, history.stderr).toBe(0)
    const actions = history.stdout.trim().split('\n').map((text) => JSON.parse(text).action as string)
    expect(actions).toContain('raw.artifact_ingested')

    const verify = await runCli(['audit', 'verify', '--json'], env)
    expect(verify.status, verify.stderr).toBe(0)
    expect(JSON.parse(verify.stdout)).toMatchObject({ tenant_id: tenantId, ok: true, first_break: null })
  }, 120_000)

  it('listens for events and forwards them to a local URL, signed with the session\'s secret', async () => {
    const listen = startCli(['webhooks', 'listen', '--forward-to', receiver.url('/hooks'), '--json', '--max', '1', '--events', 'raw.ingest.new', '--interval-ms', '1000'], env)
    const ready = JSON.parse(await listen.waitForLine((text) => text.includes('"ready"'))) as { secret: string; forward_to: string }
    expect(ready.secret).toMatch(/^whsec_/)
    receiver.setSecrets('/hooks', [ready.secret])
    const file = join(scratch, 'listen.csv')
    await import('node:fs').then(({ writeFileSync }) => writeFileSync(file, `Date,Description,Amount,Currency\n2024-04-01,Listen ${Date.now()},-1.00,EUR\n`))
    const upload = await runCli(['raw', 'upload', file, '--no-wait', '--json'], env)
    expect(upload.status, upload.stderr).toBe(0)
    const rawId = JSON.parse(upload.stdout).uploads[0].raw_id as string

    const forwarded = JSON.parse(await listen.waitForLine((text) => text.includes('"event_id"')))
    expect(forwarded).toMatchObject({ type: 'raw.ingest.new', status: 200, error: null })
    expect(await listen.exited, listen.stderr()).toBe(0)
    const [delivery] = receiver.deliveriesTo('/hooks')
    expect(delivery).toBeDefined()
    expect(delivery!.verifiedBy).toEqual([0])
    expect(delivery!.headers['webhook-id']).toBe(forwarded.event_id)
    expect(delivery!.payload).toMatchObject({ type: 'raw.ingest.new', id: forwarded.event_id, tenant_id: tenantId })
    expect(JSON.stringify(delivery!.payload.data)).toContain(rawId)
  }, 120_000)
})
