/** The background worker process: job handlers only (outbox, deliveries, purges), no HTTP. */
import { boot, onShutdownSignal } from './boot.ts'

const runtime = await boot('steward-worker')
await runtime.startWorkers()
runtime.logger.info('workers running')
onShutdownSignal(runtime.logger, () => runtime.close())
