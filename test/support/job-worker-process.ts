/**
 * A worker process for the tests that kill one (test/platform/jobs-reclaim.test.ts): the runtime on DATABASE_URL
 * with the pg-boss schema JOB_SCHEMA running every job worker, as `npm run worker` does, until it is
 * killed. Prints `workers running` once they are. Its data directory (blobs) is DATA_DIR. Not a vitest
 * file: it imports nothing of the harness, which needs vitest.
 */
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import pino from 'pino'
import { loadConfig } from '../../src/main/config.ts'
import { createRuntime, type ResolvedConfig } from '../../src/main/compose.ts'

const required = (name: string): string => {
  const value = process.env[name]
  if (value === undefined || value === '') throw new Error(`${name} is required`)
  return value
}

const dataDir = required('DATA_DIR')
const config = loadConfig({
  STEWARD_ENV: 'sandbox',
  PUBLIC_BASE_URL: 'http://steward.test',
  DATA_DIR: dataDir,
  DATABASE_URL: required('DATABASE_URL'),
  SERVICE_TOKEN_SECRET: randomBytes(32).toString('hex'),
  PLATFORM_SERVICE_SECRET: randomBytes(32).toString('hex'),
  JWT_SECRET: randomBytes(32).toString('hex'),
  API_KEY_PEPPER: randomBytes(32).toString('hex'),
  LOG_LEVEL: 'warn',
}) as ResolvedConfig
const runtime = await createRuntime({
  config,
  logger: pino({ level: config.logLevel }),
  pgliteDataDir: undefined,
  blobRoot: join(dataDir, 'blobs'),
  jobSchema: required('JOB_SCHEMA'),
  jobPollingIntervalSeconds: 0.5,
  // The same cost parameters as the harness: this process hashes no passwords, but the runtime builds a hasher.
  scrypt: { log2N: 12, r: 8, p: 1 },
})
await runtime.startWorkers()
process.stdout.write('workers running\n')
