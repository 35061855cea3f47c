/**
 * The README cannot drift: every ```sh block of README.md runs verbatim, in order, in one bash
 * (`set -euo pipefail`, so a failing command or a `curl -f` that gets an error status fails the test)
 * against a server started as the quick start starts it — the sandbox with its demo business — with
 * `STEWARD_URL` and `DATA_DIR` set as the README tells a reader to set them. A block is left out only
 * when the line before it says `<!-- readme-test: skip (reason) -->` (the quick start's `npm start` and
 * `npm test`, which this test stands in for).
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { repositoryRoot, startServer, waitUntilServing, type RunningServer } from '../support/server-process.ts'

interface ShellBlock {
  readonly line: number
  readonly code: string
  readonly skip: string | undefined
}

/** The ```sh blocks of a Markdown text, each with the reason it is skipped, if the line before gives one. */
export function shellBlocks(markdown: string): ShellBlock[] {
  const lines = markdown.split('\n')
  const blocks: ShellBlock[] = []
  for (let index = 0; index < lines.length; index += 1) {
    if (lines[index]!.trim() !== '```sh') continue
    const end = lines.findIndex((line, at) => at > index && line.trim() === '```')
    if (end < 0) throw new Error(`README.md: the sh block at line ${index + 1} is not closed`)
    const before = lines[index - 1]?.match(/^<!-- readme-test: skip \((.+)\) -->$/)
    blocks.push({ line: index + 1, code: lines.slice(index + 1, end).join('\n'), skip: before?.[1] })
    index = end
  }
  return blocks
}

const readme = readFileSync(join(repositoryRoot, 'README.md'), 'utf8')
let server: RunningServer | undefined
let dataDir: string

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'steward-readme-'))
  server = await startServer({ DATA_DIR: dataDir })
  // The demo business loads before the server listens.
  await waitUntilServing(server, { timeoutMs: 240_000 })
}, 300_000)

afterAll(async () => {
  if (server !== undefined && server.child.exitCode === null) {
    server.child.kill('SIGTERM')
    await server.exited
  }
  rmSync(dataDir, { recursive: true, force: true })
})

describe('README.md', () => {
  it('links the interface specification shipped in docs/, the same text as the workspace\'s copy where there is one', () => {
    expect(readme).toContain('[`docs/service-spec.md`](docs/service-spec.md)')
    const shipped = readFileSync(join(repositoryRoot, 'docs/service-spec.md'), 'utf8')
    expect(shipped).toMatch(/^# /)
    const workspaceCopy = join(repositoryRoot, '../shared/spec/service-spec.md')
    if (existsSync(workspaceCopy)) expect(shipped).toBe(readFileSync(workspaceCopy, 'utf8'))
  })

  it('has shell blocks to run, and skips only the ones that say why', () => {
    const blocks = shellBlocks(readme)
    expect(blocks.filter((block) => block.skip === undefined).length).toBeGreaterThanOrEqual(5)
    // Only the quick start's own commands, the containers (no Docker here) and the interactive CLI tour stand outside the test.
    expect(blocks.filter((block) => block.skip !== undefined).map((block) => block.code)).toEqual([
      expect.stringContaining('npm start'),
      expect.stringContaining('docker compose up'),
      expect.stringContaining('steward login'),
    ])
  })

  it('runs every shell block verbatim against a started sandbox', async () => {
    const blocks = shellBlocks(readme).filter((block) => block.skip === undefined)
    // One shell, so variables flow from block to block as in a reader's terminal; a marker names the block that failed.
    const script = ['set -euo pipefail', ...blocks.flatMap((block) => [`echo "::readme block at line ${block.line}::"`, block.code])].join('\n')
    const child = spawn('bash', ['-c', script], {
      cwd: repositoryRoot,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), STEWARD_URL: server!.url, DATA_DIR: dataDir },
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const status = await new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
    expect(status, `a README block failed (the last marker names it):\n${output}`).toBe(0)

    // What the reader is told they will see.
    expect(output).toContain('"status":"ok"')
    expect(output).toMatch(/"verification_token":"vt_/)
    expect(output).toMatch(/"invitation_token":"/)
    expect(output).toMatch(/"status":"active"/)
    expect(output).toContain('"type":"api_key"')
  }, 120_000)
})
