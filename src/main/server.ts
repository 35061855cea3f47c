/**
 * The HTTP server process. Runs the job workers in-process too unless WORKERS_IN_PROCESS=false (then
 * run `npm run worker` beside it). On SIGTERM it stops accepting connections, lets in-flight requests
 * finish, lets running jobs finish (up to SHUTDOWN_TIMEOUT_MS), then closes the database.
 */
import { loadDemoBusiness } from './sandbox/demo-business.ts'
import { boot, onShutdownSignal } from './boot.ts'
import { startMcpListener } from './mcp-listener.ts'

const runtime = await boot('steward-server')
const app = await runtime.buildApp()
if (runtime.config.workersInProcess) await runtime.startWorkers()
if (runtime.config.environment === 'sandbox' && runtime.config.sandboxDemoData) {
  // First start of this sandbox: the demo business, through the real ingest pipeline.
  await loadDemoBusiness(runtime, app, runtime.logger).catch((error: unknown) => runtime.logger.error({ err: error }, 'sandbox demo business could not be loaded'))
}

let mcpListener: Awaited<ReturnType<typeof startMcpListener>> | undefined

onShutdownSignal(runtime.logger, async () => {
  const timer = setTimeout(() => {
    runtime.logger.error('shutdown timed out; exiting')
    process.exit(1)
  }, runtime.config.shutdownTimeoutMs * 2)
  timer.unref()
  if (mcpListener !== undefined) await new Promise<void>((resolve) => mcpListener!.close(() => resolve()))
  await app.close()
  runtime.logger.info('http server closed; in-flight requests answered')
  await runtime.close()
  runtime.logger.info('workers stopped and database closed')
})

await app.listen({ port: runtime.config.port, host: runtime.config.host })
if (runtime.config.mcpPort !== undefined) {
  mcpListener = await startMcpListener(app, { port: runtime.config.mcpPort, host: runtime.config.host })
  runtime.logger.info({ port: runtime.config.mcpPort }, 'the agent protocol (MCP) is serving POST / on its own port')
}
runtime.logger.info(
  { url: runtime.config.publicBaseUrl, reference: `${runtime.config.publicBaseUrl}/docs/api` },
  `Steward ${runtime.config.environment} API is serving`,
)
