/**
 * Logs as an operator reads them: JSON lines by default (what log processors and the other tests read),
 * and with LOG_FORMAT=pretty (or on a terminal) readable lines, one per request.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { isReadableLog } from '../../src/main/boot.ts'
import { startServer, waitUntilServing } from '../support/server-process.ts'

const dataDirs: string[] = []
afterAll(() => {
  for (const directory of dataDirs) rmSync(directory, { recursive: true, force: true })
})

describe('log format', () => {
  it('is readable for a terminal or LOG_FORMAT=pretty, JSON otherwise', () => {
    expect(isReadableLog('auto', true)).toBe(true)
    expect(isReadableLog('auto', false)).toBe(false)
    expect(isReadableLog('pretty', false)).toBe(true)
    expect(isReadableLog('json', true)).toBe(false)
  })

  it('LOG_FORMAT=pretty writes one readable line per request, and no JSON', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'steward-logs-'))
    dataDirs.push(dataDir)
    const server = await startServer({ DATA_DIR: dataDir, SANDBOX_DEMO_DATA: 'false', LOG_FORMAT: 'pretty' })
    try {
      await waitUntilServing(server)
      const before = server.output().length
      expect((await fetch(`${server.url}/v1/no-such-route`)).status).toBe(404)
      expect((await fetch(`${server.url}/v1/no-such-route`)).status).toBe(404)
      await new Promise((resolve) => setTimeout(resolve, 200))
      const lines = server.output().slice(before).split('\n').filter((line) => line.trim() !== '')
      expect(server.output()).toMatch(/GET \/v1\/health 200 \d+ ms/)
      expect(lines.filter((line) => line.includes('GET /v1/no-such-route 404 '))).toHaveLength(2)
      expect(lines.some((line) => /incoming request|request completed/.test(line))).toBe(false)
      expect(server.output()).not.toMatch(/^\{"level"/m)
    } finally {
      server.child.kill('SIGTERM')
      await server.exited
    }
  }, 120_000)
})
