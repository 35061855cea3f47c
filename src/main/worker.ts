/** The background worker process: job handlers only (outbox, deliveries, purges), no HTTP. */
import { boot, onShutdownSignal } from './boot.ts'

if ((process.env.DATABASE_URL ?? '').trim() === '') {
  process.stderr.write('The worker process needs PostgreSQL (DATABASE_URL). On embedded PGlite the server runs the workers itself.\n')
  process.exit(78)
}
// Never generates secrets: a worker with a DATA_DIR of its own would sign with keys no server knows.
const runtime = await boot('steward-worker', { generateSecrets: false })
await runtime.startWorkers()
runtime.logger.info('workers running')
onShutdownSignal(runtime.logger, () => runtime.close())
