/**
 * `npm run openapi [-- <file>]`: writes the OpenAPI 3.1 document the service serves at /v1/openapi.json
 * (to stdout, or to <file>), built from the same app on a throwaway in-memory PGlite database, so it
 * needs no running server and no configuration.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { loadConfig } from '../src/main/config.ts'
import { resolveSecrets } from '../src/main/secrets.ts'
import { createRuntime } from '../src/main/compose.ts'

const output = process.argv[2]
const dataDir = mkdtempSync(join(tmpdir(), 'steward-openapi-'))
try {
  const config = resolveSecrets(
    loadConfig({
      STEWARD_ENV: 'sandbox',
      DATA_DIR: dataDir,
      PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL ?? 'http://127.0.0.1:8080',
      JWT_SECRET: randomBytes(32).toString('hex'),
      API_KEY_PEPPER: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
    }),
  )
  const runtime = await createRuntime({ config, logger: pino({ level: 'warn' }), pgliteDataDir: undefined, blobRoot: join(dataDir, 'blobs') })
  try {
    const app = await runtime.buildApp()
    const response = await app.inject({ method: 'GET', url: '/v1/openapi.json' })
    if (response.statusCode !== 200) throw new Error(`GET /v1/openapi.json answered ${response.statusCode}`)
    const document = `${JSON.stringify(response.json(), null, 2)}\n`
    if (output === undefined) process.stdout.write(document)
    else writeFileSync(output, document)
    await app.close()
  } finally {
    await runtime.close()
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true })
}
