/**
 * `npm run audit:verify -- --tenant <id>`: walks a tenant's audit chain and prints the result as JSON.
 *
 * With PLATFORM_SERVICE_SECRET set it asks the running server (GET /v1/platform/audit/chain, at
 * STEWARD_URL, else PUBLIC_BASE_URL, else http://localhost:$PORT), so it works while the server runs on
 * either engine. Without it, or with `--direct`, it opens the database itself (DATABASE_URL, or the
 * embedded database under DATA_DIR, which a running server holds: then it says so in one line).
 *
 * Exit status: 0 the chain is whole, 1 it names a break (or the server refused), 2 usage, 69 the server
 * could not be reached, 75 the embedded database is in use by a running server, 78 configuration.
 */
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { walkAuditChain } from '../modules/audit/index.ts'
import { ConfigError, loadConfig } from './config.ts'
import { DataDirInUseError, openDatabase } from '../platform/db/database.ts'
import { uuidPattern } from '../kernel/ids.ts'

const usage = 'usage: npm run audit:verify -- --tenant <tenant uuid> [--skip-anchors] [--direct]\n'

function fail(status: number, message: string): never {
  process.stderr.write(message.endsWith('\n') ? message : `${message}\n`)
  process.exit(status)
}

let values
try {
  values = parseArgs({ options: { tenant: { type: 'string' }, 'skip-anchors': { type: 'boolean', default: false }, direct: { type: 'boolean', default: false } }, strict: true }).values
} catch (error) {
  fail(2, `${(error as Error).message}\n${usage}`)
}
if (values.tenant === undefined || !new RegExp(uuidPattern).test(values.tenant)) fail(2, usage)
const tenantId = values.tenant
const checkAnchors = !values['skip-anchors']
const platformSecret = process.env.PLATFORM_SERVICE_SECRET

if (platformSecret !== undefined && platformSecret !== '' && !values.direct) {
  // Only what the API call needs is read: this process is a client of the server, not a second server.
  const baseUrl = (process.env.STEWARD_URL || process.env.PUBLIC_BASE_URL || `http://localhost:${process.env.PORT || '8080'}`).replace(/\/+$/, '')
  const url = `${baseUrl}/v1/platform/audit/chain?tenant_id=${encodeURIComponent(tenantId)}&check_anchors=${checkAnchors}`
  let response: Response
  try {
    response = await fetch(url, { headers: { 'x-platform-service-auth': platformSecret, accept: 'application/json' }, signal: AbortSignal.timeout(10 * 60_000) })
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message
    fail(69, `cannot reach ${baseUrl}: ${cause} (is the server running? STEWARD_URL says where it is; --direct opens the database instead)`)
  }
  const body = (await response.json().catch(() => undefined)) as { ok?: boolean; error?: { code: string; message: string } } | undefined
  if (!response.ok) fail(1, `${body?.error?.message ?? `HTTP ${response.status}`} [${body?.error?.code ?? response.status}]`)
  process.stdout.write(`${JSON.stringify(body, null, 2)}\n`)
  process.exit(body?.ok === true ? 0 : 1)
}

let config
try {
  config = loadConfig(process.env)
} catch (error) {
  if (error instanceof ConfigError) fail(78, error.message)
  throw error
}
let db
try {
  db = await openDatabase({ url: config.databaseUrl, pgliteDataDir: config.databaseUrl === undefined ? join(config.dataDir, 'pglite') : undefined })
} catch (error) {
  if (error instanceof DataDirInUseError) {
    fail(75, `audit:verify: the embedded database in ${error.dataDir} is in use by another process (pid ${error.pid}), a running server: set PLATFORM_SERVICE_SECRET (the server's) to verify through it, or stop the server.`)
  }
  throw error
}
try {
  const result = await walkAuditChain(db, tenantId, { checkAnchors })
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`)
  process.exitCode = result.ok ? 0 : 1
} finally {
  await db.close()
}
