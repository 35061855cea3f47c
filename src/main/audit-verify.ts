/**
 * `npm run audit:verify -- --tenant <id>`: walks a tenant's audit chain and prints the result as JSON;
 * exit status 0 when the chain is whole, 1 when it names a break, 2 on bad arguments. Uses the same
 * configuration as the server (DATABASE_URL, or the embedded database under DATA_DIR, which must not be
 * open in a running server: stop it, or run this against PostgreSQL).
 */
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { walkAuditChain } from '../modules/audit/index.ts'
import { ConfigError, loadConfig } from './config.ts'
import { openDatabase } from '../platform/db/database.ts'
import { uuidPattern } from '../kernel/ids.ts'

const { values } = parseArgs({ options: { tenant: { type: 'string' }, 'skip-anchors': { type: 'boolean', default: false } }, strict: true })
if (values.tenant === undefined || !new RegExp(uuidPattern).test(values.tenant)) {
  process.stderr.write('usage: npm run audit:verify -- --tenant <tenant uuid> [--skip-anchors]\n')
  process.exit(2)
}
let config
try {
  config = loadConfig(process.env)
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`)
    process.exit(78)
  }
  throw error
}
const db = await openDatabase({ url: config.databaseUrl, pgliteDataDir: config.databaseUrl === undefined ? join(config.dataDir, 'pglite') : undefined })
try {
  const result = await walkAuditChain(db, values.tenant, { checkAnchors: !values['skip-anchors'] })
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`)
  process.exitCode = result.ok ? 0 : 1
} finally {
  await db.close()
}
