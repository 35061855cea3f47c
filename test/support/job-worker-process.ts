/**
 * A worker process for the tests that kill one (test/platform/jobs-reclaim.test.ts,
 * test/modules/execution/execution-crash.test.ts): the runtime on DATABASE_URL with the pg-boss schema
 * JOB_SCHEMA running every job worker, as `npm run worker` does, until it is killed. Prints
 * `workers running` once they are. Its data directory (blobs) is DATA_DIR. Not a vitest file: it imports
 * nothing of the harness, which needs vitest.
 *
 * Optional, for the execution crash test: WORKERS=execution runs only the execution module's workers
 * (dispatch, the sandbox ACH provider's settlement, the sweeper); EXECUTION_SETTINGS (JSON, the runtime's
 * `execution` option) shortens its lease, sweeper and settlement; ACH_WEBHOOK_SECRET is passed on. With
 * START_ON_STDIN=true the process builds its runtime, prints `runtime ready` and starts its workers only
 * when a line arrives on stdin (a test boots the next process while the current one runs), and exits
 * when stdin closes (the test process is gone: no worker is left behind).
 */
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import pino from 'pino'
import { loadConfig } from '../../src/main/config.ts'
import { createRuntime, type ResolvedConfig } from '../../src/main/compose.ts'
import type { ExecutionSettings } from '../../src/modules/execution/index.ts'

const required = (name: string): string => {
  const value = process.env[name]
  if (value === undefined || value === '') throw new Error(`${name} is required`)
  return value
}
const optional = (name: string): string | undefined => (process.env[name] === '' ? undefined : process.env[name])

const workers = optional('WORKERS') ?? 'all'
if (workers !== 'all' && workers !== 'execution') throw new Error('WORKERS must be all or execution')
const executionSettings = optional('EXECUTION_SETTINGS')
const achWebhookSecret = optional('ACH_WEBHOOK_SECRET')
// Listening from the start: a line sent while the runtime is being built is not lost, nor is the end of stdin.
const started =
  process.env.START_ON_STDIN === 'true'
    ? new Promise<void>((resolve) => {
        process.stdin.once('data', () => resolve())
        process.stdin.once('end', () => process.exit(1))
      })
    : undefined

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
  ...(achWebhookSecret === undefined ? {} : { ACH_WEBHOOK_SECRET: achWebhookSecret }),
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
  ...(executionSettings === undefined ? {} : { execution: JSON.parse(executionSettings) as Partial<ExecutionSettings> }),
})
if (started !== undefined) {
  process.stdout.write('runtime ready\n')
  await started
}
if (workers === 'all') await runtime.startWorkers()
else await runtime.execution.startWorkers(runtime.jobs, { pollingIntervalSeconds: 0.5 })
process.stdout.write('workers running\n')
