/**
 * The OpenAPI 3.1 document the service serves at /v1/openapi.json, built from the same app on a
 * throwaway in-memory PGlite database, so it needs no running server and no configuration. Shared by
 * `npm run openapi`, `npm run lint:openapi` and `npm run sdk:generate` / `sdk:check`.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { loadConfig } from '../src/main/config.ts'
import { resolveSecrets } from '../src/main/secrets.ts'
import { createRuntime } from '../src/main/compose.ts'

/** The document's `servers` entry when none is given: the address `npm start` listens on. */
export const defaultPublicBaseUrl = 'http://127.0.0.1:8080'

export async function generateOpenApiDocument(options: { publicBaseUrl?: string } = {}): Promise<Record<string, unknown>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'steward-openapi-'))
  try {
    const config = resolveSecrets(
      loadConfig({
        STEWARD_ENV: 'sandbox',
        DATA_DIR: dataDir,
        PUBLIC_BASE_URL: options.publicBaseUrl ?? defaultPublicBaseUrl,
        JWT_SECRET: randomBytes(32).toString('hex'),
        API_KEY_PEPPER: randomBytes(32).toString('hex'),
        LOG_LEVEL: 'warn',
      }),
    )
    const runtime = await createRuntime({ config, logger: pino({ level: 'warn' }), pgliteDataDir: undefined, blobRoot: join(dataDir, 'blobs') })
    try {
      const app = await runtime.buildApp()
      try {
        const response = await app.inject({ method: 'GET', url: '/v1/openapi.json' })
        if (response.statusCode !== 200) throw new Error(`GET /v1/openapi.json answered ${response.statusCode}`)
        return response.json() as Record<string, unknown>
      } finally {
        await app.close()
      }
    } finally {
      await runtime.close()
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/** The document as the files hold it: two-space JSON with a final newline. */
export const documentText = (document: unknown) => `${JSON.stringify(document, null, 2)}\n`
