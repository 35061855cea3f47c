/**
 * The service as an operator runs it: `src/main/server.ts` in its own process, configured only by the
 * environment. Boots on an empty data directory (the quick start), keeps its generated sandbox secrets
 * across restarts, refuses bad configuration with every problem listed, and on SIGTERM finishes the
 * request in flight before exiting 0.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { testDatabaseUrl, testPassword, uniqueEmail } from '../support/harness.ts'
import { nodeCommand, postJson, repositoryRoot, startServer, waitUntilServing } from '../support/server-process.ts'

const root = repositoryRoot
const node = nodeCommand
const dataDirs: string[] = []

afterAll(() => {
  for (const directory of dataDirs) rmSync(directory, { recursive: true, force: true })
})

const post = postJson

describe('the server process', () => {
  it('boots on an empty data directory, keeps its sandbox secrets across a restart, and drains on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'steward-process-'))
    dataDirs.push(dataDir)
    const first = await startServer({ DATA_DIR: dataDir })
    await waitUntilServing(first)
    // The first start of a sandbox creates the demo business and saves its login in the data directory.
    const demo = JSON.parse(readFileSync(join(dataDir, 'sandbox-demo.json'), 'utf8')) as { email: string; tenant_id: string }
    expect(first.output()).toContain('sandbox demo business')

    const email = uniqueEmail('process')
    const signup = (await (await post(`${first.url}/v1/signup`, { email, password: testPassword })).json()) as { tenant_id: string; verification_token: string }
    expect((await post(`${first.url}/v1/auth/verify-email`, { tenant_id: signup.tenant_id, token: signup.verification_token })).status).toBe(200)
    const login = (await (await post(`${first.url}/v1/auth/login`, { email, password: testPassword })).json()) as { access_token: string; expires_in: number }
    expect(login.expires_in).toBe(900)

    // A second process on the same embedded database is refused instead of corrupting it.
    if (testDatabaseUrl() === undefined) {
      const migrate = spawn(...node('src/main/migrate.ts'), { cwd: root, env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir } })
      let migrateOutput = ''
      migrate.stdout.on('data', (chunk: Buffer) => (migrateOutput += chunk.toString()))
      migrate.stderr.on('data', (chunk: Buffer) => (migrateOutput += chunk.toString()))
      expect(await new Promise((resolve) => migrate.on('exit', resolve)), migrateOutput).toBe(75)
      expect(migrateOutput).toMatch(/open in another process \(pid \d+\)/)
    }

    // A login is in flight (scrypt takes a while) when SIGTERM arrives: it must still be answered.
    const logins = () => (first.output().match(/"url":"\/v1\/auth\/login"/g) ?? []).length
    const loginsBefore = logins()
    const inFlight = post(`${first.url}/v1/auth/login`, { email, password: testPassword })
    const deadline = Date.now() + 10_000
    while (logins() <= loginsBefore) {
      if (Date.now() > deadline) throw new Error('the second login never arrived')
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    first.child.kill('SIGTERM')
    expect((await inFlight).status).toBe(200)
    expect(await first.exited, first.output()).toBe(0)
    expect(first.output()).toContain('shutting down')

    // Same data directory: the token minted before the restart is still valid (the JWT secret persisted).
    const second = await startServer({ DATA_DIR: dataDir })
    try {
      await waitUntilServing(second)
      const whoami = await fetch(`${second.url}/v1/auth/whoami`, { headers: { authorization: `Bearer ${login.access_token}` } })
      expect(whoami.status).toBe(200)
      expect(((await whoami.json()) as { tenantId: string }).tenantId).toBe(signup.tenant_id)
      // A restart does not create the demo business again.
      expect(JSON.parse(readFileSync(join(dataDir, 'sandbox-demo.json'), 'utf8'))).toMatchObject(demo)
      expect(second.output(), second.output()).not.toContain('sandbox demo business')
    } finally {
      second.child.kill('SIGTERM')
      expect(await second.exited, second.output()).toBe(0)
    }
  }, 120_000)

  it('refuses bad configuration with every problem listed and exit status 78', async () => {
    const running = await startServer({ DATA_DIR: mkdtempSync(join(tmpdir(), 'steward-process-')), PORT: 'eighty', STEWARD_ENV: 'production' })
    expect(await running.exited).toBe(78)
    const output = running.output()
    expect(output).toContain('Invalid configuration')
    expect(output).toMatch(/PORT: "eighty" is not a whole number/)
    expect(output).toMatch(/JWT_SECRET: required when STEWARD_ENV=production/)
    expect(output).toMatch(/SMTP_URL: required/)
  }, 60_000)
})

describe('the separate worker process', () => {
  // The worker runs on PostgreSQL only (on PGlite the server runs the workers itself).
  it.skipIf(testDatabaseUrl() === undefined)('refuses, with exit status 78 and the cause, a data directory of its own instead of generating secrets no server knows', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'steward-worker-'))
    dataDirs.push(dataDir)
    const child = spawn(...node('src/main/worker.ts'), { cwd: root, env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, DATABASE_URL: testDatabaseUrl() ?? '', LOG_LEVEL: 'info' } })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const status = await new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
    expect(status, output).toBe(78)
    expect(output).toMatch(/JWT_SECRET and API_KEY_PEPPER are unset/)
    expect(output).toContain("give it the server's DATA_DIR")
    expect(existsSync(join(dataDir, 'secrets.json'))).toBe(false)
  }, 60_000)
})
