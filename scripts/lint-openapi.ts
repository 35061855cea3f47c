/**
 * `npm run lint:openapi`: generates the OpenAPI document (as `npm run openapi` does) and lints it with
 * Redocly CLI under redocly.yaml. Exits non-zero when Redocly reports an error (warnings are printed
 * but pass); CI runs it with the static checks.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { documentText, generateOpenApiDocument } from './openapi-document.ts'

const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), '..')
const redocly = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin', 'cli.js')

const directory = mkdtempSync(join(tmpdir(), 'steward-lint-openapi-'))
try {
  const file = join(directory, 'openapi.json')
  writeFileSync(file, documentText(await generateOpenApiDocument()))
  const result = spawnSync(process.execPath, [redocly, 'lint', '--config', join(repositoryRoot, 'redocly.yaml'), '--format', 'stylish', file], {
    cwd: repositoryRoot,
    stdio: 'inherit',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  })
  process.exitCode = result.status ?? 1
} finally {
  rmSync(directory, { recursive: true, force: true })
}
