/**
 * A crash between a command's commit and its response (issue 14): the server process is killed with
 * SIGKILL right after `policy.compose` commits, so the client sees the connection drop with no answer.
 * The client retries with the same Idempotency-Key against a restarted server and gets the stored
 * outcome, marked as a replay; the command ran once (one composed version, one audit event).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { engineName, testPassword, uniqueEmail } from '../support/harness.ts'
import { postJson, startServer, waitUntilServing, type RunningServer } from '../support/server-process.ts'

const dataDir = mkdtempSync(join(tmpdir(), 'steward-crash-'))
const running: RunningServer[] = []
afterAll(async () => {
  for (const server of running) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL')
  await Promise.all(running.map((server) => server.exited))
  rmSync(dataDir, { recursive: true, force: true })
})

async function serve(env: Record<string, string> = {}): Promise<RunningServer> {
  const server = await startServer({ DATA_DIR: dataDir, SANDBOX_DEMO_DATA: 'false', ...env }, { preload: ['test/support/crash-after-commit.ts'] })
  running.push(server)
  await waitUntilServing(server)
  return server
}

/** The parsed JSON of a response, for reading fields the test asserts on. */
const jsonOf = async (response: Response) => (await response.json()) as Record<string, any>

const login = async (url: string, email: string) => (await jsonOf(await postJson(`${url}/v1/auth/login`, { email, password: testPassword }))).access_token as string

describe(`a crash between a command's commit and its response (${engineName()})`, () => {
  it('answers the retry with the stored outcome, and the command ran once', async () => {
    const first = await serve({ STEWARD_TEST_CRASH_AFTER_COMMAND: 'policy.compose' })
    const email = uniqueEmail('crash')
    const signup = await jsonOf(await postJson(`${first.url}/v1/signup`, { email, password: testPassword }))
    await postJson(`${first.url}/v1/auth/verify-email`, { tenant_id: signup.tenant_id, token: signup.verification_token })
    const tenantId = signup.tenant_id as string
    const key = `crash-${Date.now()}`
    const body = { content: { version: 7, rules: [{ id: 'confirm-all', applies_to: ['any'], when: {}, execute: 'confirm' }] } }
    const compose = (url: string, token: string) => postJson(`${url}/v1/policy/${tenantId}/compose`, body, token, { 'idempotency-key': key })

    // The process dies after the commit: the client gets no response at all.
    const lost = await compose(first.url, await login(first.url, email)).then(
      (response) => `answered ${response.status}`,
      (error: unknown) => `failed: ${error instanceof Error ? (error.cause as Error | undefined)?.message ?? error.message : String(error)}`,
    )
    expect(lost).toMatch(/^failed/)
    await first.exited
    expect(first.child.signalCode).toBe('SIGKILL')

    const second = await serve()
    const token = await login(second.url, email)
    const retried = await compose(second.url, token)
    expect(retried.status).toBe(201)
    expect(retried.headers.get('idempotent-replayed')).toBe('true')
    const outcome = await jsonOf(retried)
    expect(outcome).toMatchObject({ version: 2, state: 'pending_signatures' })

    // One composed version, one policy.composed audit event: the command ran once.
    const versions = (await jsonOf(await fetch(`${second.url}/v1/policy/${tenantId}/versions`, { headers: { authorization: `Bearer ${token}` } }))).versions
    expect(versions).toHaveLength(2)
    expect(versions.find((version: { version: number }) => version.version === 2).id).toBe(outcome.policy_id)
    const events = (await jsonOf(await fetch(`${second.url}/v1/audit/events?limit=100`, { headers: { authorization: `Bearer ${token}` } }))).events
    expect(events.filter((event: { action: string }) => event.action === 'policy.composed')).toHaveLength(1)

    // The same key with another request is still refused.
    const other = await postJson(`${second.url}/v1/policy/${tenantId}/compose`, { ...body, quorum_required: 2 }, token, { 'idempotency-key': key })
    expect(other.status).toBe(409)
    expect((await jsonOf(other)).error.code).toBe('idempotency_key_reused')
    second.child.kill('SIGTERM')
    await second.exited
  }, 180_000)

})
