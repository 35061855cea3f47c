/**
 * What every process entry point does first: read and validate the environment (exiting with every
 * problem listed when it is wrong), resolve secrets, create the logger, and open the runtime.
 */
import { join } from 'node:path'
import pino from 'pino'
import pretty from 'pino-pretty'
import { ConfigError, loadConfig } from './config.ts'
import { DataDirInUseError } from '../platform/db/database.ts'
import { createRuntime, type Runtime } from './compose.ts'
import { resolveSecrets } from './secrets.ts'

/** `generateSecrets: false` for a process that must use the server's secrets (a separate worker). */
export async function boot(processName: string, bootOptions: { readonly generateSecrets?: boolean } = {}): Promise<Runtime> {
  let config
  try {
    config = resolveSecrets(loadConfig(process.env), { generate: bootOptions.generateSecrets ?? true })
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`)
      process.exit(78) // EX_CONFIG
    }
    throw error
  }
  const options = {
    name: processName,
    level: config.logLevel,
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-platform-service-auth"]', 'req.headers.cookie'],
      censor: '[redacted]',
    },
  }
  // Readable lines for a person at a terminal; JSON lines for everything that reads logs (and tests).
  const readable = isReadableLog(config.logFormat, process.stdout.isTTY === true)
  const logger = readable
    ? pino(options, pretty({ sync: true, colorize: process.stdout.isTTY === true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,name' }))
    : pino(options)
  logger.info(
    { environment: config.environment, engine: config.databaseUrl === undefined ? 'pglite' : 'postgres', data_dir: config.dataDir, blob_store: config.blobStore.kind },
    'starting',
  )
  try {
    return await createRuntime({
      config,
      logger,
      pgliteDataDir: config.databaseUrl === undefined ? join(config.dataDir, 'pglite') : undefined,
      blobRoot: join(config.dataDir, 'blobs'),
      requestLog: readable ? 'line' : 'pair',
    })
  } catch (error) {
    if (error instanceof DataDirInUseError) {
      logger.fatal(error.message)
      process.exit(75) // EX_TEMPFAIL
    }
    throw error
  }
}

/** Runs `stop` once on SIGINT/SIGTERM; a second signal exits at once. */
export function onShutdownSignal(logger: { info(object: object, message: string): void }, stop: () => Promise<void>): void {
  let stopping = false
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(130)
    stopping = true
    logger.info({ signal }, 'shutting down: draining requests and jobs')
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`shutdown failed: ${String(error)}\n`)
        process.exit(1)
      },
    )
  }
  process.once('SIGINT', handle)
  process.once('SIGTERM', handle)
}

/** Whether logs are written for a person (LOG_FORMAT, or a terminal on stdout when it is `auto`). */
export function isReadableLog(format: 'auto' | 'pretty' | 'json', stdoutIsTerminal: boolean): boolean {
  return format === 'pretty' || (format === 'auto' && stdoutIsTerminal)
}
