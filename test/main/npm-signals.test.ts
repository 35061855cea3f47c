/**
 * What a supervisor, `docker stop` or systemd does: signal the pid it started, which is npm's. The
 * signal must reach the server (or worker) and drain it, so its port and the embedded database's lock
 * are free once the command has exited; and a server whose npm was killed outright (SIGKILL, which npm
 * cannot pass on) stops by itself. The server cases run on their own embedded data directory (the lock
 * is PGlite's, and a process's signals are the same on either engine); the separate worker runs on
 * PostgreSQL, the only engine it serves.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { testDatabaseUrl } from '../support/harness.ts'
import { freePort, repositoryRoot } from '../support/server-process.ts'

const dataDirs: string[] = []
const lockHolders = new Set<number>()
const npms: ChildProcess[] = []

afterAll(() => {
  // A failed case must not leave npm or a server behind.
  for (const npm of npms) npm.kill('SIGKILL')
  for (const pid of lockHolders) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // already gone
    }
  }
  for (const directory of dataDirs) rmSync(directory, { recursive: true, force: true })
})

interface NpmRun {
  readonly npm: ChildProcess
  readonly port: number
  readonly dataDir: string
  readonly exited: Promise<void>
  output(): string
}

function npmRun(script: 'start' | 'worker', env: Record<string, string> = {}): Promise<NpmRun> {
  return freePort().then((port) => {
    const dataDir = mkdtempSync(join(tmpdir(), `steward-npm-${script}-`))
    dataDirs.push(dataDir)
    const npm = spawn('npm', script === 'start' ? ['start'] : ['run', script], {
      cwd: repositoryRoot,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), PORT: String(port), DATA_DIR: dataDir, SANDBOX_DEMO_DATA: 'false', LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    npms.push(npm)
    let output = ''
    npm.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
    npm.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const exited = new Promise<void>((resolve) => npm.on('exit', () => resolve()))
    return { npm, port, dataDir, exited, output: () => output }
  })
}

async function until(what: string, condition: () => boolean | Promise<boolean>, run: NpmRun, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms:\n${run.output()}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

const lockPath = (run: NpmRun) => join(run.dataDir, 'pglite', 'steward.lock')

/** The pid in the data directory's lock: the process holding the embedded database. */
function lockHolder(run: NpmRun): number | undefined {
  if (!existsSync(lockPath(run))) return undefined
  const pid = Number(readFileSync(lockPath(run), 'utf8').trim())
  if (!Number.isInteger(pid) || pid <= 0) return undefined
  lockHolders.add(pid)
  return pid
}

/** The one process npm started (with `exec` in the script, the script's own process). */
function childOf(pid: number): number | undefined {
  const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' }).trim().split(/\s+/).filter(Boolean).map(Number)
  const child = children.length === 1 ? children[0] : undefined
  if (child !== undefined) lockHolders.add(child)
  return child
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

function portIsOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

async function healthy(port: number): Promise<boolean> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/v1/health`)).ok
  } catch {
    return false
  }
}

describe('signals sent to npm', () => {
  it('SIGTERM to `npm start` drains the server: its port and the database lock are free once npm has exited', async () => {
    const run = await npmRun('start')
    await until('the server serving', () => healthy(run.port), run)
    const server = lockHolder(run)
    expect(server).toBeDefined()
    expect(server).not.toBe(run.npm.pid)

    run.npm.kill('SIGTERM')
    await run.exited
    await until('the server exiting', () => !isAlive(server ?? 0), run, 30_000)
    expect(await portIsOpen(run.port)).toBe(false)
    expect(existsSync(lockPath(run))).toBe(false)
    expect(run.output()).toMatch(/shut|stopp|drain/i)
  }, 180_000)

  // The separate worker process runs on PostgreSQL only (on PGlite the server runs the workers itself).
  it.skipIf(testDatabaseUrl() === undefined)('SIGTERM to `npm run worker` stops the worker: npm\'s child has exited when npm has', async () => {
    // A worker uses the server's secrets (it never generates its own): here, set as a deployment sets them.
    const run = await npmRun('worker', { DATABASE_URL: testDatabaseUrl() ?? '', JWT_SECRET: 'w'.repeat(64), API_KEY_PEPPER: 'p'.repeat(64) })
    await until('the workers running', () => run.output().includes('workers running'), run)
    const worker = childOf(run.npm.pid ?? 0)
    expect(worker).toBeDefined()
    expect(run.output()).toContain('worker.ts')

    run.npm.kill('SIGTERM')
    await run.exited
    await until('the worker exiting', () => !isAlive(worker ?? 0), run, 30_000)
    expect(run.output()).toMatch(/shutting down/)
  }, 180_000)

  it('a server whose `npm start` was killed outright (SIGKILL) stops by itself', async () => {
    const run = await npmRun('start')
    await until('the server serving', () => healthy(run.port), run)
    const server = lockHolder(run) ?? 0

    run.npm.kill('SIGKILL')
    await run.exited
    await until('the orphaned server stopping', () => !isAlive(server), run, 30_000)
    expect(await portIsOpen(run.port)).toBe(false)
    expect(existsSync(lockPath(run))).toBe(false)
  }, 180_000)
})
