/**
 * The steward CLI as a user runs it, for tests: `bin/steward.mjs` in its own process, configured only by
 * its arguments and environment (a config directory of the test's own, the server's URL).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { join } from 'node:path'
import { repositoryRoot } from './server-process.ts'

export interface CliResult {
  readonly status: number | null
  readonly stdout: string
  readonly stderr: string
}

const stewardBin = join(repositoryRoot, 'bin', 'steward.mjs')

/** Runs `steward …args` to completion. */
export function runCli(args: readonly string[], env: Record<string, string>, options: { stdin?: string } = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [stewardBin, ...args], { cwd: repositoryRoot, env: { PATH: process.env.PATH ?? '', ...env } })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('exit', (status) => resolve({ status, stdout, stderr }))
    child.stdin.end(options.stdin ?? '')
  })
}

/** Runs a script of the repository (`npm run audit:verify`'s, for instance) with node and tsx, as npm does. */
export function runScript(script: string, args: readonly string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(repositoryRoot, script), ...args], { cwd: repositoryRoot, env: { PATH: process.env.PATH ?? '', ...env } })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('exit', (status) => resolve({ status, stdout, stderr }))
  })
}

export interface RunningCli {
  readonly child: ChildProcessWithoutNullStreams
  /** Complete stdout lines so far. */
  lines(): string[]
  stderr(): string
  /** Waits until a stdout line matches (or the process ends, or 60 s pass). */
  waitForLine(match: (line: string) => boolean): Promise<string>
  /** Waits until stderr says something matching (a command's note that it has started). */
  waitForStderr(pattern: RegExp): Promise<void>
  readonly exited: Promise<number | null>
}

/** Starts a long-running command (tail, listen). */
export function startCli(args: readonly string[], env: Record<string, string>): RunningCli {
  const child = spawn(process.execPath, [stewardBin, ...args], { cwd: repositoryRoot, env: { PATH: process.env.PATH ?? '', ...env } })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (status) => resolve(status)))
  let ended = false
  void exited.then(() => (ended = true))
  const lines = () => stdout.split('\n').slice(0, -1)
  return {
    child,
    lines,
    stderr: () => stderr,
    exited,
    async waitForStderr(pattern) {
      const deadline = Date.now() + 60_000
      while (!pattern.test(stderr)) {
        if (ended || Date.now() > deadline) throw new Error(`stderr never matched ${pattern}; stdout:\n${stdout}\nstderr:\n${stderr}`)
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    },
    async waitForLine(match) {
      const deadline = Date.now() + 60_000
      for (;;) {
        const found = lines().find(match)
        if (found !== undefined) return found
        if (ended || Date.now() > deadline) throw new Error(`no matching line; stdout:\n${stdout}\nstderr:\n${stderr}`)
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    },
  }
}
