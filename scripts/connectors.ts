/**
 * `npm run connectors -- <command> …`: binds provider accounts to tenants, out of band (the spec has no
 * HTTP surface for connectors). A connection names the account its webhooks carry in
 * `X-Provider-Account` and holds the secret they are signed with (docs/raw.md).
 *
 *   add           --tenant <uuid> --provider <provider> --account <account>   prints the new secret once
 *   list          --tenant <uuid>
 *   pause         --tenant <uuid> --provider <provider> --account <account>
 *   resume        --tenant <uuid> --provider <provider> --account <account>
 *   revoke        --tenant <uuid> --provider <provider> --account <account>
 *   rotate-secret --tenant <uuid> --provider <provider> --account <account>   prints the new secret once
 *
 * `--json` prints one JSON document instead of text. Every change is audited and emits
 * raw.source.status_changed. It uses the server's configuration: DATABASE_URL, or the embedded database
 * under DATA_DIR — which a running server holds: stop it first (exit 75 otherwise), or use PostgreSQL.
 * Exit status: 0 done, 1 refused (unknown tenant or connection, a move that is not allowed), 2 usage,
 * 75 database in use, 78 configuration.
 */
import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import pino from 'pino'
import { createAuditRecorder } from '../src/modules/audit/audit.recorder.ts'
import { ConfigError, loadConfig } from '../src/main/config.ts'
import { DataDirInUseError, openDatabase, type Database } from '../src/platform/db/database.ts'
import { createJobQueue, type JobQueue } from '../src/platform/jobs/job-queue.ts'
import { systemClock } from '../src/kernel/clock.ts'
import { createIdSource, uuidPattern } from '../src/kernel/ids.ts'
import { ConnectorError, createConnectorsService, type ConnectionView } from '../src/modules/raw/connectors.service.ts'
import { providers, type Provider } from '../src/modules/raw/domain/source-types.ts'
import { createRawStore } from '../src/modules/raw/raw.store.pg.ts'
import { createEventRecorder } from '../src/platform/outbox/events.ts'
import { createCommandRunner } from '../src/platform/commands/command.ts'
import { createIdempotencyStore } from '../src/platform/commands/idempotency.store.pg.ts'
import { allQueues } from '../src/main/compose.ts'
import { createWebhookSubscriber } from '../src/modules/webhooks/index.ts'
import { createTenantDirectory } from '../src/modules/tenants/index.ts'

const commands = ['add', 'list', 'pause', 'resume', 'revoke', 'rotate-secret'] as const
type Command = (typeof commands)[number]

const usage = `usage: npm run connectors -- <command> --tenant <tenant uuid> [--provider <provider> --account <account>] [--json]
commands: ${commands.join(', ')} (list needs only --tenant)
providers: ${providers.join(', ')}
`

function fail(status: number, message: string): never {
  process.stderr.write(message.endsWith('\n') ? message : `${message}\n`)
  process.exit(status)
}

let parsed
try {
  parsed = parseArgs({
    allowPositionals: true,
    strict: true,
    options: { tenant: { type: 'string' }, provider: { type: 'string' }, account: { type: 'string' }, json: { type: 'boolean', default: false } },
  })
} catch (error) {
  fail(2, `${error instanceof Error ? error.message : String(error)}\n${usage}`)
}
const { values, positionals } = parsed
const command = positionals[0] as Command | undefined
if (command === undefined || !commands.includes(command) || positionals.length !== 1) fail(2, usage)
if (values.tenant === undefined || !new RegExp(uuidPattern).test(values.tenant)) fail(2, `--tenant must be a tenant uuid\n${usage}`)
const tenantId = values.tenant
const needsAccount = command !== 'list'
if (needsAccount && (values.provider === undefined || !(providers as readonly string[]).includes(values.provider))) fail(2, `--provider must be one of ${providers.join(', ')}\n${usage}`)
if (needsAccount && (values.account === undefined || values.account === '')) fail(2, `--account is required\n${usage}`)
const provider = values.provider as Provider
const account = values.account ?? ''

let config
try {
  config = loadConfig(process.env)
} catch (error) {
  if (error instanceof ConfigError) fail(78, error.message)
  throw error
}

let db: Database
try {
  db = await openDatabase({ url: config.databaseUrl, pgliteDataDir: config.databaseUrl === undefined ? join(config.dataDir, 'pglite') : undefined })
} catch (error) {
  if (error instanceof DataDirInUseError) fail(75, `${error.message}\nStop the server (or use DATABASE_URL) and run this again.`)
  throw error
}
let jobs: JobQueue | undefined
const print = (text: string) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`)
const describe = (connection: ConnectionView) => `${connection.connection_id}  ${connection.provider}  ${connection.account_ref}  ${connection.status}  (updated ${connection.updated_at})`

try {
  await db.migrate()
  // Business events enqueue their webhook fan-out, so the job queue runs here too (its default schema, as the server's).
  const logger = pino({ level: 'warn' }, pino.destination(2))
  jobs = createJobQueue(db, { schema: 'pgboss', logger, queues: allQueues })
  await jobs.start()
  const ids = createIdSource()
  const commands = createCommandRunner({
    db,
    clock: systemClock,
    audit: createAuditRecorder({ ids, clock: systemClock }),
    events: createEventRecorder({ ids, clock: systemClock, subscriber: createWebhookSubscriber({ jobs }) }),
    jobs,
    idempotency: createIdempotencyStore(),
  })
  const connectors = createConnectorsService({ db, commands, store: createRawStore(), tenants: createTenantDirectory(), ids, clock: systemClock })
  // The CLI is no request and sends no Idempotency-Key: each run of a command runs it.
  const context = { requestId: `connectors-cli-${randomUUID()}` }

  switch (command) {
    case 'list': {
      const connections = await connectors.list(tenantId)
      if (values.json) print(JSON.stringify({ connections }, null, 2))
      else print(connections.length === 0 ? `tenant ${tenantId} has no provider connections` : connections.map(describe).join('\n'))
      break
    }
    case 'add':
    case 'rotate-secret': {
      const input = { tenantId, provider, accountRef: account }
      const { connection, secret } = (command === 'add' ? await connectors.add(context, input) : await connectors.rotateSecret(context, input)).outcome
      const webhookUrl = `${config.publicBaseUrl}/v1/raw/webhooks/${connection.provider}`
      if (values.json) {
        print(JSON.stringify({ connection, secret, webhook_url: webhookUrl }, null, 2))
      } else {
        print(
          [
            `${command === 'add' ? 'Connected' : 'Rotated the secret of'} ${describe(connection)}`,
            `Webhook URL:              ${webhookUrl}`,
            `Header X-Provider-Account: ${connection.account_ref}`,
            `Signing secret (shown once, store it now): ${secret}`,
            'Sign each delivery: X-Provider-Signature: t=<unix seconds>,v1=<hex HMAC-SHA-256(secret, "<t>." + body)> (docs/raw.md).',
          ].join('\n'),
        )
      }
      break
    }
    case 'pause':
    case 'resume':
    case 'revoke': {
      const { connection, changed } = (await connectors.change(context, { tenantId, provider, accountRef: account, move: command })).outcome
      if (values.json) print(JSON.stringify({ connection, changed }, null, 2))
      else print(`${changed ? 'Now' : 'Already'} ${describe(connection)}`)
      break
    }
  }
} catch (error) {
  if (error instanceof ConnectorError) {
    process.stderr.write(`${error.message}\n`)
    process.exitCode = 1
  } else {
    throw error
  }
} finally {
  await jobs?.stop({ timeoutMs: 5_000 })
  await db.close()
}
