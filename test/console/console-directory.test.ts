/**
 * Where the console is served from: CONSOLE_DIR (read by loadConfig, handed to the app), or the
 * repository's dist/console when unset. No browser: the files are fetched through inject.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/main/config.ts'
import { createTestApp, type TestApp } from '../support/harness.ts'

let folder: string
let test: TestApp

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'steward-console-'))
  writeFileSync(join(folder, 'index.html'), '<!doctype html><title>configured console</title>')
  writeFileSync(join(folder, 'app-TEST.js'), 'export {}')
  test = await createTestApp({ env: { CONSOLE_DIR: folder } })
})
afterAll(async () => {
  await test?.close()
  rmSync(folder, { recursive: true, force: true })
})

describe('the console folder', () => {
  it('is CONSOLE_DIR when set, and undefined (the repository\'s dist/console) when not', () => {
    expect(loadConfig({ CONSOLE_DIR: '/srv/steward/console' }).consoleDirectory).toBe('/srv/steward/console')
    expect(loadConfig({}).consoleDirectory).toBeUndefined()
  })

  it('serves the page and its assets from the configured folder, with the console\'s CSP', async () => {
    const page = await test.app.inject({ method: 'GET', url: '/console' })
    expect(page.statusCode, page.body).toBe(200)
    expect(page.body).toContain('configured console')
    expect(page.headers['content-security-policy']).toContain("default-src 'self'")
    const asset = await test.app.inject({ method: 'GET', url: '/console/app-TEST.js' })
    expect(asset.statusCode).toBe(200)
    expect(asset.body).toBe('export {}')
    expect((await test.app.inject({ method: 'GET', url: '/console/app-OTHER.js' })).statusCode).toBe(404)
  })

  it('answers 503 in the error envelope while the folder holds no built console', async () => {
    rmSync(join(folder, 'index.html'))
    try {
      const page = await test.app.inject({ method: 'GET', url: '/console' })
      expect(page.statusCode).toBe(503)
      expect(page.headers['content-type']).toContain('application/json')
      expect(page.json()).toEqual({
        error: {
          code: 'service_unavailable',
          message: 'The console is not built: run `npm run console:build` (npm start builds it when missing).',
          request_id: expect.stringMatching(/^req_/),
          docs_url: expect.stringContaining('#service_unavailable'),
        },
      })
    } finally {
      writeFileSync(join(folder, 'index.html'), '<!doctype html><title>configured console</title>')
    }
  })
})
