/**
 * The service as an operator runs it, for tests: `src/main/server.ts` in its own process, configured
 * only by the environment, on the run's database (PostgreSQL when the run has one, else PGlite in the
 * data directory given).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { testDatabaseUrl } from './harness.ts'

export const repositoryRoot = join(import.meta.dirname, '../..')

/** How `npm run server` runs a process: node with tsx as a loader, so signals reach the server itself. */
export const nodeCommand = (script: string, preload: readonly string[] = []) =>
  [process.execPath, ['--import', 'tsx', ...preload.flatMap((module) => ['--import', join(repositoryRoot, module)]), join(repositoryRoot, script)]] as const

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0))
    })
  })
}

export interface RunningServer {
  readonly child: ChildProcessWithoutNullStreams
  readonly url: string
  output(): string
  readonly exited: Promise<number | null>
}

/** Starts the server with `env` (and modules to preload, for tests that instrument it). */
export async function startServer(env: Record<string, string>, options: { preload?: readonly string[] } = {}): Promise<RunningServer> {
  const port = await freePort()
  const databaseUrl = testDatabaseUrl()
  const child = spawn(...nodeCommand('src/main/server.ts', options.preload), {
    cwd: repositoryRoot,
    env: { PATH: process.env.PATH ?? '', PORT: String(port), LOG_LEVEL: 'info', ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }), ...env },
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { child, url: `http://127.0.0.1:${port}`, output: () => output, exited }
}

/** Waits for /v1/health to answer (a server that loads the sandbox demo first takes longer: pass `timeoutMs`). */
export async function waitUntilServing(running: RunningServer, options: { timeoutMs?: number } = {}): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000)
  while (Date.now() < deadline) {
    if (running.child.exitCode !== null || running.child.signalCode !== null) throw new Error(`server exited early:\n${running.output()}`)
    try {
      if ((await fetch(`${running.url}/v1/health`)).ok) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`server did not start:\n${running.output()}`)
}

export const postJson = (url: string, body: unknown, token?: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers }, body: JSON.stringify(body) })
